//! The bundled data: the ML.ENERGY leaderboard `lm-arena-chat` task file, compiled into the
//! binary as Rust data by `build.rs` (no JSON is parsed at start-up) and grouped into sweeps once
//! on first use. Nothing is fetched at run time.
//!
//! Source: ml-energy/leaderboard `public/data/tasks/lm-arena-chat.json` (328 rows, 38
//! deployments on H100 and B200, each swept over vLLM `max_num_seqs`), kept as
//! `data/lm-arena-chat.json`, the one source of truth; a test checks that the compiled form
//! gives the same [`Source`] as parsing that file.

use std::borrow::Cow;
use std::sync::OnceLock;

use serde::Deserialize;

use super::sweep::{Model, Provenance, Row, Source, Statistic, Sweep};

mod compiled {
    use super::Configuration;
    use std::borrow::Cow;
    include!(concat!(env!("OUT_DIR"), "/lm_arena_chat.rs"));
}

/// The `lm-arena-chat` source, built on first call and kept for the life of the program.
pub fn lm_arena_chat() -> &'static Source {
    static SOURCE: OnceLock<Source> = OnceLock::new();
    SOURCE.get_or_init(|| {
        build_source(
            compiled::TASK,
            compiled::TASK_DISPLAY_NAME,
            compiled::CONFIGURATIONS.iter().cloned(),
        )
    })
}

#[derive(Deserialize)]
struct TaskFile<'a> {
    #[serde(borrow)]
    configurations: Vec<Configuration<'a>>,
    task: String,
    task_display_name: String,
}

/// One row of an ML.ENERGY task file (current schema). Numeric metrics that may be missing in
/// other files of the same family are optional. Text borrows from the file where it can.
#[derive(Clone, Deserialize)]
struct Configuration<'a> {
    #[serde(borrow)]
    model_id: Cow<'a, str>,
    #[serde(borrow)]
    nickname: Cow<'a, str>,
    #[serde(borrow)]
    architecture: Cow<'a, str>,
    total_params_billions: f64,
    activated_params_billions: f64,
    #[serde(borrow)]
    gpu_model: Cow<'a, str>,
    num_gpus: u32,
    tensor_parallel: u32,
    #[serde(default)]
    expert_parallel: u32,
    #[serde(default)]
    data_parallel: u32,
    #[serde(borrow)]
    weight_precision: Cow<'a, str>,
    max_num_seqs: f64,
    avg_batch_size: f64,
    avg_output_len: Option<f64>,
    median_itl_ms: Option<f64>,
    p90_itl_ms: Option<f64>,
    p95_itl_ms: Option<f64>,
    p99_itl_ms: Option<f64>,
    output_throughput_tokens_per_sec: f64,
    avg_power_watts: Option<f64>,
    energy_per_token_joules: Option<f64>,
    energy_per_request_joules: Option<f64>,
}

/// The tasks whose files were taken from the same leaderboard commit as the bundled one.
fn known_date(task: &str) -> bool {
    matches!(task, "gpqa" | "sourcegraph-fim" | "image-chat")
}

/// Parses an ML.ENERGY task file (`{configurations: [...], task, task_display_name}`) into a
/// [`Source`]: one sweep per (`model_id`, `gpu_model`, `num_gpus`), in first-seen order.
///
/// Errors: the serde_json message when the text is not such a file.
pub fn parse_task_file(json: &str) -> Result<Source, String> {
    let file: TaskFile = serde_json::from_str(json).map_err(|e| e.to_string())?;
    Ok(build_source(
        &file.task,
        &file.task_display_name,
        file.configurations,
    ))
}

/// Groups a task file's rows into a [`Source`]: one sweep per (`model_id`, `gpu_model`,
/// `num_gpus`), in first-seen order.
fn build_source<'a>(
    task: &str,
    task_display_name: &str,
    configurations: impl IntoIterator<Item = Configuration<'a>>,
) -> Source {
    let mut models: Vec<Model> = Vec::new();
    let mut keys: Vec<(usize, String, u32)> = Vec::new();
    let mut groups: Vec<(Configuration, Vec<Row>)> = Vec::new();
    for c in configurations {
        let model_index = match models.iter().position(|m| m.model_id == c.model_id) {
            Some(i) => i,
            None => {
                models.push(Model {
                    model_id: c.model_id.to_string(),
                    nickname: c.nickname.to_string(),
                    architecture: c.architecture.to_string(),
                    total_params_b: Some(c.total_params_billions),
                    activated_params_b: Some(c.activated_params_billions),
                });
                models.len() - 1
            }
        };
        let key = (model_index, c.gpu_model.to_string(), c.num_gpus);
        let throughput = c.output_throughput_tokens_per_sec;
        let mut row = Row::new(c.max_num_seqs, throughput)
            .with(Statistic::P50, c.median_itl_ms)
            .with(Statistic::P90, c.p90_itl_ms)
            .with(Statistic::P95, c.p95_itl_ms)
            .with(Statistic::P99, c.p99_itl_ms)
            .with(
                Statistic::Rate,
                Some(c.avg_batch_size * 1000.0 / throughput),
            );
        row.avg_batch_size = Some(c.avg_batch_size);
        row.avg_output_len = c.avg_output_len;
        row.power_w = c.avg_power_watts;
        row.energy_per_token_j = c.energy_per_token_joules;
        row.energy_per_request_j = c.energy_per_request_joules;
        match keys.iter().position(|k| *k == key) {
            Some(i) => groups[i].1.push(row),
            None => {
                keys.push(key);
                groups.push((c, vec![row]));
            }
        }
    }
    let sweeps = keys
        .into_iter()
        .zip(groups)
        .map(|((model_index, gpu, num_gpus), (c, rows))| {
            Sweep::new(
                model_index,
                gpu,
                Some(num_gpus),
                (c.tensor_parallel, c.expert_parallel, c.data_parallel),
                c.weight_precision.into_owned(),
                rows,
            )
        })
        .collect();
    let provenance = Provenance {
        publisher: "ML.ENERGY leaderboard".to_string(),
        date: (task == "lm-arena-chat" || known_date(task))
            .then(|| "data as of ml-energy/leaderboard commit 0cd52dab, 2026-02-27".to_string()),
        engine: Some("vLLM (version not stated in the task file)".to_string()),
        input_lengths: None,
        warmup: None,
        notes: vec![
            "Power and output throughput are totals over all GPUs of the deployment, in steady state; J/token = power / throughput.".to_string(),
            "The ML.ENERGY toolkit keeps only runs whose average batch reached at least 85% of max_num_seqs.".to_string(),
        ],
        reference: false,
    };
    Source {
        provenance,
        task: task.to_string(),
        task_display_name: task_display_name.to_string(),
        models,
        sweeps,
    }
}
