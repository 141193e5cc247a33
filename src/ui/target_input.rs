//! The per-user target: a value in tok/s per user or ms per token, and the same target in the
//! other unit.

use leptos::prelude::*;

use super::field_error;

use crate::core::model::format;
use crate::core::plan::planner::Target;
use crate::core::scenario::{parse_positive, Scenario};

/// Text for the target field: the value as entered, `{}` formatting (`25`, `12.5`).
fn target_text(target: Target) -> String {
    target.value().to_string()
}

/// The target's unit and value; a value that does not parse keeps its text and a message, and
/// the last valid target stays in use.
#[component]
pub fn TargetInput(scenario: RwSignal<Scenario>) -> impl IntoView {
    let text = RwSignal::new(scenario.with_untracked(|s| target_text(s.slo.target)));
    let error = RwSignal::new(None::<String>);
    // The last unit switch (before, after): switching straight back restores the exact value.
    let toggled = RwSignal::new(None::<(Target, Target)>);

    let on_target_input = move |ev| {
        let value = event_target_value(&ev);
        match parse_positive(&value) {
            Ok(v) => {
                error.set(None);
                scenario.update(|s| {
                    s.slo.target = match s.slo.target {
                        Target::TokensPerSecond(_) => Target::TokensPerSecond(v),
                        Target::MsPerToken(_) => Target::MsPerToken(v),
                    }
                });
            }
            Err(e) => error.set(Some(format!(
                "Target {e}; the last valid target is still used."
            ))),
        }
        text.set(value);
    };

    let set_unit = move |per_second: bool| {
        let current = scenario.with_untracked(|s| s.slo.target);
        if matches!(current, Target::TokensPerSecond(_)) == per_second {
            return;
        }
        let converted = match toggled.get_untracked() {
            Some((before, after)) if after == current => before,
            _ => current.in_other_unit(),
        };
        toggled.set(Some((current, converted)));
        error.set(None);
        text.set(target_text(converted));
        scenario.update(|s| s.slo.target = converted);
    };

    let other_unit = move || scenario.with(|s| in_other_unit(s.slo.target));

    view! {
        <fieldset class="field">
            <legend>"Per-user target"</legend>
            {unit_radios(scenario, set_unit)}
            <input
                id="target"
                type="text"
                inputmode="decimal"
                autocomplete="off"
                aria-label="Target value"
                data-testid="target-input"
                aria-invalid=field_error::invalid(error)
                aria-describedby=field_error::described_by("target", Some("target-help"), error)
                prop:value=move || text.get()
                on:input=on_target_input
            />
            <p class="hint" id="target-help" data-testid="target-other-unit">
                {other_unit}
            </p>
            {field_error::message("target", error, "target-error")}
        </fieldset>

    }
}

/// The unit switch: tok/s per user or ms per token; `set_unit(true)` switches to tok/s.
fn unit_radios(
    scenario: RwSignal<Scenario>,
    set_unit: impl Fn(bool) + Copy + 'static,
) -> impl IntoView {
    let is_tps = move || scenario.with(|s| matches!(s.slo.target, Target::TokensPerSecond(_)));
    view! {
        <div class="units" role="radiogroup" aria-label="Target unit">
            <label>
                <input
                    type="radio"
                    name="unit"
                    data-testid="unit-tps"
                    prop:checked=is_tps
                    on:change=move |_| set_unit(true)
                />
                "tok/s per user"
            </label>
            <label>
                <input
                    type="radio"
                    name="unit"
                    data-testid="unit-tpot"
                    prop:checked=move || !is_tps()
                    on:change=move |_| set_unit(false)
                />
                "ms per token"
            </label>
        </div>
    }
}

/// The same target in the other unit: "= 40 ms per output token" or "= 25 tok/s per user".
fn in_other_unit(target: Target) -> String {
    match target {
        Target::TokensPerSecond(v) => {
            format!("= {} ms per output token", format::trimmed(1000.0 / v, 4))
        }
        Target::MsPerToken(v) => format!("= {} tok/s per user", format::trimmed(1000.0 / v, 4)),
    }
}
