//! The sentences that explain an answer, built next to the rules they state: a level's verdict
//! and comparisons of two figures. The page only places them.

use super::format::trimmed;
use super::planner::{Condition, Slo, Verdict};

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
        })
        .collect();
    if verdict.unreported {
        format!("not reported: {}", names.join(", "))
    } else {
        format!("fails: {}", names.join(", "))
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
    use crate::core::planner::{Limit, Target};
    use crate::core::statistic::Statistic;

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
    fn verdicts_name_each_broken_condition() {
        let slo = Slo {
            target: Target::MsPerToken(30.0),
            stat: Statistic::TpotMean,
            limits: vec![Limit {
                stat: Statistic::P99,
                max_ms: 150.0,
            }],
        };
        let verdict = |broken: Vec<Condition>, unreported| Verdict {
            latency_ms: Some(2.5),
            meets: broken.is_empty(),
            broken,
            unreported,
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
    }
}
