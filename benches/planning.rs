//! The planning core on a synthetic sweep of 100,000 levels (native; the browser figure comes
//! from `scripts/bench.mjs` through the page's `bench_planning_ms` export).

use criterion::{criterion_group, criterion_main, Criterion};
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::planner::{plan, Slo, Target};

fn planning(c: &mut Criterion) {
    let sweep = llm_slo_planner::core::plan::bench::synthetic_sweep(100_000);
    let slo = Slo {
        target: Target::TokensPerSecond(25.0),
        stat: Statistic::P50,
        limits: Vec::new(),
        attain: None,
    };
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
    let slo = Slo {
        target: Target::MsPerToken(25.0),
        stat: Statistic::TpotP50,
        limits: vec![llm_slo_planner::core::plan::planner::Limit {
            stat: Statistic::TtftP99,
            max_ms: 400.0,
        }],
        attain: Some(95.0),
    };
    c.bench_function("attain=95: 10 sweeps x 10 levels x 2,000 requests", |b| {
        b.iter(|| {
            std::hint::black_box(&sweeps)
                .iter()
                .map(|s| plan(s, &slo))
                .collect::<Vec<_>>()
        })
    });
}

criterion_group!(benches, planning, attainment);
criterion_main!(benches);
