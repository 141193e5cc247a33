//! A repeat's curve: its levels at their per-user speed and throughput (the module rule of
//! [`super`]), and the throughput it gives at a speed.

use crate::core::model::requests::Requests;
use crate::core::model::row::Row;
use crate::core::model::sweep::{Level, Sweep};
use crate::core::plan::planner::{plan, Condition, Slo};

use super::FAILED_ABOVE;

/// One point of a repeat's curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// The level.
    pub level: f64,
    /// Per-user tok/s at the statistic (under `attain`, 1000 / the TPOT P% of requests reach).
    pub speed_tok_s: f64,
    /// Output tok/s per GPU (per replica when a GPU count is not stated).
    pub tok_s: f64,
}

/// A repeat's throughput at a speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum At {
    /// A level's speed is the speed asked exactly.
    Measured {
        /// Output tok/s per GPU.
        tok_s: f64,
        /// The level.
        level: f64,
    },
    /// Between two levels, linear in (ln speed, ln tok/s).
    Interpolated {
        /// Output tok/s per GPU.
        tok_s: f64,
        /// The level whose speed is above the speed asked.
        from_level: f64,
        /// The next level, whose speed is below it.
        to_level: f64,
    },
    /// The speed is faster than the curve's first level (`fastest_tok_s`, `None` when the
    /// curve is empty).
    TooFast {
        /// The curve's first speed.
        fastest_tok_s: Option<f64>,
    },
    /// The speed is slower than the curve's last level reaches.
    TooSlow {
        /// The curve's slowest speed.
        slowest_tok_s: f64,
    },
}

impl At {
    /// The throughput, where there is one.
    pub fn tok_s(self) -> Option<f64> {
        match self {
            At::Measured { tok_s, .. } | At::Interpolated { tok_s, .. } => Some(tok_s),
            At::TooFast { .. } | At::TooSlow { .. } => None,
        }
    }
}

/// A repeat's curve: its usable levels, lowest first (see the module's rule).
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// The points, level ascending.
    pub points: Vec<Point>,
    /// Levels left out for more than 1% failed requests: (level, share failed).
    pub failed: Vec<(f64, f64)>,
    /// The level that ended the curve by breaking another condition, if any.
    pub ended_at: Option<f64>,
}

impl Curve {
    /// The throughput at `speed_tok_s` (module rule).
    pub fn at(&self, speed_tok_s: f64) -> At {
        let run = self
            .points
            .iter()
            .take_while(|p| p.speed_tok_s >= speed_tok_s)
            .count();
        let Some(i) = run.checked_sub(1) else {
            return At::TooFast {
                fastest_tok_s: self.points.first().map(|p| p.speed_tok_s),
            };
        };
        let from = self.points[i];
        if from.speed_tok_s == speed_tok_s {
            return At::Measured {
                tok_s: from.tok_s,
                level: from.level,
            };
        }
        match self.points.get(i + 1) {
            Some(to) => At::Interpolated {
                tok_s: log_interpolate(
                    (from.speed_tok_s, from.tok_s),
                    (to.speed_tok_s, to.tok_s),
                    speed_tok_s,
                ),
                from_level: from.level,
                to_level: to.level,
            },
            None => At::TooSlow {
                slowest_tok_s: self
                    .points
                    .iter()
                    .map(|p| p.speed_tok_s)
                    .fold(f64::INFINITY, f64::min),
            },
        }
    }

    /// The speeds this curve gives a throughput at: from its slowest speed to its first
    /// level's; `None` when it has no point.
    pub fn range(&self) -> Option<(f64, f64)> {
        let first = self.points.first()?.speed_tok_s;
        let slowest = self
            .points
            .iter()
            .map(|p| p.speed_tok_s)
            .fold(f64::INFINITY, f64::min);
        Some((slowest, first))
    }
}

/// y at `x` on the line through `a` and `b` in (ln x, ln y): ln y = ln y_a + t (ln y_b − ln y_a),
/// t = (ln x − ln x_a) / (ln x_b − ln x_a).
pub fn log_interpolate(a: (f64, f64), b: (f64, f64), x: f64) -> f64 {
    let span = b.0.ln() - a.0.ln();
    if span == 0.0 {
        return a.1;
    }
    let t = (x.ln() - a.0.ln()) / span;
    (a.1.ln() + t * (b.1.ln() - a.1.ln())).exp()
}

