//! Why the answer stops where it does, in words: the verdict rules (stated in the README word
//! for word, tested), each level's verdict with the numbers that fired it, the lever, the
//! signal cells of the whole sweep, and the autoscaler's targets.

use crate::core::model::format::{counted, grouped, level as level_text, trimmed};
use crate::core::model::signals::{KvPeak, ServerSignals, Signal};
use crate::core::model::sweep::{Level, LevelKind, Sweep};
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::bottleneck::{
    fill_ratio, Fired, LevelVerdict, Lever, RunningBasis, Why, COMPUTE_BOUND_BELOW,
    NOT_FILLED_BELOW,
};
use crate::core::plan::planner::{Condition, Plan, Slo, Target};
use crate::core::text::explain::verdict_text;

/// The verdict rules, in the order they are applied: each rule's key and what it says (with its
/// lever). The README states them word for word under "Why it stops here".
pub const RULES: [(&str, &str); 7] = [
    (
        "kv-bound",
        "KV use max (or p99) ≥ 0.9, or preemptions > 0. Lever: more KV memory per replica (FP8 KV cache, more GPUs per replica, a shorter `max_model_len`, KV offload).",
    ),
    (
        "capped",
        "running mean ≥ 0.95 × `max_num_seqs` (where the cap is stated: the level of a `max_num_seqs` sweep, or a file's `max_num_seqs` beside a client's level) and waiting > 0: the batch cap binds. Lever: a higher `max_num_seqs`, while KV use leaves room.",
    ),
    (
        "queueing",
        "waiting mean ≥ 1 while KV use max < 0.9 (with KV not reported: waiting alone, said). With KV use max below 0.5 it is compute-bound: requests wait while the KV cache has room, and more KV memory will not help. Lever: another replica or a larger `max_num_batched_tokens`.",
    ),
    (
        "not-filled",
        "running mean (or `avg_batch_size`) < 0.85 × the level's concurrency or `max_num_seqs`: the client or the arrivals keep the batch below its cap (ML.ENERGY drops such runs and every larger cap after them, so its sweeps end before one). Lever: none on the server; more load from the client.",
    ),
    (
        "overloaded",
        "on a request-rate sweep (no server signals needed), served rate < 0.95 × offered rate. Lever: another replica.",
    ),
    (
        "queueing-from-latency",
        "without server signals, from the client curve alone: TTFT p50 ≥ 3 × the lowest level's while output tok/s per GPU rises < 5% over the level below. Lever: another replica or a larger `max_num_batched_tokens`.",
    ),
    ("headroom", "none of the rules above holds."),
];

/// What the verdict cannot tell, stated in the README beside the rules.
pub const LIMITS: &str = "A signal sampled over a level is its mean (or its maximum) over the whole run: a burst shorter than the run is averaged away, and a level whose signals come from another run than its client figures is never joined. Verdicts from the client curve alone (`queueing-from-latency`, `overloaded`) are inferences, not measurements. A verdict names what the signals show at a level, not what would happen with the lever pulled.";

/// A level with its unit: `max_num_seqs 128`, `concurrency 8`, `4 req/s`.
pub fn at_level(kind: LevelKind, level: f64) -> String {
    match kind {
        LevelKind::RequestRate => format!("{} req/s", level_text(level)),
        _ => format!("{} {}", kind.label(), level_text(level)),
    }
}

fn count(v: f64) -> String {
    trimmed(v, 3)
}

/// A fraction as a percent, no sign: `0.4077 -> "41%"`.
fn share(v: f64) -> String {
    format!("{}%", grouped(v * 100.0, 0))
}

fn kv_words(kv: Option<f64>, peak: KvPeak) -> String {
    match kv {
        Some(k) => format!("KV use {} {}", peak.label(), trimmed(k, 3)),
        None => "the KV cache is not reported".to_string(),
    }
}

/// Rule 1's numbers: the KV use at or above the bound, the preemptions.
fn kv_bound_text(kv_use_max: Option<f64>, kv_peak: KvPeak, preemptions: Option<f64>) -> String {
    let mut parts = Vec::new();
    if let Some(k) = kv_use_max.filter(|k| *k >= crate::core::plan::bottleneck::KV_BOUND_AT) {
        parts.push(format!("KV use {} {}", kv_peak.label(), trimmed(k, 3)));
    }
    if let Some(p) = preemptions.filter(|p| *p > 0.0) {
        parts.push(format!("{} preemptions", grouped(p, 0)));
    }
    format!("the KV cache is full ({})", parts.join(", "))
}

