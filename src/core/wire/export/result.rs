//! The JSON's `result`: the status and the figures at the recommended level, the estimate
//! between levels, the fleet and, under `attain`, the attainment.

use serde::Serialize;

use crate::core::model::sweep::Sweep;
use crate::core::plan::attainment::Attainment;
use crate::core::plan::estimate::estimate;
use crate::core::plan::period::period;
use crate::core::plan::planner::{Plan, Slo};
use crate::core::scenario::Scenario;
use crate::core::text::capacity_text::fleet_entries;
use crate::core::text::headline::headline;

use super::capacity::JsonCapacity;
use super::cost::JsonCost;
use super::period::JsonPeriod;
use super::power::JsonPower;
use super::recommended_attainment;
use super::why::{levels, why_of, JsonAutoscaler, JsonLevel, JsonWhy};
use crate::core::model::roles::RolePerGpu;
use crate::core::plan::cost::at_recommendation as cost_at;

#[derive(Serialize)]
pub(super) struct JsonResult {
    status: &'static str,
    /// The answer as the page's headline and the command line's text say it.
    answer: JsonAnswer,
    level_kind: &'static str,
    level: Option<f64>,
    avg_batch_size: Option<f64>,
    latency_ms: Option<f64>,
    per_user_tok_s: Option<f64>,
    headroom_fraction: Option<f64>,
    throughput_tok_s: Option<f64>,
    throughput_per_gpu_tok_s: Option<f64>,
    energy_j_per_token: Option<f64>,
    power_w: Option<f64>,
    estimate: Option<JsonEstimate>,
    capacity: Option<JsonCapacity>,
    /// Under `attain`: at the recommended level.
    attainment: Option<JsonAttainment>,
    /// Under `attain`: every level's, in the sweep's order.
    attainment_by_level: Option<Vec<JsonLevelAttainment>>,
    /// With a load over time (`load`): the period's figures at the recommended level.
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<JsonPeriod>,
    /// With a power budget (`power`): what fits in it at the recommended level.
    #[serde(skip_serializing_if = "Option::is_none")]
    power: Option<JsonPower>,
    /// Why the answer stops where it does; `null` without a recommended level.
    why: Option<JsonWhy>,
    /// Every level's server signals and verdict.
    levels: Vec<JsonLevel>,
    /// What to set the autoscaler to at the recommended level; `null` without one.
    autoscaler: Option<JsonAutoscaler>,
    /// With a price (GPU or electricity): what a request costs at the recommended level, and
    /// against an API's price (`api`).
    #[serde(skip_serializing_if = "Option::is_none")]
    cost: Option<JsonCost>,
    /// A disaggregated deployment: its roles' figures at the recommended level.
    #[serde(skip_serializing_if = "Option::is_none")]
    roles: Option<JsonRoleFigures>,
}

/// `result.roles`: each throughput over the GPUs that produce it, and each role's power.
#[derive(Serialize)]
struct JsonRoleFigures {
    prefill_gpus: Option<u32>,
    decode_gpus: Option<u32>,
    /// Output tok/s ÷ decode GPUs.
    output_tok_s_per_decode_gpu: Option<f64>,
    /// Input tok/s ÷ prefill GPUs.
    input_tok_s_per_prefill_gpu: Option<f64>,
    prefill_power_w: Option<f64>,
    decode_power_w: Option<f64>,
    /// The decode role's own J per output token as the file stores it (not the deployment's).
    decode_role_energy_j_per_output_token: Option<f64>,
}

/// `result.roles` at the recommended level of a disaggregated sweep.
fn roles_of(sweep: &Sweep, plan: &Plan) -> Option<JsonRoleFigures> {
    let roles = sweep.deployment.roles()?;
    let level = sweep.levels().get(plan.recommended?)?;
    let per_gpu = RolePerGpu::of(roles, level.throughput_tok_s, level.input_tok_s);
    Some(JsonRoleFigures {
        prefill_gpus: roles.prefill.gpus,
        decode_gpus: roles.decode.gpus,
        output_tok_s_per_decode_gpu: per_gpu.output_tok_s_per_decode_gpu,
        input_tok_s_per_prefill_gpu: per_gpu.input_tok_s_per_prefill_gpu,
        prefill_power_w: level.roles.prefill_power_w,
        decode_power_w: level.roles.decode_power_w,
        decode_role_energy_j_per_output_token: level.roles.decode_energy_per_token_j,
    })
}

/// `result.power`, with a power budget and a recommendation.
fn power_of(sweep: &Sweep, plan: &Plan, slo: &Slo, scenario: &Scenario) -> Option<JsonPower> {
    let (inputs, budget) = scenario.power_budget(sweep, plan, slo)?;
    budget.map(|b| JsonPower::of(b, inputs.basis.key(), inputs.budget_w))
}

