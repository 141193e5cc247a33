//! The load over time among the fleet inputs (drawn with them, on demand): a field for values,
//! the link's form (`core::scenario::load_input`) or a pasted CSV of `timestamp,value` (read in
//! the tools module, `core::scenario::load_csv`), what bare values count and the minutes each
//! covers, named shapes to start from, and how the fleet follows the load (`lag`,
//! `min_replicas`).

use std::fmt;

use leptos::prelude::*;

use super::field_error;

use crate::browser;
use crate::core::model::format::url_number;
use crate::core::model::limits::MAX_LOAD_FIELD_CHARS;
use crate::core::plan::period::{LoadKind, LoadProfile};
use crate::core::scenario::load_input::{
    looks_like_csv, parse_load_step, read_load_input, too_long_text, LoadShape,
};
use crate::core::scenario::{
    load_text, number, parse_lag, parse_min_replicas, Scenario, ValueError,
};
use crate::tools_client::{self, ToolsError};

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
        LoadKind::Rps => s.fleet.capacity.rps,
        LoadKind::Users => s.fleet.capacity.users,
    };
    s.fleet
        .load
        .as_ref()
        .filter(|l| l.kind == kind)
        .map(|l| l.values.iter().copied().fold(0.0, f64::max))
        .filter(|p| *p > 0.0)
        .or(given)
        .unwrap_or(10.0)
}

/// The load's fields: what it counts and its step, the values, the shapes, lag and floor. What
/// the values count and their step follow the load read from the field (a link's form or a CSV
/// say both); changing either rewrites the load with it.
pub fn load_fields(scenario: RwSignal<Scenario>) -> impl IntoView {
    let start = scenario.with_untracked(|s| s.fleet.load.clone());
    let kind = RwSignal::new(start.as_ref().map_or(LoadKind::Rps, |l| l.kind));
    let step = RwSignal::new(start.as_ref().map_or(60.0, |l| l.step_min));
    let text = RwSignal::new(start.as_ref().map(load_text).unwrap_or_default());
    let error = RwSignal::new(None::<String>);
    // Each reading is numbered: a CSV's answer that comes after a later edit is dropped.
    let reading = StoredValue::new(0_u64);
    let settle = settler(scenario, Counts { kind, step }, error);
    let apply = move || {
        let now = reading.get_value() + 1;
        reading.set_value(now);
        let typed = text.get_untracked();
        if !looks_like_csv(typed.trim()) {
            settle(
                read_load_input(&typed, kind.get_untracked(), step.get_untracked())
                    .map_err(Unread::Typed),
            );
            return;
        }
        let counts = kind.get_untracked();
        leptos::task::spawn_local(async move {
            let read = tools_client::read_load_csv(typed.trim(), counts).await;
            if reading.try_get_value() == Some(now) {
                settle(read.map(Some).map_err(Unread::Csv));
            }
        });
    };
    // A text longer than the field reads: said, not read; a reading under way is dropped.
    let too_long = move || {
        reading.update_value(|n| *n += 1);
        settle(Err(Unread::TooLong));
    };
    // A load the page writes (a shape, a new kind or step), shown in the field in the link's form.
    let write = move |load: LoadProfile| {
        reading.update_value(|n| *n += 1);
        kind.set(load.kind);
        step.set(load.step_min);
        text.set(load_text(&load));
        error.set(None);
        scenario.update(|s| s.fleet.load = Some(load));
    };
    let recount = move |k: LoadKind, m: f64| match scenario.with_untracked(|s| s.fleet.load.clone())
    {
        Some(load) => write(LoadProfile {
            kind: k,
            step_min: m,
            ..load
        }),
        None => {
            kind.set(k);
            step.set(m);
            apply();
        }
    };
    let shape = move |shape: LoadShape| {
        let k = kind.get_untracked();
        write(shape.profile(k, scenario.with_untracked(|s| shape_peak(s, k))));
    };
    view! {
        <fieldset class="load-fields" data-testid="load-fields">
            <legend>"Load over time (optional)"</legend>
            <p class="hint" id="load-help">"One value per step: paste them (commas, spaces or lines), a link's rps:60:3,2,5, or a CSV of timestamp,value as monitoring tools export it (the step is read from the timestamps)."</p>
            {counts_fields(kind, step, recount)}
            <label for="load-input">"Values"</label>
            // A paste longer than what is read is refused before the browser inserts it; typing
            // stops one character past it (`maxlength`), and a longer text set otherwise is
            // neither copied nor read. Each is said to be too long.
            <textarea id="load-input" data-testid="load-input" rows="3" spellcheck="false"
                maxlength=MAX_LOAD_FIELD_CHARS + 1
                on:paste=move |ev| if browser::pasted_over(&ev, MAX_LOAD_FIELD_CHARS) {
                    ev.prevent_default();
                    too_long();
                }
                aria-describedby=field_error::described_by("load-input", Some("load-help"), error)
                aria-invalid=field_error::invalid(error)
                prop:value=move || text.get()
                on:input=move |ev| match browser::text_area_value(&ev, MAX_LOAD_FIELD_CHARS) {
                    Some(typed) => { text.set(typed); apply(); }
                    None => too_long(),
                }
            ></textarea>
            {field_error::message("load-input", error, "load-error")}
            {shape_buttons(shape)}
            {scaling_fields(scenario)}
        </fieldset>
    }
}

