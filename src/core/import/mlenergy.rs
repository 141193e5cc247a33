//! ML.ENERGY leaderboard files: the task file and the per-model file, read through the one
//! schema reader ([`super::mlenergy_config`], also compiled into `build.rs`). One row per
//! configuration; level = `max_num_seqs`; ms already. The task (`lm-arena-chat`, `gpqa`, ...)
//! is the sweep's workload, so one deployment measured on two tasks gives two sweeps.

use serde_json::{Map, Value};

use super::errors::{short, RowError};
use super::grouping::capped;
use super::mlenergy_config::{read, Configuration, Fields, ModelFields};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind, PRECISION_NOT_STATED};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Statistic;
use crate::core::model::sweep::Model;

/// The task file: its names, how its files are recognised, and its reader.
pub(crate) const TASK_SPEC: FormatSpec = FormatSpec {
    format: Format::MlEnergyTask,
    label: "ML.ENERGY task file",
    described: "an ML.ENERGY task file",
    detect: detect_task,
    parse,
    keys: &[
        "configurations",
        "task",
        "task_display_name",
        "model_id",
        "gpu_model",
        "max_num_seqs",
        "output_throughput_tokens_per_sec",
        "median_itl_ms",
    ],
    level: "max_num_seqs",
    throughput: "output_throughput_tokens_per_sec",
};

/// The per-model file: its names, how its files are recognised, and its reader.
pub(crate) const MODEL_SPEC: FormatSpec = FormatSpec {
    format: Format::MlEnergyModel,
    label: "ML.ENERGY per-model file",
    described: "an ML.ENERGY per-model file",
    detect: detect_model,
    parse,
    keys: &[
        "configurations",
        "model_id",
        "nickname",
        "parallelization",
        "gpu_model",
        "max_num_seqs",
        "output_throughput_tokens_per_sec",
    ],
    level: "max_num_seqs",
    throughput: "output_throughput_tokens_per_sec",
};

impl Fields for Map<String, Value> {
    type Error = RowError;

    fn text(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    fn number(&self, key: &str) -> Result<Option<f64>, RowError> {
        super::record::Record(self).num(key)
    }

    fn nested(&self, key: &str) -> Option<&Self> {
        self.get(key).and_then(Value::as_object)
    }

    fn missing(&self, key: &'static str) -> RowError {
        RowError::Missing { key: short(key) }
    }

    fn not_positive(&self, key: &'static str, value: f64) -> RowError {
        RowError::NotPositive {
            key: short(key),
            value: short(&value.to_string()),
        }
    }
}

/// A task file: `configurations` and `task`, runs without a nested `parallelization`.
fn detect_task(probe: &Probe) -> bool {
    probe.is_json_object()
        && probe.has_top("configurations")
        && probe.has_top("task")
        && !probe.has("parallelization")
}

/// A per-model file: `configurations` with the model at the top or `parallelization` nested.
fn detect_model(probe: &Probe) -> bool {
    probe.is_json_object()
        && probe.has_top("configurations")
        && (probe.has_top("model_id") || probe.has("parallelization"))
}

/// One configuration as a measured run of the task `task`: the row (derived figures computed),
/// its deployment and its model. The bundled data goes through here too.
pub(crate) fn measured(c: &Configuration, task: Option<&str>) -> Measured {
    let mut row = Row::new(c.max_num_seqs, c.output_throughput_tokens_per_sec)
        .with(Statistic::P50, c.median_itl_ms)
        .with(Statistic::P90, c.p90_itl_ms)
        .with(Statistic::P95, c.p95_itl_ms)
        .with(Statistic::P99, c.p99_itl_ms);
    row.avg_batch_size = c.avg_batch_size;
    row.avg_output_len = c.avg_output_len;
    row.power_w = c.avg_power_watts;
    row.set_energy_per_token_j(c.energy_per_token_joules);
    row.energy_per_request_j = c.energy_per_request_joules;
    let row = row.finish(LevelKind::MaxNumSeqs, RunCounts::default());
    let deployment = Deployment {
        gpu: capped(c.gpu_model),
        num_gpus: Some(c.num_gpus),
        tp: Some(c.tensor_parallel),
        ep: Some(c.expert_parallel),
        dp: Some(c.data_parallel),
        precision: capped(c.weight_precision.unwrap_or(PRECISION_NOT_STATED)),
        dataset: task.map(capped),
        ..Deployment::new(LevelKind::MaxNumSeqs)
    };
    let mut m = Measured::new(capped(c.model.model_id), deployment, row);
    m.model = Some(model(&c.model));
    m
}

/// The model of a run, as the planner holds it (its texts [`capped`]).
pub(crate) fn model(m: &ModelFields) -> Model {
    Model {
        model_id: capped(m.model_id),
        nickname: capped(m.nickname),
        architecture: capped(m.architecture.unwrap_or("architecture not stated")),
        total_params_b: m.total_params_billions,
        activated_params_b: m.activated_params_billions,
    }
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(top)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let Some(configs) = top.get("configurations").and_then(Value::as_array) else {
        return out.problem(&file.name, None, RowError::missing("configurations"));
    };
    let task = top.text("task");
    for (i, c) in configs.iter().enumerate() {
        if out.full() {
            break;
        }
        let Some(c) = c.as_object() else {
            out.problem(&file.name, Some(i + 1), RowError::NotAnObject);
            continue;
        };
        match read(&top, c) {
            Ok(config) => out.push(&file.name, Some(i + 1), measured(&config, task)),
            Err(e) => out.problem(&file.name, Some(i + 1), e),
        }
    }
}
