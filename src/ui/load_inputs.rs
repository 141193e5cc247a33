//! The load over time among the fleet inputs (drawn with them, on demand): a field for values,
//! the link's form (`core::scenario::load_input`) or a pasted CSV of `timestamp,value` (read in
//! the tools module, `core::scenario::load_csv`), what bare values count and the minutes each
//! covers, named shapes to start from, and how the fleet follows the load (`lag`,
//! `min_replicas`).

use leptos::prelude::*;

use crate::core::model::format::url_number;
use crate::core::plan::period::{LoadKind, LoadProfile};
use crate::core::scenario::load_input::{looks_like_csv, read_load_input, LoadShape};
use crate::core::scenario::{
    load_text, number, parse_lag, parse_load, parse_min_replicas, Scenario, ValueError,
};
use crate::tools_client;

/// `parse` of `text`, or of `default` (the parameter's default) when the field is empty.
fn or_default<T>(
    text: &str,
    default: &str,
    parse: fn(&str) -> Result<T, ValueError>,
) -> Result<T, ValueError> {
    parse(if text.trim().is_empty() {
        default
    } else {
        text
    })
}

/// The peak a shape is scaled to: the load's own peak, else the users or requests per second
/// given, else 10.
fn shape_peak(s: &Scenario, kind: LoadKind) -> f64 {
    let given = match kind {
        LoadKind::Rps => s.capacity.rps,
        LoadKind::Users => s.capacity.users,
    };
    s.load
        .as_ref()
        .filter(|l| l.kind == kind)
        .map(|l| l.values.iter().copied().fold(0.0, f64::max))
        .filter(|p| *p > 0.0)
        .or(given)
        .unwrap_or(10.0)
}

/// The load's fields: what it counts and its step, the values, the shapes, lag and floor.
pub fn load_fields(scenario: RwSignal<Scenario>) -> impl IntoView {
    let start = scenario.with_untracked(|s| s.load.clone());
    let kind = RwSignal::new(start.as_ref().map_or(LoadKind::Rps, |l| l.kind));
    let step = RwSignal::new(start.as_ref().map_or(60.0, |l| l.step_min));
    let text = RwSignal::new(start.as_ref().map(load_text).unwrap_or_default());
    let error = RwSignal::new(None::<String>);
    // Each reading is numbered: a CSV's answer that comes after a later edit is dropped.
    let reading = StoredValue::new(0_u64);
    let settle = move |read: Result<Option<LoadProfile>, String>| match read {
        Ok(load) => {
            error.set(None);
            scenario.update(|s| s.load = load);
        }
        Err(e) => error.set(Some(format!(
            "Load: {e}; the last valid load is still used."
        ))),
    };
    let apply = move || {
        let now = reading.get_value() + 1;
        reading.set_value(now);
        let typed = text.get_untracked();
        if !looks_like_csv(typed.trim()) {
            settle(read_load_input(
                &typed,
                kind.get_untracked(),
                step.get_untracked(),
            ));
            return;
        }
        let counts = match kind.get_untracked() {
            LoadKind::Rps => "rps",
            LoadKind::Users => "users",
        };
        leptos::task::spawn_local(async move {
            let read = tools_client::read_load_csv(typed.trim(), counts).await;
            if reading.try_get_value() == Some(now) {
                settle(
                    read.and_then(|link| parse_load(&link).map(Some).map_err(|e| e.to_string())),
                );
            }
        });
    };
    let shape = move |shape: LoadShape| {
        let k = kind.get_untracked();
        let load = shape.profile(k, scenario.with_untracked(|s| shape_peak(s, k)));
        step.set(60.0);
        text.set(load_text(&load));
        error.set(None);
        scenario.update(|s| s.load = Some(load));
    };
    view! {
        <fieldset class="load-fields" data-testid="load-fields">
            <legend>"Load over time (optional)"</legend>
            <p class="hint" id="load-help">"One value per step: paste them (commas, spaces or lines), a link's rps:60:3,2,5, or a CSV of timestamp,value as monitoring tools export it (the step is read from the timestamps)."</p>
            {counts_fields(kind, step, error, apply)}
            <label for="load-input">"Values"</label>
            <textarea id="load-input" data-testid="load-input" rows="3" spellcheck="false" aria-describedby="load-help"
                aria-invalid=move || error.with(Option::is_some).to_string()
                prop:value=move || text.get()
                on:input=move |ev| { text.set(event_target_value(&ev)); apply(); }
            ></textarea>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert" data-testid="load-error">{e}</p> })}
            <div class="load-shapes" role="group" aria-label="Start from a shape">
                {LoadShape::ALL.into_iter().map(|s| view! {
                    <button type="button" data-testid=format!("load-shape-{}", s.key()) on:click=move |_| shape(s)>{s.label()}</button>
                }).collect_view()}
            </div>
            {scaling_fields(scenario)}
        </fieldset>
    }
}

