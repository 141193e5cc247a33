//! The import panel: the user's own sweeps from files, a folder or pasted text, and what the
//! last import did. Reading is the tools module's (`tools_client`), and so are the sentences it
//! leaves (`core::import::summary::shown`).

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::message::message;
use super::registry::{Imported, Registry};
use crate::browser::{self, PageText};
use crate::core::import::pasted_name;
use crate::core::import::summary::{Shown, IMPORTED_AGAIN};
use crate::core::model::format::counted;
use crate::core::wire::handoff::ImportReply;
use crate::on_demand::{self, Drawn, Failed, Holder};
use crate::tools_client;

/// The progress line of an import of `count` files as it starts.
fn reading(count: usize) -> String {
    format!("Reading {}…", counted(count, "file"))
}

/// What the panel says of an import, and the source it is about: shown while that source is.
#[derive(Clone)]
struct Told {
    /// The source the message is about: the import, or (nothing imported) the one shown.
    about: String,
    /// The same files were imported before.
    again: bool,
    /// What the import did.
    shown: Shown,
}

/// Imports `files` with the dialog's `model`, showing progress in `working` under a number of
/// its own (an import that ends while a later one runs leaves the later one's line); adds the
/// import to `registry` and keeps it; returns what the import did, in the panel's words. The
/// tools module checks the files' sizes before it reads them: a file over the limits is never
/// read.
async fn import(
    registry: Registry,
    files: Vec<(String, PageText)>,
    model: Option<String>,
    working: RwSignal<Option<(u32, String)>>,
) -> Told {
    let mine = working.with_untracked(|w| w.as_ref().map_or(0, |(n, _)| n.wrapping_add(1)));
    let count = files.len();
    working.set(Some((mine, reading(count))));
    let (names, texts): (Vec<String>, Vec<PageText>) = files.into_iter().unzip();
    let progress = browser::Progress::new(move |read: String| {
        working.update(|w| {
            if w.as_ref().is_some_and(|(n, _)| *n == mine) {
                *w = Some((mine, format!("{} {read}", reading(count))));
            }
        });
    });
    let reply = tools_client::import_files(&names, &texts, model.as_deref(), &progress).await;
    working.update(|w| {
        if w.as_ref().is_some_and(|(n, _)| *n == mine) {
            *w = None;
        }
    });
    match reply {
        Ok(ImportReply {
            id,
            source: Some(source),
            mut shown,
            read,
            bytes_read,
        }) => {
            let (names, texts): (Vec<String>, Vec<PageText>) = names
                .into_iter()
                .zip(texts)
                .zip(read)
                .filter_map(|(file, read)| read.then_some(file))
                .unzip();
            // The sweeps are shown in a task of their own, after the one that read the reply.
            browser::next_task().await;
            let imported = Imported {
                id: id.clone(),
                names,
                texts,
                bytes: bytes_read,
                model: model.clone(),
                source,
            };
            let (again, note) = registry.add_import(imported).await;
            if let Some(note) = note {
                shown.summary = format!("{} {note}", shown.summary);
            }
            Told {
                about: id,
                again,
                shown,
            }
        }
        Ok(ImportReply { shown, .. }) => Told {
            about: registry.current.get_untracked(),
            again: false,
            shown,
        },
        Err(e) => Told {
            about: registry.current.get_untracked(),
            again: false,
            shown: Shown {
                summary: format!("Nothing imported: {e}."),
                outcome_line: format!("Failed: {e}."),
                ..Shown::default()
            },
        },
    }
}

/// The import panel: folded at first; the first time it is opened, its code (loaded on demand)
/// draws its inputs into it, and what the last import did beneath it ([`inputs`], [`outcome`]).
/// `share_note` is the picker's share message, cleared when an import starts.
#[component]
pub fn ImportPanel(registry: Registry, share_note: RwSignal<String>) -> impl IntoView {
    let opened = on_demand::on_unfold(
        false,
        Holder {
            id: INPUTS,
            lost: "Nothing can be imported",
        },
        move |owner| panel_view(owner, registry, share_note),
    );
    view! {
        <details class="import" on:toggle=move |_| opened()>
            <summary>"Import your own sweep"</summary>
            <div id=INPUTS>"Loading…"</div>
        </details>
        <div id=OUTCOME></div>
    }
}

/// The ids of the elements the panel's inputs and its outcome are drawn into.
const INPUTS: &str = "import-inputs";
const OUTCOME: &str = "import-outcome";

/// Draws the panel's inputs and outcome into their elements under `owner`
/// ([`on_demand::under`]), with the code that reads, summarises and keeps an import (loaded on
/// demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(
    owner: Option<Owner>,
    registry: Registry,
    share_note: RwSignal<String>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::under(owner, || {
        let outcome = RwSignal::new(None::<Told>);
        // What the tools module's worker is reading now; the planner stays usable meanwhile.
        let working = RwSignal::new(None::<(u32, String)>);
        let drawn = (
            on_demand::mount_in(INPUTS, move || {
                inputs(registry, share_note, outcome, working)
            })?,
            on_demand::mount_in(OUTCOME, move || outcome_view(registry, outcome, working))?,
        );
        Some(Box::new(drawn) as Drawn)
    }))
}

