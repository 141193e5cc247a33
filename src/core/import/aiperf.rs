//! NVIDIA AIPerf (and GenAI-Perf) `profile_export` JSON: one file per level, the load
//! generator's concurrency. Each metric is `{unit, avg, p50, p90, p95, p99, ...}`; units are
//! converted per metric (ns, us, ms, s). `inter_token_latency` is per request (TPOT),
//! `inter_chunk_latency` pooled over chunks (ITL): they are kept apart. Identity: the model and
//! the dataset (`input_config.input.public_dataset`).

use serde_json::Value;

use super::errors::{RowError, RowErrorKind};
use super::record::{positive, Record};
use super::{Body, InputFile, Measured, Parsed, Probe};
use crate::core::deployment::{Deployment, LevelKind};
use crate::core::row::{Row, RunCounts};
use crate::core::statistic::{Aggregate, Metric, Statistic};

/// An object with `input_config` and a metric AIPerf writes.
pub(crate) fn detect(probe: &Probe) -> bool {
    probe.is_json_object()
        && probe.has("input_config")
        && probe.has_any(&[
            "inter_token_latency",
            "time_to_first_token",
            "request_count",
            "output_token_throughput",
        ])
}

/// Factor from a unit to ms; `None` for a unit that is not a time.
fn to_ms(unit: &str) -> Option<f64> {
    match unit {
        "ns" => Some(1e-6),
        "us" | "µs" => Some(1e-3),
        "ms" => Some(1.0),
        "s" | "sec" => Some(1000.0),
        _ => None,
    }
}

/// AIPerf's metric for each latency metric.
const METRICS: [(&str, Metric); 3] = [
    ("inter_chunk_latency", Metric::Itl),
    ("inter_token_latency", Metric::Tpot),
    ("time_to_first_token", Metric::Ttft),
];

/// A metric's field for an aggregate: `avg`, `p50`, ...
fn field(a: Aggregate) -> &'static str {
    match a {
        Aggregate::Mean => "avg",
        other => other.key(),
    }
}

/// The `avg` of a metric, in ms when it is a time.
fn average_ms(top: &Record, metric: &str) -> Result<Option<f64>, RowError> {
    let Some(m) = top.object(metric) else {
        return Ok(None);
    };
    let unit = m.text("unit").unwrap_or("ms");
    let factor =
        to_ms(unit).ok_or_else(|| RowError::value(RowErrorKind::NotATimeUnit, metric, unit))?;
    Ok(m.num("avg")?.map(|v| v * factor))
}

fn avg(top: &Record, metric: &str) -> Result<Option<f64>, RowError> {
    Ok(top
        .object(metric)
        .map(|m| m.num("avg"))
        .transpose()?
        .flatten())
}

/// The run's row, deployment and the model it states.
fn measured(top: &Record) -> Result<(Option<String>, Deployment, Row), RowError> {
    let config = top
        .object("input_config")
        .ok_or_else(|| RowError::key(RowErrorKind::Missing, "input_config"))?;
    let level = config
        .object("loadgen")
        .map(|l| l.num("concurrency"))
        .transpose()?
        .flatten()
        .ok_or_else(|| RowError::key(RowErrorKind::NoLevel, "input_config.loadgen.concurrency"))?;
    positive("input_config.loadgen.concurrency", level)?;
    let requests = avg(top, "request_count")?;
    if requests == Some(0.0) {
        return Err(RowError::key(
            RowErrorKind::AllRequestsFailed,
            "request_count",
        ));
    }
    let throughput = avg(top, "output_token_throughput")?
        .ok_or_else(|| RowError::key(RowErrorKind::Missing, "output_token_throughput"))?;
    positive("output_token_throughput", throughput)?;
    let mut row = Row::new(level, throughput);
    for (metric, kind) in METRICS {
        let Some(m) = top.object(metric) else {
            continue;
        };
        let unit = m.text("unit").unwrap_or("ms");
        let factor =
            to_ms(unit).ok_or_else(|| RowError::value(RowErrorKind::NotATimeUnit, metric, unit))?;
        for aggregate in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(kind, aggregate) {
                row.set_latency_ms(stat, m.num(field(aggregate))?.map(|v| v * factor));
            }
        }
    }
    row.e2e_mean_ms = average_ms(top, "request_latency")?;
    row.avg_output_len = avg(top, "output_sequence_length")?;
    let counts = RunCounts {
        completed: requests,
        duration_s: average_ms(top, "benchmark_duration")?.map(|ms| ms / 1000.0),
        request_throughput_req_s: avg(top, "request_throughput")?,
    };
    let row = row.finish(LevelKind::Concurrency, counts);
    let stated = config
        .object("endpoint")
        .and_then(|e| e.0.get("model_names"))
        .and_then(Value::as_array)
        .and_then(|names| names.first())
        .and_then(Value::as_str)
        .map(str::to_string);
    let deployment = Deployment {
        dataset: config
            .object("input")
            .and_then(|i| i.label("public_dataset")),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((stated, deployment, row))
}

pub(crate) fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::new(RowErrorKind::NotAnObject));
    };
    match measured(&Record(&obj)) {
        Ok((stated, deployment, row)) => {
            let model = out.model(stated.as_deref(), None);
            out.push(&file.name, Some(1), Measured::new(model, deployment, row));
        }
        Err(e) => out.problem(&file.name, Some(1), e),
    }
}
