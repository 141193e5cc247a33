//! From one replica to a fleet: replicas, GPUs, fleet throughput and power, cost, energy and CO2
//! at the recommended level. Every input is optional; each figure is `None` unless its inputs
//! (and the measured fields it needs) are there. No price or carbon intensity is built in.
//!
//! Formulas (all at the recommended level, "every replica full"):
//! - streams per replica = the level's `avg_batch_size` (what the run held, not the cap; for a
//!   client-concurrency sweep without it, the concurrency);
//!   replicas = ceil(users / streams per replica); GPUs = replicas × num_gpus.
//! - fleet throughput = replicas × throughput (tok/s); fleet power = replicas × power × PUE (kW).
//! - GPU $ per million output tokens = price × num_gpus / (throughput × 3600) × 1e6.
//! - kWh per million output tokens = J/token × PUE × 1e6 / 3.6e6; electricity $ per million =
//!   that × $/kWh; kg CO2 per million = that × g/kWh / 1000.
//! - energy per request = the stored `energy_per_request_joules` (worst of the level's rows), J;
//!   Wh per 1,000 requests = J × 1000 / 3600.

use super::planner::{Plan, Recommendation, Slo};
use super::sweep::Sweep;

/// Optional fleet inputs (URL `users`, `price`, `kwh_price`, `co2`, `pue`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CapacityInputs {
    /// Concurrent streams to serve at the target.
    pub users: Option<f64>,
    /// $ per GPU-hour (GPU rental only).
    pub price_per_gpu_hour: Option<f64>,
    /// $ per kWh of electricity.
    pub price_per_kwh: Option<f64>,
    /// Grid carbon intensity, g CO2 per kWh.
    pub co2_g_per_kwh: Option<f64>,
    /// Facility overhead (power usage effectiveness); `None` = 1.0, GPUs only.
    pub pue: Option<f64>,
}

impl CapacityInputs {
    /// PUE in force: the given one, or 1.0 (GPUs only).
    pub fn pue_or_default(&self) -> f64 {
        self.pue.unwrap_or(1.0)
    }
}

/// Fleet figures; each `None` when an input or a measured field it needs is absent.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Capacity {
    /// Streams one replica holds: `avg_batch_size` at the level (see `Recommendation::streams`).
    pub streams_per_replica: Option<f64>,
    /// ceil(users / streams per replica).
    pub replicas: Option<u64>,
    /// replicas × num_gpus.
    pub gpus: Option<u64>,
    /// replicas × throughput, tok/s.
    pub fleet_throughput_tok_s: Option<f64>,
    /// replicas × power × PUE, kW.
    pub fleet_power_kw: Option<f64>,
    /// GPU rental $ per million output tokens.
    pub cost_per_mtok: Option<f64>,
    /// kWh per million output tokens, PUE included.
    pub kwh_per_mtok: Option<f64>,
    /// Electricity $ per million output tokens.
    pub elec_cost_per_mtok: Option<f64>,
    /// kg CO2 per million output tokens.
    pub co2_kg_per_mtok: Option<f64>,
    /// Stored energy per request at the level, J (GPUs only, as measured).
    pub energy_per_request_j: Option<f64>,
    /// Wh per 1,000 requests (from `energy_per_request_j`).
    pub wh_per_1000_requests: Option<f64>,
}

/// Computes the fleet figures for one deployment at its recommended level.
/// `energy_per_request_j` is the level's stored `energy_per_request_joules` (worst of its rows).
pub fn capacity(
    rec: &Recommendation,
    num_gpus: Option<u32>,
    energy_per_request_j: Option<f64>,
    inputs: &CapacityInputs,
) -> Capacity {
    let pue = inputs.pue_or_default();
    let streams = rec.streams.filter(|s| *s > 0.0);
    let replicas = inputs
        .users
        .zip(streams)
        .map(|(users, streams)| (users / streams).ceil() as u64);
    let replicas_f = replicas.map(|r| r as f64);
    let kwh_per_mtok = rec.energy_per_token_j.map(|j| j * pue * 1e6 / 3.6e6);
    Capacity {
        streams_per_replica: streams,
        replicas,
        gpus: replicas.zip(num_gpus).map(|(r, n)| r * u64::from(n)),
        fleet_throughput_tok_s: replicas_f.map(|r| r * rec.throughput_tok_s),
        fleet_power_kw: replicas_f
            .zip(rec.power_w)
            .map(|(r, w)| r * w * pue / 1000.0),
        cost_per_mtok: inputs
            .price_per_gpu_hour
            .zip(num_gpus)
            .map(|(price, n)| price * f64::from(n) / (rec.throughput_tok_s * 3600.0) * 1e6),
        kwh_per_mtok,
        elec_cost_per_mtok: kwh_per_mtok.zip(inputs.price_per_kwh).map(|(k, p)| k * p),
        co2_kg_per_mtok: kwh_per_mtok
            .zip(inputs.co2_g_per_kwh)
            .map(|(k, g)| k * g / 1000.0),
        energy_per_request_j,
        wh_per_1000_requests: energy_per_request_j.map(|j| j * 1000.0 / 3600.0),
    }
}

