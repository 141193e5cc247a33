//! The sentences that explain an answer, built next to the rules they state: a level's verdict
//! and comparisons of two figures. The page only places them.

use crate::core::model::format::{failed_text, level as level_text, trimmed, url_number};
use crate::core::model::statistic::Metric;
use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::planner::{Condition, Plan, Slo, Status, Verdict};
use crate::core::text::attainment_text::attainment_text;

/// The "Judged on" menu's note under `attain`: the statistic judges only the levels without
/// per-request records.
pub const STAT_UNDER_ATTAIN: &str = "With `attain`, a level with per-request records is judged request by request: this statistic only matters where a level has no per-request records.";

/// A statistic as the "Judged on" menu offers it for `sweep`: its label, and where its per-user
/// speed cannot be true (the `implausible-speed` rule, judged per statistic) how many levels
/// say so: "p50 ITL (median token gap) — implausible speed at 7 of 7 levels".
pub fn statistic_option(sweep: &Sweep, stat: Statistic) -> String {
    match crate::core::plan::anomalies::implausible_levels(sweep, stat) {
        0 => stat.label().to_string(),
        n => format!(
            "{} — implausible speed at {n} of {} levels",
            stat.label(),
            sweep.levels().len()
        ),
    }
}

/// What a control whose change needs the whole bundled data says while it is read, or, given
/// the error, why it could not be.
pub fn reading_whole(error: Option<&str>) -> String {
    match error {
        None => "Reading the other models' sweeps…".to_string(),
        Some(e) => {
            format!("The other models' sweeps could not be read ({e}); choose again to retry.")
        }
    }
}

/// "meets", or "fails: target" / "fails: p99 ITL ≤ 150 ms" / "fails: saturated (served 3.8 of
/// 8 req/s)", naming each broken condition; "not reported: …" when a statistic it is judged on
/// is not reported at the level.
pub fn verdict_text(slo: &Slo, verdict: &Verdict) -> String {
    if verdict.meets {
        return "meets".into();
    }
    let names: Vec<String> = verdict
        .broken
        .iter()
        .map(|c| match c {
            Condition::Target => "target".to_string(),
            Condition::Limit(i) => slo.limits.get(*i).map_or_else(String::new, |l| {
                format!("{} ≤ {} ms", l.stat.short_label(), l.max_ms)
            }),
            Condition::Saturated {
                served_req_s,
                offered_req_s,
            } => format!(
                "saturated (served {} of {} req/s)",
                trimmed(*served_req_s, 2),
                trimmed(*offered_req_s, 4)
            ),
            Condition::FailedRequests {
                failed,
                issued,
                share,
            } => failed_text(*failed, *issued, *share),
            Condition::Attainment(a) => attainment_text(a, slo.attain),
        })
        .collect();
    if verdict.unreported {
        format!("not reported: {}", names.join(", "))
    } else {
        format!("fails: {}", names.join(", "))
    }
}

/// The aggregate statistic offered where a sweep has no per-request records: TPOT at the
/// percentile asked (p95 for `attain=95`, percent) where the sweep reports it, else the
/// statistic `chosen` in the menu where it reports that, else its first per-token statistic.
fn aggregate_instead(available: &[Statistic], attain: f64, chosen: Statistic) -> Option<Statistic> {
    let asked = Statistic::ALL.into_iter().find(|s| {
        s.metric() == Metric::Tpot
            && s.parts()
                .and_then(|(_, a)| a.percentile())
                .is_some_and(|p| f64::from(p) == attain.round())
    });
    asked
        .filter(|s| available.contains(s))
        .or_else(|| Some(chosen).filter(|s| s.is_per_token() && available.contains(s)))
        .or_else(|| available.iter().copied().find(|s| s.is_per_token()))
}

