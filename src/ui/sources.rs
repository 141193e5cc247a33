//! Sources: the bundled workloads, imported file sets and a sweep shared by link; the source
//! picker and the import panel. Parsing is `core::import`; this module only wires it.

use leptos::prelude::*;

use crate::browser;
use crate::browser::{PageText, ToolArg};
use crate::core::bundled::lm_arena_chat;
use crate::core::handoff::{self, ImportReply, StoredSource};
use crate::core::import::{admit, files_label, Format, Problem, Warning};
use crate::core::reference::reference;
use crate::core::scenario::Scenario;
use crate::core::sources::{
    shared_payload, storage_key, workload, LegacySplit, DEFAULT_SOURCE, LEGACY_STORAGE_KEY,
    MAX_STORED_BYTES, REFERENCE_SOURCE, SHARED_SOURCE, STORAGE_PREFIX, WORKLOADS,
};
use crate::core::sweep::Source;

/// Keeps a source for the rest of the page's life. Sources are small and few (the bundled
/// workloads and what the user imports), and the planner's components hold plain references.
fn keep(source: Source) -> &'static Source {
    Box::leak(Box::new(source))
}

/// Where a source's data stands.
#[derive(Clone, Debug, PartialEq)]
pub enum State {
    /// Parsed and ready.
    Ready(&'static Source),
    /// A bundled workload not fetched yet.
    NotLoaded,
    /// Being fetched.
    Loading,
    /// Could not be loaded; the message says why.
    Failed(String),
}

/// One source in the picker.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// URL `src` value.
    pub id: String,
    /// Menu label.
    pub label: String,
    /// For imports: the file names.
    pub files: Option<Vec<String>>,
    /// Data state.
    pub state: State,
}

/// The page's sources and which one is shown.
#[derive(Clone, Copy)]
pub struct Registry {
    /// All sources.
    pub entries: RwSignal<Vec<Entry>>,
    /// The `src` shown.
    pub current: RwSignal<String>,
    /// The query the planner starts from when it (re)mounts.
    pub start_query: StoredValue<String>,
    /// After a switch of source, the query of the scenario shown before it, whose SLO the
    /// planner of the new source takes over when it mounts.
    carried_from: StoredValue<Option<String>>,
    /// The query the page was opened with.
    opening_query: StoredValue<String>,
    /// Messages about the link or storage (unknown `src`, damaged `#sweep=`).
    pub notices: RwSignal<Vec<String>>,
}

fn imported_label(source: &Source, files: &[String]) -> String {
    let sweeps = source.sweeps.len();
    format!(
        "imported: {} ({} sweep{})",
        files_label(files),
        sweeps,
        if sweeps == 1 { "" } else { "s" }
    )
}

