//! The deployment's whole sweep: every measured row, with the level's verdict.

use std::sync::Arc;

use leptos::prelude::*;

use super::data_value;
use super::verdict_text;
use crate::core::model::deployment::Roles;
use crate::core::model::format::{grouped, significant};
use crate::core::model::roles::RolePerGpu;
use crate::core::model::signals::Signal;
use crate::core::model::source::Source;
use crate::core::model::sweep::{LevelKind, Row, ServedBasis, Statistic, Sweep};
use crate::core::plan::anomalies::{anomalies, flag_summary, Anomaly};
use crate::core::plan::bottleneck::verdicts;
use crate::core::plan::planner::{Condition, Plan, Slo};
use crate::core::scenario::Scenario;
use crate::core::text::attainment_text::attainment_text;
use crate::core::text::why_text::{signal_cell, verdict_words};

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
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
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
        let focus_level = result.with_untracked(|r| {
            r.as_ref()
                .and_then(|(_, p)| p.recommended.or(p.first_failure))
        });
        let page = RwSignal::new(
            focus_level
                .and_then(|li| runs.iter().position(|(l, _)| *l == li))
                .map_or(0, |at| at / PAGE_ROWS),
        );
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

/// A column of the sweep table. The table's one list of them ([`Table::columns`]) draws both its
/// header and every run's cells.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Column {
    /// The run's level (concurrency, request rate, ...), with its badges and flags.
    Level(LevelKind),
    /// The level's verdict against the target.
    Verdict,
    /// Good requests of the level (under attainment).
    GoodRequests,
    /// The batch size the run reached.
    AvgBatch,
    /// A latency statistic the sweep reports, ms.
    Latency(Statistic),
    /// Per-user tok/s as the run reports it (`rate`).
    Rate,
    /// Requests served per second (request-rate sweeps that report it).
    Served,
    /// Output tok/s.
    Output,
    /// J/token.
    Energy,
    /// Power, W.
    Power,
    /// Output tok/s per GPU of a disaggregated deployment: over all of them (P + D).
    PerGpu,
    /// Output tok/s per decode GPU (D).
    PerDecodeGpu,
    /// Input tok/s per prefill GPU (P).
    PerPrefillGpu,
    /// A server signal some run reports (running, waiting, KV use, preemptions).
    Signal(Signal),
    /// Why the level stands where it does: the bottleneck rules that hold there.
    Bottleneck,
}

/// The sweep table's shape: its columns in order, and what their headers and cells need.
struct Table {
    columns: Vec<Column>,
    /// The statistic judged (its column is marked), and whether the target is judged per
    /// request.
    stat: Statistic,
    by_request: bool,
    /// How served req/s was derived, when some run's was (its header is marked ‡).
    served_formula: Option<&'static str>,
    /// The roles of a disaggregated deployment (its per-GPU and role columns).
    roles: Option<Roles>,
    /// Each level's bottleneck verdict: its rules' keys (`data-verdict`) and its words.
    bottlenecks: Vec<(String, String)>,
    /// The metric each signal column was read from (the first run's that reports it).
    sources: Vec<(Signal, String)>,
}

impl Table {
    /// The columns `sweep` has: a column per latency statistic it reports (not `rate`), a rate
    /// column when a run reports one, served req/s on request-rate sweeps that report it, good
    /// requests under attainment.
    fn of(sweep: &Sweep, stat: Statistic, by_request: bool) -> Table {
        let mut columns = vec![Column::Level(sweep.level_kind()), Column::Verdict];
        if by_request {
            columns.push(Column::GoodRequests);
        }
        columns.push(Column::AvgBatch);
        columns.extend(
            sweep
                .statistics()
                .into_iter()
                .filter(|s| *s != Statistic::Rate)
                .map(Column::Latency),
        );
        if sweep.rows.iter().any(|r| r.rate_user_tps().is_some()) {
            columns.push(Column::Rate);
        }
        let served = sweep.level_kind() == LevelKind::RequestRate
            && sweep.rows.iter().any(|r| r.served_req_s.is_some());
        if served {
            columns.push(Column::Served);
        }
        columns.extend([Column::Output, Column::Energy, Column::Power]);
        let roles = sweep.deployment.roles().copied();
        if roles.is_some() {
            columns.extend([Column::PerGpu, Column::PerDecodeGpu, Column::PerPrefillGpu]);
        }
        let signalled = |signal: Signal| {
            sweep
                .rows
                .iter()
                .any(|r| r.signals.as_ref().is_some_and(|s| s.reports(signal)))
        };
        columns.extend(
            Signal::ALL
                .into_iter()
                .filter(|s| signalled(*s))
                .map(Column::Signal),
        );
        columns.push(Column::Bottleneck);
        let sources = Signal::ALL
            .into_iter()
            .filter_map(|signal| {
                let source = sweep
                    .rows
                    .iter()
                    .find_map(|r| r.signals.as_ref()?.source(signal))?;
                Some((signal, source.metric(signal)))
            })
            .collect();
        let kind = sweep.level_kind();
        let bottlenecks = verdicts(sweep)
            .iter()
            .map(|v| (v.keys().join(" "), verdict_words(v, kind)))
            .collect();
        let served_formula = sweep
            .rows
            .iter()
            .filter_map(|r| r.served_basis)
            .find(|b| *b != ServedBasis::Stated)
            .map(ServedBasis::formula)
            .filter(|_| served);
        Table {
            columns,
            stat,
            by_request,
            served_formula,
            roles,
            bottlenecks,
            sources,
        }
    }
}

