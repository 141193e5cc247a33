//! GuideLLM (the vLLM project's load generator) `benchmarks.json`: the report of GuideLLM 0.5
//! and later (`metadata.version` 1 and 2) and the older one without `metadata`. Each benchmark
//! is one level, placed by its strategy: `synchronous` is 1 stream, `concurrent` its `streams`
//! (a concurrency), `constant` and `poisson` their `rate` (req/s; a `max_concurrency` set on the
//! profile beside a rate is a cap, kept as the sweep's configuration, not its level). A
//! `throughput` benchmark (as many requests as the server takes) has no level and is named as
//! skipped. The benchmarks of one profile join one sweep per kind of level.
//!
//! What each figure measures (GuideLLM's `request_stats`, checked by hand on its test report):
//! per request, its `inter_token_latency_ms` is (last token − first token) ÷ (output tokens − 1),
//! the TPOT of vLLM; its `time_per_output_token_ms` is, from 0.5 on, (last token − request start)
//! ÷ output tokens, **normalized TPOT** (TTFT included), and in the older report (last token −
//! first token) ÷ output tokens, which is neither and is not read. GuideLLM weights both
//! distributions by output tokens: their mean is pooled over tokens (the mean of ITL's is the mean
//! token gap, read as mean ITL), and their percentiles are per-request percentiles exactly when
//! every request has the same output length (`output_token_count` min = max); otherwise the
//! TPOT and normalized TPOT statistics are left out, with a note. Output throughput:
//! `output_tokens_per_second` of the successful requests. Counts: `request_totals`; errored
//! requests failed, incomplete ones (still running when a time-limited benchmark stopped) are
//! counted apart and do not fail the level.

use serde_json::{Map, Value};

use super::errors::{short, RowError, RowErrorKind};
use super::record::{positive, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::format::trimmed;
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::GuideLlm,
    label: "GuideLLM report",
    described: "a GuideLLM report",
    detect,
    parse,
    keys: &[
        "benchmarks",
        "metadata",
        "request_totals",
        "time_per_output_token_ms",
        "inter_token_latency_ms",
        "output_tokens_per_second",
        "strategy",
    ],
    level: "benchmarks.strategy",
    throughput: "metrics.output_tokens_per_second",
};

/// The report versions read (`metadata.version`).
const VERSIONS: [u64; 2] = [1, 2];

/// An object with `benchmarks` whose first holds GuideLLM's metrics.
fn detect(probe: &Probe) -> bool {
    probe.is_json_object()
        && probe
            .first()
            .and_then(|o| o.get("benchmarks")?.as_array()?.first()?.as_object())
            .is_some_and(|b| {
                b.contains_key("metrics")
                    && (b.contains_key("args")
                        || b.contains_key("config")
                        || b.contains_key("request_totals"))
            })
}

/// A distribution's value for an aggregate: `mean`, `median` (or `percentiles.p50`), `p90`...
fn value(block: &Record, a: Aggregate, notes: &mut Vec<RowError>) -> Option<f64> {
    match a {
        Aggregate::Mean => block.opt("mean", notes),
        Aggregate::P50 => block.opt("median", notes).or_else(|| {
            block
                .object("percentiles")
                .and_then(|p| p.opt("p50", notes))
        }),
        other => block
            .object("percentiles")
            .and_then(|p| p.opt(other.key(), notes)),
    }
}

/// The `successful` distribution of a metric.
fn successful<'a>(metrics: &Record<'a>, name: &str) -> Option<Record<'a>> {
    metrics.object(name)?.object("successful")
}

/// A benchmark's level from its strategy, or why it has none.
fn level(strategy: &Record) -> Result<(f64, LevelKind), RowError> {
    let kind = strategy.text("type_").unwrap_or("not stated");
    match kind {
        "synchronous" => Ok((1.0, LevelKind::Concurrency)),
        "concurrent" => {
            let streams = strategy.num("streams")?.ok_or_else(|| RowError::NoLevel {
                keys: "strategy.streams".into(),
            })?;
            Ok((
                positive("strategy.streams", streams)?,
                LevelKind::Concurrency,
            ))
        }
        "constant" | "poisson" => {
            let rate = strategy.num("rate")?.ok_or_else(|| RowError::NoLevel {
                keys: "strategy.rate".into(),
            })?;
            Ok((positive("strategy.rate", rate)?, LevelKind::RequestRate))
        }
        other => Err(RowError::Skipped {
            what: format!("GuideLLM's {other} benchmark"),
            why:
                "it sends requests as fast as the server takes them, at no set concurrency or rate"
                    .into(),
        }),
    }
}

