use super::*;
use crate::core::model::deployment::{Deployment, Disaggregation, LevelKind, Role, Roles};
use crate::core::model::sweep::{Row, RunCounts};
use crate::core::plan::planner::{plan, Slo, Target};

/// InferenceX's mori-sglang row on MI355X (`inferencex-app__cypress_fixtures_api__benchmarks.json`,
/// entry 200): 16 prefill + 8 decode GPUs, conc 2048, isl 8192, osl 1024; 1,186.247 output tok/s
/// per decode GPU, 4,740.144 input tok/s per prefill GPU; 907.773 W per GPU over all 24,
/// 956.5 W per prefill GPU, 812.882 W per decode GPU.
fn mori() -> Sweep {
    let output = 1_186.247_252_992_547_8 * 8.0;
    let mut row = Row::new(2048.0, output);
    row.input_tok_s = Some(4_740.144_290_655_592 * 16.0);
    row.power_w = Some(907.773 * 24.0);
    row.roles.prefill_power_w = Some(956.5 * 16.0);
    row.roles.decode_power_w = Some(812.882 * 8.0);
    row.roles.decode_energy_per_token_j = Some(0.685_255);
    let row = row
        .with(Statistic::TpotP50, Some(58.237_845_312_448_51))
        .finish(LevelKind::Concurrency, RunCounts::default());
    let role = |gpus| Role {
        workers: None,
        tp: Some(8),
        ep: Some(8),
        attention_dp: Some(true),
        gpus: Some(gpus),
        ..Role::default()
    };
    let deployment = Deployment {
        gpu: "mi355x".into(),
        num_gpus: Some(24),
        disaggregation: Some(Disaggregation::Disaggregated(Roles {
            prefill: role(16),
            decode: role(8),
        })),
        isl: Some(8192.0),
        osl: Some(1024.0),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Sweep::new(0, deployment, vec![row])
}

use crate::core::model::sweep::Statistic;

fn at(sweep: &Sweep, inputs: &CapacityInputs) -> Option<Cost> {
    let slo = Slo::new(Target::TokensPerSecond(10.0), Statistic::TpotP50);
    let p = plan(sweep, &slo);
    at_recommendation(sweep, &p, &slo, inputs)
}

#[test]
fn a_disaggregated_request_costs_its_replica_hour_over_the_requests_it_completes() {
    let sweep = mori();
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.0),
        ..CapacityInputs::default()
    };
    let c = at(&sweep, &inputs).unwrap();
    let output = 1_186.247_252_992_547_8 * 8.0;
    // No measured lengths: the workload's stated 8192 in, 1024 out, said as stated.
    assert_eq!(c.lengths.input, Some((8192.0, LengthSource::Stated)));
    assert_eq!(c.lengths.output, Some((1024.0, LengthSource::Stated)));
    // 24 GPUs x $2 = $48 an hour for 9,489.98 x 3600 / 1024 = 33,363.2 requests.
    assert_eq!(c.replica_usd_per_hour, 48.0);
    assert_eq!(c.requests_per_hour, Some(output * 3600.0 / 1024.0));
    let usd = 48.0 / (output * 3600.0 / 1024.0);
    assert_eq!(c.usd_per_request, Some(usd));
    assert!((usd - 0.001_438_71).abs() < 1e-8);
    assert_eq!(c.usd_per_m_total_tokens, Some(usd / 9216.0 * 1e6));
    assert_eq!(c.usd_per_m_output_tokens, 48.0 / (output * 3600.0) * 1e6);
    assert!((c.usd_per_m_output_tokens - 1.404_991).abs() < 1e-6);
    // Each role's GPUs at its price, over the tokens it makes: 16 x $2 over 75,842.3 input
    // tok/s; 8 x $2 over 9,489.98 output tok/s.
    let input = 4_740.144_290_655_592 * 16.0;
    assert_eq!(
        c.usd_per_m_input_tokens_prefill,
        Some(32.0 / (input * 3600.0) * 1e6)
    );
    assert!((c.usd_per_m_input_tokens_prefill.unwrap() - 0.117_202).abs() < 1e-6);
    assert_eq!(
        c.usd_per_m_output_tokens_decode,
        Some(16.0 / (output * 3600.0) * 1e6)
    );
    assert!((c.usd_per_m_output_tokens_decode.unwrap() - 0.468_330).abs() < 1e-6);
    assert_eq!((c.api_usd_per_request, c.vs_api), (None, None));
}

