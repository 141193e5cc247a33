//! The source picker: which data the planner reads (bundled workloads, the reference systems,
//! imports, a shared sweep), and for an import the buttons to remove it or share it by link.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::registry::{Registry, State};
use crate::browser;
use crate::core::model::source::Source;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

/// Shares `source` by link: its `#sweep=` payload (`tools_client::share_encode`) put in the
/// address bar; what "Share by link" says of it, with the code that asks for it, loaded on
/// demand.
#[wasm_split(on_demand, fallible)]
fn share_job(source: Arc<Source>) -> Result<Job<String>, Failed> {
    let records = source.sweeps.iter().any(|sw| sw.has_request_records());
    Ok(Box::pin(async move {
        match tools_client::share_encode(source).await {
            Ok(packed) => {
                browser::replace_fragment(&format!("#sweep={packed}"));
                format!(
                    "The address bar now holds this sweep (after #sweep=, never sent to a server): copy it to share.{}",
                    if records { format!(" {}", crate::core::import::share::NO_RECORDS) } else { String::new() }
                )
            }
            Err(e) => format!("Not shared: {e}"),
        }
    }))
}

/// The "Data" menu, and for the import shown its remove and share buttons; `share_note` says
/// what "Share by link" did (an import clears it).
#[component]
pub fn SourcePicker(registry: Registry, share_note: RwSignal<String>) -> impl IntoView {
    let current_imported = move || {
        let id = registry.current.get();
        registry.entries.with(|e| {
            e.iter()
                .find(|x| x.id == id && x.files.is_some())
                .map(|x| x.id.clone())
        })
    };

    // What "Share by link" did is about the import shown: it goes when another is.
    Effect::new(move |was: Option<String>| {
        let shown = registry.current.get();
        if was.is_some_and(|w| w != shown) {
            share_note.set(String::new());
        }
        shown
    });

    view! {
            <div class="field">
                <label for="source">"Data"</label>
                <select
                    id="source"
                    data-testid="source-select"
                    on:change=move |ev| registry.switch(&event_target_value(&ev))
                >
                    {move || {
                        let current = registry.current.get();
                        registry
                            .entries
                            .get()
                            .into_iter()
                            .map(|e| {
                                let selected = e.id == current;
                                view! {
                                    <option value=e.id.clone() selected=selected>{e.label}</option>
                                }
                            })
                            .collect_view()
                    }}
                </select>
            </div>
            {move || current_imported().map(|id| {
                let remove_id = id.clone();
                view! {
                    <div class="source-actions">
                        <button type="button" data-testid="source-remove" on:click=move |_| registry.remove(&remove_id)>
                            "Remove this import"
                        </button>
                        <button
                            type="button"
                            data-testid="source-share"
                            on:click=move |_| {
                                let source = registry.state_of(&id);
                                leptos::task::spawn_local(async move {
                                    let note = match source {
                                        Some(State::Ready(s)) => on_demand::finished(share_job(s))
                                            .await
                                            .unwrap_or_else(|Failed(e)| format!("Not shared: {e}")),
                                        _ => "Not shared: the sweep is not loaded.".to_string(),
                                    };
                                    share_note.set(note);
                                });
                            }
                        >
                            "Share by link"
                        </button>
                    </div>
                }
            })}
            <p class="hint" role="status" data-testid="share-status">{move || share_note.with(|n| super::message::message(n))}</p>
    }
}
