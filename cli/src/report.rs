//! The human answer: per deployment, the question, the answer and its figures, the batching
//! effect, the fleet figures when a load or prices are given, the flags, and each level's
//! verdict; and the `list` of a source's deployments. Every sentence and figure comes from the
//! core functions the page shows (`core::text::headline`, `core::text::explain`, `core::text::capacity_text`).

use llm_slo_planner::core::model::format::{grouped, level as level_text, significant};
use llm_slo_planner::core::model::signals::{ServerSignals, Signal};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::{Level, Statistic, Sweep};
use llm_slo_planner::core::plan::anomalies::{anomalies, load_flag_counts, AnomalyKind};
use llm_slo_planner::core::plan::bottleneck::{verdicts, why, LevelVerdict};
use llm_slo_planner::core::plan::capacity::CapacityInputs;
use llm_slo_planner::core::plan::estimate::{batching_effect, estimate};
use llm_slo_planner::core::plan::period::{period, LoadProfile, Scaling};
use llm_slo_planner::core::plan::planner::{Plan, Recommendation, Slo, Verdict};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::text::capacity_text::{
    fleet_figures, load_note, no_price_note, streams_note, FleetFigure,
};
use llm_slo_planner::core::text::cost_text::cost_figures;
use llm_slo_planner::core::text::explain::verdict_text;
use llm_slo_planner::core::text::headline::{
    batching_sentence, estimate_method, flag_sentence, headline, slo_sentence, speed_basis,
};
use llm_slo_planner::core::text::period_text::{
    not_sized, period_figures, period_heading, PeriodInputs, ENERGY_NOTE,
};
use llm_slo_planner::core::text::power_text::{
    basis_text, budget_figures, fits_text, power_error_text, watts,
};
use llm_slo_planner::core::text::roles_text::roles_lines;
use llm_slo_planner::core::text::why_text::{signal_cell, targets_text, why_text};

/// Text from a file made safe for a terminal: control characters (escape sequences, line
/// feeds and carriage returns, tabs) written as `\u{1b}`, so a file cannot recolour, retitle or
/// split the output.
pub fn clean(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// One line of the text answer: `text` made safe ([`clean`]: a line feed inside it is written
/// `\u{a}`, so no field can start a line of its own), then the line's end. Every line of the
/// text answers (`plan`, `compare`, `list`) is written by it.
pub fn line(text: &str) -> String {
    format!("{}\n", clean(text))
}

/// A value or "not reported", never 0.
fn or_not_reported(value: Option<f64>, text: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "not reported".to_string(), text)
}

/// Rows of cells as left-aligned columns, two spaces apart, each line indented; each cell made
/// safe ([`clean`]) before it is measured.
fn columns(rows: &[Vec<String>], indent: &str) -> String {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|cell| clean(cell)).collect())
        .collect();
    let widths: Vec<usize> = (0..rows.first().map_or(0, Vec::len))
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    rows.iter()
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .map(|(cell, w)| format!("{cell:<w$}"))
                .collect();
            line(&format!("{indent}{}", cells.join("  ").trim_end()))
        })
        .collect()
}

