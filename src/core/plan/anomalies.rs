//! Anomaly flags on sweep rows: what the data does not say cleanly, or says implausibly.
//!
//! - `non-monotonic`: from one level to the next, latency at the selected statistic falls, or
//!   throughput falls (flagged on the higher level's rows).
//! - `duplicate`: several rows at one level.
//! - `low-utilisation`: `avg_batch_size / max_num_seqs < 0.85` (the ML.ENERGY stability rule;
//!   only where the level is `max_num_seqs`).
//! - `rate-mismatch`: rate-based tok/s (throughput / avg batch) below 0.75× or above 1.25× of
//!   1000 / median ITL.
//! - `energy-identity`: stored J/token differs from power / throughput by more than 1%.
//! - `faster-than-memory-bound`: each decode step reads the active weights at least once, so
//!   ITL ≥ active params × bytes per param / (HBM bandwidth × GPUs); a row faster than that
//!   (median ITL, else mean TPOT) is flagged. H100 SXM 3.35 TB/s, B200 8 TB/s, A100 40GB
//!   1.555 TB/s; bf16/fp16 2 bytes, fp8 1 byte; MoE: activated parameters.
//! - `implausible-speed`: the per-user speed at a statistic implies far more output than the
//!   run measured, judged per statistic (ITL, TPOT and normalized TPOT; not TTFT or `rate`).
//!   R = concurrency × 1000 / latency / output throughput, where concurrency is
//!   `avg_batch_size`, else the level when it counts requests, else (request-rate sweeps) served
//!   req/s × mean end-to-end latency (Little's law), and latency is the row's value at that
//!   statistic. Concurrent streams each decoding at 1000 / latency tok/s can at most produce
//!   concurrency × 1000 / latency tok/s, so R is about 1 for a decode-bound run and above 1 only
//!   by what prefill, queueing and idle streams take from the aggregate. Flagged at
//!   R ≥ [`IMPLAUSIBLE_SPEED_RATIO`] = 100: the bundled workloads reach at most 16
//!   (sourcegraph-fim, 8 × B200 at 2048, short outputs behind long prompts), real runs with few
//!   output tokens behind long queues about 5, while seconds typed into `_ms` columns give about
//!   1,000, and a median of gaps pooled over streamed chunks (inference-perf's ITL, where most
//!   chunks arrive microseconds apart) far more. The margin keeps real data clear and still
//!   catches a unit slip of 1000×. A statistic flagged at some level says so in the menu.
//! - `saturated`: on a request-rate sweep, the served rate is below
//!   [`SATURATED_BELOW`] = 0.8× the offered rate: the server did not sustain that load. The
//!   planner fails such a level on the condition `saturated`.
//! - `rate-above-offered`: on a request-rate sweep, the served rate is above
//!   [`ABOVE_OFFERED`] = 1.25× the offered rate, which a client holding to its rate cannot
//!   produce (a mislabelled rate, or runs of another setting).
//! - `failed-requests`: some of the requests issued at the level failed (errored or dropped;
//!   a time-limited run's requests still running when it stopped are not failures). The
//!   level's latencies and throughput describe its completed requests only, so a server that
//!   sheds load looks fast on them. Above [`FAILED_ABOVE`] = 1% of the requests issued the
//!   planner fails the level on the condition `failed requests`; up to 1% the flag says how
//!   many. At 1% a target judged at p99 can no longer hold for the requests issued: more of them
//!   got no answer at all than the tail the target allows.

use crate::core::model::sweep::{LevelKind, Model, Row, Statistic, Sweep};

/// R at or above which a row is flagged `implausible-speed` (see the module documentation).
pub const IMPLAUSIBLE_SPEED_RATIO: f64 = 100.0;
/// Served / offered below which a request-rate level is `saturated`.
pub const SATURATED_BELOW: f64 = 0.8;
/// Served / offered above which a request-rate row is flagged `rate-above-offered`.
pub const ABOVE_OFFERED: f64 = 1.25;
/// Share of the requests issued that failed above which a level fails (`failed requests`).
pub const FAILED_ABOVE: f64 = 0.01;

