//! How the recommendation is computed. Everything the answer panel shows comes from [`plan`].
//!
//! 1. Each level of the sweep has one latency per statistic: the worst (highest) over the rows
//!    measured at that level (see [`crate::core::model::sweep::Level`]).
//! 2. A level **meets** a target when its latency at the chosen statistic is at most the target:
//!    for a ms-per-token target `T`, `latency_ms <= T`; for a per-user tok/s target `S`,
//!    `1000 / latency_ms >= S`, and every extra tail limit holds (`latency_ms(stat) <= max_ms`).
//!    A level with no value for a statistic it is judged on is **not reported** there: it is
//!    shown, never recommended, and does not end the run (it was not measured, it did not fail).
//!    On a request-rate sweep, a level whose served request rate is below 0.8× the offered
//!    rate (see [`crate::core::plan::anomalies::SATURATED_BELOW`]) did not sustain that load: it fails on
//!    the condition **saturated**, like a target it misses. A level where more than 1% of the
//!    requests issued did not complete (see [`crate::core::plan::anomalies::FAILED_ABOVE`]) fails on
//!    the condition **failed requests**; such a level is judged even where it reports no
//!    latency (every request failed).
//! 3. The **recommendation** is the largest level such that every reported level at or below it
//!    meets.
//!    Sweeps are not always monotonic: a higher level that meets after a lower one failed is
//!    reported as "also meets", never recommended.
//! 4. Status: `ok`; `all-meet` (every measured level meets, the true limit may be higher);
//!    `unattainable` (even the smallest level fails); `no-data` (no row has the statistic of
//!    the target or of a limit).
//! 5. Headroom is in the unit the user entered: tok/s target `S`: `(speed - S) / S`;
//!    ms target `T`: `(T - latency) / T`.
//! 6. [`estimate`](crate::core::plan::estimate::estimate): between the recommended level `c` and the next measured level `c'` (which
//!    fails), latency is taken as linear in `log2(level)`; the level where it equals the target is
//!    `x`, the estimate `n = floor(x)`, shown only when `n > c` and `x < c'`, never with limits.
//! 7. [`batching_effect`](crate::core::plan::estimate::batching_effect): per-user speed and throughput at the recommendation relative to the
//!    smallest measured level (the reading of seed 000: each user slower, aggregate higher).

use crate::core::model::requests::reaches;
use crate::core::model::row::Row;
use crate::core::model::statistic::Metric;
use crate::core::model::sweep::{Level, LevelKind, Statistic, Sweep};
use crate::core::plan::anomalies::{FAILED_ABOVE, SATURATED_BELOW};
use crate::core::plan::attainment::{attainment, Attainment, RequestSlo};

/// A per-user target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Target {
    /// At least this many output tokens per second for each user (URL `tps`).
    TokensPerSecond(f64),
    /// At most this many ms per output token (URL `tpot`).
    MsPerToken(f64),
}

impl Target {
    /// The target's value in the unit it was entered in.
    pub fn value(self) -> f64 {
        match self {
            Target::TokensPerSecond(v) | Target::MsPerToken(v) => v,
        }
    }

    /// The same target in ms per token: `1000 / tok/s` for a tok/s target.
    pub fn ms_per_token(self) -> f64 {
        match self {
            Target::TokensPerSecond(s) => 1000.0 / s,
            Target::MsPerToken(t) => t,
        }
    }

    /// The same target in tok/s per user: `1000 / ms` for a ms target.
    pub fn tokens_per_second(self) -> f64 {
        match self {
            Target::TokensPerSecond(s) => s,
            Target::MsPerToken(t) => 1000.0 / t,
        }
    }

    /// The same target in the other unit (`1000 / value`), rounded to 4 significant digits so the
    /// form, the URL and the plan show one number: 30 tok/s -> 33.33 ms.
    pub fn in_other_unit(self) -> Target {
        let round = |v: f64| {
            let scale = 10f64.powi(3 - v.abs().log10().floor() as i32);
            (v * scale).round() / scale
        };
        match self {
            Target::TokensPerSecond(s) => Target::MsPerToken(round(1000.0 / s)),
            Target::MsPerToken(t) => Target::TokensPerSecond(round(1000.0 / t)),
        }
    }