/// Rule 3's numbers, compute-bound where KV use is low, said where KV is not reported.
fn queueing_text(waiting_mean: f64, kv_use_max: Option<f64>) -> String {
    match kv_use_max {
        None => format!(
            "requests queue (waiting {} on average) while the KV cache is not reported",
            count(waiting_mean)
        ),
        Some(k) if k < COMPUTE_BOUND_BELOW => format!(
            "compute-bound: requests wait ({} on average) while the KV cache is {} used; more KV memory will not help",
            count(waiting_mean),
            share(k)
        ),
        Some(k) => format!(
            "requests queue (waiting {} on average) with KV use max {}",
            count(waiting_mean),
            trimmed(k, 3)
        ),
    }
}

/// One rule that holds, with its numbers: "requests queue (waiting 155 on average) while the KV
/// cache is not reported".
pub fn fired_text(fired: &Fired, kind: LevelKind) -> String {
    match fired {
        Fired::KvBound {
            kv_use_max,
            kv_peak,
            preemptions,
        } => kv_bound_text(*kv_use_max, *kv_peak, *preemptions),
        Fired::Capped {
            running_mean,
            max_num_seqs,
            waiting_mean,
            kv_use_max,
        } => format!(
            "the batch cap binds: {} running on average of max_num_seqs {}, {} waiting ({})",
            count(*running_mean),
            level_text(*max_num_seqs),
            count(*waiting_mean),
            kv_words(*kv_use_max, KvPeak::Max)
        ),
        Fired::Queueing {
            waiting_mean,
            kv_use_max,
        } => queueing_text(*waiting_mean, *kv_use_max),
        Fired::NotFilled {
            running_mean,
            basis,
            of,
            of_cap,
        } => format!(
            "the batch is not filled: {} {} of {} {} ({}, below {})",
            match basis {
                RunningBasis::Gauge => "running on average",
                RunningBasis::AvgBatch => "avg batch",
            },
            count(*running_mean),
            if *of_cap { "max_num_seqs" } else { kind.label() },
            level_text(*of),
            share(running_mean / of),
            share(NOT_FILLED_BELOW)
        ),
        Fired::Overloaded {
            served_req_s,
            offered_req_s,
        } => format!(
            "overloaded: served {} of {} req/s offered",
            trimmed(*served_req_s, 3),
            level_text(*offered_req_s)
        ),
        Fired::QueueingFromLatency {
            ttft_ms,
            lowest,
            rise,
        } => format!(
            "queueing (from latency): TTFT p50 {} ms, {}× the lowest level's ({} ms at {}), while output tok/s rose {} over {}",
            grouped(*ttft_ms, 0),
            trimmed(ttft_ms / lowest.0, 3),
            trimmed(lowest.0, 3),
            level_text(lowest.1),
            crate::core::model::format::percent(rise.0),
            level_text(rise.1)
        ),
        Fired::Headroom => "headroom: no signal shows a bottleneck".to_string(),
    }
}

/// A level's verdict in words: each rule that holds, joined.
pub fn verdict_words(v: &LevelVerdict, kind: LevelKind) -> String {
    v.fired
        .iter()
        .map(|f| fired_text(f, kind))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The lever in words.
pub fn lever_text(lever: Lever) -> &'static str {
    match lever {
        Lever::MoreKvMemory => "more KV memory per replica (FP8 KV cache, more GPUs per replica, a shorter max_model_len, KV offload)",
        Lever::HigherMaxNumSeqs => "a higher max_num_seqs, while KV use leaves room",
        Lever::ReplicaOrBatchedTokens => "another replica or a larger max_num_batched_tokens",
        Lever::MoreClientLoad => "none on the server: the client or the arrivals keep the batch below its cap",
        Lever::AnotherReplica => "another replica: the arrivals are more than one replica serves",
        Lever::Nothing => "none named: no server signal shows a bottleneck there",
    }
}

/// What the next level breaks: "misses p50 ITL (41 ms > 40 ms)", or each condition by name.
fn breaks_text(slo: &Slo, plan: &Plan, next: usize) -> String {
    let Some(v) = plan.verdicts.get(next) else {
        return String::new();
    };
    match (v.broken.as_slice(), v.latency_ms) {
        ([Condition::Target], Some(ms)) => match slo.target {
            Target::MsPerToken(t) => format!(
                "misses {} ({} ms > {} ms)",
                slo.stat.short_label(),
                trimmed(ms, 3),
                trimmed(t, 4)
            ),
            Target::TokensPerSecond(s) => format!(
                "misses {} ({} tok/s per user < {})",
                slo.stat.short_label(),
                trimmed(1000.0 / ms, 3),
                trimmed(s, 4)
            ),
        },
        _ => verdict_text(slo, v),
    }
}

/// The three sentences of "Why it stops here".
#[derive(Clone, Debug, PartialEq)]
pub struct WhyText {
    /// The verdict at the recommended level (`why-verdict`).
    pub verdict: String,
    /// What the next level breaks, and its verdict (`why-next`); the end of the sweep when every
    /// level meets.
    pub next: String,
    /// The lever (`why-lever`).
    pub lever: String,
}

