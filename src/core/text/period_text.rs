//! The period's figures in words (`core::plan::period`): each with its label, hook, display
//! text and formula with this deployment's numbers, as the page's period panel and the command
//! line show them; and the side-by-side sentence naming the cheapest per day.

use crate::core::model::format::{amount, counted, grouped, money, significant, trimmed};
use crate::core::model::source::Source;
use crate::core::plan::capacity::CapacityInputs;
use crate::core::plan::period::side_by_side::{cheapest_at_peak, cheapest_per_day, DayRow};
use crate::core::plan::period::{per_replica, LoadKind, LoadProfile, PeriodFigures, Scaling};
use crate::core::plan::planner::Recommendation;
use crate::core::text::capacity_text::{given_money, FleetFigure};

/// What the period's figures are computed from: the load, how the fleet follows it, the
/// recommendation, the deployment's GPUs and the prices.
pub struct PeriodInputs<'a> {
    /// The load over the period.
    pub load: &'a LoadProfile,
    /// Lag and floor of replicas.
    pub scaling: Scaling,
    /// The recommended level's figures.
    pub rec: &'a Recommendation,
    /// GPUs per replica.
    pub num_gpus: Option<u32>,
    /// Prices, PUE and g CO2 per kWh.
    pub inputs: &'a CapacityInputs,
}

/// "req/s" or "users": the unit of the load's values.
pub fn load_unit(kind: LoadKind) -> &'static str {
    match kind {
        LoadKind::Rps => "req/s",
        LoadKind::Users => "users",
    }
}

/// What the period is: "4 h: 4 values of 60 min, req/s; replicas 60 min to come up, at least 1".
pub fn period_heading(f: &PeriodFigures, load: &LoadProfile, scaling: Scaling) -> String {
    format!(
        "{} h: {} of {} min, {}; replicas {} min to come up, at least {}",
        trimmed(f.period_h, 4),
        counted(load.values.len(), "value"),
        trimmed(load.step_min, 4),
        load_unit(load.kind),
        trimmed(scaling.lag_min, 4),
        scaling.min_replicas,
    )
}

/// Why replicas cannot be counted over the period, when they cannot.
pub fn not_sized(f: &PeriodFigures, kind: LoadKind) -> Option<&'static str> {
    f.peak_replicas.is_none().then_some(match kind {
        LoadKind::Rps => {
            "Not sized: the sweep states no output tokens per request at the recommended level."
        }
        LoadKind::Users => "Not sized: no streams per replica are known at the recommended level.",
    })
}

/// "Energy is an upper bound …": said under the figures when energy is there.
pub const ENERGY_NOTE: &str = "Energy is an upper bound: every running replica draws the power measured at the recommended level, though replicas run below full in the troughs.";

/// Every period figure that is there, in the panel's order, each with its formula
/// (`core::plan::period`'s, word for word, with this deployment's numbers).
pub fn period_figures(f: &PeriodFigures, p: &PeriodInputs) -> Vec<FleetFigure> {
    let mut all = sizing_figures(f, p);
    all.extend(cost_figures(f, p));
    all.extend(saving_figures(f));
    all.into_iter().flatten().collect()
}

