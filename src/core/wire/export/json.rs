//! The scenario with its results as JSON: what was asked (`scenario`) beside what the plan
//! answers (`result`).

use serde::Serialize;

use crate::core::model::source::Source;
use crate::core::plan::planner::{Plan, Target};
use crate::core::scenario::{load_text, Scenario};

use super::result::JsonResult;

#[derive(Serialize)]
struct JsonExport<'a> {
    scenario_url: &'a str,
    source: JsonSource<'a>,
    scenario: JsonScenario<'a>,
    result: JsonResult,
}

#[derive(Serialize)]
struct JsonSource<'a> {
    name: &'a str,
    task: &'a str,
    task_display_name: &'a str,
}

#[derive(Serialize)]
struct JsonScenario<'a> {
    model_id: &'a str,
    /// The deployment as the picker labels it, and its `cfg` where it needs one.
    deployment: &'a str,
    cfg: Option<&'a str>,
    gpu: &'a str,
    num_gpus: Option<u32>,
    target_unit: &'static str,
    target_value: f64,
    statistic: &'static str,
    limits: Vec<JsonLimit>,
    attain_percent: Option<f64>,
    users: Option<f64>,
    requests_per_second: Option<f64>,
    price_usd_per_gpu_hour: Option<f64>,
    price_usd_per_gpu_hour_by_type: Vec<(&'a str, f64)>,
    price_usd_per_kwh: Option<f64>,
    co2_g_per_kwh: Option<f64>,
    pue: f64,
    /// The load over time in the link's form (`rps:60:10,40`), absent without one.
    load: Option<String>,
    /// Minutes a replica takes to come up.
    lag_min: f64,
    /// The fewest replicas that always run.
    min_replicas: u64,
}

#[derive(Serialize)]
struct JsonLimit {
    statistic: &'static str,
    max_ms: f64,
}

/// The scenario and its results as pretty JSON (absent values are `null`).
/// Errors: serde_json's message (serialising these types does not fail in practice).
pub fn scenario_json(
    source: &Source,
    scenario: &Scenario,
    sweep_index: usize,
    plan: &Plan,
    scenario_url: &str,
) -> Result<String, String> {
    let slo = scenario.slo();
    let sweep = source
        .sweeps
        .get(sweep_index)
        .ok_or_else(|| "no such deployment".to_string())?;
    let (target_unit, target_value) = match scenario.target {
        Target::TokensPerSecond(v) => ("tok/s per user", v),
        Target::MsPerToken(v) => ("ms per token", v),
    };
    let export = JsonExport {
        scenario_url,
        source: JsonSource {
            name: &source.provenance.publisher,
            task: &source.task,
            task_display_name: &source.task_display_name,
        },
        scenario: JsonScenario {
            model_id: &scenario.model_id,
            deployment: source.sweep_label(sweep_index),
            cfg: scenario.cfg.as_deref(),
            gpu: &scenario.gpu,
            num_gpus: scenario.num_gpus,
            target_unit,
            target_value,
            statistic: scenario.stat.key(),
            limits: scenario
                .limits
                .iter()
                .map(|l| JsonLimit {
                    statistic: l.stat.key(),
                    max_ms: l.max_ms,
                })
                .collect(),
            attain_percent: scenario.attain,
            users: scenario.capacity.users,
            requests_per_second: scenario.capacity.rps,
            price_usd_per_gpu_hour: scenario.capacity.price_per_gpu_hour,
            price_usd_per_gpu_hour_by_type: scenario
                .gpu_prices
                .0
                .iter()
                .map(|(g, p)| (g.as_str(), *p))
                .collect(),
            price_usd_per_kwh: scenario.capacity.price_per_kwh,
            co2_g_per_kwh: scenario.capacity.co2_g_per_kwh,
            pue: scenario.capacity.pue_or_default(),
            load: scenario.load.as_ref().map(load_text),
            lag_min: scenario.scaling.lag_min,
            min_replicas: scenario.scaling.min_replicas,
        },
        result: JsonResult::of(sweep, plan, &slo, scenario),
    };
    serde_json::to_string_pretty(&export).map_err(|e| e.to_string())
}
