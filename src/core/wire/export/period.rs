//! The JSON of a period's figures (`result.period`, with a load over time: `core::plan::period`).

use serde::Serialize;

use crate::core::plan::period::PeriodFigures;

/// A period's figures as the JSON writes them: hours, replicas and GPUs, GPU-hours, kWh, $ and kg
/// CO2 over the whole period given (`period_h`), and against holding the peak all of it.
#[derive(Serialize)]
pub(super) struct JsonPeriod {
    period_h: f64,
    /// Replicas at each step of the load.
    replicas: Vec<u64>,
    peak_replicas: Option<u64>,
    peak_gpus: Option<u64>,
    mean_gpus: Option<f64>,
    gpu_hours: Option<f64>,
    gpu_usd: Option<f64>,
    energy_kwh: Option<f64>,
    electricity_usd: Option<f64>,
    co2_kg: Option<f64>,
    total_usd: Option<f64>,
    output_tokens: Option<f64>,
    usd_per_mtok: Option<f64>,
    peak_hold_gpu_hours: Option<f64>,
    saved_gpu_hours: Option<f64>,
    saved_usd: Option<f64>,
}

impl From<PeriodFigures> for JsonPeriod {
    fn from(f: PeriodFigures) -> JsonPeriod {
        JsonPeriod {
            period_h: f.period_h,
            replicas: f.replicas,
            peak_replicas: f.peak_replicas,
            peak_gpus: f.peak_gpus,
            mean_gpus: f.mean_gpus,
            gpu_hours: f.gpu_hours,
            gpu_usd: f.gpu_usd,
            energy_kwh: f.energy_kwh,
            electricity_usd: f.electricity_usd,
            co2_kg: f.co2_kg,
            total_usd: f.total_usd,
            output_tokens: f.output_tokens,
            usd_per_mtok: f.usd_per_mtok,
            peak_hold_gpu_hours: f.peak_hold_gpu_hours,
            saved_gpu_hours: f.saved_gpu_hours,
            saved_usd: f.saved_usd,
        }
    }
}
