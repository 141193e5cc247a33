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
//! Not levels: `summary_lifecycle_metrics.json` and `summary_prometheus_metrics.json` pool every
//! stage: each is named as skipped. A stage's `stage_N_prometheus_metrics.json` holds the
//! server's own signals over that stage, joined to `stage_N_lifecycle_metrics.json` of the same
//! folder (never pooled with the client's figures): `queue_len` (vLLM's
//! `num_requests_waiting`, mean), `num_requests_running` (mean), `kv_cache_usage_percentage` (a
//! fraction, as vLLM's gauge: mean, and max or else p99) and `num_preemptions_total` (a count,
//! though its statistic is named `mean`). Its `rate` is the server's, not the client's achieved
//! rate, and is not read. The reports state no model, GPU or engine: the model comes from the
//! import dialog.

use serde_json::Value;

use super::errors::RowError;
use super::record::{base_name, folder, positive, s_to_ms, Record};
use super::signals::push;
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe, SignalSupplement};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::format::significant;
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::signals::{Gauge, KvPeak, ServerSignals, Signal, SignalSource};
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

/// What joins a stage's two reports: their folder and the stage, `folder/stage_N`; `None` for a
/// file not named `stage_N_…`.
fn stage_key(name: &str) -> Option<String> {
    let n = base_name(name).strip_prefix("stage_")?.split('_').next()?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}/stage_{n}", folder(name)))
}

/// A stage's server signals from its Prometheus report's `successes` (see the module's docs),
/// and whether its KV gauge reads exactly 0 everywhere.
fn prometheus_signals(successes: &Record) -> (ServerSignals, bool) {
    let stat = |metric: &str, key: &str| successes.object(metric)?.num(key).ok().flatten();
    let mut signals = ServerSignals::new();
    for (signal, metric) in [
        (Signal::Waiting, "queue_len"),
        (Signal::Running, "num_requests_running"),
    ] {
        let mean = stat(metric, "mean");
        if mean.is_some() {
            signals = signals.with(
                signal,
                Gauge {
                    mean,
                    max: stat(metric, "max"),
                },
                SignalSource::InferencePerf,
            );
        }
    }
    let kv = "kv_cache_usage_percentage";
    let (peak, kind) = match stat(kv, "max") {
        Some(max) => (Some(max), KvPeak::Max),
        None => (stat(kv, "p99"), KvPeak::P99),
    };
    let kv_mean = stat(kv, "mean");
    if kv_mean.or(peak).is_some() {
        signals = signals.with(
            Signal::KvUse,
            Gauge {
                mean: kv_mean,
                max: peak,
            },
            SignalSource::InferencePerf,
        );
        signals.kv_peak = kind;
    }
    let kv_zero = successes.object(kv).is_some_and(|block| {
        block.0.values().all(|v| v.as_f64() == Some(0.0)) && !block.0.is_empty()
    });
    let preempted = stat("num_preemptions_total", "mean");
    if preempted.is_some() {
        signals = signals.with(
            Signal::Preemptions,
            Gauge {
                mean: None,
                max: preempted,
            },
            SignalSource::InferencePerf,
        );
    }
    (signals, kv_zero)
}

/// A stage's Prometheus report: its signals, to join its lifecycle report.
fn prometheus(file: &InputFile, top: &Record, out: &mut Parsed) {
    let stage = stage_key(&file.name);
    let (Some(key), Some(successes)) = (stage, top.object("successes")) else {
        return out.problem(
            &file.name,
            None,
            RowError::Skipped { what: "inference-perf's summary Prometheus report".into(), why: "it pools the server's figures over every stage; each stage_N_prometheus_metrics.json joins its stage".into() },
        );
    };
    let (signals, kv_zero) = prometheus_signals(&successes);
    push(
        out,
        SignalSupplement {
            file: file.name.clone(),
            keys: vec![key],
            signals,
            kv_zero,
            what: format!(
                "inference-perf's Prometheus report {}, without {} from the same folder",
                base_name(&file.name),
                base_name(&file.name).replace("prometheus", "lifecycle")
            ),
        },
    );
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Object(obj)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    let top = Record(&obj);
    let name = base_name(&file.name);
    let prometheus_report = name.contains("prometheus")
        || top
            .object("successes")
            .is_some_and(|s| s.object("latency").is_none() && s.0.contains_key("rate"));
    if prometheus_report {
        return prometheus(file, &top, out);
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
            let mut measured = Measured::new(model, Deployment::new(kind), row);
            measured.folder = stage_key(&file.name);
            out.push(&file.name, Some(1), measured);
        }
        Err(e) => out.problem(&file.name, Some(1), e),
    }
    for note in notes {
        out.problem(&file.name, None, note);
    }
}
