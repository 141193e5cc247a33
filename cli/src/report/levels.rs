//! The levels table of a deployment's answer: each level's verdict, figures, flags and server
//! signals, one list of columns for the header and every row.

use llm_slo_planner::core::model::format::{grouped, level as level_text, significant};
use llm_slo_planner::core::model::signals::{ServerSignals, Signal};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::{Level, Sweep};
use llm_slo_planner::core::plan::anomalies::{anomalies, AnomalyKind};
use llm_slo_planner::core::plan::bottleneck::{verdicts, LevelVerdict};
use llm_slo_planner::core::plan::planner::{Plan, Slo, Verdict};
use llm_slo_planner::core::text::explain::verdict_text;
use llm_slo_planner::core::text::headline::speed_basis;
use llm_slo_planner::core::text::why_text::signal_cell;

use super::{columns, line, or_not_reported};

/// The levels table (each level's verdict, figures and flags; latency and per-user speed at the
/// statistic judged on, or under attainment the TPOT its share of requests reaches), then the
/// derived J/token note and the meaning of each flag shown.
pub(super) fn levels_text(source: &Source, sweep: &Sweep, plan: &Plan, slo: &Slo) -> String {
    let mut out = String::new();
    let flags = anomalies(sweep, &source.models[sweep.model_index], slo.stat);
    // Under attainment, a level's latency is the TPOT its share of requests reaches.
    let stat = speed_basis(slo);
    let table = level_columns(sweep, slo, &stat);
    let mut rows = vec![table.iter().map(|(header, _)| header.clone()).collect()];
    let bottlenecks = verdicts(sweep);
    for (li, ((level, verdict), bottleneck)) in sweep
        .levels()
        .iter()
        .zip(&plan.verdicts)
        .zip(&bottlenecks)
        .enumerate()
    {
        let flags: Vec<&str> = AnomalyKind::ALL
            .into_iter()
            .filter(|k| {
                flags
                    .iter()
                    .any(|a| a.kind == *k && level.row_indices.contains(&a.row_index))
            })
            .map(AnomalyKind::key)
            .collect();
        let row = LevelRow {
            recommended: plan.recommended == Some(li),
            level,
            verdict,
            bottleneck,
            signals: sweep.level_signals(li),
            flags,
        };
        rows.push(table.iter().map(|(_, cell)| cell(&row)).collect());
    }
    out.push_str(&line(&format!(
        "  Levels (* recommended; latency and per-user speed at {stat}, the worst of a level's runs):"
    )));
    out.push_str(&columns(&rows, "    "));
    let derived = sweep
        .levels()
        .iter()
        .find_map(|l| l.energy_basis.and_then(|b| b.formula()));
    if let Some(f) = derived {
        out.push_str(&line(&format!(
            "    † J/token derived: {f} of the same run."
        )));
    }
    for kind in AnomalyKind::ALL {
        if flags.iter().any(|a| a.kind == kind) {
            out.push_str(&line(&format!("    {}: {}", kind.key(), kind.meaning())));
        }
    }
    out
}

/// One level of the levels table, as its cells are drawn from.
struct LevelRow<'a> {
    /// The recommended level (marked `*`).
    recommended: bool,
    level: &'a Level,
    verdict: &'a Verdict,
    /// Why it stands where it does: the rules that hold there.
    bottleneck: &'a LevelVerdict,
    /// The server's signals there (the worst of its runs').
    signals: Option<ServerSignals>,
    /// The keys of the flags on its runs.
    flags: Vec<&'static str>,
}

/// A column of the levels table: its header and its cell.
type LevelColumn<'a> = (String, Box<dyn Fn(&LevelRow) -> String + 'a>);

/// The levels table's columns, in order, each with its header and cell: the one list the header
/// and every row are drawn from. A column per tail limit, and good requests under attainment.
fn level_columns<'a>(sweep: &'a Sweep, slo: &'a Slo, stat: &str) -> Vec<LevelColumn<'a>> {
    let column =
        |header: &str, cell: Box<dyn Fn(&LevelRow) -> String + 'a>| (header.to_string(), cell);
    let mut table: Vec<LevelColumn> = vec![
        column(
            "",
            Box::new(|r| if r.recommended { "*" } else { "" }.to_string()),
        ),
        column(
            sweep.level_kind().label(),
            Box::new(|r| level_text(r.level.level)),
        ),
        column(
            "avg batch",
            Box::new(|r| or_not_reported(r.level.avg_batch_size, |v| grouped(v, 1))),
        ),
        column(
            &format!("{stat} ms"),
            Box::new(|r| or_not_reported(r.verdict.latency_ms, |v| significant(v, 3))),
        ),
        column(
            "tok/s per user",
            Box::new(|r| or_not_reported(r.verdict.latency_ms, |v| grouped(1000.0 / v, 1))),
        ),
    ];
    for limit in &slo.limits {
        table.push(column(
            &format!("{} ms", limit.stat.short_label()),
            Box::new(move |r| {
                or_not_reported(r.level.latency_ms(limit.stat), |v| significant(v, 3))
            }),
        ));
    }
    if slo.attain.is_some() {
        table.push(column(
            "good requests",
            Box::new(|r| {
                r.verdict.attainment.map_or_else(
                    || "no per-request records".to_string(),
                    |a| {
                        format!(
                            "{} of {}",
                            grouped(a.good as f64, 0),
                            grouped(a.issued as f64, 0)
                        )
                    },
                )
            }),
        ));
    }
    table.extend([
        column(
            "output tok/s",
            Box::new(|r| grouped(r.level.throughput_tok_s, 0)),
        ),
        column(
            "tok/s per GPU",
            Box::new(move |r| {
                or_not_reported(sweep.per_gpu(r.level.throughput_tok_s), |v| grouped(v, 0))
            }),
        ),
        column(
            "J/token",
            Box::new(|r| {
                or_not_reported(r.level.energy_per_token_j, |v| {
                    let derived = r.level.energy_basis.and_then(|b| b.formula()).is_some();
                    format!("{}{}", significant(v, 4), if derived { " †" } else { "" })
                })
            }),
        ),
        column("verdict", Box::new(move |r| verdict_text(slo, r.verdict))),
        column("bottleneck", Box::new(|r| r.bottleneck.keys().join(","))),
        column("flags", Box::new(|r| r.flags.join(","))),
    ]);
    table.extend(signal_columns(sweep));
    table
}

/// A column per server signal a level of the sweep reports.
fn signal_columns<'a>(sweep: &Sweep) -> Vec<LevelColumn<'a>> {
    let signalled = |signal: Signal| {
        sweep
            .rows
            .iter()
            .any(|r| r.signals.as_ref().is_some_and(|s| s.reports(signal)))
    };
    Signal::ALL
        .into_iter()
        .filter(|s| signalled(*s))
        .map(|signal| -> LevelColumn<'a> {
            (
                signal.label().to_string(),
                Box::new(move |r| signal_cell(r.signals.as_ref(), signal)),
            )
        })
        .collect()
}