/// Which check a row fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnomalyKind {
    /// Latency at the statistic or throughput falls from the level below.
    NonMonotonic,
    /// Several rows share the level.
    Duplicate,
    /// The run held under 85% of `max_num_seqs` on average.
    LowUtilisation,
    /// Rate-based speed and median-ITL speed disagree by more than 25%.
    RateMismatch,
    /// J/token is not power / throughput within 1%.
    EnergyIdentity,
    /// Faster than reading the active weights once per token allows.
    FasterThanMemoryBound,
    /// Per-user speed × concurrency is 100× or more the measured throughput.
    ImplausibleSpeed,
    /// Served below 0.8× the offered request rate.
    Saturated,
    /// Served above 1.25× the offered request rate.
    RateAboveOffered,
    /// Some requests issued did not complete.
    FailedRequests,
}

impl AnomalyKind {
    /// Every kind, in display order.
    pub const ALL: [AnomalyKind; 10] = [
        AnomalyKind::NonMonotonic,
        AnomalyKind::Duplicate,
        AnomalyKind::LowUtilisation,
        AnomalyKind::RateMismatch,
        AnomalyKind::EnergyIdentity,
        AnomalyKind::FasterThanMemoryBound,
        AnomalyKind::ImplausibleSpeed,
        AnomalyKind::Saturated,
        AnomalyKind::RateAboveOffered,
        AnomalyKind::FailedRequests,
    ];

    /// The kinds an import warns about and the answer carries: numbers that cannot be true
    /// together, loads the server did not serve as offered, requests that failed.
    pub const IMPORT_WARNINGS: [AnomalyKind; 4] = [
        AnomalyKind::ImplausibleSpeed,
        AnomalyKind::Saturated,
        AnomalyKind::RateAboveOffered,
        AnomalyKind::FailedRequests,
    ];

    /// The hook value (`data-kind`), e.g. `non-monotonic`.
    pub fn key(self) -> &'static str {
        match self {
            AnomalyKind::NonMonotonic => "non-monotonic",
            AnomalyKind::Duplicate => "duplicate",
            AnomalyKind::LowUtilisation => "low-utilisation",
            AnomalyKind::RateMismatch => "rate-mismatch",
            AnomalyKind::EnergyIdentity => "energy-identity",
            AnomalyKind::FasterThanMemoryBound => "faster-than-memory-bound",
            AnomalyKind::ImplausibleSpeed => "implausible-speed",
            AnomalyKind::Saturated => "saturated",
            AnomalyKind::RateAboveOffered => "rate-above-offered",
            AnomalyKind::FailedRequests => "failed-requests",
        }
    }

    /// What the flag means, in one phrase for the page's legend.
    pub fn meaning(self) -> &'static str {
        match self {
            AnomalyKind::NonMonotonic => "latency at the statistic or throughput falls from the level below",
            AnomalyKind::Duplicate => "several runs at one level; the level takes the worst of the runs that report each figure",
            AnomalyKind::LowUtilisation => "avg batch under 85% of max_num_seqs",
            AnomalyKind::RateMismatch => "throughput ÷ batch and 1000 ÷ median ITL differ by over 25%",
            AnomalyKind::EnergyIdentity => "J/token ≠ power ÷ throughput",
            AnomalyKind::FasterThanMemoryBound => "faster than reading the active weights once per token",
            AnomalyKind::ImplausibleSpeed => "per-user speed × concurrency is 100× or more the measured throughput",
            AnomalyKind::Saturated => "served below 0.8× the offered request rate: the level fails",
            AnomalyKind::RateAboveOffered => "served above 1.25× the offered request rate",
            AnomalyKind::FailedRequests => "requests failed: up to 1% flagged, above it the level fails",
        }
    }
}

/// One flag on one row.
#[derive(Clone, Debug, PartialEq)]
pub struct Anomaly {
    /// The check.
    pub kind: AnomalyKind,
    /// Index into `Sweep::rows`.
    pub row_index: usize,
    /// What was seen, with numbers.
    pub detail: AnomalyDetail,
}

