//! The bundled workloads and the reference systems, fetched and read the first time they are
//! shown.

use std::sync::Arc;

use wasm_split_helpers::wasm_split;

use super::{Registry, State};
use crate::browser;
use crate::core::import::sources::{workload, REFERENCE_SOURCE};
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

impl Registry {
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
                Err(e) => State::Failed(e.to_string()),
            },
            Some(path) => match browser::fetch_text(path).await {
                Ok(text) => match tools_client::parse_task_file(&text).await {
                    Ok(Ok(source)) => State::Ready(Arc::new(source)),
                    Ok(Err(e)) => State::Failed(format!("{path} is not a task file: {e}")),
                    Err(e) => State::Failed(e.to_string()),
                },
                Err(e) => State::Failed(e.to_string()),
            },
        }
    }))
}
