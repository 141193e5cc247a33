use super::*;
use crate::core::model::sweep::Row;
use crate::core::plan::estimate::{batching_effect, estimate};

fn slo(target: Target, stat: Statistic) -> Slo {
    Slo::new(target, stat)
}

fn sweep_of(points: &[(f64, f64)]) -> Sweep {
    let rows = points
        .iter()
        .map(|&(level, p50)| {
            let throughput = level * 1000.0 / (p50 * 1.25);
            let mut row = Row::new(level, throughput)
                .with(Statistic::P50, Some(p50))
                .with(Statistic::P90, Some(p50 * 2.0))
                .with(Statistic::Rate, Some(level * 1000.0 / throughput));
            row.avg_batch_size = Some(level);
            row.power_w = Some(700.0);
            row.energy_per_token_j = Some(700.0 / throughput);
            row
        })
        .collect();
    Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100", Some(2), 2, "bfloat16"),
        rows,
    )
}

#[test]
fn ok_recommends_last_level_of_the_meeting_run() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0), (64.0, 80.0)]);
    // 30 tok/s = 33.3 ms: 8 and 16 meet, 32 fails.
    let p = plan(&s, &slo(Target::TokensPerSecond(30.0), Statistic::P50));
    assert_eq!(p.status, Status::Ok);
    assert_eq!(p.recommended, Some(1));
    assert_eq!(
        p.verdicts.iter().map(|v| v.meets).collect::<Vec<_>>(),
        vec![true, true, false, false]
    );
    let r = p
        .recommendation(&s, &slo(Target::TokensPerSecond(30.0), Statistic::P50))
        .unwrap();
    assert_eq!(r.level, 16.0);
    assert_eq!(r.latency_ms, 20.0);
    assert_eq!(r.user_tps, 50.0);
    // throughput = 16 * 1000 / 25 = 640 tok/s, on 2 GPUs.
    assert_eq!(r.throughput_tok_s, 640.0);
    assert_eq!(r.throughput_per_gpu_tok_s, Some(320.0));
    assert_eq!(r.power_w, Some(700.0));
    assert_eq!(r.energy_per_token_j, Some(700.0 / 640.0));
    // headroom in tok/s: (50 - 30) / 30.
    assert_eq!(r.headroom, (50.0 - 30.0) / 30.0);
    assert!(p.also_meets.is_empty());
    assert_eq!(p.best, None);
}

#[test]
fn ms_target_headroom_is_in_ms() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0)]);
    let p = plan(&s, &slo(Target::MsPerToken(25.0), Statistic::P50));
    let r = p
        .recommendation(&s, &slo(Target::MsPerToken(25.0), Statistic::P50))
        .unwrap();
    assert_eq!(r.level, 16.0);
    assert_eq!(r.headroom, (25.0 - 20.0) / 25.0);
}

#[test]
fn boundary_is_inclusive_in_both_units() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0)]);
    assert_eq!(
        plan(&s, &slo(Target::MsPerToken(20.0), Statistic::P50)).recommended,
        Some(1)
    );
    assert_eq!(
        plan(&s, &slo(Target::TokensPerSecond(50.0), Statistic::P50)).recommended,
        Some(1)
    );
    assert_eq!(
        plan(&s, &slo(Target::TokensPerSecond(50.000001), Statistic::P50)).recommended,
        Some(0)
    );
}

#[test]
fn all_meet_recommends_largest_measured() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
    let p = plan(&s, &slo(Target::MsPerToken(100.0), Statistic::P50));
    assert_eq!(p.status, Status::AllMeet);
    assert_eq!(p.recommended, Some(1));
}

#[test]
fn unattainable_reports_best_level() {
    // Non-monotonic: the fastest level is 16, not 8.
    let s = sweep_of(&[(8.0, 12.0), (16.0, 11.0), (32.0, 40.0)]);
    let p = plan(&s, &slo(Target::TokensPerSecond(100.0), Statistic::P50));
    assert_eq!(p.status, Status::Unattainable);
    assert_eq!(p.recommended, None);
    assert_eq!(p.best, Some(1));
    assert_eq!(
        p.recommendation(&s, &slo(Target::TokensPerSecond(100.0), Statistic::P50)),
        None
    );
}

