//! The interval of a ratio with one run per arm: a seeded bootstrap over each level's requests.
//!
//! For each arm, the two measured levels around the speed S (or the one level at S) have their
//! requests resampled with replacement, [`RESAMPLES`] times, with a fixed seed ([`SEED`]): under
//! `attain`, from every request issued (a failed one stays a miss), and the level's speed is
//! 1000 / the TPOT P% of them reach; otherwise from the completed requests, and the level's
//! speed is the file's, scaled by the statistic over all its requests over the statistic over
//! the resample (TPOT or normalized TPOT, mean or a percentile read linearly between ranks).
//! The throughput at S is read between the two levels' measured throughputs with their
//! resampled speeds (held to the two). The interval is the 2.5 and 97.5 percentiles of B/A.
//! Statistics the records cannot give (ITL, `rate`) have no bootstrap.

use crate::core::model::requests::{Request, Requests};
use crate::core::model::statistic::{Aggregate, Metric};
use crate::core::model::sweep::{Level, Sweep};
use crate::core::plan::ab::{curve, log_interpolate, Arms, At};
use crate::core::plan::planner::Slo;

/// Resamples drawn.
pub const RESAMPLES: usize = 1000;

/// The generator's seed: the same files give the same interval.
pub const SEED: u64 = 1;

/// The interval's ends, percent.
pub const PERCENTILES: (f64, f64) = (2.5, 97.5);

/// SplitMix64 (Steele, Lea and Flood 2014): a small generator, good enough to resample.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (`n` > 0), by Lemire's multiply-shift.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// One measured level around S: its speed, throughput, and how a resample gives its speed.
struct Side {
    speed_tok_s: f64,
    tok_s: f64,
    requests: Requests,
}

/// The levels an arm's single run reads S between; `None` when it gives no throughput at S or
/// a level lacks per-request records.
fn bracket(sweep: &Sweep, slo: &Slo, per_gpu: bool, speed: f64) -> Option<Vec<Side>> {
    let c = curve(sweep, slo, per_gpu);
    let levels: Vec<f64> = match c.at(speed) {
        At::Measured { level, .. } => vec![level],
        At::Interpolated {
            from_level,
            to_level,
            ..
        } => vec![from_level, to_level],
        At::TooFast { .. } | At::TooSlow { .. } => return None,
    };
    levels
        .into_iter()
        .map(|level| {
            let point = c.points.iter().find(|p| p.level == level)?;
            let l: &Level = sweep.levels().iter().find(|l| l.level == level)?;
            let row = sweep.rows.get(*l.row_indices.first()?)?;
            Some(Side {
                speed_tok_s: point.speed_tok_s,
                tok_s: point.tok_s,
                requests: row.requests.clone()?,
            })
        })
        .collect()
}

/// A level's speed from a set of requests: under `attain` P, 1000 / the TPOT P% reach; else
/// the statistic over the completed requests (ms per token).
enum Judge {
    Attain(f64),
    Statistic(Metric, Aggregate),
}

impl Judge {
    fn of(slo: &Slo) -> Option<Judge> {
        if let Some(p) = slo.attain {
            return Some(Judge::Attain(p));
        }
        let (metric, aggregate) = slo.stat.parts()?;
        matches!(metric, Metric::Tpot | Metric::Ntpot)
            .then_some(Judge::Statistic(metric, aggregate))
    }

    /// ms per token over `requests`; `None` when it cannot be computed.
    fn latency_ms(&self, requests: &Requests) -> Option<f64> {
        match *self {
            Judge::Attain(p) => requests.tpot_at_share(p).filter(|ms| *ms > 0.0),
            Judge::Statistic(metric, aggregate) => {
                let mut v: Vec<f64> = requests
                    .completed
                    .iter()
                    .filter_map(|r| per_token_ms(r, metric))
                    .collect();
                statistic(&mut v, aggregate).filter(|ms| *ms > 0.0)
            }
        }
    }

    /// One resample of `requests`.
    fn resample(&self, requests: &Requests, rng: &mut SplitMix64) -> Requests {
        let n = requests.completed.len();
        match *self {
            Judge::Attain(_) => {
                let issued = requests.issued as usize;
                let drawn = (0..issued)
                    .map(|_| rng.below(issued.max(1)))
                    .filter(|&i| i < n)
                    .map(|i| requests.completed[i])
                    .collect();
                Requests::new(drawn, requests.issued)
            }
            Judge::Statistic(..) => Requests {
                completed: (0..n).map(|_| requests.completed[rng.below(n)]).collect(),
                issued: n as u64,
            },
        }
    }
}

