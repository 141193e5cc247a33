//! The scenario with its results as JSON: what was asked (`scenario`) beside what the plan
//! answers (`result`).

use serde::Serialize;

use crate::core::model::deployment::{Deployment, Disaggregation, Role};
use crate::core::model::source::Source;
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::wire::handoff::ExportError;
use crate::core::wire::scenario_json::ParamEntries;

use super::result::JsonResult;

#[derive(Serialize)]
struct JsonExport<'a> {
    scenario_url: &'a str,
    source: JsonSource<'a>,
    /// The deployment planned: its label, GPUs and, when disaggregated, its roles.
    deployment: JsonDeployment<'a>,
    scenario: JsonScenario<'a>,
    result: JsonResult,
    /// Keys a front adds after `result` (the command line: its warnings and notes).
    #[serde(flatten)]
    extra: &'a serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct JsonSource<'a> {
    name: &'a str,
    task: &'a str,
    task_display_name: &'a str,
}

#[derive(Serialize)]
struct JsonDeployment<'a> {
    label: &'a str,
    num_gpus: Option<u32>,
    /// `not disaggregated`, `disaggregated: …`, or `null` where the file does not say.
    disaggregation: Option<String>,
    /// Each role's workers, parallelism and GPUs (`null` where colocated or not stated).
    roles: Option<JsonRoles>,
}

#[derive(Serialize)]
struct JsonRoles {
    prefill: JsonRole,
    decode: JsonRole,
}

#[derive(Serialize)]
struct JsonRole {
    workers: Option<u32>,
    tp: Option<u32>,
    pp: Option<u32>,
    ep: Option<u32>,
    attention_dp: Option<bool>,
    gpus: Option<u32>,
}

impl From<&Role> for JsonRole {
    fn from(r: &Role) -> JsonRole {
        JsonRole {
            workers: r.workers,
            tp: r.tp,
            pp: r.pp,
            ep: r.ep,
            attention_dp: r.attention_dp,
            gpus: r.gpus,
        }
    }
}

impl<'a> JsonDeployment<'a> {
    fn of(label: &'a str, d: &Deployment) -> JsonDeployment<'a> {
        JsonDeployment {
            label,
            num_gpus: d.num_gpus,
            disaggregation: d.disaggregation.as_ref().map(Disaggregation::label),
            roles: d
                .disaggregation
                .as_ref()
                .and_then(Disaggregation::roles)
                .map(|r| JsonRoles {
                    prefill: (&r.prefill).into(),
                    decode: (&r.decode).into(),
                }),
        }
    }
}

#[derive(Serialize)]
struct JsonScenario<'a> {
    model_id: &'a str,
    /// The deployment as the picker labels it, and its `cfg` where it needs one.
    deployment: &'a str,
    cfg: Option<&'a str>,
    gpu: &'a str,
    num_gpus: Option<u32>,
    /// The other parameters, as each is declared (`scenario::params::DECLARED`).
    #[serde(flatten)]
    params: ParamEntries,
}

/// The scenario and its results as pretty JSON (absent values are `null`).
/// Errors: [`ExportError::NoSuchDeployment`], or [`ExportError::Writer`] with serde_json's reason
/// (serialising these types does not fail in practice).
pub fn scenario_json(
    source: &Source,
    scenario: &Scenario,
    sweep_index: usize,
    plan: &Plan,
    scenario_url: &str,
) -> Result<String, ExportError> {
    scenario_json_with(
        source,
        scenario,
        sweep_index,
        plan,
        scenario_url,
        &serde_json::Map::new(),
    )
}

/// [`scenario_json`] with `extra` keys after `result` (the command line's warnings and notes).
///
/// Errors: as [`scenario_json`]'s.
pub fn scenario_json_with(
    source: &Source,
    scenario: &Scenario,
    sweep_index: usize,
    plan: &Plan,
    scenario_url: &str,
    extra: &serde_json::Map<String, serde_json::Value>,
) -> Result<String, ExportError> {
    let slo = scenario.slo.clone();
    let sweep = source
        .sweeps
        .get(sweep_index)
        .ok_or(ExportError::NoSuchDeployment)?;
    let export = JsonExport {
        scenario_url,
        source: JsonSource {
            name: &source.provenance.publisher,
            task: &source.task,
            task_display_name: &source.task_display_name,
        },
        deployment: JsonDeployment::of(source.sweep_label(sweep_index), &sweep.deployment),
        scenario: JsonScenario {
            model_id: &scenario.deployment.model_id,
            deployment: source.sweep_label(sweep_index),
            cfg: scenario.deployment.cfg.as_deref(),
            gpu: &scenario.deployment.gpu,
            num_gpus: scenario.deployment.num_gpus,
            params: ParamEntries::of(scenario),
        },
        result: JsonResult::of(sweep, plan, &slo, scenario),
        extra,
    };
    serde_json::to_string_pretty(&export).map_err(|e| ExportError::Writer(e.to_string()))
}
