//! Two arms compared at equal per-user speed: is the candidate B better than the baseline A at
//! the target, beyond the noise of repeated runs?
//!
//! The rule (stated word for word in the README, `text::ab_text::RULE`):
//! - **Repeats.** An arm's repeats are the runs measured at one level of its sweep (they
//!   differ only in when or where they ran): repeat k is the k-th run at each level, in the
//!   order the files were read (files are read in name order, so `run=0` before `run=1`, and
//!   rows keep their order within a file). Each repeat is its own curve.
//! - **The curve.** A repeat's curve is its levels, lowest first, each at its per-user speed
//!   (1000 / its latency at the statistic the target is judged on; under `attain`, 1000 / the
//!   TPOT that P% of its requests reach while meeting every TTFT and end-to-end limit) and its output tok/s per GPU (per replica when either arm does
//!   not state its GPU count). A level with more than 1% failed requests is not used. The curve
//!   ends below the first level that breaks a condition of the SLO other than the speed (a
//!   limit, saturation).
//! - **Throughput at a speed S.** Between the highest level of the curve whose speed, and every
//!   speed below it, is S or more, and the next level: linear in (ln speed, ln tok/s per GPU),
//!   labelled interpolated; at a level whose speed is S exactly, measured. Where S is faster
//!   than the curve's first level, or slower than its last, none: nothing is extrapolated.
//! - **The ratio** B/A at S is the median over every pair of repeats (R_A × R_B) that both
//!   give a throughput at S, with their min-max as the interval. With one run per arm and
//!   per-request records, the interval is a seeded bootstrap ([`noise`]). With neither, no
//!   interval.
//! - **The verdict**, with a tolerance `tol` (percent): better when the interval's low end is
//!   above 1 + tol, worse when its high end is below 1 − tol, else no difference beyond the
//!   noise (without an interval, the ratio itself is held to 1 ± tol). Cannot judge when an arm
//!   gives no throughput at S.
//! - **Along the curve**, the ratio is evaluated at every measured speed of either arm inside
//!   the range both arms reach; a **crossover** is a speed where the median ratio crosses 1,
//!   linear in (ln speed, ln ratio) between two such speeds.

mod curve;
pub mod noise;
mod warnings;

use std::cell::RefCell;
use std::rc::Rc;

pub use self::curve::{curve, log_interpolate, repeats, At, Curve, Empty, Point};
pub use self::warnings::AbWarning;
use self::warnings::{gpu_warnings, workload_warnings};
pub use crate::core::model::differs::differs;
use crate::core::model::source::Source;
use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::planner::{Limit, Slo};

/// The share of failed requests above which a level is not used (the planner's 1%).
pub const FAILED_ABOVE: f64 = 0.01;

/// The tolerance's default, percent.
pub const DEFAULT_TOL_PCT: f64 = 2.0;

/// The largest tolerance accepted, percent.
pub const MAX_TOL_PCT: f64 = 50.0;

/// Relative difference of workload lengths above which the arms' workloads are said to differ.
pub const LENGTH_DIFFERS_ABOVE: f64 = 0.10;

/// One arm: a sweep of a source.
#[derive(Clone, Copy, Debug)]
pub struct Arm<'a> {
    /// The source holding the sweep.
    pub source: &'a Source,
    /// Index into `source.sweeps`.
    pub sweep_index: usize,
}

impl<'a> Arm<'a> {
    /// The arm's sweep; `None` when the index is out of range.
    pub fn sweep(&self) -> Option<&'a Sweep> {
        self.source.sweeps.get(self.sweep_index)
    }

    /// The arm's model id (empty when the sweep is missing).
    pub fn model_id(&self) -> &'a str {
        self.sweep()
            .and_then(|s| self.source.models.get(s.model_index))
            .map_or("", |m| m.model_id.as_str())
    }
}

/// Why two arms cannot be compared.
#[derive(Clone, Debug, PartialEq)]
pub enum AbError {
    /// An arm names no sweep of its source.
    NoSweep,
    /// B is the same sweep as A (same deployment, same rows).
    SameArm,
    /// The arms measured different models.
    DifferentModels {
        /// A's model id.
        a: String,
        /// B's model id.
        b: String,
    },
    /// The tolerance is not a number from 0 to 50.
    Tolerance(f64),
}

