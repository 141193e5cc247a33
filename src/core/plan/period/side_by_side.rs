//! Every deployment's period at the same SLO and load, side by side: the cheapest per day
//! named, and the cheapest per hour at the peak beside it (they can differ: a larger replica
//! wastes more in the troughs).

use crate::core::model::source::Source;
use crate::core::plan::capacity::{sum_given, Pricing};
use crate::core::plan::compare::{family_rows, CompareRow};
use crate::core::plan::period::{period, LoadProfile, PeriodFigures, Scaling};
use crate::core::plan::planner::Slo;

/// One deployment over the period.
#[derive(Clone, Debug, PartialEq)]
pub struct DayRow {
    /// The deployment planned for the SLO (its recommendation, or why it has none).
    pub row: CompareRow,
    /// Its period's figures at its recommended level; `None` without a recommendation.
    pub figures: Option<PeriodFigures>,
    /// True when its GPU type has a price per GPU-hour (only then is it costed and ranked:
    /// electricity alone never ranks one as cheap).
    pub gpu_priced: bool,
    /// $ per hour holding the peak: peak GPUs × $ per GPU-hour + peak replicas × power × PUE ÷
    /// 1000 × $ per kWh (the parts priced); `None` unless the GPU type is priced and the peak is
    /// known.
    pub peak_usd_per_hour: Option<f64>,
}

impl DayRow {
    /// $ per day over the period: total_usd × 24 ÷ period_h, when the GPU type is priced.
    pub fn usd_per_day(&self) -> Option<f64> {
        let f = self.figures.as_ref()?;
        f.total_usd
            .filter(|_| self.gpu_priced)
            .map(|usd| f.per_day(usd))
    }
}

/// The period on every deployment of `model_id` and its precision variants, at `slo`, under
/// `profile` and `scaling`, each deployment priced at its own GPU type's price, in the order of
/// the side-by-side table (each model's fewest GPUs first).
pub fn day_rows(
    source: &Source,
    slo: &Slo,
    model_id: &str,
    pricing: Pricing,
    profile: &LoadProfile,
    scaling: Scaling,
) -> Vec<DayRow> {
    let Some(model) = source.model_index(model_id) else {
        return Vec::new();
    };
    family_rows(source, model, slo)
        .into_iter()
        .filter_map(|row| {
            let sweep = source.sweeps.get(row.sweep_index)?;
            let inputs = pricing.for_gpu(&sweep.deployment.gpu);
            let gpu_priced = inputs.price_per_gpu_hour.is_some();
            let rec = row.recommendation.as_ref();
            let figures =
                rec.map(|rec| period(rec, sweep.deployment.num_gpus, profile, scaling, &inputs));
            let peak_usd_per_hour = figures.as_ref().zip(rec).and_then(|(f, rec)| {
                let gpu = f.peak_gpus.zip(inputs.price_per_gpu_hour);
                let kwh = f
                    .peak_replicas
                    .zip(rec.power_w)
                    .zip(inputs.price_per_kwh)
                    .map(|((r, w), p)| r as f64 * w * inputs.pue_or_default() / 1000.0 * p);
                sum_given(gpu.map(|(g, p)| g as f64 * p), kwh).filter(|_| gpu.is_some())
            });
            Some(DayRow {
                row,
                figures,
                gpu_priced,
                peak_usd_per_hour,
            })
        })
        .collect()
}

/// The deployment that costs least per day ([`DayRow::usd_per_day`]) among those that meet
/// the SLO; the first of equals.
pub fn cheapest_per_day(rows: &[DayRow]) -> Option<&DayRow> {
    least(rows, DayRow::usd_per_day)
}

/// The deployment that costs least per hour holding the peak ([`DayRow::peak_usd_per_hour`])
/// among those that meet the SLO; the first of equals.
pub fn cheapest_at_peak(rows: &[DayRow]) -> Option<&DayRow> {
    least(rows, |r| r.peak_usd_per_hour)
}

fn least(rows: &[DayRow], cost: impl Fn(&DayRow) -> Option<f64>) -> Option<&DayRow> {
    rows.iter()
        .filter(|r| r.row.meets())
        .filter_map(|r| cost(r).map(|c| (r, c)))
        .reduce(|best, next| if next.1 < best.1 { next } else { best })
        .map(|(r, _)| r)
}