/// One deployment's answer as text.
pub fn plan_text(source: &Source, sweep_index: usize, scenario: &Scenario, plan: &Plan) -> String {
    let sweep = &source.sweeps[sweep_index];
    let slo = scenario.slo.clone();
    let h = headline(sweep, plan, &slo);
    let mut out = line(&format!(
        "{} on {}",
        scenario.deployment.model_id,
        source.sweep_label(sweep_index)
    ));
    out.push_str(&line(&format!("  SLO: {}", slo_sentence(&slo))));
    out.push_str(&line(&format!(
        "  Answer: {} [{}]. {}",
        h.answer(),
        h.status,
        h.status_text
    )));
    let figures: Vec<Vec<String>> = h
        .figures
        .iter()
        .map(|f| {
            let coverage = f
                .coverage
                .map(|(_, k, n)| format!(" ({k} of {n} runs)"))
                .unwrap_or_default();
            vec![format!("{}:", f.label), format!("{}{coverage}", f.text)]
        })
        .collect();
    out.push_str(&columns(&figures, "    "));
    if let Some(note) = &h.duplicate {
        out.push_str(&line(&format!("  {note}")));
    }
    out.push_str(&roles_text(sweep, plan));
    if let Some(e) = batching_effect(sweep, &slo, plan, source.provenance.reference) {
        out.push_str(&line(&format!(
            "  Batching: {}",
            batching_sentence(sweep, &e, slo.stat)
        )));
    }
    if let Some(e) = estimate(sweep, &slo, plan) {
        let energy = e
            .energy_per_token_j
            .map(|j| format!(" and {} J/token", significant(j, 4)))
            .unwrap_or_default();
        out.push_str(&line(&format!(
            "  Estimate, not measured: about {} (between measured {} and {}), at about {} tok/s{energy}. {}",
            grouped(e.level as f64, 0),
            level_text(e.from_level),
            level_text(e.to_level),
            grouped(e.throughput_tok_s, 0),
            estimate_method(sweep, slo.stat)
        )));
    }
    if let Some(w) = why(sweep, plan) {
        let t = why_text(sweep, plan, &slo, &w);
        out.push_str(&format!(
            "  Why it stops here: {} {} {}\n",
            clean(&t.next),
            clean(&t.verdict),
            t.lever
        ));
    }
    out.push_str(&fleet_text(sweep, plan, &slo, scenario));
    if let Some(a) = scenario.autoscaler(sweep, (plan, &slo)) {
        let targets: Vec<Vec<String>> = targets_text(&a)
            .into_iter()
            .map(|(_, label, text)| vec![format!("{label}:"), clean(&text)])
            .collect();
        out.push_str(
            "  Autoscaler (per replica, at the recommended level; --autoscaler keda writes it):\n",
        );
        out.push_str(&columns(&targets, "    "));
    }
    for count in load_flag_counts(sweep, slo.stat) {
        out.push_str(&line(&format!(
            "  Flag {}:{}",
            count.kind.key(),
            flag_sentence(sweep, &count)
        )));
    }
    out.push_str(&levels_text(source, sweep, plan, &slo));
    out
}

/// A disaggregated deployment's roles and role figures at the recommended level, a line each;
/// empty for a colocated one.
fn roles_text(sweep: &Sweep, plan: &Plan) -> String {
    let level = plan.recommended.and_then(|i| sweep.levels().get(i));
    roles_lines(sweep, level)
        .into_iter()
        .map(|line| format!("  {line}\n"))
        .collect()
}

/// The fleet, cost and energy figures at the recommended level, each with its formula, and
/// their notes (streams per replica, the load, a price given for other GPU types only); empty
/// without a recommendation.
fn fleet_text(sweep: &Sweep, plan: &Plan, slo: &Slo, scenario: &Scenario) -> String {
    let mut out = String::new();
    let inputs = scenario.capacity_for(&sweep.deployment.gpu);
    if let Some((c, fleet)) = fleet_figures(sweep, plan, slo, &inputs) {
        let measured_batch = plan
            .recommended
            .and_then(|i| sweep.levels().get(i))
            .is_some_and(|l| l.avg_batch_size.is_some());
        out.push_str(&line("  Fleet, cost and energy at the recommended level:"));
        for f in &fleet {
            out.push_str(&formula_lines(f));
        }
        let mut notes = vec![streams_note(&c, measured_batch).trim_end().to_string()];
        notes.extend(load_note(&inputs, &c).map(str::to_string));
        if scenario.priced_elsewhere_only(&sweep.deployment.gpu) {
            notes.push(no_price_note(&sweep.deployment.gpu));
        }
        for note in notes {
            out.push_str(&line(&format!("    {note}")));
        }
    }
    out.push_str(&cost_text(sweep, plan, slo, &inputs));
    out.push_str(&power_text(sweep, plan, slo, scenario));
    if let (Some(load), Some(rec)) = (&scenario.fleet.load, plan.recommendation(sweep, slo)) {
        out.push_str(&period_text(
            sweep,
            load,
            scenario.fleet.scaling,
            &rec,
            &inputs,
        ));
    }
    out
}