    /// Whether a latency (ms per token) meets the target, compared in the target's own unit.
    pub fn is_met_by(self, latency_ms: f64) -> bool {
        match self {
            Target::TokensPerSecond(s) => 1000.0 / latency_ms >= s,
            Target::MsPerToken(t) => latency_ms <= t,
        }
    }

    /// Headroom as a fraction, in the target's own unit: `(speed - S) / S` or `(T - latency) / T`.
    pub fn headroom(self, latency_ms: f64) -> f64 {
        match self {
            Target::TokensPerSecond(s) => (1000.0 / latency_ms - s) / s,
            Target::MsPerToken(t) => (t - latency_ms) / t,
        }
    }
}

/// An extra tail limit: latency at `stat` must be at most `max_ms` (URL `limit=p99:150`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Statistic the limit is on.
    pub stat: Statistic,
    /// Upper bound, ms per token.
    pub max_ms: f64,
}

/// A service-level objective: the per-user target on one statistic, plus optional tail limits.
#[derive(Clone, Debug, PartialEq)]
pub struct Slo {
    /// Per-user target.
    pub target: Target,
    /// Statistic the target is judged on.
    pub stat: Statistic,
    /// Extra limits that must hold as well.
    pub limits: Vec<Limit>,
    /// The share of requests, percent (50 to 100, URL `attain`), that must be good at a level,
    /// each judged on its own figures ([`crate::core::plan::attainment`]); `None` judges the level's
    /// aggregate statistics.
    pub attain: Option<f64>,
}

impl Slo {
    /// The SLO of a target judged on `stat`, with no other limit, judged on the level's
    /// statistics (no `attain`); [`Slo::with_limits`] and [`Slo::with_attain`] add the rest.
    pub fn new(target: Target, stat: Statistic) -> Slo {
        Slo {
            target,
            stat,
            limits: Vec::new(),
            attain: None,
        }
    }

    /// The same SLO with these tail limits.
    #[must_use]
    pub fn with_limits(self, limits: Vec<Limit>) -> Slo {
        Slo { limits, ..self }
    }

    /// The same SLO judged on per-request records at this share of requests (percent), or on
    /// the level's statistics (`None`).
    #[must_use]
    pub fn with_attain(self, attain: Option<f64>) -> Slo {
        Slo { attain, ..self }
    }

    /// True for a limit judged on the level's statistic: every limit, except TTFT and
    /// end-to-end limits under attainment (judged on each request).
    pub fn on_level(&self, limit: &Limit) -> bool {
        self.attain.is_none() || !limit.stat.metric().is_per_request()
    }

    /// What each request must meet under attainment: the target in ms per token, the tightest
    /// TTFT limit and the tightest end-to-end limit.
    pub fn request_slo(&self) -> RequestSlo {
        let tightest = |metric: Metric| {
            self.limits
                .iter()
                .filter(|l| l.stat.metric() == metric)
                .map(|l| l.max_ms)
                .reduce(f64::min)
        };
        RequestSlo {
            tpot_max_ms: self.target.ms_per_token(),
            ttft_max_ms: tightest(Metric::Ttft),
            e2e_max_ms: tightest(Metric::E2e),
        }
    }

    /// The statistics a level is judged on: the target's, then each limit's, each once. Under
    /// attainment, only those of the limits judged on the level.
    pub fn statistics(&self) -> Vec<Statistic> {
        let mut stats = Vec::new();
        let target = self.attain.is_none().then_some(self.stat);
        let limits = self.limits.iter().filter(|l| self.on_level(l));
        for stat in target.into_iter().chain(limits.map(|l| l.stat)) {
            if !stats.contains(&stat) {
                stats.push(stat);
            }
        }
        stats
    }
}

/// A condition a level can break.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Condition {
    /// The per-user target at the chosen statistic.
    Target,
    /// The limit at this index of `Slo::limits`.
    Limit(usize),
    /// A request-rate level served below 0.8× its offered rate.
    Saturated {
        /// Served request rate, req/s (worst of the runs that report it).
        served_req_s: f64,
        /// Offered request rate (the level), req/s.
        offered_req_s: f64,
    },
    /// More than 1% of the requests issued at the level did not complete (the run with the
    /// highest share).
    FailedRequests {
        /// Requests that did not complete; `None` when the file says only that none completed.
        failed: Option<f64>,
        /// Requests issued (completed + failed); `None` when not counted.
        issued: Option<f64>,
        /// failed ÷ issued (1 when none completed).
        share: f64,
    },
    /// Under attainment: fewer good requests than the share asked (the run with the lowest).
    Attainment(Attainment),
}

