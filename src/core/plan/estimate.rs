//! Past the recommendation: [`estimate`] how far the target still holds between the recommended
//! level and the next measured one (an estimate, never a measurement), and [`batching_effect`]
//! (each user slower, the aggregate higher) at the recommendation. The rules are the
//! planner's (items 6 and 7 of [`crate::core::plan::planner`]).

use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::planner::{Plan, Slo, Status};

/// An estimate between two measured levels; never a measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Estimate {
    /// `n = floor(x)`: the estimated largest concurrency that still meets the target.
    pub level: u64,
    /// The level `x` where the interpolated latency equals the target.
    pub crossing: f64,
    /// The measured level below (the recommendation `c`).
    pub from_level: f64,
    /// The measured level above (`c'`, which fails).
    pub to_level: f64,
    /// Aggregate output tok/s at `n`, linear in `log2(level)` between `c` and `c'`.
    pub throughput_tok_s: f64,
    /// J/token at `n`, the same way; `None` if either level lacks it.
    pub energy_per_token_j: Option<f64>,
}

/// Linear interpolation in `log2(level)`: the value at `level` on the line through
/// `(level_a, a)` and `(level_b, b)`.
fn lerp_log2(level_a: f64, a: f64, level_b: f64, b: f64, level: f64) -> f64 {
    let t = (level / level_a).log2() / (level_b / level_a).log2();
    a + (b - a) * t
}

/// Estimates how far past the recommended level `c` the target still holds before the next
/// measured level `c'`: latency at the statistic taken as linear in `log2(level)` between them;
/// `x` solves `latency(x) = target ms`, `n = floor(x)`. `None` unless the status is `ok`, no
/// limits are set, and `n > c` and `x < c'`.
pub fn estimate(sweep: &Sweep, slo: &Slo, plan: &Plan) -> Option<Estimate> {
    if plan.status != Status::Ok || !slo.limits.is_empty() || slo.attain.is_some() {
        return None;
    }
    let (low, high) = (
        sweep.levels().get(plan.recommended?)?,
        sweep.levels().get(plan.first_failure?)?,
    );
    let (c, c_next) = (low.level, high.level);
    let (lat_c, lat_next) = (low.latency_ms(slo.stat)?, high.latency_ms(slo.stat)?);
    let target_ms = slo.target.ms_per_token();
    // Latencies are finite and positive (others are stored as absent), so this is a plain order.
    if lat_next <= lat_c || c <= 0.0 {
        return None;
    }
    let fraction = (target_ms - lat_c) / (lat_next - lat_c);
    let crossing = c * (c_next / c).powf(fraction);
    let n = crossing.floor();
    if !(n > c && crossing < c_next) {
        return None;
    }
    let energy = match (low.energy_per_token_j, high.energy_per_token_j) {
        (Some(a), Some(b)) => Some(lerp_log2(c, a, c_next, b, n)),
        _ => None,
    };
    Some(Estimate {
        level: n as u64,
        crossing,
        from_level: c,
        to_level: c_next,
        throughput_tok_s: lerp_log2(c, low.throughput_tok_s, c_next, high.throughput_tok_s, n),
        energy_per_token_j: energy,
    })
}

/// What batching costs and buys: the recommendation against the smallest measured level.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchingEffect {
    /// The smallest measured level.
    pub base_level: f64,
    /// The statistic the smallest level's speed is read at: the SLO's, or, when the smallest
    /// level does not report it, its first per-token statistic (the seed's own reading, which
    /// then compares two different rates; the page says so).
    pub base_stat: Statistic,
    /// Per-user speed at the smallest level / at the recommendation (at the statistic): how many
    /// times slower each user is.
    pub user_slowdown: f64,
    /// Aggregate throughput at the recommendation / at the smallest level.
    pub throughput_gain: f64,
    /// Under attainment, the share P (percent): each level's speed is then 1000 ÷ the TPOT P% of
    /// its requests reach (its verdict's `latency_ms`), not `base_stat`'s.
    pub attain: Option<f64>,
}

/// The batching effect at the recommendation, against the smallest level below it that reports
/// the judged statistic. Only where `other_statistic` (a reference source read the way its
/// publication reads it) and no level below reports the judged statistic, against the smallest
/// level's first per-token statistic instead (two different rates; the page says so). `None`
/// without a recommendation or without a level below it to compare with.
pub fn batching_effect(
    sweep: &Sweep,
    slo: &Slo,
    plan: &Plan,
    other_statistic: bool,
) -> Option<BatchingEffect> {
    let recommended = plan.recommended.filter(|&i| i > 0)?;
    let levels = sweep.levels();
    let rec = levels.get(recommended)?;
    if let Some(p) = slo.attain {
        // Per request: the TPOT the share reaches, at the smallest level below that has one.
        let tpot_ms = |i: usize| plan.verdicts.get(i)?.latency_ms.filter(|v| *v > 0.0);
        let rec_ms = tpot_ms(recommended)?;
        let (base, base_ms) = (0..recommended).find_map(|i| Some((levels.get(i)?, tpot_ms(i)?)))?;
        return Some(BatchingEffect {
            base_level: base.level,
            base_stat: slo.stat,
            user_slowdown: rec_ms / base_ms,
            throughput_gain: rec.throughput_tok_s / base.throughput_tok_s,
            attain: Some(p),
        });
    }
    let same = levels[..recommended]
        .iter()
        .find(|l| l.latency_ms(slo.stat).is_some())
        .map(|l| (l, slo.stat));
    let other = || {
        let base = levels.first()?;
        let stat = Statistic::ALL
            .into_iter()
            .filter(|s| s.is_per_token())
            .find(|s| base.user_tps(*s).is_some())?;
        Some((base, stat))
    };
    let (base, base_stat) = same.or_else(|| other_statistic.then(other).flatten())?;
    let user_slowdown = base.user_tps(base_stat)? / rec.user_tps(slo.stat)?;
    Some(BatchingEffect {
        base_level: base.level,
        base_stat,
        user_slowdown,
        throughput_gain: rec.throughput_tok_s / base.throughput_tok_s,
        attain: None,
    })
}