impl JsonResult {
    /// The result of `plan` on `sweep` for `slo`: the status and the figures at the
    /// recommended level (tok/s, ms, J/token, W), the estimate between levels, the fleet at the
    /// scenario's inputs and, under `attain`, the attainment at the recommendation and at each
    /// level.
    pub(super) fn of(sweep: &Sweep, plan: &Plan, slo: &Slo, scenario: &Scenario) -> JsonResult {
        let rec = plan.recommendation(sweep, slo);
        let h = headline(sweep, plan, slo);
        let inputs = scenario.capacity_for(&sweep.deployment.gpu);
        JsonResult {
            status: plan.status.key(),
            answer: JsonAnswer {
                sentence: h.answer(),
                reason: h.status_text,
            },
            level_kind: sweep.level_kind().label(),
            level: rec.as_ref().map(|r| r.level),
            avg_batch_size: rec.as_ref().and_then(|r| r.avg_batch_size),
            latency_ms: rec.as_ref().map(|r| r.latency_ms),
            per_user_tok_s: rec.as_ref().map(|r| r.user_tps),
            headroom_fraction: rec.as_ref().map(|r| r.headroom),
            throughput_tok_s: rec.as_ref().map(|r| r.throughput_tok_s),
            throughput_per_gpu_tok_s: rec.as_ref().and_then(|r| r.throughput_per_gpu_tok_s),
            energy_j_per_token: rec.as_ref().and_then(|r| r.energy_per_token_j),
            power_w: rec.as_ref().and_then(|r| r.power_w),
            estimate: estimate(sweep, slo, plan).map(|e| JsonEstimate {
                level: e.level,
                between: [e.from_level, e.to_level],
                throughput_tok_s: e.throughput_tok_s,
                energy_j_per_token: e.energy_per_token_j,
            }),
            capacity: fleet_entries(sweep, plan, slo, &inputs)
                .map(|(capacity, entries)| JsonCapacity { capacity, entries }),
            attainment: recommended_attainment(plan)
                .zip(rec.as_ref())
                .map(|(a, r)| JsonAttainment::of(&a, r.throughput_tok_s)),
            attainment_by_level: slo.attain.map(|_| {
                sweep
                    .levels()
                    .iter()
                    .zip(&plan.verdicts)
                    .map(|(l, v)| JsonLevelAttainment {
                        level: l.level,
                        meets: v.meets,
                        attainment: v
                            .attainment
                            .map(|a| JsonAttainment::of(&a, l.throughput_tok_s)),
                    })
                    .collect()
            }),
            period: scenario
                .fleet
                .load
                .as_ref()
                .zip(rec.as_ref())
                .map(|(load, r)| {
                    period(
                        r,
                        sweep.deployment.num_gpus,
                        load,
                        scenario.fleet.scaling,
                        &inputs,
                    )
                    .into()
                }),
            power: power_of(sweep, plan, slo, scenario),
            cost: cost_at(sweep, plan, slo, &inputs).map(Into::into),
            roles: roles_of(sweep, plan),
            why: why_of(sweep, plan, slo),
            levels: levels(sweep),
            autoscaler: scenario.autoscaler(sweep, plan, slo).map(Into::into),
        }
    }
}

/// `result.answer`: the answer in a few words ("run at 384 max_num_seqs", "no level to
/// recommend") and why (e.g. which statistic a `no-data` sweep lacks).
#[derive(Serialize)]
struct JsonAnswer {
    sentence: String,
    reason: String,
}

#[derive(Serialize)]
struct JsonAttainment {
    percent: Option<f64>,
    good_requests: u64,
    issued_requests: u64,
    /// Why the others missed (a request can miss on several): completed requests over the
    /// target, over a TTFT limit, over an end-to-end limit, and requests that did not complete.
    tpot_misses: u64,
    ttft_misses: u64,
    e2e_misses: u64,
    failed_requests: u64,
    goodput_req_s: Option<f64>,
    goodput_output_tok_s: Option<f64>,
}

impl JsonAttainment {
    fn of(a: &Attainment, throughput_tok_s: f64) -> JsonAttainment {
        JsonAttainment {
            percent: a.share().map(|s| s * 100.0),
            good_requests: a.good,
            issued_requests: a.issued,
            tpot_misses: a.tpot_misses,
            ttft_misses: a.ttft_misses,
            e2e_misses: a.e2e_misses,
            failed_requests: a.issued.saturating_sub(a.completed),
            goodput_req_s: a.goodput_req_s(throughput_tok_s),
            goodput_output_tok_s: a.goodput_tok_s(throughput_tok_s),
        }
    }
}

#[derive(Serialize)]
struct JsonLevelAttainment {
    level: f64,
    meets: bool,
    /// `null` where the level has no per-request records.
    attainment: Option<JsonAttainment>,
}

#[derive(Serialize)]
struct JsonEstimate {
    level: u64,
    between: [f64; 2],
    throughput_tok_s: f64,
    energy_j_per_token: Option<f64>,
}
