//! `list`: the deployments of a source, each with the selectors that pick it, pasted back into
//! `plan` as they are written (shell words).

use llm_slo_planner::core::model::format::counted;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::Statistic;

use crate::report::{columns, line};

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
    let mut out = line(&format!(
        "{} ({}): {}, {}",
        source.task,
        source.task_display_name,
        counted(source.models.len(), "model"),
        counted(source.sweeps.len(), "deployment")
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