/// Where a benchmark states what the report states for all (the shapes differ by version).
struct Shape<'a> {
    /// The report's top.
    top: Record<'a>,
    /// The report version (`None`: the older report without `metadata`).
    version: Option<u64>,
}

impl<'a> Shape<'a> {
    /// The benchmark's configuration: `config` (0.5+), `args` (older).
    fn config(&self, b: &Record<'a>) -> Option<Record<'a>> {
        b.object("config").or(b.object("args"))
    }

    /// The model: the benchmark's backend, else the report's.
    fn model(&self, b: &Record<'a>) -> Option<String> {
        let config = self.config(b);
        config
            .as_ref()
            .and_then(|c| c.object("backend"))
            .and_then(|backend| backend.label("model"))
            .or_else(|| b.object("worker")?.label("backend_model"))
            .or_else(|| self.top.object("args")?.label("model"))
            .or_else(|| {
                self.top
                    .object("config")?
                    .object("spec")?
                    .object("backend")?
                    .label("model")
            })
    }

    /// The profile's cap on requests in flight beside a rate, where the user set one.
    fn cap(&self, b: &Record<'a>) -> Option<f64> {
        let from = |c: Option<Record>| c?.object("profile")?.num("max_concurrency").ok()?;
        from(self.config(b)).or_else(|| from(self.top.object("config")?.object("spec")))
    }

    /// The workload: the older report's data text, else the synthetic data's kind with its
    /// prompt and output lengths.
    fn workload(&self, b: &Record<'a>, d: &mut Deployment) {
        if let Some(data) = b.object("request_loader").and_then(|l| l.label("data")) {
            d.dataset = Some(data);
            return;
        }
        let data = self
            .top
            .object("config")
            .and_then(|c| c.object("spec"))
            .and_then(|s| {
                s.0.get("data")?
                    .as_array()?
                    .first()?
                    .as_object()
                    .map(Record)
            });
        if let Some(data) = data {
            d.dataset = data.label("kind");
            d.isl = data.num("prompt_tokens").ok().flatten();
            d.osl = data.num("output_tokens").ok().flatten();
        } else if let Some(data) = self.top.object("args").and_then(|a| a.label("data")) {
            d.dataset = Some(data);
        }
    }
}

/// One benchmark's run.
fn benchmark(
    shape: &Shape,
    b: &Record,
    notes: &mut Vec<RowError>,
) -> Result<(Deployment, Row), RowError> {
    let strategy = shape
        .config(b)
        .and_then(|c| c.object("strategy"))
        .ok_or_else(|| RowError::NoLevel {
            keys: "config.strategy".into(),
        })?;
    let (level, kind) = level(&strategy)?;
    let metrics = b.object("metrics").ok_or_else(|| RowError::Missing {
        key: "metrics".into(),
    })?;
    let totals = metrics
        .object("request_totals")
        .or(b.object("request_totals"));
    let count = |key: &str| totals.as_ref().and_then(|t| t.num(key).ok().flatten());
    let completed = count("successful");
    let failed = count("errored");
    let mut row = if completed == Some(0.0) {
        Row::all_failed(level, failed)
    } else {
        let throughput = successful(&metrics, "output_tokens_per_second")
            .and_then(|t| t.opt("mean", notes))
            .ok_or_else(|| RowError::Missing {
                key: "metrics.output_tokens_per_second.successful.mean".into(),
            })?;
        positive("output_tokens_per_second", throughput)?;
        let mut row = Row::new(level, throughput);
        read_latencies(shape, &metrics, &mut row, notes);
        row
    };
    // GuideLLM's request latency is in seconds.
    if let Some(e2e) = successful(&metrics, "request_latency") {
        for a in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(Metric::E2e, a) {
                row.set_latency_ms(stat, value(&e2e, a, notes).map(|s| s * 1000.0));
            }
        }
    }
    let counts = RunCounts {
        completed,
        failed,
        duration_s: b.opt("duration", notes),
        request_throughput_req_s: None,
    };
    let row = row.finish(kind, counts);
    let mut deployment = Deployment::new(kind);
    shape.workload(b, &mut deployment);
    if kind == LevelKind::RequestRate {
        deployment.config = shape
            .cap(b)
            .map(|c| format!("max_concurrency={}", trimmed(c, 6)));
    }
    Ok((deployment, row))
}

