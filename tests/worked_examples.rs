//! The worked examples of issue 2, on the bundled data, with values read off the file by hand.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::model::sweep::{Statistic, Sweep};
use llm_slo_planner::core::plan::estimate::{batching_effect, estimate};
use llm_slo_planner::core::plan::planner::{
    plan, Condition, Limit, Plan, Recommendation, Slo, Status, Target,
};
use llm_slo_planner::core::scenario::Scenario;

fn sweep(query: &str) -> &'static Sweep {
    let source = lm_arena_chat();
    let (scenario, errors) = Scenario::from_query(query, source);
    assert!(errors.is_empty(), "{errors:?}");
    &source.sweeps[scenario.sweep_index(source).unwrap()]
}

fn slo(target: Target, stat: Statistic) -> Slo {
    Slo::new(target, stat)
}

fn planned(query: &str, target: Target, stat: Statistic) -> (Plan, Option<Recommendation>) {
    let s = sweep(query);
    let p = plan(s, &slo(target, stat));
    let r = p.recommendation(s, &slo(target, stat));
    (p, r)
}

#[test]
fn llama_8b_on_1_h100_at_25_tps_p50_runs_384() {
    let target = Target::TokensPerSecond(25.0);
    let (p, r) = planned(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1",
        target,
        Statistic::P50,
    );
    assert_eq!(p.status, Status::Ok);
    let r = r.unwrap();
    assert_eq!(r.level, 384.0);
    assert_eq!(r.throughput_tok_s, 9248.01198181863);
    assert_eq!(r.throughput_per_gpu_tok_s, Some(9248.01198181863));
    assert_eq!(r.energy_per_token_j, Some(0.07423418180476347));
    assert_eq!(r.power_w, Some(686.5186027909551));
    assert_eq!(r.latency_ms, 37.70148498006165);
    assert_eq!(r.user_tps, 1000.0 / 37.70148498006165);
    assert_eq!(r.headroom, (1000.0 / 37.70148498006165 - 25.0) / 25.0);
    assert_eq!(
        r.avg_batch_size,
        sweep("model=meta-llama%2FLlama-3.1-8B-Instruct").levels()[8].avg_batch_size
    );
    // 512 is at 47.4 ms: 21.1 tok/s < 25.
    assert!(!p.verdicts[9].meets);
}

#[test]
fn qwen3_30b_on_2_h100_at_40_ms_p50_takes_worst_of_duplicate_rows() {
    let target = Target::MsPerToken(40.0);
    let (p, r) = planned(
        "model=Qwen%2FQwen3-30B-A3B-Instruct-2507&gpu=H100&gpus=2",
        target,
        Statistic::P50,
    );
    assert_eq!(p.status, Status::Ok);
    let r = r.unwrap();
    assert_eq!(r.level, 256.0);
    // Two rows at 256: ITL 34.58 / 33.66 ms, throughput 7154 / 7437, J/token 0.1335 / 0.1470.
    assert_eq!(r.latency_ms, 34.58299767225981);
    assert_eq!(r.throughput_tok_s, 7154.113418980205);
    assert_eq!(r.throughput_per_gpu_tok_s, Some(7154.113418980205 / 2.0));
    assert_eq!(r.energy_per_token_j, Some(0.14702179429298418));
    assert_eq!(r.power_w, Some(1093.4015243177876));
    assert_eq!(r.avg_batch_size, Some(255.7037037037037));
    assert_eq!(r.headroom, (40.0 - 34.58299767225981) / 40.0);
}

#[test]
fn qwen3_235b_on_4_b200_at_70_ms_p50_runs_512_and_4096_also_meets() {
    let target = Target::MsPerToken(70.0);
    let s = sweep("model=Qwen%2FQwen3-235B-A22B-Instruct-2507&gpu=B200&gpus=4");
    let p = plan(s, &slo(target, Statistic::P50));
    assert_eq!(p.status, Status::Ok);
    assert_eq!(
        p.recommendation(s, &slo(target, Statistic::P50))
            .unwrap()
            .level,
        512.0
    );
    assert_eq!(p.also_meets.len(), 1);
    let also = &s.levels()[p.also_meets[0].level_index];
    assert_eq!(also.level, 4096.0);
    assert_eq!(s.levels()[p.also_meets[0].failed_below_index].level, 3072.0);
    // Rate-based speed = throughput / avg batch = 13303.34 / 3764.65 = 3.5338 tok/s.
    let rate = also.rate_user_tps().unwrap();
    assert!((rate - 13303.341368938422 / 3764.6470588235293).abs() < 1e-12);
    assert!((rate - 3.5338).abs() < 1e-4);
}