/// Period, peak replicas and GPUs, mean GPUs and GPU-hours.
fn sizing_figures(f: &PeriodFigures, p: &PeriodInputs) -> Vec<Option<FleetFigure>> {
    let n = p.num_gpus.unwrap_or_default();
    let unit = load_unit(p.load.kind);
    let share = per_replica(p.load.kind, p.rec).unwrap_or_default();
    let gpu_steps: u64 = f.replicas.iter().map(|r| r * u64::from(n)).sum();
    let peak = grouped(f.peak_replicas.unwrap_or_default() as f64, 0);
    vec![
        FleetFigure::of(
            "Period",
            "period-period-h",
            Some(f.period_h),
            |h| format!("{} h", trimmed(h, 4)),
            |h| {
                format!(
                    "period = values × STEP ÷ 60 = {} × {} ÷ 60 = {} h",
                    grouped(p.load.values.len() as f64, 0),
                    trimmed(p.load.step_min, 4),
                    trimmed(h, 4)
                )
            },
        ),
        FleetFigure::of(
            "Peak replicas",
            "period-peak-replicas",
            f.peak_replicas.map(|r| r as f64),
            |r| grouped(r, 0),
            |r| {
                format!(
                "replicas(t) = max(min_replicas, ceil(covered load(t) ÷ what one replica serves)), one replica serving {} {unit}; peak = the most of them = {}",
                significant(share, 4),
                grouped(r, 0)
            )
            },
        ),
        FleetFigure::of(
            "Peak GPUs",
            "period-peak-gpus",
            f.peak_gpus.map(|g| g as f64),
            |g| grouped(g, 0),
            |g| {
                format!(
                    "peak GPUs = peak replicas × GPUs per replica = {peak} × {n} = {}",
                    grouped(g, 0)
                )
            },
        ),
        FleetFigure::of(
            "Mean GPUs",
            "period-mean-gpus",
            f.mean_gpus,
            |m| trimmed(m, 3),
            |m| {
                format!(
                    "mean GPUs = GPU-hours ÷ period = {} ÷ {} h = {}",
                    trimmed(f.gpu_hours.unwrap_or_default(), 4),
                    trimmed(f.period_h, 4),
                    trimmed(m, 3)
                )
            },
        ),
        FleetFigure::of(
            "GPU-hours",
            "period-gpu-hours",
            f.gpu_hours,
            |h| trimmed(h, 4),
            |h| {
                format!(
                    "GPU-hours = Σ GPUs(t) × STEP ÷ 60 = {} × {} ÷ 60 = {}",
                    counted(usize::try_from(gpu_steps).unwrap_or(usize::MAX), "GPU-step"),
                    trimmed(p.load.step_min, 4),
                    trimmed(h, 4)
                )
            },
        ),
    ]
}

/// GPU cost, energy, electricity, CO2 and the total.
fn cost_figures(f: &PeriodFigures, p: &PeriodInputs) -> Vec<Option<FleetFigure>> {
    let hours = trimmed(f.gpu_hours.unwrap_or_default(), 4);
    let kwh = significant(f.energy_kwh.unwrap_or_default(), 4);
    let replica_hours: f64 =
        f.replicas.iter().map(|r| *r as f64).sum::<f64>() * p.load.step_min / 60.0;
    vec![
        FleetFigure::of("GPU cost", "period-gpu-usd", f.gpu_usd, money, |v| {
            format!(
                "GPU $ = GPU-hours × price per GPU-hour = {hours} × {} = {}",
                given_money(p.inputs.price_per_gpu_hour.unwrap_or_default()),
                money(v)
            )
        }),
        FleetFigure::of(
            "Energy (at most)",
            "period-energy-kwh",
            f.energy_kwh,
            |e| format!("{} kWh", significant(e, 3)),
            |e| {
                format!(
                "energy = Σ replicas(t) × power × PUE × STEP ÷ 60 ÷ 1000 = {} × {} W × {} ÷ 1000 = {} kWh",
                amount(trimmed(replica_hours, 4), "replica-hour", "replica-hours"),
                grouped(p.rec.power_w.unwrap_or_default(), 1),
                p.inputs.pue_or_default(),
                significant(e, 4)
            )
            },
        ),
        FleetFigure::of(
            "Electricity",
            "period-electricity-usd",
            f.electricity_usd,
            money,
            |v| {
                format!(
                    "electricity $ = energy × $/kWh = {kwh} kWh × {} = {}",
                    given_money(p.inputs.price_per_kwh.unwrap_or_default()),
                    money(v)
                )
            },
        ),
        FleetFigure::of(
            "CO2",
            "period-co2-kg",
            f.co2_kg,
            |kg| format!("{} kg", significant(kg, 3)),
            |kg| {
                format!(
                    "kg CO2 = energy × g/kWh ÷ 1000 = {kwh} × {} ÷ 1000 = {}",
                    trimmed(p.inputs.co2_g_per_kwh.unwrap_or_default(), 6),
                    significant(kg, 4)
                )
            },
        ),
        total_figure(f),
    ]
}

/// The total, and per million output tokens.
fn total_figure(f: &PeriodFigures) -> Option<FleetFigure> {
    let parts: Vec<String> = [f.gpu_usd, f.electricity_usd]
        .into_iter()
        .flatten()
        .map(money)
        .collect();
    let per_mtok = f.usd_per_mtok.map_or_else(String::new, |u| {
        format!(
            "; per M output tokens = total ÷ {} M tokens = {}",
            significant(f.output_tokens.unwrap_or_default() / 1e6, 4),
            money(u)
        )
    });
    FleetFigure::of(
        "Total cost",
        "period-total-usd",
        f.total_usd,
        |v| {
            let per = f.usd_per_mtok.map_or_else(String::new, |u| {
                format!(" ({} per M output tokens)", money(u))
            });
            format!("{}{per}", money(v))
        },
        |v| {
            format!(
                "total $ = GPU $ + electricity $ (the parts priced) = {} = {}{per_mtok}",
                parts.join(" + "),
                money(v)
            )
        },
    )
}