#[test]
fn non_monotonic_meet_above_a_failure_is_also_meets_not_recommended() {
    let s = sweep_of(&[
        (8.0, 10.0),
        (16.0, 30.0),
        (32.0, 50.0),
        (64.0, 25.0),
        (128.0, 60.0),
        (256.0, 20.0),
    ]);
    let p = plan(&s, &slo(Target::MsPerToken(30.0), Statistic::P50));
    assert_eq!(p.status, Status::Ok);
    assert_eq!(p.recommended, Some(1));
    assert_eq!(
        p.also_meets,
        vec![
            AlsoMeets {
                level_index: 3,
                failed_below_index: 2
            },
            AlsoMeets {
                level_index: 5,
                failed_below_index: 4
            },
        ]
    );
}

#[test]
fn unattainable_can_still_have_also_meets() {
    let s = sweep_of(&[(8.0, 40.0), (16.0, 20.0)]);
    let p = plan(&s, &slo(Target::MsPerToken(30.0), Statistic::P50));
    assert_eq!(p.status, Status::Unattainable);
    assert_eq!(p.best, Some(1));
    assert_eq!(
        p.also_meets,
        vec![AlsoMeets {
            level_index: 1,
            failed_below_index: 0
        }]
    );
}

#[test]
fn no_data_names_the_statistics_the_sweep_has() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
    let p = plan(&s, &slo(Target::MsPerToken(30.0), Statistic::P99));
    assert_eq!(
        p.status,
        Status::NoData {
            missing: vec![Statistic::P99],
            available: vec![Statistic::P50, Statistic::P90, Statistic::Rate],
            records_missing: false,
        }
    );
    assert_eq!(p.status.key(), "no-data");
    assert_eq!(p.recommended, None);
}

#[test]
fn every_statistic_reads_its_own_column() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
    // p90 is twice p50: 20 and 40 ms; a 30 ms target keeps only 8.
    let p = plan(&s, &slo(Target::MsPerToken(30.0), Statistic::P90));
    assert_eq!(p.recommended, Some(0));
    assert_eq!(p.verdicts[1].latency_ms, Some(40.0));
    // rate = batch * 1000 / throughput = 1.25 * p50: 12.5 and 25 ms.
    let p = plan(&s, &slo(Target::MsPerToken(24.0), Statistic::Rate));
    assert_eq!(p.recommended, Some(0));
    assert_eq!(p.verdicts[1].latency_ms, Some(25.0));
}

#[test]
fn a_level_without_the_statistic_is_not_reported_and_does_not_end_the_run() {
    let mut s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 25.0), (64.0, 40.0)]);
    s.rows[1].set_latency_ms(Statistic::P50, None);
    let s = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100", Some(1), 1, "fp8"),
        s.rows,
    );
    let p = plan(&s, &slo(Target::MsPerToken(30.0), Statistic::P50));
    assert_eq!(p.status, Status::Ok);
    assert_eq!(p.recommended, Some(2));
    assert_eq!(p.first_failure, Some(3));
    assert!(!p.verdicts[1].meets && p.verdicts[1].unreported);
    assert!(p.also_meets.is_empty());
    // A level reported only at another statistic than every other level: nothing to judge.
    let only = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100", Some(1), 1, "fp8"),
        vec![s.rows[1].clone()],
    );
    assert!(matches!(
        plan(&only, &slo(Target::MsPerToken(30.0), Statistic::P50)).status,
        Status::NoData { .. }
    ));
    // Each statistic reported, but never at the same level: none missing, none judged.
    let apart = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100", Some(1), 1, "fp8"),
        vec![
            Row::new(8.0, 800.0).with(Statistic::P50, Some(10.0)),
            Row::new(16.0, 1400.0).with(Statistic::P99, Some(30.0)),
        ],
    );
    let mut both = slo(Target::MsPerToken(30.0), Statistic::P50);
    both.limits.push(Limit {
        stat: Statistic::P99,
        max_ms: 100.0,
    });
    assert_eq!(
        plan(&apart, &both).status,
        Status::NoData {
            missing: vec![],
            available: vec![Statistic::P50, Statistic::P99],
            records_missing: false,
        }
    );
}

