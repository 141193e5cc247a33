//! Fleet, cost and energy at the recommended level: draws `core::capacity`.

use leptos::prelude::*;

use super::data_value;
use crate::core::capacity::{at_recommendation, Capacity, CapacityInputs};
use crate::core::format::{grouped, significant};
use crate::core::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// One figure with its hook; absent values are not drawn at all (their input is missing).
fn item(
    label: &'static str,
    testid: &'static str,
    value: Option<f64>,
    text: String,
) -> impl IntoView {
    value.map(|v| {
        view! {
            <div class="figure">
                <dt>{label}</dt>
                <dd data-testid=testid data-value=data_value(v)>{text}</dd>
            </div>
        }
    })
}

fn money(v: f64) -> String {
    if v >= 1.0 {
        format!("${}", grouped(v, 2))
    } else {
        format!("${}", significant(v, 3))
    }
}

/// " (without electricity price: not given)" when a total leaves a part out.
fn lacks(c: &Capacity) -> String {
    c.total_lacks
        .map(|part| format!(" (without {part}: not given)"))
        .unwrap_or_default()
}

fn figures(
    c: &Capacity,
    num_gpus: Option<u32>,
    pue: f64,
    load: bool,
    measured_batch: bool,
) -> impl IntoView {
    let replicas = c.replicas.map(|r| r as f64);
    let gpus = c.gpus.map(|g| g as f64);
    view! {
        <dl class="figures">
            {item(
                "Replicas",
                "cap-replicas",
                replicas,
                replicas.map_or_else(String::new, |r| format!(
                    "{} × {}",
                    grouped(r, 0),
                    crate::core::format::gpus(num_gpus),
                )),
            )}
            {item(
                "Demanded output",
                "demand-tok-s",
                c.demand_tok_s,
                c.demand_tok_s.map_or_else(String::new, |v| format!("{} tok/s", grouped(v, 1))),
            )}
            {item(
                "Concurrent streams at this load",
                "implied-streams",
                c.implied_streams,
                c.implied_streams.map_or_else(String::new, |v| format!("{} (one replica holds {})", grouped(v, 0), c.streams_per_replica.map_or_else(|| "not reported".to_string(), |s| grouped(s, 1)))),
            )}
            {item("GPUs", "cap-gpus", gpus, gpus.map_or_else(String::new, |g| grouped(g, 0)))}
            {item(
                "Fleet capacity",
                "fleet-throughput",
                c.fleet_throughput_tok_s,
                c.fleet_throughput_tok_s.map_or_else(String::new, |v| format!("{} tok/s", grouped(v, 0))),
            )}
            {item(
                "Utilisation",
                "fleet-utilisation",
                c.utilisation,
                c.utilisation.map_or_else(String::new, |u| format!("{}% of fleet capacity", grouped(u * 100.0, 1))),
            )}
            {item(
                "Fleet power",
                "fleet-power-kw",
                c.fleet_power_kw,
                c.fleet_power_kw.map_or_else(String::new, |v| format!("{} kW", significant(v, 3))),
            )}
            {item(
                "GPU cost",
                "cost-per-mtok",
                c.cost_per_mtok,
                c.cost_per_mtok.map_or_else(String::new, |v| format!("{} per M output tokens", money(v))),
            )}
            {item(
                "Fleet GPU cost",
                "fleet-gpu-cost-per-hour",
                c.fleet_gpu_cost_per_hour,
                c.fleet_gpu_cost_per_hour.map_or_else(String::new, |v| format!("{} per hour", money(v))),
            )}
            {item(
                "Fleet electricity",
                "fleet-elec-cost-per-hour",
                c.fleet_elec_cost_per_hour,
                c.fleet_elec_cost_per_hour.map_or_else(String::new, |v| format!("{} per hour", money(v))),
            )}
            {item(
                "Fleet total",
                "fleet-cost-per-hour",
                c.fleet_cost_per_hour,
                c.fleet_cost_per_hour.map_or_else(String::new, |v| format!("{} per hour{}", money(v), lacks(c))),
            )}
            {item(
                "GPU cost at this load",
                "load-cost-per-mtok",
                c.load_cost_per_mtok,
                c.load_cost_per_mtok.map_or_else(String::new, |v| format!("{} per M output tokens", money(v))),
            )}
            {item(
                "Energy",
                "kwh-per-mtok",
                c.kwh_per_mtok,
                c.kwh_per_mtok.map_or_else(String::new, |v| format!("{} kWh per M output tokens", significant(v, 3))),
            )}
            {item(
                "Electricity",
                "elec-cost-per-mtok",
                c.elec_cost_per_mtok,
                c.elec_cost_per_mtok.map_or_else(String::new, |v| format!("{} per M output tokens", money(v))),
            )}
            {item(
                "Total cost",
                "total-cost-per-mtok",
                c.total_cost_per_mtok,
                c.total_cost_per_mtok.map_or_else(String::new, |v| format!("{} per M output tokens{}", money(v), lacks(c))),
            )}
            {item(
                "CO2",
                "co2-per-mtok",
                c.co2_kg_per_mtok,
                c.co2_kg_per_mtok.map_or_else(String::new, |v| format!("{} kg per M output tokens", significant(v, 3))),
            )}
            {item(
                "Energy per request",
                "energy-per-request",
                c.energy_per_request_j,
                c.energy_per_request_j.map_or_else(String::new, |j| format!(
                    "{} J ({} Wh per 1,000 requests)",
                    significant(j, 3),
                    c.wh_per_1000_requests.map_or_else(String::new, |wh| significant(wh, 3)),
                )),
            )}
        </dl>
        <p class="hint">
            {match (c.streams_per_replica, measured_batch) {
                (None, _) => "Streams per replica are not reported for this sweep, so replicas cannot be counted. ".to_string(),
                (Some(s), true) => format!(
                    "One replica holds {} streams (the avg batch measured at this level, not the cap). ",
                    grouped(s, 1),
                ),
                (Some(s), false) => format!(
                    "One replica holds {} streams (the client's concurrency at this level; no average batch is reported). ",
                    grouped(s, 1),
                ),
            }}
            {load.then_some("Fleet capacity and power assume every replica runs full at the recommended level (capacity, not what your load draws). ")}
            {format!(
                "PUE {}{}; GPU cost is rental only; energy per request is the measured GPU energy.",
                pue,
                if pue == 1.0 { " (GPUs only)" } else { "" },
            )}
        </p>
    }
}