/// What a request costs at the recommended level (with a price; against an API with `--api`),
/// each figure with its formula, and what is said beside them; empty without a price or a
/// recommendation.
fn cost_text(sweep: &Sweep, plan: &Plan, slo: &Slo, inputs: &CapacityInputs) -> String {
    let Some((_, figures, notes)) = cost_figures(sweep, plan, slo, inputs) else {
        return String::new();
    };
    let mut out = "  What a request costs at the recommended level:\n".to_string();
    for f in &figures {
        out.push_str(&format!(
            "    {}: {}\n      {}\n",
            f.label, f.text, f.formula
        ));
    }
    for note in notes {
        out.push_str(&format!("    {}\n", clean(&note)));
    }
    out
}

/// The power budget at the recommended level (`--power`): the basis, each figure with its
/// formula, and with a load its peak against the budget; or why it cannot be planned. Empty
/// without a budget or a recommendation.
fn power_text(sweep: &Sweep, plan: &Plan, slo: &Slo, scenario: &Scenario) -> String {
    let (Some((inputs, budget)), Some(rec)) = (
        scenario.power_budget(sweep, (plan, slo)),
        plan.recommendation(sweep, slo),
    ) else {
        return String::new();
    };
    let mut out = line(&format!("  Power budget of {}:", watts(inputs.budget_w)));
    match budget {
        None => {}
        Some(Err(e)) => out.push_str(&line(&format!(
            "    cannot be planned: {}",
            power_error_text(&e)
        ))),
        Some(Ok(b)) => {
            let n = sweep.deployment.num_gpus.unwrap_or(1);
            out.push_str(&line(&format!("    {}", basis_text(&b.plan, &inputs, n))));
            for f in &budget_figures(&b, &inputs, n, &rec) {
                out.push_str(&formula_lines(f));
            }
            if let Some((_, need)) = b.need {
                out.push_str(&line(&format!("    {}", fits_text(&need, &b.plan))));
            }
        }
    }
    out
}

/// The levels table (each level's verdict, figures and flags; latency and per-user speed at the
/// statistic judged on, or under attainment the TPOT its share of requests reaches), then the
/// derived J/token note and the meaning of each flag shown.
fn levels_text(source: &Source, sweep: &Sweep, plan: &Plan, slo: &Slo) -> String {
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

/// One deployment of the summary, as its cells are drawn from.
struct SummaryRow<'a> {
    plan: &'a Plan,
    rec: Option<Recommendation>,
    /// The model and the deployment's label.
    name: String,
}