/// Why the load field's text gives no load, kept until the field says it.
enum Unread {
    /// The values or the link's form cannot be read.
    Typed(ValueError),
    /// The field holds more than is read ([`too_long_text`]).
    TooLong,
    /// A CSV the tools module did not read.
    Csv(ToolsError),
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::Typed(e) => e.fmt(f),
            Unread::TooLong => f.write_str(&too_long_text()),
            Unread::Csv(e) => e.fmt(f),
        }
    }
}

/// What the load's values count and the minutes each covers, as shown beside the field.
#[derive(Clone, Copy)]
struct Counts {
    kind: RwSignal<LoadKind>,
    step: RwSignal<f64>,
}

/// What is done with the field's reading: a load read becomes the scenario's (what it counts
/// and its step shown beside it); what cannot be read is said, the last load kept.
fn settler(
    scenario: RwSignal<Scenario>,
    counts: Counts,
    error: RwSignal<Option<String>>,
) -> impl Fn(Result<Option<LoadProfile>, Unread>) + Copy + 'static {
    let Counts { kind, step } = counts;
    move |read| match read {
        Ok(load) => {
            error.set(None);
            if let Some(l) = &load {
                kind.set(l.kind);
                step.set(l.step_min);
            }
            scenario.update(|s| s.fleet.load = load);
        }
        Err(e) => error.set(Some(format!(
            "Load: {e}; the last valid load is still used."
        ))),
    }
}

/// One button per named shape (`load-shape-KEY`), each writing its day.
fn shape_buttons(shape: impl Fn(LoadShape) + Copy + 'static) -> impl IntoView {
    view! {
        <div class="load-shapes" role="group" aria-label="Start from a shape">
            {LoadShape::ALL.into_iter().map(|s| view! {
                <button type="button" data-testid=format!("load-shape-{}", s.key()) on:click=move |_| shape(s)>{s.label()}</button>
            }).collect_view()}
        </div>
    }
}

