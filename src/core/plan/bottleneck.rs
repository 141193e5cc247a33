//! Why a level stops: a verdict per level from the server's own signals (requests running and
//! waiting, KV cache use, preemptions; `avg_batch_size` on ML.ENERGY rows), else from the client
//! curve. The rules, in this order, each kept with the numbers that fired it
//! (`core::text::why_text` words them; the README states them word for word):
//!
//! 1. `kv-bound`: KV use max (or p99) ≥ [`KV_BOUND_AT`], or preemptions > 0.
//! 2. `capped`: running mean ≥ [`CAPPED_AT`] × `max_num_seqs` (where the cap is stated: the level
//!    of a `max_num_seqs` sweep, else a file's `max_num_seqs` beside the level) and waiting > 0.
//! 3. `queueing`: waiting mean ≥ [`QUEUE_AT`] while KV use max < [`KV_BOUND_AT`] (with KV not
//!    reported: waiting alone); with KV use max below [`COMPUTE_BOUND_BELOW`], compute-bound.
//! 4. `not-filled`: running mean (or `avg_batch_size`) < [`NOT_FILLED_BELOW`] × the level's
//!    concurrency or `max_num_seqs`.
//! 5. `overloaded` (request-rate sweeps): served rate < [`OVERLOADED_BELOW`] × offered rate.
//! 6. Without server signals: `queueing-from-latency` where TTFT p50 ≥ [`TTFT_RISE`] × the lowest
//!    level's while output tok/s per GPU rises less than [`FLAT_BELOW`] over the level below.
//!    Otherwise `headroom`.
//!
//! A level where several rules hold names each. Each rule has its lever ([`Rule::lever`]).

use crate::core::model::signals::{KvPeak, ServerSignals};
use crate::core::model::statistic::Statistic;
use crate::core::model::sweep::{Level, LevelKind, Sweep};
use crate::core::plan::planner::{Condition, Plan};

mod rule;

pub use rule::{
    Lever, Rule, CAPPED_AT, COMPUTE_BOUND_BELOW, FLAT_BELOW, KV_BOUND_AT, NOT_FILLED_BELOW,
    OVERLOADED_BELOW, QUEUE_AT, TTFT_RISE,
};

/// Where a level's running mean comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunningBasis {
    /// The engine's running-requests gauge.
    Gauge,
    /// ML.ENERGY's `avg_batch_size` (the mean of `vllm:num_requests_running`).
    AvgBatch,
}

/// A rule that holds at a level, with the numbers that fired it.
#[derive(Clone, Debug, PartialEq)]
pub enum Fired {
    /// Rule 1.
    KvBound {
        /// KV use max or p99, a fraction, where reported.
        kv_use_max: Option<f64>,
        /// Whether it is the max or the p99.
        kv_peak: KvPeak,
        /// Preemptions over the level, where reported.
        preemptions: Option<f64>,
    },
    /// Rule 2.
    Capped {
        /// Mean requests running.
        running_mean: f64,
        /// The cap.
        max_num_seqs: f64,
        /// Mean requests waiting.
        waiting_mean: f64,
        /// KV use max, where reported.
        kv_use_max: Option<f64>,
    },
    /// Rule 3.
    Queueing {
        /// Mean requests waiting.
        waiting_mean: f64,
        /// KV use max, `None` where not reported.
        kv_use_max: Option<f64>,
    },
    /// Rule 4.
    NotFilled {
        /// Mean requests running.
        running_mean: f64,
        /// Where it comes from.
        basis: RunningBasis,
        /// What it falls short of: the concurrency or the cap.
        of: f64,
        /// Whether `of` is the cap (`max_num_seqs`) rather than a client's concurrency.
        of_cap: bool,
    },
    /// Rule 5.
    Overloaded {
        /// Served request rate, req/s.
        served_req_s: f64,
        /// Offered request rate (the level), req/s.
        offered_req_s: f64,
    },
    /// Rule 6.
    QueueingFromLatency {
        /// TTFT p50 at the level, ms.
        ttft_ms: f64,
        /// TTFT p50 at the lowest level that reports it, ms, and that level.
        lowest: (f64, f64),
        /// Rise of output tok/s (per GPU) over the level below, a fraction, and that level.
        rise: (f64, f64),
    },
    /// No rule holds.
    Headroom,
}