/// A column of the summary: its header and its cell.
type SummaryColumn = (&'static str, fn(&SummaryRow) -> String);

/// The summary's columns, in order, each with its header and cell: the one list the header and
/// every row are drawn from.
const SUMMARY_COLUMNS: [SummaryColumn; 5] = [
    ("status", |r| r.plan.status.key().to_string()),
    ("level", |r| {
        r.rec
            .as_ref()
            .map_or_else(|| "—".to_string(), |rec| level_text(rec.level))
    }),
    ("tok/s per GPU", |r| {
        r.rec.as_ref().map_or_else(String::new, |rec| {
            or_not_reported(rec.throughput_per_gpu_tok_s, |v| grouped(v, 0))
        })
    }),
    ("J/token", |r| {
        r.rec.as_ref().map_or_else(String::new, |rec| {
            or_not_reported(rec.energy_per_token_j, |v| significant(v, 4))
        })
    }),
    ("deployment", |r| r.name.clone()),
];

/// One line per deployment planned: its answer, for reading many at once.
pub fn summary_text(source: &Source, planned: &[(usize, &Scenario, &Plan)]) -> String {
    let mut rows = vec![SUMMARY_COLUMNS
        .map(|(header, _)| header.to_string())
        .to_vec()];
    for (i, scenario, plan) in planned {
        let row = SummaryRow {
            plan,
            rec: plan.recommendation(&source.sweeps[*i], &scenario.slo),
            name: format!(
                "{} on {}",
                scenario.deployment.model_id,
                source.sweep_label(*i)
            ),
        };
        rows.push(SUMMARY_COLUMNS.map(|(_, cell)| cell(&row)).to_vec());
    }
    format!(
        "{}{}",
        line(&format!("Summary ({} deployments):", planned.len())),
        columns(&rows, "  ")
    )
}

/// A word for a POSIX shell, on one line, that the shell reads back as `text`: as it is when it
/// holds only safe characters; else single-quoted; or, where it holds a control character (a
/// line feed, a carriage return), in ANSI-C quotes with that character escaped (`$'H100\r\nx'`:
/// bash, zsh, ksh, and POSIX shells since 2024).
fn shell_word(text: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./:=+,@%".contains(c);
    if !text.is_empty() && text.chars().all(safe) {
        return text.to_string();
    }
    if !text.chars().any(char::is_control) {
        return format!("'{}'", text.replace('\'', "'\\''"));
    }
    let mut word = String::from("$'");
    for c in text.chars() {
        match c {
            '\\' | '\'' => {
                word.push('\\');
                word.push(c);
            }
            '\n' => word.push_str("\\n"),
            '\r' => word.push_str("\\r"),
            '\t' => word.push_str("\\t"),
            c if c.is_ascii_control() => word.push_str(&format!("\\x{:02x}", u32::from(c))),
            c if c.is_control() => word.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => word.push(c),
        }
    }
    word.push('\'');
    word
}

/// The deployments of a source: per model, each deployment's `--gpu`, `--gpus` and `--cfg`, its
/// levels and the statistics it reports.
pub fn list_text(source: &Source) -> String {
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut out = line(&format!(
        "{} ({}): {}, {}",
        source.task,
        source.task_display_name,
        count(source.models.len(), "model"),
        count(source.sweeps.len(), "deployment")
    ));
    for m in source.models_in_menu_order() {
        out.push_str(&line(&source.models[m].model_id));
        let rows: Vec<Vec<String>> = source
            .sweeps_of(m)
            .into_iter()
            .map(|i| {
                let sweep = &source.sweeps[i];
                let d = &sweep.deployment;
                let mut select = format!("--gpu {}", shell_word(&d.gpu));
                if let Some(n) = d.num_gpus {
                    select.push_str(&format!(" --gpus {n}"));
                }
                if let Some(cfg) = source.sweep_cfg(i) {
                    select.push_str(&format!(" --cfg {}", shell_word(cfg)));
                }
                let levels: Vec<String> =
                    sweep.levels().iter().map(|l| l.level.to_string()).collect();
                let stats: Vec<&str> = sweep.statistics().into_iter().map(Statistic::key).collect();
                vec![
                    source.sweep_label(i).to_string(),
                    select,
                    format!("{} {}", sweep.level_kind().label(), levels.join(" ")),
                    format!("stat: {}", stats.join(", ")),
                ]
            })
            .collect();
        out.push_str(&columns(&rows, "  "));
    }
    out
}

/// The period's heading, each figure with its formula (as the fleet's are written), and the
/// notes: why it is not sized, or that energy is an upper bound.
fn period_text(
    sweep: &Sweep,
    load: &LoadProfile,
    scaling: Scaling,
    rec: &Recommendation,
    inputs: &CapacityInputs,
) -> String {
    let num_gpus = sweep.deployment.num_gpus;
    let f = period(rec, num_gpus, load, scaling, inputs);
    let mut out = line(&format!(
        "  Over the period ({}):",
        period_heading(&f, load, scaling)
    ));
    let figures = period_figures(
        &f,
        &PeriodInputs {
            load,
            scaling,
            rec,
            num_gpus,
            inputs,
        },
    );
    for fig in &figures {
        out.push_str(&formula_lines(fig));
    }
    let notes = [
        not_sized(&f, load.kind),
        f.energy_kwh.is_some().then_some(ENERGY_NOTE),
    ];
    for note in notes.into_iter().flatten() {
        out.push_str(&line(&format!("    {note}")));
    }
    out
}

/// A figure as the text writes it: `label: text` on a line, its formula on the next, indented.
fn formula_lines(f: &FleetFigure) -> String {
    format!(
        "{}{}",
        line(&format!("    {}: {}", f.label, f.text)),
        line(&format!("      {}", f.formula))
    )
}
