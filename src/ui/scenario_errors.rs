//! Messages for URL parameters that could not be used (`data-testid="scenario-error"`).

use leptos::prelude::*;

use crate::core::scenario::ParamError;

/// One message per parameter of the opening link that was unknown or malformed. Text only:
/// the user's values are never rendered as HTML.
#[component]
pub fn ScenarioErrors(errors: Vec<ParamError>) -> impl IntoView {
    (!errors.is_empty()).then(|| {
        view! {
            <div class="notice warn" role="status">
                <p>"Some parts of this link could not be used; the rest of the scenario applies:"</p>
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