/// Outcome of planning one sweep.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Some levels meet from the smallest up; a larger measured level fails.
    Ok,
    /// Every measured level meets: the highest level that meets may lie above the largest measured.
    AllMeet,
    /// Even the smallest measured level fails.
    Unattainable,
    /// No row has a value for a statistic the SLO needs.
    NoData {
        /// The statistics the SLO needs that no level reports. Empty when each is reported
        /// somewhere but no level reports all of them together (e.g. a judged statistic and a
        /// limit's statistic measured at different levels).
        missing: Vec<Statistic>,
        /// Statistics this sweep does report.
        available: Vec<Statistic>,
        /// Under attainment: no level has per-request records.
        records_missing: bool,
    },
}

impl Status {
    /// The `rec-status` hook value: `ok`, `all-meet`, `unattainable`, `no-data`.
    pub fn key(&self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::AllMeet => "all-meet",
            Status::Unattainable => "unattainable",
            Status::NoData { .. } => "no-data",
        }
    }
}

/// One level's verdict.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Latency at the statistic, ms per token (worst of the level's rows); under attainment, the
    /// TPOT that the share asked of its requests completed at or under
    /// ([`crate::core::model::requests::Requests::tpot_at_share`], the worst run's). `None` if
    /// unreported.
    pub latency_ms: Option<f64>,
    /// Under attainment: its good requests (the run with the lowest share), where it has
    /// per-request records.
    pub attainment: Option<Attainment>,
    /// Whether the level meets the target and every limit.
    pub meets: bool,
    /// The conditions this level breaks or does not report (empty when it meets).
    pub broken: Vec<Condition>,
    /// True when a statistic it is judged on is not reported at this level.
    pub unreported: bool,
}

/// A level above a failure that meets again (non-monotonic sweep): shown, never recommended.
#[derive(Clone, Debug, PartialEq)]
pub struct AlsoMeets {
    /// Index into `Sweep::levels()` of the level that meets.
    pub level_index: usize,
    /// Index of the nearest level below it that failed.
    pub failed_below_index: usize,
}

/// The answer for one sweep, one target and one statistic.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// See [`Status`].
    pub status: Status,
    /// One verdict per level of the sweep, same order as `Sweep::levels()`.
    pub verdicts: Vec<Verdict>,
    /// Index into `Sweep::levels()` of the recommended level (`ok` and `all-meet` only).
    pub recommended: Option<usize>,
    /// Index of the first reported level that fails (the one that ends the run), if any.
    pub first_failure: Option<usize>,
    /// Levels above the first failure that meet again.
    pub also_meets: Vec<AlsoMeets>,
    /// For `unattainable`: the level with the lowest latency at the statistic.
    pub best: Option<usize>,
}

/// Plans one sweep: see the module documentation for the rule.
pub fn plan(sweep: &Sweep, slo: &Slo) -> Plan {
    let attained: Vec<Option<Attained>> = match slo.attain {
        Some(p) => sweep
            .levels()
            .iter()
            .map(|l| {
                attained(
                    l.row_indices.iter().filter_map(|&i| sweep.rows.get(i)),
                    slo,
                    p,
                )
            })
            .collect(),
        None => vec![None; sweep.levels().len()],
    };
    plan_levels(sweep.levels(), &attained, sweep.level_kind(), slo)
}

/// A level's attainment: the run with the lowest share of good requests, and the highest TPOT
/// the share asked reaches in any run (`None` when a run cannot reach it).
type Attained = (Attainment, Option<f64>);

/// The attainment of the runs `rows` of one level under `slo` with `p` percent, from the runs
/// that have per-request records; `None` when none has.
fn attained<'a>(rows: impl Iterator<Item = &'a Row>, slo: &Slo, p: f64) -> Option<Attained> {
    let request_slo = slo.request_slo();
    rows.filter_map(|r| r.requests.as_ref())
        .map(|requests| {
            (
                attainment(requests, &request_slo),
                requests.tpot_at_share(p),
            )
        })
        .reduce(|(a, tpot_a), (b, tpot_b)| {
            let lower = if b.share() < a.share() { b } else { a };
            (lower, tpot_a.zip(tpot_b).map(|(x, y)| x.max(y)))
        })
}

