//! LLM SLO Planner: the highest vLLM `max_num_seqs` that still gives every user the promised
//! token speed, with throughput and energy there, on measured ML.ENERGY sweeps.
//!
//! [`core`] holds all the computation (pure Rust, tested natively); [`ui`] only wires signals to
//! it; [`browser`] is the one place that touches browser APIs.

pub mod core;

mod browser;

mod ui;

use leptos::prelude::*;

use crate::core::bundled;
use crate::core::planner::plan;
use crate::core::scenario::Scenario;

/// The whole page. State is one [`Scenario`] signal; everything else is derived from it.
#[component]
pub fn App() -> impl IntoView {
    let source = bundled::lm_arena_chat();
    let (initial, url_errors) = Scenario::from_query(&browser::query(), source);
    let scenario = RwSignal::new(initial.clone());
    let link_untouched = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(true) && scenario.with(|s| *s == initial)
    });

    Effect::new(move |_| {
        browser::replace_query(&scenario.with(Scenario::to_query));
    });
    Effect::new(move |_| browser::remove_element("boot"));

    let result = Memo::new(move |_| {
        scenario.with(|s| {
            s.sweep_index(source).map(|i| {
                let sweep = &source.sweeps[i];
                (i, plan(sweep, &s.slo()))
            })
        })
    });

    view! {
        <header class="masthead">
            <h1>"LLM SLO Planner"</h1>
            <p class="tagline">
                "The highest concurrency that still gives every user the token speed you promised, on measured "
                <a href="https://ml.energy/leaderboard">"ML.ENERGY"</a>
                " vLLM sweeps (" {source.task_display_name.clone()} ")."
            </p>
        </header>
        <ui::scenario_errors::ScenarioErrors errors=url_errors visible=link_untouched.into() />
        <div class="layout">
            <ui::controls::Controls source=source scenario=scenario />
            <main class="results">
                <ui::answer::Answer source=source scenario=scenario result=result />
                <ui::capacity::CapacityPanel source=source scenario=scenario result=result />
                <ui::chart::TradeoffChart source=source scenario=scenario result=result />
                <ui::compare::Compare source=source scenario=scenario />
                <ui::sweep_table::SweepTable source=source scenario=scenario result=result />
                <ui::method::Method />
            </main>
        </div>
    }
}