/// The inputs: files, a folder or pasted text, read by the tools module off the page's thread
/// ([`import`]); what an import did goes to `outcome`, its progress to `working`.
fn inputs(
    registry: Registry,
    share_note: RwSignal<String>,
    outcome: RwSignal<Option<Told>>,
    working: RwSignal<Option<(u32, String)>>,
) -> impl IntoView {
    let pasted = RwSignal::new(String::new());
    let model_hint = RwSignal::new(String::new());

    let run_import = move |files: Vec<(String, PageText)>| async move {
        if files.is_empty() {
            return;
        }
        share_note.set(String::new());
        let hint = model_hint.get_untracked();
        let model = Some(hint.trim().to_string()).filter(|m| !m.is_empty());
        let done = import(registry, files, model, working).await;
        outcome.try_set(Some(done));
    };
    let import_list = move |list: Vec<web_sys::File>| {
        leptos::task::spawn_local(run_import(browser::picked_files(list)));
    };
    // A file input's pick (files or a folder), cleared so that picking the same again imports again.
    let import_picked = move |ev: leptos::ev::Event| {
        let input = event_target::<web_sys::HtmlInputElement>(&ev);
        import_list(browser::files_of(input.files()));
        input.set_value("");
    };

    view! {
                    <p class="hint">
                        "Results of ML.ENERGY, vLLM bench serve (files, sweep folders, multi-turn), SGLang bench_serving, AIPerf / GenAI-Perf, GuideLLM, inference-perf, LLMPerf, LMBench, InferenceX and EvalScope, or the README's CSV template: select all files of a run, or its folder. Files are read in this browser and never uploaded; runs that differ in any stated field become separate sweeps."
                    </p>
                    <label for="import-model">"Model, for files that do not name one (optional)"</label>
                    <input
                        id="import-model"
                        type="text"
                        autocomplete="off"
                        data-testid="import-model"
                        prop:value=move || model_hint.get()
                        on:input=move |ev| model_hint.set(event_target_value(&ev))
                    />
                    <label class="drop" data-testid="import-drop"
                        on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
                        on:drop=move |ev: leptos::ev::DragEvent| {
                            ev.prevent_default();
                            import_list(browser::files_of(ev.data_transfer().and_then(|d| d.files())));
                        }
                    >
                        "Drop files here, or choose: "
                        <input
                            type="file"
                            multiple
                            data-testid="import-file"
                            on:change=import_picked
                        />
                    </label>
                    <label class="drop">
                        "Or a whole folder (e.g. a vllm bench sweep or EvalScope output): "
                        <input
                            type="file"
                            prop:webkitdirectory=true
                            data-testid="import-folder"
                            on:change=import_picked
                        />
                    </label>
                    <label for="paste">"Or paste a file's text"</label>
                    <textarea
                        id="paste"
                        rows="3"
                        data-testid="import-paste"
                        prop:value=move || pasted.get()
                        on:input=move |ev| pasted.set(event_target_value(&ev))
                    ></textarea>
                    <button
                        type="button"
                        data-testid="import-paste-button"
                        on:click=move |_| {
                            // Empty text too: the import says it is empty.
                            let text = pasted.get_untracked();
                            let name = pasted_name(&browser::clock_time(), &text);
                            leptos::task::spawn_local(run_import(vec![(name, PageText::of(&text))]));
                        }
                    >
                        "Import pasted text"
                    </button>
    }
}

/// What the import does now (`working`) and what the last one did (`outcome`), while the source
/// it is about is shown: its outcome at a glance (complete, partial or failed, with its counts),
/// its summary, warnings and problems.
fn outcome_view(
    registry: Registry,
    outcome: RwSignal<Option<Told>>,
    working: RwSignal<Option<(u32, String)>>,
) -> impl IntoView {
    let current = move || {
        outcome
            .get()
            .filter(|t| registry.current.with(|c| *c == t.about))
    };
    // Another source shown (or the import removed): the message about the one before goes.
    Effect::new(move |_| {
        let shown = registry.current.get();
        if outcome.with_untracked(|o| o.as_ref().is_some_and(|t| t.about != shown)) {
            outcome.set(None);
        }
    });
    view! {
            {move || working.get().map(|(_, w)| view! {
                <p class="hint" role="status" data-testid="import-progress">{w}</p>
            })}
            {move || current().map(|Told { again, shown: o, .. }| view! {
                <div
                    class=format!("notice outcome-{}", o.outcome.hook())
                    role="status"
                    data-testid="import-outcome"
                    data-value=o.outcome.hook()
                >
                    <p data-testid="import-outcome-line"><strong>{o.outcome_line}</strong></p>
                    {again.then(|| view! { <p data-testid="import-again">{IMPORTED_AGAIN}</p> })}
                    <p data-testid="import-summary">{message(&o.summary)}</p>
                    {(!o.warnings.is_empty()).then(|| view! {
                        <ul class="import-warnings">
                            {o.warnings.into_iter().map(|(kind, text)| view! {
                                <li class="warn" data-testid="import-warning" data-kind=kind>
                                    {message(&format!("Warning: {text}"))}
                                </li>
                            }).collect_view()}
                        </ul>
                    })}
                    {(!o.problems.is_empty()).then(|| view! {
                        <ul class="import-errors">
                            {o.problems.into_iter().map(|(file, located)| view! {
                                <li data-testid="import-error" data-file=file>{message(&located)}</li>
                            }).collect_view()}
                        </ul>
                    })}
                </div>
            })}
    }
}
