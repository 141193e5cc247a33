//! The answer as the page states it: the question asked in words, the headline (the
//! recommended level, the status sentence and the figures there, each with its coverage and
//! derivation), and the sentences around it. Pure; `ui::answer` only places them.

use crate::core::model::format::{
    gpus, grouped, level as level_text, percent, significant, trimmed, url_number,
};
use crate::core::model::statistic::Metric;
use crate::core::model::sweep::{Figure as SweepFigure, Level, Statistic, Sweep};
use crate::core::plan::anomalies::FlagCount;
use crate::core::plan::attainment::Attainment;
use crate::core::plan::estimate::BatchingEffect;
use crate::core::plan::planner::{Plan, Recommendation, Slo, Status, Target};
use crate::core::text::attainment_text::share_percent;
use crate::core::text::explain::{status_text, times};

/// "at least 25 tok/s per user (at most 40 ms per token) at p50 ITL, and p99 ITL ≤ 150 ms";
/// under attainment "at least 25 tok/s per user (at most 40 ms per token) in each request's
/// TPOT, for 95% of requests, and each request's TTFT ≤ 2000 ms" (or end-to-end latency).
pub fn slo_sentence(slo: &Slo) -> String {
    let mut text = match slo.attain {
        Some(p) => format!(
            "{} in each request's TPOT, for {}% of requests",
            target_words(slo.target),
            url_number(p)
        ),
        None => target_sentence(slo.target, slo.stat),
    };
    for limit in &slo.limits {
        let stat = match (slo.on_level(limit), limit.stat.metric()) {
            (true, _) => limit.stat.short_label(),
            (false, Metric::Ttft) => "each request's TTFT",
            (false, _) => "each request's end-to-end latency",
        };
        text.push_str(&format!(", and {stat} ≤ {} ms", trimmed(limit.max_ms, 4)));
    }
    text
}

/// "at least 25 tok/s per user (at most 40 ms per token) at p50 ITL".
pub fn target_sentence(target: Target, stat: Statistic) -> String {
    format!("{} at {}", target_words(target), stat.short_label())
}

/// "at least 25 tok/s per user (at most 40 ms per token)", in the unit entered first.
fn target_words(target: Target) -> String {
    let (tps, ms) = (
        trimmed(target.tokens_per_second(), 4),
        trimmed(target.ms_per_token(), 4),
    );
    match target {
        Target::TokensPerSecond(_) => {
            format!("at least {tps} tok/s per user (at most {ms} ms per token)")
        }
        Target::MsPerToken(_) => {
            format!("at most {ms} ms per token (at least {tps} tok/s per user)")
        }
    }
}

/// One labelled figure of the headline as shown: `None` value shows "not reported".
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Its label, e.g. `Per GPU`.
    pub label: &'static str,
    /// The page's hook for it, e.g. `rec-throughput-per-gpu`.
    pub testid: &'static str,
    /// The unrounded value, in the unit of `text`.
    pub value: Option<f64>,
    /// The value as shown, with its unit, or "not reported".
    pub text: String,
    /// Where fewer than all runs at the level report it: (hook key, runs reporting, runs).
    pub coverage: Option<(&'static str, usize, usize)>,
    /// A derived figure's formula.
    pub derived: Option<&'static str>,
}

fn figure(
    label: &'static str,
    testid: &'static str,
    value: Option<f64>,
    text: impl Fn(f64) -> String,
) -> Figure {
    Figure {
        label,
        testid,
        value,
        text: value.map_or_else(|| "not reported".to_string(), &text),
        coverage: None,
        derived: None,
    }
}

impl Figure {
    /// The same figure, marked "k of n runs" when fewer than all runs at `level` report it.
    fn covered(mut self, level: Option<&Level>, of: SweepFigure) -> Figure {
        if let Some(l) = level {
            let (runs, all) = (l.runs_reporting(of), l.runs());
            if self.value.is_some() && runs < all {
                self.coverage = Some((of.key(), runs, all));
            }
        }
        self
    }
}

/// The headline as shown: the level (or "—"), the status and its figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Headline {
    /// The recommended level, if any.
    pub level: Option<f64>,
    /// The level's unit ("Run at … max_num_seqs"), when there is a recommendation.
    pub unit: Option<&'static str>,
    /// The status key: `ok`, `all-meet`, `unattainable` or `no-data`.
    pub status: &'static str,
    /// The status in words (see `explain::status_text`).
    pub status_text: String,
    /// When the recommended level was measured more than once, which figures that gives.
    pub duplicate: Option<String>,
    /// The figures at the recommendation, or the best measured when none meets.
    pub figures: Vec<Figure>,
}

