//! ML.ENERGY leaderboard files: the task file (`{configurations: [...], task}`, current schema
//! or the older preview without `avg_output_len`, with `data_parallel`/`expert_parallel` 0 as
//! "default") and the per-model file (model fields at the top, `parallelization` nested in each
//! configuration). One row per configuration; level = `max_num_seqs`; ms already.

use serde_json::Value;

use super::record::{count, Record};
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Model, Row, Statistic};

fn model_of(rec: &Record, model_id: &str) -> Model {
    Model {
        model_id: model_id.to_string(),
        nickname: rec.text("nickname").unwrap_or(model_id).to_string(),
        architecture: rec
            .text("architecture")
            .unwrap_or("architecture not stated")
            .to_string(),
        total_params_b: rec.num("total_params_billions").ok().flatten(),
        activated_params_b: rec.num("activated_params_billions").ok().flatten(),
    }
}

/// A parallel degree: 0 (the preview schema's "default") and absence read as 1.
fn degree(rec: &Record, key: &str) -> u32 {
    count(rec.num(key).ok().flatten()).unwrap_or(1)
}

fn row_of(c: &Record) -> Result<Row, String> {
    let level = c.num("max_num_seqs")?.ok_or("missing key `max_num_seqs`")?;
    let throughput = c
        .num("output_throughput_tokens_per_sec")?
        .ok_or("missing key `output_throughput_tokens_per_sec`")?;
    if level <= 0.0 || throughput <= 0.0 {
        return Err("`max_num_seqs` and output throughput must be positive".into());
    }
    let batch = c.num("avg_batch_size")?;
    let mut row = Row::new(level, throughput)
        .with(Statistic::P50, c.num("median_itl_ms")?)
        .with(Statistic::P90, c.num("p90_itl_ms")?)
        .with(Statistic::P95, c.num("p95_itl_ms")?)
        .with(Statistic::P99, c.num("p99_itl_ms")?)
        .with(Statistic::Rate, batch.map(|b| b * 1000.0 / throughput));
    row.avg_batch_size = batch.filter(|b| *b > 0.0);
    row.avg_output_len = c.num("avg_output_len")?;
    row.power_w = c.num("avg_power_watts")?;
    row.energy_per_token_j = c.num("energy_per_token_joules")?;
    row.energy_per_request_j = c.num("energy_per_request_joules")?;
    let negative = [
        row.power_w,
        row.energy_per_token_j,
        row.energy_per_request_j,
        batch,
    ]
    .iter()
    .flatten()
    .any(|v| *v < 0.0);
    if negative {
        return Err("negative power, energy or batch size".into());
    }
    Ok(row)
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let Some(value) = out.json(&file.name, None, &file.text) else {
        return;
    };
    let Some(top) = value.as_object().map(Record) else {
        return out.problem(&file.name, None, "not a JSON object");
    };
    let Some(configs) = top.0.get("configurations").and_then(Value::as_array) else {
        return out.problem(&file.name, None, "missing key `configurations`");
    };
    for (i, c) in configs.iter().enumerate() {
        let row_no = Some(i + 1);
        let Some(c) = c.as_object().map(Record) else {
            out.problem(&file.name, row_no, "not a JSON object");
            continue;
        };
        // Per-model files carry the model at the top and parallelism nested.
        let model_rec = if c.text("model_id").is_some() {
            &c
        } else {
            &top
        };
        let Some(model_id) = model_rec.text("model_id") else {
            out.problem(&file.name, row_no, "missing key `model_id`");
            continue;
        };
        let par = c.object("parallelization").unwrap_or(Record(c.0));
        let (Some(gpu), Some(num_gpus)) =
            (c.text("gpu_model"), count(c.num("num_gpus").ok().flatten()))
        else {
            out.problem(
                &file.name,
                row_no,
                "missing or invalid `gpu_model` / `num_gpus`",
            );
            continue;
        };
        match row_of(&c) {
            Ok(row) => {
                let precision = c
                    .text("weight_precision")
                    .or_else(|| top.text("weight_precision"))
                    .unwrap_or("precision not stated");
                let key = SweepKey {
                    model_id: model_id.to_string(),
                    gpu: gpu.to_string(),
                    num_gpus: Some(num_gpus),
                    parallelism: (
                        degree(&par, "tensor_parallel"),
                        degree(&par, "expert_parallel"),
                        degree(&par, "data_parallel"),
                    ),
                    precision: precision.to_string(),
                    level_kind: LevelKind::MaxNumSeqs,
                    // The task tells apart the same deployment in two workloads' files.
                    config: top.text("task").unwrap_or_default().to_string(),
                };
                out.rows.push(Measured {
                    key,
                    row,
                    model: Some(model_of(model_rec, model_id)),
                });
            }
            Err(message) => out.problem(&file.name, row_no, message),
        }
    }
}