/// The runs of `sweep` as repeats: repeat k holds the k-th run of each level that has one.
pub fn repeats(sweep: &Sweep) -> Vec<Sweep> {
    let count = sweep.levels().iter().map(|l| l.runs()).max().unwrap_or(0);
    (0..count)
        .map(|k| {
            let rows: Vec<Row> = sweep
                .levels()
                .iter()
                .filter_map(|l| l.row_indices.get(k))
                .filter_map(|&i| sweep.rows.get(i).cloned())
                .collect();
            Sweep::new(sweep.model_index, sweep.deployment.clone(), rows)
        })
        .collect()
}

/// A repeat's curve under `slo` (module rule); throughput divided by the GPU count when
/// `per_gpu`.
pub fn curve(repeat: &Sweep, slo: &Slo, per_gpu: bool) -> Curve {
    let p = plan(repeat, slo);
    let gpus = repeat
        .deployment
        .num_gpus
        .filter(|_| per_gpu)
        .map(f64::from);
    let mut out = Curve {
        points: Vec::new(),
        failed: Vec::new(),
        ended_at: None,
    };
    for (level, verdict) in repeat.levels().iter().zip(&p.verdicts) {
        if let Some(share) = level.failed_share().filter(|s| *s > FAILED_ABOVE) {
            out.failed.push((level.level, share));
            continue;
        }
        let other = verdict
            .broken
            .iter()
            .any(|c| !matches!(c, Condition::Target | Condition::Attainment(_)));
        if other {
            out.ended_at = Some(level.level);
            break;
        }
        let latency_ms = match slo.attain {
            // Records where too few requests meet the limits: slower than any speed.
            Some(p) => match attained_tpot_ms(repeat, level, slo, p) {
                Attained::Unreached => {
                    out.ended_at = Some(level.level);
                    break;
                }
                Attained::TpotMs(ms) => Some(ms),
                Attained::NoRecords => None,
            },
            None => verdict.latency_ms,
        };
        let Some(ms) = latency_ms.filter(|ms| *ms > 0.0) else {
            continue;
        };
        out.points.push(Point {
            level: level.level,
            speed_tok_s: 1000.0 / ms,
            tok_s: level.throughput_tok_s / gpus.unwrap_or(1.0),
        });
    }
    out
}

/// What a level's per-request records give under `attain` P.
enum Attained {
    /// The level has no per-request records.
    NoRecords,
    /// Too few of its requests meet the limits (or complete): slower than any speed.
    Unreached,
    /// The TPOT that P% of its requests reach while meeting every limit, ms per token.
    TpotMs(f64),
}

/// Under `attain` P: the TPOT that P% of the requests issued at `level` (its first run) reach
/// while meeting every TTFT and end-to-end limit (a request that misses one is a miss at any
/// speed).
fn attained_tpot_ms(repeat: &Sweep, level: &Level, slo: &Slo, p: f64) -> Attained {
    let records = level
        .row_indices
        .first()
        .and_then(|&i| repeat.rows.get(i))
        .and_then(|row| row.requests.as_ref());
    let Some(requests) = records else {
        return Attained::NoRecords;
    };
    let limits = slo.request_slo();
    let reached = if limits.ttft_max_ms.is_none() && limits.e2e_max_ms.is_none() {
        requests.tpot_at_share(p)
    } else {
        // The records stay sorted by TPOT when some are left out.
        Requests {
            completed: requests
                .completed
                .iter()
                .filter(|r| {
                    limits.ttft_max_ms.is_none_or(|max| r.ttft_ms <= max)
                        && limits.e2e_max_ms.is_none_or(|max| r.e2e_ms <= max)
                })
                .copied()
                .collect(),
            issued: requests.issued,
        }
        .tpot_at_share(p)
    };
    reached.map_or(Attained::Unreached, Attained::TpotMs)
}

/// Why a curve has no point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Empty {
    /// Its first usable level breaks another condition of the SLO (a limit, saturation).
    EndedAt(f64),
    /// Every level has more than 1% failed requests.
    AllFailed,
    /// No level reports the statistic the target is judged on (under `attain`: no level has
    /// per-request records).
    NotJudged,
}

impl Curve {
    /// Why the curve has no point; `None` when it has one.
    pub fn empty(&self) -> Option<Empty> {
        if !self.points.is_empty() {
            return None;
        }
        Some(match self.ended_at {
            Some(level) => Empty::EndedAt(level),
            None if !self.failed.is_empty() => Empty::AllFailed,
            None => Empty::NotJudged,
        })
    }
}