/// What the interval of the ratio comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interval {
    /// Every pair of repeats: median and min-max.
    Repeats,
    /// A seeded bootstrap over each level's requests: 2.5 and 97.5 percentiles.
    Bootstrap,
    /// One run per arm and no per-request records to resample: no noise measured.
    None,
}

impl Interval {
    /// `repeats`, `bootstrap`, `none` (JSON `interval`).
    pub fn key(self) -> &'static str {
        match self {
            Interval::Repeats => "repeats",
            Interval::Bootstrap => "bootstrap",
            Interval::None => "none",
        }
    }
}

/// The verdict at the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbVerdict {
    /// B gives more beyond the noise and the tolerance.
    Better,
    /// B gives less beyond the noise and the tolerance.
    Worse,
    /// The difference is within the noise (or, without an interval, within the tolerance).
    NoDifference,
    /// An arm gives no throughput at the target's speed.
    CannotJudge,
}

impl AbVerdict {
    /// `better`, `worse`, `no-difference`, `cannot-judge` (JSON `verdict`, hook `data-verdict`).
    pub fn key(self) -> &'static str {
        match self {
            AbVerdict::Better => "better",
            AbVerdict::Worse => "worse",
            AbVerdict::NoDifference => "no-difference",
            AbVerdict::CannotJudge => "cannot-judge",
        }
    }
}

/// One arm made ready: its sweep split into repeats (done once; a target change only replans).
#[derive(Clone, Debug)]
pub struct Prepared {
    /// One sweep per repeat (repeat k: the k-th run at each level).
    pub repeats: Vec<Sweep>,
}

/// A ratio with its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratio {
    /// The median over the pairs of repeats (the point estimate with one run per arm).
    pub ratio: f64,
    /// The interval's low end (the ratio itself without an interval).
    pub low: f64,
    /// The interval's high end (the ratio itself without an interval).
    pub high: f64,
}

/// The ratio along the curve at one speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioPoint {
    /// Per-user tok/s.
    pub speed_tok_s: f64,
    /// The ratio over the pairs of repeats there.
    pub ratio: Ratio,
}

/// One arm's figures at the target.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmAt {
    /// Repeats (runs at a level).
    pub repeats: usize,
    /// Each repeat's throughput at the target's speed, in repeat order.
    pub at: Vec<At>,
    /// The median throughput over the repeats that give one.
    pub tok_s: Option<f64>,
    /// The largest over the smallest throughput among its repeats at S (what an A/A comparison
    /// gives); `None` with fewer than two repeats giving one.
    pub spread: Option<f64>,
    /// The speeds every repeat of the arm gives a throughput at, (slowest, fastest).
    pub range: Option<(f64, f64)>,
    /// Levels left out for failed requests, over every repeat: (level, share), each once.
    pub failed: Vec<(f64, f64)>,
    /// Why a repeat of the arm has no level to read (the first such repeat's reason).
    pub empty: Option<Empty>,
}

/// The comparison of B against A at a target.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The target's per-user speed S, tok/s.
    pub speed_tok_s: f64,
    /// The tolerance, percent.
    pub tol_pct: f64,
    /// The ratio B/A at S with its interval; `None` when an arm gives no throughput at S.
    pub ratio: Option<Ratio>,
    /// Where the interval comes from.
    pub interval: Interval,
    /// The verdict.
    pub verdict: AbVerdict,
    /// A at S.
    pub a: ArmAt,
    /// B at S.
    pub b: ArmAt,
    /// True when throughput is per GPU (both arms state their GPU count), else per replica.
    pub per_gpu: bool,
    /// The identity fields that differ between A and B, by name (a configuration's `key=value`
    /// keys named one by one).
    pub differs: Vec<String>,
    /// What makes it less than like for like.
    pub warnings: Vec<AbWarning>,
    /// The ratio along the range both arms reach, speed ascending.
    pub curve: Vec<RatioPoint>,
    /// The speeds where the median ratio crosses 1, ascending.
    pub crossover_tok_s: Vec<f64>,
    /// Speed ranges only A reaches, (slowest, fastest).
    pub only_a: Vec<(f64, f64)>,
    /// Speed ranges only B reaches.
    pub only_b: Vec<(f64, f64)>,
}

