//! The human answer: per deployment, the question, the answer and its figures, the batching
//! effect, the fleet figures when a load or prices are given, the flags, and each level's
//! verdict (the table in `levels`); and the lines every text answer is written in ([`line`],
//! [`columns`]). Every sentence and figure comes from the core functions the page shows
//! (`core::text::headline`, `core::text::explain`, `core::text::capacity_text`).

mod levels;

use llm_slo_planner::core::model::format::{grouped, level as level_text, significant};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::Sweep;
use llm_slo_planner::core::plan::anomalies::load_flag_counts;
use llm_slo_planner::core::plan::bottleneck::why;
use llm_slo_planner::core::plan::capacity::CapacityInputs;
use llm_slo_planner::core::plan::estimate::{batching_effect, estimate};
use llm_slo_planner::core::plan::period::{period, LoadProfile, Scaling};
use llm_slo_planner::core::plan::planner::{Plan, Recommendation, Slo};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::text::capacity_text::{
    fleet_figures, load_note, no_price_note, streams_note, FleetFigure,
};
use llm_slo_planner::core::text::cost_text::cost_figures;
use llm_slo_planner::core::text::headline::{
    batching_sentence, estimate_method, flag_sentence, headline, slo_sentence,
};
use llm_slo_planner::core::text::period_text::{
    not_sized, period_figures, period_heading, PeriodInputs, ENERGY_NOTE,
};
use llm_slo_planner::core::text::power_text::{
    basis_text, budget_figures, fits_text, power_error_text, watts,
};
use llm_slo_planner::core::text::roles_text::roles_lines;
use llm_slo_planner::core::text::why_text::{targets_text, why_text};

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
pub(crate) fn or_not_reported(value: Option<f64>, text: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "not reported".to_string(), text)
}

/// Rows of cells as left-aligned columns, two spaces apart, each line indented; each cell made
/// safe ([`clean`]) before it is measured.
pub(crate) fn columns(rows: &[Vec<String>], indent: &str) -> String {
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
    if let Some(a) = scenario.autoscaler(sweep, plan, &slo) {
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
    out.push_str(&levels::levels_text(source, sweep, plan, &slo));
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
        scenario.power_budget(sweep, plan, slo),
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
