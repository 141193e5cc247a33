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

use crate::core::model::format::{grouped, significant, trimmed};
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
    pub detail: String,
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
            let mut what = Vec::new();
            if latency_falls {
                what.push(format!(
                    "{} falls from {:.1} to {:.1} ms",
                    stat.short_label(),
                    low.latency_ms(stat).unwrap_or_default(),
                    high.latency_ms(stat).unwrap_or_default()
                ));
            }
            if throughput_falls {
                what.push(format!(
                    "throughput falls from {:.0} to {:.0} tok/s",
                    low.throughput_tok_s, high.throughput_tok_s
                ));
            }
            for &i in &high.row_indices {
                out.push(Anomaly {
                    kind: AnomalyKind::NonMonotonic,
                    row_index: i,
                    detail: format!("from {} to {}: {}", low.level, high.level, what.join(", ")),
                });
            }
        }
    }
    for level in levels.iter().filter(|l| l.is_duplicate()) {
        for &i in &level.row_indices {
            out.push(Anomaly {
                kind: AnomalyKind::Duplicate,
                row_index: i,
                detail: format!("{} rows at {}", level.row_indices.len(), level.level),
            });
        }
    }
    let bound = memory_bound_itl_ms(sweep, model);
    for (i, row) in sweep.rows.iter().enumerate() {
        let checks = run_checks(row, sweep.level_kind(), bound);
        let implausible = speed_ratio(row, sweep.level_kind(), stat)
            .filter(|(r, _)| *r >= IMPLAUSIBLE_SPEED_RATIO)
            .map(|(r, c)| {
                (
                    AnomalyKind::ImplausibleSpeed,
                    implausible_detail(row, stat, r, c),
                )
            });
        let flags = implausible
            .into_iter()
            .chain(row_flags(row, sweep.level_kind()));
        for (kind, detail) in checks.into_iter().chain(flags) {
            out.push(Anomaly {
                kind,
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
fn run_checks(row: &Row, kind: LevelKind, bound: Option<f64>) -> Vec<(AnomalyKind, String)> {
    let mut out = Vec::new();
    if let Some(batch) = row.avg_batch_size {
        let utilisation = batch / row.level;
        if kind == LevelKind::MaxNumSeqs && utilisation < 0.85 {
            out.push((
                AnomalyKind::LowUtilisation,
                format!(
                    "avg batch {batch:.1} is {:.0}% of max_num_seqs {}",
                    utilisation * 100.0,
                    row.level
                ),
            ));
        }
    }
    if let (Some(rate), Some(p50)) = (row.rate_user_tps(), row.latency_ms(Statistic::P50)) {
        let itl_tps = 1000.0 / p50;
        if !(0.75 * itl_tps..=1.25 * itl_tps).contains(&rate) {
            out.push((
                AnomalyKind::RateMismatch,
                format!("rate-based {rate:.1} tok/s vs {itl_tps:.1} tok/s from median ITL"),
            ));
        }
    }
    if let (Some(j), Some(w)) = (row.energy_per_token_j, row.power_w) {
        let identity = w / row.throughput_tok_s;
        if ((j - identity) / identity).abs() > 0.01 {
            out.push((
                AnomalyKind::EnergyIdentity,
                format!("stored {j:.4} J/token vs power / throughput {identity:.4}"),
            ));
        }
    }
    let decode_ms = row
        .latency_ms(Statistic::P50)
        .or(row.latency_ms(Statistic::TpotMean));
    if let (Some(ms), Some(min_ms)) = (decode_ms, bound) {
        if ms < min_ms {
            out.push((
                AnomalyKind::FasterThanMemoryBound,
                format!(
                    "{ms:.1} ms per token is below the {min_ms:.1} ms the weights take to read"
                ),
            ));
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
    pub detail: String,
}

/// The sweep table's line about its flags: "No anomaly flags on this sweep." or "Flags (rows
/// marked; hover a flag for its numbers): 2 duplicate, 1 non-monotonic. duplicate: …; …."
pub fn flag_summary(flags: &[Anomaly]) -> String {
    let counted: Vec<(String, String)> = AnomalyKind::ALL
        .iter()
        .filter_map(|k| {
            let n = flags.iter().filter(|a| a.kind == *k).count();
            (n > 0).then(|| {
                (
                    format!("{} {}", n, k.key()),
                    format!("{}: {}", k.key(), k.meaning()),
                )
            })
        })
        .collect();
    if counted.is_empty() {
        return "No anomaly flags on this sweep.".to_string();
    }
    let (counts, meanings): (Vec<String>, Vec<String>) = counted.into_iter().unzip();
    format!(
        "Flags (rows marked; hover a flag for its numbers): {}. {}.",
        counts.join(", "),
        meanings.join("; ")
    )
}

/// The flags of [`AnomalyKind::IMPORT_WARNINGS`] on a sweep's rows that the answer carries,
/// counted per kind (in that order): `implausible-speed` at the judged statistic `stat`.
pub fn load_flag_counts(sweep: &Sweep, stat: Statistic) -> Vec<FlagCount> {
    count_flags(sweep, |row, kind| {
        let implausible = speed_ratio(row, kind, stat)
            .filter(|(r, _)| *r >= IMPLAUSIBLE_SPEED_RATIO)
            .map(|(r, c)| {
                (
                    AnomalyKind::ImplausibleSpeed,
                    implausible_detail(row, stat, r, c),
                )
            });
        implausible
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
        let implausible = at.first().map(|&(s, r, c)| {
            let mut detail = implausible_detail(row, s, r, c);
            if at.len() > 1 {
                let others: Vec<&str> = at[1..].iter().map(|(s, _, _)| s.short_label()).collect();
                detail.push_str(&format!(" (also at {})", others.join(", ")));
            }
            (AnomalyKind::ImplausibleSpeed, detail)
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
    flags: impl Fn(&Row, LevelKind) -> Vec<(AnomalyKind, String)>,
) -> Vec<FlagCount> {
    let mut out: Vec<FlagCount> = Vec::new();
    for (i, row) in sweep.rows.iter().enumerate() {
        for (kind, detail) in flags(row, sweep.level_kind()) {
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
/// [`IMPLAUSIBLE_SPEED_RATIO`]), in menu order, each with R and the concurrency.
fn implausible_at(row: &Row, kind: LevelKind) -> Vec<(Statistic, f64, f64)> {
    Statistic::ALL
        .into_iter()
        .filter_map(|s| {
            let (r, concurrency) = speed_ratio(row, kind, s)?;
            (r >= IMPLAUSIBLE_SPEED_RATIO).then_some((s, r, concurrency))
        })
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

/// The `implausible-speed` sentence for one row at `stat`, with the numbers of R.
fn implausible_detail(row: &Row, stat: Statistic, r: f64, concurrency: f64) -> String {
    let latency = row.latency_ms(stat).unwrap_or_default();
    format!(
        "1000 / {} ms ({}) = {} tok/s per user at concurrency {} cannot come from {} tok/s in aggregate: R = {} × 1000 / {} / {} = {}, as when latencies in seconds are typed as ms or chunk gaps are pooled",
        significant(latency, 3),
        stat.short_label(),
        grouped(1000.0 / latency, 0),
        trimmed(concurrency, 3),
        grouped(row.throughput_tok_s, 1),
        trimmed(concurrency, 3),
        significant(latency, 3),
        grouped(row.throughput_tok_s, 1),
        grouped(r, 0),
    )
}

/// The flags of one row that depend on no statistic: `saturated`, `rate-above-offered`,
/// `failed-requests`.
fn row_flags(row: &Row, kind: LevelKind) -> Vec<(AnomalyKind, String)> {
    let mut out = Vec::new();
    if kind == LevelKind::RequestRate {
        if let Some(served) = row.served_req_s {
            let ratio = served / row.level;
            if ratio < SATURATED_BELOW {
                out.push((
                    AnomalyKind::Saturated,
                    format!(
                        "served {} of {} req/s",
                        trimmed(served, 2),
                        trimmed(row.level, 4)
                    ),
                ));
            } else if ratio > ABOVE_OFFERED {
                out.push((
                    AnomalyKind::RateAboveOffered,
                    format!(
                        "served {} req/s, {}x the offered {}",
                        trimmed(served, 2),
                        trimmed(ratio, 2),
                        trimmed(row.level, 4)
                    ),
                ));
            }
        }
    }
    if let Some(share) = row.failed_share().filter(|s| *s > 0.0) {
        let issued = row
            .completed_requests
            .zip(row.failed_requests)
            .map(|(c, f)| c + f);
        let failed = crate::core::model::format::failed_text(row.failed_requests, issued, share);
        let completed = row.completed_requests.unwrap_or_default();
        let detail = format!(
            "{failed}: the figures describe its {} completed requests",
            grouped(completed, 0)
        );
        out.push((AnomalyKind::FailedRequests, detail));
    }
    out
}

#[cfg(test)]
mod tests;
