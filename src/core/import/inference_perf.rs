//! inference-perf (the Kubernetes serving working group's load generator) lifecycle reports: a
//! run writes one `stage_N_lifecycle_metrics.json` per load stage, and these are its sweep.
//! Level: the stage's `load_summary.concurrency` where the load is concurrent, else its
//! `requested_rate` (req/s), with `achieved_rate` (requests sent ÷ send duration) as the served
//! rate, so the saturation rule applies. Every latency is in **seconds**.
//!
//! What each figure measures (inference-perf's `reportgen`): `time_to_first_token`,
//! `time_per_output_token` (per request, decode time ÷ (output tokens − 1): TPOT),
//! `normalized_time_per_output_token` (per request, request latency ÷ output tokens: normalized
//! TPOT) and `request_latency` are one value per request; `inter_token_latency` pools the gaps of
//! every streamed chunk (ITL), so its median can sit near 0. Versions before inference-perf's
//! PR #410 timed each line of the stream rather than each token, which roughly halves TPOT and
//! fills ITL with near-zero gaps: a stage whose mean TPOT cannot be true together with its mean
//! request latency, TTFT and output length (off by more than 25% from (latency − TTFT) ÷
//! (output tokens − 1)) has its TPOT and ITL left out, with a note.
//!
//! Not levels: `summary_lifecycle_metrics.json` pools every stage, and the
//! `*_prometheus_metrics.json` files are the server's own figures, never pooled with the
//! client's: each is named as skipped. The reports state no model, GPU or engine: the model comes
//! from the import dialog.

use serde_json::Value;

use super::errors::RowError;
use super::record::{base_name, positive, s_to_ms, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::format::significant;
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::InferencePerf,
    label: "inference-perf report",
    described: "an inference-perf report",
    detect,
    parse,
    keys: &[
        "load_summary",
        "successes",
        "failures",
        "requested_rate",
        "achieved_rate",
        "normalized_time_per_output_token",
        "benchmark_time_seconds",
    ],
    level: "load_summary.requested_rate|load_summary.concurrency",
    throughput: "successes.throughput",
};

/// A report object with `load_summary` and its successes or failures.
fn detect(probe: &Probe) -> bool {
    probe.is_json_object() && probe.has("load_summary") && probe.has_any(&["successes", "failures"])
}

/// Largest relative gap between the reported mean TPOT and the one the request latency, TTFT
/// and output length imply, before TPOT is taken as timed per stream line, not per token.
const TPOT_TOLERANCE: f64 = 0.25;

/// A statistic block's field for an aggregate: `mean`, `median`, `p90`, ...
fn field(a: Aggregate) -> &'static str {
    match a {
        Aggregate::P50 => "median",
        other => other.key(),
    }
}

/// The metrics of one stage's successes: latencies (s → ms), leaving TPOT and ITL out (with a
/// note) where they cannot be true together with the request latency.
fn latencies(row: &mut Row, successes: &Record, notes: &mut Vec<RowError>) {
    let Some(latency) = successes.object("latency") else {
        return;
    };
    let mean_ms = |name: &str, notes: &mut Vec<RowError>| {
        s_to_ms(latency.object(name).and_then(|b| b.opt("mean", notes)))
    };
    let e2e = mean_ms("request_latency", notes);
    let ttft = mean_ms("time_to_first_token", notes);
    let tpot = mean_ms("time_per_output_token", notes);
    let output = successes
        .object("output_len")
        .or(successes.object("output_tokens"))
        .and_then(|b| b.opt("mean", notes));
    let implied = match (e2e, ttft, output) {
        (Some(e), Some(t), Some(n)) if n > 1.0 => Some((e - t) / (n - 1.0)),
        _ => None,
    };
    let tpot_untrue = match (tpot, implied) {
        (Some(tpot), Some(implied)) if implied > 0.0 => {
            ((tpot - implied) / implied).abs() > TPOT_TOLERANCE
        }
        _ => false,
    };
    if let (true, Some(tpot), Some(implied)) = (tpot_untrue, tpot, implied) {
        notes.push(RowError::LeftOut { what: "TPOT and ITL".into(), why: format!(
                "the mean TPOT of {} ms cannot be true with the mean request latency, TTFT and output length, which give {} ms per token; inference-perf versions before its PR #410 timed stream lines, not tokens (normalized TPOT and TTFT are read)",
                significant(tpot, 3),
                significant(implied, 3)
            ) });
    }
    let metrics = [
        ("inter_token_latency", Metric::Itl, !tpot_untrue),
        ("time_per_output_token", Metric::Tpot, !tpot_untrue),
        ("normalized_time_per_output_token", Metric::Ntpot, true),
        ("time_to_first_token", Metric::Ttft, true),
        ("request_latency", Metric::E2e, true),
    ];
    for (name, metric, read) in metrics {
        let Some(block) = latency.object(name).filter(|_| read) else {
            continue;
        };
        for aggregate in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(metric, aggregate) {
                row.set_latency_ms(stat, s_to_ms(block.opt(field(aggregate), notes)));
            }
        }
    }
    row.avg_output_len = output;
}