/// What a flag saw, with its numbers: one variant per kind (worded by its `Display`, in
/// `core::text::anomaly_text`; an import's warnings reach it through `format!`).
#[derive(Clone, Debug, PartialEq)]
pub enum AnomalyDetail {
    /// `non-monotonic`: from `from_level` to `to_level`, latency at `stat` falls (`latency_ms`:
    /// from, to) or throughput falls (`throughput_tok_s`: from, to), or both.
    NonMonotonic {
        /// The statistic judged.
        stat: Statistic,
        /// The lower level.
        from_level: f64,
        /// The higher level, whose rows are flagged.
        to_level: f64,
        /// The latency at `stat` at each level, ms, when it falls.
        latency_ms: Option<(f64, f64)>,
        /// The throughput at each level, tok/s, when it falls.
        throughput_tok_s: Option<(f64, f64)>,
    },
    /// `duplicate`: `rows` rows at `level`.
    Duplicate {
        /// Rows at the level.
        rows: usize,
        /// The level.
        level: f64,
    },
    /// `low-utilisation`: the average batch against `max_num_seqs` (the level).
    LowUtilisation {
        /// `avg_batch_size`.
        avg_batch: f64,
        /// The level, `max_num_seqs`.
        max_num_seqs: f64,
    },
    /// `rate-mismatch`: rate-based tok/s against 1000 / median ITL.
    RateMismatch {
        /// Throughput / avg batch, tok/s.
        rate_tok_s: f64,
        /// 1000 / median ITL, tok/s.
        itl_tok_s: f64,
    },
    /// `energy-identity`: stored J/token against power / throughput.
    EnergyIdentity {
        /// The stored J/token.
        stored_j: f64,
        /// Power / throughput, J/token.
        identity_j: f64,
    },
    /// `faster-than-memory-bound`: ms per token below the time the weights take to read.
    FasterThanMemoryBound {
        /// Median ITL, else mean TPOT, ms.
        ms_per_token: f64,
        /// The memory-bound ITL, ms ([`memory_bound_itl_ms`]).
        bound_ms: f64,
    },
    /// `implausible-speed`, with the numbers of R.
    ImplausibleSpeed(ImplausibleSpeed),
    /// `saturated`: served below the offered request rate.
    Saturated {
        /// Served req/s.
        served_req_s: f64,
        /// Offered req/s (the level).
        offered_req_s: f64,
    },
    /// `rate-above-offered`: served above the offered request rate.
    RateAboveOffered {
        /// Served req/s.
        served_req_s: f64,
        /// Offered req/s (the level).
        offered_req_s: f64,
    },
    /// `failed-requests`: requests failed, the figures describe the `completed` ones.
    FailedRequests {
        /// Requests that failed, where counted.
        failed: Option<f64>,
        /// Requests issued (completed + failed), where both are counted.
        issued: Option<f64>,
        /// The share of the requests issued that failed, 0 to 1.
        share: f64,
        /// Requests completed (0 when not counted).
        completed: f64,
    },
}

/// The numbers of an `implausible-speed` flag: R ([`speed_ratio`]) and what it is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct ImplausibleSpeed {
    /// The statistic judged (an import's: the first flagged).
    pub stat: Statistic,
    /// The row's latency at `stat`, ms.
    pub latency_ms: f64,
    /// The concurrency R used.
    pub concurrency: f64,
    /// The row's output throughput, tok/s.
    pub throughput_tok_s: f64,
    /// R.
    pub ratio: f64,
    /// The other statistics flagged (an import's, which judges none), in menu order.
    pub also_at: Vec<Statistic>,
}

impl AnomalyDetail {
    /// The flag it is the detail of.
    pub fn kind(&self) -> AnomalyKind {
        match self {
            AnomalyDetail::NonMonotonic { .. } => AnomalyKind::NonMonotonic,
            AnomalyDetail::Duplicate { .. } => AnomalyKind::Duplicate,
            AnomalyDetail::LowUtilisation { .. } => AnomalyKind::LowUtilisation,
            AnomalyDetail::RateMismatch { .. } => AnomalyKind::RateMismatch,
            AnomalyDetail::EnergyIdentity { .. } => AnomalyKind::EnergyIdentity,
            AnomalyDetail::FasterThanMemoryBound { .. } => AnomalyKind::FasterThanMemoryBound,
            AnomalyDetail::ImplausibleSpeed(_) => AnomalyKind::ImplausibleSpeed,
            AnomalyDetail::Saturated { .. } => AnomalyKind::Saturated,
            AnomalyDetail::RateAboveOffered { .. } => AnomalyKind::RateAboveOffered,
            AnomalyDetail::FailedRequests { .. } => AnomalyKind::FailedRequests,
        }
    }
}

