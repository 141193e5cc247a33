//! The human answer: per deployment, the question, the answer and its figures, the batching
//! effect, the fleet figures when a load or prices are given, the flags, and each level's
//! verdict; and the `list` of a source's deployments. Every sentence and figure comes from the
//! core functions the page shows (`core::headline`, `core::explain`, `core::capacity_text`).

use llm_slo_planner::core::anomalies::{anomalies, load_flag_counts};
use llm_slo_planner::core::capacity_text::fleet_figures;
use llm_slo_planner::core::explain::verdict_text;
use llm_slo_planner::core::format::{grouped, level as level_text, significant};
use llm_slo_planner::core::headline::{batching_sentence, flag_sentence, headline, slo_sentence};
use llm_slo_planner::core::planner::{batching_effect, Plan};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::sweep::{Source, Statistic};

/// A value or "not reported", never 0.
fn or_not_reported(value: Option<f64>, text: impl Fn(f64) -> String) -> String {
    value.map_or_else(|| "not reported".to_string(), text)
}

/// Rows of cells as left-aligned columns, two spaces apart, each line indented.
fn columns(rows: &[Vec<String>], indent: &str) -> String {
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
            format!("{indent}{}\n", cells.join("  ").trim_end())
        })
        .collect()
}

/// One deployment's answer as text.
pub fn plan_text(source: &Source, sweep_index: usize, scenario: &Scenario, plan: &Plan) -> String {
    let sweep = &source.sweeps[sweep_index];
    let slo = scenario.slo();
    let kind = sweep.level_kind();
    let h = headline(sweep, plan, &slo);
    let mut out = format!(
        "{} on {}\n  SLO: {}\n",
        scenario.model_id,
        source.sweep_label(sweep_index),
        slo_sentence(&slo)
    );
    let answer = match h.level {
        Some(level) => format!("run at {} {}", level_text(level), h.unit.unwrap_or("")),
        None => "no level to recommend".to_string(),
    };
    out.push_str(&format!(
        "  Answer: {answer} [{}]. {}\n",
        h.status, h.status_text
    ));
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
        out.push_str(&format!("  {note}\n"));
    }
    if let Some(e) = batching_effect(sweep, &slo, plan, source.provenance.reference) {
        out.push_str(&format!(
            "  Batching: {}\n",
            batching_sentence(sweep, &e, slo.stat)
        ));
    }
    let inputs = scenario.capacity_for(&sweep.deployment.gpu);
    if let Some((_, fleet)) = fleet_figures(sweep, plan, &slo, &inputs) {
        out.push_str("  Fleet:\n");
        let rows: Vec<Vec<String>> = fleet
            .iter()
            .map(|f| vec![format!("{}:", f.label), f.text.clone(), f.formula.clone()])
            .collect();
        out.push_str(&columns(&rows, "    "));
    }
    for count in load_flag_counts(sweep) {
        out.push_str(&format!(
            "  Flag {}:{}\n",
            count.kind.key(),
            flag_sentence(sweep, &count)
        ));
    }
    let flags = anomalies(sweep, &source.models[sweep.model_index], slo.stat);
    let stat = slo.stat.short_label();
    let mut rows = vec![vec![
        String::new(),
        kind.label().to_string(),
        "avg batch".to_string(),
        format!("{stat} ms"),
        "tok/s per user".to_string(),
        "output tok/s".to_string(),
        "tok/s per GPU".to_string(),
        "J/token".to_string(),
        "verdict".to_string(),
        "flags".to_string(),
    ]];
    for (li, (level, verdict)) in sweep.levels().iter().zip(&plan.verdicts).enumerate() {
        let mut kinds: Vec<&str> = flags
            .iter()
            .filter(|a| level.row_indices.contains(&a.row_index))
            .map(|a| a.kind.key())
            .collect();
        kinds.dedup();
        rows.push(vec![
            if plan.recommended == Some(li) {
                "*"
            } else {
                ""
            }
            .to_string(),
            level_text(level.level),
            or_not_reported(level.avg_batch_size, |v| grouped(v, 1)),
            or_not_reported(verdict.latency_ms, |v| significant(v, 3)),
            or_not_reported(verdict.latency_ms, |v| grouped(1000.0 / v, 1)),
            grouped(level.throughput_tok_s, 0),
            or_not_reported(sweep.per_gpu(level.throughput_tok_s), |v| grouped(v, 0)),
            or_not_reported(level.energy_per_token_j, |v| significant(v, 4)),
            verdict_text(&slo, verdict),
            kinds.join(","),
        ]);
    }
    out.push_str(&format!(
        "  Levels (* recommended; latency and per-user speed at {stat}, the worst of a level's runs):\n"
    ));
    out.push_str(&columns(&rows, "    "));
    out
}

/// The deployments of a source: per model, each deployment's `--gpu`, `--gpus` and `--cfg`, its
/// levels and the statistics it reports.
pub fn list_text(source: &Source) -> String {
    let mut out = format!(
        "{} ({}): {} models, {} deployments\n",
        source.task,
        source.task_display_name,
        source.models.len(),
        source.sweeps.len()
    );
    for m in source.models_in_menu_order() {
        out.push_str(&format!("{}\n", source.models[m].model_id));
        let rows: Vec<Vec<String>> = source
            .sweeps_of(m)
            .into_iter()
            .map(|i| {
                let sweep = &source.sweeps[i];
                let d = &sweep.deployment;
                let mut select = format!("--gpu {}", d.gpu);
                if let Some(n) = d.num_gpus {
                    select.push_str(&format!(" --gpus {n}"));
                }
                if let Some(cfg) = source.sweep_cfg(i) {
                    select.push_str(&format!(" --cfg '{}'", cfg.replace('\'', "'\\''")));
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