/// One stage's level and row.
fn stage(top: &Record, notes: &mut Vec<RowError>) -> Result<(LevelKind, Row), RowError> {
    let load = top
        .object("load_summary")
        .ok_or_else(|| RowError::Missing {
            key: "load_summary".into(),
        })?;
    let (key, level, kind) = if let Some(c) = load.num("concurrency")? {
        ("load_summary.concurrency", c, LevelKind::Concurrency)
    } else if let Some(r) = load.num("requested_rate")? {
        ("load_summary.requested_rate", r, LevelKind::RequestRate)
    } else {
        return Err(RowError::NoLevel {
            keys: "load_summary.requested_rate".into(),
        });
    };
    positive(key, level)?;
    let successes = top.object("successes");
    let completed = match &successes {
        Some(s) => s.num("count")?,
        None => Some(0.0),
    };
    let failed = top
        .object("failures")
        .map(|f| f.num("count"))
        .transpose()?
        .flatten();
    let mut row = match successes.filter(|_| completed != Some(0.0)) {
        None => Row::all_failed(level, failed),
        Some(successes) => {
            let throughput = successes
                .object("throughput")
                .map(|t| t.num("output_tokens_per_sec"))
                .transpose()?
                .flatten()
                .ok_or_else(|| RowError::Missing {
                    key: "successes.throughput.output_tokens_per_sec".into(),
                })?;
            positive("successes.throughput.output_tokens_per_sec", throughput)?;
            let mut row = Row::new(level, throughput);
            latencies(&mut row, &successes, notes);
            row
        }
    };
    if kind == LevelKind::RequestRate {
        row.served_req_s = load.opt("achieved_rate", notes);
    }
    let counts = RunCounts {
        completed,
        failed,
        duration_s: top.opt("benchmark_time_seconds", notes),
        request_throughput_req_s: None,
    };
    Ok((kind, row.finish(kind, counts)))
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let top = Record(&obj);
    let name = base_name(&file.name);
    let prometheus = name.contains("prometheus")
        || top
            .object("successes")
            .is_some_and(|s| s.object("latency").is_none() && s.0.contains_key("rate"));
    if prometheus {
        return out.problem(
            &file.name,
            None,
            RowError::Skipped { what: "inference-perf's Prometheus report".into(), why: "it holds the server's own figures, which are never pooled with the client's measurements".into() },
        );
    }
    let pooled = top
        .object("load_summary")
        .is_some_and(|l| !l.0.contains_key("requested_rate") && !l.0.contains_key("concurrency"));
    if pooled {
        return out.problem(
            &file.name,
            None,
            RowError::Skipped { what: "inference-perf's summary report".into(), why: "it pools the requests of every stage; each stage_N_lifecycle_metrics.json is a level".into() },
        );
    }
    let mut notes = Vec::new();
    match stage(&top, &mut notes) {
        Ok((kind, row)) => {
            let model = out.model(None, None);
            out.push(
                &file.name,
                Some(1),
                Measured::new(model, Deployment::new(kind), row),
            );
        }
        Err(e) => out.problem(&file.name, Some(1), e),
    }
    for note in notes {
        out.problem(&file.name, None, note);
    }
}
