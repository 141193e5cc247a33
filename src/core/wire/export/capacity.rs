//! The JSON of the fleet at the scenario's inputs (`result.capacity`: `core::plan::capacity`).

use serde::Serialize;

use crate::core::plan::capacity::Capacity;

#[derive(Serialize)]
pub(super) struct JsonCapacity {
    streams_per_replica: Option<f64>,
    replicas: Option<u64>,
    gpus: Option<u64>,
    fleet_throughput_tok_s: Option<f64>,
    fleet_power_kw: Option<f64>,
    gpu_cost_usd_per_mtok: Option<f64>,
    kwh_per_mtok: Option<f64>,
    electricity_usd_per_mtok: Option<f64>,
    co2_kg_per_mtok: Option<f64>,
    energy_per_request_j: Option<f64>,
    wh_per_1000_requests: Option<f64>,
    demand_tok_s: Option<f64>,
    implied_streams: Option<f64>,
    utilisation_fraction: Option<f64>,
    fleet_gpu_cost_usd_per_hour: Option<f64>,
    gpu_cost_usd_per_mtok_at_load: Option<f64>,
    fleet_electricity_usd_per_hour: Option<f64>,
    fleet_total_usd_per_hour: Option<f64>,
    total_usd_per_mtok: Option<f64>,
    totals_leave_out: Option<&'static str>,
}

impl From<Capacity> for JsonCapacity {
    fn from(c: Capacity) -> JsonCapacity {
        JsonCapacity {
            streams_per_replica: c.streams_per_replica,
            replicas: c.replicas,
            gpus: c.gpus,
            fleet_throughput_tok_s: c.fleet_throughput_tok_s,
            fleet_power_kw: c.fleet_power_kw,
            gpu_cost_usd_per_mtok: c.cost_per_mtok,
            kwh_per_mtok: c.kwh_per_mtok,
            electricity_usd_per_mtok: c.elec_cost_per_mtok,
            co2_kg_per_mtok: c.co2_kg_per_mtok,
            energy_per_request_j: c.energy_per_request_j,
            wh_per_1000_requests: c.wh_per_1000_requests,
            demand_tok_s: c.demand_tok_s,
            implied_streams: c.implied_streams,
            utilisation_fraction: c.utilisation,
            fleet_gpu_cost_usd_per_hour: c.fleet_gpu_cost_per_hour,
            gpu_cost_usd_per_mtok_at_load: c.load_cost_per_mtok,
            fleet_electricity_usd_per_hour: c.fleet_elec_cost_per_hour,
            fleet_total_usd_per_hour: c.fleet_cost_per_hour,
            total_usd_per_mtok: c.total_cost_per_mtok,
            totals_leave_out: c.total_lacks,
        }
    }
}