/// [`plan`] over levels sorted ascending (as `Sweep::levels()` returns them) of a sweep whose
/// level is `kind`, with each level's attainment under `slo.attain` (`attained`, same order).
fn plan_levels(
    levels: &[Level],
    attained: &[Option<Attained>],
    kind: LevelKind,
    slo: &Slo,
) -> Plan {
    // The limits judged on each level's statistics, with their index in `slo.limits`.
    let on_level: Vec<(usize, Limit)> = slo
        .limits
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, l)| slo.on_level(l))
        .collect();
    let verdicts: Vec<Verdict> = levels
        .iter()
        .zip(attained)
        .map(|(l, a)| judge(l, *a, kind, slo, &on_level))
        .collect();
    let records_missing = slo.attain.is_some() && attained.iter().all(Option::is_none);

    let reported = |stat: Statistic| levels.iter().any(|l| l.latency_ms(stat).is_some());
    let missing: Vec<Statistic> = slo
        .statistics()
        .into_iter()
        .filter(|s| !reported(*s))
        .collect();
    // Levels that report every statistic they are judged on.
    let judged: Vec<usize> = (0..verdicts.len())
        .filter(|&i| !verdicts[i].unreported)
        .collect();
    if !missing.is_empty() || judged.is_empty() || records_missing {
        let available = Statistic::ALL
            .into_iter()
            .filter(|s| reported(*s))
            .collect();
        return Plan {
            status: Status::NoData {
                missing,
                available,
                records_missing,
            },
            verdicts,
            recommended: None,
            first_failure: None,
            also_meets: Vec::new(),
            best: None,
        };
    }

    let run = judged.iter().take_while(|&&i| verdicts[i].meets).count();
    let recommended = run.checked_sub(1).map(|k| judged[k]);
    let first_failure = judged.get(run).copied();
    let status = if run == judged.len() {
        Status::AllMeet
    } else if run == 0 {
        Status::Unattainable
    } else {
        Status::Ok
    };

    let also_meets = also_meets(&verdicts, &judged[run..]);
    let best = if status == Status::Unattainable {
        verdicts
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.latency_ms.map(|ms| (i, ms)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    } else {
        None
    };

    Plan {
        status,
        verdicts,
        recommended,
        first_failure,
        also_meets,
        best,
    }
}

/// The verdict on one level (of a sweep whose level is `kind`): it meets when its latency at
/// the judged statistic meets the target, every limit holds, (request-rate sweeps) it was
/// served at 0.8 × its offered rate or more, and at most 1% of its requests failed. A
/// statistic the level does not report breaks its condition and marks the level unreported,
/// unless its failed requests already fail it. Under attainment (`slo.attain`, with the
/// level's `attained`), the target and the TTFT limits are judged on each request instead, and
/// failed requests are misses among them.
fn judge(
    l: &Level,
    attained: Option<Attained>,
    kind: LevelKind,
    slo: &Slo,
    on_level: &[(usize, Limit)],
) -> Verdict {
    let latency_ms = match slo.attain {
        Some(_) => attained.and_then(|(_, tpot)| tpot),
        None => l.latency_ms(slo.stat),
    };
    // Under attainment, failed requests are misses among the requests, not a condition apart.
    let failed = l
        .failed_share()
        .filter(|share| *share > FAILED_ABOVE && slo.attain.is_none());
    // What the target is judged on: the level's share of good requests, or its latency.
    let measured = match slo.attain {
        Some(_) => attained.is_some(),
        None => latency_ms.is_some(),
    };
    let unreported = failed.is_none()
        && (!measured
            || on_level
                .iter()
                .any(|(_, limit)| l.latency_ms(limit.stat).is_none()));
    // A bound breaks when the latency misses it, or is not reported at a level that the failed
    // requests do not fail already.
    let breaks = |ms: Option<f64>, holds: &dyn Fn(f64) -> bool| match ms {
        Some(ms) => !holds(ms),
        None => failed.is_none(),
    };
    let mut broken = Vec::new();
    match (slo.attain, attained) {
        (Some(p), Some((a, _))) if !reaches(a.good, a.issued, p) || a.issued == 0 => {
            broken.push(Condition::Attainment(a));
        }
        (Some(_), Some(_)) => {}
        _ => {
            if breaks(latency_ms, &|ms| slo.target.is_met_by(ms)) {
                broken.push(Condition::Target);
            }
        }
    }
    for &(i, limit) in on_level {
        if breaks(l.latency_ms(limit.stat), &|ms| ms <= limit.max_ms) {
            broken.push(Condition::Limit(i));
        }
    }
    if let (Some(ratio), Some(served)) = (l.served_ratio(kind), l.served_req_s) {
        if ratio < SATURATED_BELOW {
            broken.push(Condition::Saturated {
                served_req_s: served,
                offered_req_s: l.level,
            });
        }
    }
    if let (Some(share), Some((completed, failed))) = (failed, l.requests) {
        broken.push(Condition::FailedRequests {
            failed,
            issued: completed.zip(failed).map(|(c, f)| c + f),
            share,
        });
    }
    Verdict {
        latency_ms,
        attainment: attained.map(|(a, _)| a),
        meets: broken.is_empty(),
        broken,
        unreported,
    }
}