/// The sentence under the answer that says why it is what it is (the `rec-status` text), for
/// every status. Levels that do not report a statistic the plan judges on are never said to
/// meet or fail: "every level that reports mean TPOT meets", "even the smallest level that
/// reports p90 ITL (8) fails".
pub fn status_text(sweep: &Sweep, plan: &Plan, slo: &Slo) -> String {
    let levels = sweep.levels();
    let stat = match slo.attain {
        Some(_) => "per-request records",
        None => slo.stat.short_label(),
    };
    let and_limits = if slo.limits.is_empty() {
        ""
    } else {
        " and every limit"
    };
    let some_unreported = plan.verdicts.iter().any(|v| v.unreported);
    let level_at = |i: Option<usize>| i.and_then(|i| levels.get(i)).map(|l| level_text(l.level));
    match &plan.status {
        Status::AllMeet => {
            let top = level_at(plan.recommended).unwrap_or_default();
            if some_unreported {
                let larger = plan.recommended.is_some_and(|r| r + 1 < levels.len());
                format!(
                    "Every level that reports {stat} meets the target{and_limits}. The highest level that meets may lie above {top}, the largest that does; {}.",
                    if larger {
                        "the larger measured levels do not report it"
                    } else {
                        "the levels that do not report it are not judged"
                    }
                )
            } else {
                format!(
                    "Every measured level meets the target{and_limits}. The highest level that meets may lie above {top}, the largest measured."
                )
            }
        }
        Status::Ok => {
            let why = plan
                .first_failure
                .and_then(|i| plan.verdicts.get(i))
                .map(|v| verdict_text(slo, v))
                .unwrap_or_default();
            format!(
                "Meets the target{and_limits} at every level up to {}; {} {why}.",
                level_at(plan.recommended).unwrap_or_default(),
                level_at(plan.first_failure).unwrap_or_default(),
            )
        }
        Status::Unattainable => {
            let first_judged = plan.verdicts.iter().position(|v| !v.unreported);
            // What that level breaks: "the target", or each condition by name when it is not the
            // target alone (a limit, a saturated run).
            let fails = match first_judged.and_then(|i| plan.verdicts.get(i)) {
                Some(v) if v.broken.as_slice() != [Condition::Target] => verdict_text(slo, v),
                _ => "fails the target".to_string(),
            };
            if first_judged.is_some_and(|i| i > 0) {
                format!(
                    "Unattainable: even the smallest level that reports {stat} ({}) {fails}.",
                    level_at(first_judged).unwrap_or_default()
                )
            } else {
                format!("Unattainable: even the smallest measured level {fails}.")
            }
        }
        Status::NoData {
            missing,
            available,
            records_missing,
        } => no_data_text(slo, missing, available, *records_missing),
    }
}

/// The `rec-status` sentence when no level can be judged: under attainment, that the sweep has
/// no per-request records (and the aggregate to judge on instead); else that no level reports
/// the statistics together (`missing` empty), or which are `missing` and what is `available`.
fn no_data_text(
    slo: &Slo,
    missing: &[Statistic],
    available: &[Statistic],
    records_missing: bool,
) -> String {
    if records_missing {
        let attain = slo.attain.unwrap_or(100.0);
        let instead =
            aggregate_instead(available, attain, slo.stat).map_or_else(String::new, |s| {
                format!(
                    " Judge it on an aggregate instead: {} (stat={}, without attain).",
                    s.short_label(),
                    s.key()
                )
            });
        format!(
            "No data: attain={} counts each request, and this sweep has no per-request records (vLLM bench serve --save-detailed, SGLang bench_serving and LLMPerf's individual responses write them; a shared #sweep= link carries none).{instead}",
            url_number(attain)
        )
    } else if missing.is_empty() {
        format!(
            "No data: no level of this sweep reports {} together, so none can be judged on all of them.",
            slo.statistics()
                .iter()
                .map(|s| s.short_label())
                .collect::<Vec<_>>()
                .join(" and "),
        )
    } else {
        // Named in words ("p99 TTFT"), as the menus and the table name them.
        let keys = |stats: &[crate::core::model::statistic::Statistic]| {
            stats
                .iter()
                .map(|s| s.short_label())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "No data: this sweep reports no {}. It has: {}.",
            keys(missing),
            if available.is_empty() {
                "no statistic at all".to_string()
            } else {
                keys(available)
            },
        )
    }
}

