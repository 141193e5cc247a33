//! InferenceX aggregate JSON: an array of entries, several configurations per file, level =
//! `conc`, latencies in **seconds**. Two shapes:
//! - the API rows (`{hardware, framework, model, precision, conc, metrics: {...}, date}`),
//!   throughput and power per GPU: aggregate = per GPU × GPUs (decode GPUs, plus prefill GPUs
//!   when disaggregated); `avg_power_w` is per GPU; `joules_per_output_token` is stored J/token.
//!   Identity: hardware, GPUs, decode TP/EP/attention DP, precision, `framework` and `image`,
//!   `spec_method`, the disaggregation (both sides' workers, parallelism and GPUs), `isl`/`osl`
//!   and the campaign `date` (each date is other software);
//! - the agentic `agg_bmk` rows (flat: `hw, conc, tp, offloading, mean_itl, ...,
//!   output_tput_tps, output_tput_per_gpu`), GPUs = output tok/s ÷ output tok/s per GPU.

use serde_json::Value;

use super::errors::RowError;
use super::record::{count, positive, s_to_ms, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind, GPU_NOT_STATED, PRECISION_NOT_STATED};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Statistic;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::InferenceX,
    label: "InferenceX aggregate JSON",
    described: "an InferenceX aggregate file",
    detect,
    parse,
    keys: &[
        "conc",
        "hardware",
        "hw",
        "framework",
        "metrics",
        "output_tput_per_gpu",
        "output_tput_tps",
        "num_decode_gpu",
        "isl",
        "osl",
    ],
    level: "conc",
    throughput: "metrics.output_tput_per_gpu|output_tput_tps",
};

/// An array of entries with `conc` and per-GPU or aggregate throughput.
fn detect(probe: &Probe) -> bool {
    probe.is_json_array()
        && probe.has("conc")
        && probe.has_any(&["metrics", "output_tput_per_gpu", "num_requests_total"])
}

/// Latencies in seconds under `{mean,median,p90,p95,p99}_{itl,tpot,ttft}`.
fn latencies(row: &mut Row, metrics: &Record, notes: &mut Vec<RowError>) {
    for (key, stat) in Statistic::keyed(|m, a| format!("{}_{}", a.client_key(), m.key())) {
        row.set_latency_ms(stat, s_to_ms(metrics.opt(&key, notes)));
    }
    row.e2e_mean_ms = s_to_ms(metrics.opt("mean_e2el", notes));
}

/// `TP8 EP8 DP-attention`: one side of a disaggregated deployment.
fn side(e: &Record, prefix: &str) -> String {
    let d = Deployment {
        tp: count(e.num(&format!("{prefix}_tp")).ok().flatten()),
        ep: count(e.num(&format!("{prefix}_ep")).ok().flatten()),
        attention_dp: e.flag(&format!("{prefix}_dp_attention")),
        ..Deployment::new(LevelKind::Concurrency)
    };
    let workers = e
        .label(&format!("{prefix}_num_workers"))
        .unwrap_or_else(|| "?".into());
    let gpus = e
        .label(&format!("num_{prefix}_gpu"))
        .unwrap_or_else(|| "?".into());
    format!(
        "{prefix} {workers} x {} on {gpus} GPUs",
        d.parallelism_label()
    )
}

