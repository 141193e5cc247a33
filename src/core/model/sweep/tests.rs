use super::*;
use crate::core::model::source::{Provenance, Source};

fn deployment(gpu: &str, gpus: u32, tp: u32, precision: &str) -> Deployment {
    Deployment::hardware(gpu, Some(gpus), tp, precision)
}

fn row(level: f64, p50: f64, throughput: f64, batch: f64) -> Row {
    let mut r = Row::new(level, throughput)
        .with(Statistic::P50, Some(p50))
        .with(Statistic::P90, Some(p50 * 2.0))
        .with(Statistic::P95, Some(p50 * 3.0))
        .with(Statistic::P99, Some(p50 * 4.0))
        .with(Statistic::Rate, Some(batch * 1000.0 / throughput));
    r.avg_batch_size = Some(batch);
    r.power_w = Some(throughput * 0.1);
    r.set_energy_per_token_j(Some(0.1));
    r.energy_per_request_j = Some(50.0);
    r
}

#[test]
fn duplicate_level_takes_worst_per_metric() {
    let mut a = row(256.0, 30.0, 7000.0, 250.0);
    a.power_w = Some(900.0);
    let mut b = row(256.0, 34.0, 7200.0, 240.0);
    b.power_w = Some(800.0);
    b.set_energy_per_token_j(Some(0.2));
    let sweep = Sweep::new(
        0,
        Deployment {
            ep: Some(2),
            ..deployment("H100", 2, 1, "bfloat16")
        },
        vec![b, row(8.0, 10.0, 800.0, 8.0), a],
    );
    assert_eq!(sweep.levels().len(), 2);
    let l = &sweep.levels()[1];
    assert!(l.is_duplicate());
    assert_eq!(l.row_indices, vec![1, 2]);
    assert_eq!(l.latency_ms(Statistic::P50), Some(34.0));
    assert_eq!(l.throughput_tok_s, 7000.0);
    assert_eq!(l.avg_batch_size, Some(240.0));
    assert_eq!(l.power_w, Some(900.0));
    assert_eq!(l.energy_per_token_j, Some(0.2));
    // rate: row a 250*1000/7000 = 35.714..., row b 240*1000/7200 = 33.33...; worst is a's.
    assert_eq!(l.latency_ms(Statistic::Rate), Some(250.0 * 1000.0 / 7000.0));
    assert_eq!(l.rate_user_tps(), Some(1000.0 / (250.0 * 1000.0 / 7000.0)));
    assert_eq!(sweep.deployment.parallelism_label(), "EP2");
    assert_eq!(sweep.deployment.base_label(), "2 x H100, EP2, bf16");
    assert_eq!((l.runs(), l.runs_reporting(Figure::Power)), (2, 2));
}

#[test]
fn a_figure_some_runs_report_is_the_worst_of_those_runs() {
    // cases/partial-reports at 16: p90 and power reported by 1 of 2 runs.
    let mut a = Row::new(16.0, 1012.9)
        .with(Statistic::P50, Some(15.4))
        .with(Statistic::P90, Some(18.2));
    a.power_w = Some(5756.0);
    let a = a.finish(LevelKind::Concurrency, RunCounts::default());
    let b = Row::new(16.0, 795.8)
        .with(Statistic::P50, Some(19.5))
        .finish(LevelKind::Concurrency, RunCounts::default());
    let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), vec![a, b]);
    let l = &sweep.levels()[0];
    assert_eq!(l.latency_ms(Statistic::P90), Some(18.2));
    assert_eq!(l.latency_ms(Statistic::P50), Some(19.5));
    assert_eq!(l.throughput_tok_s, 795.8);
    assert_eq!(l.power_w, Some(5756.0));
    // J/token from the run that reports power: 5756 / 1012.9, not 5756 / 795.8.
    assert_eq!(l.energy_per_token_j, Some(5756.0 / 1012.9));
    assert_eq!(l.energy_basis, Some(EnergyBasis::PowerOverThroughput));
    assert_eq!(l.runs_reporting(Figure::Latency(Statistic::P90)), 1);
    assert_eq!(l.runs_reporting(Figure::Latency(Statistic::P50)), 2);
    assert_eq!(l.runs_reporting(Figure::Power), 1);
    assert_eq!(l.runs_reporting(Figure::EnergyPerToken), 1);
    assert_eq!(l.runs_reporting(Figure::AvgBatch), 0);
    assert_eq!(l.avg_batch_size, None);
    assert!(sweep.statistics().contains(&Statistic::P90));
}

#[test]
fn statistics_for_limits_share_a_level_with_the_judged_one() {
    // Level 1 reports mean TPOT only; level 64 reports p50 and rate only.
    let a = Row::new(1.0, 100.0).with(Statistic::TpotMean, Some(10.0));
    let b = Row::new(64.0, 800.0)
        .with(Statistic::P50, Some(80.0))
        .with(Statistic::Rate, Some(80.0));
    let sweep = Sweep::new(0, deployment("A100", 1, 1, "fp16"), vec![a, b]);
    assert_eq!(
        sweep.statistics(),
        vec![Statistic::P50, Statistic::TpotMean, Statistic::Rate]
    );
    assert_eq!(
        sweep.statistics_for_limits(Statistic::TpotMean),
        vec![Statistic::TpotMean]
    );
    assert_eq!(
        sweep.statistics_for_limits(Statistic::Rate),
        vec![Statistic::P50, Statistic::Rate]
    );
    assert_eq!(
        sweep.statistics_for_limits(Statistic::P99),
        sweep.statistics()
    );
}

#[test]
fn labels_show_what_tells_sweeps_apart_and_cfg_selects_one() {
    let model = Model {
        model_id: "m".into(),
        nickname: "m".into(),
        architecture: "MoE".into(),
        total_params_b: None,
        activated_params_b: None,
    };
    let dated = |date: &str| Deployment {
        date: Some(date.into()),
        ..deployment("h200", 8, 8, "fp8")
    };
    let rows = || vec![Row::new(4.0, 300.0)];
    let sweeps = vec![
        Sweep::new(0, dated("2025-12-13"), rows()),
        Sweep::new(0, dated("2026-03-25"), rows()),
        Sweep::new(0, deployment("b200", 8, 8, "fp8"), rows()),
    ];
    let source = Source::new(
        "t".into(),
        "t".into(),
        vec![model],
        sweeps,
        Provenance::default(),
    );
    assert_eq!(source.sweep_label(0), "2025-12-13 · 8 x h200, TP8, fp8");
    assert_eq!(
        source.sweep_label(2),
        "date not stated · 8 x b200, TP8, fp8"
    );
    assert_eq!(source.sweep_cfg(0), Some("2025-12-13"));
    assert_eq!(source.sweep_cfg(1), Some("2026-03-25"));
    assert_eq!(source.sweep_cfg(2), None);
    // Newest date first within one GPU type and count.
    assert_eq!(source.sweeps_of(0), vec![2, 1, 0]);
}