#[test]
fn statuses_on_the_bundled_data() {
    let llama = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1";
    // 768 is the largest measured, at 62.9 ms p50: 10 tok/s keeps every level.
    let (p, r) = planned(llama, Target::TokensPerSecond(10.0), Statistic::P50);
    assert_eq!(p.status, Status::AllMeet);
    assert_eq!(r.unwrap().level, 768.0);
    // The fastest level is 8 at 7.316 ms p50: 137 tok/s; 200 tok/s is out of reach.
    let (p, r) = planned(llama, Target::TokensPerSecond(200.0), Statistic::P50);
    assert_eq!(p.status, Status::Unattainable);
    assert!(r.is_none());
    assert_eq!(p.best, Some(0));
    assert_eq!(p.verdicts[0].latency_ms, Some(7.316111586987972));
}

#[test]
fn each_statistic_on_llama_8b_at_25_tps() {
    let llama = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1";
    let level = |stat| {
        planned(llama, Target::TokensPerSecond(25.0), stat)
            .1
            .map(|r| r.level)
    };
    assert_eq!(level(Statistic::P50), Some(384.0));
    // p90: 256 at 32.54 ms meets 40 ms; 384 at 47.82 ms fails.
    assert_eq!(level(Statistic::P90), Some(256.0));
    // rate: 256 gives 35.3 tok/s, 384 gives 24.1 tok/s.
    assert_eq!(level(Statistic::Rate), Some(256.0));
}

#[test]
fn estimate_for_llama_8b_at_25_tps_p50_is_about_411() {
    let s = sweep("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1");
    let t = slo(Target::TokensPerSecond(25.0), Statistic::P50);
    let p = plan(s, &t);
    let e = estimate(s, &t, &p).unwrap();
    // 384 at 37.7015 ms, 512 at 47.4076 ms, target 40 ms:
    // x = 384 * (512/384)^((40 - 37.7015) / (47.4076 - 37.7015)) = 411.08.
    assert_eq!(e.level, 411);
    assert!((e.crossing - 411.08).abs() < 0.01, "{}", e.crossing);
    assert_eq!((e.from_level, e.to_level), (384.0, 512.0));
    // 9248.0 + (9805.6 - 9248.0) * log2(411/384) / log2(512/384) = 9379.7.
    assert!(
        (e.throughput_tok_s - 9379.7).abs() < 0.1,
        "{}",
        e.throughput_tok_s
    );
    let j = e.energy_per_token_j.unwrap();
    assert!(j < 0.07423418180476347 && j > 0.07019449941326047);
}

#[test]
fn a_p99_limit_binds_on_llama_8b() {
    let s = sweep("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1");
    let mut t = slo(Target::TokensPerSecond(25.0), Statistic::P50);
    // p99 ITL: 59.7 ms at 256, 96.2 ms at 384.
    t.limits.push(Limit {
        stat: Statistic::P99,
        max_ms: 80.0,
    });
    let p = plan(s, &t);
    assert_eq!(p.recommendation(s, &t).unwrap().level, 256.0);
    assert_eq!(p.verdicts[8].broken, vec![Condition::Limit(0)]);
    assert_eq!(estimate(s, &t, &p), None);
}

#[test]
fn batching_effect_for_llama_8b_at_25_tps_p50() {
    let s = sweep("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1");
    let t = slo(Target::TokensPerSecond(25.0), Statistic::P50);
    let e = batching_effect(s, &t, &plan(s, &t), false).unwrap();
    assert_eq!(e.base_level, 8.0);
    assert_eq!(
        e.user_slowdown,
        (1000.0 / 7.316111586987972) / (1000.0 / 37.70148498006165)
    );
    assert_eq!(e.throughput_gain, 9248.01198181863 / 1069.5688508868182);
}

