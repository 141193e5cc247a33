//! What a request costs, in words: each figure of [`Cost`] with its label, hook, text and the
//! formula with this deployment's numbers in it (shown on hover/focus, as the fleet figures),
//! and what is said beside them (where the lengths come from, cached tokens priced as input).

use crate::core::model::format::{grouped, level as level_text, money, significant, trimmed};
use crate::core::model::sweep::Sweep;
use crate::core::plan::capacity::CapacityInputs;
use crate::core::plan::cost::{at_recommendation, Cost, LengthSource};
use crate::core::plan::planner::{Plan, Slo};
use crate::core::text::capacity_text::{given_money, FleetFigure};

/// What the break-even leaves out, said under the figures (the README states it too).
pub const LEAVES_OUT: &str = "The break-even leaves out the API's rate limits and latency, and replicas idle when the load falls (a load over the day counts those).";

/// A money figure of a request: `$0.00144`.
fn usd(v: f64) -> String {
    money(v)
}

/// A length in words: `8,192 (stated)`.
fn length(v: Option<(f64, LengthSource)>) -> String {
    v.map_or_else(|| "not reported".to_string(), |(n, _)| grouped(n, 0))
}

/// Where the lengths per request come from, in one sentence.
pub fn lengths_note(c: &Cost) -> String {
    let (i, o) = (c.lengths.input, c.lengths.output);
    let source = match (i.map(|x| x.1), o.map(|x| x.1)) {
        (Some(LengthSource::Measured), Some(LengthSource::Measured)) => {
            "both measured at this level"
        }
        (None | Some(LengthSource::Stated), Some(LengthSource::Stated))
        | (Some(LengthSource::Stated), None) => {
            "the workload's stated isl and osl, not measured by the file: each request is costed as exactly this long"
        }
        (None, None) => "neither is reported, so nothing is costed per request",
        _ => "measured where the file reports them, else the workload's stated lengths",
    };
    format!(
        "Tokens per request: {} in, {} out; {source}.",
        length(i),
        length(o)
    )
}

/// One role of a disaggregated deployment, as its cost formula names it.
#[derive(Clone, Copy)]
struct Role {
    name: &'static str,
    gpus: Option<u32>,
    power_w: Option<f64>,
    tokens: &'static str,
    tok_s: f64,
}

/// The numbers the formulas are written with.
struct Known<'a> {
    c: &'a Cost,
    at: String,
    tok_s: f64,
    input_tok_s: Option<f64>,
    roles: Option<(Option<u32>, Option<u32>)>,
    /// The roles' power at the level, W: prefill, decode.
    role_power_w: (Option<f64>, Option<f64>),
    inputs: &'a CapacityInputs,
}

