//! The deployment's whole sweep: every measured row, with the level's verdict.

use leptos::prelude::*;

use super::data_value;
use super::verdict_text;
use crate::core::model::format::{grouped, significant};
use crate::core::model::source::Source;
use crate::core::model::sweep::{LevelKind, Row, ServedBasis, Statistic};
use crate::core::plan::anomalies::{anomalies, flag_summary, Anomaly};
use crate::core::plan::attainment::attainment_text;
use crate::core::plan::planner::{Condition, Plan, Slo};
use crate::core::scenario::Scenario;

fn ms(value: Option<f64>) -> String {
    ms_or(value, |v| significant(v, 3))
}

/// The formatted value, or "not reported".
fn ms_or(value: Option<f64>, text: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "not reported".into(), text)
}

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
pub fn SweepTable(
    source: &'static Source,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    let shape = Memo::new(move |_| {
        let i = result.with(|r| r.as_ref().map(|(i, _)| *i))?;
        Some((i, scenario.with(|s| (s.stat, s.attain.is_some()))))
    });
    let states = Memo::new(move |_| {
        let slo = scenario.with(Scenario::slo);
        result.with(|r| {
            r.as_ref()
                .map(|(_, plan)| level_states(&slo, plan))
                .unwrap_or_default()
        })
    });
    // The page shown of a sweep longer than PAGE_ROWS: the one holding the recommended (or
    // first failing) level when the sweep is shown, then as the reader moves.
    let page = RwSignal::new(0usize);
    move || {
        let (i, (stat, by_request)) = shape.get()?;
        let sweep = &source.sweeps[i];
        let runs: Vec<(usize, usize)> = sweep
            .levels()
            .iter()
            .enumerate()
            .flat_map(|(li, level)| level.row_indices.iter().map(move |&ri| (li, ri)))
            .collect();
        let pages = runs.len().div_ceil(PAGE_ROWS).max(1);
        let total_runs = runs.len();
        let focus_level = result.with_untracked(|r| {
            r.as_ref()
                .and_then(|(_, p)| p.recommended.or(p.first_failure))
        });
        let start_page = focus_level
            .and_then(|li| runs.iter().position(|(l, _)| *l == li))
            .map_or(0, |at| at / PAGE_ROWS);
        page.set(start_page);
        let stats: Vec<Statistic> = sweep
            .statistics()
            .into_iter()
            .filter(|s| *s != Statistic::Rate)
            .collect();
        let has_rate = sweep.rows.iter().any(|r| r.rate_user_tps().is_some());
        let derived = sweep
            .rows
            .iter()
            .find_map(|r| r.energy_basis.and_then(|b| b.formula()));
        let has_served = sweep.level_kind() == LevelKind::RequestRate
            && sweep.rows.iter().any(|r| r.served_req_s.is_some());
        let served_formula = sweep
            .rows
            .iter()
            .filter_map(|r| r.served_basis)
            .find(|b| *b != ServedBasis::Stated)
            .map(ServedBasis::formula);
        let flags = anomalies(sweep, &source.models[sweep.model_index], stat);
        let flag_summary = flag_summary(&flags);
        let mut flags_of_row: Vec<Vec<Anomaly>> = vec![Vec::new(); sweep.rows.len()];
        for a in flags {
            let at = a.row_index;
            flags_of_row[at].push(a);
        }
        let stats_for_rows = stats.clone();
        let rows = move || {
            let stats = stats_for_rows.clone();
            let from = page.get() * PAGE_ROWS;
            runs.iter()
                .skip(from)
                .take(PAGE_ROWS)
                .map(|&(li, ri)| {
                    let state =
                        Memo::new(move |_| states.with(|s| s.get(li).cloned().unwrap_or_default()));
                    sweep_row(
                        &sweep.rows[ri],
                        state,
                        &flags_of_row[ri],
                        Columns {
                            stats: &stats,
                            stat,
                            has_rate,
                            has_served,
                            by_request,
                        },
                    )
                })
                .collect_view()
        };
        let stat_headers = stats
            .iter()
            .map(|s| view! { <th scope="col">{format!("{} (ms)", s.short_label())}</th> })
            .collect_view();
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
                            <tr>
                                <th scope="col">{sweep.level_kind().label()}</th>
                                <th scope="col" class="verdict">{format!("vs target ({})", if by_request { "per request" } else { stat.short_label() })}</th>
                                {by_request.then(|| view! { <th scope="col">"good requests"</th> })}
                                <th scope="col">"avg batch"</th>
                                {stat_headers}
                                {has_rate.then(|| view! { <th scope="col">"rate (tok/s per user)"</th> })}
                                {has_served.then(|| view! {
                                    <th scope="col">{if served_formula.is_some() { "served (req/s)‡" } else { "served (req/s)" }}</th>
                                })}
                                <th scope="col">"output (tok/s)"</th>
                                <th scope="col">"J/token"</th>
                                <th scope="col">"power (W)"</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                {derived.map(|f| view! { <p class="hint">{format!("† J/token derived: {f} of the same run.")}</p> })}
                {has_served.then_some(served_formula).flatten().map(|f| view! {
                    <p class="hint" data-testid="served-formula">{format!("‡ Served req/s derived: {f}; a level served below 0.8 × its offered rate fails as saturated.")}</p>
                })}
            </section>
        })
    }
}

