//! InferenceX's per-level result of an agentic run (`bmk_agentic_<run>/<run>.json`): one object
//! per concurrency level (`conc`), written from AIPerf's exports of the run. Latencies under
//! `request_metrics.latency.{ttft,itl,tpot,e2el}` are in **seconds** (`mean`, `p50`, `p90`,
//! `p95`; `p75` is not a statistic the planner reads); output tok/s in
//! `request_metrics.throughput.output.tokens_per_second`, with `per_gpu` (GPUs = total tok/s ÷
//! total tok/s per GPU); requests from `num_requests_successful` and `request_accounting`
//! (`records_error_dropped` are the failures: warm-up records dropped are not). Identity:
//! `hw`, `tp`, `ep`, `dp_attention`, `precision`, `framework`, `image`, `spec_decoding`,
//! `disagg`, `scenario_type`, and the KV offloading as the configuration (`kv_offloading` with
//! its `kv_offload_backend`, else the `kv…` part of the file name: `kvnone` and
//! `kvdram-lmcache` are two sweeps).
//!
//! Its `server_metrics` digest gives KV use only: `kv_cache.gpu_usage_pct` is a fraction and
//! the gauge's maximum over the run, despite its name. AIPerf's server-metrics export of the same
//! run (`agentic_<run>/aiperf_artifacts/server_metrics_export.csv`) joins it by the run's name
//! and adds the rest (`import::signals`).

use serde_json::Value;

use super::errors::RowError;
use super::inferencex::agg_deployment;
use super::record::{base_name, count, positive, s_to_ms, Record};
use super::signals::run_key;
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::LevelKind;
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::signals::{Gauge, ServerSignals, Signal, SignalSource};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::InferenceXAgentic,
    label: "InferenceX agentic result JSON",
    described: "an InferenceX agentic result",
    detect,
    parse,
    keys: &[
        "conc",
        "request_metrics",
        "request_accounting",
        "server_metrics",
        "kv_offloading",
        "infmax_model_prefix",
    ],
    level: "conc",
    throughput: "request_metrics.throughput.output.tokens_per_second",
};

/// One object with `conc` and `request_metrics`.
fn detect(probe: &Probe) -> bool {
    probe.is_json_object() && probe.has("conc") && probe.has("request_metrics")
}

/// `tpot` -> TPOT, ... (each block in seconds).
const METRICS: [(&str, Metric); 4] = [
    ("itl", Metric::Itl),
    ("tpot", Metric::Tpot),
    ("ttft", Metric::Ttft),
    ("e2el", Metric::E2e),
];

fn latencies(row: &mut Row, latency: &Record, notes: &mut Vec<RowError>) {
    for (key, metric) in METRICS {
        let Some(block) = latency.object(key) else {
            continue;
        };
        for aggregate in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(metric, aggregate) {
                row.set_latency_ms(stat, s_to_ms(block.opt(aggregate.key(), notes)));
            }
        }
    }
}

/// The KV offloading as a configuration label: `offload none`, `offload dram-lmcache`.
fn offload(e: &Record, name: &str) -> Option<String> {
    let stated = e.label("kv_offloading").map(|kind| {
        match e.label("kv_offload_backend").filter(|b| !b.is_empty()) {
            Some(backend) => format!("{kind}-{backend}"),
            None => kind,
        }
    });
    let named = || {
        base_name(name)
            .split('_')
            .find_map(|part| part.strip_prefix("kv").filter(|k| !k.is_empty()))
            .map(str::to_string)
    };
    stated.or_else(named).map(|kv| format!("offload {kv}"))
}

/// The run's figures: its row (not finished) and its counts.
fn figures(
    e: &Record,
    level: f64,
    notes: &mut Vec<RowError>,
) -> Result<(Row, RunCounts, Option<u32>), RowError> {
    let metrics = e
        .object("request_metrics")
        .ok_or_else(|| RowError::Missing {
            key: "request_metrics".into(),
        })?;
    let throughput = metrics.object("throughput");
    let tok_s = |part: &str| {
        throughput
            .as_ref()
            .and_then(|t| t.object(part))
            .map(|p| p.num("tokens_per_second"))
            .transpose()
            .map(Option::flatten)
    };
    let output = tok_s("output")?.ok_or_else(|| RowError::Missing {
        key: "request_metrics.throughput.output.tokens_per_second".into(),
    })?;
    positive(
        "request_metrics.throughput.output.tokens_per_second",
        output,
    )?;
    let per_gpu = throughput
        .as_ref()
        .and_then(|t| t.object("per_gpu"))
        .and_then(|p| p.opt("total_tput_tps", notes));
    let gpus = tok_s("total")?
        .zip(per_gpu.filter(|p| *p > 0.0))
        .and_then(|(total, p)| count(Some((total / p).round())));
    let mut row = Row::new(level, output);
    if let Some(latency) = metrics.object("latency") {
        latencies(&mut row, &latency, notes);
    }
    row.avg_output_len = metrics
        .object("tokens")
        .and_then(|t| t.object("output_actual"))
        .and_then(|o| o.opt("mean", notes));
    let accounting = e.object("request_accounting");
    let counts = RunCounts {
        completed: e.num("num_requests_successful")?,
        failed: accounting.and_then(|a| a.opt("records_error_dropped", notes)),
        duration_s: throughput.and_then(|t| t.opt("duration_seconds", notes)),
        request_throughput_req_s: None,
    };
    Ok((row, counts, gpus))
}

/// The digest's KV use (a fraction, the gauge's maximum), where the digest is present.
fn digest(e: &Record, notes: &mut Vec<RowError>) -> Option<ServerSignals> {
    let server = e.object("server_metrics")?;
    if server.flag("present") == Some(false) {
        return None;
    }
    let max = server.object("kv_cache")?.opt("gpu_usage_pct", notes)?;
    let signals = ServerSignals::new().with(
        Signal::KvUse,
        Gauge {
            mean: None,
            max: Some(max),
        },
        SignalSource::InferenceXDigest,
    );
    let (signals, left) = signals.checked();
    if let Some(o) = left.first() {
        notes.push(RowError::SignalOutOfRange {
            signal: format!(
                "{} ({})",
                o.signal.label(),
                SignalSource::InferenceXDigest.metric(o.signal)
            ),
            value: o.value,
        });
    }
    (!signals.is_empty()).then_some(signals)
}

fn level_of(file: &InputFile, e: &Record, notes: &mut Vec<RowError>) -> Result<Measured, RowError> {
    let level = e.level("conc")?;
    positive("conc", level)?;
    let (mut row, counts, gpus) = figures(e, level, notes)?;
    row.signals = digest(e, notes).map(Box::new);
    let row = row.finish(LevelKind::Concurrency, counts);
    let deployment = agg_deployment(e, gpus, offload(e, &file.name), notes);
    let mut measured = Measured::new(String::new(), deployment, row);
    measured.folder = run_key(&file.name).or_else(|| {
        let stem = base_name(&file.name).trim_end_matches(".json");
        Some(format!("run:{stem}"))
    });
    Ok(measured)
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let e = Record(&obj);
    let mut notes = Vec::new();
    match level_of(file, &e, &mut notes) {
        Ok(mut measured) => {
            measured.model_id = out.model(e.text("model"), None);
            out.push(&file.name, Some(1), measured);
        }
        Err(error) => out.problem(&file.name, Some(1), error),
    }
    for note in notes {
        out.problem(&file.name, Some(1), note);
    }
}
