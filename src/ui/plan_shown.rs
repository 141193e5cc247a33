//! What the evidence beneath the answer draws from: the data, the scenario it shows and the
//! plan of the sweep shown, handed to each of its panels as one value.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::source::Source;
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;

/// The data shown, the scenario the evidence shows (a frame behind a change) and the sweep
/// shown with its plan (`None` while no sweep is planned).
#[derive(Clone)]
pub struct PlanShown {
    /// The data shown.
    pub source: Arc<Source>,
    /// The scenario the evidence shows.
    pub scenario: ReadSignal<Scenario>,
    /// The sweep shown (its index into `source.sweeps`) and its plan.
    pub result: Memo<Option<(usize, Plan)>>,
}

impl PlanShown {
    /// The sweep shown (its index), its plan and the scenario as they are now, tracked: `None`
    /// while no sweep is planned.
    pub fn now(&self) -> Option<(usize, Plan, Scenario)> {
        let (i, plan) = self.result.get()?;
        Some((i, plan, self.scenario.get()))
    }
}