/// What the panel says about the load it was given: `users` used when both are given, or an
/// `rps` load the sweep cannot turn into output tok/s.
fn load_note(inputs: &CapacityInputs, c: &Capacity) -> Option<&'static str> {
    match (inputs.users, inputs.rps, c.demand_tok_s) {
        (Some(_), Some(_), _) => Some("Both concurrent users and requests per second are given: users size the fleet."),
        (None, Some(_), None) => Some("This sweep does not state output tokens per request at this level, so a load in requests per second cannot be turned into output tok/s: nothing is sized."),
        _ => None,
    }
}

/// The fleet panel; says which inputs unlock which figures.
#[component]
pub fn CapacityPanel(
    source: &'static Source,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    move || {
        let (i, plan) = result.get()?;
        let sweep = &source.sweeps[i];
        let gpu = sweep.deployment.gpu.as_str();
        let (slo, inputs, priced_elsewhere) =
            scenario.with(|s| (s.slo(), s.capacity_for(gpu), !s.gpu_prices.0.is_empty()));
        let c = at_recommendation(sweep, &plan, &slo, &inputs)?;
        let missing: Vec<&str> = [
            (
                inputs.users.is_none() && inputs.rps.is_none(),
                "concurrent users or a load in requests per second (replicas, GPUs, fleet)",
            ),
            (
                inputs.price_per_gpu_hour.is_none() && !priced_elsewhere,
                "$ per GPU-hour (GPU cost)",
            ),
            (
                inputs.price_per_kwh.is_none(),
                "$ per kWh (electricity cost)",
            ),
            (inputs.co2_g_per_kwh.is_none(), "g CO2 per kWh (emissions)"),
        ]
        .into_iter()
        .filter_map(|(absent, what)| absent.then_some(what))
        .collect();
        Some(view! {
            <section class="capacity" aria-labelledby="capacity-title">
                <h2 id="capacity-title">"Fleet, cost and energy at the recommended level"</h2>
                {figures(
                    &c,
                    sweep.deployment.num_gpus,
                    inputs.pue_or_default(),
                    inputs.users.is_some() || inputs.rps.is_some(),
                    plan.recommended.and_then(|i| sweep.levels().get(i)).is_some_and(|l| l.avg_batch_size.is_some()),
                )}
                {load_note(&inputs, &c).map(|note| view! { <p class="hint" data-testid="load-note">{note}</p> })}
                {(priced_elsewhere && inputs.price_per_gpu_hour.is_none()).then(|| view! {
                    <p class="hint" data-testid="no-price">{format!("GPU cost: no price given for {gpu} (prices are given for other GPU types only).")}</p>
                })}
                {(!missing.is_empty()).then(|| view! {
                    <p class="hint">{format!("Enter {} under “Fleet, cost and energy” in the panel to see more.", missing.join(", "))}</p>
                })}
            </section>
        })
    }
}
