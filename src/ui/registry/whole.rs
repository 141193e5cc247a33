//! The whole bundled data, read in the tools module when a link or a change needs a model
//! beyond the part the page starts with; the change waiting for it is made once it is read.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::{Registry, State, Whole};
use crate::browser;
use crate::core::import::bundled::lm_arena_chat_part;
use crate::core::import::sources::DEFAULT_SOURCE;
use crate::core::scenario::routing::{self, Widening};
use crate::core::text::scenario_text::deployment_moved;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

impl Registry {
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
    pub(super) fn read_whole(&self, control: Option<&'static str>) {
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
            Err(e) => registry.whole_failed(e.to_string()),
        }
    }))
}
