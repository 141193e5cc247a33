//! The short "how this is computed" note: the rules of `core::text::rules`, and the data shown.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::format::counted;
use crate::core::model::source::Source;
use crate::core::text::rules::RULES;

/// A rule's text with its `backticked` names set as code.
fn with_code(text: &'static str) -> impl IntoView {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                view! { <code>{part}</code> }.into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}

/// How the recommendation and each figure are computed, and where the shown data comes from.
#[component]
pub fn Method(source: Arc<Source>) -> impl IntoView {
    view! {
        <details class="method" data-testid="method" open>
            <summary>"How this is computed"</summary>
            <ul>
                {RULES.iter().map(|rule| view! {
                    <li><strong>{rule.name}</strong>": "{with_code(rule.text)}</li>
                }).collect_view()}
                <li data-testid="method-data">
                    {let (rows, sweeps) = source.whole_counts(); format!(
                        "Data shown: {} ({}), {} of {}; see “Where these numbers come from” below. A value the data does not report is shown as “not reported”.",
                        source.task_display_name,
                        source.provenance.publisher,
                        counted(rows, "run"),
                        counted(sweeps, "deployment"),
                    )}
                </li>
            </ul>
        </details>
    }
}
