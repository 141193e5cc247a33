//! AIPerf's server-metrics export, written on every run beside its profile export:
//! `server_metrics_export.csv` (comment lines, then four sections, gauge, counter, histogram
//! and info, each with its own header row, separated by blank lines; line ends LF and CRLF
//! mixed) and `server_metrics_export.json` (`metrics[name].series[i].stats`). No level: its
//! signals join the run beside it (see `import::signals`).
//!
//! Read: the engine's gauges of requests running and waiting (`avg`, `max`) and KV cache use
//! (`avg`, `max`, converted to a fraction where the unit is `percent`; another unit is named and
//! not used), and its preemption counter (`total`). Several series of one metric (engines of a
//! data-parallel deployment) add up for running, waiting and preemptions; KV use takes the
//! highest.

use serde_json::Value;

use super::errors::{short, RowError};
use super::record::{base_name, Record};
use super::signals::{engine_metric, keys, kv_factor, push};
use super::{Body, Format, FormatSpec, InputFile, Parsed, Probe, SignalSupplement};
use crate::core::model::signals::{ServerSignals, Signal};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::AiPerfServerMetrics,
    label: "AIPerf server-metrics export",
    described: "an AIPerf server-metrics export",
    detect,
    parse,
    keys: &["metrics", "Endpoint", "Type", "Metric", "Unit", "series"],
    level: "the profile export beside it",
    throughput: "the profile export beside it",
};

/// The CSV's first comment line.
const CSV_TITLE: &str = "# AIPerf Server Metrics Export";

/// The CSV (its title line, or a header of `Endpoint,Type,Metric,Unit`), or a JSON object of
/// `metrics` each with `series`.
fn detect(probe: &Probe) -> bool {
    match &probe.body {
        Body::Csv(header) => {
            header.first().is_some_and(|h| h.starts_with(CSV_TITLE))
                || ["Endpoint", "Type", "Metric", "Unit"]
                    .iter()
                    .all(|c| header.iter().any(|h| h == c))
        }
        Body::Json(Value::Object(o)) => o
            .get("metrics")
            .and_then(Value::as_object)
            .is_some_and(|m| m.values().any(|v| v.get("series").is_some())),
        _ => false,
    }
}

/// One metric's figures as read, before they are added up.
#[derive(Default)]
struct Read {
    mean: Option<f64>,
    max: Option<f64>,
}

/// Adds one series' figures of `signal` to `signals` (see the module's docs).
fn add(signals: &mut ServerSignals, signal: Signal, read: Read) {
    let sum = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => Some(x + y),
        (x, y) => x.or(y),
    };
    let high = |a: Option<f64>, b: Option<f64>| match (a, b) {
        (Some(x), Some(y)) => Some(x.max(y)),
        (x, y) => x.or(y),
    };
    match signal {
        Signal::Running => {
            signals.running_mean = sum(signals.running_mean, read.mean);
            signals.running_max = sum(signals.running_max, read.max);
        }
        Signal::Waiting => {
            signals.waiting_mean = sum(signals.waiting_mean, read.mean);
            signals.waiting_max = sum(signals.waiting_max, read.max);
        }
        Signal::KvUse => {
            signals.kv_use_mean = high(signals.kv_use_mean, read.mean);
            signals.kv_use_max = high(signals.kv_use_max, read.max);
        }
        Signal::Preemptions => signals.preemptions = sum(signals.preemptions, read.max),
    }
}

/// Reads one series of metric `name` in `unit` into `signals`; `figure` gives a statistic of
/// the series (`avg`, `max`, `total`). A KV unit that is not a ratio nor a percent is named.
fn series(
    name: &str,
    unit: &str,
    figure: &dyn Fn(&str) -> Option<f64>,
    signals: &mut ServerSignals,
    problems: &mut Vec<RowError>,
) {
    let Some((signal, source)) = engine_metric(name) else {
        return;
    };
    let read = match signal {
        Signal::Preemptions => Read {
            mean: None,
            max: figure("total"),
        },
        Signal::KvUse => {
            let Some(factor) = kv_factor(unit) else {
                return problems.push(RowError::SignalUnit {
                    metric: short(name),
                    unit: short(unit),
                });
            };
            Read {
                mean: figure("avg").map(|v| v * factor),
                max: figure("max").map(|v| v * factor),
            }
        }
        Signal::Running | Signal::Waiting => Read {
            mean: figure("avg"),
            max: figure("max"),
        },
    };
    if read.mean.is_some() || read.max.is_some() {
        add(signals, signal, read);
        signals.set_source(signal, source);
    }
}

/// The CSV's sections: blocks of lines between blank lines, comment lines left out, each
/// block's first line its header.
fn csv_signals(text: &str, problems: &mut Vec<RowError>) -> ServerSignals {
    let mut signals = ServerSignals::new();
    let mut block: Vec<&str> = Vec::new();
    let lines = text.lines().map(|l| l.trim_end_matches('\r'));
    for line in lines.chain(std::iter::once("")) {
        if line.starts_with('#') {
            continue;
        }
        if !line.trim().is_empty() {
            block.push(line);
            continue;
        }
        if block.len() > 1 {
            csv_section(&block.join("\n"), &mut signals, problems);
        }
        block.clear();
    }
    signals
}

/// One section of the CSV: its header, then one row per series.
fn csv_section(section: &str, signals: &mut ServerSignals, problems: &mut Vec<RowError>) {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(section.as_bytes());
    let Ok(header) = reader.headers().cloned() else {
        return;
    };
    let column = |name: &str| header.iter().position(|h| h.trim() == name);
    let (Some(metric), unit) = (column("Metric"), column("Unit")) else {
        return;
    };
    for record in reader.records().flatten() {
        let name = record.get(metric).unwrap_or("").trim();
        let unit = unit.and_then(|u| record.get(u)).unwrap_or("").trim();
        let figure = |key: &str| {
            column(key)
                .and_then(|i| record.get(i))
                .and_then(|v| v.trim().parse::<f64>().ok())
        };
        series(name, unit, &figure, signals, problems);
    }
}

/// The JSON's `metrics`: each metric's `unit` (on the metric or its series) and each series'
/// `stats`.
fn json_signals(metrics: &Record, problems: &mut Vec<RowError>) -> ServerSignals {
    let mut signals = ServerSignals::new();
    for (name, metric) in metrics.0 {
        let Some(metric) = metric.as_object().map(Record) else {
            continue;
        };
        let unit = metric.text("unit").unwrap_or("");
        let all = metric.0.get("series").and_then(Value::as_array);
        for s in all.into_iter().flatten().filter_map(Value::as_object) {
            let s = Record(s);
            let unit = s.text("unit").unwrap_or(unit);
            let stats = s.object("stats");
            let figure = |key: &str| stats.as_ref().and_then(|st| st.num(key).ok().flatten());
            series(name, unit, &figure, &mut signals, problems);
        }
    }
    signals
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let mut problems = Vec::new();
    let signals = match body {
        Body::Json(Value::Object(o)) => match Record(&o).object("metrics") {
            Some(metrics) => json_signals(&metrics, &mut problems),
            None => ServerSignals::new(),
        },
        _ => csv_signals(&file.text, &mut problems),
    };
    for p in problems {
        out.problem(&file.name, None, p);
    }
    push(
        out,
        SignalSupplement {
            file: file.name.clone(),
            keys: keys(&file.name),
            signals,
            kv_zero: false,
            what: format!(
                "AIPerf's server metrics ({}), without profile_export_aiperf.json or an InferenceX result of its run",
                base_name(&file.name)
            ),
        },
    );
}
