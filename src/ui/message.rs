//! A message as the page shows it: its `code` spans as code (`core::text::code_spans`), every
//! part as text, never as HTML.

use leptos::prelude::*;

use crate::core::text::code_spans::code_spans;

/// `text` with its backticked parts drawn as `<code>`; the backticks stay in the text (so it
/// reads and copies as written) but are not shown.
pub fn message(text: &str) -> impl IntoView {
    code_spans(text)
        .into_iter()
        .map(|(code, part)| {
            let part = part.to_string();
            if code {
                view! { <code><span class="backtick">"`"</span>{part}<span class="backtick">"`"</span></code> }
                    .into_any()
            } else {
                part.into_any()
            }
        })
        .collect_view()
}
