//! The period's figures in words (`core::plan::period`), as the command line writes them.

use crate::core::model::format::{grouped, money, significant, trimmed};
use crate::core::plan::period::{LoadKind, LoadProfile, PeriodFigures, Scaling};

/// The heading and one line per figure that is there: peak, mean GPUs, GPU-hours and their
/// cost, energy (an upper bound), electricity and CO2, total and per million output tokens, and
/// against holding the peak the whole period; per day too where the period is not a day.
pub fn period_lines(f: &PeriodFigures, load: &LoadProfile, scaling: Scaling) -> Vec<String> {
    let mut lines = vec![heading(f, load, scaling)];
    let Some(peak) = f.peak_replicas else {
        lines.push(match load.kind {
            LoadKind::Rps => {
                "not sized: the sweep states no output tokens per request at the recommended level"
                    .into()
            }
            LoadKind::Users => {
                "not sized: no streams per replica are known at the recommended level".into()
            }
        });
        return lines;
    };
    let gpus =
        |g: Option<u64>| g.map_or_else(String::new, |g| format!(", {} GPUs", grouped(g as f64, 0)));
    lines.push(format!(
        "peak: {} replicas{}",
        grouped(peak as f64, 0),
        gpus(f.peak_gpus)
    ));
    let cost = |usd: Option<f64>| usd.map_or_else(String::new, |u| format!(" ({})", money(u)));
    if let (Some(mean), Some(hours)) = (f.mean_gpus, f.gpu_hours) {
        lines.push(format!(
            "GPU-hours: {}{}; {} GPUs on average",
            trimmed(hours, 4),
            cost(f.gpu_usd),
            trimmed(mean, 3)
        ));
    }
    if let Some(kwh) = f.energy_kwh {
        let co2 = f
            .co2_kg
            .map_or_else(String::new, |kg| format!(", {} kg CO2", significant(kg, 3)));
        lines.push(format!(
            "energy: at most {} kWh{}{co2} (every running replica at the power measured at the level)",
            significant(kwh, 3),
            f.electricity_usd
                .map_or_else(String::new, |u| format!(", electricity {}", money(u)))
        ));
    }
    if let Some(total) = f.total_usd {
        let per_mtok = f.usd_per_mtok.map_or_else(String::new, |u| {
            format!(", {} per million output tokens", money(u))
        });
        lines.push(format!("total: {}{per_mtok}", money(total)));
    }
    lines.extend(saving_lines(f));
    lines
}

/// "Over the period (4 h: 4 values of 60 min, req/s; replicas 60 min to come up, at least 1):"
fn heading(f: &PeriodFigures, load: &LoadProfile, scaling: Scaling) -> String {
    let unit = match load.kind {
        LoadKind::Rps => "req/s",
        LoadKind::Users => "users",
    };
    format!(
        "Over the period ({} h: {} values of {} min, {unit}; replicas {} min to come up, at least {}):",
        trimmed(f.period_h, 4),
        grouped(load.values.len() as f64, 0),
        trimmed(load.step_min, 4),
        trimmed(scaling.lag_min, 4),
        scaling.min_replicas,
    )
}

/// Against holding the peak the whole period, and per day where the period is not a day.
fn saving_lines(f: &PeriodFigures) -> Vec<String> {
    let (Some(hold), Some(saved), Some(hours)) =
        (f.peak_hold_gpu_hours, f.saved_gpu_hours, f.gpu_hours)
    else {
        return Vec::new();
    };
    let share = if hold > 0.0 {
        saved / hold * 100.0
    } else {
        0.0
    };
    let usd = f
        .saved_usd
        .map_or_else(String::new, |u| format!("{}, ", money(u)));
    let mut lines = vec![format!(
        "against holding the peak the whole period ({} GPU-hours): {} GPU-hours saved ({usd}{}%)",
        trimmed(hold, 4),
        trimmed(saved, 4),
        trimmed(share, 3)
    )];
    if f.period_h != 24.0 {
        let total = f
            .total_usd
            .map_or_else(String::new, |t| format!(", {} in all", money(f.per_day(t))));
        lines.push(format!(
            "per day: {} GPU-hours{total}",
            trimmed(f.per_day(hours), 4)
        ));
    }
    lines
}