fn api_row(e: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let metrics = e.object("metrics").ok_or_else(|| RowError::Missing {
        key: "metrics".into(),
    })?;
    let level = e.num("conc")?.ok_or_else(|| RowError::NoLevel {
        keys: "conc".into(),
    })?;
    let decode = count(e.num("num_decode_gpu")?).ok_or_else(|| RowError::Missing {
        key: "num_decode_gpu".into(),
    })?;
    let disagg = e.flag("disagg").unwrap_or(false);
    let gpus = if disagg {
        decode + count(e.num("num_prefill_gpu")?).unwrap_or(0)
    } else {
        decode
    };
    let per_gpu = metrics
        .num("output_tput_per_gpu")?
        .ok_or_else(|| RowError::Missing {
            key: "metrics.output_tput_per_gpu".into(),
        })?;
    positive("conc", level)?;
    positive("output_tput_per_gpu", per_gpu)?;
    let throughput = per_gpu * f64::from(gpus);
    let mut row = Row::new(level, throughput);
    latencies(&mut row, &metrics, notes);
    row.power_w = metrics
        .opt("avg_power_w", notes)
        .map(|w| w * f64::from(gpus));
    row.set_energy_per_token_j(metrics.opt("joules_per_output_token", notes));
    let row = row.finish(LevelKind::Concurrency, RunCounts::default());
    let deployment = Deployment {
        gpu: e.text_or("hardware", GPU_NOT_STATED),
        num_gpus: Some(gpus),
        tp: count(e.opt("decode_tp", notes)),
        ep: count(e.opt("decode_ep", notes)),
        attention_dp: e.flag("decode_dp_attention"),
        precision: e.text_or("precision", PRECISION_NOT_STATED),
        engine: e.label("framework"),
        engine_version: e.label("image"),
        spec_decoding: e.label("spec_method"),
        disaggregation: e.flag("disagg").map(|d| {
            if d {
                format!(
                    "disaggregated: {}, {}",
                    side(e, "prefill"),
                    side(e, "decode")
                )
            } else {
                "not disaggregated".to_string()
            }
        }),
        isl: e.opt("isl", notes),
        osl: e.opt("osl", notes),
        date: e.label("date"),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((deployment, row))
}

fn agg_row(e: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let level = e.num("conc")?.ok_or_else(|| RowError::NoLevel {
        keys: "conc".into(),
    })?;
    positive("conc", level)?;
    let completed = e.num("num_requests_successful")?;
    let failed = e
        .num("num_requests_total")?
        .zip(completed)
        .map(|(total, ok)| (total - ok).max(0.0));
    if completed == Some(0.0) && failed == Some(0.0) {
        // No request was issued at all: nothing measured, not even a failure.
        return Err(RowError::AllRequestsFailed {
            key: "num_requests_successful".into(),
        });
    }
    let (row, gpus) = if completed == Some(0.0) {
        // No request completed: a level that failed, without figures.
        (Row::all_failed(level, failed), None)
    } else {
        let throughput = e.num("output_tput_tps")?.ok_or_else(|| RowError::Missing {
            key: "output_tput_tps".into(),
        })?;
        positive("output_tput_tps", throughput)?;
        let gpus = e
            .num("output_tput_per_gpu")?
            .filter(|p| *p > 0.0)
            .map(|p| (throughput / p).round())
            .and_then(|g| count(Some(g)));
        let mut row = Row::new(level, throughput);
        latencies(&mut row, e, notes);
        row.avg_output_len = e.opt("mean_output_tokens_actual", notes);
        (row, gpus)
    };
    let counts = RunCounts {
        completed,
        failed,
        duration_s: e.opt("duration_seconds", notes),
        request_throughput_req_s: None,
    };
    let row = row.finish(LevelKind::Concurrency, counts);
    let deployment = Deployment {
        gpu: e.text_or("hw", GPU_NOT_STATED),
        num_gpus: gpus,
        tp: count(e.opt("tp", notes)),
        ep: count(e.opt("ep", notes)),
        attention_dp: e.flag("dp_attention"),
        precision: e.text_or("precision", PRECISION_NOT_STATED),
        engine: e.label("framework"),
        engine_version: e.label("image"),
        spec_decoding: e.label("spec_decoding"),
        disaggregation: e.flag("disagg").map(|d| {
            if d {
                "disaggregated"
            } else {
                "not disaggregated"
            }
            .to_string()
        }),
        dataset: e.label("scenario_type"),
        config: e.label("offloading").map(|o| format!("offload {o}")),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((deployment, row))
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Array(entries)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    for (i, entry) in entries.iter().enumerate() {
        if out.full() {
            break;
        }
        let Some(e) = entry.as_object().map(Record) else {
            out.problem(&file.name, Some(i + 1), RowError::NotAnObject);
            continue;
        };
        let mut notes = Vec::new();
        let result = if e.0.contains_key("metrics") {
            api_row(&e, &mut notes)
        } else {
            agg_row(&e, &mut notes)
        };
        match result {
            Ok((deployment, row)) => {
                let model = out.model(e.text("model"), None);
                out.push(
                    &file.name,
                    Some(i + 1),
                    Measured::new(model, deployment, row),
                );
            }
            Err(error) => out.problem(&file.name, Some(i + 1), error),
        }
        for note in notes {
            out.problem(&file.name, Some(i + 1), note);
        }
    }
}
