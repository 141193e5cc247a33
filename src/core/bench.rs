//! The synthetic sweep the benchmarks plan (natively with criterion, in the browser through
//! `bench_planning_ms`): levels 1..=n, latency rising with the level, so the plan walks far.

use super::sweep::{Row, Statistic, Sweep};

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
    Sweep::new(
        0,
        crate::core::deployment::Deployment::hardware("synthetic", Some(1), (1, 1, 1), "bfloat16"),
        rows,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::planner::{plan, Slo, Status, Target};

    #[test]
    fn the_synthetic_sweep_is_all_meet_at_25_tps() {
        let sweep = synthetic_sweep(1000);
        assert_eq!(sweep.levels().len(), 1000);
        let slo = Slo {
            target: Target::TokensPerSecond(25.0),
            stat: Statistic::P50,
            limits: vec![],
            attain: None,
        };
        let p = plan(&sweep, &slo);
        assert_eq!(p.status, Status::AllMeet);
        assert_eq!(p.recommended, Some(999));
    }
}
