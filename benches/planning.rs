//! The planning core on a synthetic sweep of 100,000 levels (native; the browser figure comes
//! from `scripts/bench.mjs` through the page's `bench_planning_ms` export).

#![allow(
    missing_docs,
    reason = "criterion_group! writes an undocumented public function"
)]

use criterion::{criterion_group, criterion_main, Criterion};
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::planner::{plan, Slo, Target};

fn planning(c: &mut Criterion) {
    let sweep = llm_slo_planner::core::plan::bench::synthetic_sweep(100_000);
    let slo = Slo::new(Target::TokensPerSecond(25.0), Statistic::P50);
    c.bench_function("plan 100k levels", |b| {
        b.iter(|| plan(std::hint::black_box(&sweep), &slo))
    });
    c.bench_function("build + plan 100k levels", |b| {
        b.iter(|| {
            plan(
                &llm_slo_planner::core::plan::bench::synthetic_sweep(100_000),
                &slo,
            )
        })
    });
}

/// A change of target, limit or share re-judges every level of every sweep: 10 sweeps of 10
/// levels, 2,000 per-request records each (200,000 requests), planned at attain=95 with a TTFT
/// limit.
fn attainment(c: &mut Criterion) {
    let sweeps: Vec<_> = (0..10)
        .map(|seed| llm_slo_planner::core::plan::bench::synthetic_records_sweep(10, 2000, seed))
        .collect();
    let slo = Slo::new(Target::MsPerToken(25.0), Statistic::TpotP50)
        .with_limits(vec![llm_slo_planner::core::plan::planner::Limit {
            stat: Statistic::TtftP99,
            max_ms: 400.0,
        }])
        .with_attain(Some(95.0));
    c.bench_function("attain=95: 10 sweeps x 10 levels x 2,000 requests", |b| {
        b.iter(|| {
            std::hint::black_box(&sweeps)
                .iter()
                .map(|s| plan(s, &slo))
                .collect::<Vec<_>>()
        })
    });
}

/// A week by the minute (10,080 values, the most a link holds) with replicas a day to come up
/// (each step covers the next 1,440): the period on one deployment, as each input change
/// recomputes it for every deployment side by side.
fn period_week(c: &mut Criterion) {
    use llm_slo_planner::core::plan::capacity::CapacityInputs;
    use llm_slo_planner::core::plan::period::{period, LoadKind, LoadProfile, Scaling};
    let sweep = llm_slo_planner::core::plan::bench::synthetic_sweep(100);
    let slo = Slo::new(Target::TokensPerSecond(25.0), Statistic::P50);
    let Some(rec) = plan(&sweep, &slo).recommendation(&sweep, &slo) else {
        return;
    };
    let load = LoadProfile {
        kind: LoadKind::Users,
        step_min: 1.0,
        values: (0..10_080).map(|i| f64::from((i * 7919) % 1000)).collect(),
    };
    let scaling = Scaling {
        lag_min: 1440.0,
        min_replicas: 1,
    };
    c.bench_function("period: a week by the minute, a day's lag", |b| {
        b.iter(|| {
            period(
                &rec,
                Some(8),
                std::hint::black_box(&load),
                scaling,
                &CapacityInputs::default(),
            )
        })
    });
}

/// A change of target in a comparison (34 to 48 tok/s per user): two arms of 10 repeats × 50
/// levels with 2,000 per-request records per run (`synthetic_arms`, prepared once, as the page
/// keeps them), compared at a new target, on the level's statistic and under attain=95.
fn comparison(c: &mut Criterion) {
    use llm_slo_planner::core::plan::ab::{Arm, Arms};
    let source = llm_slo_planner::core::plan::bench::synthetic_arms(10, 50, 2000);
    let arm = |sweep_index| Arm {
        source: &source,
        sweep_index,
    };
    let Ok(arms) = Arms::new(arm(0), arm(1)) else {
        return;
    };
    let mut tps = 34.0;
    for (name, attain) in [("statistic", None), ("attain=95", Some(95.0))] {
        c.bench_function(
            &format!("compare 2 arms x 10 repeats x 50 levels x 2,000 requests, {name}"),
            |b| {
                b.iter(|| {
                    tps = if tps > 47.0 { 34.0 } else { tps + 1.0 };
                    let slo = Slo::new(Target::TokensPerSecond(tps), Statistic::TpotP50)
                        .with_attain(attain);
                    arms.compare(std::hint::black_box(&slo), 2.0)
                })
            },
        );
    }
}

criterion_group!(benches, planning, attainment, period_week, comparison);
criterion_main!(benches);
