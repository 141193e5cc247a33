use super::*;

/// Llama 3.1 8B at 25 tok/s per user (p50 ITL) on the bundled data: recommended at 384 on
/// 1 × H100 (9,248.01 tok/s, 686.52 W, avg batch 383.01, 394.34 output tokens per request)
/// and at 256 on 1 × B200 (7,664.11 tok/s, 540.20 W, avg batch 255.23, 399.50 tokens).
fn rec(throughput_tok_s: f64, power_w: f64, streams: f64, tokens: f64) -> Recommendation {
    Recommendation {
        level: 0.0,
        avg_batch_size: Some(streams),
        streams: Some(streams),
        throughput_tok_s,
        throughput_per_gpu_tok_s: Some(throughput_tok_s),
        energy_per_token_j: Some(power_w / throughput_tok_s),
        power_w: Some(power_w),
        user_tps: 25.0,
        latency_ms: 40.0,
        headroom: 0.0,
        output_tokens_per_request: Some(tokens),
        rate_user_tps: None,
    }
}

fn h100() -> Recommendation {
    rec(
        9248.01198181863,
        686.5186027909551,
        383.01428571428573,
        394.34423828125,
    )
}

fn b200() -> Recommendation {
    rec(
        7664.1144542874135,
        540.1979487399086,
        255.23076923076923,
        399.49609375,
    )
}

const ONE_MW: PowerInputs = PowerInputs {
    budget_w: 1e6,
    basis: PowerBasis::Measured,
    host_w: 150.0,
    pue: 1.2,
};

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() <= 1e-9 * y.abs().max(1.0)
}

#[test]
fn one_megawatt_with_host_and_pue_on_h100_and_b200() {
    // H100: (686.52 + 150) × 1.2 = 1,003.82 W a replica; floor(10^6 / 1,003.82) = 996.
    let p = power_plan(&h100(), "H100", Some(1), None, &ONE_MW).expect("a plan");
    assert!(close(p.w_per_gpu, 836.5186027909551));
    assert!(close(p.replica_w, 1003.8223233491461));
    assert_eq!((p.replicas, p.gpus), (996, 996));
    assert!(close(p.users.expect("users"), 381482.22857142857));
    assert!(close(p.output_tok_s, 9211019.933891356));
    assert!(close(p.tok_s_per_mw, 9212797.690096814));
    assert!(close(
        p.users_per_mw.expect("users per MW"),
        381555.8558574384
    ));
    assert!(close(p.facility_j_per_token, 0.10854466076845885));
    assert!(close(p.req_s.expect("req/s"), 23357.815430593335));
    // B200: (540.20 + 150) × 1.2 = 828.24 W a replica: 1,207 replicas, fewer users per MW.
    let p = power_plan(&b200(), "B200", Some(1), None, &ONE_MW).expect("a plan");
    assert_eq!((p.replicas, p.gpus), (1207, 1207));
    assert!(close(p.users.expect("users"), 308063.53846153844));
    assert!(close(p.tok_s_per_mw, 9253522.206056677));
    assert!(close(
        p.users_per_mw.expect("users per MW"),
        308161.3152873304
    ));
}

