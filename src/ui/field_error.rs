//! A field's error, linked to its field: the message has the id `{field}-error`, and the field is
//! described by it (`aria-describedby`, after its help if any) and marked `aria-invalid` while it
//! is shown, so a screen reader hears it when the field is focused.

use leptos::prelude::*;

/// The id of the message of the field with the id `field`.
fn error_id(field: &str) -> String {
    format!("{field}-error")
}

/// The field's `aria-describedby`: its help (`help`, an element's id) and its message while
/// there is one; `None` when neither.
pub fn described_by(
    field: &str,
    help: Option<&'static str>,
    error: RwSignal<Option<String>>,
) -> impl Fn() -> Option<String> + Send + Sync + 'static {
    let id = error_id(field);
    move || {
        let shown = error.with(Option::is_some).then_some(id.as_str());
        let ids: Vec<&str> = help.into_iter().chain(shown).collect();
        (!ids.is_empty()).then(|| ids.join(" "))
    }
}

/// The field's `aria-invalid`: "true" while its message is shown.
pub fn invalid(error: RwSignal<Option<String>>) -> impl Fn() -> String + Send + Sync + 'static {
    move || error.with(Option::is_some).to_string()
}

/// The message of the field with the id `field`, while there is one (`hook`: its
/// `data-testid`).
pub fn message(field: &str, error: RwSignal<Option<String>>, hook: &'static str) -> impl IntoView {
    let id = error_id(field);
    move || {
        error.get().map(|e| {
            view! { <p class="field-error" role="alert" id=id.clone() data-testid=hook>{super::message::message(&e)}</p> }
        })
    }
}
