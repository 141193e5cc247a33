//! A fleet over a period: a load that varies step by step (URL `load=KIND:STEP:V1,V2,...`),
//! the replicas each step needs at the recommended level, and the period's GPU-hours, energy,
//! cost and CO2 against holding the peak the whole period.
//!
//! Formulas (the same rules as `capacity` for one load figure, step by step):
//! - k = ceil(lag / STEP) steps; covered load(t_i) = the largest of V_i … V_(i+k) (values past
//!   the end are not there): a replica started at t_i serves from t_i + lag.
//! - replicas(t) = max(min_replicas, ceil(covered load(t) / what one replica serves at the
//!   recommended level)): `users` per replica = its streams (`avg_batch_size`); `rps` per
//!   replica = throughput / mean output tokens per request. GPUs(t) = replicas(t) × num_gpus.
//! - period_h = values × STEP / 60; gpu_hours = Σ GPUs(t) × STEP / 60; mean_gpus = gpu_hours /
//!   period_h; gpu_usd = gpu_hours × price.
//! - energy_kwh = Σ replicas(t) × power × PUE × STEP / 60 / 1000: every running replica drawing
//!   the power measured at the level, an upper bound where replicas run below full;
//!   electricity_usd = energy_kwh × $/kWh; co2_kg = energy_kwh × g/kWh / 1000.
//! - total_usd = gpu_usd + electricity_usd (the parts priced); output tokens served = Σ load(t)
//!   × output tokens per second it demands × STEP × 60 (`rps`: × output tokens per request;
//!   `users`: × throughput / streams per replica); usd_per_mtok = total_usd / tokens × 1e6.
//! - peak_hold_gpu_hours = peak GPUs × period_h; saved_gpu_hours = peak_hold_gpu_hours −
//!   gpu_hours. Per day: a figure × 24 / period_h.

use std::collections::VecDeque;

use crate::core::plan::capacity::{sum_given, CapacityInputs};
use crate::core::plan::planner::Recommendation;

pub mod day_chart;
pub mod side_by_side;

/// What a load profile's values count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum LoadKind {
    /// Requests per second.
    Rps,
    /// Concurrent users (streams).
    Users,
}

impl LoadKind {
    /// Its name in a link (`load=rps:…`) and in a CSV's column: `rps` or `users`.
    pub fn key(self) -> &'static str {
        match self {
            LoadKind::Rps => "rps",
            LoadKind::Users => "users",
        }
    }

    /// The kind whose [`LoadKind::key`] is `key`.
    pub fn from_key(key: &str) -> Option<LoadKind> {
        [LoadKind::Rps, LoadKind::Users]
            .into_iter()
            .find(|k| k.key() == key)
    }
}

/// A load that varies over a period: one value per step of `step_min` minutes.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LoadProfile {
    /// What the values count.
    pub kind: LoadKind,
    /// Minutes each value covers (> 0).
    pub step_min: f64,
    /// The load at each step, in order (each ≥ 0).
    pub values: Vec<f64>,
}

/// How a fleet follows the load: replicas take `lag_min` minutes to come up, and at least
/// `min_replicas` always run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scaling {
    /// Minutes a replica takes to come up (URL `lag`, default 0).
    pub lag_min: f64,
    /// The floor of replicas (URL `min_replicas`, default 1).
    pub min_replicas: u64,
}

impl Default for Scaling {
    fn default() -> Scaling {
        Scaling {
            lag_min: 0.0,
            min_replicas: 1,
        }
    }
}

/// The period's figures for one deployment at its recommended level; each `None` when an input
/// or a measured field it needs is absent (never a guess).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PeriodFigures {
    /// The period the values cover, hours: values × STEP / 60.
    pub period_h: f64,
    /// Replicas at each step; empty when one replica's share of the load is not known.
    pub replicas: Vec<u64>,
    /// The most replicas at any step.
    pub peak_replicas: Option<u64>,
    /// The most GPUs at any step: peak replicas × num_gpus.
    pub peak_gpus: Option<u64>,
    /// GPUs on average over the period: gpu_hours / period_h.
    pub mean_gpus: Option<f64>,
    /// Σ GPUs(t) × STEP / 60.
    pub gpu_hours: Option<f64>,
    /// gpu_hours × $ per GPU-hour.
    pub gpu_usd: Option<f64>,
    /// Σ replicas(t) × power × PUE × STEP / 60 / 1000, kWh: an upper bound (every replica at the
    /// power measured at the level).
    pub energy_kwh: Option<f64>,
    /// energy_kwh × $ per kWh.
    pub electricity_usd: Option<f64>,
    /// energy_kwh × g CO2 per kWh / 1000, kg.
    pub co2_kg: Option<f64>,
    /// gpu_usd + electricity_usd, the parts priced.
    pub total_usd: Option<f64>,
    /// Output tokens the load asks for over the period.
    pub output_tokens: Option<f64>,
    /// total_usd per million output tokens served.
    pub usd_per_mtok: Option<f64>,
    /// Peak GPUs held the whole period: peak_gpus × period_h.
    pub peak_hold_gpu_hours: Option<f64>,
    /// peak_hold_gpu_hours − gpu_hours.
    pub saved_gpu_hours: Option<f64>,
    /// saved_gpu_hours × $ per GPU-hour.
    pub saved_usd: Option<f64>,
}

