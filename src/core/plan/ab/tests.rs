use super::warnings::gpu_warnings;
use super::*;
use crate::core::model::deployment::{Deployment, LevelKind, Role};

fn curve_of(points: &[(f64, f64, f64)]) -> Curve {
    Curve {
        points: points
            .iter()
            .map(|&(level, speed_tok_s, tok_s)| Point {
                level,
                speed_tok_s,
                tok_s,
            })
            .collect(),
        failed: Vec::new(),
        ended_at: None,
    }
}

#[test]
fn throughput_at_a_speed_is_read_between_two_levels_in_logs() {
    // 100 tok/s/user at 40 tok/s/GPU, 25 at 160: at 50, t = ln(50/100) / ln(25/100) = 0.5, so
    // ln tok/s = ln 40 + 0.5 × ln 4: 80.
    let c = curve_of(&[(1.0, 100.0, 40.0), (4.0, 25.0, 160.0)]);
    match c.at(50.0) {
        At::Interpolated {
            tok_s,
            from_level,
            to_level,
        } => {
            assert!((tok_s - 80.0).abs() < 1e-9, "{tok_s}");
            assert_eq!((from_level, to_level), (1.0, 4.0));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        c.at(25.0),
        At::Measured {
            tok_s: 160.0,
            level: 4.0
        }
    );
    assert_eq!(
        c.at(120.0),
        At::TooFast {
            fastest_tok_s: Some(100.0)
        }
    );
    assert_eq!(
        c.at(20.0),
        At::TooSlow {
            slowest_tok_s: 25.0
        }
    );
    assert_eq!(c.range(), Some((25.0, 100.0)));
}

#[test]
fn a_level_below_the_speed_ends_the_run_as_the_planner_reads_a_sweep() {
    // The second level is slower than 50, the third faster again: 50 is read between the first
    // two, never past the one that misses.
    let c = curve_of(&[(1.0, 100.0, 40.0), (2.0, 25.0, 160.0), (4.0, 60.0, 300.0)]);
    match c.at(50.0) {
        At::Interpolated { to_level, .. } => assert_eq!(to_level, 2.0),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_verdict_holds_the_interval_to_one_plus_or_minus_the_tolerance() {
    let r = |low, high| {
        Some(Ratio {
            ratio: (low + high) / 2.0,
            low,
            high,
        })
    };
    assert_eq!(verdict(r(1.021, 1.2), 2.0), AbVerdict::Better);
    assert_eq!(verdict(r(1.02, 1.2), 2.0), AbVerdict::NoDifference);
    assert_eq!(verdict(r(0.5, 0.979), 2.0), AbVerdict::Worse);
    assert_eq!(verdict(r(0.5, 0.98), 2.0), AbVerdict::NoDifference);
    assert_eq!(verdict(r(1.001, 1.001), 0.0), AbVerdict::Better);
    assert_eq!(verdict(None, 2.0), AbVerdict::CannotJudge);
}

#[test]
fn median_of_an_even_count_is_the_mean_of_the_middle_two() {
    let r = median_min_max(&[4.0, 1.0, 3.0, 2.0]).expect("values");
    assert_eq!((r.ratio, r.low, r.high), (2.5, 1.0, 4.0));
    assert_eq!(median_min_max(&[]), None);
}

#[test]
fn a_crossover_is_where_the_ratio_crosses_one_in_logs() {
    let p = |speed_tok_s: f64, r: f64| RatioPoint {
        speed_tok_s,
        ratio: Ratio {
            ratio: r,
            low: r,
            high: r,
        },
    };
    // ln 2 and ln 0.5 are symmetric: the crossing is at the geometric mean of 10 and 40.
    let xs = crossovers(&[p(10.0, 2.0), p(40.0, 0.5)]);
    assert_eq!(xs.len(), 1);
    assert!((xs[0] - 20.0).abs() < 1e-9, "{xs:?}");
    // A point at exactly 1 between two sides is one crossing, not two.
    let xs = crossovers(&[p(10.0, 2.0), p(20.0, 1.0), p(40.0, 0.5)]);
    assert_eq!(xs.len(), 1);
    assert!(crossovers(&[p(10.0, 2.0), p(40.0, 1.5)]).is_empty());
}

#[test]
fn ranges_only_one_arm_reaches() {
    assert_eq!(
        outside(Some((5.0, 100.0)), Some((10.0, 90.0))),
        vec![(5.0, 10.0), (90.0, 100.0)]
    );
    assert!(outside(Some((10.0, 90.0)), Some((5.0, 100.0))).is_empty());
    assert_eq!(outside(Some((10.0, 20.0)), None), vec![(10.0, 20.0)]);
}

#[test]
fn a_disaggregated_arm_against_a_colocated_one_names_its_roles_and_counts_all_gpus() {
    use crate::core::model::deployment::{Disaggregation, Roles};
    let colocated = Deployment {
        gpu: "mi355x".into(),
        num_gpus: Some(8),
        disaggregation: Some(Disaggregation::Colocated),
        ..Deployment::new(LevelKind::Concurrency)
    };
    let roles = |p, d| Roles {
        prefill: Role {
            gpus: Some(p),
            ..Role::default()
        },
        decode: Role {
            gpus: Some(d),
            ..Role::default()
        },
    };
    let disaggregated = Deployment {
        num_gpus: Some(24),
        disaggregation: Some(Disaggregation::Disaggregated(roles(16, 8))),
        ..colocated.clone()
    };
    assert_eq!(
        differs(&colocated, &disaggregated),
        ["GPU count", "disaggregation", "prefill GPUs", "decode GPUs"]
    );
    assert_eq!(
        gpu_warnings(&colocated, &disaggregated),
        [
            AbWarning::GpusPerReplica { a: 8, b: 24 },
            AbWarning::AllGpus {
                arms: vec![('B', Some((16, 8)))]
            }
        ]
    );
    // Two P:D ratios of the same 24 GPUs differ in the roles' GPUs only.
    let other = Deployment {
        disaggregation: Some(Disaggregation::Disaggregated(roles(8, 16))),
        ..disaggregated.clone()
    };
    assert_eq!(
        differs(&disaggregated, &other),
        ["prefill GPUs", "decode GPUs"]
    );
    assert_eq!(
        gpu_warnings(&disaggregated, &other),
        [AbWarning::AllGpus {
            arms: vec![('A', Some((16, 8))), ('B', Some((8, 16)))]
        }]
    );
    assert_eq!(
        crate::core::text::ab_text::warning_text(&gpu_warnings(&colocated, &disaggregated)[1]),
        "Throughput per GPU counts every GPU of a replica, prefill and decode: B is disaggregated, 16 + 8 = 24 GPUs."
    );
}
