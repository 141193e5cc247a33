//! The power budget: with a budget (`power`), the replicas, GPUs and users that fit in it at the
//! recommended level (`core::plan::power`), each figure with its formula on hover, the basis in
//! words, and with a load its peak against the budget. Its code is loaded on demand, when a
//! budget is first given.

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::capacity::{escape_dismisses, item};
use super::data_value;
use super::plan_shown::PlanShown;
use crate::core::model::format::grouped;
use crate::core::model::source::Source;
use crate::core::plan::compare::family_rows;
use crate::core::plan::power::across::{most_users, per_mw_rows, PerMw};
use crate::core::plan::power::PowerInputs;
use crate::core::scenario::Scenario;
use crate::core::text::power_text::{
    basis_text, budget_figures, fits_text, most_users_text, power_error_text,
};
use crate::on_demand::{self, Drawn, Failed, Holder};

/// The panel, once the scenario has a power budget: an empty element its code, loaded on
/// demand, draws into.
#[component]
pub fn Power(shown: PlanShown) -> impl IntoView {
    let scenario = shown.scenario;
    let wanted = Memo::new(move |_| scenario.with(|s| s.fleet.power.budget_w.is_some()));
    on_demand::while_wanted(
        wanted,
        Holder {
            id: HOLDER,
            lost: "The power budget cannot be drawn",
        },
        "Loading the power budget…",
        move |owner| panel_view(owner, shown.clone()),
    )
}

/// The id of the element the panel is drawn into.
const HOLDER: &str = "power";

/// Draws the panel into the [`HOLDER`] element under `owner` ([`on_demand::draw_in`]), with its
/// code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(owner: Option<Owner>, shown: PlanShown) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::draw_in(owner, HOLDER, move || panel(shown)))
}

/// The figures, the basis and the load's peak for the shown scenario, or why there are none.
fn panel(shown: PlanShown) -> impl IntoView {
    let dismissed = escape_dismisses();
    let sorted = RwSignal::new(PerMw::Users);
    move || {
        let (i, plan, s) = shown.now()?;
        let source = &shown.source;
        let sweep = &source.sweeps[i];
        let (inputs, budget) = s.power_budget(sweep, &plan, &s.slo)?;
        let body = match budget {
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
                let figures = budget_figures(&b, &inputs, num_gpus, &rec);
                let fits = b.need.map(|(_, need)| fits_text(&need, &b.plan));
                view! {
                    <dl class="figures">{figures.into_iter().map(|f| item(f, dismissed)).collect_view()}</dl>
                    {fits.map(|t| view! { <p class="hint" data-testid="power-fits">{t}</p> })}
                    <p class="hint" data-testid="power-basis">{format!("{}.", basis_text(&b.plan, &inputs, num_gpus))}</p>
                }
                .into_any()
            }
        };
        Some(view! {
            <section class="capacity power" aria-labelledby="power-title" data-testid="power">
                <h2 id="power-title">"In the power budget"</h2>
                {body}
                {side_by_side(source, &s, &inputs, sorted)}
            </section>
        })
    }
}

/// Every deployment of the model (and its precision variants) in the budget at its own
/// recommended level, sorted by users or tok/s per MW (`sorted`, set by the headers' buttons);
/// one whose power cannot be read is last, with a dash; and the one serving the most users.
fn side_by_side(
    source: &Source,
    s: &Scenario,
    inputs: &PowerInputs,
    sorted: RwSignal<PerMw>,
) -> impl IntoView {
    let rows = source
        .model_index(&s.deployment.model_id)
        .map(|m| family_rows(source, m, &s.slo))
        .unwrap_or_default();
    let most = most_users(source, &rows, inputs).and_then(|(r, plan)| {
        let sweep = &source.sweeps[r.sweep_index];
        let label = format!(
            "{} on {}",
            source.models[sweep.model_index].nickname,
            source.sweep_label(r.sweep_index)
        );
        most_users_text(&label, &plan)
    });
    let by = sorted.get();
    let body = per_mw_rows(source, &rows, inputs, by)
        .into_iter()
        .map(|(r, plan)| {
            let sweep = &source.sweeps[r.sweep_index];
            let of = |by: PerMw| plan.as_ref().and_then(|p| by.of(p));
            let cell = |by: PerMw| of(by).map_or_else(|| "—".to_string(), |v| grouped(v, 0));
            let (per_user, per_tok) = (of(PerMw::Users), of(PerMw::TokS));
            view! {
                <tr
                    data-testid="power-row"
                    data-gpu=sweep.deployment.gpu.clone()
                    data-users-per-mw=per_user.map(data_value).unwrap_or_default()
                    data-tok-s-per-mw=per_tok.map(data_value).unwrap_or_default()
                >
                    <th scope="row">{format!("{} · {}", source.models[sweep.model_index].nickname, source.sweep_label(r.sweep_index))}</th>
                    <td class="num">{cell(PerMw::Users)}</td>
                    <td class="num">{cell(PerMw::TokS)}</td>
                </tr>
            }
        })
        .collect_view();
    let header = move |column: PerMw, testid: &'static str| {
        view! {
            <th scope="col" class="num" aria-sort=if by == column { "descending" } else { "none" }>
                <button type="button" class="sort" data-testid=testid on:click=move |_| sorted.set(column)>{column.label()}</button>
            </th>
        }
    };
    view! {
        <h3>"Every deployment in the budget"</h3>
        {most.map(|t| view! { <p class="notice" data-testid="power-most-users">{t}</p> })}
        <div class="table-scroll wraps" tabindex="0" role="region" aria-label="Every deployment in the budget: table">
            <table data-testid="power-compare">
                <thead>
                    <tr>
                        <th scope="col">"deployment"</th>
                        {header(PerMw::Users, "power-sort-users")}
                        {header(PerMw::TokS, "power-sort-tok-s")}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}
