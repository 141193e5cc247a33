//! Messages for URL parameters that could not be used (`data-testid="scenario-error"`).

use leptos::prelude::*;

use super::message::message;
use crate::core::scenario::ParamError;

/// At most this many messages are listed; the rest are counted.
const MAX_LISTED: usize = 8;

/// One message per parameter of the opening link that was unknown or malformed (the first
/// [`MAX_LISTED`], then a count of the rest), shown until the scenario is changed in the page.
/// Text only: values are never rendered as HTML.
#[component]
pub fn ScenarioErrors(mut errors: Vec<ParamError>, visible: Signal<bool>) -> impl IntoView {
    let unlisted = errors.len().saturating_sub(MAX_LISTED);
    errors.truncate(MAX_LISTED);
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
                                    {message(&e.to_string())}
                                </li>
                            }
                        })
                        .collect_view()}
                    {(unlisted > 0).then(|| view! {
                        <li data-testid="scenario-error-more">
                            {format!("…and {unlisted} more parts of the link that could not be used.")}
                        </li>
                    })}
                </ul>
            </div>
        }
    })
}