/// The columns every row of the table has.
#[derive(Clone, Copy)]
struct Columns<'a> {
    /// The latency statistics the sweep reports (not `rate`), in column order.
    stats: &'a [Statistic],
    /// The chosen statistic (its column is marked).
    stat: Statistic,
    /// A `rate` column.
    has_rate: bool,
    /// A served req/s column (request-rate sweeps that report it).
    has_served: bool,
    /// A good-requests column (under attainment).
    by_request: bool,
}

/// One run of the sweep: its figures, and its level's verdict, `state` (a memo per row, so that a
/// new target touches only the rows whose verdict changed).
fn sweep_row(
    row: &Row,
    state: Memo<LevelState>,
    flags: &[Anomaly],
    columns: Columns,
) -> impl IntoView {
    let Columns {
        stats,
        stat,
        has_rate,
        has_served,
        by_request,
    } = columns;
    let col = move |s: Statistic| if s == stat { "chosen num" } else { "num" };
    let state = move || state.get();
    let row_flags = flags
        .iter()
        .map(|a| view! {
            <span class="badge flag" data-testid="anomaly" data-kind=a.kind.key() title=a.detail.clone()>
                {a.kind.key()}
            </span>
        })
        .collect_view();
    let latency_cells = stats
        .iter()
        .map(|&s| view! { <td class=col(s)>{ms(row.latency_ms(s))}</td> })
        .collect_view();
    view! {
        <tr
            class=move || state().class
            data-testid="sweep-row"
            data-concurrency=data_value(row.level)
            data-meets=move || state().meets.to_string()
            data-saturated=move || state().saturated.then_some("true")
        >
            <th scope="row" class="num">
                {crate::core::model::format::level(row.level)}
                {move || state().recommended.then(|| view! { <span class="badge rec">"recommended"</span> })}
                {move || state().also_meets.then(|| view! {
                    <span class="badge" title="Meets, but a lower level fails: not recommended">
                        "also meets, not recommended"
                    </span>
                })}
                {row_flags}
            </th>
            <td class="verdict">{move || state().verdict}</td>
            {by_request.then(|| view! { <td class="num" data-testid="attainment">{move || state().attainment}</td> })}
            <td class="num">{ms_or(row.avg_batch_size, |v| grouped(v, 1))}</td>
            {latency_cells}
            {has_rate.then(|| view! {
                <td class=col(Statistic::Rate)>{ms_or(row.rate_user_tps(), |v| grouped(v, 1))}</td>
            })}
            {has_served.then(|| view! {
                <td class="num">{ms_or(row.served_req_s, |v| significant(v, 3))}</td>
            })}
            <td class="num">{grouped(row.throughput_tok_s, 0)}</td>
            <td class="num" title=row.energy_basis.and_then(|b| b.formula()).map(|f| format!("derived: {f}"))>
                {ms_or(row.energy_per_token_j, |j| significant(j, 4))}
                {row.energy_basis.and_then(|b| b.formula()).map(|_| "†")}
            </td>
            <td class="num">{ms_or(row.power_w, |w| grouped(w, 0))}</td>
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