/// What the values count (`rps`, `users`) and the minutes each covers; a change gives the load
/// that kind and step (`recount`).
fn counts_fields(
    kind: RwSignal<LoadKind>,
    step: RwSignal<f64>,
    recount: impl Fn(LoadKind, f64) + Copy + 'static,
) -> impl IntoView {
    let step_error = RwSignal::new(None::<String>);
    // The step as typed; set from `step` only when the page changes it (a link's form, a CSV, a
    // shape), so that typing "1." is not rewritten to "1".
    let step_text = RwSignal::new(url_number(step.get_untracked()));
    Effect::new(move |_| {
        let m = step.get();
        if step_text.with_untracked(|t| number(t) != Some(m)) {
            step_text.set(url_number(m));
        }
    });
    view! {
        <div class="fleet-row">
            <label for="load-kind">"Values count"</label>
            <select id="load-kind" data-testid="load-kind" on:change=move |ev| {
                let k = LoadKind::from_key(&event_target_value(&ev)).unwrap_or(LoadKind::Rps);
                recount(k, step.get_untracked());
            }>
                <option value="rps" selected=move || kind.get() == LoadKind::Rps>"requests per second"</option>
                <option value="users" selected=move || kind.get() == LoadKind::Users>"concurrent users"</option>
            </select>
        </div>
        <div class="fleet-row">
            <label for="load-step">"Each value covers"<span class="unit">" (minutes)"</span></label>
            <input id="load-step" type="text" inputmode="decimal" autocomplete="off" data-testid="load-step"
                prop:value=move || step_text.get()
                aria-invalid=field_error::invalid(step_error)
                aria-describedby=field_error::described_by("load-step", None, step_error)
                on:input=move |ev| {
                    step_text.set(event_target_value(&ev));
                    match parse_load_step(&step_text.get_untracked()) {
                    Ok(m) => { step_error.set(None); recount(kind.get_untracked(), m); }
                    Err(_) => step_error.set(Some("Each value covers must be minutes from a second (0.0167) to 10,080 (a week); the last valid step is still used.".into())),
                    }
                }
            />
            {field_error::message("load-step", step_error, "step-error")}
        </div>
    }
}

/// One field of how the fleet follows the load: its label and unit, `data-testid`, the text it
/// starts with, what an empty field means (`default`), and where a value read goes.
struct ScalingField<T> {
    label: &'static str,
    unit: &'static str,
    hook: &'static str,
    /// The `data-testid` of its message.
    error_hook: &'static str,
    start: String,
    default: &'static str,
    parse: fn(&str) -> Result<T, ValueError>,
    set: fn(&mut Scenario, T),
}

/// The minutes a replica takes to come up (`lag`) and the floor of replicas (`min_replicas`).
fn scaling_fields(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (lag, floor) =
        scenario.with_untracked(|s| (s.fleet.scaling.lag_min, s.fleet.scaling.min_replicas));
    view! {
        {scaling_field(scenario, ScalingField {
            label: "Replicas come up in",
            unit: "minutes",
            hook: "input-lag",
            error_hook: "input-lag-error",
            start: url_number(lag),
            default: "0",
            parse: parse_lag,
            set: |s, m| s.fleet.scaling.lag_min = m,
        })}
        {scaling_field(scenario, ScalingField {
            label: "At least",
            unit: "replicas",
            hook: "input-min-replicas",
            error_hook: "input-min-replicas-error",
            start: floor.to_string(),
            default: "1",
            parse: parse_min_replicas,
            set: |s, n| s.fleet.scaling.min_replicas = n,
        })}
    }
}

/// One [`ScalingField`], with its own message when its text cannot be read.
fn scaling_field<T: 'static>(scenario: RwSignal<Scenario>, f: ScalingField<T>) -> impl IntoView {
    let error = RwSignal::new(None::<String>);
    let ScalingField {
        label,
        unit,
        hook,
        error_hook,
        start,
        default,
        parse,
        set,
    } = f;
    view! {
        <div class="fleet-row">
            <label for=hook>{label}<span class="unit">{format!(" ({unit})")}</span></label>
            <input id=hook type="text" inputmode="decimal" autocomplete="off" data-testid=hook
                value=start
                aria-invalid=field_error::invalid(error)
                aria-describedby=field_error::described_by(hook, None, error)
                on:input=move |ev| match or_default(&event_target_value(&ev), default, parse) {
                    Ok(v) => { error.set(None); scenario.update(|s| set(s, v)); }
                    Err(e) => error.set(Some(format!("{label} {e}; the last valid value is still used."))),
                }
            />
            {field_error::message(hook, error, error_hook)}
        </div>
    }
}