/// Two arms made ready for comparing at any target. They hold what they read (each arm's
/// repeats, and what their deployments and workloads say), never their sources: a front keeps
/// them as long as it likes.
#[derive(Clone, Debug)]
pub struct Arms {
    /// The baseline.
    pub a: Prepared,
    /// The candidate.
    pub b: Prepared,
    /// True when both arms state their GPU count (throughput compared per GPU).
    per_gpu: bool,
    /// The identity fields that differ between A and B.
    differs: Vec<String>,
    /// What the arms' workloads say against like for like (warned first).
    workload: Vec<AbWarning>,
    /// What their deployments say against like for like: level kinds, per replica, GPUs
    /// (warned after the levels left out for failed requests).
    deployments: Vec<AbWarning>,
    /// What the last SLO compared gives whatever its target (the curves and the ratio along
    /// them), so that a change of target only reads it again.
    along: RefCell<Option<(Conditions, Rc<Along>)>>,
}

/// What the curves depend on: an SLO but its target (its statistic, its limits and `attain`).
#[derive(Clone, Debug, PartialEq)]
struct Conditions {
    stat: Statistic,
    limits: Vec<Limit>,
    attain: Option<f64>,
}

impl Conditions {
    fn of(slo: &Slo) -> Conditions {
        Conditions {
            stat: slo.stat,
            limits: slo.limits.clone(),
            attain: slo.attain,
        }
    }
}

/// What a comparison reads that does not depend on the target: each repeat's curve, and the
/// ratio along the range both arms reach with its crossovers.
#[derive(Debug)]
struct Along {
    a: Vec<Curve>,
    b: Vec<Curve>,
    curve: Vec<RatioPoint>,
    crossover_tok_s: Vec<f64>,
}

impl Arms {
    /// Checks and prepares A and B: both name a sweep, of one model, and B is not A.
    pub fn new(a: Arm, b: Arm) -> Result<Arms, AbError> {
        let (Some(sa), Some(sb)) = (a.sweep(), b.sweep()) else {
            return Err(AbError::NoSweep);
        };
        if a.model_id() != b.model_id() {
            return Err(AbError::DifferentModels {
                a: a.model_id().to_string(),
                b: b.model_id().to_string(),
            });
        }
        let same_place = std::ptr::eq(a.source, b.source) && a.sweep_index == b.sweep_index;
        if same_place || (sa.deployment == sb.deployment && sa.rows == sb.rows) {
            return Err(AbError::SameArm);
        }
        let (da, db) = (&sa.deployment, &sb.deployment);
        let per_gpu = da.num_gpus.is_some() && db.num_gpus.is_some();
        let mut deployments = Vec::new();
        if da.level_kind != db.level_kind {
            deployments.push(AbWarning::LevelKinds {
                a: da.level_kind,
                b: db.level_kind,
            });
        }
        if !per_gpu {
            deployments.push(AbWarning::PerReplica);
        }
        deployments.extend(gpu_warnings(da, db));
        Ok(Arms {
            a: Prepared {
                repeats: repeats(sa),
            },
            b: Prepared {
                repeats: repeats(sb),
            },
            per_gpu,
            differs: differs(da, db),
            workload: workload_warnings(sa, sb),
            deployments,
            along: RefCell::new(None),
        })
    }

    /// True when both arms state their GPU count (throughput compared per GPU).
    pub fn per_gpu(&self) -> bool {
        self.per_gpu
    }