impl Headline {
    /// The answer in a few words: "run at 384 max_num_seqs", or "no level to recommend"; its
    /// reason is [`Headline::status_text`].
    pub fn answer(&self) -> String {
        match self.level {
            Some(level) => format!("run at {} {}", level_text(level), self.unit.unwrap_or("")),
            None => "no level to recommend".to_string(),
        }
    }
}

/// The headline of `plan` (of `sweep`, for `slo`).
pub fn headline(sweep: &Sweep, plan: &Plan, slo: &Slo) -> Headline {
    let levels = sweep.levels();
    match (&plan.status, plan.recommendation(sweep, slo)) {
        (Status::Ok | Status::AllMeet, Some(r)) => {
            let status_text = status_text(sweep, plan, slo);
            let duplicate = plan
                .recommended
                .and_then(|i| levels.get(i))
                .filter(|l| l.is_duplicate())
                .map(|l| {
                    format!(
                        "{} runs were measured at {}; the figures are the worst of them per metric.",
                        l.row_indices.len(),
                        level_text(l.level),
                    )
                });
            Headline {
                level: Some(r.level),
                unit: Some(sweep.level_kind().unit()),
                status: plan.status.key(),
                status_text,
                duplicate,
                figures: recommended_figures(sweep, plan, slo, &r),
            }
        }
        (Status::Unattainable, _) => {
            let best = plan
                .best
                .and_then(|i| Some((levels.get(i)?, plan.verdicts.get(i)?)));
            let best_tps = best.and_then(|(_, v)| v.latency_ms).map(|ms| 1000.0 / ms);
            let best_level = best.map(|(l, _)| l.level);
            Headline {
                status: "unattainable",
                status_text: status_text(sweep, plan, slo),
                figures: vec![
                    figure(
                        "Best per-user speed measured",
                        "rec-best-user-tps",
                        best_tps,
                        |v| format!("{} tok/s at {}", grouped(v, 1), speed_basis(slo)),
                    ),
                    figure("At", "rec-best-level", best_level, |v| {
                        format!("{} {}", sweep.level_kind().label(), level_text(v))
                    }),
                ],
                ..Headline::default()
            }
        }
        (_, _) => {
            let status_text = status_text(sweep, plan, slo);
            Headline {
                status: "no-data",
                status_text,
                ..Headline::default()
            }
        }
    }
}

/// The figures at the recommended level `r`: per-user speed (tok/s), time per token (ms),
/// headroom, aggregate and per-GPU output (tok/s), energy (J/token), average power (W), average
/// batch and, under attainment, the level's attainment and goodput; each with its coverage.
fn recommended_figures(sweep: &Sweep, plan: &Plan, slo: &Slo, r: &Recommendation) -> Vec<Figure> {
    let levels = sweep.levels();
    let stat = slo.stat;
    let at = plan.recommended.and_then(|i| levels.get(i));
    let basis = speed_basis(slo);
    let latency_covered = slo.attain.is_none().then_some(at).flatten();
    let attained = plan
        .recommended
        .and_then(|i| plan.verdicts.get(i))
        .and_then(|v| v.attainment);
    let mut energy = figure("Energy", "rec-energy", r.energy_per_token_j, |v| {
        format!("{} J/token", significant(v, 4))
    })
    .covered(at, SweepFigure::EnergyPerToken);
    energy.derived = at.and_then(|l| l.energy_basis).and_then(|b| b.formula());
    [
        figure("Per-user speed", "rec-user-tps", Some(r.user_tps), |v| {
            format!("{} tok/s at {basis}", grouped(v, 1))
        }),
        figure("Time per token", "rec-tpot-ms", Some(r.latency_ms), |v| {
            format!("{} ms at {basis}", significant(v, 3))
        })
        .covered(latency_covered, SweepFigure::Latency(stat)),
        figure("Headroom", "rec-headroom", Some(r.headroom), percent),
        figure(
            "Aggregate output",
            "rec-throughput",
            Some(r.throughput_tok_s),
            |v| format!("{} tok/s", grouped(v, 0)),
        ),
        figure(
            "Per GPU",
            "rec-throughput-per-gpu",
            r.throughput_per_gpu_tok_s,
            |v| format!("{} tok/s/GPU", grouped(v, 0)),
        ),
        energy,
        figure("Average power", "rec-power", r.power_w, |v| {
            format!("{} W ({})", grouped(v, 0), gpus(sweep.deployment.num_gpus))
        })
        .covered(at, SweepFigure::Power),
        figure(
            "Avg batch reached",
            "rec-avg-batch",
            r.avg_batch_size,
            |v| format!("{} requests", grouped(v, 1)),
        )
        .covered(at, SweepFigure::AvgBatch),
    ]
    .into_iter()
    .chain(attained.map(|a| attainment_figure(&a, r.throughput_tok_s, slo.attain)))
    .collect()
}