/// HBM bandwidth of one GPU, bytes/s, for the GPUs the check knows; `None` otherwise.
pub fn hbm_bandwidth(gpu: &str) -> Option<f64> {
    let g = gpu.to_ascii_uppercase();
    if g.contains("H100") {
        Some(3.35e12)
    } else if g.contains("B200") {
        Some(8.0e12)
    } else if g.contains("A100") && g.contains("40") {
        Some(1.555e12)
    } else {
        None
    }
}

/// Bytes per weight for a stored precision name; `None` when unknown.
pub fn bytes_per_param(precision: &str) -> Option<f64> {
    match precision.to_ascii_lowercase().as_str() {
        "bfloat16" | "bf16" | "float16" | "fp16" | "half" => Some(2.0),
        "fp8" | "float8" | "int8" => Some(1.0),
        _ => None,
    }
}

/// The lowest ITL memory bandwidth allows for this deployment, ms; `None` when the GPU,
/// precision, GPU count or parameter count is not known.
pub fn memory_bound_itl_ms(sweep: &Sweep, model: &Model) -> Option<f64> {
    let params = model.activated_params_b.or(model.total_params_b)? * 1e9;
    let bytes = bytes_per_param(&sweep.deployment.precision)?;
    let d = &sweep.deployment;
    let bandwidth = hbm_bandwidth(&d.gpu)? * f64::from(d.num_gpus?);
    Some(params * bytes / bandwidth * 1000.0)
}

/// Every flag on the sweep's rows, judged at `stat` for `non-monotonic`.
pub fn anomalies(sweep: &Sweep, model: &Model, stat: Statistic) -> Vec<Anomaly> {
    let mut out = Vec::new();
    let levels = sweep.levels();
    for pair in levels.windows(2) {
        let (low, high) = (&pair[0], &pair[1]);
        let latency_falls = matches!(
            (low.latency_ms(stat), high.latency_ms(stat)),
            (Some(a), Some(b)) if b < a
        );
        let throughput_falls = high.throughput_tok_s < low.throughput_tok_s;
        if latency_falls || throughput_falls {
            let detail = AnomalyDetail::NonMonotonic {
                stat,
                from_level: low.level,
                to_level: high.level,
                latency_ms: latency_falls.then(|| {
                    (
                        low.latency_ms(stat).unwrap_or_default(),
                        high.latency_ms(stat).unwrap_or_default(),
                    )
                }),
                throughput_tok_s: throughput_falls
                    .then_some((low.throughput_tok_s, high.throughput_tok_s)),
            };
            for &i in &high.row_indices {
                out.push(Anomaly {
                    kind: AnomalyKind::NonMonotonic,
                    row_index: i,
                    detail: detail.clone(),
                });
            }
        }
    }
    for level in levels.iter().filter(|l| l.is_duplicate()) {
        for &i in &level.row_indices {
            out.push(Anomaly {
                kind: AnomalyKind::Duplicate,
                row_index: i,
                detail: AnomalyDetail::Duplicate {
                    rows: level.row_indices.len(),
                    level: level.level,
                },
            });
        }
    }
    let bound = memory_bound_itl_ms(sweep, model);
    for (i, row) in sweep.rows.iter().enumerate() {
        let checks = run_checks(row, sweep.level_kind(), bound);
        let implausible = implausible_detail(row, sweep.level_kind(), stat);
        let flags = implausible
            .into_iter()
            .chain(row_flags(row, sweep.level_kind()));
        for detail in checks.into_iter().chain(flags) {
            out.push(Anomaly {
                kind: detail.kind(),
                row_index: i,
                detail,
            });
        }
    }
    crate::core::model::order::sort_by_key(&mut out, |a| {
        (
            a.row_index,
            AnomalyKind::ALL.iter().position(|k| *k == a.kind),
        )
    });
    out
}

