//! What a request costs at the recommended level, per token type, and against a hosted API's
//! price: the decision "is self-hosting cheaper than the API at my load".
//!
//! Formulas (at the recommended level, a replica running full; the README states them word for
//! word, held by a test to [`FORMULAS`]):
//! - requests per hour = output tok/s × 3600 ÷ output tokens per request;
//! - a replica's $ per hour = GPUs × $ per GPU-hour + J per output token × output tok/s × 3600
//!   × PUE ÷ 3.6e6 × $ per kWh (the parts whose price is given);
//! - $ per request = a replica's $ per hour ÷ requests per hour;
//! - $ per million total tokens = $ per request ÷ (input + output tokens per request) × 1e6;
//! - $ per million output tokens = a replica's $ per hour ÷ (output tok/s × 3600) × 1e6;
//! - disaggregated: the prefill role's $ per million input tokens = (P × $ per GPU-hour +
//!   prefill power × PUE ÷ 1000 × $ per kWh) ÷ (input tok/s × 3600) × 1e6, and the decode
//!   role's $ per million output tokens = (D × $ per GPU-hour + decode power × PUE ÷ 1000 × $
//!   per kWh) ÷ (output tok/s × 3600) × 1e6 (electricity where the role's power is reported);
//! - the API's $ per request = (input tokens × (1 − cached) × input $ + input tokens × cached ×
//!   cached input $ + output tokens × output $) ÷ 1e6, $ per million tokens each;
//! - vs API = $ per request ÷ the API's $ per request;
//! - break-even utilisation = $ per request ÷ the API's $ per request: a replica's $ per hour is
//!   paid whether it is full or not, so at a utilisation u a request costs $ per request ÷ u,
//!   which is the API's at u = vs API (above 1: never, even running full).
//!
//! Input and output tokens per request are the level's measured means where the file reports
//! them, else the workload's stated lengths (`isl`, `osl`), said; neither: not computed. Nothing
//! is costed without a GPU price for the deployment's type.

use serde::{Deserialize, Serialize};

use crate::core::model::sweep::{Level, Sweep};
use crate::core::plan::capacity::CapacityInputs;
use crate::core::plan::planner::{Plan, Recommendation, Slo};

/// The formulas of this module, word for word as the README states them.
pub const FORMULAS: [&str; 9] = [
    "requests per hour = output tok/s × 3600 ÷ output tokens per request",
    "a replica's $ per hour = GPUs × $ per GPU-hour + J per output token × output tok/s × 3600 × PUE ÷ 3.6e6 × $ per kWh (the parts whose price is given)",
    "$ per request = a replica's $ per hour ÷ requests per hour",
    "$ per million total tokens = $ per request ÷ (input + output tokens per request) × 1e6",
    "$ per million output tokens = a replica's $ per hour ÷ (output tok/s × 3600) × 1e6",
    "prefill $ per million input tokens = (P × $ per GPU-hour + prefill power × PUE ÷ 1000 × $ per kWh) ÷ (input tok/s × 3600) × 1e6; decode $ per million output tokens = (D × $ per GPU-hour + decode power × PUE ÷ 1000 × $ per kWh) ÷ (output tok/s × 3600) × 1e6",
    "the API's $ per request = (input tokens × (1 − cached) × input $ + input tokens × cached × cached input $ + output tokens × output $) ÷ 1e6",
    "vs API = $ per request ÷ the API's $ per request",
    "break-even utilisation = $ per request ÷ the API's $ per request (above 1: never, even running full)",
];

/// A hosted API's price, $ per million tokens (link `api=1.25:10` or `api=1.25:10:0.125`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ApiPrice {
    /// $ per million input tokens.
    pub input: f64,
    /// $ per million output tokens.
    pub output: f64,
    /// $ per million cached input tokens; `None`: not given (cached tokens are then priced as
    /// input, and said).
    pub cached_input: Option<f64>,
}