/// Holding the peak, saved by following the load, and per day where the period is not a day.
fn saving_figures(f: &PeriodFigures) -> Vec<Option<FleetFigure>> {
    let hold = f.peak_hold_gpu_hours.unwrap_or_default();
    let hours = f.gpu_hours.unwrap_or_default();
    let share = |saved: f64| {
        if hold > 0.0 {
            saved / hold * 100.0
        } else {
            0.0
        }
    };
    let usd = f
        .saved_usd
        .map_or_else(String::new, |u| format!(", {}", money(u)));
    let per_day = f
        .gpu_hours
        .filter(|_| f.period_h != 24.0 && f.period_h > 0.0);
    vec![
        FleetFigure::of(
            "Holding the peak",
            "period-peak-hold-gpu-hours",
            f.peak_hold_gpu_hours,
            |h| amount(trimmed(h, 4), "GPU-hour", "GPU-hours"),
            |h| {
                format!(
                    "peak-hold GPU-hours = peak GPUs × period = {} × {} h = {}",
                    grouped(f.peak_gpus.unwrap_or_default() as f64, 0),
                    trimmed(f.period_h, 4),
                    trimmed(h, 4)
                )
            },
        ),
        FleetFigure::of(
            "Saved by following the load",
            "period-saved-gpu-hours",
            f.saved_gpu_hours,
            |s| {
                format!(
                    "{} ({}%{usd})",
                    amount(trimmed(s, 4), "GPU-hour", "GPU-hours"),
                    trimmed(share(s), 3)
                )
            },
            |s| {
                format!(
                "saved = peak-hold GPU-hours − GPU-hours = {} − {} = {} ({}% of holding the peak{usd})",
                trimmed(hold, 4),
                trimmed(hours, 4),
                trimmed(s, 4),
                trimmed(share(s), 3)
            )
            },
        ),
        FleetFigure::of(
            "Per day",
            "period-per-day",
            per_day.map(|h| f.per_day(h)),
            |h| {
                let total = f
                    .total_usd
                    .map_or_else(String::new, |t| format!(", {}", money(f.per_day(t))));
                format!("{}{total}", amount(trimmed(h, 4), "GPU-hour", "GPU-hours"))
            },
            |h| {
                format!(
                    "per day = a figure × 24 ÷ period = {} × 24 ÷ {} h = {}",
                    amount(trimmed(hours, 4), "GPU-hour", "GPU-hours"),
                    trimmed(f.period_h, 4),
                    trimmed(h, 4)
                )
            },
        ),
    ]
}

/// The side-by-side's sentence: the cheapest deployment per day and what it costs (those tied
/// with it named too), and the cheapest per hour at the peak when that is another one; `None`
/// when none is costed.
pub fn cheapest_note(source: &Source, rows: &[DayRow]) -> Option<String> {
    let day = cheapest_per_day(rows)?;
    let usd = day.usd_per_day()?;
    let per_day = money(usd);
    let name = source.sweep_label(day.row.sweep_index);
    let tied: Vec<&str> = rows
        .iter()
        .filter(|r| r.row.meets() && r.row.sweep_index != day.row.sweep_index)
        .filter(|r| r.usd_per_day() == Some(usd))
        .map(|r| source.sweep_label(r.row.sweep_index))
        .collect();
    if !tied.is_empty() {
        return Some(format!(
            "Cheapest per day: {name} and {} tie at {per_day} per day.",
            tied.join(" and ")
        ));
    }
    let mut note = format!("Cheapest per day: {name}, {per_day} per day.");
    if let Some(peak) = cheapest_at_peak(rows).filter(|p| p.row.sweep_index != day.row.sweep_index)
    {
        note.push_str(&format!(
            " At the peak, {} costs less per hour ({} against {}), but it wastes more in the troughs.",
            source.sweep_label(peak.row.sweep_index),
            money(peak.peak_usd_per_hour.unwrap_or_default()),
            money(day.peak_usd_per_hour.unwrap_or_default()),
        ));
    }
    Some(note)
}