impl Fired {
    /// The rule.
    pub fn rule(&self) -> Rule {
        match self {
            Fired::KvBound { .. } => Rule::KvBound,
            Fired::Capped { .. } => Rule::Capped,
            Fired::Queueing { .. } => Rule::Queueing,
            Fired::NotFilled { .. } => Rule::NotFilled,
            Fired::Overloaded { .. } => Rule::Overloaded,
            Fired::QueueingFromLatency { .. } => Rule::QueueingFromLatency,
            Fired::Headroom => Rule::Headroom,
        }
    }
}

/// A level's verdict: every rule that holds there, in rule order (`[Headroom]` when none).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelVerdict {
    /// The rules that hold, with their numbers.
    pub fired: Vec<Fired>,
}

impl LevelVerdict {
    /// The rules' keys: `["queueing", "overloaded"]`, `["headroom"]`.
    pub fn keys(&self) -> Vec<&'static str> {
        self.fired.iter().map(|f| f.rule().key()).collect()
    }

    /// The lever of the first rule that holds.
    pub fn lever(&self) -> Lever {
        self.fired
            .first()
            .map_or(Lever::Nothing, |f| f.rule().lever())
    }

    /// True when the rule holds here.
    pub fn holds(&self, rule: Rule) -> bool {
        self.fired.iter().any(|f| f.rule() == rule)
    }
}

/// The cap on running requests at a level with these `signals`: the level of a `max_num_seqs`
/// sweep, else a file's `max_num_seqs` beside it.
pub fn cap(level: &Level, signals: Option<&ServerSignals>, kind: LevelKind) -> Option<f64> {
    match kind {
        LevelKind::MaxNumSeqs => Some(level.level),
        _ => signals.and_then(|s| s.max_num_seqs),
    }
}

/// The mean requests running at a level with these `signals`: the gauge, else
/// `avg_batch_size`.
pub fn running(level: &Level, signals: Option<&ServerSignals>) -> Option<(f64, RunningBasis)> {
    signals
        .and_then(|s| s.running_mean)
        .map(|r| (r, RunningBasis::Gauge))
        .or(level.avg_batch_size.map(|b| (b, RunningBasis::AvgBatch)))
}

/// ML.ENERGY's fill ratio at a level of a `max_num_seqs` sweep: `avg_batch_size` ÷
/// `max_num_seqs`; `None` elsewhere or without a batch.
pub fn fill_ratio(level: &Level, kind: LevelKind) -> Option<f64> {
    (kind == LevelKind::MaxNumSeqs).then_some(level.avg_batch_size? / level.level)
}

/// True when a level with these `signals` reports a server signal (a gauge, a count, or
/// `avg_batch_size`).
pub fn has_signals(level: &Level, signals: Option<&ServerSignals>) -> bool {
    signals.is_some_and(|s| !s.is_empty()) || level.avg_batch_size.is_some()
}

/// Rules 1 to 3, from the server's gauges.
fn from_gauges(s: &ServerSignals, cap: Option<f64>, running: Option<f64>, out: &mut Vec<Fired>) {
    let kv = s.kv_use_max;
    if kv.is_some_and(|k| k >= KV_BOUND_AT) || s.preemptions.is_some_and(|p| p > 0.0) {
        out.push(Fired::KvBound {
            kv_use_max: kv,
            kv_peak: s.kv_peak,
            preemptions: s.preemptions,
        });
    }
    if let (Some(r), Some(c), Some(w)) = (running, cap, s.waiting_mean) {
        if r >= CAPPED_AT * c && w > 0.0 {
            out.push(Fired::Capped {
                running_mean: r,
                max_num_seqs: c,
                waiting_mean: w,
                kv_use_max: kv,
            });
        }
    }
    if let Some(w) = s.waiting_mean.filter(|w| *w >= QUEUE_AT) {
        if kv.is_none_or(|k| k < KV_BOUND_AT) {
            out.push(Fired::Queueing {
                waiting_mean: w,
                kv_use_max: kv,
            });
        }
    }
}

