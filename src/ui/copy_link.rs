//! "Copy link": the page's address, which holds the whole scenario.

use leptos::prelude::*;

use crate::browser;
use crate::core::import::sources::is_local_import;
use crate::core::scenario::Scenario;
use crate::core::text::scenario_text::LOCAL_LINK_NOTE;

/// Copies the link; where the browser does not allow it, shows the link to copy by hand. On an
/// import kept in this browser, says the link opens it only here and points to "Share by link".
#[component]
pub fn CopyLink(scenario: RwSignal<Scenario>) -> impl IntoView {
    let copied = RwSignal::new(None::<bool>);
    view! {
        <div class="field share">
            <button
                type="button"
                data-testid="copy-link"
                on:click=move |_| {
                    leptos::task::spawn_local(async move {
                        let ok = browser::copy_text(&browser::href()).await;
                        copied.set(Some(ok));
                    });
                }
            >
                "Copy link"
            </button>
            <span class="hint" role="status" aria-live="polite" data-testid="copy-status">
                {move || match copied.get() {
                    Some(true) => "Link copied.",
                    Some(false) => "This browser did not allow copying; copy the link below.",
                    None => "",
                }}
            </span>
            {move || scenario.with(|s| is_local_import(s.src.as_deref())).then(|| view! {
                <p class="hint" data-testid="copy-link-local">{LOCAL_LINK_NOTE}</p>
            })}
            {move || (copied.get() == Some(false)).then(|| {
                view! {
                    <input
                        type="text"
                        readonly
                        aria-label="Link to this scenario"
                        data-testid="share-url"
                        prop:value=move || browser::link_with_query(&scenario.with(Scenario::to_query))
                        on:focus=move |ev| {
                            event_target::<web_sys::HtmlInputElement>(&ev).select();
                        }
                    />
                }
            })}
        </div>
    }
}