impl PeriodFigures {
    /// `value` over a day: value × 24 / period_h.
    pub fn per_day(&self, value: f64) -> f64 {
        value * 24.0 / self.period_h
    }
}

/// The load each step must be ready for: with k = ceil(lag / STEP), the largest of V_i …
/// V_(i+k) (values past the end are not there). A sliding maximum from the end (a deque of the
/// steps that can still be a window's largest), so a week by the minute with a lag of a week
/// takes n steps, not n × k.
pub fn covered_load(profile: &LoadProfile, lag_min: f64) -> Vec<f64> {
    let k = (lag_min.max(0.0) / profile.step_min).ceil() as usize;
    let values = &profile.values;
    let mut covered = vec![0.0; values.len()];
    // The steps of the window [i, i + k] that can still be a window's largest: from front to
    // back, earlier steps with smaller values; the front is the window's largest.
    let mut window: VecDeque<usize> = VecDeque::new();
    for i in (0..values.len()).rev() {
        while window.back().is_some_and(|&j| values[j] <= values[i]) {
            window.pop_back();
        }
        window.push_back(i);
        while window.front().is_some_and(|&j| j > i.saturating_add(k)) {
            window.pop_front();
        }
        covered[i] = window.front().map_or(0.0, |&j| values[j].max(0.0));
    }
    covered
}

/// What one replica serves at the recommended level, in the profile's unit: its streams
/// (`users`), or throughput / output tokens per request (`rps`); `None` when not known.
pub fn per_replica(kind: LoadKind, rec: &Recommendation) -> Option<f64> {
    match kind {
        LoadKind::Users => rec.streams,
        LoadKind::Rps => rec
            .output_tokens_per_request
            .filter(|t| *t > 0.0)
            .map(|tokens| rec.throughput_tok_s / tokens),
    }
    .filter(|s| *s > 0.0 && s.is_finite())
}

/// Output tok/s one unit of load asks for: × output tokens per request (`rps`), × throughput /
/// streams per replica (`users`).
fn tokens_per_unit(kind: LoadKind, rec: &Recommendation) -> Option<f64> {
    match kind {
        LoadKind::Rps => rec.output_tokens_per_request,
        LoadKind::Users => rec
            .streams
            .filter(|s| *s > 0.0)
            .map(|s| rec.throughput_tok_s / s),
    }
}

/// The period's figures for a deployment of `num_gpus` GPUs at its recommendation `rec`, under
/// `profile` and `scaling`, priced by `inputs` (its `users`/`rps` are not read).
pub fn period(
    rec: &Recommendation,
    num_gpus: Option<u32>,
    profile: &LoadProfile,
    scaling: Scaling,
    inputs: &CapacityInputs,
) -> PeriodFigures {
    let step_h = profile.step_min / 60.0;
    let period_h = profile.values.len() as f64 * step_h;
    let replicas: Vec<u64> = per_replica(profile.kind, rec)
        .map(|share| {
            covered_load(profile, scaling.lag_min)
                .into_iter()
                .map(|load| ((load / share).ceil() as u64).max(scaling.min_replicas))
                .collect()
        })
        .unwrap_or_default();
    let known = !replicas.is_empty();
    let peak_replicas = replicas.iter().copied().max();
    let replica_hours = known.then(|| replicas.iter().map(|r| *r as f64 * step_h).sum::<f64>());
    let gpus = num_gpus.map(f64::from);
    let gpu_hours = replica_hours.zip(gpus).map(|(h, n)| h * n);
    let peak_gpus = peak_replicas.zip(num_gpus).map(|(r, n)| r * u64::from(n));
    let price = inputs.price_per_gpu_hour;
    let gpu_usd = gpu_hours.zip(price).map(|(h, p)| h * p);
    let energy_kwh = replica_hours
        .zip(rec.power_w)
        .map(|(h, w)| h * w * inputs.pue_or_default() / 1000.0);
    let electricity_usd = energy_kwh.zip(inputs.price_per_kwh).map(|(e, p)| e * p);
    let total_usd = sum_given(gpu_usd, electricity_usd);
    let output_tokens = tokens_per_unit(profile.kind, rec)
        .map(|per_unit| profile.values.iter().sum::<f64>() * per_unit * profile.step_min * 60.0);
    let peak_hold_gpu_hours = peak_gpus.map(|g| g as f64 * period_h);
    let saved_gpu_hours = peak_hold_gpu_hours.zip(gpu_hours).map(|(p, h)| p - h);
    PeriodFigures {
        period_h,
        peak_replicas,
        peak_gpus,
        mean_gpus: gpu_hours.map(|h| h / period_h).filter(|m| m.is_finite()),
        gpu_hours,
        gpu_usd,
        energy_kwh,
        electricity_usd,
        co2_kg: energy_kwh
            .zip(inputs.co2_g_per_kwh)
            .map(|(e, g)| e * g / 1000.0),
        total_usd,
        output_tokens,
        usd_per_mtok: total_usd
            .zip(output_tokens.filter(|t| *t > 0.0))
            .map(|(usd, t)| usd / t * 1e6),
        peak_hold_gpu_hours,
        saved_gpu_hours,
        saved_usd: saved_gpu_hours.zip(price).map(|(h, p)| h * p),
        replicas,
    }
}

#[cfg(test)]
mod tests;
