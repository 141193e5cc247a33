//! NVIDIA AIPerf (and GenAI-Perf) `profile_export` JSON: one file per level, the load
//! generator's concurrency. Each metric is `{unit, avg, p50, p90, p95, p99, ...}`; units are
//! converted per metric (ns, us, ms, s). `inter_token_latency` is per request (TPOT),
//! `inter_chunk_latency` pooled over chunks (ITL): they are kept apart.

use serde_json::Value;

use super::record::{short, Record};
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Row, Statistic};

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

/// (statistic field, statistic) pairs per metric.
const FIELDS: [(&str, [Statistic; 5]); 3] = [
    // avg, p50, p90, p95, p99
    (
        "inter_chunk_latency",
        [
            Statistic::ItlMean,
            Statistic::P50,
            Statistic::P90,
            Statistic::P95,
            Statistic::P99,
        ],
    ),
    (
        "inter_token_latency",
        [
            Statistic::TpotMean,
            Statistic::TpotP50,
            Statistic::TpotP90,
            Statistic::TpotP95,
            Statistic::TpotP99,
        ],
    ),
    (
        "time_to_first_token",
        [
            Statistic::TtftMean,
            Statistic::TtftP50,
            Statistic::TtftP90,
            Statistic::TtftP95,
            Statistic::TtftP99,
        ],
    ),
];

fn measured(top: &Record) -> Result<Measured, String> {
    let config = top
        .object("input_config")
        .ok_or("missing key `input_config`")?;
    let level = config
        .object("loadgen")
        .map(|l| l.num("concurrency"))
        .transpose()?
        .flatten()
        .ok_or("no level: missing `input_config.loadgen.concurrency`")?;
    if level <= 0.0 {
        return Err(format!("concurrency must be positive, got {level}"));
    }
    let requests = top
        .object("request_count")
        .map(|r| r.num("avg"))
        .transpose()?
        .flatten();
    if requests == Some(0.0) {
        return Err("all requests failed (request_count is 0)".into());
    }
    let throughput = top
        .object("output_token_throughput")
        .map(|m| m.num("avg"))
        .transpose()?
        .flatten()
        .ok_or("missing key `output_token_throughput`")?;
    if throughput <= 0.0 {
        return Err("zero output tokens (`output_token_throughput` is 0)".into());
    }
    let mut row =
        Row::new(level, throughput).with(Statistic::Rate, Some(level * 1000.0 / throughput));
    for (metric, stats) in FIELDS {
        let Some(m) = top.object(metric) else {
            continue;
        };
        let unit = m.text("unit").unwrap_or("ms");
        let factor = to_ms(unit)
            .ok_or_else(|| format!("`{metric}` has unit \"{}\", not a time", short(unit)))?;
        for (field, stat) in ["avg", "p50", "p90", "p95", "p99"].into_iter().zip(stats) {
            row.set_latency_ms(stat, m.num(field)?.map(|v| v * factor));
        }
    }
    let model = config
        .object("endpoint")
        .and_then(|e| e.0.get("model_names"))
        .and_then(Value::as_array)
        .and_then(|names| names.first())
        .and_then(Value::as_str)
        .unwrap_or("model not stated");
    Ok(Measured::new(
        SweepKey::new(model, LevelKind::Concurrency),
        row,
    ))
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let Some(value) = out.json(&file.name, None, &file.text) else {
        return;
    };
    match value.as_object().map(Record) {
        Some(top) => match measured(&top) {
            Ok(m) => out.rows.push(m),
            Err(e) => out.problem(&file.name, Some(1), e),
        },
        None => out.problem(&file.name, None, "not a JSON object"),
    }
}
