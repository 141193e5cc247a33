//! The power budget: with a budget (`power`), the replicas, GPUs and users that fit in it at the
//! recommended level (`core::plan::power`), each figure with its formula on hover, the basis in
//! words, and with a load its peak against the budget. Its code is loaded on demand, when a
//! budget is first given.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::capacity::{escape_dismisses, item};
use crate::core::model::source::Source;
use crate::core::plan::planner::Plan;
use crate::core::plan::power::budget_at;
use crate::core::scenario::Scenario;
use crate::core::text::power_text::{
    basis_text, fits_text, need_figures, power_error_text, power_figures,
};
use crate::on_demand::{self, Drawn, Failed};

/// The panel, once the scenario has a power budget: an empty element its code, loaded on
/// demand, draws into.
#[component]
pub fn Power(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    let wanted = Memo::new(move |_| scenario.with(|s| s.fleet.power.budget_w.is_some()));
    on_demand::while_wanted(
        wanted,
        (
            HOLDER,
            "The power budget cannot be drawn",
            "Loading the power budget…",
        ),
        move |owner| panel_view(owner, Arc::clone(&source), scenario, result),
    )
}

/// The id of the element the panel is drawn into.
const HOLDER: &str = "power";

/// Draws the panel into the [`HOLDER`] element under `owner` ([`on_demand::under`]), with its
/// code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::under(owner, || {
        on_demand::mount_in(HOLDER, move || panel(source, scenario, result))
    }))
}

/// The figures, the basis and the load's peak for the shown scenario, or why there are none.
fn panel(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    let dismissed = escape_dismisses();
    move || {
        let (i, plan) = result.get()?;
        let s = scenario.get();
        let inputs = s.power_inputs()?;
        let sweep = &source.sweeps[i];
        let fleet = s.capacity_for(&sweep.deployment.gpu);
        let load = s.fleet.load.as_ref().map(|l| (l, s.fleet.scaling));
        let body = match budget_at(sweep, (&plan, &s.slo), &inputs, (&fleet, load)) {
            None => view! {
                <p class="hint" data-testid="power-none">"No level meets the SLO on this deployment, so nothing is sized in the budget."</p>
            }
            .into_any(),
            Some(Err(e)) => view! {
                <p class="hint" data-testid="power-error">{format!("No power budget: {}.", power_error_text(&e))}</p>
            }
            .into_any(),
            Some(Ok(b)) => {
                let rec = plan.recommendation(sweep, &s.slo)?;
                let num_gpus = sweep.deployment.num_gpus?;
                let mut figures = power_figures(&b.plan, &inputs, num_gpus, &rec);
                let fits = b.need.map(|(replicas, need)| {
                    figures.extend(need_figures(&need, &b.plan, replicas));
                    fits_text(&need, &b.plan)
                });
                view! {
                    <dl class="figures">{figures.into_iter().map(|f| item(f, dismissed)).collect_view()}</dl>
                    {fits.map(|t| view! { <p class="hint" data-testid="power-fits">{t}</p> })}
                    <p class="hint" data-testid="power-basis">{format!("{}.", basis_text(&b.plan, &inputs, num_gpus, &rec))}</p>
                }
                .into_any()
            }
        };
        Some(view! {
            <section class="capacity power" aria-labelledby="power-title" data-testid="power">
                <h2 id="power-title">"In the power budget"</h2>
                {body}
            </section>
        })
    }
}