/// "Why it stops here" for a planned sweep.
pub fn why_text(sweep: &Sweep, plan: &Plan, slo: &Slo, why: &Why) -> WhyText {
    let kind = sweep.level_kind();
    let levels = sweep.levels();
    let rec = levels.get(why.recommended);
    let rec_at = rec.map_or_else(String::new, |l| at_level(kind, l.level));
    let next = match (why.next.and_then(|i| levels.get(i)), &why.at_next) {
        (Some(level), Some(v)) => format!(
            "{} {}: {}.",
            at_level(kind, level.level),
            breaks_text(slo, plan, why.next.unwrap_or_default()),
            verdict_words(v, kind)
        ),
        _ => sweep_end(sweep, rec),
    };
    WhyText {
        verdict: format!("At {rec_at}: {}.", verdict_words(&why.at_recommended, kind)),
        next,
        lever: format!("Lever: {}.", lever_text(why.lever)),
    }
}

/// Where every measured level meets: nothing above was measured; on a `max_num_seqs` sweep,
/// its fill ratio at the last level and ML.ENERGY's rule that ended it.
fn sweep_end(sweep: &Sweep, last: Option<&Level>) -> String {
    let kind = sweep.level_kind();
    let top = last.map_or_else(String::new, |l| at_level(kind, l.level));
    match last.and_then(|l| fill_ratio(l, kind)) {
        Some(fill) => format!(
            "Every measured level meets; none above {top} was measured. Its batch filled {} of the cap there; ML.ENERGY drops a run whose batch fills below {} of max_num_seqs, and every larger cap after it, so the sweep ends here.",
            share(fill),
            share(NOT_FILLED_BELOW)
        ),
        None => format!("Every measured level meets; none above {top} was measured."),
    }
}

/// A signal's cell in the whole sweep's table: `3.91 (max 4)`, `41% (max)`, `0`; "not reported"
/// when absent.
pub fn signal_cell(s: Option<&ServerSignals>, signal: Signal) -> String {
    let Some(s) = s.filter(|s| s.reports(signal)) else {
        return "not reported".to_string();
    };
    let pair = |mean: Option<f64>, max: Option<f64>| match (mean, max) {
        (Some(m), Some(x)) => format!("{} (max {})", count(m), count(x)),
        (Some(m), None) => count(m),
        (None, Some(x)) => format!("max {}", count(x)),
        (None, None) => String::new(),
    };
    match signal {
        Signal::Running => pair(s.running_mean, s.running_max),
        Signal::Waiting => pair(s.waiting_mean, s.waiting_max),
        Signal::KvUse => match (s.kv_use_mean, s.kv_use_max) {
            (Some(m), Some(x)) => format!("{} ({} {})", share(m), s.kv_peak.label(), share(x)),
            (Some(m), None) => share(m),
            (None, Some(x)) => format!("{} {}", s.kv_peak.label(), share(x)),
            (None, None) => String::new(),
        },
        Signal::Preemptions => s.preemptions.map(|p| grouped(p, 0)).unwrap_or_default(),
    }
}

/// The autoscaler's per-replica targets in words, for the fleet panel: each with its label.
pub fn targets_text(a: &Autoscaler) -> Vec<(&'static str, &'static str, String)> {
    let t = &a.targets;
    let mut out = vec![(
        "as-running",
        "Requests running per replica",
        t.running.map_or_else(|| "not reported".to_string(), count),
    )];
    out.push((
        "as-waiting",
        "Requests waiting per replica",
        t.waiting.map_or_else(|| "not reported".to_string(), count),
    ));
    out.push((
        "as-kv",
        "KV cache use",
        t.kv_use.map_or_else(
            || "not reported".to_string(),
            |(k, peak)| format!("{} ({})", share(k), peak.label()),
        ),
    ));
    out.push((
        "as-req-s",
        "Requests per second per replica",
        t.req_s
            .map_or_else(|| "not reported".to_string(), |r| trimmed(r, 3)),
    ));
    out.push((
        "as-tok-s",
        "Output tok/s per replica",
        grouped(t.output_tok_s, 0),
    ));
    out.push((
        "as-threshold",
        "Autoscaler threshold",
        format!(
            "{} of {} per replica ({})",
            trimmed(a.threshold, 4),
            a.metric,
            match a.max_replicas {
                Some(max) if max == a.min_replicas =>
                    counted(usize::try_from(max).unwrap_or(usize::MAX), "replica"),
                Some(max) => format!("{} to {max} replicas", a.min_replicas),
                None => format!("at least {}; no maximum without a demand", a.min_replicas),
            }
        ),
    ));
    out
}

#[cfg(test)]
mod tests;
