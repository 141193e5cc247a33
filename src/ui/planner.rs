//! The planner for one source: one [`Scenario`] signal, everything else derived from it.

use leptos::prelude::*;

use crate::browser;
use crate::core::planner::plan;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// Inputs, answer and evidence for `source`, starting from the scenario in `query`. The
/// evidence (chart, tables, provenance, method) is drawn once `evidence` is true: at start-up
/// the answer is painted first and the evidence follows a frame later.
#[component]
pub fn Planner(source: &'static Source, query: String, evidence: Signal<bool>) -> impl IntoView {
    let (initial, url_errors) = Scenario::from_query(&query, source);
    let scenario = RwSignal::new(initial.clone());
    let link_untouched = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(true) && scenario.with(|s| *s == initial)
    });

    Effect::new(move |_| {
        browser::replace_query(&scenario.with(Scenario::to_query));
    });

    let result = Memo::new(move |_| {
        scenario.with(|s| {
            s.sweep_index(source).map(|i| {
                let sweep = &source.sweeps[i];
                (i, plan(sweep, &s.slo()))
            })
        })
    });

    view! {
        <super::scenario_errors::ScenarioErrors errors=url_errors visible=link_untouched.into() />
        <div class="layout">
            <super::controls::Controls source=source scenario=scenario />
            <main class="results" data-evidence=move || if evidence.get() { "ready" } else { "pending" }>
                <super::answer::Answer source=source scenario=scenario result=result />
                {(!source.provenance.reference).then(|| view! {
                    <super::capacity::CapacityPanel source=source scenario=scenario result=result />
                })}
                {move || evidence.get().then(|| view! {
                    <super::chart::TradeoffChart source=source scenario=scenario result=result />
                    {(!source.provenance.reference).then(|| view! {
                        <super::compare::Compare source=source scenario=scenario />
                    })}
                    <super::sweep_table::SweepTable source=source scenario=scenario result=result />
                    <super::provenance::ProvenancePanel
                        source=source
                        sweep_index=Signal::derive(move || result.with(|r| r.as_ref().map(|(i, _)| *i)))
                    />
                    <super::method::Method source=source />
                })}
            </main>
        </div>
    }
}
