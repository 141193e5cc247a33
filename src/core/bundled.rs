//! The bundled data: the ML.ENERGY leaderboard `lm-arena-chat` task file, compiled into the
//! binary as Rust data by `build.rs` (no JSON is parsed at start-up) and grouped into sweeps once
//! on first use. Nothing is fetched at run time.
//!
//! Source: ml-energy/leaderboard `public/data/tasks/lm-arena-chat.json` (328 rows, 38
//! deployments on H100 and B200, each swept over vLLM `max_num_seqs`), kept as
//! `data/lm-arena-chat.json`, the one source of truth. `build.rs` reads it with the same schema
//! reader as an imported ML.ENERGY file (`import::mlenergy_config`), and the runs go through the
//! same grouping, so importing that file gives the same sweeps (a test checks it).

use std::sync::OnceLock;

use super::import::mlenergy_config::Configuration;
use super::import::{group, import, mlenergy_measured, InputFile};
use super::sweep::{Provenance, Source};

mod compiled {
    use super::Configuration;
    include!(concat!(env!("OUT_DIR"), "/lm_arena_chat.rs"));
}

/// The `lm-arena-chat` source, built on first call and kept for the life of the program.
pub fn lm_arena_chat() -> &'static Source {
    static SOURCE: OnceLock<Source> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let runs = compiled::CONFIGURATIONS
            .iter()
            .map(|c| mlenergy_measured(c, Some(compiled::TASK)))
            .collect();
        let (models, sweeps) = group(runs);
        Source::new(
            compiled::TASK.to_string(),
            compiled::TASK_DISPLAY_NAME.to_string(),
            models,
            sweeps,
            provenance(compiled::TASK),
        )
    })
}

/// The tasks whose files were taken from the same leaderboard commit as the bundled one.
fn known_date(task: &str) -> bool {
    matches!(
        task,
        "lm-arena-chat" | "gpqa" | "sourcegraph-fim" | "image-chat"
    )
}

/// What the ML.ENERGY leaderboard states and does not state about a task's runs.
fn provenance(task: &str) -> Provenance {
    Provenance {
        publisher: "ML.ENERGY leaderboard".to_string(),
        date: known_date(task)
            .then(|| "data as of ml-energy/leaderboard commit 0cd52dab, 2026-02-27".to_string()),
        engine: Some("vLLM (version not stated in the task file)".to_string()),
        input_lengths: None,
        warmup: None,
        notes: vec![
            "Power and output throughput are totals over all GPUs of the deployment, in steady state; J/token = power / throughput.".to_string(),
            "The ML.ENERGY toolkit keeps only runs whose average batch reached at least 85% of max_num_seqs.".to_string(),
        ],
        reference: false,
    }
}

/// Parses an ML.ENERGY task file (`{configurations: [...], task, task_display_name}`) into a
/// [`Source`] with the leaderboard's provenance, through the same reader and grouping as an
/// import.
///
/// Errors: why the text is not such a file, or the first problem of a file with no usable run.
pub fn parse_task_file(json: &str) -> Result<Source, String> {
    let top: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    let text = |key: &str| top.get(key).and_then(serde_json::Value::as_str);
    let (Some(task), Some(display)) = (text("task"), text("task_display_name")) else {
        return Err("not an ML.ENERGY task file (no `task` and `task_display_name`)".into());
    };
    let file = InputFile {
        name: format!("{task}.json"),
        text: json.to_string(),
    };
    let imported = import(&[file]).map_err(|problems| {
        problems
            .first()
            .map_or_else(|| "no usable run".to_string(), |p| p.message())
    })?;
    Ok(Source::new(
        task.to_string(),
        display.to_string(),
        imported.source.models,
        imported.source.sweeps,
        provenance(task),
    ))
}