/// A request's time per output token, ms: TPOT, or end-to-end / output tokens.
fn per_token_ms(r: &Request, metric: Metric) -> Option<f64> {
    match metric {
        Metric::Tpot => r.tpot_ms(),
        Metric::Ntpot => (r.output_tokens > 0).then(|| r.e2e_ms / f64::from(r.output_tokens)),
        _ => None,
    }
}

/// The mean, or a percentile read linearly between ranks (rank = p/100 × (n − 1)), of
/// `values` (sorted here); `None` when empty.
pub fn statistic(values: &mut [f64], aggregate: Aggregate) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    match aggregate.percentile() {
        None => Some(values.iter().sum::<f64>() / values.len() as f64),
        Some(p) => percentile_sorted(
            {
                crate::core::model::order::sort_by(values, |x, y| x.total_cmp(y));
                values
            },
            f64::from(p),
        ),
    }
}

/// The `p`-th percentile of sorted `values`, linear between ranks; `None` when empty.
pub fn percentile_sorted(values: &[f64], p: f64) -> Option<f64> {
    let last = values.len().checked_sub(1)?;
    let rank = p / 100.0 * last as f64;
    let lo = rank.floor() as usize;
    let hi = (lo + 1).min(last);
    let t = rank - lo as f64;
    Some(values[lo] + t * (values[hi] - values[lo]))
}

/// The throughput at `speed` between the bracket's levels with their resampled speeds, held
/// to the two measured throughputs.
fn read(sides: &[Side], speeds: &[f64], speed: f64) -> f64 {
    match (sides, speeds) {
        ([from, to], [s0, s1]) => {
            let t = log_interpolate((*s0, from.tok_s), (*s1, to.tok_s), speed);
            let (lo, hi) = (from.tok_s.min(to.tok_s), from.tok_s.max(to.tok_s));
            t.clamp(lo, hi)
        }
        _ => sides.first().map_or(f64::NAN, |s| s.tok_s),
    }
}

/// The bootstrap interval of B/A at `speed` for two arms of one run each (module rule);
/// `None` when an arm has more than one run, a level around S has no per-request records, or
/// the statistic cannot be computed from them.
pub fn bootstrap(arms: &Arms, slo: &Slo, per_gpu: bool, speed: f64) -> Option<(f64, f64)> {
    let judge = Judge::of(slo)?;
    let single = |p: &crate::core::plan::ab::Prepared| match p.repeats.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    };
    let (ra, rb) = (single(&arms.a)?, single(&arms.b)?);
    let (sa, sb) = (
        bracket(&ra, slo, per_gpu, speed)?,
        bracket(&rb, slo, per_gpu, speed)?,
    );
    // Each side's statistic over all its requests, to scale its file's speed by.
    let whole = |sides: &[Side]| -> Option<Vec<f64>> {
        sides
            .iter()
            .map(|s| judge.latency_ms(&s.requests))
            .collect()
    };
    let (wa, wb) = (whole(&sa)?, whole(&sb)?);
    let mut rng = SplitMix64::new(SEED);
    let mut ratios = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let mut speeds = |sides: &[Side], whole: &[f64]| -> Vec<f64> {
            sides
                .iter()
                .zip(whole)
                .map(|(s, w)| {
                    let ms = judge.latency_ms(&judge.resample(&s.requests, &mut rng));
                    match (&judge, ms) {
                        (Judge::Attain(_), Some(ms)) => 1000.0 / ms,
                        (Judge::Statistic(..), Some(ms)) => s.speed_tok_s * w / ms,
                        (_, None) => 0.0,
                    }
                })
                .collect()
        };
        let (pa, pb) = (speeds(&sa, &wa), speeds(&sb, &wb));
        let r = read(&sb, &pb, speed) / read(&sa, &pa, speed);
        if r.is_finite() && r > 0.0 {
            ratios.push(r);
        }
    }
    crate::core::model::order::sort_by(&mut ratios, |x, y| x.total_cmp(y));
    Some((
        percentile_sorted(&ratios, PERCENTILES.0)?,
        percentile_sorted(&ratios, PERCENTILES.1)?,
    ))
}
