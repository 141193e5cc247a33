//! One optional number field of the fleet inputs (a fleet input, a price per GPU type, a power
//! budget field): its label and unit, what empty text means (not given), and a value it cannot
//! read named beside it while the last valid one stands.

use leptos::prelude::*;

use super::field_error;
use crate::core::scenario::ValueError;

/// What a field shows.
pub struct FieldLook {
    /// The input's element id.
    pub id: String,
    /// Its `data-testid`.
    pub testid: String,
    /// Its label, e.g. "GPU price"; the error message starts with it.
    pub label: String,
    /// Its unit, after the label, e.g. "$ per GPU-hour".
    pub unit: &'static str,
    /// Whether it takes a plain number (a phone shows a number pad); `false` where the text
    /// holds a unit (`1MW`).
    pub decimal: bool,
    /// The GPU type a price per type is for (`data-gpu`).
    pub gpu: Option<String>,
    /// The text it opens with (empty: not given).
    pub initial: String,
}

/// The field: text is read by `read` and the value handed to `store` (`None` for empty text);
/// text `read` refuses is named beside the field and nothing is stored.
pub fn optional_field<T: 'static>(
    look: FieldLook,
    read: impl Fn(&str) -> Result<T, ValueError> + 'static,
    store: impl Fn(Option<T>) + 'static,
) -> impl IntoView {
    let FieldLook {
        id,
        testid,
        label,
        unit,
        decimal,
        gpu,
        initial,
    } = look;
    let error = RwSignal::new(None::<String>);
    let message = field_error::message(&id, error, "field-error");
    view! {
        <div class="fleet-row">
            <label for=id.clone()>{label.clone()}<span class="unit">{format!(" ({unit})")}</span></label>
            <input
                id=id.clone()
                type="text"
                inputmode=decimal.then_some("decimal")
                autocomplete="off"
                data-testid=testid
                data-gpu=gpu
                value=initial
                aria-invalid=field_error::invalid(error)
                aria-describedby=field_error::described_by(&id, None, error)
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    let parsed = if text.trim().is_empty() { Ok(None) } else { read(&text).map(Some) };
                    match parsed {
                        Ok(v) => {
                            error.set(None);
                            store(v);
                        }
                        Err(e) => error.set(Some(format!("{label} {e}; the last valid value is still used."))),
                    }
                }
            />
            {message}
        </div>
    }
}