/// Where a length per request comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LengthSource {
    /// The level's measured mean.
    Measured,
    /// The workload's stated length (`isl`, `osl`): what was asked, not what was served.
    Stated,
}

impl LengthSource {
    /// `measured` or `stated (isl)` / `stated (osl)`, for the page and the JSON.
    pub fn key(self) -> &'static str {
        match self {
            LengthSource::Measured => "measured",
            LengthSource::Stated => "stated",
        }
    }
}

/// Input and output tokens per request at a level, each with where it comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lengths {
    /// Input tokens per request.
    pub input: Option<(f64, LengthSource)>,
    /// Output tokens per request.
    pub output: Option<(f64, LengthSource)>,
}

impl Lengths {
    /// The level's measured means, else the sweep's stated workload lengths.
    pub fn of(level: &Level, sweep: &Sweep) -> Lengths {
        let pick = |measured: Option<f64>, stated: Option<f64>| {
            let positive = |v: Option<f64>| v.filter(|x| x.is_finite() && *x > 0.0);
            positive(measured)
                .map(|v| (v, LengthSource::Measured))
                .or_else(|| positive(stated).map(|v| (v, LengthSource::Stated)))
        };
        Lengths {
            input: pick(level.avg_input_len, sweep.deployment.isl),
            output: pick(level.avg_output_len, sweep.deployment.osl),
        }
    }
}

/// What a request costs at the recommended level; each `None` where an input or a figure it
/// needs is absent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Cost {
    /// Input and output tokens per request, with where they come from.
    pub lengths: Lengths,
    /// Requests one replica completes per hour at the level.
    pub requests_per_hour: Option<f64>,
    /// GPUs × $ per GPU-hour.
    pub gpu_usd_per_hour: Option<f64>,
    /// J per output token × output tok/s × 3600 × PUE ÷ 3.6e6 × $ per kWh.
    pub electricity_usd_per_hour: Option<f64>,
    /// A replica's $ per hour: the parts given.
    pub replica_usd_per_hour: f64,
    /// $ per request.
    pub usd_per_request: Option<f64>,
    /// $ per million input + output tokens.
    pub usd_per_m_total_tokens: Option<f64>,
    /// $ per million output tokens.
    pub usd_per_m_output_tokens: f64,
    /// The prefill role's $ per million input tokens (disaggregated).
    pub usd_per_m_input_tokens_prefill: Option<f64>,
    /// The decode role's $ per million output tokens (disaggregated).
    pub usd_per_m_output_tokens_decode: Option<f64>,
    /// The API's $ per request at the same lengths.
    pub api_usd_per_request: Option<f64>,
    /// $ per request ÷ the API's.
    pub vs_api: Option<f64>,
    /// The share of the level's throughput the fleet must carry on average to cost no more than
    /// the API (equal to `vs_api`; above 1: never).
    pub break_even_utilisation: Option<f64>,
    /// True when a cached share is priced as input because the API's price has no cached price.
    pub cached_as_input: bool,
}

/// The numbers a cost is computed from.
#[derive(Clone, Copy, Debug)]
pub struct CostBasis<'a> {
    /// The recommended level's figures.
    pub rec: &'a Recommendation,
    /// The recommended level.
    pub level: &'a Level,
    /// The sweep it belongs to.
    pub sweep: &'a Sweep,
}

/// A role's $ per million tokens: (GPUs × price + power × PUE ÷ 1000 × $ per kWh) ÷ (tok/s ×
/// 3600) × 1e6, electricity where power is reported and priced; `None` without a GPU count, a
/// throughput or any price.
fn role_usd_per_m(
    gpus: Option<u32>,
    power_w: Option<f64>,
    tok_s: Option<f64>,
    inputs: &CapacityInputs,
) -> Option<f64> {
    let tok_s = tok_s.filter(|t| *t > 0.0)?;
    let gpu = gpus
        .zip(inputs.price_per_gpu_hour)
        .map(|(n, p)| f64::from(n) * p);
    let elec = power_w
        .zip(inputs.price_per_kwh)
        .map(|(w, p)| w * inputs.pue_or_default() / 1000.0 * p);
    let per_hour = crate::core::plan::capacity::sum_given(gpu, elec)?;
    Some(per_hour / (tok_s * 3600.0) * 1e6)
}

