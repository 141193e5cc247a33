//! The bundled data: the ML.ENERGY leaderboard `lm-arena-chat` task file, compiled into the
//! binary as Rust data by `build.rs` (no JSON is parsed at start-up) and grouped into sweeps once
//! on first use. Nothing is fetched at run time.
//!
//! The page carries only a part of it from the start, [`lm_arena_chat_part`]: the default
//! model's family, and every model's name. The whole, [`lm_arena_chat`], is compiled into the
//! tools module (and the command line), and the page reads it from there when it first shows
//! another model or every model (`ui::registry`). A native test checks that the part's sweeps
//! are the whole's, named alike.
//!
//! Source: ml-energy/leaderboard `public/data/tasks/lm-arena-chat.json` (328 rows, 38
//! deployments on H100 and B200, each swept over vLLM `max_num_seqs`), kept as
//! `data/lm-arena-chat.json`, the one source of truth. `build.rs` reads it with the same schema
//! reader as an imported ML.ENERGY file (`import::mlenergy_config`), and the runs go through the
//! same grouping, so importing that file gives the same sweeps (a test checks it).

use std::sync::{Arc, OnceLock};

use crate::core::import::mlenergy_config::{Configuration, ModelFields};
use serde::{Deserialize, Serialize};

use crate::core::import::{group, import, mlenergy_measured, mlenergy_model, InputFile, RowError};
use crate::core::model::source::{Provenance, Source, Whole};
use crate::core::model::sweep::{Model, Sweep};

mod compiled {
    use super::{Configuration, ModelFields};
    include!(concat!(env!("OUT_DIR"), "/lm_arena_chat.rs"));
}

/// The `lm-arena-chat` source, built on first call and kept for the life of the program.
pub fn lm_arena_chat() -> &'static Source {
    static SOURCE: OnceLock<Source> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let (models, sweeps) = grouped(&compiled::CONFIGURATIONS);
        lm_arena_chat_of(models, sweeps)
    })
}

/// The part of the `lm-arena-chat` source the page holds from the start: the sweeps of the
/// default model and its precision variants ([`crate::core::model::family`]), every model of the whole (the
/// others with no sweeps here), and what the whole holds ([`Source::whole`]). Built on first
/// call and kept for the life of the program.
pub fn lm_arena_chat_part() -> Arc<Source> {
    static SOURCE: OnceLock<Arc<Source>> = OnceLock::new();
    let part = SOURCE.get_or_init(|| {
        let (held, mut sweeps) = grouped(&compiled::PART);
        let mut models: Vec<_> = compiled::MODELS.iter().map(mlenergy_model).collect();
        for sweep in &mut sweeps {
            let model = &held[sweep.model_index];
            // build.rs lists every model of the part; one it did not would be kept all the same.
            sweep.model_index = models
                .iter()
                .position(|m| m.model_id == model.model_id)
                .unwrap_or_else(|| {
                    models.push(model.clone());
                    models.len() - 1
                });
        }
        let mut part = lm_arena_chat_of(models, sweeps);
        part.whole = Some(Whole {
            rows: compiled::WHOLE_ROWS,
            sweeps: compiled::WHOLE_SWEEPS,
            gpu_types: compiled::WHOLE_GPU_TYPES.to_vec(),
        });
        Arc::new(part)
    });
    Arc::clone(part)
}

/// The compiled runs, grouped into sweeps (models and sweeps in first-seen order).
fn grouped(configurations: &[Configuration<'static>]) -> (Vec<Model>, Vec<Sweep>) {
    group(
        configurations
            .iter()
            .map(|c| mlenergy_measured(c, Some(compiled::TASK)))
            .collect(),
    )
}

/// The `lm-arena-chat` source of these models and sweeps, with the leaderboard's provenance.
fn lm_arena_chat_of(models: Vec<Model>, sweeps: Vec<Sweep>) -> Source {
    Source::new(
        compiled::TASK.to_string(),
        compiled::TASK_DISPLAY_NAME.to_string(),
        models,
        sweeps,
        provenance(compiled::TASK),
    )
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

/// Why a text is not an ML.ENERGY task file; worded by its `Display`
/// (`core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TaskFileError {
    /// Not JSON: serde_json's reason.
    NotJson(String),
    /// JSON without `task` and `task_display_name`.
    NotTaskFile,
    /// A task file with no usable run: the first problem, if any.
    NoUsableRun(Option<RowError>),
}

impl std::error::Error for TaskFileError {}

/// Parses an ML.ENERGY task file (`{configurations: [...], task, task_display_name}`) into a
/// [`Source`] with the leaderboard's provenance, through the same reader and grouping as an
/// import.
///
/// Errors: why the text is not such a file, or the first problem of a file with no usable run
/// ([`TaskFileError`]).
pub fn parse_task_file(json: &str) -> Result<Source, TaskFileError> {
    let top: serde_json::Value =
        serde_json::from_str(json).map_err(|e| TaskFileError::NotJson(e.to_string()))?;
    let text = |key: &str| top.get(key).and_then(serde_json::Value::as_str);
    let (Some(task), Some(display)) = (text("task"), text("task_display_name")) else {
        return Err(TaskFileError::NotTaskFile);
    };
    let file = InputFile {
        name: format!("{task}.json"),
        text: json.to_string(),
    };
    let imported = import(&[file]).map_err(|problems| {
        TaskFileError::NoUsableRun(problems.into_iter().next().map(|p| p.error))
    })?;
    Ok(Source::new(
        task.to_string(),
        display.to_string(),
        imported.source.models,
        imported.source.sweeps,
        provenance(task),
    ))
}