/// A comparison that reads the way its ratio `r` (new / old) runs: `"1.4x faster"` (with
/// `up` = "faster") when r ≥ 1, `"6.5x lower"` (with `down` = "lower", written as 1 / r) when
/// r < 1, and `"about the same"` when max(r, 1 / r) < 1.05. Never "1x higher" or "0.7x slower".
pub fn times(r: f64, up: &str, down: &str) -> String {
    if !r.is_finite() || r <= 0.0 {
        return "not comparable".to_string();
    }
    if r.max(1.0 / r) < 1.05 {
        "about the same".to_string()
    } else if r >= 1.0 {
        format!("{}x {up}", trimmed(r, 2))
    } else {
        format!("{}x {down}", trimmed(1.0 / r, 2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::statistic::Statistic;
    use crate::core::plan::planner::{Limit, Target};

    #[test]
    fn comparisons_read_the_way_the_ratio_runs() {
        // cases/batching-sentence: each user 15.8 -> 22.4 tok/s, aggregate 46.93 -> 7.27 tok/s.
        let speed = (1000.0 / 44.59) / (1000.0 / 63.35);
        assert_eq!(times(speed, "faster", "slower"), "1.4x faster");
        assert_eq!(times(7.27 / 46.93, "higher", "lower"), "6.5x lower");
        assert_eq!(times(1.0 / 5.2, "faster", "slower"), "5.2x slower");
        assert_eq!(times(8.6, "higher", "lower"), "8.6x higher");
        for r in [1.0, 1.04, 1.0 / 1.04, 0.9524] {
            assert_eq!(times(r, "higher", "lower"), "about the same", "{r}");
        }
        for r in [1.05, 1.06, 0.95, 0.5, 2.0, 13.9, 0.07] {
            let text = times(r, "higher", "lower");
            assert!(
                !text.starts_with("1x ") && !text.starts_with("0."),
                "{r}: {text}"
            );
        }
        assert_eq!(times(f64::NAN, "higher", "lower"), "not comparable");
        assert_eq!(times(0.0, "higher", "lower"), "not comparable");
    }

    #[test]
    fn status_never_judges_a_level_that_does_not_report_the_statistic() {
        use crate::core::model::deployment::{Deployment, LevelKind};
        use crate::core::model::row::Row;
        use crate::core::plan::planner::plan;
        // Level 1 reports no p90; 8 and 32 fail.
        let rows = vec![
            Row::new(1.0, 100.0).with(Statistic::P50, Some(10.0)),
            Row::new(8.0, 700.0).with(Statistic::P90, Some(50.0)),
            Row::new(32.0, 1500.0).with(Statistic::P90, Some(60.0)),
        ];
        let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), rows);
        let slo = Slo::new(Target::MsPerToken(40.0), Statistic::P90);
        let p = plan(&sweep, &slo);
        assert_eq!(
            status_text(&sweep, &p, &slo),
            "Unattainable: even the smallest level that reports p90 ITL (8) fails the target."
        );
        // Levels 1 and 8 report no p90; 32 meets: not "every measured level".
        let rows = vec![
            Row::new(1.0, 100.0).with(Statistic::P50, Some(10.0)),
            Row::new(8.0, 700.0).with(Statistic::P50, Some(12.0)),
            Row::new(32.0, 1500.0).with(Statistic::P90, Some(30.0)),
        ];
        let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), rows);
        let p = plan(&sweep, &slo);
        assert_eq!(
            status_text(&sweep, &p, &slo),
            "Every level that reports p90 ITL meets the target. The highest level that meets may lie above 32, the largest that does; the levels that do not report it are not judged."
        );
    }

    #[test]
    fn unattainable_names_what_the_smallest_level_breaks() {
        use crate::core::model::deployment::{Deployment, LevelKind};
        use crate::core::model::row::Row;
        use crate::core::plan::planner::plan;
        // Both levels meet 40 ms at p50 but break the p99 TTFT limit: not "the target".
        let rows = vec![
            Row::new(1.0, 100.0)
                .with(Statistic::P50, Some(10.0))
                .with(Statistic::TtftP99, Some(900.0)),
            Row::new(8.0, 700.0)
                .with(Statistic::P50, Some(20.0))
                .with(Statistic::TtftP99, Some(950.0)),
        ];
        let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), rows);
        let limit = |max_ms| Limit {
            stat: Statistic::TtftP99,
            max_ms,
        };
        let slo = |ms, max_ms| {
            Slo::new(Target::MsPerToken(ms), Statistic::P50).with_limits(vec![limit(max_ms)])
        };
        let text = |slo: &Slo| status_text(&sweep, &plan(&sweep, slo), slo);
        assert_eq!(
            text(&slo(40.0, 10.0)),
            "Unattainable: even the smallest measured level fails: p99 TTFT ≤ 10 ms."
        );
        assert_eq!(
            text(&slo(5.0, 10.0)),
            "Unattainable: even the smallest measured level fails: target, p99 TTFT ≤ 10 ms."
        );
        assert_eq!(
            text(&slo(5.0, 1000.0)),
            "Unattainable: even the smallest measured level fails the target."
        );
    }

    #[test]
    fn verdicts_name_each_broken_condition() {
        let slo =
            Slo::new(Target::MsPerToken(30.0), Statistic::TpotMean).with_limits(vec![Limit {
                stat: Statistic::P99,
                max_ms: 150.0,
            }]);
        let verdict = |broken: Vec<Condition>, unreported| Verdict {
            latency_ms: Some(2.5),
            meets: broken.is_empty(),
            broken,
            unreported,
            attainment: None,
        };
        assert_eq!(verdict_text(&slo, &verdict(vec![], false)), "meets");
        assert_eq!(
            verdict_text(
                &slo,
                &verdict(
                    vec![Condition::Saturated {
                        served_req_s: 3.830,
                        offered_req_s: 8.0
                    }],
                    false
                )
            ),
            "fails: saturated (served 3.8 of 8 req/s)"
        );
        assert_eq!(
            verdict_text(
                &slo,
                &verdict(vec![Condition::Target, Condition::Limit(0)], true)
            ),
            "not reported: target, p99 ITL ≤ 150 ms"
        );
        assert_eq!(
            verdict_text(
                &slo,
                &verdict(
                    vec![Condition::FailedRequests {
                        failed: Some(4068.0),
                        issued: Some(4800.0),
                        share: 4068.0 / 4800.0
                    }],
                    false
                )
            ),
            "fails: 4,068 of 4,800 requests failed"
        );
        assert_eq!(failed_text(None, None, 1.0), "100% of requests failed");
        assert_eq!(
            failed_text(Some(8.0), Some(8.0), 1.0),
            "8 of 8 requests failed"
        );
    }
}