#[test]
fn target_conversions() {
    assert_eq!(Target::TokensPerSecond(25.0).ms_per_token(), 40.0);
    assert_eq!(Target::MsPerToken(40.0).tokens_per_second(), 25.0);
    assert_eq!(Target::MsPerToken(40.0).value(), 40.0);
    for (given, other) in [
        (Target::TokensPerSecond(30.0), Target::MsPerToken(33.33)),
        (Target::MsPerToken(33.33), Target::TokensPerSecond(30.0)),
        (Target::TokensPerSecond(7.777), Target::MsPerToken(128.6)),
        (
            Target::TokensPerSecond(1_000_000.0),
            Target::MsPerToken(0.001),
        ),
        (
            Target::MsPerToken(0.001),
            Target::TokensPerSecond(1_000_000.0),
        ),
        (
            Target::TokensPerSecond(300_000.0),
            Target::MsPerToken(0.003333),
        ),
    ] {
        assert_eq!(given.in_other_unit(), other, "{given:?}");
    }
}

#[test]
fn limits_bind_and_name_the_broken_condition() {
    // p90 = 2 x p50: 20, 40, 80, 160 ms.
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0), (64.0, 80.0)]);
    let mut with_limit = slo(Target::MsPerToken(50.0), Statistic::P50);
    assert_eq!(plan(&s, &with_limit).recommended, Some(2));
    with_limit.limits.push(Limit {
        stat: Statistic::P90,
        max_ms: 50.0,
    });
    let p = plan(&s, &with_limit);
    assert_eq!(p.status, Status::Ok);
    assert_eq!(p.recommended, Some(1));
    assert_eq!(p.verdicts[2].broken, vec![Condition::Limit(0)]);
    assert_eq!(
        p.verdicts[3].broken,
        vec![Condition::Target, Condition::Limit(0)]
    );
    assert!(p.verdicts[1].broken.is_empty());
    // The estimate is never made with limits.
    assert_eq!(estimate(&s, &with_limit, &p), None);
}

#[test]
fn a_limit_on_a_missing_statistic_is_no_data_naming_it() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0)]);
    let mut with_limit = slo(Target::MsPerToken(50.0), Statistic::P50);
    with_limit.limits = vec![
        Limit {
            stat: Statistic::P99,
            max_ms: 100.0,
        },
        Limit {
            stat: Statistic::P99,
            max_ms: 90.0,
        },
    ];
    let p = plan(&s, &with_limit);
    assert_eq!(
        p.status,
        Status::NoData {
            missing: vec![Statistic::P99],
            available: vec![Statistic::P50, Statistic::P90, Statistic::Rate],
            records_missing: false,
        }
    );
}

#[test]
fn estimate_is_linear_in_log2_level() {
    // 64 at 20 ms, 256 at 40 ms; target 30 ms is half way in log2: x = 128.
    let s = sweep_of(&[(8.0, 10.0), (64.0, 20.0), (256.0, 40.0)]);
    let target = slo(Target::MsPerToken(30.0), Statistic::P50);
    let p = plan(&s, &target);
    let e = estimate(&s, &target, &p).unwrap();
    assert_eq!(e.crossing, 128.0);
    assert_eq!(e.level, 128);
    assert_eq!((e.from_level, e.to_level), (64.0, 256.0));
    // Throughput: 64*1000/25 = 2560 and 256*1000/50 = 5120; half way: 3840.
    assert_eq!(e.throughput_tok_s, 3840.0);
    // J/token: 700/2560 and 700/5120; half way.
    assert_eq!(
        e.energy_per_token_j,
        Some((700.0 / 2560.0 + 700.0 / 5120.0) / 2.0)
    );
}