/// The latencies of a benchmark's successful requests (see the module documentation).
fn read_latencies(shape: &Shape, metrics: &Record, row: &mut Row, notes: &mut Vec<RowError>) {
    if let Some(ttft) = successful(metrics, "time_to_first_token_ms") {
        for a in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(Metric::Ttft, a) {
                row.set_latency_ms(stat, value(&ttft, a, notes));
            }
        }
    }
    let itl = successful(metrics, "inter_token_latency_ms");
    row.set_latency_ms(
        Statistic::ItlMean,
        itl.as_ref().and_then(|b| b.opt("mean", notes)),
    );
    let lengths = successful(metrics, "output_token_count");
    row.avg_output_len = lengths.as_ref().and_then(|l| l.opt("mean", notes));
    let range = lengths
        .as_ref()
        .and_then(|l| Some((l.num("min").ok()??, l.num("max").ok()??)));
    let per_request = range.is_some_and(|(min, max)| min == max);
    let mut read = vec![(itl, Metric::Tpot)];
    if shape.version.is_some() {
        read.push((
            successful(metrics, "time_per_output_token_ms"),
            Metric::Ntpot,
        ));
    }
    if !per_request {
        let lengths = range.map_or_else(
            || "output lengths that it does not state".to_string(),
            |(min, max)| {
                format!(
                    "output lengths from {} to {}",
                    trimmed(min, 6),
                    trimmed(max, 6)
                )
            },
        );
        notes.push(RowError::LeftOut { what: "TPOT and normalized TPOT".into(), why: format!(
                "GuideLLM weights them by output tokens, so with {lengths} they are not per-request statistics (the mean token gap is read as mean ITL)"
            ) });
        return;
    }
    for (block, metric) in read {
        let Some(block) = block else { continue };
        for a in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(metric, a) {
                row.set_latency_ms(stat, value(&block, a, notes));
            }
        }
    }
}

/// The report's version, or the problem when it is not one read.
fn version(top: &Map<String, Value>) -> Result<Option<u64>, RowError> {
    let Some(meta) = top.get("metadata") else {
        return Ok(None);
    };
    let found = meta.get("version");
    match found.and_then(Value::as_u64) {
        Some(v) if VERSIONS.contains(&v) => Ok(Some(v)),
        _ => Err(RowError::UnsupportedVersion { tool: "GuideLLM report".into(), versions: format!(
                "of version {}: this planner reads versions 1 and 2 (GuideLLM 0.5 and later) and the older report without `metadata`",
                found.map_or_else(|| "not stated".to_string(), |v| short(&v.to_string()))
            ) }),
    }
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let version = match version(&obj) {
        Ok(v) => v,
        Err(e) => return out.problem(&file.name, None, e),
    };
    let shape = Shape {
        top: Record(&obj),
        version,
    };
    let benchmarks = obj
        .get("benchmarks")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut left_out = None;
    for (i, item) in benchmarks.iter().enumerate() {
        if out.full() {
            break;
        }
        let n = Some(i + 1);
        let Some(b) = item.as_object().map(Record) else {
            out.problem(&file.name, n, RowError::NotAnObject);
            continue;
        };
        let mut notes = Vec::new();
        match benchmark(&shape, &b, &mut notes) {
            Ok((deployment, row)) => {
                let model = out.model(shape.model(&b).as_deref(), None);
                out.push(&file.name, n, Measured::new(model, deployment, row));
            }
            Err(e) => out.problem(&file.name, n, e),
        }
        for note in notes {
            // The same reason for every benchmark of the report is said once.
            if note.kind() == RowErrorKind::LeftOut {
                left_out.get_or_insert(note);
            } else {
                out.problem(&file.name, n, note);
            }
        }
    }
    if let Some(note) = left_out {
        out.problem(&file.name, None, note);
    }
}