/// What bare values count (`rps`, `users`) and the minutes each covers; a change reads the
/// field again (`apply`).
fn counts_fields(
    kind: RwSignal<LoadKind>,
    step: RwSignal<f64>,
    error: RwSignal<Option<String>>,
    apply: impl Fn() + Copy + 'static,
) -> impl IntoView {
    view! {
        <div class="fleet-row">
            <label for="load-kind">"Values count"</label>
            <select id="load-kind" data-testid="load-kind" on:change=move |ev| {
                kind.set(if event_target_value(&ev) == "users" { LoadKind::Users } else { LoadKind::Rps });
                apply();
            }>
                <option value="rps" selected=move || kind.get() == LoadKind::Rps>"requests per second"</option>
                <option value="users" selected=move || kind.get() == LoadKind::Users>"concurrent users"</option>
            </select>
        </div>
        <div class="fleet-row">
            <label for="load-step">"Each value covers"<span class="unit">" (minutes)"</span></label>
            <input id="load-step" type="text" inputmode="decimal" autocomplete="off" data-testid="load-step"
                prop:value=move || url_number(step.get())
                on:change=move |ev| match number(&event_target_value(&ev)).filter(|m| *m > 0.0) {
                    Some(m) => { step.set(m); apply(); }
                    None => error.set(Some("Load: each value must cover a number of minutes above 0; the last valid load is still used.".into())),
                }
            />
        </div>
    }
}

/// The minutes a replica takes to come up (`lag`) and the floor of replicas (`min_replicas`).
fn scaling_fields(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (lag, floor) = scenario.with_untracked(|s| (s.scaling.lag_min, s.scaling.min_replicas));
    let error = RwSignal::new(None::<String>);
    view! {
        <div class="fleet-row">
            <label for="load-lag">"Replicas come up in"<span class="unit">" (minutes)"</span></label>
            <input id="load-lag" type="text" inputmode="decimal" autocomplete="off" data-testid="input-lag"
                value=url_number(lag)
                on:input=move |ev| match or_default(&event_target_value(&ev), "0", parse_lag) {
                    Ok(m) => { error.set(None); scenario.update(|s| s.scaling.lag_min = m); }
                    Err(e) => error.set(Some(format!("Replicas come up in {e}; the last valid value is still used."))),
                }
            />
        </div>
        <div class="fleet-row">
            <label for="load-min-replicas">"At least"<span class="unit">" (replicas)"</span></label>
            <input id="load-min-replicas" type="text" inputmode="numeric" autocomplete="off" data-testid="input-min-replicas"
                value=floor.to_string()
                on:input=move |ev| match or_default(&event_target_value(&ev), "1", parse_min_replicas) {
                    Ok(n) => { error.set(None); scenario.update(|s| s.scaling.min_replicas = n); }
                    Err(e) => error.set(Some(format!("At least {e}; the last valid value is still used."))),
                }
            />
        </div>
        {move || error.get().map(|e| view! { <p class="field-error" role="alert" data-testid="scaling-error">{e}</p> })}
    }
}
