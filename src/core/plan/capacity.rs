//! From one replica to a fleet: replicas, GPUs, fleet throughput and power, cost, energy and CO2
//! at the recommended level. Every input is optional; each figure is `None` unless its inputs
//! (and the measured fields it needs) are there. No price or carbon intensity is built in.
//!
//! Formulas (all at the recommended level, "every replica full"):
//! - streams per replica = the level's `avg_batch_size` (what the run held, not the cap; for a
//!   client-concurrency sweep without it, the concurrency);
//!   replicas = ceil(users / streams per replica); GPUs = replicas × num_gpus.
//! - A load in requests per second (`rps`, used when `users` is not given): demanded output =
//!   rps × mean output tokens per request at the level (none stated: nothing is sized, no
//!   guess); replicas = ceil(demanded output / throughput); implied streams = demanded output /
//!   per-user tok/s by `rate`; utilisation = demanded output / fleet throughput.
//! - fleet GPU $ per hour = GPUs × price; electricity $ per hour = fleet power (kW, PUE
//!   applied) × $/kWh; fleet $ per hour = their sum. Per million output tokens for a replica
//!   running full: total = GPU $ + electricity $. A part whose price is not given is left out of
//!   a total, which then says which part it lacks. At the `rps` load, GPU $ per million output
//!   tokens = fleet GPU $ per hour / (demanded output × 3600) × 1e6.
//! - fleet throughput = replicas × throughput (tok/s); fleet power = replicas × power × PUE (kW).
//! - GPU $ per million output tokens = price × num_gpus / (throughput × 3600) × 1e6.
//! - kWh per million output tokens = J/token × PUE × 1e6 / 3.6e6; electricity $ per million =
//!   that × $/kWh; kg CO2 per million = that × g/kWh / 1000.
//! - energy per request = the stored `energy_per_request_joules` (worst of the level's rows), J;
//!   Wh per 1,000 requests = J × 1000 / 3600.

use crate::core::model::deployment::GPU_NOT_STATED;
use crate::core::model::sweep::Sweep;
use crate::core::plan::cost::ApiPrice;
use crate::core::plan::planner::{Plan, Recommendation, Slo};

/// What costing a deployment needs: the fleet, cost and energy inputs and each GPU type's own
/// price (a scenario's, borrowed).
#[derive(Clone, Copy, Debug)]
pub struct Pricing<'a> {
    /// The fleet, cost and energy inputs; their `price_per_gpu_hour` is the price for every
    /// GPU type not named in `gpu_prices`.
    pub capacity: &'a CapacityInputs,
    /// The prices of named GPU types.
    pub gpu_prices: &'a GpuPrices,
}

impl Pricing<'_> {
    /// The inputs for a deployment on GPU type `gpu`: its type's own price, else the price for
    /// every type.
    pub fn for_gpu(&self, gpu: &str) -> CapacityInputs {
        CapacityInputs {
            price_per_gpu_hour: self
                .gpu_prices
                .for_gpu(gpu, self.capacity.price_per_gpu_hour),
            ..*self.capacity
        }
    }

    /// True when a price per GPU-hour is given, for every type or for one (so deployments can
    /// be costed, ranked and charted by cost; electricity alone never ranks one as cheap).
    pub fn priced(&self) -> bool {
        self.capacity.price_per_gpu_hour.is_some() || !self.gpu_prices.0.is_empty()
    }
}

/// Prices per GPU-hour by GPU type (URL `price=H100:2.49,B200:5.99`), beside the one price for
/// every type not named (`CapacityInputs::price_per_gpu_hour`, the bare number of `price`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GpuPrices(pub Vec<(String, f64)>);

impl GpuPrices {
    /// The price of a GPU-hour of `gpu`: its own (GPU type names matched case-insensitively),
    /// else `every_type`; a sweep whose GPU is not stated takes only `every_type`. `None`: no
    /// price given for it (never another type's price, never 0).
    pub fn for_gpu(&self, gpu: &str, every_type: Option<f64>) -> Option<f64> {
        if gpu == GPU_NOT_STATED {
            return every_type;
        }
        self.0
            .iter()
            .find(|(g, _)| g.eq_ignore_ascii_case(gpu))
            .map(|(_, p)| *p)
            .or(every_type)
    }

