//! The imports kept in local storage: read into the picker when the page opens, followed in
//! other tabs, kept when imported and removed with their entry.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::{Entry, Registry, State};
use crate::browser::{self, PageText};
use crate::core::import::sources::{
    storage_key, DEFAULT_SOURCE, LEGACY_STORAGE_KEY, STORAGE_PREFIX,
};
use crate::core::import::summary::imported_label;
use crate::core::model::limits::MAX_STORED_BYTES;
use crate::core::model::source::Source;
use crate::core::scenario::routing;
use crate::core::wire::handoff::StoredSource;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

/// The picker entry of an import.
fn stored_entry(stored: StoredSource) -> Entry {
    Entry {
        id: stored.id,
        label: imported_label(&stored.source, &stored.files),
        files: Some(stored.files),
        state: State::Ready(Arc::new(stored.source)),
    }
}

/// An import to add to the menu and keep: what the tools module read and the files it read.
pub struct Imported {
    /// Its id in the menu.
    pub id: String,
    /// The names of the files read.
    pub names: Vec<String>,
    /// Those files' texts.
    pub texts: Vec<PageText>,
    /// Their bytes in all.
    pub bytes: usize,
    /// The model the files were read for, if one was named.
    pub model: Option<String>,
    /// What was read.
    pub source: Source,
}

impl Registry {
    /// Reads the stored imports into the menu (saying how many could not be read), gives up on
    /// the import the link names if storage does not hold it, and from then on follows other
    /// tabs' imports (the `storage` event): one they add joins the menu, one they remove leaves
    /// it unless it is shown here.
    pub(super) fn read_stored(self, linked_import: Option<String>) {
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

    /// Adds (or replaces) an imported source, shows it, and keeps it in storage; says whether
    /// the same import was in the menu already, and whether it could not be kept.
    pub async fn add_import(&self, import: Imported) -> (bool, Option<String>) {
        let again = self
            .entries
            .with_untracked(|e| e.iter().any(|x| x.id == import.id));
        (again, self.keep_import(import).await)
    }

    /// [`Registry::add_import`]'s work: adds the import, shows it and keeps it; why it could
    /// not be kept, if it could not.
    async fn keep_import(&self, import: Imported) -> Option<String> {
        let Imported {
            id,
            names,
            texts,
            bytes,
            model,
            source,
        } = import;
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
        let entry = tools_client::store_entry(&id, &names, &texts, model.as_deref()).await;
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
