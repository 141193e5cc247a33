//! The synthetic sweep the benchmarks plan (natively with criterion, in the browser through
//! `bench_planning_ms`): levels 1..=n, latency rising with the level, so the plan walks far.

use crate::core::model::deployment::Deployment;
use crate::core::model::requests::{Request, Requests};
use crate::core::model::source::{Provenance, Source};
use crate::core::model::sweep::{Model, Row, Statistic, Sweep};

/// A sweep of `levels` levels: level i has p50 ITL 10 + i / 5000 ms (crossing 40 ms, a 25 tok/s
/// target, at i = 150,000, so a 100,000-level sweep is `all-meet` and every level is judged),
/// throughput 100 × i, avg batch i.
pub fn synthetic_sweep(levels: u32) -> Sweep {
    let rows = (1..=levels)
        .map(|i| {
            let level = f64::from(i);
            let mut row = Row::new(level, 100.0 * level)
                .with(Statistic::P50, Some(10.0 + level / 5000.0))
                .with(Statistic::P99, Some(20.0 + level / 2500.0))
                .with(Statistic::Rate, Some(10.0));
            row.avg_batch_size = Some(level);
            row
        })
        .collect();
    on_one_gpu(rows)
}

/// A sweep of `levels` concurrency levels (1, 2, 4, …) whose runs carry `requests` per-request
/// records each, as a vLLM `--save-detailed` sweep would: a seeded generator (a 64-bit LCG), TTFT
/// 50 to 550 ms and TPOT 10 to 30 ms, both rising with the level, 1,024 output tokens, one request
/// in a hundred failed. For measuring attainment on records of a realistic size.
pub fn synthetic_records_sweep(levels: u32, requests: u32, seed: u64) -> Sweep {
    let mut state = seed;
    let mut uniform = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    };
    let rows = (0..levels)
        .map(|i| {
            let level = f64::from(1u32 << i.min(30));
            let load = f64::from(i) / f64::from(levels.max(1));
            let completed = (0..requests)
                .filter_map(|_| {
                    let ttft_ms = 50.0 + 500.0 * uniform() * (0.2 + load);
                    let tpot_ms = 10.0 + 20.0 * uniform() * (0.2 + load);
                    (uniform() >= 0.01).then_some(Request {
                        ttft_ms,
                        e2e_ms: ttft_ms + tpot_ms * 1023.0,
                        output_tokens: 1024,
                    })
                })
                .collect();
            let mut row = Row::new(level, 1000.0 * level.sqrt())
                .with(Statistic::TpotP50, Some(20.0 + 10.0 * load));
            row.requests = Some(Requests::new(completed, u64::from(requests)));
            row
        })
        .collect();
    on_one_gpu(rows)
}

/// A sweep of `rows` on one `synthetic` GPU, TP1, bfloat16.
fn on_one_gpu(rows: Vec<Row>) -> Sweep {
    Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("synthetic", Some(1), 1, "bfloat16"),
        rows,
    )
}

/// The comparison's benchmark data: one source of one model with two sweeps, A and B, each of
/// `repeats` runs at `levels` concurrency levels (1 to `levels`), every run with `requests`
/// per-request records (seeded as [`synthetic_records_sweep`]'s, each run its own seed): p50
/// TPOT rising from 20 to 30 ms across the levels, throughput 1,000 × √level, B's 5% higher.
pub fn synthetic_arms(repeats: u32, levels: u32, requests: u32) -> Source {
    let arm = |gain: f64, seed: u64| {
        let mut rows = Vec::new();
        for run in 0..repeats {
            let mut uniform = lcg(seed + u64::from(run));
            for i in 0..levels {
                let level = f64::from(i + 1);
                let load = f64::from(i) / f64::from(levels.max(1));
                let completed = (0..requests)
                    .map(|_| {
                        let ttft_ms = 50.0 + 500.0 * uniform() * (0.2 + load);
                        let tpot_ms = 20.0 + 10.0 * load + 4.0 * (uniform() - 0.5);
                        Request {
                            ttft_ms,
                            e2e_ms: ttft_ms + tpot_ms * 1023.0,
                            output_tokens: 1024,
                        }
                    })
                    .collect();
                let noise = 1.0 + 0.01 * (uniform() - 0.5);
                let mut row = Row::new(level, gain * noise * 1000.0 * level.sqrt())
                    .with(Statistic::TpotP50, Some(20.0 + 10.0 * load));
                row.requests = Some(Requests::new(completed, u64::from(requests)));
                rows.push(row);
            }
        }
        Sweep::new(
            0,
            Deployment::hardware("synthetic", Some(1), 1, "bfloat16"),
            rows,
        )
    };
    let mut b = arm(1.05, 1_000);
    b.deployment.engine_version = Some("B".to_string());
    let model = Model {
        model_id: "synthetic/arms".to_string(),
        nickname: "synthetic".to_string(),
        architecture: String::new(),
        total_params_b: None,
        activated_params_b: None,
    };
    Source::new(
        "synthetic".to_string(),
        "synthetic arms".to_string(),
        vec![model],
        vec![arm(1.0, 1), b],
        Provenance::default(),
    )
}

/// A seeded uniform generator on [0, 1) (a 64-bit LCG).
fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::planner::{plan, Slo, Status, Target};

    #[test]
    fn the_synthetic_sweep_is_all_meet_at_25_tps() {
        let sweep = synthetic_sweep(1000);
        assert_eq!(sweep.levels().len(), 1000);
        let slo = Slo::new(Target::TokensPerSecond(25.0), Statistic::P50);
        let p = plan(&sweep, &slo);
        assert_eq!(p.status, Status::AllMeet);
        assert_eq!(p.recommended, Some(999));
    }

    #[test]
    fn the_records_sweep_is_seeded_and_judged_per_request() {
        let sweep = synthetic_records_sweep(4, 1000, 7);
        assert_eq!(sweep, synthetic_records_sweep(4, 1000, 7));
        let records = sweep.rows[0].requests.as_ref().unwrap();
        assert_eq!(records.issued, 1000);
        assert!((980..1000).contains(&records.completed.len()));
        let slo = Slo::new(Target::MsPerToken(30.0), Statistic::TpotP50).with_attain(Some(95.0));
        let p = plan(&sweep, &slo);
        assert!(p.verdicts.iter().all(|v| v.attainment.is_some()));
    }

    #[test]
    fn the_arms_have_their_repeats_and_b_gives_more() {
        use crate::core::plan::ab::{AbVerdict, Arm, Arms, Interval};
        let source = synthetic_arms(3, 10, 50);
        let arm = |sweep_index| Arm {
            source: &source,
            sweep_index,
        };
        let arms = Arms::new(arm(0), arm(1)).expect("two arms");
        assert_eq!(arms.a.repeats.len(), 3);
        let slo = Slo::new(Target::MsPerToken(25.0), Statistic::TpotP50);
        let c = arms.compare(&slo, 2.0).expect("compared");
        assert_eq!(c.interval, Interval::Repeats);
        assert_eq!(c.verdict, AbVerdict::Better);
        let r = c.ratio.expect("a ratio");
        assert!((1.03..1.07).contains(&r.ratio), "{r:?}");
    }
}