#[test]
fn llama_8b_on_1_h100_at_20_tps_for_40_requests_per_second_needs_2_replicas() {
    use llm_slo_planner::core::plan::capacity::at_recommendation;
    let source = lm_arena_chat();
    let (scenario, errors) = Scenario::from_query(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&rps=40&price=2.49&kwh_price=0.1",
        source,
    );
    assert!(errors.is_empty(), "{errors:?}");
    let s = &source.sweeps[scenario.sweep_index(source).unwrap()];
    let slo = scenario.slo.clone();
    let p = plan(s, &slo);
    let r = p.recommendation(s, &slo).unwrap();
    assert_eq!(r.level, 512.0);
    assert!((r.throughput_tok_s - 9805.6).abs() < 0.05);
    assert!((r.output_tokens_per_request.unwrap() - 396.67).abs() < 0.005);
    let c = at_recommendation(s, &p, &slo, &scenario.fleet.capacity).unwrap();
    let demand = 40.0 * r.output_tokens_per_request.unwrap();
    assert_eq!(c.demand_tok_s, Some(demand));
    assert!((demand - 15866.9).abs() < 0.1);
    assert_eq!((c.replicas, c.gpus), (Some(2), Some(2)));
    // 2 GPUs x $2.49 = $4.98/h; 2 x 688.3 W x $0.1/kWh = $0.138/h; $5.12/h in all.
    assert_eq!(c.fleet_gpu_cost_per_hour, Some(2.0 * 2.49));
    let elec = c.fleet_elec_cost_per_hour.unwrap();
    assert!((elec - 2.0 * 0.6883 * 0.1).abs() < 1e-4);
    assert!((c.fleet_cost_per_hour.unwrap() - 5.12).abs() < 0.005);
}

#[test]
fn each_fleet_figure_states_its_formula_with_the_numbers_of_the_worked_example() {
    use llm_slo_planner::core::text::capacity_text::fleet_figures;
    let source = lm_arena_chat();
    let (scenario, _) = Scenario::from_query(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&rps=40&price=2.49&kwh_price=0.1",
        source,
    );
    let s = &source.sweeps[scenario.sweep_index(source).unwrap()];
    let slo = scenario.slo.clone();
    let (_, figures) = fleet_figures(s, &plan(s, &slo), &slo, &scenario.fleet.capacity).unwrap();
    let formula = |hook: &str| {
        figures
            .iter()
            .find(|f| f.hook == hook)
            .map(|f| f.formula.clone())
            .unwrap_or_else(|| panic!("no figure {hook}"))
    };
    assert_eq!(
        formula("demand-tok-s"),
        "demanded output = requests/s × output tokens per request at 512 = 40 × 396.67 = 15,866.9 tok/s"
    );
    assert_eq!(
        formula("cap-replicas"),
        "replicas = ceil(demanded output ÷ throughput at 512) = ceil(15,866.9 tok/s ÷ 9,805.6 tok/s) = 2"
    );
    assert_eq!(
        formula("fleet-gpu-cost-per-hour"),
        "fleet GPU $/hour = GPUs × price per GPU-hour = 2 × $2.49 = $4.98"
    );
    assert_eq!(
        formula("fleet-elec-cost-per-hour"),
        "electricity $/hour = fleet power × $/kWh = 1.377 kW × $0.1 = $0.138"
    );
    assert_eq!(
        formula("fleet-cost-per-hour"),
        "fleet $/hour = GPU $/hour + electricity $/hour = $4.98 + $0.138 = $5.12"
    );
    // Every figure shown has a formula that ends in the figure's own number.
    for f in &figures {
        assert!(f.formula.contains(" = "), "{}: {}", f.hook, f.formula);
    }
    assert_eq!(figures.len(), 16, "{figures:#?}");
}

#[test]
fn users_and_rps_both_given_name_rps_and_users_sizes_the_fleet() {
    let (scenario, errors) = Scenario::from_query(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&users=1000&rps=40",
        lm_arena_chat(),
    );
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].param, "rps");
    assert_eq!(
        (scenario.fleet.capacity.users, scenario.fleet.capacity.rps),
        (Some(1000.0), Some(40.0))
    );
}

