//! The planning core on a synthetic sweep of 100,000 levels (native; the browser figure comes
//! from `scripts/bench.mjs` through the page's `bench_planning_ms` export).

use criterion::{criterion_group, criterion_main, Criterion};
use llm_slo_planner::core::planner::{plan, Slo, Target};
use llm_slo_planner::core::sweep::Statistic;

fn planning(c: &mut Criterion) {
    let sweep = llm_slo_planner::core::bench::synthetic_sweep(100_000);
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
                &llm_slo_planner::core::bench::synthetic_sweep(100_000),
                &slo,
            )
        })
    });
}

criterion_group!(benches, planning);
criterion_main!(benches);
