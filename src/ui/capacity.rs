//! Fleet, cost and energy at the recommended level: draws `core::plan::capacity`.

use leptos::prelude::*;

use super::data_value;
use super::plan_shown::PlanShown;
use crate::core::plan::capacity::Capacity;
use crate::core::text::capacity_text::{
    fleet_figures, load_note, no_price_note, streams_note, FleetFigure,
};

/// One figure; its formula, with this deployment's numbers, shows on hover and on keyboard
/// focus (a second `<dd>`) and is the value's accessible description. Escape hides the formula
/// shown (`dismissed`, set by the panel's window listener) until the pointer or focus enters a
/// figure again.
pub(super) fn item(f: FleetFigure, dismissed: RwSignal<bool>) -> impl IntoView {
    let formula_id = format!("formula-{}", f.hook);
    view! {
        <div
            class="figure has-formula"
            class:dismissed=move || dismissed.get()
            on:mouseenter=move |_| dismissed.set(false)
            on:focusin=move |_| dismissed.set(false)
        >
            <dt>{f.label}</dt>
            <dd
                data-testid=f.hook
                data-value=data_value(f.value)
                tabindex="0"
                aria-describedby=formula_id.clone()
            >
                {f.text}
            </dd>
            <dd class="formula" id=formula_id data-testid="formula">{f.formula}</dd>
        </div>
    }
}

fn figures(
    c: &Capacity,
    figures: Vec<FleetFigure>,
    dismissed: RwSignal<bool>,
    pue: f64,
    load: bool,
    measured_batch: bool,
) -> impl IntoView {
    view! {
        <dl class="figures">{figures.into_iter().map(|f| item(f, dismissed)).collect_view()}</dl>
        <p class="hint">
            {streams_note(c, measured_batch)}
            {load.then_some("Fleet capacity and power assume every replica runs full at the recommended level (capacity, not what your load draws). ")}
            {format!(
                "PUE {}{}; GPU cost is rental only; energy per request is the measured GPU energy.",
                pue,
                if pue == 1.0 { " (GPUs only)" } else { "" },
            )}
        </p>
    }
}

/// Whether the formula shown was dismissed ([`item`]): set by Escape anywhere on the page,
/// for as long as the current owner lives.
pub(super) fn escape_dismisses() -> RwSignal<bool> {
    let dismissed = RwSignal::new(false);
    super::window_events::on_window("keydown", move |e| {
        use wasm_bindgen::JsCast;
        if e.dyn_ref::<web_sys::KeyboardEvent>()
            .is_some_and(|k| k.key() == "Escape")
        {
            dismissed.set(true);
        }
    });
    dismissed
}

/// The fleet panel; says which inputs unlock which figures.
#[component]
pub fn CapacityPanel(shown: PlanShown) -> impl IntoView {
    let dismissed = escape_dismisses();
    move || {
        let (i, plan) = shown.result.get()?;
        let sweep = &shown.source.sweeps[i];
        let gpu = sweep.deployment.gpu.as_str();
        let (slo, inputs, priced_elsewhere, unpriced_here, over_time) = shown.scenario.with(|s| {
            (
                s.slo.clone(),
                s.capacity_for(gpu),
                !s.fleet.gpu_prices.0.is_empty(),
                s.priced_elsewhere_only(gpu),
                s.fleet.load.is_some(),
            )
        });
        let (c, shown) = fleet_figures(sweep, &plan, &slo, &inputs)?;
        let missing: Vec<&str> = [
            (
                !inputs.has_load() && !over_time,
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
                    shown,
                    dismissed,
                    inputs.pue_or_default(),
                    inputs.has_load(),
                    plan.recommended.and_then(|i| sweep.levels().get(i)).is_some_and(|l| l.avg_batch_size.is_some()),
                )}
                {load_note(&inputs, &c).map(|note| view! { <p class="hint" data-testid="load-note">{note}</p> })}
                {unpriced_here.then(|| view! {
                    <p class="hint" data-testid="no-price">{no_price_note(gpu)}</p>
                })}
                {(!missing.is_empty()).then(|| view! {
                    <p class="hint">{format!("Enter {} under “Fleet, cost and energy” in the panel to see more.", missing.join(", "))}</p>
                })}
            </section>
        })
    }
}