/// Calls the tools module and decodes its answer (see `core::handoff`).
async fn tools<T: serde::de::DeserializeOwned>(
    name: &str,
    args: &[ToolArg<'_>],
) -> Result<T, String> {
    handoff::decode(&browser::call_tools(name, args).await?)
}

/// The picker entry of an import.
fn stored_entry(stored: StoredSource) -> Entry {
    Entry {
        id: stored.id,
        label: imported_label(&stored.source, &stored.files),
        files: Some(stored.files),
        state: State::Ready(keep(stored.source)),
    }
}

impl Registry {
    /// Builds the registry from the bundled workloads and the opening link. Imports kept in
    /// local storage and a sweep in the link's `#sweep=` are read by the tools module: a link
    /// to either shows it once read; otherwise stored imports join the picker after the first
    /// paint.
    pub fn load(query: &str, fragment: &str) -> Registry {
        let mut entries: Vec<Entry> = WORKLOADS
            .iter()
            .map(|w| Entry {
                id: w.id.to_string(),
                label: w.label.to_string(),
                files: None,
                state: match w.path {
                    None => State::Ready(lm_arena_chat()),
                    Some(_) => State::NotLoaded,
                },
            })
            .collect();
        entries.push(Entry {
            id: REFERENCE_SOURCE.to_string(),
            label: "Reference systems (Databricks' MPT-7B on A100, illustrative Llama 70B on H100)"
                .to_string(),
            files: None,
            state: State::Ready(reference()),
        });
        let wanted = crate::core::sources::src_of(query);
        let payload = shared_payload(fragment).map(str::to_string);
        if payload.is_some() {
            entries.push(Entry {
                id: SHARED_SOURCE.to_string(),
                label: "shared by link (reading…)".to_string(),
                files: None,
                state: State::Loading,
            });
        }
        // A link to an import: its entry waits for local storage.
        let linked_import = wanted
            .clone()
            .filter(|id| workload(id).is_none() && id != REFERENCE_SOURCE && id != SHARED_SOURCE);
        if let Some(id) = &linked_import {
            entries.push(Entry {
                id: id.clone(),
                label: format!("imported: {id} (reading…)"),
                files: Some(Vec::new()),
                state: State::Loading,
            });
        }
        let mut notices = Vec::new();
        let has = |id: &str| entries.iter().any(|e| e.id == id);
        let current = match wanted.clone() {
            Some(id) if has(&id) => id,
            Some(_) if has(SHARED_SOURCE) => SHARED_SOURCE.to_string(),
            Some(id) if id == SHARED_SOURCE => {
                notices.push(
                    "`src` \"shared\": this link holds no shared sweep (its `#sweep=` part is missing or empty, perhaps cut off when copied); showing the bundled data."
                        .to_string(),
                );
                DEFAULT_SOURCE.to_string()
            }
            Some(id) => {
                notices.push(format!(
                    "`src` \"{}\" is not a source on this page; showing the bundled data.",
                    id.chars().take(40).collect::<String>()
                ));
                DEFAULT_SOURCE.to_string()
            }
            None if has(SHARED_SOURCE) => SHARED_SOURCE.to_string(),
            None => DEFAULT_SOURCE.to_string(),
        };
        // The planner reads `src` from its start query; keep the rest of the opening link.
        let start = if wanted.as_deref() == Some(current.as_str())
            || wanted.is_none() && current == DEFAULT_SOURCE
        {
            query.to_string()
        } else if current == DEFAULT_SOURCE {
            crate::core::sources::without_src(query)
        } else {
            format!("src={current}&{}", crate::core::sources::without_src(query))
        };
        let registry = Registry {
            entries: RwSignal::new(entries),
            current: RwSignal::new(current.clone()),
            start_query: StoredValue::new(start),
            carried_from: StoredValue::new(None),
            opening_query: StoredValue::new(query.to_string()),
            notices: RwSignal::new(notices),
        };
        registry.ensure_loaded(&current);
        if let Some(payload) = payload {
            leptos::task::spawn_local(async move {
                let decoded =
                    tools::<Result<Source, String>>("share_decode", &[ToolArg::Text(&payload)])
                        .await
                        .and_then(|r| r);
                match decoded {
                    Ok(source) => registry.set_entry(
                        SHARED_SOURCE,
                        Some(format!("shared by link: {}", source.task_display_name)),
                        State::Ready(keep(source)),
                    ),
                    Err(e) => registry.give_up(
                        SHARED_SOURCE,
                        Some(format!("`#sweep` {e}; the link's sweep is not shown.")),
                    ),
                }
            });
        }
        let read_now = linked_import.as_deref() == Some(current.as_str());
        let read_stored = move || {
            leptos::task::spawn_local(async move {
                let unreadable = registry.read_stored_imports().await;
                if unreadable > 0 {
                    registry.notices.update(|n| {
                        n.push(format!(
                            "{unreadable} stored import{} could not be read; {} left as {} in this browser's storage.",
                            if unreadable == 1 { "" } else { "s" },
                            if unreadable == 1 { "it is" } else { "they are" },
                            if unreadable == 1 { "it is" } else { "they are" },
                        ))
                    });
                }
                if let Some(id) = linked_import {
                    if registry.state_of(&id) == Some(State::Loading) {
                        let id_shown = id.chars().take(40).collect::<String>();
                        registry.give_up(
                            &id,
                            Some(format!(
                                "`src` \"{id_shown}\" is not a source on this page (an import from another browser?); showing the bundled data."
                            )),
                        );
                    }
                }
            });
            // Another tab's import joins the menu; one it removes leaves it.
            browser::on_storage_change(STORAGE_PREFIX, move |key, value| {
                let id = key[STORAGE_PREFIX.len()..].to_string();
                match value {
                    Some(text) => leptos::task::spawn_local(async move {
                        if let Ok(Ok(stored)) = tools::<Result<StoredSource, String>>(
                            "stored_source",
                            &[ToolArg::Page(&text)],
                        )
                        .await
                        {
                            registry.add_stored(stored);
                        }
                    }),
                    None => {
                        if registry.current.get_untracked() != id {
                            registry.entries.update(|e| e.retain(|x| x.id != id));
                        }
                    }
                }
            });
        };
        if read_now {
            read_stored();
        } else {
            browser::after_paint(read_stored);
        }
        registry
    }

    /// Reads the imports kept in local storage, one key at a time, each in the tools module's
    /// worker, and adds those that read to the menu. Imports an earlier version kept in one
    /// array move to their own keys first; what cannot be read is left as it is. Returns how
    /// many stored imports could not be read.
    async fn read_stored_imports(&self) -> usize {
        let mut unreadable = 0;
        if let Some(legacy) = browser::storage_get_text(LEGACY_STORAGE_KEY) {
            match tools::<Result<LegacySplit, String>>(
                "split_legacy_imports",
                &[ToolArg::Page(&legacy)],
            )
            .await
            {
                Ok(Ok(split)) => {
                    let moved = split
                        .entries
                        .iter()
                        .all(|(id, text)| browser::storage_set(&storage_key(id), text));
                    if moved {
                        match &split.rest {
                            Some(rest) => {
                                browser::storage_set(LEGACY_STORAGE_KEY, rest);
                            }
                            None => browser::storage_remove(LEGACY_STORAGE_KEY),
                        }
                    }
                    unreadable += split.unreadable;
                }
                _ => unreadable += 1,
            }
        }
        for key in browser::storage_keys(STORAGE_PREFIX) {
            let Some(text) = browser::storage_get_text(&key) else {
                continue;
            };
            match tools::<Result<StoredSource, String>>("stored_source", &[ToolArg::Page(&text)])
                .await
            {
                Ok(Ok(stored)) => self.add_stored(stored),
                _ => unreadable += 1,
            }
        }
        unreadable
    }

    /// Adds a stored import to the menu (or fills in the entry a link to it is waiting on).
    fn add_stored(&self, stored: StoredSource) {
        self.entries
            .update(|e| match e.iter_mut().find(|x| x.id == stored.id) {
                // Waiting for it (a link to it), or imported again meanwhile.
                Some(x) if x.state == State::Loading => *x = stored_entry(stored),
                Some(_) => {}
                None => e.push(stored_entry(stored)),
            });
    }

    /// The shown source, if ready.
    pub fn state_of(&self, id: &str) -> Option<State> {
        self.entries
            .with(|e| e.iter().find(|x| x.id == id).map(|x| x.state.clone()))
    }

    fn set_state(&self, id: &str, state: State) {
        self.set_entry(id, None, state);
    }

    /// Sets a source's state, and its menu label when given.
    fn set_entry(&self, id: &str, label: Option<String>, state: State) {
        self.entries.update(|e| {
            if let Some(x) = e.iter_mut().find(|x| x.id == id) {
                if let Some(label) = label {
                    x.label = label;
                }
                x.state = state;
            }
        });
    }

    /// Drops a source that could not be read, with a notice; if it was shown, shows the shared
    /// sweep (a link made on another machine names its own import id: the fragment stands in)
    /// or else the bundled data, keeping the rest of the opening link.
    fn give_up(&self, id: &str, notice: Option<String>) {
        self.entries.update(|e| e.retain(|x| x.id != id));
        if self.current.get_untracked() != id {
            if let Some(n) = notice {
                self.notices.update(|all| all.push(n));
            }
            return;
        }
        self.carried_from.set_value(None);
        let rest = crate::core::sources::without_src(&self.opening_query.get_value());
        if id != SHARED_SOURCE && self.state_of(SHARED_SOURCE).is_some() {
            self.start_query
                .set_value(format!("src={SHARED_SOURCE}&{rest}"));
            self.current.set(SHARED_SOURCE.to_string());
        } else {
            if let Some(n) = notice {
                self.notices.update(|all| all.push(n));
            }
            self.start_query.set_value(rest);
            self.current.set(DEFAULT_SOURCE.to_string());
        }
    }

    /// The query the planner of `source` (the current one, ready) starts from; after a switch,
    /// with the SLO carried over (see [`Scenario::with_slo_of`]), kept for later re-mounts.
    pub fn planner_query(&self, source: &Source) -> String {
        if let Some(previous) = self.carried_from.try_update_value(Option::take).flatten() {
            let start = self.start_query.get_value();
            self.start_query
                .set_value(Scenario::with_slo_of(&start, &previous, source).to_query());
        }
        self.start_query.get_value()
    }

    /// Starts fetching a bundled workload the first time it is shown.
    pub fn ensure_loaded(&self, id: &str) {
        // A failed load is tried again when the source is shown again.
        if !matches!(self.state_of(id), Some(State::NotLoaded | State::Failed(_))) {
            return;
        }
        let Some(path) = workload(id).and_then(|w| w.path) else {
            return;
        };
        self.set_state(id, State::Loading);
        // The file and the tools module that parses it are fetched side by side.
        browser::start_loading_tools();
        let (registry, id) = (*self, id.to_string());
        leptos::task::spawn_local(async move {
            let state = match browser::fetch_text(path).await {
                Ok(text) => {
                    match tools::<Result<Source, String>>(
                        "parse_task_file",
                        &[ToolArg::Text(&text)],
                    )
                    .await
                    {
                        Ok(Ok(source)) => State::Ready(keep(source)),
                        Ok(Err(e)) => State::Failed(format!("{path} is not a task file: {e}")),
                        Err(e) => State::Failed(e),
                    }
                }
                Err(e) => State::Failed(e),
            };
            registry.set_state(&id, state);
        });
    }

    /// Shows another source: its default deployment, planned for the SLO shown now.
    pub fn switch(&self, id: &str) {
        self.start_query.set_value(if id == DEFAULT_SOURCE {
            String::new()
        } else {
            format!("src={id}")
        });
        self.carried_from.set_value(Some(browser::query()));
        self.ensure_loaded(id);
        self.current.set(id.to_string());
    }

    /// Adds (or replaces) an imported source, shows it, and keeps it in storage; says so when
    /// it could not be kept.
    async fn add_import(
        &self,
        id: String,
        names: &[String],
        texts: &[PageText],
        model: Option<String>,
        source: Source,
    ) -> Option<String> {
        let names = names.to_vec();
        let entry = stored_entry(StoredSource {
            id: id.clone(),
            files: names.clone(),
            source,
        });
        self.entries.update(|e| {
            e.retain(|x| x.id != id);
            e.push(entry);
        });
        self.switch(&id);
        // Larger than local storage holds: not sent there (nor back and forth through the page).
        let bytes: usize = texts.iter().map(PageText::size_hint).sum();
        if bytes > MAX_STORED_BYTES {
            return Some(format!(
                "Not kept for your next visit: its files come to {:.2} MB, over the {} MB this page keeps in the browser's storage.",
                bytes as f64 / (1024.0 * 1024.0),
                MAX_STORED_BYTES / (1024 * 1024)
            ));
        }
        // Each import under its own key: another tab's write never erases this one.
        let entry = browser::call_tools_text(
            "store_entry",
            &[
                ToolArg::Text(&id),
                ToolArg::Texts(&names),
                ToolArg::Pages(texts),
                ToolArg::MaybeText(model.as_deref()),
            ],
        )
        .await;
        let saved = entry.is_ok_and(|t| browser::storage_set_text(&storage_key(&id), &t));
        (!saved).then(|| {
            "Not kept for your next visit: the browser's storage is off or full.".to_string()
        })
    }

    /// Removes an imported source (from the page and from storage).
    pub fn remove(&self, id: &str) {
        self.entries.update(|e| e.retain(|x| x.id != id));
        if self.current.get_untracked() == id {
            self.switch(DEFAULT_SOURCE);
        }
        browser::storage_remove(&storage_key(id));
    }
}

/// What the last import did.
#[derive(Clone, Debug, PartialEq)]
struct Outcome {
    summary: String,
    problems: Vec<Problem>,
    warnings: Vec<Warning>,
}

/// "Read 3 files (2 as vLLM bench serve JSON, 1 not usable; 1 not read: too large):
/// imported 1 sweep with 8 rows; see the 2 messages below."
fn summarize(
    formats: &[(String, Option<Format>)],
    too_large: usize,
    source: Option<&Source>,
    messages: usize,
) -> String {
    let mut by_format: Vec<(&str, usize)> = Vec::new();
    for (_, f) in formats {
        let label = f.map_or("not usable", Format::label);
        match by_format.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => by_format.push((label, 1)),
        }
    }
    let mut read = by_format
        .iter()
        .map(|(l, n)| {
            if *l == "not usable" {
                format!("{n} not usable")
            } else {
                format!("{n} as {l}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    if too_large > 0 {
        read.push_str(&format!("; {too_large} not read: too large"));
    }
    let result = match source {
        Some(s) => format!(
            "imported {} sweep{} with {} row{}",
            s.sweeps.len(),
            if s.sweeps.len() == 1 { "" } else { "s" },
            s.row_count(),
            if s.row_count() == 1 { "" } else { "s" }
        ),
        None => "nothing imported: no usable row, nothing changed".to_string(),
    };
    let messages = match messages {
        0 => String::new(),
        1 => "; see the message below".to_string(),
        n => format!("; see the {n} messages below"),
    };
    let files = formats.len() + too_large;
    format!(
        "Read {files} file{} ({read}): {result}{messages}.",
        if files == 1 { "" } else { "s" }
    )
}

/// Source picker and import panel.
#[component]
pub fn SourcePanel(registry: Registry) -> impl IntoView {
    let outcome = RwSignal::new(None::<Outcome>);
    let share_note = RwSignal::new(String::new());
    let pasted = RwSignal::new(String::new());
    let model_hint = RwSignal::new(String::new());
    // What the tools module's worker is reading now; the planner stays usable meanwhile.
    let working = RwSignal::new(None::<String>);

    let run_import = move |files: Vec<(String, PageText)>| async move {
        if files.is_empty() {
            return;
        }
        share_note.set(String::new());
        // Sizes first: a file over the limits is never read.
        let sizes: Vec<(&str, usize)> = files
            .iter()
            .map(|(name, text)| (name.as_str(), text.size_hint()))
            .collect();
        let (admitted, refused) = admit(&sizes);
        let files: Vec<(String, PageText)> = files
            .into_iter()
            .zip(admitted)
            .filter_map(|(file, admitted)| admitted.then_some(file))
            .collect();
        if files.is_empty() {
            outcome.set(Some(Outcome {
                summary: "Nothing imported: the files are larger than one import reads.".into(),
                problems: refused,
                warnings: Vec::new(),
            }));
            return;
        }
        let bytes: usize = files.iter().map(|(_, text)| text.size_hint()).sum();
        working.set(Some(format!(
            "Reading {} file{} ({})…",
            files.len(),
            if files.len() == 1 { "" } else { "s" },
            crate::core::format::bytes(bytes)
        )));
        let (names, texts): (Vec<String>, Vec<PageText>) = files.into_iter().unzip();
        let hint = model_hint.get_untracked();
        let model = Some(hint.trim().to_string()).filter(|m| !m.is_empty());
        let reply: Result<ImportReply, String> = tools(
            "import_files",
            &[
                ToolArg::Texts(&names),
                ToolArg::Pages(&texts),
                ToolArg::MaybeText(model.as_deref()),
            ],
        )
        .await;
        working.set(None);
        match reply {
            Ok(ImportReply {
                id,
                result: Ok(imported),
                ..
            }) => {
                let summary = summarize(
                    &imported.formats,
                    refused.len(),
                    Some(&imported.source),
                    imported.problems.len() + refused.len() + imported.warnings.len(),
                );
                let problems = [refused, imported.problems.clone()].concat();
                let warnings = imported.warnings.clone();
                let note = registry
                    .add_import(id, &names, &texts, model.clone(), imported.source)
                    .await;
                outcome.set(Some(Outcome {
                    summary: note.map_or(summary.clone(), |n| format!("{summary} {n}")),
                    problems,
                    warnings,
                }));
            }
            Ok(ImportReply {
                formats,
                result: Err(problems),
                ..
            }) => {
                outcome.set(Some(Outcome {
                    summary: summarize(
                        &formats,
                        refused.len(),
                        None,
                        problems.len() + refused.len(),
                    ),
                    problems: [refused, problems].concat(),
                    warnings: Vec::new(),
                }));
            }
            Err(e) => outcome.set(Some(Outcome {
                summary: format!("Nothing imported: {e}."),
                problems: Vec::new(),
                warnings: Vec::new(),
            })),
        }
    };
    let import_list = move |list: Vec<web_sys::File>| {
        leptos::task::spawn_local(run_import(browser::picked_files(list)));
    };

    let current_imported = move || {
        let id = registry.current.get();
        registry.entries.with(|e| {
            e.iter()
                .find(|x| x.id == id && x.files.is_some())
                .map(|x| x.id.clone())
        })
    };

    view! {
        <section class="sources" aria-labelledby="sources-title">
            <h2 id="sources-title" class="sr-only">"Data source"</h2>
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
                                        Some(State::Ready(s)) => {
                                            let packed = tools::<Result<String, String>>(
                                                "share_encode",
                                                &[ToolArg::Bytes(&handoff::encode(s))],
                                            )
                                            .await
                                            .and_then(|r| r);
                                            match packed {
                                                Ok(packed) => {
                                                    browser::replace_fragment(&format!("#sweep={packed}"));
                                                    "The address bar now holds this sweep (after #sweep=, never sent to a server): copy it to share.".to_string()
                                                }
                                                Err(e) => format!("Not shared: {e}"),
                                            }
                                        }
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
            <p class="hint" role="status" data-testid="share-status">{move || share_note.get()}</p>
            <details class="import">
                <summary>"Import your own sweep"</summary>
                <p class="hint">
                    "ML.ENERGY task, per-model or V2 files; vLLM bench serve JSON or JSON lines, sweep folders and multi-turn results (select all files of a sweep, or its folder); SGLang bench_serving JSONL; AIPerf / GenAI-Perf profile exports; InferenceX JSON; EvalScope perf summaries (with their percentile files); or the CSV template of the README. Files are read in this browser and never uploaded. Runs that differ in any stated field (GPU, parallelism, engine, dataset, date, …) become separate sweeps."
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
                        on:change=move |ev| {
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            import_list(browser::files_of(input.files()));
                            input.set_value("");
                        }
                    />
                </label>
                <label class="drop">
                    "Or a whole folder (e.g. a vllm bench sweep or EvalScope output): "
                    <input
                        type="file"
                        prop:webkitdirectory=true
                        data-testid="import-folder"
                        on:change=move |ev| {
                            let input = event_target::<web_sys::HtmlInputElement>(&ev);
                            import_list(browser::files_of(input.files()));
                            input.set_value("");
                        }
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
                        let text = pasted.get_untracked();
                        if !text.trim().is_empty() {
                            leptos::task::spawn_local(run_import(vec![("pasted text".to_string(), PageText::of(&text))]));
                        }
                    }
                >
                    "Import pasted text"
                </button>
            </details>
            {move || working.get().map(|w| view! {
                <p class="hint" role="status" data-testid="import-progress">{w}</p>
            })}
            {move || outcome.get().map(|o| view! {
                <div class="notice" role="status">
                    <p data-testid="import-summary">{o.summary}</p>
                    {(!o.warnings.is_empty()).then(|| view! {
                        <ul class="import-warnings">
                            {o.warnings.into_iter().map(|w| view! {
                                <li class="warn" data-testid="import-warning" data-kind=w.kind.clone()>
                                    {format!("Warning: {}", w.text())}
                                </li>
                            }).collect_view()}
                        </ul>
                    })}
                    {(!o.problems.is_empty()).then(|| view! {
                        <ul class="import-errors">
                            {o.problems.into_iter().map(|p| view! {
                                <li data-testid="import-error" data-file=p.file.clone()>
                                    {match (p.row, p.file.as_str()) {
                                        (_, "(import)") => p.message(),
                                        (Some(r), file) => format!("{file}, row {r}: {}", p.message()),
                                        (None, file) => format!("{file}: {}", p.message()),
                                    }}
                                </li>
                            }).collect_view()}
                        </ul>
                    })}
                </div>
            })}
        </section>
    }
}