impl Column {
    /// The column's header cell.
    fn header(self, table: &Table) -> impl IntoView {
        let (text, class) = match self {
            Column::Level(kind) => (kind.label().to_string(), None),
            Column::Verdict => (
                format!(
                    "vs target ({})",
                    if table.by_request {
                        "per request"
                    } else {
                        table.stat.short_label()
                    }
                ),
                Some("verdict"),
            ),
            Column::GoodRequests => ("good requests".to_string(), None),
            Column::AvgBatch => ("avg batch".to_string(), None),
            Column::Latency(s) => (format!("{} (ms)", s.short_label()), None),
            Column::Rate => ("rate (tok/s per user)".to_string(), None),
            Column::Served if table.served_formula.is_some() => {
                ("served (req/s)‡".to_string(), None)
            }
            Column::Served => ("served (req/s)".to_string(), None),
            Column::Output => ("output (tok/s)".to_string(), None),
            Column::Energy => ("J/token".to_string(), None),
            Column::Power => ("power (W)".to_string(), None),
            Column::PerGpu => (
                format!(
                    "tok/s per GPU (all {})",
                    table
                        .roles
                        .and_then(|r| r.total_gpus())
                        .map_or_else(|| "?".to_string(), |n| n.to_string())
                ),
                None,
            ),
            Column::PerDecodeGpu => ("output tok/s per decode GPU".to_string(), None),
            Column::PerPrefillGpu => ("input tok/s per prefill GPU".to_string(), None),
            Column::Signal(signal) => {
                let from = table.sources.iter().find(|(s, _)| *s == signal);
                let text = match from {
                    Some((_, metric)) => format!("{} ({metric})", signal.label()),
                    None => signal.label().to_string(),
                };
                (text, None)
            }
            Column::Bottleneck => ("bottleneck".to_string(), Some("verdict")),
        };
        view! { <th scope="col" class=class>{text}</th> }
    }

    /// The column's cell in the row of `run`, at its level (`at`, with its verdict); `flags`:
    /// the run's anomalies.
    fn cell(self, run: &Row, at: RunLevel, flags: &[Anomaly], table: &Table) -> AnyView {
        let RunLevel { li, state } = at;
        let marked = |s: Statistic| if s == table.stat { "chosen num" } else { "num" };
        match self {
            Column::Level(_) => level_cell(run, state, flags).into_any(),
            Column::Verdict => {
                view! { <td class="verdict">{move || state.get().verdict}</td> }.into_any()
            }
            Column::GoodRequests => view! {
                <td class="num" data-testid="attainment">{move || state.get().attainment}</td>
            }
            .into_any(),
            Column::AvgBatch => number(ms_or(run.avg_batch_size, |v| grouped(v, 1))),
            Column::Latency(s) => {
                view! { <td class=marked(s)>{ms(run.latency_ms(s))}</td> }.into_any()
            }
            Column::Rate => view! {
                <td class=marked(Statistic::Rate)>{ms_or(run.rate_user_tps(), |v| grouped(v, 1))}</td>
            }
            .into_any(),
            Column::Served => number(ms_or(run.served_req_s, |v| significant(v, 3))),
            Column::Output => number(grouped(run.throughput_tok_s, 0)),
            Column::Energy => {
                let formula = run.energy_basis.and_then(|b| b.formula());
                view! {
                    <td class="num" title=formula.map(|f| format!("derived: {f}"))>
                        {ms_or(run.energy_per_token_j, |j| significant(j, 4))}
                        {formula.map(|_| "†")}
                    </td>
                }
                .into_any()
            }
            Column::Power => number(ms_or(run.power_w, |w| grouped(w, 0))),
            Column::PerGpu | Column::PerDecodeGpu | Column::PerPrefillGpu => {
                let roles = table.roles.unwrap_or_default();
                let per_role = RolePerGpu::of(&roles, run.throughput_tok_s, run.input_tok_s);
                let value = match self {
                    Column::PerGpu => roles
                        .total_gpus()
                        .filter(|n| *n > 0)
                        .map(|n| run.throughput_tok_s / f64::from(n)),
                    Column::PerDecodeGpu => per_role.output_tok_s_per_decode_gpu,
                    _ => per_role.input_tok_s_per_prefill_gpu,
                };
                number(ms_or(value, |v| grouped(v, 1)))
            }
            Column::Signal(signal) => number(signal_cell(run.signals.as_deref(), signal)),
            Column::Bottleneck => {
                let (keys, words) = table.bottlenecks.get(li).cloned().unwrap_or_default();
                view! {
                    <td class="verdict" data-testid="level-verdict" data-verdict=keys.clone() title=words>
                        {keys.replace(' ', ", ")}
                    </td>
                }
                .into_any()
            }
        }
    }
}

/// A plain number's cell.
fn number(text: String) -> AnyView {
    view! { <td class="num">{text}</td> }.into_any()
}

/// The level's cell of `run`: the level, its badges (recommended, also meets) and the run's
/// flags.
fn level_cell(run: &Row, state: Memo<LevelState>, flags: &[Anomaly]) -> impl IntoView {
    let row_flags = flags
        .iter()
        .map(|a| view! {
            <span class="badge flag" data-testid="anomaly" data-kind=a.kind.key() title=a.detail.clone()>
                {a.kind.key()}
            </span>
        })
        .collect_view();
    view! {
        <th scope="row" class="num">
            {crate::core::model::format::level(run.level)}
            {move || state.get().recommended.then(|| view! { <span class="badge rec">"recommended"</span> })}
            {move || state.get().also_meets.then(|| view! {
                <span class="badge" title="Meets, but a lower level fails: not recommended">
                    "also meets, not recommended"
                </span>
            })}
            {row_flags}
        </th>
    }
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
