//! The deployment's whole sweep: every measured row, with the level's verdict.

use std::sync::Arc;

use leptos::prelude::*;

use super::data_value;
use super::plan_shown::PlanShown;
use super::verdict_text;
use crate::core::model::format::grouped;
use crate::core::model::sweep::{Row, Sweep};
use crate::core::plan::anomalies::{anomalies, flag_summary, Anomaly};
use crate::core::plan::planner::{Condition, Plan, Slo};
use crate::core::text::attainment_text::attainment_text;
use columns::Table;

mod columns;

/// What a level's row shows about the plan: it changes with the target, the rest of the row
/// does not.
#[derive(Clone, Debug, Default, PartialEq)]
struct LevelState {
    class: &'static str,
    meets: bool,
    verdict: String,
    recommended: bool,
    also_meets: bool,
    saturated: bool,
    /// Under attainment: "136 of 200 requests good (68%)", or that the level has no
    /// per-request records; `None` otherwise.
    attainment: Option<String>,
}

fn level_states(slo: &Slo, plan: &Plan) -> Vec<LevelState> {
    plan.verdicts
        .iter()
        .enumerate()
        .map(|(li, v)| {
            let recommended = plan.recommended == Some(li);
            LevelState {
                class: match (recommended, v.meets, v.unreported) {
                    (true, _, _) => "recommended meets",
                    (false, true, _) => "meets",
                    (false, false, true) => "unreported",
                    (false, false, false) => "fails",
                },
                meets: v.meets,
                verdict: verdict_text(slo, v),
                recommended,
                also_meets: plan.also_meets.iter().any(|a| a.level_index == li),
                saturated: v
                    .broken
                    .iter()
                    .any(|c| matches!(c, Condition::Saturated { .. })),
                attainment: slo.attain.map(|_| {
                    v.attainment.map_or_else(
                        || "no per-request records".to_string(),
                        |a| attainment_text(&a, None),
                    )
                }),
            }
        })
        .collect()
}

/// Rows shown at once: a longer sweep is shown a page at a time, so drawing grows with what is
/// shown, not with the sweep's size.
const PAGE_ROWS: usize = 100;

/// Every row of the selected sweep, with a column per statistic the sweep reports. Rows sharing
/// a level are all listed and marked; the verdict is the level's (worst of its rows). The chosen
/// statistic's column is marked. The table is built when the sweep or the statistic changes; a
/// new target only updates each row's verdict.
#[component]
pub fn SweepTable(shown: PlanShown) -> impl IntoView {
    let PlanShown {
        source,
        scenario,
        result,
    } = shown;
    let shape = Memo::new(move |_| {
        let i = result.with(|r| r.as_ref().map(|(i, _)| *i))?;
        Some((i, scenario.with(|s| (s.slo.stat, s.slo.attain.is_some()))))
    });
    let states = Memo::new(move |_| {
        let slo = scenario.with(|s| s.slo.clone());
        result.with(|r| {
            r.as_ref()
                .map(|(_, plan)| level_states(&slo, plan))
                .unwrap_or_default()
        })
    });
    move || {
        let (i, (stat, by_request)) = shape.get()?;
        let sweep = &source.sweeps[i];
        let runs = runs_of(sweep);
        let pages = runs.len().div_ceil(PAGE_ROWS).max(1);
        let total_runs = runs.len();
        // The page shown of a sweep longer than PAGE_ROWS: the one holding the recommended (or
        // first failing) level when the sweep is shown, then as the reader moves.
        let page = RwSignal::new(result.with_untracked(|r| first_page(r.as_ref(), &runs)));
        let table = Table::of(sweep, stat, by_request);
        let derived = sweep
            .rows
            .iter()
            .find_map(|r| r.energy_basis.and_then(|b| b.formula()));
        let flags = anomalies(sweep, &source.models[sweep.model_index], stat);
        let flag_summary = flag_summary(&flags);
        let flags_of_row = by_row(flags, sweep.rows.len());
        let headers = table
            .columns
            .iter()
            .map(|c| c.header(&table))
            .collect_view();
        let served_formula = table.served_formula;
        let held = Arc::clone(&source);
        let rows = move || {
            let from = page.get() * PAGE_ROWS;
            runs.iter()
                .skip(from)
                .take(PAGE_ROWS)
                .map(|&(li, ri)| {
                    let first = held.sweeps[i].levels()[li].row_indices.first() == Some(&ri);
                    let at = RunLevel {
                        li,
                        state: run_state(states, li, first),
                    };
                    sweep_row(&held.sweeps[i].rows[ri], at, &flags_of_row[ri], &table)
                })
                .collect_view()
        };
        Some(view! {
            <section class="sweep" aria-labelledby="sweep-title">
                <h2 id="sweep-title">{format!("The whole sweep: {}", source.sweep_label(i))}</h2>
                <p class="hint" data-testid="anomaly-summary">
                    {flag_summary}
                </p>
                {(pages > 1).then(|| pager(page, pages, total_runs))}
                <div class="table-scroll" tabindex="0" role="region" aria-label="The whole sweep: table">
                    <table data-testid="sweep-table">
                        <thead>
                            <tr>{headers}</tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {derived.map(|f| view! { <p class="hint">{format!("† J/token derived: {f} of the same run.")}</p> })}
                {served_formula.map(|f| view! {
                    <p class="hint" data-testid="served-formula">{format!("‡ Served req/s derived: {f}; a level served below 0.8 × its offered rate fails as saturated.")}</p>
                })}
            </section>
        })
    }
}