/// What a request costs at `basis`'s level for `inputs` (prices, PUE, an API's price and the
/// cached share); `None` without a GPU price for the deployment's type (an electricity price
/// alone would cost its GPUs as free).
pub fn cost(basis: CostBasis, inputs: &CapacityInputs) -> Option<Cost> {
    let CostBasis { rec, level, sweep } = basis;
    inputs.price_per_gpu_hour?;
    let tok_s = rec.throughput_tok_s;
    let gpu_usd_per_hour = sweep
        .deployment
        .num_gpus
        .zip(inputs.price_per_gpu_hour)
        .map(|(n, p)| f64::from(n) * p);
    let electricity_usd_per_hour = rec
        .energy_per_token_j
        .zip(inputs.price_per_kwh)
        .map(|(j, p)| j * tok_s * 3600.0 * inputs.pue_or_default() / 3.6e6 * p);
    let replica_usd_per_hour =
        crate::core::plan::capacity::sum_given(gpu_usd_per_hour, electricity_usd_per_hour)?;
    if tok_s <= 0.0 {
        return None;
    }
    let lengths = Lengths::of(level, sweep);
    let requests_per_hour = lengths.output.map(|(out, _)| tok_s * 3600.0 / out);
    let usd_per_request = requests_per_hour.map(|r| replica_usd_per_hour / r);
    let (api_usd_per_request, cached_as_input) = inputs
        .api
        .zip(lengths.input.zip(lengths.output))
        .map_or((None, false), |(api, ((input, _), (output, _)))| {
            let cached = inputs.cached.unwrap_or(0.0);
            let cached_price = api.cached_input.unwrap_or(api.input);
            let usd = (input * (1.0 - cached) * api.input
                + input * cached * cached_price
                + output * api.output)
                / 1e6;
            (Some(usd), cached > 0.0 && api.cached_input.is_none())
        });
    let vs_api = usd_per_request
        .zip(api_usd_per_request.filter(|a| *a > 0.0))
        .map(|(own, api)| own / api);
    let roles = sweep.deployment.roles();
    Some(Cost {
        lengths,
        requests_per_hour,
        gpu_usd_per_hour,
        electricity_usd_per_hour,
        replica_usd_per_hour,
        usd_per_request,
        usd_per_m_total_tokens: usd_per_request
            .zip(lengths.input.zip(lengths.output))
            .map(|(usd, ((i, _), (o, _)))| usd / (i + o) * 1e6),
        usd_per_m_output_tokens: replica_usd_per_hour / (tok_s * 3600.0) * 1e6,
        usd_per_m_input_tokens_prefill: roles.and_then(|r| {
            role_usd_per_m(
                r.prefill.gpus,
                level.roles.prefill_power_w,
                level.input_tok_s,
                inputs,
            )
        }),
        usd_per_m_output_tokens_decode: roles.and_then(|r| {
            role_usd_per_m(
                r.decode.gpus,
                level.roles.decode_power_w,
                Some(tok_s),
                inputs,
            )
        }),
        api_usd_per_request,
        vs_api,
        break_even_utilisation: vs_api,
        cached_as_input,
    })
}

/// [`cost`] at a planned sweep's recommended level; `None` without a recommendation or a price.
pub fn at_recommendation(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<Cost> {
    let rec = plan.recommendation(sweep, slo)?;
    let level = sweep.levels().get(plan.recommended?)?;
    cost(
        CostBasis {
            rec: &rec,
            level,
            sweep,
        },
        inputs,
    )
}

#[cfg(test)]
mod tests;