/// What a level's per-user speed is read from: the statistic ("p50 ITL"), or under attainment
/// the TPOT that the share asked of its requests reach ("TPOT for 95% of requests").
pub fn speed_basis(slo: &Slo) -> String {
    match slo.attain {
        Some(p) => tpot_share(p),
        None => slo.stat.short_label().to_string(),
    }
}

/// The recommended level's attainment and goodput: "95.5% of 200 requests good; 0.336 good
/// req/s, 43 good output tok/s", the share cut to the decimals of the share `asked` as the
/// table's (`attainment_text::share_percent`: never rounded up to a share the level does not reach).
fn attainment_figure(a: &Attainment, throughput_tok_s: f64, asked: Option<f64>) -> Figure {
    let good_tok_s = a.goodput_tok_s(throughput_tok_s);
    let good_req_s = a.goodput_req_s(throughput_tok_s);
    figure(
        "Attainment",
        "rec-attainment",
        a.share().map(|s| s * 100.0),
        |_| {
            format!(
                "{}% of {} requests good; {} good req/s, {} good output tok/s",
                share_percent(a.good, a.issued, asked),
                level_text(a.issued as f64),
                good_req_s.map_or_else(|| "not reported".to_string(), |r| significant(r, 3)),
                good_tok_s.map_or_else(|| "not reported".to_string(), |t| grouped(t, 0))
            )
        },
    )
}

/// "vs max_num_seqs 8: each user 2.1x slower (at p50 ITL), aggregate 5.6x higher.": the
/// batching effect in one sentence (the page shows the same words, the two comparisons in
/// bold).
pub fn batching_sentence(sweep: &Sweep, e: &BatchingEffect, stat: Statistic) -> String {
    format!(
        "vs {} {}: each user {}{}{}.",
        sweep.level_kind().label(),
        level_text(e.base_level),
        times(1.0 / e.user_slowdown, "faster", "slower"),
        batching_basis(e, stat),
        times(e.throughput_gain, "higher", "lower")
    )
}

/// "TPOT for 95% of requests": what a level's speed is read at under `attain=P` (`p` percent).
fn tpot_share(p: f64) -> String {
    format!("TPOT for {}% of requests", url_number(p))
}

/// The batching comparison's middle part: which statistics it compares ("(at p50 ITL),
/// aggregate ", or, when the base level reports another, both named; under attainment, "(at the
/// TPOT for 70% of requests), aggregate ").
pub fn batching_basis(e: &BatchingEffect, stat: Statistic) -> String {
    let BatchingEffect {
        base_stat,
        base_level,
        attain,
        ..
    } = *e;
    if let Some(p) = attain {
        format!(" (at the {}), aggregate ", tpot_share(p))
    } else if base_stat == stat {
        format!(" (at {}), aggregate ", stat.short_label())
    } else {
        format!(
            " ({} at {} against {} here: two different rates, compared as the source does), aggregate ",
            base_stat.short_label(),
            level_text(base_level),
            stat.short_label(),
        )
    }
}

/// " on 2 of 8 runs (what the flag means). At 16: the figures." for a flag the sweep carries.
pub fn flag_sentence(sweep: &Sweep, count: &FlagCount) -> String {
    format!(
        " on {} of {} runs ({}). At {}: {}.",
        count.rows,
        sweep.rows.len(),
        count.kind.meaning(),
        level_text(sweep.rows[count.first_row].level),
        count.detail
    )
}

/// How the estimate is made, for the line beneath it.
pub fn estimate_method(sweep: &Sweep, stat: Statistic) -> String {
    format!(
        "Latency at {} taken as linear in log2({}) between the two measured levels, solved for the target; throughput and J/token the same way.",
        stat.short_label(),
        sweep.level_kind().label(),
    )
}

