//! Where a source's data stands, and where reading the whole bundled data stands.

use std::sync::Arc;

use crate::core::model::source::Source;
use crate::core::text::explain::reading_whole;

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
