use super::*;

#[test]
fn the_flag_summary_counts_each_kind_and_says_what_it_means() {
    assert_eq!(flag_summary(&[]), "No anomaly flags on this sweep.");
    let flag = |kind, row_index| Anomaly {
        kind,
        row_index,
        detail: String::new(),
    };
    let flags = [
        flag(AnomalyKind::Duplicate, 0),
        flag(AnomalyKind::Duplicate, 1),
        flag(AnomalyKind::NonMonotonic, 2),
    ];
    let (d, n) = (AnomalyKind::Duplicate, AnomalyKind::NonMonotonic);
    let (first, second) = if AnomalyKind::ALL.iter().position(|k| *k == d)
        < AnomalyKind::ALL.iter().position(|k| *k == n)
    {
        (("2", d), ("1", n))
    } else {
        (("1", n), ("2", d))
    };
    assert_eq!(
        flag_summary(&flags),
        format!(
            "Flags (rows marked; hover a flag for its numbers): {} {}, {} {}. {}: {}; {}: {}.",
            first.0,
            first.1.key(),
            second.0,
            second.1.key(),
            first.1.key(),
            first.1.meaning(),
            second.1.key(),
            second.1.meaning()
        )
    );
}
use crate::core::import::bundled::lm_arena_chat;
use crate::core::model::sweep::Row;

fn model(active: f64) -> Model {
    Model {
        model_id: "m".into(),
        nickname: "m".into(),
        architecture: "Dense Transformer".into(),
        total_params_b: Some(active),
        activated_params_b: Some(active),
    }
}

fn row(level: f64, batch: f64, p50: f64, throughput: f64, power: f64, jpt: f64) -> Row {
    let mut r = Row::new(level, throughput)
        .with(Statistic::P50, Some(p50))
        .with(Statistic::Rate, Some(batch * 1000.0 / throughput));
    r.avg_batch_size = Some(batch);
    r.power_w = Some(power);
    r.energy_per_token_j = Some(jpt);
    r
}

fn kinds(found: &[Anomaly], row: usize) -> Vec<&'static str> {
    found
        .iter()
        .filter(|a| a.row_index == row)
        .map(|a| a.kind.key())
        .collect()
}

#[test]
fn hand_made_sweep_trips_each_row_check() {
    let rows = vec![
        // 8: clean. rate 8*1000/800 = 10 ms = 100 tok/s; ITL 10 ms = 100 tok/s.
        row(8.0, 8.0, 10.0, 800.0, 400.0, 0.5),
        // 16: low utilisation (12/16 = 75%).
        row(16.0, 12.0, 11.0, 1100.0, 440.0, 0.4),
        // 32: J/token 0.5 vs 400 / 1600 = 0.25.
        row(32.0, 32.0, 20.0, 1600.0, 400.0, 0.5),
        // 64: rate 64*1000/1700 = 37.6 ms = 26.6 tok/s vs ITL 15 ms = 66.7 tok/s; ITL falls.
        row(64.0, 64.0, 15.0, 1700.0, 425.0, 0.25),
    ];
    let sweep = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100", Some(1), 1, "bfloat16"),
        rows,
    );
    let found = anomalies(&sweep, &model(1.0), Statistic::P50);
    assert!(kinds(&found, 0).is_empty(), "{found:?}");
    assert_eq!(kinds(&found, 1), vec!["low-utilisation"]);
    assert_eq!(kinds(&found, 2), vec!["energy-identity"]);
    assert_eq!(kinds(&found, 3), vec!["non-monotonic", "rate-mismatch"]);
}

#[test]
fn memory_bound_is_active_weights_over_bandwidth() {
    // Seed 003: Llama 3.1 70B FP8 on one H100: 70 GB / 3.35 TB/s = 20.9 ms; 20 ms is faster.
    let r = Row::new(1.0, 50.0).with(Statistic::TpotMean, Some(20.0));
    let sweep = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("H100 SXM", Some(1), 1, "fp8"),
        vec![r],
    );
    let bound = memory_bound_itl_ms(&sweep, &model(70.0)).unwrap();
    assert!((bound - 70e9 / 3.35e12 * 1000.0).abs() < 1e-9);
    let found = anomalies(&sweep, &model(70.0), Statistic::TpotMean);
    assert_eq!(kinds(&found, 0), vec!["faster-than-memory-bound"]);
    // Unknown GPU, precision or count: no bound, no flag.
    let odd = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("L40S", Some(1), 1, "fp8"),
        sweep.rows.clone(),
    );
    assert_eq!(memory_bound_itl_ms(&odd, &model(70.0)), None);
    let fp4 = Sweep::new(
        0,
        crate::core::model::deployment::Deployment::hardware("B200", Some(1), 1, "fp4"),
        sweep.rows.clone(),
    );
    assert_eq!(memory_bound_itl_ms(&fp4, &model(70.0)), None);
    assert_eq!(hbm_bandwidth("NVIDIA A100-SXM4-40GB"), Some(1.555e12));
    assert_eq!(hbm_bandwidth("A100 80GB"), None);
}

#[test]
fn the_bundled_file_flags_what_the_issue_names_and_nothing_else() {
    let source = lm_arena_chat();
    let mut counts = std::collections::BTreeMap::new();
    for sweep in &source.sweeps {
        for a in anomalies(sweep, &source.models[sweep.model_index], Statistic::P50) {
            *counts.entry(a.kind.key()).or_insert(0) += 1;
        }
    }
    assert_eq!(counts.get("low-utilisation"), None);
    assert_eq!(counts.get("energy-identity"), None);
    assert_eq!(counts.get("faster-than-memory-bound"), None);
    assert_eq!(counts.get("duplicate"), Some(&4));
    // Qwen3-235B on 4 x B200 at 4096: 3.5 vs 14.7 tok/s.
    let i = source
        .sweeps
        .iter()
        .position(|s| {
            source.models[s.model_index].model_id == "Qwen/Qwen3-235B-A22B-Instruct-2507"
                && s.deployment.gpu == "B200"
                && s.deployment.num_gpus == Some(4)
        })
        .unwrap();
    let sweep = &source.sweeps[i];
    let found = anomalies(sweep, &source.models[sweep.model_index], Statistic::P50);
    let last = sweep.rows.len() - 1;
    assert!(kinds(&found, last).contains(&"rate-mismatch"));
    assert!(kinds(&found, last).contains(&"non-monotonic"));
    let detail = &found
        .iter()
        .find(|a| a.row_index == last && a.kind == AnomalyKind::RateMismatch)
        .unwrap()
        .detail;
    assert_eq!(detail, "rate-based 3.5 tok/s vs 14.8 tok/s from median ITL");
}
