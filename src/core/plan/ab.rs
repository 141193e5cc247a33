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

pub mod noise;

use std::cell::RefCell;
use std::rc::Rc;

use crate::core::model::deployment::{Deployment, LevelKind, Role};
use crate::core::model::requests::Requests;
use crate::core::model::row::Row;
use crate::core::model::source::Source;
use crate::core::model::sweep::{Level, Sweep};
use crate::core::plan::capacity::Pricing;
use crate::core::plan::compare::{compare, price_rows, CompareRow};
use crate::core::plan::planner::{plan, Condition, Slo, Target};

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

/// One arm made ready: its sweep split into repeats (done once; a target change only replans).
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    /// The arm.
    pub arm: Arm<'a>,
    /// One sweep per repeat (repeat k: the k-th run at each level).
    pub repeats: Vec<Sweep>,
}

impl<'a> Prepared<'a> {
    /// Splits the arm's sweep into its repeats; `None` when the arm names no sweep.
    pub fn new(arm: Arm<'a>) -> Option<Prepared<'a>> {
        let sweep = arm.sweep()?;
        Some(Prepared {
            arm,
            repeats: repeats(sweep),
        })
    }

    /// The arm's sweep.
    pub fn sweep(&self) -> &'a Sweep {
        // `new` checked the index.
        &self.arm.source.sweeps[self.arm.sweep_index]
    }
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
                Some(None) => {
                    out.ended_at = Some(level.level);
                    break;
                }
                Some(ms) => ms,
                None => None,
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

/// Under `attain` P: the TPOT that P% of the requests issued at `level` (its first run) reach
/// while meeting every TTFT and end-to-end limit (a request that misses one is a miss at any
/// speed), ms per token: `None` without per-request records, `Some(None)` when too few
/// requests meet the limits.
fn attained_tpot_ms(repeat: &Sweep, level: &Level, slo: &Slo, p: f64) -> Option<Option<f64>> {
    let row = repeat.rows.get(*level.row_indices.first()?)?;
    let requests = row.requests.as_ref()?;
    let limits = slo.request_slo();
    if limits.ttft_max_ms.is_none() && limits.e2e_max_ms.is_none() {
        return Some(requests.tpot_at_share(p));
    }
    // The records stay sorted by TPOT when some are left out.
    let meeting = Requests {
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
    };
    Some(meeting.tpot_at_share(p))
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

/// Something that makes the comparison less than like for like, said above the result.
#[derive(Clone, Debug, PartialEq)]
pub enum AbWarning {
    /// The datasets differ.
    Dataset {
        /// A's dataset (`None`: not stated).
        a: Option<String>,
        /// B's dataset.
        b: Option<String>,
    },
    /// Input or output lengths differ by more than 10%.
    Length {
        /// `input` or `output`.
        which: &'static str,
        /// A's length, tokens.
        a: f64,
        /// B's length, tokens.
        b: f64,
    },
    /// Levels with more than 1% failed requests, not used.
    Failed {
        /// `A` or `B`.
        arm: char,
        /// (level, share failed).
        levels: Vec<(f64, f64)>,
    },
    /// The arms' levels are of different kinds.
    LevelKinds {
        /// A's kind.
        a: LevelKind,
        /// B's kind.
        b: LevelKind,
    },
    /// A GPU count is not stated: throughput compared per replica.
    PerReplica,
    /// The arms' replicas have different GPU counts (per GPU, the comparison is still like for
    /// like; a replica of each is not).
    GpusPerReplica {
        /// A's GPUs per replica.
        a: u32,
        /// B's GPUs per replica.
        b: u32,
    },
    /// An arm is disaggregated: its throughput per GPU divides by every GPU of a replica,
    /// prefill and decode (P + D).
    AllGpus {
        /// The disaggregated arms, each with (P, D) where both are stated.
        arms: Vec<(char, Option<(u32, u32)>)>,
    },
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

/// Two arms made ready for comparing at any target.
#[derive(Clone, Debug)]
pub struct Arms<'a> {
    /// The baseline.
    pub a: Prepared<'a>,
    /// The candidate.
    pub b: Prepared<'a>,
    /// What the last SLO compared gives whatever its target (the curves and the ratio along
    /// them), so that a change of target only reads it again.
    along: RefCell<Option<(Slo, Rc<Along>)>>,
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

impl<'a> Arms<'a> {
    /// Checks and prepares A and B: both name a sweep, of one model, and B is not A.
    pub fn new(a: Arm<'a>, b: Arm<'a>) -> Result<Arms<'a>, AbError> {
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
        Ok(Arms {
            a: Prepared {
                arm: a,
                repeats: repeats(sa),
            },
            b: Prepared {
                arm: b,
                repeats: repeats(sb),
            },
            along: RefCell::new(None),
        })
    }

    /// True when both arms state their GPU count (throughput compared per GPU).
    pub fn per_gpu(&self) -> bool {
        self.a.sweep().deployment.num_gpus.is_some() && self.b.sweep().deployment.num_gpus.is_some()
    }

    /// The curves and the ratio along them under `slo` (its target aside), from the last
    /// comparison when its SLO was the same but for the target.
    fn along(&self, slo: &Slo) -> Rc<Along> {
        let key = Slo {
            target: Target::TokensPerSecond(1.0),
            ..slo.clone()
        };
        if let Some((cached, along)) = self.along.borrow().as_ref() {
            if *cached == key {
                return Rc::clone(along);
            }
        }
        let per_gpu = self.per_gpu();
        let of = |p: &Prepared| -> Vec<Curve> {
            p.repeats.iter().map(|r| curve(r, &key, per_gpu)).collect()
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
        let (da, db) = (&self.a.sweep().deployment, &self.b.sweep().deployment);
        let mut warnings = workload_warnings(self.a.sweep(), self.b.sweep());
        for (name, x) in [('A', &a), ('B', &b)] {
            if !x.failed.is_empty() {
                warnings.push(AbWarning::Failed {
                    arm: name,
                    levels: x.failed.clone(),
                });
            }
        }
        if da.level_kind != db.level_kind {
            warnings.push(AbWarning::LevelKinds {
                a: da.level_kind,
                b: db.level_kind,
            });
        }
        if !per_gpu {
            warnings.push(AbWarning::PerReplica);
        }
        warnings.extend(gpu_warnings(da, db));
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
            differs: differs(da, db),
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

/// What a comparison says of the arms' GPUs: replicas of different GPU counts, and the arms
/// whose throughput per GPU counts prefill and decode GPUs together.
fn gpu_warnings(a: &Deployment, b: &Deployment) -> Vec<AbWarning> {
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (a.num_gpus, b.num_gpus) {
        if x != y {
            out.push(AbWarning::GpusPerReplica { a: x, b: y });
        }
    }
    let arms: Vec<(char, Option<(u32, u32)>)> = [('A', a), ('B', b)]
        .into_iter()
        .filter_map(|(name, d)| {
            let roles = d.roles()?;
            Some((name, roles.prefill.gpus.zip(roles.decode.gpus)))
        })
        .collect();
    if !arms.is_empty() {
        out.push(AbWarning::AllGpus { arms });
    }
    out
}

/// The disaggregation of a deployment as compared: whether it is disaggregated, and each role's
/// workers and parallelism (the roles' GPUs are named on their own).
fn disaggregation_kind(d: &Deployment) -> Option<(bool, Option<(Role, Role)>)> {
    let strip = |r: &Role| Role { gpus: None, ..*r };
    d.disaggregation.as_ref().map(|x| match x.roles() {
        Some(r) => (true, Some((strip(&r.prefill), strip(&r.decode)))),
        None => (false, None),
    })
}

/// The identity fields that differ between `a` and `b`, by name: hardware, parallelism,
/// precision, then each field beyond them; a configuration of `key=value` pairs is named by its
/// keys that differ.
pub fn differs(a: &Deployment, b: &Deployment) -> Vec<String> {
    let fields = [
        ("GPU", a.gpu != b.gpu),
        ("GPU count", a.num_gpus != b.num_gpus),
        (
            "parallelism",
            (a.tp, a.pp, a.ep, a.dp, a.attention_dp) != (b.tp, b.pp, b.ep, b.dp, b.attention_dp),
        ),
        ("precision", a.precision != b.precision),
        ("engine", a.engine != b.engine),
        ("engine version", a.engine_version != b.engine_version),
        ("speculative decoding", a.spec_decoding != b.spec_decoding),
        (
            "disaggregation",
            disaggregation_kind(a) != disaggregation_kind(b),
        ),
        ("prefill GPUs", role_gpus(a).0 != role_gpus(b).0),
        ("decode GPUs", role_gpus(a).1 != role_gpus(b).1),
        ("dataset", a.dataset != b.dataset),
        ("input length", a.isl != b.isl),
        ("output length", a.osl != b.osl),
        ("burstiness", a.burstiness != b.burstiness),
        ("request rate", a.offered_rate != b.offered_rate),
    ];
    let mut out: Vec<String> = fields
        .iter()
        .filter(|(_, differ)| *differ)
        .map(|(name, _)| (*name).to_string())
        .collect();
    if a.config != b.config {
        out.extend(config_keys_differ(a.config.as_deref(), b.config.as_deref()));
    }
    for (name, differ) in [
        ("date", a.date != b.date),
        ("level", a.level_kind != b.level_kind),
    ] {
        if differ {
            out.push(name.to_string());
        }
    }
    out
}

/// A deployment's prefill and decode GPUs, where it is disaggregated and states them.
fn role_gpus(d: &Deployment) -> (Option<u32>, Option<u32>) {
    d.roles()
        .map_or((None, None), |r| (r.prefill.gpus, r.decode.gpus))
}

/// The keys of two configuration labels' `key=value` pairs that differ; `configuration` when
/// either label is not such pairs.
fn config_keys_differ(a: Option<&str>, b: Option<&str>) -> Vec<String> {
    let (Some(pa), Some(pb)) = (a.and_then(pairs), b.and_then(pairs)) else {
        // `offload none` against `offload lmcache`: the word both start with.
        let first = |l: Option<&str>| {
            l.and_then(|l| l.split_once(' '))
                .map(|(k, _)| k.to_string())
        };
        return match (first(a), first(b)) {
            (Some(ka), Some(kb)) if ka == kb && !ka.contains('=') => vec![ka],
            _ => vec!["configuration".to_string()],
        };
    };
    let mut keys: Vec<String> = Vec::new();
    for (k, v) in pa.iter().chain(&pb) {
        let other = if pa.contains(&(k.clone(), v.clone())) {
            &pb
        } else {
            &pa
        };
        if !other.iter().any(|(ok, ov)| ok == k && ov == v) && !keys.contains(k) {
            keys.push(k.clone());
        }
    }
    if keys.is_empty() {
        keys.push("configuration".to_string());
    }
    keys
}

/// A label's `key=value` pairs, joined by `-`, `,`, `;`, `&` or spaces (`vllm bench sweep`
/// names `max_num_seqs=4-max_num_batched_tokens=2048`); a key starts with a letter or `_` and
/// holds letters, digits, `_` and `.`. `None` when the label does not start with a pair.
fn pairs(label: &str) -> Option<Vec<(String, String)>> {
    let is_key = |s: &str| {
        let mut c = s.chars();
        c.next()
            .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
            && c.all(|ch| ch.is_ascii_alphanumeric() || ch == '_' || ch == '.')
    };
    // Starts of pairs: a key followed by '=', at the start or after a separator.
    let bytes = label.as_bytes();
    let mut starts: Vec<usize> = Vec::new();
    for (i, _) in label.char_indices() {
        let at_sep = i == 0 || matches!(bytes[i - 1], b'-' | b',' | b';' | b'&' | b' ');
        if !at_sep {
            continue;
        }
        if let Some(eq) = label[i..].find('=') {
            if is_key(&label[i..i + eq]) {
                starts.push(i);
            }
        }
    }
    if starts.first() != Some(&0) {
        return None;
    }
    let mut out = Vec::new();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).map_or(label.len(), |&e| e - 1);
        let pair = label.get(s..end)?;
        let (k, v) = pair.split_once('=')?;
        out.push((k.to_string(), v.to_string()));
    }
    Some(out)
}

/// The workload warnings: datasets that differ, and input or output lengths (stated, else the
/// median of the levels' output tokens per request) more than 10% apart.
fn workload_warnings(a: &Sweep, b: &Sweep) -> Vec<AbWarning> {
    let (da, db) = (&a.deployment, &b.deployment);
    let mut out = Vec::new();
    if da.dataset != db.dataset {
        out.push(AbWarning::Dataset {
            a: da.dataset.clone(),
            b: db.dataset.clone(),
        });
    }
    let output_len = |s: &Sweep| {
        s.deployment.osl.or_else(|| {
            let v: Vec<f64> = s.levels().iter().filter_map(|l| l.avg_output_len).collect();
            median_min_max(&v).map(|r| r.ratio)
        })
    };
    let lengths = [
        ("input", da.isl, db.isl),
        ("output", output_len(a), output_len(b)),
    ];
    for (which, x, y) in lengths {
        if let (Some(x), Some(y)) = (x, y) {
            if (x - y).abs() > LENGTH_DIFFERS_ABOVE * x.min(y) {
                out.push(AbWarning::Length { which, a: x, b: y });
            }
        }
    }
    out
}

/// An arm planned on its own at `slo`: its recommended level's figures and its fleet's cost for
/// `pricing`'s load at its own GPU type's price (as the side-by-side table counts them);
/// `None` when the arm names no sweep.
pub fn recommended(arm: Arm, slo: &Slo, pricing: Pricing) -> Option<CompareRow> {
    let mut rows = compare(arm.source, &[arm.sweep_index], slo);
    price_rows(&mut rows, arm.source, (slo, pricing), true);
    rows.pop()
}

#[cfg(test)]
mod tests;