    /// Sets (or, with `None`, removes) the price of `gpu`, keeping the others' order.
    pub fn set(&mut self, gpu: &str, price: Option<f64>) {
        match (
            self.0.iter().position(|(g, _)| g.eq_ignore_ascii_case(gpu)),
            price,
        ) {
            (Some(i), Some(p)) => self.0[i].1 = p,
            (Some(i), None) => {
                self.0.remove(i);
            }
            (None, Some(p)) => self.0.push((gpu.to_string(), p)),
            (None, None) => {}
        }
    }
}

/// Optional fleet inputs (URL `users`, `price`, `kwh_price`, `co2`, `pue`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CapacityInputs {
    /// Concurrent streams to serve at the target.
    pub users: Option<f64>,
    /// Requests per second to serve (used when `users` is not given).
    pub rps: Option<f64>,
    /// $ per GPU-hour (GPU rental only).
    pub price_per_gpu_hour: Option<f64>,
    /// $ per kWh of electricity.
    pub price_per_kwh: Option<f64>,
    /// Grid carbon intensity, g CO2 per kWh.
    pub co2_g_per_kwh: Option<f64>,
    /// Facility overhead (power usage effectiveness); `None` = 1.0, GPUs only.
    pub pue: Option<f64>,
    /// A hosted API's price to cost a request against (`api`).
    pub api: Option<ApiPrice>,
    /// The share of input tokens the API serves from its cache, 0 to 1 (`cached`); `None` = 0.
    pub cached: Option<f64>,
}

impl CapacityInputs {
    /// True when a load is given, in concurrent users or in requests per second.
    pub fn has_load(&self) -> bool {
        self.users.is_some() || self.rps.is_some()
    }

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
    /// Output tok/s the `rps` load demands: rps × output tokens per request at the level.
    pub demand_tok_s: Option<f64>,
    /// Concurrent streams that load implies at the level: demand / per-user tok/s by `rate`.
    pub implied_streams: Option<f64>,
    /// Demanded output / fleet throughput, a fraction.
    pub utilisation: Option<f64>,
    /// GPUs × price, $ per hour.
    pub fleet_gpu_cost_per_hour: Option<f64>,
    /// At the `rps` load: fleet GPU $ per hour / (demand × 3600) × 1e6, $ per million tokens.
    pub load_cost_per_mtok: Option<f64>,
    /// Fleet power (kW, PUE applied) × $/kWh, $ per hour.
    pub fleet_elec_cost_per_hour: Option<f64>,
    /// Fleet GPU $ per hour + electricity $ per hour, the parts that are given.
    pub fleet_cost_per_hour: Option<f64>,
    /// GPU $ + electricity $ per million output tokens (one replica running full), the parts
    /// that are given.
    pub total_cost_per_mtok: Option<f64>,
    /// The part the totals leave out because its price is not given (`None`: both are in).
    pub total_lacks: Option<&'static str>,
}

/// GPU rental $ per million output tokens of one replica running full: price × num_gpus /
/// (throughput × 3600) × 1e6.
pub fn gpu_cost_per_mtok(
    throughput_tok_s: f64,
    num_gpus: Option<u32>,
    price: Option<f64>,
) -> Option<f64> {
    price
        .zip(num_gpus)
        .map(|(price, n)| price * f64::from(n) / (throughput_tok_s * 3600.0) * 1e6)
}

/// kWh per million output tokens, PUE included: J/token × PUE × 1e6 / 3.6e6.
pub fn kwh_per_mtok(energy_per_token_j: Option<f64>, pue: f64) -> Option<f64> {
    energy_per_token_j.map(|j| j * pue * 1e6 / 3.6e6)
}

/// Total $ per million output tokens at a level (throughput tok/s, J/token): GPU $ + electricity
/// $, the parts priced in `inputs`; `None` when neither is.
pub fn total_cost_per_mtok(
    throughput_tok_s: f64,
    energy_per_token_j: Option<f64>,
    num_gpus: Option<u32>,
    inputs: &CapacityInputs,
) -> Option<f64> {
    let gpu = gpu_cost_per_mtok(throughput_tok_s, num_gpus, inputs.price_per_gpu_hour);
    let elec = kwh_per_mtok(energy_per_token_j, inputs.pue_or_default())
        .zip(inputs.price_per_kwh)
        .map(|(k, p)| k * p);
    sum_given(gpu, elec)
}

