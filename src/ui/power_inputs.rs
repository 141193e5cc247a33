//! The power budget's fields of the fleet inputs: the budget with its unit (URL `power`), what
//! one GPU's power is read from (`power_basis`) and the host's watts per GPU (`host_w`). Drawn
//! with the fleet inputs, by their code loaded on demand.

use leptos::prelude::*;

use super::fleet_field::{optional_field, FieldLook};
use crate::core::model::format::url_number;
use crate::core::plan::power::PowerBasis;
use crate::core::scenario::{
    parse_host_w, parse_power, power_text, PowerParams, Scenario, ValueError,
};

/// The budget, its basis and the host's watts per GPU.
pub fn power_fields(scenario: RwSignal<Scenario>) -> impl IntoView {
    let (budget, host) = scenario.with_untracked(|s| {
        (
            s.fleet.power.budget_w.map(power_text),
            s.fleet.power.host_w.map(url_number),
        )
    });
    view! {
        {text_field(scenario, TextField { key: "power", label: "Power budget", unit: "W, kW, MW or GW, e.g. 1MW", parse: parse_power, set: |p, v| p.budget_w = v }, budget)}
        {basis_field(scenario)}
        {text_field(scenario, TextField { key: "host_w", label: "Host power", unit: "W per GPU, beyond the GPU", parse: parse_host_w, set: |p, v| p.host_w = v }, host)}
    }
}

/// One text field of the power's: what it is called, how its text is read and where the value
/// goes.
struct TextField {
    /// Its URL key.
    key: &'static str,
    /// Its label.
    label: &'static str,
    /// The unit shown beside it: what the text may hold where it is a power.
    unit: &'static str,
    /// Reads its text.
    parse: fn(&str) -> Result<f64, ValueError>,
    /// Sets the value read (`None`: not given).
    set: fn(&mut PowerParams, Option<f64>),
}

/// One text field, its text `initial` at first.
fn text_field(
    scenario: RwSignal<Scenario>,
    field: TextField,
    initial: Option<String>,
) -> impl IntoView {
    let TextField {
        key,
        label,
        unit,
        parse,
        set,
    } = field;
    let look = FieldLook {
        id: format!("fleet-{key}"),
        testid: format!("input-{key}"),
        label: label.to_string(),
        unit,
        decimal: false,
        gpu: None,
        initial: initial.unwrap_or_default(),
    };
    optional_field(look, parse, move |v| {
        scenario.update(|s| set(&mut s.fleet.power, v));
    })
}

/// What one GPU's power is read from: measured or rated (TDP).
fn basis_field(scenario: RwSignal<Scenario>) -> impl IntoView {
    let basis = scenario.with_untracked(|s| s.fleet.power.basis);
    view! {
        <div class="fleet-row">
            <label for="fleet-power_basis">"GPU power from"</label>
            <select
                id="fleet-power_basis"
                data-testid="input-power_basis"
                on:change=move |ev| {
                    if let Some(b) = PowerBasis::from_key(&event_target_value(&ev)) {
                        scenario.update(|s| s.fleet.power.basis = b);
                    }
                }
            >
                <option value="measured" selected=basis == PowerBasis::Measured>"measured (the GPUs alone)"</option>
                <option value="tdp" selected=basis == PowerBasis::Tdp>"rated board power (TDP)"</option>
            </select>
        </div>
    }
}
