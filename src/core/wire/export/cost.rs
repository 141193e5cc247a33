//! The JSON of what a request costs (`result.cost`: `core::plan::cost`).

use serde::Serialize;

use crate::core::plan::cost::Cost;

#[derive(Serialize)]
pub(super) struct JsonCost {
    input_tokens_per_request: Option<f64>,
    /// `measured` or `stated` (the workload's `isl`).
    input_tokens_source: Option<&'static str>,
    output_tokens_per_request: Option<f64>,
    /// `measured` or `stated` (the workload's `osl`).
    output_tokens_source: Option<&'static str>,
    requests_per_hour: Option<f64>,
    replica_usd_per_hour: f64,
    usd_per_request: Option<f64>,
    usd_per_m_total_tokens: Option<f64>,
    usd_per_m_output_tokens: f64,
    usd_per_m_input_tokens_prefill: Option<f64>,
    usd_per_m_output_tokens_decode: Option<f64>,
    api_usd_per_request: Option<f64>,
    vs_api: Option<f64>,
    break_even_utilisation: Option<f64>,
    /// True when cached input tokens are priced as input (the API's price has no cached one).
    cached_priced_as_input: bool,
}

impl From<Cost> for JsonCost {
    fn from(c: Cost) -> JsonCost {
        JsonCost {
            input_tokens_per_request: c.lengths.input.map(|l| l.0),
            input_tokens_source: c.lengths.input.map(|l| l.1.key()),
            output_tokens_per_request: c.lengths.output.map(|l| l.0),
            output_tokens_source: c.lengths.output.map(|l| l.1.key()),
            requests_per_hour: c.requests_per_hour,
            replica_usd_per_hour: c.replica_usd_per_hour,
            usd_per_request: c.usd_per_request,
            usd_per_m_total_tokens: c.usd_per_m_total_tokens,
            usd_per_m_output_tokens: c.usd_per_m_output_tokens,
            usd_per_m_input_tokens_prefill: c.usd_per_m_input_tokens_prefill,
            usd_per_m_output_tokens_decode: c.usd_per_m_output_tokens_decode,
            api_usd_per_request: c.api_usd_per_request,
            vs_api: c.vs_api,
            break_even_utilisation: c.break_even_utilisation,
            cached_priced_as_input: c.cached_as_input,
        }
    }
}