    /// The curves and the ratio along them under `slo` (its target aside), from the last
    /// comparison when its SLO was the same but for the target.
    fn along(&self, slo: &Slo) -> Rc<Along> {
        let key = Conditions::of(slo);
        if let Some((cached, along)) = self.along.borrow().as_ref() {
            if *cached == key {
                return Rc::clone(along);
            }
        }
        let per_gpu = self.per_gpu();
        let of = |p: &Prepared| -> Vec<Curve> {
            p.repeats.iter().map(|r| curve(r, slo, per_gpu)).collect()
        };
        let (a, b) = (of(&self.a), of(&self.b));
        let curve = ratio_curve(&a, &b, intersect(arm_range(&a), arm_range(&b)));
        let along = Rc::new(Along {
            crossover_tok_s: crossovers(&curve),
            a,
            b,
            curve,
        });
        *self.along.borrow_mut() = Some((key, Rc::clone(&along)));
        along
    }

    /// Compares B with A at `slo`'s target with tolerance `tol_pct` (0 to 50).
    pub fn compare(&self, slo: &Slo, tol_pct: f64) -> Result<Comparison, AbError> {
        if !(0.0..=MAX_TOL_PCT).contains(&tol_pct) {
            return Err(AbError::Tolerance(tol_pct));
        }
        let per_gpu = self.per_gpu();
        let speed = slo.target.tokens_per_second();
        let along = self.along(slo);
        let (ca, cb) = (along.a.as_slice(), along.b.as_slice());
        let (a, b) = (arm_at(ca, speed), arm_at(cb, speed));
        let pairs = ratios_at(ca, cb, speed);
        let repeated = ca.len() > 1 || cb.len() > 1;
        let (ratio, interval) = match median_min_max(&pairs) {
            None if repeated => (None, Interval::Repeats),
            None => (None, Interval::None),
            Some(r) if repeated => (Some(r), Interval::Repeats),
            Some(r) => match noise::bootstrap(self, slo, per_gpu, speed) {
                Some((low, high)) => (Some(Ratio { low, high, ..r }), Interval::Bootstrap),
                None => (Some(r), Interval::None),
            },
        };
        let verdict = verdict(ratio, tol_pct);
        let range = |x: &ArmAt| x.range;
        let mut warnings = self.workload.clone();
        for (name, x) in [('A', &a), ('B', &b)] {
            if !x.failed.is_empty() {
                warnings.push(AbWarning::Failed {
                    arm: name,
                    levels: x.failed.clone(),
                });
            }
        }
        warnings.extend(self.deployments.iter().cloned());
        Ok(Comparison {
            speed_tok_s: speed,
            tol_pct,
            ratio,
            interval,
            verdict,
            only_a: outside(range(&a), range(&b)),
            only_b: outside(range(&b), range(&a)),
            a,
            b,
            per_gpu,
            differs: self.differs.clone(),
            warnings,
            curve: along.curve.clone(),
            crossover_tok_s: along.crossover_tok_s.clone(),
        })
    }
}

/// The arm's figures at `speed` from its repeats' curves.
fn arm_at(curves: &[Curve], speed: f64) -> ArmAt {
    let at: Vec<At> = curves.iter().map(|c| c.at(speed)).collect();
    let values: Vec<f64> = at.iter().filter_map(|a| a.tok_s()).collect();
    let spread = (values.len() > 1).then(|| {
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        max / min
    });
    let mut failed: Vec<(f64, f64)> = Vec::new();
    for c in curves {
        for &(level, share) in &c.failed {
            match failed.iter_mut().find(|(l, _)| *l == level) {
                Some(f) => f.1 = f.1.max(share),
                None => failed.push((level, share)),
            }
        }
    }
    crate::core::model::order::sort_by(&mut failed, |x, y| x.0.total_cmp(&y.0));
    let range = arm_range(curves);
    ArmAt {
        empty: curves.iter().find_map(Curve::empty),
        repeats: curves.len(),
        tok_s: median_min_max(&values).map(|r| r.ratio),
        at,
        spread,
        range,
        failed,
    }
}

/// B/A at `speed` for every pair of repeats that both give a throughput there.
fn ratios_at(a: &[Curve], b: &[Curve], speed: f64) -> Vec<f64> {
    let ta: Vec<f64> = a.iter().filter_map(|c| c.at(speed).tok_s()).collect();
    let tb: Vec<f64> = b.iter().filter_map(|c| c.at(speed).tok_s()).collect();
    ta.iter()
        .flat_map(|x| tb.iter().map(move |y| y / x))
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect()
}

