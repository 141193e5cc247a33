use super::*;

/// A recommendation with round figures: 40 streams, 2,000 tok/s, 500 output tokens per request
/// (so 4 req/s per replica), 1,400 W.
fn rec() -> Recommendation {
    Recommendation {
        level: 64.0,
        avg_batch_size: Some(40.0),
        streams: Some(40.0),
        throughput_tok_s: 2000.0,
        throughput_per_gpu_tok_s: Some(1000.0),
        energy_per_token_j: Some(0.7),
        power_w: Some(1400.0),
        user_tps: 50.0,
        latency_ms: 20.0,
        headroom: 0.0,
        output_tokens_per_request: Some(500.0),
        rate_user_tps: Some(50.0),
    }
}

fn rps(step_min: f64, values: &[f64]) -> LoadProfile {
    LoadProfile {
        kind: LoadKind::Rps,
        step_min,
        values: values.to_vec(),
    }
}

#[test]
fn the_covered_load_looks_ahead_by_the_lag_in_whole_steps() {
    let p = rps(60.0, &[3.0, 2.0, 9.0, 1.0, 5.0]);
    assert_eq!(covered_load(&p, 0.0), [3.0, 2.0, 9.0, 1.0, 5.0]);
    // 30 minutes of lag on hourly steps: k = ceil(30 / 60) = 1.
    assert_eq!(covered_load(&p, 30.0), [3.0, 9.0, 9.0, 5.0, 5.0]);
    // k = 2; past the end there is nothing.
    assert_eq!(covered_load(&p, 120.0), [9.0, 9.0, 9.0, 5.0, 5.0]);
}

#[test]
fn a_day_by_the_hour_figures_by_hand() {
    // Four hours at 3, 9, 14 and 2 req/s; a replica serves 2,000 / 500 = 4 req/s.
    let p = rps(60.0, &[3.0, 9.0, 14.0, 2.0]);
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.5),
        price_per_kwh: Some(0.1),
        co2_g_per_kwh: Some(400.0),
        pue: Some(1.2),
        ..CapacityInputs::default()
    };
    let f = period(&rec(), Some(2), &p, Scaling::default(), &inputs);
    // ceil(3/4)=1, ceil(9/4)=3, ceil(14/4)=4, ceil(2/4)=1.
    assert_eq!(f.replicas, [1, 3, 4, 1]);
    assert_eq!(f.period_h, 4.0);
    assert_eq!(f.peak_replicas, Some(4));
    assert_eq!(f.peak_gpus, Some(8));
    // (1 + 3 + 4 + 1) replica-hours × 2 GPUs = 18 GPU-hours.
    assert_eq!(f.gpu_hours, Some(18.0));
    assert_eq!(f.mean_gpus, Some(4.5));
    assert_eq!(f.gpu_usd, Some(45.0));
    // 9 replica-hours × 1.4 kW × 1.2 = 15.12 kWh.
    let kwh = f.energy_kwh.unwrap();
    assert!((kwh - 15.12).abs() < 1e-9, "{kwh}");
    assert!((f.electricity_usd.unwrap() - 1.512).abs() < 1e-9);
    assert!((f.co2_kg.unwrap() - 6.048).abs() < 1e-9);
    assert!((f.total_usd.unwrap() - 46.512).abs() < 1e-9);
    // (3 + 9 + 14 + 2) req/s × 500 tokens × 3,600 s = 50.4 M tokens.
    assert_eq!(f.output_tokens, Some(50_400_000.0));
    assert!((f.usd_per_mtok.unwrap() - 46.512 / 50.4).abs() < 1e-9);
    // The peak held: 8 GPUs × 4 h = 32 GPU-hours; saved 14, $35.
    assert_eq!(f.peak_hold_gpu_hours, Some(32.0));
    assert_eq!(f.saved_gpu_hours, Some(14.0));
    assert_eq!(f.saved_usd, Some(35.0));
    // Per day: × 24 / 4.
    assert_eq!(f.per_day(18.0), 108.0);
}

#[test]
fn the_lag_and_the_floor_raise_the_replicas() {
    let p = rps(30.0, &[1.0, 1.0, 13.0, 1.0]);
    let scaling = Scaling {
        lag_min: 45.0,
        min_replicas: 2,
    };
    let f = period(&rec(), Some(1), &p, scaling, &CapacityInputs::default());
    // k = ceil(45 / 30) = 2: covered 13, 13, 13, 1; ceil(13/4) = 4; the floor lifts the last.
    assert_eq!(f.replicas, [4, 4, 4, 2]);
    assert_eq!(f.period_h, 2.0);
    assert_eq!(f.gpu_hours, Some(7.0));
    // No price: nothing in dollars, the hours are there.
    assert_eq!((f.gpu_usd, f.total_usd, f.saved_usd), (None, None, None));
    assert_eq!(f.saved_gpu_hours, Some(1.0));
}

#[test]
fn users_are_served_by_streams_and_nothing_is_guessed() {
    let p = LoadProfile {
        kind: LoadKind::Users,
        step_min: 60.0,
        values: vec![0.0, 100.0],
    };
    let f = period(
        &rec(),
        None,
        &p,
        Scaling::default(),
        &CapacityInputs::default(),
    );
    // ceil(0/40) = 0, lifted to 1; ceil(100/40) = 3.
    assert_eq!(f.replicas, [1, 3]);
    // No GPU count: no GPU figure.
    assert_eq!((f.peak_gpus, f.gpu_hours, f.mean_gpus), (None, None, None));
    // Energy needs the power only: 4 replica-hours × 1.4 kW.
    assert!((f.energy_kwh.unwrap() - 5.6).abs() < 1e-9);
    // 100 users × 2,000 / 40 tok/s × 3,600 s.
    assert_eq!(f.output_tokens, Some(18_000_000.0));

    // Without output tokens per request, an rps load sizes nothing.
    let mut r = rec();
    r.output_tokens_per_request = None;
    let f = period(
        &r,
        Some(1),
        &rps(60.0, &[5.0]),
        Scaling::default(),
        &CapacityInputs::default(),
    );
    assert!(f.replicas.is_empty());
    assert_eq!(
        (f.peak_replicas, f.gpu_hours, f.energy_kwh),
        (None, None, None)
    );
}

#[test]
fn the_covered_load_is_the_largest_in_each_window_on_any_load() {
    // Against the definition, on 2,000 pseudo-random loads with ties, zeros and lags of 0 to 12
    // steps, some longer than the load.
    let mut seed: u64 = 7;
    let mut next = || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        seed >> 33
    };
    for _ in 0..2000 {
        let n = (next() % 12) as usize;
        let values: Vec<f64> = (0..n).map(|_| (next() % 5) as f64).collect();
        let lag = (next() % 13) as f64 * 10.0;
        let p = LoadProfile {
            kind: LoadKind::Rps,
            step_min: 10.0,
            values: values.clone(),
        };
        let k = (lag / 10.0) as usize;
        let want: Vec<f64> = (0..n)
            .map(|i| {
                values[i..n.min(i + k + 1)]
                    .iter()
                    .copied()
                    .fold(0.0, f64::max)
            })
            .collect();
        assert_eq!(covered_load(&p, lag), want, "{values:?} lag {lag}");
    }
}