/// [`capacity`] for a planned sweep, at its recommended level; `None` without a recommendation.
pub fn at_recommendation(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<Capacity> {
    let rec = plan.recommendation(sweep, slo)?;
    let level = sweep.levels().get(plan.recommended?)?;
    Some(capacity(
        &rec,
        sweep.deployment.num_gpus,
        level.energy_per_request_j,
        inputs,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec() -> Recommendation {
        Recommendation {
            level: 384.0,
            avg_batch_size: Some(383.0),
            streams: Some(383.0),
            throughput_tok_s: 9000.0,
            throughput_per_gpu_tok_s: Some(2250.0),
            energy_per_token_j: Some(0.08),
            power_w: Some(720.0),
            user_tps: 26.0,
            latency_ms: 38.0,
            headroom: 0.04,
        }
    }

    #[test]
    fn replicas_round_up_and_fleet_figures_follow() {
        let inputs = CapacityInputs {
            users: Some(1000.0),
            ..Default::default()
        };
        let c = capacity(&rec(), Some(4), Some(45.0), &inputs);
        assert_eq!(c.streams_per_replica, Some(383.0));
        // 1000 / 383 = 2.61 -> 3 replicas of 4 GPUs.
        assert_eq!(c.replicas, Some(3));
        assert_eq!(c.gpus, Some(12));
        assert_eq!(c.fleet_throughput_tok_s, Some(27000.0));
        // 3 x 720 W x PUE 1.0 = 2.16 kW.
        assert_eq!(c.fleet_power_kw, Some(2.16));
        // Exactly one replica's worth needs one replica.
        let exact = CapacityInputs {
            users: Some(383.0),
            ..Default::default()
        };
        assert_eq!(capacity(&rec(), Some(4), None, &exact).replicas, Some(1));
        let one_more = CapacityInputs {
            users: Some(383.5),
            ..Default::default()
        };
        assert_eq!(capacity(&rec(), Some(4), None, &one_more).replicas, Some(2));
    }

    #[test]
    fn cost_energy_and_co2_per_million_tokens() {
        let inputs = CapacityInputs {
            users: None,
            price_per_gpu_hour: Some(2.5),
            price_per_kwh: Some(0.12),
            co2_g_per_kwh: Some(400.0),
            pue: Some(1.25),
        };
        let c = capacity(&rec(), Some(4), Some(45.0), &inputs);
        // 2.5 $/h x 4 GPUs = 10 $/h for 9000 x 3600 = 32.4 M tokens: 0.3086 $/M.
        assert_eq!(c.cost_per_mtok, Some(2.5 * 4.0 / (9000.0 * 3600.0) * 1e6));
        assert!((c.cost_per_mtok.unwrap() - 0.308642).abs() < 1e-6);
        // 0.08 J x 1.25 x 1e6 / 3.6e6 = 0.027778 kWh per million.
        let kwh = 0.08 * 1.25 * 1e6 / 3.6e6;
        assert_eq!(c.kwh_per_mtok, Some(kwh));
        assert_eq!(c.elec_cost_per_mtok, Some(kwh * 0.12));
        assert_eq!(c.co2_kg_per_mtok, Some(kwh * 400.0 / 1000.0));
        assert!((c.co2_kg_per_mtok.unwrap() - 0.011111).abs() < 1e-6);
        assert_eq!(c.energy_per_request_j, Some(45.0));
        assert_eq!(c.wh_per_1000_requests, Some(12.5));
        // No users: no replicas, GPUs or fleet figures.
        assert_eq!(
            (
                c.replicas,
                c.gpus,
                c.fleet_throughput_tok_s,
                c.fleet_power_kw
            ),
            (None, None, None, None)
        );
    }

    #[test]
    fn absent_inputs_and_unreported_fields_stay_absent() {
        let mut r = rec();
        r.energy_per_token_j = None;
        r.power_w = None;
        let inputs = CapacityInputs {
            users: Some(10.0),
            price_per_gpu_hour: None,
            price_per_kwh: Some(0.1),
            co2_g_per_kwh: Some(300.0),
            pue: None,
        };
        let c = capacity(&r, Some(1), None, &inputs);
        assert_eq!(c.replicas, Some(1));
        assert_eq!(c.fleet_power_kw, None);
        assert_eq!(c.cost_per_mtok, None);
        assert_eq!(c.kwh_per_mtok, None);
        assert_eq!(c.elec_cost_per_mtok, None);
        assert_eq!(c.co2_kg_per_mtok, None);
        assert_eq!(c.wh_per_1000_requests, None);
        // PUE defaults to 1.0 (GPUs only).
        let c = capacity(&rec(), Some(1), None, &CapacityInputs::default());
        assert_eq!(c.kwh_per_mtok, Some(0.08 * 1e6 / 3.6e6));
    }
}