/// The sum of the parts that are there; `None` when none is.
pub(super) fn sum_given(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
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
    // A load in streams (`users`) wins over one in requests per second.
    let demand_tok_s = match inputs.users {
        Some(_) => None,
        None => inputs
            .rps
            .zip(rec.output_tokens_per_request)
            .map(|(rps, tokens)| rps * tokens),
    };
    let replicas = match (inputs.users, demand_tok_s) {
        (Some(users), _) => streams.map(|streams| (users / streams).ceil() as u64),
        (None, Some(demand)) => Some((demand / rec.throughput_tok_s).ceil() as u64)
            .filter(|_| rec.throughput_tok_s > 0.0),
        (None, None) => None,
    };
    let replicas_f = replicas.map(|r| r as f64);
    let gpus = replicas.zip(num_gpus).map(|(r, n)| r * u64::from(n));
    let fleet_throughput_tok_s = replicas_f.map(|r| r * rec.throughput_tok_s);
    let fleet_gpu_cost_per_hour = gpus
        .zip(inputs.price_per_gpu_hour)
        .map(|(g, p)| g as f64 * p);
    let kwh_per_mtok = kwh_per_mtok(rec.energy_per_token_j, pue);
    let fleet_power_kw = replicas_f
        .zip(rec.power_w)
        .map(|(r, w)| r * w * pue / 1000.0);
    let fleet_elec_cost_per_hour = fleet_power_kw
        .zip(inputs.price_per_kwh)
        .map(|(kw, p)| kw * p);
    let cost_per_mtok =
        gpu_cost_per_mtok(rec.throughput_tok_s, num_gpus, inputs.price_per_gpu_hour);
    let elec_cost_per_mtok = kwh_per_mtok.zip(inputs.price_per_kwh).map(|(k, p)| k * p);
    let total_lacks = match (inputs.price_per_gpu_hour, inputs.price_per_kwh) {
        (Some(_), None) => Some("electricity price"),
        (None, Some(_)) => Some("GPU price"),
        _ => None,
    };
    Capacity {
        streams_per_replica: streams,
        replicas,
        gpus,
        fleet_throughput_tok_s,
        fleet_power_kw,
        cost_per_mtok,
        kwh_per_mtok,
        elec_cost_per_mtok,
        co2_kg_per_mtok: kwh_per_mtok
            .zip(inputs.co2_g_per_kwh)
            .map(|(k, g)| k * g / 1000.0),
        energy_per_request_j,
        wh_per_1000_requests: energy_per_request_j.map(|j| j * 1000.0 / 3600.0),
        demand_tok_s,
        implied_streams: demand_tok_s
            .zip(rec.rate_user_tps.filter(|r| *r > 0.0))
            .map(|(d, r)| d / r),
        utilisation: demand_tok_s.zip(fleet_throughput_tok_s).map(|(d, f)| d / f),
        fleet_gpu_cost_per_hour,
        load_cost_per_mtok: fleet_gpu_cost_per_hour
            .zip(demand_tok_s.filter(|d| *d > 0.0))
            .map(|(cost, d)| cost / (d * 3600.0) * 1e6),
        fleet_elec_cost_per_hour,
        fleet_cost_per_hour: sum_given(fleet_gpu_cost_per_hour, fleet_elec_cost_per_hour),
        total_cost_per_mtok: sum_given(cost_per_mtok, elec_cost_per_mtok),
        total_lacks,
    }
}

