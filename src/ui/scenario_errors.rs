//! Messages for URL parameters that could not be used (`data-testid="scenario-error"`).

use leptos::prelude::*;

use crate::core::scenario::ParamError;

/// One message per parameter of the opening link that was unknown or malformed, shown until
/// the scenario is changed in the page. Text only: values are never rendered as HTML.
#[component]
pub fn ScenarioErrors(errors: Vec<ParamError>, visible: Signal<bool>) -> impl IntoView {
    (!errors.is_empty()).then(|| {
        view! {
            <div class="notice warn" role="status" hidden=move || !visible.get()>
                <p>"Some parts of the link you opened could not be used; the rest of the scenario applies:"</p>
                <ul>
                    {errors
                        .into_iter()
                        .map(|e| {
                            view! {
                                <li data-testid="scenario-error" data-param=e.param>
                                    {e.message}
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </div>
        }
    })
}