/// The levels of `after` (indexes into `verdicts`, ascending, from the first failure on) that
/// meet again after a lower one failed, each with the failed level below it.
fn also_meets(verdicts: &[Verdict], after: &[usize]) -> Vec<AlsoMeets> {
    let mut also_meets = Vec::new();
    let mut last_failed = None;
    for &i in after.iter() {
        let v = &verdicts[i];
        if v.meets {
            if let Some(failed_below_index) = last_failed {
                also_meets.push(AlsoMeets {
                    level_index: i,
                    failed_below_index,
                });
            }
        } else {
            last_failed = Some(i);
        }
    }

    also_meets
}

/// The figures shown in large type for the recommended level.
#[derive(Clone, Debug, PartialEq)]
pub struct Recommendation {
    /// The recommended level (`max_num_seqs`).
    pub level: f64,
    /// `avg_batch_size` the run reached (worst of the level's rows), where measured.
    pub avg_batch_size: Option<f64>,
    /// Concurrent streams one replica holds there: the measured `avg_batch_size`, or else the
    /// level itself when the level is a client concurrency; `None` for request-rate sweeps
    /// without a measured batch.
    pub streams: Option<f64>,
    /// Aggregate output tok/s of one deployment (all its GPUs).
    pub throughput_tok_s: f64,
    /// `throughput_tok_s / num_gpus`; `None` when the GPU count is not stated.
    pub throughput_per_gpu_tok_s: Option<f64>,
    /// J/token as stored (`energy_per_token_joules`), `None` if not reported.
    pub energy_per_token_j: Option<f64>,
    /// Average power of the whole deployment, W, `None` if not reported.
    pub power_w: Option<f64>,
    /// Per-user tok/s at the statistic: `1000 / latency_ms`.
    pub user_tps: f64,
    /// Latency at the statistic, ms per token.
    pub latency_ms: f64,
    /// See [`Target::headroom`].
    pub headroom: f64,
    /// Mean output tokens per request at the level (ML.ENERGY `avg_output_len`; imports: output
    /// tokens / completed requests), the highest of its runs; `None` when not stated.
    pub output_tokens_per_request: Option<f64>,
    /// Per-user tok/s by `rate` (throughput / concurrency) at the level, where reported.
    pub rate_user_tps: Option<f64>,
}

impl Plan {
    /// The figures at the recommended level, if there is one.
    pub fn recommendation(&self, sweep: &Sweep, slo: &Slo) -> Option<Recommendation> {
        let target = slo.target;
        let i = self.recommended?;
        let level = sweep.levels().get(i)?;
        let latency_ms = self.verdicts.get(i)?.latency_ms?;
        Some(Recommendation {
            level: level.level,
            avg_batch_size: level.avg_batch_size,
            streams: level
                .avg_batch_size
                .or((sweep.level_kind() == LevelKind::Concurrency).then_some(level.level)),
            throughput_tok_s: level.throughput_tok_s,
            throughput_per_gpu_tok_s: sweep.per_gpu(level.throughput_tok_s),
            energy_per_token_j: level.energy_per_token_j,
            power_w: level.power_w,
            user_tps: 1000.0 / latency_ms,
            latency_ms,
            headroom: target.headroom(latency_ms),
            output_tokens_per_request: level.avg_output_len,
            rate_user_tps: level.rate_user_tps(),
        })
    }
}

#[cfg(test)]
mod tests;