#[test]
fn the_rated_power_answers_where_none_was_measured_and_an_unknown_type_is_named() {
    let mut r = h100();
    r.power_w = None;
    assert_eq!(
        power_plan(&r, "H100", Some(1), None, &ONE_MW),
        Err(PowerError::NoMeasuredPower)
    );
    let tdp = PowerInputs {
        basis: PowerBasis::Tdp,
        ..ONE_MW
    };
    // (700 + 150) × 1.2 = 1,020 W: floor(980.39) = 980.
    let p = power_plan(&r, "h100", Some(1), None, &tdp).expect("a plan");
    assert_eq!(p.replicas, 980);
    assert_eq!(p.gpu.w(), 700.0);
    assert_eq!(
        power_plan(&r, "X9000", Some(1), None, &tdp),
        Err(PowerError::NoTdp {
            gpu: "X9000".to_string()
        })
    );
    assert_eq!(
        power_plan(&r, "H100", None, None, &tdp),
        Err(PowerError::NoGpuCount)
    );
    // The table's rows are the SXM / OAM modules, named with or without vendor and form.
    for named in [
        "H100 SXM",
        "NVIDIA H100",
        "nvidia-h100-sxm5",
        "MI300X OAM",
        "NVIDIA H100SXM5",
    ] {
        assert!(tdp_of(named).is_some(), "{named}");
    }
    // With the form named, its memory too (ML.ENERGY's own `A100-SXM4-40GB` was refused).
    for (named, w) in [
        ("A100-SXM4-40GB", 400.0),
        ("NVIDIA A100-SXM4-80GB", 400.0),
        ("H100-SXM5-80GB", 700.0),
        ("H100-80GB-SXM", 700.0),
        ("AMD Instinct MI300X", 750.0),
        ("H200 SXM 141GB HBM3e", 700.0),
    ] {
        assert_eq!(tdp_of(named).map(|t| t.w), Some(w), "{named}");
    }
    for other in [
        "H100 PCIe",
        "H100 NVL",
        "NVIDIA H100 80GB HBM3",
        "A100 40GB",
        "H100 PCIe 80GB",
        "A100-PCIE-40GB",
    ] {
        assert!(tdp_of(other).is_none(), "{other}");
    }
}

#[test]
fn a_peak_below_the_mean_is_named_and_not_used() {
    // Mean 500 W, p90 100 W at the level: they cannot both be true.
    let mut r = h100();
    r.power_w = Some(500.0);
    assert_eq!(
        power_plan(&r, "H100", Some(1), Some((100.0, PowerPeak::P90)), &ONE_MW),
        Err(PowerError::PeakBelowMean {
            kind: PowerPeak::P90,
            peak_w: 100.0,
            mean_w: 500.0
        })
    );
    assert_eq!(
        crate::core::text::power_text::power_error_text(&PowerError::PeakBelowMean {
            kind: PowerPeak::P90,
            peak_w: 100.0,
            mean_w: 500.0
        }),
        "the file's p90 power at the recommended level, 100 W, is below its mean power, 500 W: the two cannot both be true (a per-GPU figure beside a total?), so neither is used"
    );
    // A peak at or above the mean is read.
    let p =
        power_plan(&r, "H100", Some(1), Some((650.0, PowerPeak::Max)), &ONE_MW).expect("a plan");
    assert_eq!(p.gpu.w(), 650.0);
}

#[test]
fn a_loads_peak_is_held_to_the_budget() {
    let p = power_plan(&h100(), "H100", Some(1), None, &ONE_MW).expect("a plan");
    let fits = power_need(&p, 996);
    assert!(fits.fits && close(fits.needed_w, 996.0 * 1003.8223233491461));
    let over = power_need(&p, 997);
    assert!(!over.fits && over.budget_share > 1.0);
}

#[test]
fn gpu_types_match_without_case_spaces_or_dashes() {
    assert_eq!(tdp_of("mi355x").map(|t| t.w), Some(1400.0));
    assert_eq!(tdp_of("Gaudi-3").map(|t| t.w), Some(900.0));
    assert_eq!(tdp_of("H100 PCIe"), None);
}

#[test]
fn a_reported_peak_is_provisioned_on_and_named() {
    // p99 power 800 W over the mean 686.52: (800 + 150) × 1.2 = 1,140 W a replica, 877 fit.
    let p = power_plan(
        &h100(),
        "H100",
        Some(1),
        Some((800.0, PowerPeak::P99)),
        &ONE_MW,
    )
    .expect("a plan");
    assert_eq!(
        p.gpu,
        GpuPower::Measured {
            w: 800.0,
            peak: Some(PowerPeak::P99)
        }
    );
    assert_eq!(p.replicas, 877);
}