#[test]
fn no_estimate_outside_its_conditions() {
    let s = sweep_of(&[(8.0, 10.0), (9.0, 20.0)]);
    // x between 8 and 9 floors to 8 = c: nothing to add.
    let t = slo(Target::MsPerToken(15.0), Statistic::P50);
    assert_eq!(estimate(&s, &t, &plan(&s, &t)), None);
    // all-meet and unattainable: no estimate outside the measured range.
    let all = slo(Target::MsPerToken(100.0), Statistic::P50);
    assert_eq!(estimate(&s, &all, &plan(&s, &all)), None);
    let none = slo(Target::MsPerToken(5.0), Statistic::P50);
    assert_eq!(estimate(&s, &none, &plan(&s, &none)), None);
    // Exactly at the recommended level's latency: x = c.
    let s = sweep_of(&[(8.0, 10.0), (64.0, 20.0), (256.0, 40.0)]);
    let at = slo(Target::MsPerToken(20.0), Statistic::P50);
    assert_eq!(estimate(&s, &at, &plan(&s, &at)), None);
    // Only the next measured level counts, even when a later one meets again.
    let s = sweep_of(&[(8.0, 10.0), (16.0, 30.0), (32.0, 20.0)]);
    let t = slo(Target::MsPerToken(25.0), Statistic::P50);
    let p = plan(&s, &t);
    assert_eq!(p.recommended, Some(0));
    // x = 8 * 2^((25 - 10) / (30 - 10)) = 13.45.
    assert_eq!(estimate(&s, &t, &p).map(|e| e.level), Some(13));
}

#[test]
fn batching_effect_compares_one_statistic_with_itself() {
    // Levels 8 and 16 report no p90; 32 meets. No level below reports p90: no comparison
    // (an import is never compared on another statistic)...
    let mut s = sweep_of(&[(8.0, 10.0), (16.0, 12.0), (32.0, 14.0), (64.0, 40.0)]);
    for r in &mut s.rows[..2] {
        r.set_latency_ms(Statistic::P90, None);
    }
    let s = Sweep::new(0, s.deployment.clone(), s.rows);
    let t = slo(Target::MsPerToken(30.0), Statistic::P90);
    let p = plan(&s, &t);
    assert_eq!(p.recommended, Some(2));
    assert_eq!(batching_effect(&s, &t, &p, false), None);
    // ...but p50 compares with the smallest level that reports it.
    let t50 = slo(Target::MsPerToken(20.0), Statistic::P50);
    let e = batching_effect(&s, &t50, &plan(&s, &t50), false).unwrap();
    assert_eq!((e.base_level, e.base_stat), (8.0, Statistic::P50));
}

#[test]
fn batching_effect_compares_with_the_smallest_level() {
    let s = sweep_of(&[(8.0, 10.0), (16.0, 20.0), (32.0, 40.0)]);
    let t = slo(Target::MsPerToken(25.0), Statistic::P50);
    let e = batching_effect(&s, &t, &plan(&s, &t), false).unwrap();
    assert_eq!(e.base_level, 8.0);
    // 100 tok/s at 8, 50 tok/s at 16.
    assert_eq!(e.user_slowdown, 2.0);
    // 8*1000/12.5 = 640, 16*1000/25 = 640.
    assert_eq!(e.throughput_gain, 1.0);
    let none = slo(Target::MsPerToken(5.0), Statistic::P50);
    assert_eq!(batching_effect(&s, &none, &plan(&s, &none), false), None);
    // Recommended at the smallest level (10 ms meets 12 ms, 20 ms does not): no "1x slower".
    let smallest = slo(Target::MsPerToken(12.0), Statistic::P50);
    let p = plan(&s, &smallest);
    assert_eq!(p.recommended, Some(0));
    assert_eq!(batching_effect(&s, &smallest, &p, false), None);
}