/// The page holding the recommended (or first failing) level of `result`'s plan, of `runs`
/// (as [`runs_of`] lists them).
fn first_page(result: Option<&(usize, Plan)>, runs: &[(usize, usize)]) -> usize {
    result
        .and_then(|(_, p)| p.recommended.or(p.first_failure))
        .and_then(|li| runs.iter().position(|(l, _)| *l == li))
        .map_or(0, |at| at / PAGE_ROWS)
}

/// The state of a run of level `li` (of the level `states`): a level's badges (recommended,
/// also meets) go on its `first` run only, its repeats sharing its verdict.
fn run_state(states: Memo<Vec<LevelState>>, li: usize, first: bool) -> Memo<LevelState> {
    Memo::new(move |_| {
        let mut state = states.with(|s| s.get(li).cloned().unwrap_or_default());
        state.recommended &= first;
        state.also_meets &= first;
        state
    })
}

/// Every run of `sweep` as (level index, row index), levels ascending.
fn runs_of(sweep: &Sweep) -> Vec<(usize, usize)> {
    sweep
        .levels()
        .iter()
        .enumerate()
        .flat_map(|(li, level)| level.row_indices.iter().map(move |&ri| (li, ri)))
        .collect()
}

/// The flags of each of `rows` runs, by row index.
fn by_row(flags: Vec<Anomaly>, rows: usize) -> Vec<Vec<Anomaly>> {
    let mut of_row: Vec<Vec<Anomaly>> = vec![Vec::new(); rows];
    for a in flags {
        let at = a.row_index;
        of_row[at].push(a);
    }
    of_row
}

/// A run's level: its index (`li`) and that level's verdict (`state`).
#[derive(Clone, Copy)]
struct RunLevel {
    li: usize,
    state: Memo<LevelState>,
}

/// One run of the sweep: its cells, one per column of `table`, and its level `at` (its verdict
/// a memo per row, so that a new target touches only the rows whose verdict changed).
fn sweep_row(run: &Row, at: RunLevel, flags: &[Anomaly], table: &Table) -> impl IntoView {
    let RunLevel { state, .. } = at;
    let cells = table
        .columns
        .iter()
        .map(|c| c.cell(run, at, flags, table))
        .collect_view();
    view! {
        <tr
            class=move || state.get().class
            data-testid="sweep-row"
            data-concurrency=data_value(run.level)
            data-meets=move || state.get().meets.to_string()
            data-saturated=move || state.get().saturated.then_some("true")
        >
            {cells}
        </tr>
    }
}

/// Previous / next buttons and "Rows 1–100 of 250" for a sweep longer than a page.
fn pager(page: RwSignal<usize>, pages: usize, total: usize) -> impl IntoView {
    view! {
        <nav class="pager" data-testid="sweep-pager" aria-label="Rows of the sweep">
            <button
                type="button"
                data-testid="sweep-page-previous"
                prop:disabled=move || page.get() == 0
                on:click=move |_| page.update(|p| *p = p.saturating_sub(1))
            >
                "Previous rows"
            </button>
            <span role="status">
                {move || {
                    let from = page.get() * PAGE_ROWS;
                    format!(
                        "Rows {}–{} of {} (levels ascending)",
                        grouped((from + 1) as f64, 0),
                        grouped((from + PAGE_ROWS).min(total) as f64, 0),
                        grouped(total as f64, 0)
                    )
                }}
            </span>
            <button
                type="button"
                data-testid="sweep-page-next"
                prop:disabled=move || { page.get() + 1 >= pages }
                on:click=move |_| page.update(|p| *p = (*p + 1).min(pages - 1))
            >
                "Next rows"
            </button>
        </nav>
    }
}
