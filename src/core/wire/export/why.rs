//! The JSON's `result.why` (the verdict at the recommended level and the next, the rule and the
//! lever), `result.levels` (every level's signals and verdict) and `result.autoscaler` (the
//! per-replica targets, the metric, its query, threshold and replicas).

use serde::Serialize;

use crate::core::model::signals::{ServerSignals, Signal};
use crate::core::model::sweep::Sweep;
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::bottleneck::{verdicts, why, LevelVerdict};
use crate::core::plan::planner::{Plan, Slo};
use crate::core::text::why_text::why_text;

/// A level's signals; each `null` where not reported.
#[derive(Serialize, Default)]
pub(super) struct JsonSignals {
    running_mean: Option<f64>,
    running_max: Option<f64>,
    waiting_mean: Option<f64>,
    waiting_max: Option<f64>,
    kv_use_mean: Option<f64>,
    kv_use_max: Option<f64>,
    /// `max` or `p99`: what `kv_use_max` is; `null` without it.
    kv_use_max_is: Option<&'static str>,
    preemptions: Option<f64>,
    /// ML.ENERGY's `avg_batch_size` ÷ `max_num_seqs` on a `max_num_seqs` sweep.
    fill_ratio: Option<f64>,
    /// The metric each signal reported was read from (`running`, `waiting`, `kv_use`,
    /// `preemptions`), e.g. `vllm:num_requests_waiting`; a signal not reported is left out.
    sources: serde_json::Map<String, serde_json::Value>,
}

impl JsonSignals {
    fn of(li: usize, sweep: &Sweep) -> JsonSignals {
        let signals = sweep.level_signals(li);
        let s = signals.as_ref();
        let fill = sweep
            .levels()
            .get(li)
            .and_then(|l| crate::core::plan::bottleneck::fill_ratio(l, sweep.level_kind()));
        let get = |f: fn(&ServerSignals) -> Option<f64>| s.and_then(f);
        JsonSignals {
            running_mean: get(|s| s.running_mean),
            running_max: get(|s| s.running_max),
            waiting_mean: get(|s| s.waiting_mean),
            waiting_max: get(|s| s.waiting_max),
            kv_use_mean: get(|s| s.kv_use_mean),
            kv_use_max: get(|s| s.kv_use_max),
            kv_use_max_is: s
                .filter(|s| s.kv_use_max.is_some())
                .map(|s| s.kv_peak.label()),
            preemptions: get(|s| s.preemptions),
            fill_ratio: fill,
            sources: Signal::ALL
                .into_iter()
                .filter_map(|signal| {
                    let source = s?.source(signal)?;
                    let key = match signal {
                        Signal::KvUse => "kv_use",
                        other => other.column(),
                    };
                    Some((key.to_string(), source.metric(signal).into()))
                })
                .collect(),
        }
    }
}

/// `result.levels[i]`.
#[derive(Serialize)]
pub(super) struct JsonLevel {
    level: f64,
    signals: JsonSignals,
    verdict: Vec<&'static str>,
}

/// `result.levels`: every level of the sweep, in order.
pub(super) fn levels(sweep: &Sweep) -> Vec<JsonLevel> {
    sweep
        .levels()
        .iter()
        .zip(verdicts(sweep))
        .enumerate()
        .map(|(li, (l, v))| JsonLevel {
            level: l.level,
            signals: JsonSignals::of(li, sweep),
            verdict: v.keys(),
        })
        .collect()
}

/// `result.why`.
#[derive(Serialize)]
pub(super) struct JsonWhy {
    /// The recommended level and its verdict.
    level: f64,
    verdict: Vec<&'static str>,
    signals: JsonSignals,
    /// The next measured level (it fails), its verdict and signals; `null` when every level
    /// meets.
    next_level: Option<f64>,
    next_verdict: Option<Vec<&'static str>>,
    next_signals: Option<JsonSignals>,
    /// The rule whose lever is named (the next level's first, else the recommended level's).
    rule: &'static str,
    lever: &'static str,
    /// The page's sentences.
    text: JsonWhyText,
}

#[derive(Serialize)]
struct JsonWhyText {
    verdict: String,
    next: String,
    lever: String,
}

/// `result.why` of a planned sweep; `None` without a recommended level.
pub(super) fn why_of(sweep: &Sweep, plan: &Plan, slo: &Slo) -> Option<JsonWhy> {
    let w = why(sweep, plan)?;
    let levels = sweep.levels();
    let rec = levels.get(w.recommended)?;
    let next = w.next.and_then(|i| levels.get(i));
    let first = |v: &LevelVerdict| v.fired.first().map(|f| f.rule().key());
    let rule = w
        .at_next
        .as_ref()
        .and_then(first)
        .or_else(|| first(&w.at_recommended))
        .unwrap_or("headroom");
    let text = why_text(sweep, plan, slo, &w);
    Some(JsonWhy {
        level: rec.level,
        verdict: w.at_recommended.keys(),
        signals: JsonSignals::of(w.recommended, sweep),
        next_level: next.map(|l| l.level),
        next_verdict: w.at_next.as_ref().map(LevelVerdict::keys),
        next_signals: w.next.map(|li| JsonSignals::of(li, sweep)),
        rule,
        lever: w.lever.key(),
        text: JsonWhyText {
            verdict: text.verdict,
            next: text.next,
            lever: text.lever,
        },
    })
}

/// `result.autoscaler`.
#[derive(Serialize)]
pub(super) struct JsonAutoscaler {
    engine: &'static str,
    engine_stated: bool,
    metric: &'static str,
    query: String,
    threshold: f64,
    min_replicas: u64,
    max_replicas: Option<u64>,
    /// The per-replica signals at the recommended level.
    level: f64,
    running: Option<f64>,
    waiting: Option<f64>,
    kv_use: Option<f64>,
    req_s: Option<f64>,
    output_tok_s: f64,
}

impl From<Autoscaler> for JsonAutoscaler {
    fn from(a: Autoscaler) -> JsonAutoscaler {
        JsonAutoscaler {
            engine: a.engine.0.label(),
            engine_stated: a.engine.1,
            metric: a.metric,
            query: a.query,
            threshold: a.threshold,
            min_replicas: a.min_replicas,
            max_replicas: a.max_replicas,
            level: a.targets.level,
            running: a.targets.running,
            waiting: a.targets.waiting,
            kv_use: a.targets.kv_use.map(|(k, _)| k),
            req_s: a.targets.req_s,
            output_tok_s: a.targets.output_tok_s,
        }
    }
}
