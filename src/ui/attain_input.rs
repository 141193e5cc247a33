//! The share of requests that must each meet the SLO (`attain`): shown where the deployment's
//! sweep has per-request records, or a link asks for it.

use leptos::prelude::*;

use super::field_error;

use crate::core::model::format;
use crate::core::scenario::{parse_attain, Scenario};

/// A percentage field: empty judges the level's statistic; 50 to 100 judges each request. A
/// value that does not parse keeps its text and a message, and the last valid share stays in
/// use.
#[component]
pub fn AttainInput(scenario: RwSignal<Scenario>, records: Memo<bool>) -> impl IntoView {
    let text = RwSignal::new(
        scenario.with_untracked(|s| s.slo.attain.map(format::url_number).unwrap_or_default()),
    );
    let error = RwSignal::new(None::<String>);
    let on_input = move |ev| {
        let value = event_target_value(&ev);
        let parsed = match value.trim() {
            "" => Ok(None),
            _ => parse_attain(&value).map(Some),
        };
        match parsed {
            Ok(p) => {
                error.set(None);
                scenario.update(|s| s.slo.attain = p);
            }
            Err(e) => error.set(Some(format!(
                "The share {e}; the last valid share is still used."
            ))),
        }
        text.set(value);
    };
    // Once shown it stays: emptying the field (attain gone) must not take it away mid-edit.
    let shown = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || records.get() || scenario.with(|s| s.slo.attain.is_some())
    });
    move || {
        shown.get().then(|| {
            view! {
                <div class="field">
                    <label for="attain">"Judge each request: % that must meet the target and TTFT and end-to-end limits (optional)"</label>
                    <input
                        id="attain"
                        type="text"
                        inputmode="decimal"
                        autocomplete="off"
                        data-testid="attain-input"
                        aria-invalid=field_error::invalid(error)
                        aria-describedby=field_error::described_by("attain", None, error)
                        prop:value=move || text.get()
                        on:input=on_input
                    />
                    {field_error::message("attain", error, "attain-error")}
                </div>
            }
        })
    }
}
