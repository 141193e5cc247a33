//! The page's sources: the bundled workloads, the reference systems, imported file sets and a
//! sweep shared by link, with the state of each, which one is shown, and local storage. What a
//! link opens is decided by `core::scenario::routing`; reading is done by the tools module
//! (`tools_client`); this module carries both out.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use crate::browser::{self, PageText};
use crate::core::import::bundled::lm_arena_chat_part;
use crate::core::import::sources::{
    storage_key, workload, DEFAULT_SOURCE, LEGACY_STORAGE_KEY, REFERENCE_SOURCE, SHARED_SOURCE,
    STORAGE_PREFIX, WORKLOADS,
};
use crate::core::import::summary::imported_label;
use crate::core::model::limits::MAX_STORED_BYTES;
use crate::core::model::source::Source;
use crate::core::scenario::link::shared_payload;
use crate::core::scenario::routing::{self, needs_whole, Opening, Widening};
use crate::core::scenario::Scenario;
use crate::core::text::explain::reading_whole;
use crate::core::text::scenario_text::{data_moved, deployment_moved};
use crate::core::wire::handoff::StoredSource;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

/// Where a source's data stands.
#[derive(Clone, Debug)]
pub enum State {
    /// Parsed and ready. The registry's entry owns it, with the planner showing it: removing an
    /// import (or replacing the bundled part with the whole) frees it once its planner is gone.
    Ready(Arc<Source>),
    /// A bundled workload not fetched yet.
    NotLoaded,
    /// Being fetched.
    Loading,
    /// Could not be loaded; the message says why.
    Failed(String),
}

impl PartialEq for State {
    /// The same state; two ready sources are the same when they are the same source (one
    /// allocation, never compared field by field).
    fn eq(&self, other: &State) -> bool {
        match (self, other) {
            (State::Ready(a), State::Ready(b)) => Arc::ptr_eq(a, b),
            (State::NotLoaded, State::NotLoaded) | (State::Loading, State::Loading) => true,
            (State::Failed(a), State::Failed(b)) => a == b,
            _ => false,
        }
    }
}

/// Where reading the whole bundled data stands (the page holds its default model family from
/// the start; once the whole is read, its entry holds the whole). `control`: the id of the
/// control whose change waits for it (`None`: the opening link).
#[derive(Clone, Debug, PartialEq)]
pub enum Whole {
    /// Not asked for, or read.
    NotRead,
    /// Being read by the tools module.
    Reading {
        /// The control whose change waits.
        control: Option<&'static str>,
    },
    /// Could not be read; the message says why (asked for again on the next change).
    Failed {
        /// The control whose change waited.
        control: Option<&'static str>,
        /// Why.
        error: String,
    },
}

impl Whole {
    /// True when the change made in the control with this id waited for the whole, which could
    /// not be read.
    pub fn failed_at(&self, id: &str) -> bool {
        matches!(self, Whole::Failed { control, .. } if *control == Some(id))
    }