/// The checks on one run of a sweep whose level is `kind`, given the memory-bound ITL `bound`
/// (ms): low utilisation, rate against median ITL, the energy identity, faster than memory.
fn run_checks(row: &Row, kind: LevelKind, bound: Option<f64>) -> Vec<AnomalyDetail> {
    let mut out = Vec::new();
    if let Some(batch) = row.avg_batch_size {
        let utilisation = batch / row.level;
        if kind == LevelKind::MaxNumSeqs && utilisation < 0.85 {
            out.push(AnomalyDetail::LowUtilisation {
                avg_batch: batch,
                max_num_seqs: row.level,
            });
        }
    }
    if let (Some(rate), Some(p50)) = (row.rate_user_tps(), row.latency_ms(Statistic::P50)) {
        let itl_tps = 1000.0 / p50;
        if !(0.75 * itl_tps..=1.25 * itl_tps).contains(&rate) {
            out.push(AnomalyDetail::RateMismatch {
                rate_tok_s: rate,
                itl_tok_s: itl_tps,
            });
        }
    }
    if let (Some(j), Some(w)) = (row.energy_per_token_j, row.power_w) {
        let identity = w / row.throughput_tok_s;
        if ((j - identity) / identity).abs() > 0.01 {
            out.push(AnomalyDetail::EnergyIdentity {
                stored_j: j,
                identity_j: identity,
            });
        }
    }
    let decode_ms = row
        .latency_ms(Statistic::P50)
        .or(row.latency_ms(Statistic::TpotMean));
    if let (Some(ms), Some(min_ms)) = (decode_ms, bound) {
        if ms < min_ms {
            out.push(AnomalyDetail::FasterThanMemoryBound {
                ms_per_token: ms,
                bound_ms: min_ms,
            });
        }
    }
    out
}

/// How many rows of a sweep carry one kind of flag, with the first of them.
#[derive(Clone, Debug, PartialEq)]
pub struct FlagCount {
    /// The flag.
    pub kind: AnomalyKind,
    /// Rows flagged.
    pub rows: usize,
    /// Index into `Sweep::rows` of the first.
    pub first_row: usize,
    /// What the first shows, with numbers.
    pub detail: AnomalyDetail,
}

/// The flags of [`AnomalyKind::IMPORT_WARNINGS`] on a sweep's rows that the answer carries,
/// counted per kind (in that order): `implausible-speed` at the judged statistic `stat`.
pub fn load_flag_counts(sweep: &Sweep, stat: Statistic) -> Vec<FlagCount> {
    count_flags(sweep, |row, kind| {
        implausible_detail(row, kind, stat)
            .into_iter()
            .chain(row_flags(row, kind))
            .collect()
    })
}

/// [`load_flag_counts`] for an import, which judges no statistic: `implausible-speed` at the
/// first statistic flagged, naming the others.
pub fn import_flag_counts(sweep: &Sweep) -> Vec<FlagCount> {
    count_flags(sweep, |row, kind| {
        let at = implausible_at(row, kind);
        let implausible = at.first().and_then(|&stat| {
            let mut detail = implausible_detail(row, kind, stat)?;
            if let AnomalyDetail::ImplausibleSpeed(speed) = &mut detail {
                speed.also_at.extend(&at[1..]);
            }
            Some(detail)
        });
        implausible
            .into_iter()
            .chain(row_flags(row, kind))
            .collect()
    })
}

/// The flags `flags` finds on each row of the sweep, counted per kind (in display order), each
/// with the first row that carries it.
fn count_flags(
    sweep: &Sweep,
    flags: impl Fn(&Row, LevelKind) -> Vec<AnomalyDetail>,
) -> Vec<FlagCount> {
    let mut out: Vec<FlagCount> = Vec::new();
    for (i, row) in sweep.rows.iter().enumerate() {
        for detail in flags(row, sweep.level_kind()) {
            let kind = detail.kind();
            match out.iter_mut().find(|c| c.kind == kind) {
                Some(c) => c.rows += 1,
                None => out.push(FlagCount {
                    kind,
                    rows: 1,
                    first_row: i,
                    detail,
                }),
            }
        }
    }
    crate::core::model::order::sort_by_key(&mut out, |c| {
        AnomalyKind::ALL.iter().position(|k| *k == c.kind)
    });
    out
}

