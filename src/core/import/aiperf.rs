//! NVIDIA AIPerf (and GenAI-Perf) `profile_export` JSON: one file per level. Each metric is
//! `{unit, avg, p1, p5, p10, p25, p50, p75, p90, p95, p99, ...}` at the top (since mid 2025; before,
//! under `records`, keyed by the same names); units are converted per metric (ns, us, ms, s).
//! Level: the load generator's concurrency, in `input_config.loadgen.concurrency` (exports up to
//! AIPerf 0.10) or the profiling phase of `input_config.phases` (AIPerf 0.11, `schema_version`
//! 1.3); a request-rate load (`loadgen.request_rate`, or a phase of type `poisson`, `constant` or
//! `gamma` with its `rate`) is a request-rate level. Schema versions 1.0 to 1.5 are read.
//!
//! What each figure measures (AIPerf's metric classes): `inter_token_latency` is per request,
//! (request latency − TTFT) ÷ (output tokens − 1): TPOT; `inter_chunk_latency` pools the gaps of
//! every chunk: ITL; `e2e_output_token_throughput` is per request, output tokens ÷ request latency
//! (TTFT included), the inverse of normalized TPOT, so its p10 is normalized TPOT's p90 (1000 ÷
//! p10, ms), its p50 the median, its p5 and p1 the p95 and p99 (its mean has no such inverse and is
//! not read). Failed requests: `error_request_count`. AIPerf's own `goodput` and
//! `good_request_fraction`, for the SLO its run was given (`input_config.slos`), are the tool's
//! figures and are named in the import's notes, never pooled with the planner's. Identity: the
//! model and the dataset (`input_config.input.public_dataset`).

use serde_json::Value;

use super::errors::{short, RowError};
use super::record::{positive, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::format::significant;
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::AiPerf,
    label: "AIPerf profile export",
    described: "an AIPerf export",
    detect,
    parse,
    keys: &[
        "input_config",
        "inter_token_latency",
        "time_to_first_token",
        "request_count",
        "output_token_throughput",
        "inter_chunk_latency",
        "request_latency",
        "aiperf_version",
        "schema_version",
        "records",
        "was_cancelled",
        "error_summary",
    ],
    level: "input_config.loadgen.concurrency|input_config.phases",
    throughput: "output_token_throughput|records.output_token_throughput",
};

/// An object with `input_config` and a metric AIPerf writes (at the top or under `records`).
fn detect(probe: &Probe) -> bool {
    probe.is_json_object()
        && probe.has("input_config")
        && (probe.has_any(&[
            "inter_token_latency",
            "time_to_first_token",
            "request_count",
            "output_token_throughput",
        ]) || probe.has_any(&[
            "records.inter_token_latency",
            "records.time_to_first_token",
            "records.request_count",
            "records.output_token_throughput",
        ]))
}

