//! The sweep table's columns: the one list of them a sweep has ([`Table`]), each column's
//! header and each run's cell in it.

use leptos::prelude::*;

use super::{LevelState, RunLevel};
use crate::core::model::deployment::Roles;
use crate::core::model::format::{grouped, significant};
use crate::core::model::roles::RolePerGpu;
use crate::core::model::signals::Signal;
use crate::core::model::sweep::{LevelKind, Row, ServedBasis, Statistic, Sweep};
use crate::core::plan::anomalies::Anomaly;
use crate::core::plan::bottleneck::verdicts;
use crate::core::text::why_text::{signal_cell, verdict_words};

/// A latency's cell text, ms, or "not reported".
fn ms(value: Option<f64>) -> String {
    ms_or(value, |v| significant(v, 3))
}

/// The formatted value, or "not reported".
fn ms_or(value: Option<f64>, text: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "not reported".into(), text)
}

/// A column of the sweep table. The table's one list of them ([`Table::columns`]) draws both its
/// header and every run's cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Column {
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
pub(super) struct Table {
    /// The columns, in order.
    pub(super) columns: Vec<Column>,
    /// The statistic judged (its column is marked), and whether the target is judged per
    /// request.
    stat: Statistic,
    by_request: bool,
    /// How served req/s was derived, when some run's was (its header is marked ‡).
    pub(super) served_formula: Option<&'static str>,
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
    pub(super) fn of(sweep: &Sweep, stat: Statistic, by_request: bool) -> Table {
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
    pub(super) fn header(self, table: &Table) -> impl IntoView {
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
    pub(super) fn cell(self, run: &Row, at: RunLevel, flags: &[Anomaly], table: &Table) -> AnyView {
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