/// The ratio R of the `implausible-speed` check for one row at a per-token latency statistic
/// (ITL, TPOT or normalized TPOT), with the concurrency it used; `None` for TTFT and `rate`, or
/// when the row lacks what R needs.
pub fn speed_ratio(row: &Row, kind: LevelKind, stat: Statistic) -> Option<(f64, f64)> {
    if !stat.is_per_token() || stat == Statistic::Rate || row.throughput_tok_s <= 0.0 {
        return None;
    }
    let latency = row.latency_ms(stat)?;
    let concurrency = row.concurrency(kind)?;
    Some((
        concurrency * 1000.0 / latency / row.throughput_tok_s,
        concurrency,
    ))
}

/// The statistics at which the row's per-user speed is implausible (R ≥
/// [`IMPLAUSIBLE_SPEED_RATIO`]), in menu order.
fn implausible_at(row: &Row, kind: LevelKind) -> Vec<Statistic> {
    Statistic::ALL
        .into_iter()
        .filter(|&s| speed_ratio(row, kind, s).is_some_and(|(r, _)| r >= IMPLAUSIBLE_SPEED_RATIO))
        .collect()
}

/// How many levels of the sweep have a run whose per-user speed at `stat` is implausible: what
/// the statistic menu says beside it.
pub fn implausible_levels(sweep: &Sweep, stat: Statistic) -> usize {
    let kind = sweep.level_kind();
    sweep
        .levels()
        .iter()
        .filter(|l| {
            l.row_indices.iter().any(|&i| {
                speed_ratio(&sweep.rows[i], kind, stat)
                    .is_some_and(|(r, _)| r >= IMPLAUSIBLE_SPEED_RATIO)
            })
        })
        .count()
}

/// The `implausible-speed` flag of one row at `stat`, with the numbers of R; `None` when R is
/// below [`IMPLAUSIBLE_SPEED_RATIO`] or not known.
fn implausible_detail(row: &Row, kind: LevelKind, stat: Statistic) -> Option<AnomalyDetail> {
    let (ratio, concurrency) = speed_ratio(row, kind, stat)?;
    (ratio >= IMPLAUSIBLE_SPEED_RATIO).then(|| {
        AnomalyDetail::ImplausibleSpeed(ImplausibleSpeed {
            stat,
            latency_ms: row.latency_ms(stat).unwrap_or_default(),
            concurrency,
            throughput_tok_s: row.throughput_tok_s,
            ratio,
            also_at: Vec::new(),
        })
    })
}

/// The flags of one row that depend on no statistic: `saturated`, `rate-above-offered`,
/// `failed-requests`.
fn row_flags(row: &Row, kind: LevelKind) -> Vec<AnomalyDetail> {
    let mut out = Vec::new();
    if kind == LevelKind::RequestRate {
        if let Some(served) = row.served_req_s {
            let ratio = served / row.level;
            if ratio < SATURATED_BELOW {
                out.push(AnomalyDetail::Saturated {
                    served_req_s: served,
                    offered_req_s: row.level,
                });
            } else if ratio > ABOVE_OFFERED {
                out.push(AnomalyDetail::RateAboveOffered {
                    served_req_s: served,
                    offered_req_s: row.level,
                });
            }
        }
    }
    if let Some(share) = row.failed_share().filter(|s| *s > 0.0) {
        let issued = row
            .completed_requests
            .zip(row.failed_requests)
            .map(|(c, f)| c + f);
        out.push(AnomalyDetail::FailedRequests {
            failed: row.failed_requests,
            issued,
            share,
            completed: row.completed_requests.unwrap_or_default(),
        });
    }
    out
}

#[cfg(test)]
mod tests;