#[test]
fn the_api_break_even_is_the_ratio_of_the_two_costs_per_request() {
    let sweep = mori();
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.0),
        api: Some(ApiPrice {
            input: 1.25,
            output: 10.0,
            cached_input: Some(0.125),
        }),
        cached: Some(0.5),
        ..CapacityInputs::default()
    };
    let c = at(&sweep, &inputs).unwrap();
    // (8192 x 0.5 x 1.25 + 8192 x 0.5 x 0.125 + 1024 x 10) / 1e6 = $0.015872.
    assert_eq!(c.api_usd_per_request, Some(0.015_872));
    let usd = c.usd_per_request.unwrap();
    assert_eq!(c.vs_api, Some(usd / 0.015_872));
    assert!((c.vs_api.unwrap() - 0.090_645).abs() < 1e-6);
    assert_eq!(c.break_even_utilisation, c.vs_api);
    assert!(!c.cached_as_input);
    // Without a cached price, cached tokens are priced as input, and said.
    let plain = CapacityInputs {
        api: Some(ApiPrice {
            input: 1.25,
            output: 10.0,
            cached_input: None,
        }),
        ..inputs
    };
    let c = at(&sweep, &plain).unwrap();
    assert_eq!(c.api_usd_per_request, Some((8192.0 * 1.25 + 10240.0) / 1e6));
    assert!(c.cached_as_input);
    // A free API: no ratio (nothing to divide by).
    let free = CapacityInputs {
        api: Some(ApiPrice {
            input: 0.0,
            output: 0.0,
            cached_input: None,
        }),
        ..inputs
    };
    let c = at(&sweep, &free).unwrap();
    assert_eq!((c.api_usd_per_request, c.vs_api), (Some(0.0), None));
}

#[test]
fn electricity_comes_from_the_whole_deployments_energy_and_each_roles_power() {
    let sweep = mori();
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.0),
        price_per_kwh: Some(0.1),
        pue: Some(1.2),
        ..CapacityInputs::default()
    };
    let c = at(&sweep, &inputs).unwrap();
    // J per output token of the whole deployment: 907.773 W x 24 / 9,489.98 tok/s = 2.2957 J
    // (3.35 x the decode role's stored 0.685 J); an hour of it: 21,786.552 W x 1.2 / 1000 x $0.1.
    let elec = c.electricity_usd_per_hour.unwrap();
    assert!((elec - 2.614_386_24).abs() < 1e-9);
    assert_eq!(c.replica_usd_per_hour, 48.0 + elec);
    let output = 1_186.247_252_992_547_8 * 8.0;
    let input = 4_740.144_290_655_592 * 16.0;
    let prefill = (32.0 + 15_304.0 * 1.2 / 1000.0 * 0.1) / (input * 3600.0) * 1e6;
    let decode = (16.0 + 812.882 * 8.0 * 1.2 / 1000.0 * 0.1) / (output * 3600.0) * 1e6;
    assert!((c.usd_per_m_input_tokens_prefill.unwrap() - prefill).abs() < 1e-12);
    assert!((c.usd_per_m_output_tokens_decode.unwrap() - decode).abs() < 1e-12);
    assert!((prefill - 0.123_928).abs() < 1e-6);
    assert!((decode - 0.491_172).abs() < 1e-6);
}

#[test]
fn nothing_is_costed_without_a_price_and_lengths_stay_absent_when_not_stated() {
    let sweep = mori();
    assert_eq!(at(&sweep, &CapacityInputs::default()), None);
    // An electricity price alone costs nothing: the GPUs would be counted as free.
    let electricity_only = CapacityInputs {
        price_per_kwh: Some(0.1),
        api: Some(ApiPrice {
            input: 1.25,
            output: 10.0,
            cached_input: None,
        }),
        ..CapacityInputs::default()
    };
    assert_eq!(at(&sweep, &electricity_only), None);
    let mut bare = mori();
    bare.deployment.isl = None;
    bare.deployment.osl = None;
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.0),
        api: Some(ApiPrice {
            input: 1.25,
            output: 10.0,
            cached_input: None,
        }),
        ..CapacityInputs::default()
    };
    let c = at(&bare, &inputs).unwrap();
    assert_eq!(c.lengths, Lengths::default());
    assert_eq!(
        (
            c.requests_per_hour,
            c.usd_per_request,
            c.api_usd_per_request,
            c.vs_api
        ),
        (None, None, None, None)
    );
    // $ per million output tokens needs no length.
    assert!(c.usd_per_m_output_tokens > 0.0);
}

#[test]
fn measured_lengths_win_over_the_stated_workload() {
    let mut sweep = mori();
    sweep.rows[0].avg_input_len = Some(8000.0);
    sweep.rows[0].avg_output_len = Some(900.0);
    let sweep = Sweep::new(0, sweep.deployment.clone(), sweep.rows.clone());
    let l = Lengths::of(&sweep.levels()[0], &sweep);
    assert_eq!(l.input, Some((8000.0, LengthSource::Measured)));
    assert_eq!(l.output, Some((900.0, LengthSource::Measured)));
}

#[test]
fn the_readme_states_the_formulas_word_for_word() {
    let readme = include_str!("../../../../README.md");
    let section = readme
        .split("## Disaggregated deployments and what a request costs")
        .nth(1)
        .expect("the README has its cost section");
    for formula in FORMULAS {
        assert!(
            section.contains(&format!("\n- {formula}\n")),
            "README should state, word for word:\n- {formula}"
        );
    }
    assert!(section.contains(crate::core::text::cost_text::LEAVES_OUT));
}