#[test]
fn a_price_per_gpu_type_prices_each_deployment_at_its_own_type() {
    use llm_slo_planner::core::plan::capacity::at_recommendation;
    let source = lm_arena_chat();
    let query = "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=20&rps=40&price=H100:2.49,B200:5.99&kwh_price=0.1";
    let (scenario, errors) = Scenario::from_query(query, source);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(scenario
        .to_query()
        .contains("price=H100%3A2.49%2CB200%3A5.99"));
    let fleet = |gpu: &str| {
        let s = source
            .sweeps
            .iter()
            .find(|s| {
                source.models[s.model_index].model_id == "meta-llama/Llama-3.1-8B-Instruct"
                    && s.deployment.gpu == gpu
                    && s.deployment.num_gpus == Some(1)
            })
            .unwrap();
        let slo = scenario.slo.clone();
        let p = plan(s, &slo);
        let r = p.recommendation(s, &slo).unwrap();
        let c = at_recommendation(s, &p, &slo, &scenario.capacity_for(gpu)).unwrap();
        (r, c)
    };
    let (r, c) = fleet("H100");
    assert_eq!(r.level, 512.0);
    assert_eq!(
        (c.replicas, c.fleet_gpu_cost_per_hour),
        (Some(2), Some(2.0 * 2.49))
    );
    assert!((c.fleet_cost_per_hour.unwrap() - 5.12).abs() < 0.005);
    // 1 x B200: 256, 7,664.1 tok/s, 399.50 tokens per request: 15,979.8 tok/s, 3 replicas,
    // $17.97 + $0.162 = $18.13 per hour.
    let (r, c) = fleet("B200");
    assert_eq!(r.level, 256.0);
    assert!((r.throughput_tok_s - 7664.1).abs() < 0.05);
    assert!((c.demand_tok_s.unwrap() - 15979.8).abs() < 0.1);
    assert_eq!(c.replicas, Some(3));
    assert!((c.fleet_gpu_cost_per_hour.unwrap() - 17.97).abs() < 1e-9);
    assert!((c.fleet_elec_cost_per_hour.unwrap() - 0.162).abs() < 0.0005);
    assert!((c.fleet_cost_per_hour.unwrap() - 18.13).abs() < 0.005);
    // A type with no price has none: never another type's.
    assert_eq!(scenario.capacity_for("A100").price_per_gpu_hour, None);
}

#[test]
fn a_malformed_price_entry_is_named_and_the_rest_apply() {
    let (scenario, errors) =
        Scenario::from_query("tps=20&price=2.5,B200:abc,H100:2.49", lm_arena_chat());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].param, "price");
    assert!(errors[0].to_string().contains("B200"), "{}", errors[0]);
    assert_eq!(scenario.capacity_for("H100").price_per_gpu_hour, Some(2.49));
    assert_eq!(scenario.capacity_for("B200").price_per_gpu_hour, Some(2.5));
}

/// Issue 32's worked example: Llama 3.1 8B on 1 x H100 at 20 tok/s per user (p50) is
/// recommended at 512 (9,805.59 output tok/s, 688.30 W, 396.67 output tokens per request at the
/// level, read off the file), so one replica serves 9,805.59 / 396.67 = 24.72 req/s. Over four
/// hours at 10, 40, 80 and 20 req/s with replicas taking an hour to come up (k = 1), the covered
/// loads are 40, 80, 80, 20: ceil(40 / 24.72) = 2, ceil(80 / 24.72) = 4, 4, ceil(20 / 24.72) = 1.
#[test]
fn llama_8b_on_1_h100_over_four_hours_of_load() {
    use llm_slo_planner::core::plan::capacity::CapacityInputs;
    use llm_slo_planner::core::plan::period::{period, LoadKind, LoadProfile, Scaling};
    let (_, r) = planned(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1",
        Target::TokensPerSecond(20.0),
        Statistic::P50,
    );
    let r = r.unwrap();
    assert_eq!(r.level, 512.0);
    let load = LoadProfile {
        kind: LoadKind::Rps,
        step_min: 60.0,
        values: vec![10.0, 40.0, 80.0, 20.0],
    };
    let scaling = Scaling {
        lag_min: 60.0,
        min_replicas: 1,
    };
    let inputs = CapacityInputs {
        price_per_gpu_hour: Some(2.0),
        ..CapacityInputs::default()
    };
    let f = period(&r, Some(1), &load, scaling, &inputs);
    assert_eq!(f.replicas, [2, 4, 4, 1]);
    assert_eq!(
        (f.period_h, f.peak_gpus, f.mean_gpus),
        (4.0, Some(4), Some(2.75))
    );
    assert_eq!((f.gpu_hours, f.gpu_usd), (Some(11.0), Some(22.0)));
    // 11 replica-hours at 688.30 W: 7.571 kWh (an upper bound: replicas below full draw less).
    assert!((f.energy_kwh.unwrap() - 11.0 * 0.688_298_323_235_983_7).abs() < 1e-9);
    // Holding the peak's 4 GPUs for 4 hours: 16 GPU-hours; following the load saves 5 ($10).
    assert_eq!(f.peak_hold_gpu_hours, Some(16.0));
    assert_eq!((f.saved_gpu_hours, f.saved_usd), (Some(5.0), Some(10.0)));
    // 150 req/s-hours × 396.67 tokens × 3,600 s = 214.2 M output tokens: $0.1027 per million.
    assert!((f.output_tokens.unwrap() - 214_202_548.828_125).abs() < 1e-3);
    assert!((f.usd_per_mtok.unwrap() - 22.0 / 214.202_548_828_125).abs() < 1e-12);
}

