//! Two published reference systems, as source `src=reference`. Each figure is
//! kept under its own statistic and every absent figure stays absent. They are shown for
//! reading and kept out of rankings and cost comparisons.
//!
//! - Databricks' MPT-7B on 1 × A100 40GB (FasterTransformer static batching, 512 input / 64
//!   output tokens): batch 1, 57.6 tok/s per user, a decode rate (1000 / TPOT, so mean TPOT
//!   17.36 ms); batch 64, 12.5 req/s × 64 tokens = 800 tok/s aggregate, 12.5 tok/s per user
//!   by throughput / concurrency (statistic `rate`, 80 ms). Databricks' post ("LLM Inference
//!   Performance Engineering: Best Practices", Table 2) reads the batch-1 decode rate as the
//!   batch-1 aggregate (57.6 tok/s, hence "aggregate 13.9x higher"). Energy and ITL
//!   percentiles are not reported.
//! - A representative Llama 3.1 70B FP8 on one H100 SXM, the shape explainers of single-stream
//!   vs system tok/s quote: batch 1/16/64/128 at
//!   50/45/38/28 tok/s per user and 50/720/2432/3584 tok/s system, about 20/22/26/36 ms TPOT.
//!   Illustrative, not a measurement.

use std::sync::OnceLock;

use crate::core::model::deployment::{Deployment, LevelKind, PRECISION_NOT_STATED};
use crate::core::model::source::{Provenance, Source};
use crate::core::model::sweep::{Model, Row, Statistic, Sweep};

/// The reference source, built once.
pub fn reference() -> &'static Source {
    static SOURCE: OnceLock<Source> = OnceLock::new();
    SOURCE.get_or_init(build)
}

fn mpt_rows() -> Vec<Row> {
    let batch1 = Row::new(1.0, 57.6).with(Statistic::TpotMean, Some(1000.0 / 57.6));
    let batch64 = Row::new(64.0, 12.5 * 64.0).with(Statistic::Rate, Some(64.0 * 1000.0 / 800.0));
    vec![batch1, batch64]
}

fn llama_rows() -> Vec<Row> {
    [
        (1.0, 50.0, 20.0),
        (16.0, 720.0, 22.0),
        (64.0, 2432.0, 26.0),
        (128.0, 3584.0, 36.0),
    ]
    .into_iter()
    .map(|(batch, system, tpot)| {
        Row::new(batch, system)
            .with(Statistic::TpotMean, Some(tpot))
            .with(Statistic::Rate, Some(batch * 1000.0 / system))
    })
    .collect()
}

fn build() -> Source {
    let models = vec![
        Model {
            model_id: "mosaicml/mpt-7b".into(),
            nickname: "MPT-7B (Databricks)".into(),
            architecture: "Dense Transformer".into(),
            total_params_b: Some(7.0),
            activated_params_b: Some(7.0),
        },
        Model {
            model_id: "meta-llama/Llama-3.1-70B-Instruct-FP8 (illustrative)".into(),
            nickname: "Llama 3.1 70B FP8, illustrative shape".into(),
            architecture: "Dense Transformer".into(),
            total_params_b: Some(70.0),
            activated_params_b: Some(70.0),
        },
    ];
    let sweeps = vec![
        Sweep::new(
            0,
            Deployment {
                level_kind: LevelKind::Concurrency,
                config: Some("FasterTransformer static batching, 512 in / 64 out".into()),
                ..Deployment::hardware("A100 40GB", Some(1), 1, PRECISION_NOT_STATED)
            },
            mpt_rows(),
        ),
        Sweep::new(
            1,
            Deployment {
                level_kind: LevelKind::Concurrency,
                config: Some("illustrative, not a measurement".into()),
                ..Deployment::hardware("H100 SXM", Some(1), 1, "fp8")
            },
            llama_rows(),
        ),
    ];
    Source::new(
        "reference".into(),
        "Reference systems: MPT-7B (Databricks) and an illustrative Llama 70B shape".into(),
        models,
        sweeps,
        Provenance {
            publisher: "Databricks, LLM Inference Performance Engineering (MPT-7B table); a representative H100 shape (Llama 3.1 70B FP8)".into(),
            date: None,
            engine: Some("MPT-7B: FasterTransformer-based static batching (build not stated); Llama shape: not stated".into()),
            input_lengths: Some("MPT-7B: 512 input / 64 output tokens, uniform; Llama shape: not stated".into()),
            warmup: None,
            notes: vec![
                "MPT-7B batch 1 is a decode rate (1000 / TPOT); batch 64 is throughput / concurrency (12.5 req/s × 64 tokens / 64 requests). Each is kept under its own statistic.".into(),
                "Databricks reads batch 1 against batch 64 as each user 4.6x slower and aggregate 13.9x higher: that compares a decode rate with an end-to-end rate, as the source does.".into(),
                "Energy and ITL percentiles are not reported for either system.".into(),
                "The Llama 3.1 70B FP8 shape is illustrative, not a measurement; its 20 ms at batch 1 sits at the memory-bandwidth bound (70 GB / 3.35 TB/s = 21 ms).".into(),
            ],
            reference: true,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::estimate::batching_effect;
    use crate::core::plan::planner::{plan, Slo, Status, Target};

    fn slo(tps: f64, stat: Statistic) -> Slo {
        Slo::new(Target::TokensPerSecond(tps), stat)
    }

    #[test]
    fn mpt_at_12_5_tps_rate_recommends_64_and_reads_as_databricks_does() {
        let mpt = &reference().sweeps[0];
        let s = slo(12.5, Statistic::Rate);
        let p = plan(mpt, &s);
        assert_eq!(p.status, Status::AllMeet);
        assert_eq!(p.recommendation(mpt, &s).unwrap().level, 64.0);
        let e = batching_effect(mpt, &s, &p, true).unwrap();
        // Not an import: only a reference source compares two different rates.
        assert_eq!(batching_effect(mpt, &s, &p, false), None);
        // 57.6 / 12.5 = 4.608; 800 / 57.6 = 13.889.
        assert!((e.user_slowdown - 4.608).abs() < 1e-9);
        assert!((e.throughput_gain - 13.888_888_888_9).abs() < 1e-9);
        assert_eq!(e.base_stat, Statistic::TpotMean);
        assert!(matches!(
            plan(mpt, &slo(12.5, Statistic::P50)).status,
            Status::NoData { .. }
        ));
    }

    #[test]
    fn the_llama_shape_holds_the_seed_numbers() {
        let llama = &reference().sweeps[1];
        let levels = llama.levels();
        let user: Vec<f64> = levels.iter().map(|l| l.rate_user_tps().unwrap()).collect();
        assert_eq!(
            user.iter().map(|u| u.round()).collect::<Vec<_>>(),
            vec![50.0, 45.0, 38.0, 28.0]
        );
        assert_eq!(levels[3].latency_ms(Statistic::TpotMean), Some(36.0));
        assert!(reference().provenance.reference);
    }
}