/// Median (the mean of the two middle values for an even count), min and max; `None` when
/// empty.
pub fn median_min_max(values: &[f64]) -> Option<Ratio> {
    let mut v = values.to_vec();
    crate::core::model::order::sort_by(&mut v, |x, y| x.total_cmp(y));
    let n = v.len();
    let median = match n {
        0 => return None,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    };
    Some(Ratio {
        ratio: median,
        low: v[0],
        high: v[n - 1],
    })
}

/// The verdict from the ratio's interval and the tolerance (module rule).
pub fn verdict(ratio: Option<Ratio>, tol_pct: f64) -> AbVerdict {
    let Some(r) = ratio else {
        return AbVerdict::CannotJudge;
    };
    let tol = tol_pct / 100.0;
    if r.low > 1.0 + tol {
        AbVerdict::Better
    } else if r.high < 1.0 - tol {
        AbVerdict::Worse
    } else {
        AbVerdict::NoDifference
    }
}

/// The speeds every curve of an arm gives a throughput at: the overlap of its repeats' ranges.
fn arm_range(curves: &[Curve]) -> Option<(f64, f64)> {
    curves.iter().map(Curve::range).reduce(intersect).flatten()
}

/// The overlap of two speed ranges.
fn intersect(a: Option<(f64, f64)>, b: Option<(f64, f64)>) -> Option<(f64, f64)> {
    let ((a0, a1), (b0, b1)) = (a?, b?);
    let (lo, hi) = (a0.max(b0), a1.min(b1));
    (lo <= hi).then_some((lo, hi))
}

/// The parts of `mine` outside `other`: below it and above it.
fn outside(mine: Option<(f64, f64)>, other: Option<(f64, f64)>) -> Vec<(f64, f64)> {
    let Some((lo, hi)) = mine else {
        return Vec::new();
    };
    let Some((olo, ohi)) = other else {
        return vec![(lo, hi)];
    };
    let mut out = Vec::new();
    if lo < olo {
        out.push((lo, hi.min(olo)));
    }
    if hi > ohi {
        out.push((lo.max(ohi), hi));
    }
    out
}

/// The ratio at every measured speed of either arm inside `common`, speed ascending.
fn ratio_curve(a: &[Curve], b: &[Curve], common: Option<(f64, f64)>) -> Vec<RatioPoint> {
    let Some((lo, hi)) = common else {
        return Vec::new();
    };
    let mut speeds: Vec<f64> = a
        .iter()
        .chain(b)
        .flat_map(|c| c.points.iter().map(|p| p.speed_tok_s))
        .filter(|s| *s >= lo && *s <= hi)
        .collect();
    crate::core::model::order::sort_by(&mut speeds, |x, y| x.total_cmp(y));
    speeds.dedup();
    speeds
        .into_iter()
        .filter_map(|s| {
            median_min_max(&ratios_at(a, b, s)).map(|ratio| RatioPoint {
                speed_tok_s: s,
                ratio,
            })
        })
        .collect()
}

/// The speeds where the median ratio crosses 1: a point at exactly 1 between a point above and
/// one below, or between two points on either side, linear in (ln speed, ln ratio).
fn crossovers(curve: &[RatioPoint]) -> Vec<f64> {
    let side = |r: f64| (r.ln() * 1e12).round().signum() as i8;
    let mut out = Vec::new();
    // The last point off 1, and its side.
    let mut last: Option<(RatioPoint, i8)> = None;
    for p in curve {
        let s = side(p.ratio.ratio);
        if s == 0 {
            continue;
        }
        if let Some((q, qs)) = last {
            if qs != s {
                let (x0, y0) = (q.speed_tok_s.ln(), q.ratio.ratio.ln());
                let (x1, y1) = (p.speed_tok_s.ln(), p.ratio.ratio.ln());
                out.push((x0 + (0.0 - y0) * (x1 - x0) / (y1 - y0)).exp());
            }
        }
        last = Some((*p, s));
    }
    out
}

#[cfg(test)]
mod tests;