/// One hour at 10 req/s on Llama 3.1 8B on one H100 (24.72 req/s per replica, as above): one
/// replica for one step of 60 minutes, so the GPU-hours' formula sums one GPU-step.
#[test]
fn one_step_of_one_replica_is_one_gpu_step() {
    use llm_slo_planner::core::plan::capacity::CapacityInputs;
    use llm_slo_planner::core::plan::period::{period, LoadKind, LoadProfile, Scaling};
    use llm_slo_planner::core::text::period_text::{period_figures, PeriodInputs};
    let (_, r) = planned(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1",
        Target::TokensPerSecond(20.0),
        Statistic::P50,
    );
    let r = r.unwrap();
    let load = LoadProfile {
        kind: LoadKind::Rps,
        step_min: 60.0,
        values: vec![10.0],
    };
    let scaling = Scaling {
        lag_min: 0.0,
        min_replicas: 1,
    };
    let inputs = CapacityInputs::default();
    let f = period(&r, Some(1), &load, scaling, &inputs);
    assert_eq!(f.replicas, [1]);
    let p = PeriodInputs {
        load: &load,
        scaling,
        rec: &r,
        num_gpus: Some(1),
        inputs: &inputs,
    };
    let figures = period_figures(&f, &p);
    let figure = |hook: &str| figures.iter().find(|x| x.hook == hook);
    assert_eq!(
        figure("period-gpu-hours").map(|x| x.formula.as_str()),
        Some("GPU-hours = Σ GPUs(t) × STEP ÷ 60 = 1 GPU-step × 60 ÷ 60 = 1")
    );
    // The hour held at the peak is one GPU-hour, and none is saved.
    let hold = figure("period-peak-hold-gpu-hours").map(|x| x.text.as_str());
    assert_eq!(hold, Some("1 GPU-hour"));
    let saved = figure("period-saved-gpu-hours").map(|x| x.text.as_str());
    assert_eq!(saved, Some("0 GPU-hours (0%)"));
}

/// Every deployment of the link's model over the period of its load, as the page's side by side
/// lists them.
fn day_rows_of(query: &str) -> Vec<llm_slo_planner::core::plan::period::side_by_side::DayRow> {
    use llm_slo_planner::core::plan::period::side_by_side::day_rows;
    let source = lm_arena_chat();
    let (s, errors) = Scenario::from_query(query, source);
    assert!(errors.is_empty(), "{errors:?}");
    let load = s.fleet.load.clone().expect("the link has a load");
    day_rows(
        source,
        &s.slo,
        &s.deployment.model_id,
        s.pricing(),
        &load,
        s.fleet.scaling,
    )
}

