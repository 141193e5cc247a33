//! Shared by the readers of a server's signals: which engine metric is which signal, the keys
//! that join a signals file to its run, and the joining itself ([`join`], after every file is
//! read).
//!
//! A signals file joins the one run whose [`Measured::folder`] equals one of its keys, tried in
//! order: the folder it sits in (an AIPerf profile export beside it), then the run's name
//! (InferenceX keeps a level's result in `bmk_agentic_<run>/` and AIPerf's artifacts in
//! `agentic_<run>/aiperf_artifacts/`). A file that joins no run is named ("server signals without
//! a level") and kept out; its signals are never pooled with another run's.

use super::errors::RowError;
use super::record::folder;
use super::{Parsed, SignalSupplement};
use crate::core::model::signals::{OutOfRange, ServerSignals, Signal, SignalSource};

/// The engine metrics read as signals: name, signal, and the source it names.
pub(crate) const ENGINE_METRICS: [(&str, Signal, SignalSource); 9] = [
    (
        "vllm:num_requests_running",
        Signal::Running,
        SignalSource::Vllm,
    ),
    (
        "vllm:num_requests_waiting",
        Signal::Waiting,
        SignalSource::Vllm,
    ),
    (
        "vllm:kv_cache_usage_perc",
        Signal::KvUse,
        SignalSource::Vllm,
    ),
    (
        "vllm:gpu_cache_usage_perc",
        Signal::KvUse,
        SignalSource::VllmGpuCache,
    ),
    (
        "vllm:num_preemptions",
        Signal::Preemptions,
        SignalSource::Vllm,
    ),
    (
        "vllm:num_preemptions_total",
        Signal::Preemptions,
        SignalSource::Vllm,
    ),
    (
        "sglang:num_running_reqs",
        Signal::Running,
        SignalSource::Sglang,
    ),
    (
        "sglang:num_queue_reqs",
        Signal::Waiting,
        SignalSource::Sglang,
    ),
    ("sglang:token_usage", Signal::KvUse, SignalSource::Sglang),
];

/// The signal a metric of this name is, and its source.
pub(crate) fn engine_metric(name: &str) -> Option<(Signal, SignalSource)> {
    ENGINE_METRICS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, s, src)| (*s, *src))
}

/// The factor that makes a KV use in `unit` a fraction: 1 for a ratio (or no unit stated),
/// 0.01 for a percent; `None` for any other unit.
pub(crate) fn kv_factor(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "" | "ratio" | "fraction" => Some(1.0),
        "percent" | "%" | "pct" => Some(0.01),
        _ => None,
    }
}

/// The run name a file of an InferenceX agentic run carries in its folders: `<run>` of a folder
/// `agentic_<run>` or `bmk_agentic_<run>`, as `run:<run>`.
pub(crate) fn run_key(name: &str) -> Option<String> {
    folder(name).split(['/', '\\']).rev().find_map(|part| {
        part.strip_prefix("bmk_agentic_")
            .or_else(|| part.strip_prefix("agentic_"))
            .filter(|run| !run.is_empty())
            .map(|run| format!("run:{run}"))
    })
}

/// The keys a signals file at `name` joins a run by: its folder, then its run name.
pub(crate) fn keys(name: &str) -> Vec<String> {
    std::iter::once(folder(name).to_string())
        .chain(run_key(name))
        .collect()
}

/// Records a problem for each signal of `file` outside its range (`signals`: as read, before
/// the check, for the metrics' names).
pub(crate) fn out_of_range(
    out: &mut Parsed,
    file: &str,
    left: &[OutOfRange],
    signals: &ServerSignals,
) {
    for o in left {
        let metric = signals
            .source(o.signal)
            .map_or_else(String::new, |s| format!(" ({})", s.metric(o.signal)));
        out.problem(
            file,
            None,
            RowError::SignalOutOfRange {
                signal: format!("{}{metric}", o.signal.label()),
                value: o.value,
            },
        );
    }
}

/// Keeps a signals file's signals, checked (each value out of range named), to be joined to its
/// run once every file is read.
pub(crate) fn push(out: &mut Parsed, mut sup: SignalSupplement) {
    let (checked, left) = sup.signals.clone().checked();
    out_of_range(out, &sup.file, &left, &sup.signals);
    sup.signals = checked;
    out.signals.push(sup);
}

/// Joins every signals file to its run (see the module's docs). inference-perf's KV gauge that
/// reads exactly 0 at every stage is the value it writes for a metric its query found no
/// series for: not reported, said once.
pub(crate) fn join(out: &mut Parsed) {
    let supplements = std::mem::take(&mut out.signals);
    let zero: Vec<&SignalSupplement> = supplements.iter().filter(|s| s.kv_zero).collect();
    let kv_trap = !zero.is_empty()
        && supplements
            .iter()
            .filter(|s| s.signals.source(Signal::KvUse) == Some(SignalSource::InferencePerf))
            .all(|s| s.kv_zero);
    if kv_trap {
        let waiting = supplements
            .iter()
            .any(|s| s.signals.waiting_mean.is_some_and(|w| w > 0.0));
        out.note(RowError::LeftOut {
            what: "KV cache use (inference-perf kv_cache_usage_percentage)".into(),
            why: format!(
                "it reads exactly 0 at every stage{}: inference-perf writes 0 for a metric its query found no series for (vLLM V1 renamed the gauge vllm:kv_cache_usage_perc), so KV use is not reported",
                if waiting { " while requests wait" } else { "" }
            ),
        });
    }
    for mut sup in supplements {
        // A KV cache 0% used while requests run or wait cannot be: the same empty series.
        let busy = [sup.signals.running_mean, sup.signals.waiting_mean]
            .iter()
            .any(|v| v.is_some_and(|v| v > 0.0));
        if !kv_trap && sup.kv_zero && busy {
            out.note(RowError::LeftOut {
                what: format!("KV cache use (inference-perf kv_cache_usage_percentage) of {}", sup.file),
                why: "it reads exactly 0 while requests run or wait, which no KV cache can: inference-perf writes 0 for a metric its query found no series for, so KV use is not reported there".into(),
            });
        }
        if sup.kv_zero && (kv_trap || busy) {
            sup.signals.kv_use_mean = None;
            sup.signals.kv_use_max = None;
            let (signals, _) = sup.signals.checked();
            sup.signals = signals;
        }
        attach(out, sup);
    }
}

/// Adds one file's signals to its run, or names it.
fn attach(out: &mut Parsed, sup: SignalSupplement) {
    for key in &sup.keys {
        let mut runs = out
            .rows
            .iter_mut()
            .filter(|m| m.folder.as_deref() == Some(key.as_str()));
        match (runs.next(), runs.next()) {
            (Some(m), None) => {
                // The file's signals first (a whole export), the run's own (a digest) where it
                // has none.
                let mut signals = sup.signals.clone();
                if let Some(own) = m.row.signals.as_deref() {
                    signals.fill_from(own);
                }
                m.row.signals = (!signals.is_empty()).then(|| Box::new(signals));
                return;
            }
            (Some(_), Some(_)) => {
                let n = 2 + runs.count();
                let what = format!(
                    "{}, beside {n} client files of which none is its own run",
                    sup.what
                );
                return out.problem(&sup.file, None, RowError::SignalsWithoutLevel { what });
            }
            (None, _) => {}
        }
    }
    let what = format!("{}, with no client file of its run beside it", sup.what);
    out.problem(&sup.file, None, RowError::SignalsWithoutLevel { what });
}