/// The schema versions read: the major version 1 (1.0 to 1.5 are known).
fn version_read(version: &str) -> bool {
    version.split('.').next() == Some("1")
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
const METRICS: [(&str, Metric); 4] = [
    ("inter_chunk_latency", Metric::Itl),
    ("inter_token_latency", Metric::Tpot),
    ("time_to_first_token", Metric::Ttft),
    ("request_latency", Metric::E2e),
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
    let factor = to_ms(unit).ok_or_else(|| RowError::NotATimeUnit {
        metric: short(metric),
        unit: short(unit),
    })?;
    Ok(m.num("avg")?.map(|v| v * factor))
}

fn avg(top: &Record, metric: &str) -> Result<Option<f64>, RowError> {
    Ok(top
        .object(metric)
        .map(|m| m.num("avg"))
        .transpose()?
        .flatten())
}

/// The load level: the concurrency, or a request rate.
fn load_level(config: &Record) -> Result<(&'static str, f64, LevelKind), RowError> {
    if let Some(loadgen) = config.object("loadgen") {
        if let Some(c) = loadgen.num("concurrency")? {
            return Ok((
                "input_config.loadgen.concurrency",
                c,
                LevelKind::Concurrency,
            ));
        }
        if let Some(r) = loadgen.num("request_rate")? {
            return Ok((
                "input_config.loadgen.request_rate",
                r,
                LevelKind::RequestRate,
            ));
        }
    }
    // AIPerf 0.11: the phases; the profiling one (not excluded from the results, not a warm-up).
    let phases = config
        .0
        .get("phases")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let profiling = phases
        .iter()
        .filter_map(Value::as_object)
        .map(Record)
        .find(|p| {
            p.text("kind") != Some("warmup")
                && p.text("name") != Some("warmup")
                && p.flag("exclude_from_results") != Some(true)
        });
    if let Some(phase) = profiling {
        match phase.text("type") {
            Some("concurrency") => {
                if let Some(c) = phase.num("concurrency")? {
                    return Ok(("input_config.phases.concurrency", c, LevelKind::Concurrency));
                }
            }
            Some("poisson" | "constant" | "gamma") => {
                if let Some(r) = phase.num("rate")? {
                    return Ok(("input_config.phases.rate", r, LevelKind::RequestRate));
                }
            }
            _ => {}
        }
    }
    Err(RowError::NoLevel {
        keys: "input_config.loadgen.concurrency or input_config.phases".into(),
    })
}

/// Normalized TPOT from the per-request end-to-end output tok/s (its inverse): each
/// percentile from the opposite one (p90 of ms per token = 1000 ÷ p10 of tok/s).
fn normalized_tpot(top: &Record, row: &mut Row) -> Result<(), RowError> {
    let Some(m) = top.object("e2e_output_token_throughput") else {
        return Ok(());
    };
    for (stat, field) in [
        (Statistic::NtpotP50, "p50"),
        (Statistic::NtpotP90, "p10"),
        (Statistic::NtpotP95, "p5"),
        (Statistic::NtpotP99, "p1"),
    ] {
        row.set_latency_ms(stat, m.num(field)?.map(|tps| 1000.0 / tps));
    }
    Ok(())
}

/// The run's row, deployment and the model it states.
fn measured(top: &Record) -> Result<(Option<String>, Deployment, Row), RowError> {
    let config = top
        .object("input_config")
        .ok_or_else(|| RowError::Missing {
            key: "input_config".into(),
        })?;
    let (level_key, level, kind) = load_level(&config)?;
    positive(level_key, level)?;
    // Before mid 2025 the metrics sit under `records`.
    let metrics = top.object("records").unwrap_or(Record(top.0));
    let requests = avg(&metrics, "request_count")?;
    let failed = avg(&metrics, "error_request_count")?.or(Some(0.0).filter(|_| {
        top.0
            .get("error_summary")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
    }));
    let mut row = if requests == Some(0.0) {
        Row::all_failed(level, failed)
    } else {
        let throughput =
            avg(&metrics, "output_token_throughput")?.ok_or_else(|| RowError::Missing {
                key: "output_token_throughput".into(),
            })?;
        positive("output_token_throughput", throughput)?;
        let mut row = Row::new(level, throughput);
        for (metric, kind) in METRICS {
            let Some(m) = metrics.object(metric) else {
                continue;
            };
            let unit = m.text("unit").unwrap_or("ms");
            let factor = to_ms(unit).ok_or_else(|| RowError::NotATimeUnit {
                metric: short(metric),
                unit: short(unit),
            })?;
            for aggregate in Aggregate::ALL {
                if let Some(stat) = Statistic::from_parts(kind, aggregate) {
                    row.set_latency_ms(stat, m.num(field(aggregate))?.map(|v| v * factor));
                }
            }
        }
        normalized_tpot(&metrics, &mut row)?;
        row.avg_output_len = avg(&metrics, "output_sequence_length")?;
        row
    };
    let counts = RunCounts {
        completed: requests,
        failed,
        duration_s: average_ms(&metrics, "benchmark_duration")?.map(|ms| ms / 1000.0),
        request_throughput_req_s: avg(&metrics, "request_throughput")?,
    };
    row = row.finish(kind, counts);
    let stated = config
        .object("endpoint")
        .and_then(|e| e.0.get("model_names"))
        .and_then(Value::as_array)
        .and_then(|names| names.first())
        .or_else(|| {
            config
                .object("models")?
                .0
                .get("items")?
                .as_array()?
                .first()?
                .get("name")
        })
        .and_then(Value::as_str)
        .map(str::to_string);
    let deployment = Deployment {
        dataset: config
            .object("input")
            .and_then(|i| i.label("public_dataset")),
        ..Deployment::new(kind)
    };
    Ok((stated, deployment, row))
}

/// AIPerf's own goodput for the SLO its run was given, as a note: "AIPerf's own goodput: 0.657
/// req/s, 3.7% of requests good, for its SLO time_to_first_token ≤ 1500, inter_token_latency ≤
/// 300 (ms)"; `None` where the export has none.
fn tool_goodput(top: &Record) -> Option<RowError> {
    let metrics = top.object("records").unwrap_or(Record(top.0));
    let goodput = avg(&metrics, "goodput").ok()??;
    let fraction = avg(&metrics, "good_request_fraction").ok().flatten();
    let config = top.object("input_config")?;
    let slos = config
        .object("slos")
        .or_else(|| config.object("input")?.object("goodput"));
    let slo: Vec<String> = slos
        .map(|s| {
            s.0.iter()
                .filter_map(|(k, v)| Some(format!("{} ≤ {}", short(k), v.as_f64()?)))
                .collect()
        })
        .unwrap_or_default();
    let text = format!(
        "{} req/s{}, for the SLO its run was given{}; the tool's figures, not the planner's",
        significant(goodput, 3),
        fraction.map_or_else(String::new, |f| format!(
            ", {}% of requests good",
            significant(f * 100.0, 3)
        )),
        if slo.is_empty() {
            String::new()
        } else {
            format!(" ({}, in its display units)", slo.join(", "))
        }
    );
    Some(RowError::ToolGoodput {
        tool: "AIPerf".into(),
        figures: text,
    })
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let top = Record(&obj);
    if let Some(version) = top.label("schema_version").filter(|v| !version_read(v)) {
        return out.problem(
            &file.name,
            None,
            RowError::UnsupportedVersion { tool: "AIPerf profile export".into(), versions: format!(
                    "of schema version {}: this planner reads schema versions 1.x (AIPerf up to 0.11 and beyond) and the exports without one",
                    short(&version)
                ) },
        );
    }
    match measured(&top) {
        Ok((stated, deployment, row)) => {
            let model = out.model(stated.as_deref(), None);
            let mut measured = Measured::new(model, deployment, row);
            // AIPerf's server-metrics export of the run sits in the same folder.
            measured.folder = Some(super::record::folder(&file.name).to_string());
            out.push(&file.name, Some(1), measured);
            if let Some(note) = tool_goodput(&top) {
                out.problem(&file.name, None, note);
            }
        }
        Err(e) => out.problem(&file.name, Some(1), e),
    }
}