/// "Also meets at 512, but 384 below it did not (rate-based speed there: 21.3 tok/s per user)."
pub fn also_meets_sentence(level: &Level, failed: &Level) -> String {
    format!(
        "Also meets at {}, but {} below it did not (rate-based speed there: {}).",
        level_text(level.level),
        level_text(failed.level),
        level.rate_user_tps().map_or_else(
            || "not reported".into(),
            |r| format!("{} tok/s per user", significant(r, 3))
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::plan::planner::{plan, Limit};
    use crate::core::scenario::Scenario;

    fn llama_8b_h100() -> &'static Sweep {
        let source = lm_arena_chat();
        let (scenario, _) = Scenario::from_query(
            "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1",
            source,
        );
        &source.sweeps[scenario.sweep_index(source).unwrap()]
    }

    #[test]
    fn the_question_reads_in_the_unit_entered_with_its_limits() {
        let slo =
            Slo::new(Target::TokensPerSecond(25.0), Statistic::P50).with_limits(vec![Limit {
                stat: Statistic::P99,
                max_ms: 150.0,
            }]);
        assert_eq!(
            slo_sentence(&slo),
            "at least 25 tok/s per user (at most 40 ms per token) at p50 ITL, and p99 ITL ≤ 150 ms"
        );
        assert_eq!(
            target_sentence(Target::MsPerToken(40.0), Statistic::TpotP90),
            "at most 40 ms per token (at least 25 tok/s per user) at p90 TPOT"
        );
    }

    #[test]
    fn llama_8b_at_25_tps_p50_headline_runs_384_with_its_figures() {
        let sweep = llama_8b_h100();
        let slo = Slo::new(Target::TokensPerSecond(25.0), Statistic::P50);
        let h = headline(sweep, &plan(sweep, &slo), &slo);
        assert_eq!(
            (h.level, h.unit, h.status),
            (Some(384.0), Some("max_num_seqs"), "ok")
        );
        let text = |id: &str| {
            h.figures
                .iter()
                .find(|f| f.testid == id)
                .map(|f| f.text.clone())
        };
        assert_eq!(
            text("rec-user-tps").as_deref(),
            Some("26.5 tok/s at p50 ITL")
        );
        assert_eq!(text("rec-tpot-ms").as_deref(), Some("37.7 ms at p50 ITL"));
        assert_eq!(text("rec-throughput").as_deref(), Some("9,248 tok/s"));
        assert_eq!(text("rec-energy").as_deref(), Some("0.07423 J/token"));
        assert_eq!(text("rec-power").as_deref(), Some("687 W (1 GPU)"));
        assert!(h
            .figures
            .iter()
            .all(|f| f.coverage.is_none() && f.derived.is_none()));
    }

    #[test]
    fn an_unattainable_target_names_the_best_measured_speed_and_where() {
        let sweep = llama_8b_h100();
        let slo = Slo::new(Target::TokensPerSecond(1000.0), Statistic::P50);
        let h = headline(sweep, &plan(sweep, &slo), &slo);
        assert_eq!((h.level, h.status), (None, "unattainable"));
        let labels: Vec<&str> = h.figures.iter().map(|f| f.label).collect();
        assert_eq!(labels, ["Best per-user speed measured", "At"]);
        assert_eq!(h.figures[1].text, "max_num_seqs 8");
    }

    #[test]
    fn the_batching_basis_names_both_statistics_when_they_differ() {
        let effect = |base_stat, base_level, attain| BatchingEffect {
            base_level,
            base_stat,
            user_slowdown: 2.0,
            throughput_gain: 3.0,
            attain,
        };
        assert_eq!(
            batching_basis(&effect(Statistic::P50, 8.0, None), Statistic::P50),
            " (at p50 ITL), aggregate "
        );
        assert_eq!(
            batching_basis(&effect(Statistic::TpotMean, 1.0, None), Statistic::Rate),
            " (mean TPOT at 1 against throughput ÷ concurrency here: two different rates, compared as the source does), aggregate "
        );
        // Under attainment the statistic is not what is compared.
        assert_eq!(
            batching_basis(&effect(Statistic::P50, 1.0, Some(70.0)), Statistic::P50),
            " (at the TPOT for 70% of requests), aggregate "
        );
    }
}