#[test]
fn every_llama_8b_deployment_over_four_hours_the_cheapest_per_day_is_not_the_cheapest_at_the_peak()
{
    use llm_slo_planner::core::plan::period::side_by_side::{cheapest_at_peak, cheapest_per_day};
    use llm_slo_planner::core::text::period_text::cheapest_note;
    let source = lm_arena_chat();
    let query = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50\
                 &load=rps:60:10,40,80,20&lag=60&price=H100:3,B200:2.3";
    let rows = day_rows_of(query);
    let figures = |gpu: &str| {
        rows.iter()
            .find(|r| source.sweeps[r.row.sweep_index].deployment.gpu == gpu)
            .unwrap()
    };
    // H100 (512 at 9,805.6 tok/s, 24.72 req/s per replica): replicas 2, 4, 4, 1; 11 GPU-hours
    // × $3 = $33 over 4 h, $198 per day; at the peak 4 GPUs × $3 = $12 an hour.
    let h100 = figures("H100");
    assert_eq!(h100.figures.as_ref().unwrap().replicas, [2, 4, 4, 1]);
    assert_eq!(h100.usd_per_day(), Some(198.0));
    assert_eq!(h100.peak_usd_per_hour, Some(12.0));
    // B200 (256 at 7,664.1 tok/s): replicas 3, 5, 5, 2; 15 GPU-hours × $2.3 = $34.5, $207 per
    // day; at the peak 5 × $2.3 = $11.5 an hour: cheaper at the peak, dearer over the day.
    let b200 = figures("B200");
    assert_eq!(b200.figures.as_ref().unwrap().replicas, [3, 5, 5, 2]);
    assert!((b200.usd_per_day().unwrap() - 207.0).abs() < 1e-9);
    assert!((b200.peak_usd_per_hour.unwrap() - 11.5).abs() < 1e-9);
    assert_eq!(
        cheapest_per_day(&rows).map(|r| r.row.sweep_index),
        Some(h100.row.sweep_index)
    );
    assert_eq!(
        cheapest_at_peak(&rows).map(|r| r.row.sweep_index),
        Some(b200.row.sweep_index)
    );
    assert_eq!(
        cheapest_note(source, &rows).unwrap(),
        "Cheapest per day: 1 x H100, TP1, bf16, $198.00 per day. At the peak, 1 x B200, TP1, bf16 costs less per hour ($11.50 against $12.00), but it wastes more in the troughs."
    );
}

#[test]
fn deployments_that_cost_the_same_per_day_are_named_as_a_tie() {
    use llm_slo_planner::core::text::period_text::cheapest_note;
    let source = lm_arena_chat();
    // 10 req/s all day: one replica of 1 GPU on each, 24 GPU-hours × $2 = $48 per day on both;
    // named in the side by side's order.
    let query = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50\
                 &load=rps:60:10&price=2";
    let rows = day_rows_of(query);
    assert_eq!(
        cheapest_note(source, &rows).unwrap(),
        "Cheapest per day: 1 x B200, TP1, bf16 and 1 x H100, TP1, bf16 tie at $48.00 per day."
    );
}

/// README "A power budget": Llama 3.1 8B at 25 tok/s per user (p50 ITL) under 1 MW, PUE 1.2 and
/// 150 W of host per GPU, on the bundled data: 1 × H100 at 384 (686.52 W measured) and
/// 1 × B200 at 256 (540.20 W).
#[test]
fn a_megawatt_on_1_h100_and_1_b200() {
    use llm_slo_planner::core::plan::capacity::CapacityInputs;
    use llm_slo_planner::core::plan::power::budget_at;
    for (gpu, replicas, users, tok_s_per_mw) in [
        ("H100", 996, 381_482.228_571_428_57, 9_212_797.690_096_814),
        ("B200", 1207, 308_063.538_461_538_44, 9_253_522.206_056_677),
    ] {
        let query = format!(
            "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu={gpu}&gpus=1&tps=25&stat=p50&pue=1.2&power=1MW&host_w=150"
        );
        let (scenario, errors) = Scenario::from_query(&query, lm_arena_chat());
        assert!(errors.is_empty(), "{errors:?}");
        let sweep = sweep(&query);
        let plan = plan(sweep, &scenario.slo);
        let inputs = scenario.power_inputs().expect("a budget");
        let b = budget_at(
            sweep,
            &plan,
            &scenario.slo,
            &inputs,
            &CapacityInputs::default(),
            None,
        )
        .expect("a recommendation")
        .expect("a plan");
        assert_eq!(b.plan.replicas, replicas, "{gpu}");
        assert!((b.plan.users.expect("users") - users).abs() < 1e-6, "{gpu}");
        assert!((b.plan.tok_s_per_mw - tok_s_per_mw).abs() < 1e-6, "{gpu}");
        assert_eq!(b.need, None);
    }
}