impl Known<'_> {
    fn per_request(&self, v: f64) -> String {
        let out = self.c.lengths.output.map_or(0.0, |o| o.0);
        format!(
            "$ per request = a replica's $/hour ÷ requests per hour at {} = {} ÷ ({} tok/s × 3600 ÷ {}) = {} ÷ {} = {}",
            self.at,
            usd(self.c.replica_usd_per_hour),
            grouped(self.tok_s, 1),
            grouped(out, 0),
            usd(self.c.replica_usd_per_hour),
            grouped(self.c.requests_per_hour.unwrap_or_default(), 1),
            usd(v),
        )
    }

    /// A role's $ per million tokens: its GPUs at their price, with its electricity where its
    /// power is reported and an electricity price is given (as `plan::cost` counts it).
    fn role(&self, role: Role, v: f64) -> String {
        let Role {
            name,
            gpus,
            power_w,
            tokens,
            tok_s,
        } = role;
        let gpu_part = format!(
            "{} × {}",
            gpus.unwrap_or_default(),
            given_money(self.inputs.price_per_gpu_hour.unwrap_or_default())
        );
        let (words, numbers) = match power_w.zip(self.inputs.price_per_kwh) {
            Some((w, kwh)) => (
                format!("({name} GPUs × price + {name} power × PUE ÷ 1000 × $/kWh)"),
                format!(
                    "({gpu_part} + {} W × {} ÷ 1000 × {})",
                    grouped(w, 0),
                    trimmed(self.inputs.pue_or_default(), 4),
                    given_money(kwh)
                ),
            ),
            None => (format!("{name} GPUs × price"), gpu_part),
        };
        format!(
            "{name} $/M {tokens} tokens = {words} ÷ ({tokens} tok/s × 3600) × 1e6 = {numbers} ÷ ({} × 3600) × 1e6 = {}",
            grouped(tok_s, 1),
            usd(v),
        )
    }

    #[allow(
        clippy::too_many_lines,
        reason = "one entry per cost figure, in the panel's order; splitting it would scatter the table"
    )]
    fn figures(&self) -> Vec<FleetFigure> {
        let c = self.c;
        let api = self.inputs.api;
        // The lengths a request's formulas are written with (0 where one is not known: such a
        // figure is not computed, so its formula is never shown).
        let (i, o) = c
            .lengths
            .input
            .zip(c.lengths.output)
            .map_or((0.0, 0.0), |((i, _), (o, _))| (i, o));
        let (prefill_gpus, decode_gpus) = self.roles.unwrap_or_default();
        [
            FleetFigure::of(
                "Cost per request",
                "cost-per-request",
                c.usd_per_request,
                |v| format!("{} per request, the level running full", usd(v)),
                |v| self.per_request(v),
            ),
            FleetFigure::of(
                "Cost per M total tokens",
                "cost-per-m-total",
                c.usd_per_m_total_tokens,
                |v| format!("{} per M input + output tokens", usd(v)),
                |v| {
                    format!(
                        "$/M total tokens = $ per request ÷ (input + output tokens) × 1e6 = {} ÷ ({} + {}) × 1e6 = {}",
                        usd(c.usd_per_request.unwrap_or_default()),
                        grouped(i, 0),
                        grouped(o, 0),
                        usd(v),
                    )
                },
            ),
            FleetFigure::of(
                "Prefill cost per M input tokens",
                "cost-prefill-per-m-input",
                c.usd_per_m_input_tokens_prefill,
                |v| format!("{} per M input tokens (the prefill GPUs)", usd(v)),
                |v| {
                    self.role(
                        Role {
                            name: "prefill",
                            gpus: prefill_gpus,
                            power_w: self.role_power_w.0,
                            tokens: "input",
                            tok_s: self.input_tok_s.unwrap_or_default(),
                        },
                        v,
                    )
                },
            ),
            FleetFigure::of(
                "Decode cost per M output tokens",
                "cost-decode-per-m-output",
                c.usd_per_m_output_tokens_decode,
                |v| format!("{} per M output tokens (the decode GPUs)", usd(v)),
                |v| {
                    self.role(
                        Role {
                            name: "decode",
                            gpus: decode_gpus,
                            power_w: self.role_power_w.1,
                            tokens: "output",
                            tok_s: self.tok_s,
                        },
                        v,
                    )
                },
            ),
            FleetFigure::of(
                "API cost per request",
                "api-per-request",
                c.api_usd_per_request,
                |v| format!("{} per request", usd(v)),
                |v| {
                    let api = api.unwrap_or(crate::core::plan::cost::ApiPrice {
                        input: 0.0,
                        output: 0.0,
                        cached_input: None,
                    });
                    let cached = self.inputs.cached.unwrap_or(0.0);
                    format!(
                        "API $ per request = (input × (1 − cached) × input $ + input × cached × cached $ + output × output $) ÷ 1e6 = ({} × {} × {} + {} × {} × {} + {} × {}) ÷ 1e6 = {}",
                        grouped(i, 0),
                        trimmed(1.0 - cached, 4),
                        given_money(api.input),
                        grouped(i, 0),
                        trimmed(cached, 4),
                        given_money(api.cached_input.unwrap_or(api.input)),
                        grouped(o, 0),
                        given_money(api.output),
                        usd(v),
                    )
                },
            ),
            FleetFigure::of(
                "Self-hosted ÷ API",
                "vs-api",
                c.vs_api,
                vs_api_text,
                |v| {
                    format!(
                        "vs API = $ per request ÷ API $ per request = {} ÷ {} = {}",
                        usd(c.usd_per_request.unwrap_or_default()),
                        usd(c.api_usd_per_request.unwrap_or_default()),
                        significant(v, 3),
                    )
                },
            ),
            FleetFigure::of(
                "Break-even utilisation",
                "break-even",
                c.break_even_utilisation,
                break_even_text,
                |v| {
                    format!(
                        "break-even utilisation = $ per request ÷ API $ per request = {} ÷ {} = {}%: below it the API costs less per request, above it self-hosting does",
                        usd(c.usd_per_request.unwrap_or_default()),
                        usd(c.api_usd_per_request.unwrap_or_default()),
                        percent_of(v),
                    )
                },
            ),
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// `0.091× the API's cost per request`, `1.30× the API's cost per request`.
pub fn vs_api_text(v: f64) -> String {
    format!("{}× the API's cost per request", significant(v, 3))
}

/// `9.1% of this level's throughput`, `1.56e-5%` (never rounded to 0), or never (above 100%).
pub fn break_even_text(v: f64) -> String {
    if v <= 1.0 {
        format!("{}% of this level's throughput, on average", percent_of(v))
    } else {
        format!(
            "never: {}%, self-hosting costs more than the API per request even running full",
            percent_of(v)
        )
    }
}

/// A share as a percentage with one decimal, or three significant digits below 0.1%.
fn percent_of(v: f64) -> String {
    if v * 100.0 < 0.1 {
        trimmed(v * 100.0, 3)
    } else {
        grouped(v * 100.0, 1)
    }
}

/// The cost figures of a planned sweep at its recommended level, each with its formula, and
/// what is said beside them; `None` without a recommendation or a price.
pub fn cost_figures(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<(Cost, Vec<FleetFigure>, Vec<String>)> {
    let c = at_recommendation(sweep, plan, slo, inputs)?;
    let rec = plan.recommendation(sweep, slo)?;
    let level = sweep.levels().get(plan.recommended?)?;
    let roles = sweep
        .deployment
        .roles()
        .map(|r| (r.prefill.gpus, r.decode.gpus));
    let figures = Known {
        c: &c,
        at: level_text(rec.level),
        tok_s: rec.throughput_tok_s,
        input_tok_s: level.input_tok_s,
        roles,
        role_power_w: (level.roles.prefill_power_w, level.roles.decode_power_w),
        inputs,
    }
    .figures();
    let mut notes = vec![lengths_note(&c)];
    if c.cached_as_input {
        notes.push("The API's price has no cached input price: cached tokens are priced as input (give a third number, e.g. api=1.25:10:0.125).".to_string());
    }
    if c.api_usd_per_request == Some(0.0) {
        notes.push("The API's price comes to $0 a request: there is nothing to divide by, so no ratio or break-even is given.".to_string());
    }
    if c.vs_api.is_some() {
        notes.push(LEAVES_OUT.to_string());
    }
    Some((c, figures, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn break_even_says_never_above_full() {
        assert_eq!(
            break_even_text(0.090_645),
            "9.1% of this level's throughput, on average"
        );
        assert_eq!(
            break_even_text(1.3),
            "never: 130.0%, self-hosting costs more than the API per request even running full"
        );
        assert_eq!(vs_api_text(0.090_645), "0.0906× the API's cost per request");
        assert_eq!(
            break_even_text(1.56e-7),
            "1.56e-5% of this level's throughput, on average"
        );
    }
}