    /// What the control with this id says about it: that the whole is being read, or why it
    /// could not be.
    pub fn status_at(&self, id: &str) -> Option<String> {
        match self {
            Whole::Reading { control } if *control == Some(id) => Some(reading_whole(None)),
            Whole::Failed { control, error } if *control == Some(id) => {
                Some(reading_whole(Some(error)))
            }
            _ => None,
        }
    }
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
    /// Reading the whole bundled data.
    pub whole: RwSignal<Whole>,
    /// The reader's change waiting for the whole bundled data (the latest one), and the id of
    /// the control it was made in.
    widening: StoredValue<Option<(Widening, &'static str)>>,
    /// For the planner mounted once the whole is read: the model menu's note, and the id of the
    /// control to give the focus back to.
    carried: StoredValue<(Option<String>, Option<&'static str>)>,
}

/// The picker entry of an import.
fn stored_entry(stored: StoredSource) -> Entry {
    Entry {
        id: stored.id,
        label: imported_label(&stored.source, &stored.files),
        files: Some(stored.files),
        state: State::Ready(Arc::new(stored.source)),
    }
}

/// The picker's entries when the page opens: the bundled workloads (the default one ready, the
/// others fetched when shown), the reference systems, and entries waiting for the link's shared
/// sweep and for the import it names.
fn initial_entries(shared: bool, linked_import: Option<&str>) -> Vec<Entry> {
    let mut entries: Vec<Entry> = WORKLOADS
        .iter()
        .map(|w| Entry {
            id: w.id.to_string(),
            label: w.label.to_string(),
            files: None,
            state: match w.path {
                None => State::Ready(lm_arena_chat_part()),
                Some(_) => State::NotLoaded,
            },
        })
        .collect();
    entries.push(Entry {
        id: REFERENCE_SOURCE.to_string(),
        label: "Reference systems (Databricks' MPT-7B on A100, illustrative Llama 70B on H100)"
            .to_string(),
        files: None,
        state: State::NotLoaded,
    });
    if shared {
        entries.push(Entry {
            id: SHARED_SOURCE.to_string(),
            label: "shared by link (reading…)".to_string(),
            files: None,
            state: State::Loading,
        });
    }
    // A link to an import: its entry waits for local storage.
    if let Some(id) = linked_import {
        entries.push(Entry {
            id: id.to_string(),
            label: format!("imported: {id} (reading…)"),
            files: Some(Vec::new()),
            state: State::Loading,
        });
    }
    entries
}

impl Registry {
    /// Builds the registry from the bundled workloads and the opening link. Imports kept in
    /// local storage and a sweep in the link's `#sweep=` are read by the tools module: a link
    /// to either shows it once read; otherwise stored imports join the picker after the first
    /// paint.
    pub fn load(query: &str, fragment: &str) -> Registry {
        let payload = shared_payload(fragment).map(str::to_string);
        let Opening {
            current,
            start_query,
            shared,
            linked_import,
            notices,
        } = Opening::of_link(query, payload.is_some());
        let notices: Vec<String> = notices
            .into_iter()
            .chain(routing::empty_sweep_notice(query, fragment))
            .collect();
        let entries = initial_entries(shared, linked_import.as_deref());
        let registry = Registry {
            entries: RwSignal::new(entries),
            current: RwSignal::new(current.clone()),
            start_query: StoredValue::new(start_query),
            carried_from: StoredValue::new(None),
            opening_query: StoredValue::new(query.to_string()),
            notices: RwSignal::new(notices),
            whole: RwSignal::new(Whole::NotRead),
            widening: StoredValue::new(None),
            carried: StoredValue::new((None, None)),
        };
        registry.ensure_loaded(&current);
        // A link to a model (or to every model) beyond the bundled part waits for the whole.
        if current == DEFAULT_SOURCE
            && needs_whole(&registry.start_query.get_value(), &lm_arena_chat_part())
        {
            registry.set_state(DEFAULT_SOURCE, State::Loading);
            registry.read_whole(None);
        }
        if let Some(payload) = payload {
            leptos::task::spawn_local(async move {
                match on_demand::flattened(shared_job(payload)).await {
                    Ok(source) => registry.set_entry(
                        SHARED_SOURCE,
                        Some(format!("shared by link: {}", source.task_display_name)),
                        State::Ready(Arc::new(source)),
                    ),
                    Err(e) => registry.give_up(
                        SHARED_SOURCE,
                        Some(format!("`#sweep`: {e}; the link's sweep is not shown.")),
                    ),
                }
            });
        }
        let read_now = linked_import.as_deref() == Some(current.as_str());
        if read_now {
            registry.read_stored(linked_import);
        } else {
            browser::after_paint(move || registry.read_stored(linked_import));
        }
        registry
    }

    /// Reads the stored imports into the menu (saying how many could not be read), gives up on
    /// the import the link names if storage does not hold it, and from then on follows other
    /// tabs' imports (the `storage` event): one they add joins the menu, one they remove leaves
    /// it unless it is shown here.
    fn read_stored(self, linked_import: Option<String>) {
        let registry = self;
        // Reading them is loaded on demand ([`read_stored_job`]), when storage holds any.
        let stored = browser::storage_keys(STORAGE_PREFIX).len()
            + usize::from(browser::storage_get_text(LEGACY_STORAGE_KEY).is_some());
        leptos::task::spawn_local(async move {
            // Why none could be read where their code could not be loaded: not the imports'
            // fault, and they stay in storage.
            let (notice, not_loaded) = match stored {
                0 => (None, None),
                _ => match on_demand::finished(read_stored_job(registry)).await {
                    Ok(notice) => (notice, None),
                    Err(Failed(e)) => (
                        Some(format!(
                            "The imports kept in this browser were not read: {e}."
                        )),
                        Some(e),
                    ),
                },
            };
            if let Some(notice) = notice {
                registry.notices.update(|n| n.push(notice));
            }
            if let Some(id) = linked_import {
                if registry.state_of(&id) == Some(State::Loading) {
                    let why = not_loaded.map_or_else(
                        || " (an import from another browser?)".to_string(),
                        |e| format!(" yet: {e}"),
                    );
                    registry.give_up(&id, Some(routing::not_a_source(&id, &why)));
                }
            }
        });
        // Another tab's import joins the menu; one it removes leaves it.
        browser::on_storage_change(STORAGE_PREFIX, move |key, value| {
            let id = key[STORAGE_PREFIX.len()..].to_string();
            match value {
                Some(text) => leptos::task::spawn_local(async move {
                    // Not added if its code cannot be loaded, as when it does not read.
                    let _ = on_demand::finished(add_stored_job(registry, text)).await;
                }),
                None => {
                    if registry.current.get_untracked() != id {
                        registry.entries.update(|e| e.retain(|x| x.id != id));
                    }
                }
            }
        });
    }

    /// Reads the imports kept in local storage, one key at a time, each in the tools module's
    /// worker, and adds those that read to the menu. Imports an earlier version kept in one
    /// array move to their own keys first; what cannot be read is left as it is. Returns the
    /// notice naming what could not be read, if anything.
    async fn read_stored_imports(&self) -> Option<String> {
        let mut unreadable = 0;
        let mut legacy_unreadable = false;
        if let Some(legacy) = browser::storage_get_text(LEGACY_STORAGE_KEY) {
            match tools_client::split_legacy_imports(&legacy).await {
                Ok(split) => {
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
                _ => legacy_unreadable = true,
            }
        }
        for key in browser::storage_keys(STORAGE_PREFIX) {
            let Some(text) = browser::storage_get_text(&key) else {
                continue;
            };
            match tools_client::stored_source(&text).await {
                Ok(stored) => self.add_stored(stored),
                _ => unreadable += 1,
            }
        }
        crate::core::import::sources::stored_notice(unreadable, legacy_unreadable)
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
        let shared_on_page = self.state_of(SHARED_SOURCE).is_some();
        if !routing::falls_back_to_shared(id, shared_on_page) {
            if let Some(n) = notice {
                self.notices.update(|all| all.push(n));
            }
        }
        let (to, start) = routing::fallback(id, shared_on_page, &self.opening_query.get_value());
        self.start_query.set_value(start);
        self.current.set(to);
    }

    /// The query the planner of `source` (the current one, ready) starts from; after a switch,
    /// with the SLO carried over (see [`Scenario::with_slo_of`]; a statistic changed is then
    /// said by the planner's statistic menu), kept for later re-mounts.
    pub fn planner_query(&self, source: &Source) -> String {
        if let Some(previous) = self.carried_from.try_update_value(Option::take).flatten() {
            let start = self.start_query.get_value();
            let (carried, moved) = Scenario::with_slo_of(&start, &previous, source);
            self.start_query.set_value(carried.to_query());
            // A statistic the new data lacks is changed, and said beside the menu.
            if moved.is_some() {
                self.carried
                    .update_value(|(note, _)| *note = moved.map(data_moved));
            }
        }
        self.start_query.get_value()
    }

    /// Makes a change the bundled part cannot show once the whole is read (reading it if need
    /// be): the planner is then mounted again on the whole with the page's scenario so changed,
    /// and the focus back on `control` (an element id).
    pub fn widen(&self, change: Widening, control: &'static str) {
        self.widening.set_value(Some((change, control)));
        self.read_whole(Some(control));
    }

    /// The model menu's note and the control to focus, for the planner mounted on the whole
    /// (taken once).
    pub fn take_carried(&self) -> (Option<String>, Option<&'static str>) {
        self.carried
            .try_update_value(std::mem::take)
            .unwrap_or_default()
    }

    /// Reads the whole bundled data in the tools module, unless it is being read. Once read, it
    /// takes the bundled entry's place, with the waiting change made when that entry is shown;
    /// a link that needed it and cannot have it is shown on the part, with a notice. The reading
    /// is loaded on demand ([`read_whole_job`]), beside the tools module.
    fn read_whole(&self, control: Option<&'static str>) {
        let reading = matches!(self.whole.get_untracked(), Whole::Reading { .. });
        self.whole.set(Whole::Reading { control });
        if reading {
            return;
        }
        tools_client::start();
        let registry = *self;
        leptos::task::spawn_local(async move {
            if let Err(Failed(e)) = on_demand::finished(read_whole_job(registry)).await {
                registry.whole_failed(e);
            }
        });
    }

    /// The whole bundled data could not be read (`e` says why): the planner stays on the part,
    /// and a link that needed the whole says so.
    fn whole_failed(&self, e: String) {
        let control = match self.whole.get_untracked() {
            Whole::Reading { control } => control,
            _ => None,
        };
        self.whole.set(Whole::Failed {
            control,
            error: e.clone(),
        });
        if self.state_of(DEFAULT_SOURCE) == Some(State::Loading) {
            self.notices.update(|n| {
                n.push(format!(
                    "The bundled data's other models could not be read ({e}); showing the default model."
                ))
            });
            let start = routing::on_part(&self.start_query.get_value());
            self.start_query.set_value(start);
            self.set_state(DEFAULT_SOURCE, State::Ready(lm_arena_chat_part()));
        }
    }

    /// Starts fetching a bundled workload, or the reference systems, the first time it is shown.
    pub fn ensure_loaded(&self, id: &str) {
        // A failed load is tried again when the source is shown again.
        if !matches!(self.state_of(id), Some(State::NotLoaded | State::Failed(_))) {
            return;
        }
        let path = workload(id).and_then(|w| w.path);
        if path.is_none() && id != REFERENCE_SOURCE {
            return;
        }
        self.set_state(id, State::Loading);
        // The file, the tools module that parses it and the code that asks it are fetched side by
        // side.
        tools_client::start();
        let (registry, id) = (*self, id.to_string());
        leptos::task::spawn_local(async move {
            let state = on_demand::finished(load_job(path))
                .await
                .unwrap_or_else(|Failed(e)| State::Failed(e));
            registry.set_state(&id, state);
        });
    }

    /// Shows another source: its default deployment, planned for the SLO shown now.
    pub fn switch(&self, id: &str) {
        // A shared sweep's `#sweep=` belongs to the shared data: leaving it drops the fragment,
        // so a reload or a copied link opens what is shown.
        if id != SHARED_SOURCE && shared_payload(&browser::fragment()).is_some() {
            browser::drop_fragment();
        }
        self.start_query.set_value(routing::switch_query(id));
        self.carried_from.set_value(Some(browser::query()));
        self.ensure_loaded(id);
        self.current.set(id.to_string());
    }

    /// Adds (or replaces) an imported source, shows it, and keeps it in storage (its files,
    /// `bytes` in all); says so when it could not be kept.
    pub async fn add_import(
        &self,
        id: String,
        names: &[String],
        texts: &[PageText],
        bytes: usize,
        model: Option<String>,
        source: Source,
    ) -> Option<String> {
        let names = names.to_vec();
        let mut entry = stored_entry(StoredSource {
            id: id.clone(),
            files: names.clone(),
            source,
        });
        self.entries.update(|e| {
            e.retain(|x| x.id != id);
            // Two imports of one label (two pastes in one second) are told apart.
            let same = e
                .iter()
                .filter(|x| x.label.starts_with(&entry.label))
                .count();
            if same > 0 {
                entry.label = format!("{} #{}", entry.label, same + 1);
            }
            e.push(entry);
        });
        // The answer for it is drawn in a task of its own (an import of per-request records
        // holds thousands of requests to judge).
        browser::next_task().await;
        self.switch(&id);
        // Larger than local storage holds: not sent there (nor back and forth through the page).
        if bytes > MAX_STORED_BYTES {
            return Some(format!(
                "Not kept for your next visit: its files come to {:.2} MB, over the {} MB this page keeps in the browser's storage.",
                bytes as f64 / (1024.0 * 1024.0),
                MAX_STORED_BYTES / (1024 * 1024)
            ));
        }
        // Each import under its own key: another tab's write never erases this one.
        let entry = tools_client::store_entry(&id, &names, texts, model.as_deref()).await;
        match entry {
            Ok(t) if t.is_empty() => Some(
                "Not kept for your next visit: a file could not be read again (moved or changed since it was picked).".to_string(),
            ),
            Ok(t) if browser::storage_set_text(&storage_key(&id), &t) => None,
            _ => Some("Not kept for your next visit: the browser's storage is off or full.".to_string()),
        }
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

/// The source a link's `#sweep=` payload holds (`tools_client::share_decode`), with the code that
/// asks for it, loaded on demand.
#[wasm_split(on_demand, fallible)]
fn shared_job(payload: String) -> Result<Job<Result<Source, String>>, Failed> {
    Ok(Box::pin(async move {
        tools_client::share_decode(&payload).await
    }))
}

/// Reads the whole bundled data in the tools module into `registry` ([`Registry::read_whole`]);
/// loaded on demand ([`crate::on_demand`]).
#[wasm_split(on_demand, fallible)]
fn read_whole_job(registry: Registry) -> Result<Job<()>, Failed> {
    Ok(Box::pin(async move {
        match tools_client::bundled_source().await {
            Ok(source) => {
                let whole = Arc::new(source);
                let change = registry.widening.try_update_value(Option::take).flatten();
                if let Some((change, control)) = change {
                    if registry.current.get_untracked() == DEFAULT_SOURCE {
                        let (start, note) = change.apply(&browser::query(), &whole);
                        registry.start_query.set_value(start);
                        registry
                            .carried
                            .set_value((note.map(deployment_moved), Some(control)));
                    }
                }
                registry.whole.set(Whole::NotRead);
                registry.set_state(DEFAULT_SOURCE, State::Ready(whole));
            }
            Err(e) => registry.whole_failed(e),
        }
    }))
}

/// Reads a bundled workload's task file at `path`, or the reference systems (`None`), through
/// the tools module ([`Registry::ensure_loaded`]): the source's state once read; loaded on demand
/// ([`crate::on_demand`]).
#[wasm_split(on_demand, fallible)]
fn load_job(path: Option<&'static str>) -> Result<Job<State>, Failed> {
    Ok(Box::pin(async move {
        match path {
            // The reference systems are kept in the tools module.
            None => match tools_client::reference_source().await {
                Ok(source) => State::Ready(Arc::new(source)),
                Err(e) => State::Failed(e),
            },
            Some(path) => match browser::fetch_text(path).await {
                Ok(text) => match tools_client::parse_task_file(&text).await {
                    Ok(Ok(source)) => State::Ready(Arc::new(source)),
                    Ok(Err(e)) => State::Failed(format!("{path} is not a task file: {e}")),
                    Err(e) => State::Failed(e),
                },
                Err(e) => State::Failed(e),
            },
        }
    }))
}

/// Reads the imports kept in local storage into `registry`'s menu
/// ([`Registry::read_stored_imports`]): the notice naming what could not be read; loaded on
/// demand ([`crate::on_demand`]).
#[wasm_split(on_demand, fallible)]
fn read_stored_job(registry: Registry) -> Result<Job<Option<String>>, Failed> {
    Ok(Box::pin(
        async move { registry.read_stored_imports().await },
    ))
}

/// Adds the import another tab stored (`text`, as kept) to `registry`'s menu, if it reads;
/// loaded on demand ([`crate::on_demand`]).
#[wasm_split(on_demand, fallible)]
fn add_stored_job(registry: Registry, text: PageText) -> Result<Job<()>, Failed> {
    Ok(Box::pin(async move {
        if let Ok(stored) = tools_client::stored_source(&text).await {
            registry.add_stored(stored);
        }
    }))
}
