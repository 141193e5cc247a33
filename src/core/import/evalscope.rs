//! EvalScope `perf` output: `benchmark_summary.json` (one run: its concurrency, output and
//! request throughput, average latencies) and, where given, `benchmark_percentile.json` from the
//! same folder (rows of `Percentiles` with TTFT, ITL and TPOT at each). Older versions write
//! seconds (`Average time per output token (s)`, `TPOT (s)`), newer ones ms (`TPOT (ms)`); both
//! are read. TPOT and ITL are kept apart. The model comes from the file or the import dialog.

use serde_json::Value;

use super::errors::{short, RowError};
use super::record::{folder, positive, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe, Supplement};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::EvalScope,
    label: "EvalScope perf JSON",
    described: "an EvalScope perf summary",
    detect,
    parse,
    keys: &[
        "Number of concurrency",
        "Concurrency",
        "Output token throughput (tok/s)",
        "Output Throughput (tok/s)",
        "Request throughput (req/s)",
        "Average latency (s)",
        "Average time to first token (s)",
        "Time taken for tests (s)",
        "Succeed requests",
        "Percentiles",
        "TTFT (ms)",
        "TPOT (ms)",
    ],
    level: "Number of concurrency|Concurrency",
    throughput: "Output token throughput (tok/s)|Output Throughput (tok/s)",
};

/// Level keys, older first.
const CONCURRENCY: [&str; 2] = ["Number of concurrency", "Concurrency"];
/// Output throughput keys.
const THROUGHPUT: [&str; 2] = [
    "Output token throughput (tok/s)",
    "Output Throughput (tok/s)",
];

/// A summary (concurrency and output throughput) or a percentile file (rows of `Percentiles`).
fn detect(probe: &Probe) -> bool {
    (probe.is_json_object() && probe.has_any(&CONCURRENCY) && probe.has_any(&THROUGHPUT))
        || (probe.is_json_array() && probe.has("Percentiles"))
}

/// A value in ms from the first of (key, factor to ms) pairs present.
fn ms(rec: &Record, keys: &[(&str, f64)], notes: &mut Vec<RowError>) -> Option<f64> {
    keys.iter()
        .find_map(|(k, factor)| rec.opt(k, notes).map(|v| v * factor))
}

/// The first of `keys` that holds a number, which must be positive; `absent` names the first
/// key when none holds one.
fn first_positive(
    rec: &Record,
    keys: &[&str],
    absent: fn(String) -> RowError,
) -> Result<f64, RowError> {
    let value = rec.first_num(keys)?.ok_or_else(|| absent(short(keys[0])))?;
    positive(keys[0], value)
}