/// [`capacity`] for a planned sweep, at its recommended level; `None` without a recommendation.
pub fn at_recommendation(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<Capacity> {
    with_recommendation(sweep, plan, slo, inputs).map(|(_, c)| c)
}

/// [`at_recommendation`] with the recommendation it is computed from.
pub fn with_recommendation(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &CapacityInputs,
) -> Option<(Recommendation, Capacity)> {
    let rec = plan.recommendation(sweep, slo)?;
    let level = sweep.levels().get(plan.recommended?)?;
    let c = capacity(
        &rec,
        sweep.deployment.num_gpus,
        level.energy_per_request_j,
        inputs,
    );
    Some((rec, c))
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
            output_tokens_per_request: Some(400.0),
            rate_user_tps: Some(9000.0 / 383.0),
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
            rps: None,
            price_per_gpu_hour: Some(2.5),
            price_per_kwh: Some(0.12),
            co2_g_per_kwh: Some(400.0),
            pue: Some(1.25),
            ..Default::default()
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
            rps: None,
            price_per_gpu_hour: None,
            price_per_kwh: Some(0.1),
            co2_g_per_kwh: Some(300.0),
            pue: None,
            ..Default::default()
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

    #[test]
    fn a_load_in_requests_per_second_sizes_the_fleet_from_output_tokens_per_request() {
        let inputs = CapacityInputs {
            rps: Some(40.0),
            price_per_gpu_hour: Some(2.5),
            ..Default::default()
        };
        let c = capacity(&rec(), Some(4), None, &inputs);
        // 40 req/s x 400 tokens = 16,000 tok/s; 16,000 / 9,000 = 1.78 -> 2 replicas of 4 GPUs.
        assert_eq!(c.demand_tok_s, Some(16000.0));
        assert_eq!(c.replicas, Some(2));
        assert_eq!(c.gpus, Some(8));
        assert_eq!(c.fleet_throughput_tok_s, Some(18000.0));
        assert_eq!(c.utilisation, Some(16000.0 / 18000.0));
        // 16,000 tok/s at 9,000 / 383 tok/s per user by rate: 680.9 streams.
        assert_eq!(c.implied_streams, Some(16000.0 / (9000.0 / 383.0)));
        // 8 GPUs x $2.5 = $20/h for 16,000 x 3600 = 57.6 M tokens: $0.347 per M.
        assert_eq!(c.fleet_gpu_cost_per_hour, Some(20.0));
        assert_eq!(c.load_cost_per_mtok, Some(20.0 / (16000.0 * 3600.0) * 1e6));
    }

    #[test]
    fn without_output_tokens_per_request_rps_sizes_nothing_and_users_wins_over_rps() {
        let mut r = rec();
        r.output_tokens_per_request = None;
        let rps = CapacityInputs {
            rps: Some(40.0),
            ..Default::default()
        };
        let c = capacity(&r, Some(4), None, &rps);
        assert_eq!((c.demand_tok_s, c.replicas, c.gpus), (None, None, None));
        let both = CapacityInputs {
            users: Some(1000.0),
            rps: Some(40.0),
            ..Default::default()
        };
        let c = capacity(&rec(), Some(4), None, &both);
        assert_eq!((c.demand_tok_s, c.replicas), (None, Some(3)));
    }

    #[test]
    fn totals_add_the_parts_given_and_say_which_is_missing() {
        let both = CapacityInputs {
            users: Some(1000.0),
            price_per_gpu_hour: Some(2.5),
            price_per_kwh: Some(0.1),
            ..Default::default()
        };
        let c = capacity(&rec(), Some(4), None, &both);
        // 3 replicas x 4 GPUs x $2.5 = $30/h; 3 x 720 W = 2.16 kW x $0.1 = $0.216/h.
        assert_eq!(c.fleet_gpu_cost_per_hour, Some(30.0));
        assert_eq!(c.fleet_elec_cost_per_hour, Some(2.16 * 0.1));
        assert_eq!(c.fleet_cost_per_hour, Some(30.0 + 2.16 * 0.1));
        assert_eq!(
            c.total_cost_per_mtok,
            Some(c.cost_per_mtok.unwrap() + c.elec_cost_per_mtok.unwrap())
        );
        assert_eq!(c.total_lacks, None);
        let gpu_only = CapacityInputs {
            price_per_kwh: None,
            ..both
        };
        let c = capacity(&rec(), Some(4), None, &gpu_only);
        assert_eq!(c.fleet_cost_per_hour, Some(30.0));
        assert_eq!(c.total_cost_per_mtok, c.cost_per_mtok);
        assert_eq!(c.total_lacks, Some("electricity price"));
        let none = CapacityInputs {
            users: Some(1000.0),
            ..Default::default()
        };
        let c = capacity(&rec(), Some(4), None, &none);
        assert_eq!((c.fleet_cost_per_hour, c.total_cost_per_mtok), (None, None));
    }
}
