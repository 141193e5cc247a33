//! The page's sources: the bundled workloads, the reference systems, imported file sets and a
//! sweep shared by link, with the state of each, which one is shown, and local storage. What a
//! link opens is decided by `core::scenario::routing`; reading is done by the tools module
//! (`tools_client`); this module carries both out. Here: the picker's entries, the opening
//! link and the switch between sources; apart, where a source's data stands (`state`), the
//! bundled workloads fetched when shown (`workloads`), the whole bundled data read for a model
//! beyond its first part (`whole`) and the imports kept in local storage (`stored`).

mod state;
mod stored;
mod whole;
mod workloads;

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use crate::browser;
use crate::core::import::bundled::lm_arena_chat_part;
use crate::core::import::sources::{DEFAULT_SOURCE, REFERENCE_SOURCE, SHARED_SOURCE, WORKLOADS};
use crate::core::model::source::Source;
use crate::core::scenario::link::shared_payload;
use crate::core::scenario::routing::{self, needs_whole, Opening, Widening};
use crate::core::scenario::{Scenario, StatMoved};
use crate::core::text::scenario_text::data_moved;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;
pub use state::{State, Whole};
pub use stored::Imported;

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
    /// The last switch of source's move of the statistic (the one asked for, and the one judged
    /// on instead), if it moved it.
    stat_moved: StoredValue<Option<StatMoved>>,
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
            stat_moved: StoredValue::new(None),
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
                if let Err(Failed(e)) = on_demand::finished(shared_job(registry, payload)).await {
                    registry.give_up_shared(&e);
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

    /// [`Registry::give_up`] the shared sweep, saying `why` its link cannot be read.
    fn give_up_shared(&self, why: &dyn std::fmt::Display) {
        self.give_up(
            SHARED_SOURCE,
            Some(format!("`#sweep`: {why}; the link's sweep is not shown.")),
        );
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
            let earlier = self.stat_moved.get_value();
            let (carried, moved) = Scenario::with_slo_asked(&start, &previous, source, earlier);
            // The statistic asked for is remembered while it is moved, to come back with data
            // that has it.
            self.stat_moved.set_value(moved);
            self.start_query.set_value(carried.to_query());
            // A statistic the new data lacks is changed, and said beside the menu.
            if moved.is_some() {
                self.carried
                    .update_value(|(note, _)| *note = moved.map(data_moved));
            }
        }
        self.start_query.get_value()
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
}

/// Opens the source a link's `#sweep=` payload holds (`tools_client::share_decode`) in
/// `registry`, or says why it cannot; with the code that asks for it, loaded on demand.
#[wasm_split(on_demand, fallible)]
fn shared_job(registry: Registry, payload: String) -> Result<Job<()>, Failed> {
    Ok(Box::pin(async move {
        match tools_client::share_decode(&payload).await {
            Ok(source) => registry.set_entry(
                SHARED_SOURCE,
                Some(format!("shared by link: {}", source.task_display_name)),
                State::Ready(Arc::new(source)),
            ),
            Err(e) => registry.give_up_shared(&e),
        }
    }))
}