/// One run of a summary file: its deployment (the offered rate, where limited) and its row,
/// derived figures computed. Optional values that cannot be read are added to `notes`.
///
/// Errors: why the run cannot be used (no concurrency, no throughput, every request failed).
fn summary(rec: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let level = first_positive(rec, &CONCURRENCY, |keys| RowError::NoLevel { keys })?;
    let completed = rec.first_num(&["Succeed requests", "Success Requests"])?;
    if completed == Some(0.0) {
        return Err(RowError::AllRequestsFailed {
            key: "Succeed requests".into(),
        });
    }
    let throughput = first_positive(rec, &THROUGHPUT, |key| RowError::Missing { key })?;
    let mut row = Row::new(level, throughput);
    set_means(rec, &mut row, notes);
    let counts = RunCounts {
        completed,
        failed: rec.first_num(&["Failed requests", "Failed Requests"])?,
        duration_s: ms(
            rec,
            &[
                ("Time taken for tests (s)", 1.0),
                ("Test Duration (s)", 1.0),
            ],
            notes,
        ),
        request_throughput_req_s: ms(
            rec,
            &[
                ("Request throughput (req/s)", 1.0),
                ("Req Throughput (req/s)", 1.0),
            ],
            notes,
        ),
    };
    let row = row.finish(LevelKind::Concurrency, counts);
    let rate = ms(
        rec,
        &[("Request rate (req/s)", 1.0), ("Request Rate (req/s)", 1.0)],
        notes,
    );
    let deployment = Deployment {
        // -1 is EvalScope's "no rate limit".
        offered_rate: rate.filter(|r| *r > 0.0),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((deployment, row))
}

/// Sets a summary's averages on `row`: mean TPOT, ITL and TTFT and mean end-to-end latency (ms,
/// from seconds in older versions) and the average output length (tokens per request).
fn set_means(rec: &Record, row: &mut Row, notes: &mut Vec<RowError>) {
    let seconds_or_ms = |old: &'static str, new: &'static str| [(old, 1000.0), (new, 1.0)];
    row.set_latency_ms(
        Statistic::TpotMean,
        ms(
            rec,
            &seconds_or_ms("Average time per output token (s)", "TPOT (ms)"),
            notes,
        ),
    );
    row.set_latency_ms(
        Statistic::ItlMean,
        ms(
            rec,
            &seconds_or_ms("Average inter-token latency (s)", "ITL (ms)"),
            notes,
        ),
    );
    row.set_latency_ms(
        Statistic::TtftMean,
        ms(
            rec,
            &seconds_or_ms("Average time to first token (s)", "TTFT (ms)"),
            notes,
        ),
    );
    row.e2e_mean_ms = ms(
        rec,
        &[("Average latency (s)", 1000.0), ("Avg Latency (s)", 1000.0)],
        notes,
    );
    row.avg_output_len = ms(
        rec,
        &[
            ("Average output tokens per request", 1.0),
            ("Avg Output Tokens", 1.0),
        ],
        notes,
    );
}

/// The latencies of a percentile file: (statistic, ms) at p50, p90, p95 and p99.
fn percentiles(rows: &[Value], notes: &mut Vec<RowError>) -> Vec<(Statistic, f64)> {
    let mut out = Vec::new();
    for row in rows.iter().filter_map(Value::as_object).map(Record) {
        let Some(aggregate) = row.text("Percentiles").and_then(|p| {
            Aggregate::ALL
                .into_iter()
                .find(|a| a.percentile().is_some_and(|q| p == format!("{q}%")))
        }) else {
            continue;
        };
        for (name, metric) in [
            ("TTFT", Metric::Ttft),
            ("ITL", Metric::Itl),
            ("TPOT", Metric::Tpot),
        ] {
            let value = ms(
                &row,
                &[
                    (&format!("{name} (s)"), 1000.0),
                    (&format!("{name} (ms)"), 1.0),
                ],
                notes,
            );
            if let (Some(stat), Some(v)) = (Statistic::from_parts(metric, aggregate), value) {
                out.push((stat, v));
            }
        }
    }
    out
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let mut notes = Vec::new();
    match body {
        Body::Json(Value::Array(rows)) => {
            let latencies = percentiles(&rows, &mut notes);
            out.supplements.push(Supplement {
                file: file.name.clone(),
                folder: folder(&file.name).to_string(),
                latencies,
                failed: None,
                requests: None,
                orphan: RowError::PercentilesWithoutSummary,
            });
        }
        Body::Json(Value::Object(obj)) => {
            let rec = Record(&obj);
            match summary(&rec, &mut notes) {
                Ok((deployment, row)) => {
                    let model = out.model(rec.text("Model").or_else(|| rec.text("model")), None);
                    let mut m = Measured::new(model, deployment, row);
                    m.folder = Some(folder(&file.name).to_string());
                    out.push(&file.name, Some(1), m);
                }
                Err(e) => out.problem(&file.name, Some(1), e),
            }
        }
        _ => out.problem(&file.name, None, RowError::NotAnObject),
    }
    for note in notes {
        out.problem(&file.name, Some(1), note);
    }
}