/// Rule 6 at level `i` of `sweep`.
fn from_latency(sweep: &Sweep, i: usize) -> Option<Fired> {
    let levels = sweep.levels();
    let level = levels.get(i)?;
    let below = levels.get(i.checked_sub(1)?)?;
    let ttft = level.latency_ms(Statistic::TtftP50)?;
    let lowest = levels
        .iter()
        .find_map(|l| Some((l.latency_ms(Statistic::TtftP50)?, l.level)))?;
    let rise = (level.throughput_tok_s - below.throughput_tok_s) / below.throughput_tok_s;
    (ttft >= TTFT_RISE * lowest.0 && rise < FLAT_BELOW).then_some(Fired::QueueingFromLatency {
        ttft_ms: ttft,
        lowest,
        rise: (rise, below.level),
    })
}

/// The verdict at level `i` of `sweep` (see the module's docs); `None` for an index out of
/// range.
pub fn verdict(sweep: &Sweep, i: usize) -> Option<LevelVerdict> {
    let level = sweep.levels().get(i)?;
    let kind = sweep.level_kind();
    let signals = sweep.level_signals(i);
    let cap = cap(level, signals.as_ref(), kind);
    let running = running(level, signals.as_ref());
    let mut fired = Vec::new();
    // A batch without gauges (ML.ENERGY): rules 1 to 3 need gauges or counts.
    if let Some(s) = signals.as_ref() {
        from_gauges(s, cap, running.map(|r| r.0), &mut fired);
    }
    let filled_of = match kind {
        LevelKind::Concurrency => Some(cap.map_or(level.level, |c| c.min(level.level))),
        LevelKind::MaxNumSeqs => Some(level.level),
        LevelKind::RequestRate => cap,
    };
    if let (Some((r, basis)), Some(of)) = (running, filled_of) {
        if r < NOT_FILLED_BELOW * of {
            fired.push(Fired::NotFilled {
                running_mean: r,
                basis,
                of,
                of_cap: kind == LevelKind::MaxNumSeqs || Some(of) == cap,
            });
        }
    }
    if let (Some(ratio), Some(served)) = (level.served_ratio(kind), level.served_req_s) {
        if ratio < OVERLOADED_BELOW {
            fired.push(Fired::Overloaded {
                served_req_s: served,
                offered_req_s: level.level,
            });
        }
    }
    if !has_signals(level, signals.as_ref()) {
        fired.extend(from_latency(sweep, i));
    }
    if fired.is_empty() {
        fired.push(Fired::Headroom);
    }
    Some(LevelVerdict { fired })
}

/// The verdict at every level of `sweep`, in the order of `Sweep::levels()`.
pub fn verdicts(sweep: &Sweep) -> Vec<LevelVerdict> {
    (0..sweep.levels().len())
        .filter_map(|i| verdict(sweep, i))
        .collect()
}

/// Why the answer stops where it does: the verdict at the recommended level and at the next
/// measured level, which fails, with the conditions that level breaks and the lever.
#[derive(Clone, Debug, PartialEq)]
pub struct Why {
    /// Index of the recommended level.
    pub recommended: usize,
    /// Its verdict.
    pub at_recommended: LevelVerdict,
    /// Index of the next level, the first that fails (none when every measured level meets).
    pub next: Option<usize>,
    /// Its verdict.
    pub at_next: Option<LevelVerdict>,
    /// The conditions the next level breaks.
    pub next_breaks: Vec<Condition>,
    /// What moves the answer: the next level's lever, else the recommended level's.
    pub lever: Lever,
}

/// [`Why`] for a planned sweep; `None` without a recommended level.
pub fn why(sweep: &Sweep, plan: &Plan) -> Option<Why> {
    let recommended = plan.recommended?;
    let at_recommended = verdict(sweep, recommended)?;
    let next = plan.first_failure;
    let at_next = next.and_then(|i| verdict(sweep, i));
    let next_breaks = next
        .and_then(|i| plan.verdicts.get(i))
        .map(|v| v.broken.clone())
        .unwrap_or_default();
    let lever = at_next.as_ref().unwrap_or(&at_recommended).lever();
    Some(Why {
        recommended,
        at_recommended,
        next,
        at_next,
        next_breaks,
        lever,
    })
}

#[cfg(test)]
mod tests;
