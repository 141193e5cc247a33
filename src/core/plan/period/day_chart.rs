//! The geometry of the period's chart: the load over the period above, the replicas each step
//! runs below, on one time axis in hours, the peak of replicas marked. Steps are drawn as steps
//! (a value holds for its whole step). SVG user units, as wide as it is drawn (at most `WIDTH`,
//! so that its text is drawn at its size on a narrow screen) × `HEIGHT`.

use crate::core::model::format::{for_count, grouped, svg, trimmed};
use crate::core::plan::chart::{nice_ticks, tick_label, Spacing, Tick};
use crate::core::plan::period::{LoadKind, LoadProfile, PeriodFigures};

/// The widest view box.
pub const WIDTH: f64 = 640.0;
/// View box height.
pub const HEIGHT: f64 = 300.0;
/// Left edge of the plots (room for the value labels).
const LEFT: f64 = 56.0;
/// Room right of the plots.
const MARGIN: f64 = 16.0;
/// The least room per hour tick (a label of 11 px text with space around it).
const HOUR_TICK_ROOM: f64 = 80.0;
/// The most room a character of the chart's labels takes on average (11 px bold, 12 px).
const CHAR_W: f64 = 6.6;

/// One of the two plots: a series drawn as steps over the period.
#[derive(Clone, Debug, PartialEq)]
pub struct StepPlot {
    /// What it shows, with its unit ("Load (req/s)").
    pub title: String,
    /// Top of the plot (its highest tick).
    pub top: f64,
    /// Bottom of the plot (0).
    pub bottom: f64,
    /// The SVG path of the steps: `M x,y H x V y H x …`.
    pub path: String,
    /// Value ticks, positions on the y axis.
    pub ticks: Vec<Tick>,
}

/// Where the peak of replicas is marked, and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct PeakMark {
    /// The start of the first step at the peak, the time its label names (the label is set at
    /// the right of the replicas plot's title row, or a row above it where the two do not fit
    /// side by side).
    pub x: f64,
    /// The peak's height on the replicas plot.
    pub y: f64,
    /// "peak: 4 replicas (4 GPUs) at 2 h".
    pub label: String,
    /// The label's baseline.
    pub label_y: f64,
}

/// Everything needed to draw the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct DayChart {
    /// Left edge of both plots.
    pub left: f64,
    /// Right edge of both plots.
    pub right: f64,
    /// The view box's width.
    pub width: f64,
    /// The load over the period.
    pub load: StepPlot,
    /// Replicas over the period.
    pub replicas: StepPlot,
    /// Hours from the start, positions on the x axis (under the replicas plot).
    pub hours: Vec<Tick>,
    /// The peak of replicas, when replicas are known.
    pub peak: Option<PeakMark>,
}

/// The chart of `load` and the replicas of `figures` (none drawn when they are not known),
/// `width` wide (at most [`WIDTH`]).
pub fn day_chart(load: &LoadProfile, figures: &PeriodFigures, width: f64) -> DayChart {
    let width = width.min(WIDTH);
    let right = width - MARGIN;
    let unit = match load.kind {
        LoadKind::Rps => "Load (req/s)",
        LoadKind::Users => "Load (concurrent users)",
    };
    let counts: Vec<f64> = figures.replicas.iter().map(|r| *r as f64).collect();
    let load_band = Band {
        top: 16.0,
        bottom: 126.0,
    };
    let replicas_band = Band {
        top: 160.0,
        bottom: 270.0,
    };
    let load_plot = step_plot(unit.to_string(), &load.values, load_band, right, false);
    let replicas = step_plot("Replicas".to_string(), &counts, replicas_band, right, true);
    let n = load.values.len().max(1) as f64;
    let x = |i: f64| LEFT + (right - LEFT) * i / n;
    let peak = figures.peak_replicas.and_then(|peak| {
        let i = figures.replicas.iter().position(|r| *r == peak)?;
        let gpus = figures
            .peak_gpus
            .map_or_else(String::new, |g| format!(" ({})", count(g, "GPU")));
        let hours = i as f64 * load.step_min / 60.0;
        let label = format!(
            "peak: {}{gpus} at {} h",
            count(peak, "replica"),
            trimmed(hours, 2)
        );
        // Beside the title, two characters apart, or a row above it.
        let row = (replicas.title.len() + 2 + label.chars().count()) as f64 * CHAR_W;
        let label_y = replicas.top - if row <= right - LEFT { 4.0 } else { 18.0 };
        Some(PeakMark {
            x: x(i as f64),
            y: y_of(peak as f64, &replicas),
            label,
            label_y,
        })
    });
    DayChart {
        left: LEFT,
        right,
        width,
        load: load_plot,
        replicas,
        hours: hour_ticks(
            figures.period_h,
            &x,
            n,
            ((right - LEFT) / HOUR_TICK_ROOM).floor(),
        ),
        peak,
    }
}

/// "1 replica", "4 replicas" (a count past `usize` on a 32-bit target still in full).
fn count(n: u64, what: &str) -> String {
    let agrees = for_count(usize::try_from(n).unwrap_or(usize::MAX), "", "s");
    format!("{} {what}{agrees}", grouped(n as f64, 0))
}

/// The height of `value` on `plot` (its lowest tick at the bottom, its highest at the top).
fn y_of(value: f64, plot: &StepPlot) -> f64 {
    let max = plot.ticks.last().map_or(1.0, |t| t.value);
    plot.bottom - (plot.bottom - plot.top) * (value / max)
}

/// Where a plot lies on the y axis: its highest tick at `top`, 0 at `bottom`.
#[derive(Clone, Copy)]
struct Band {
    top: f64,
    bottom: f64,
}

/// A plot of `values` as steps within `band`, to `right`; `whole`: ticks at whole numbers.
fn step_plot(title: String, values: &[f64], band: Band, right: f64, whole: bool) -> StepPlot {
    let Band { top, bottom } = band;
    let max = values.iter().copied().fold(0.0, f64::max);
    let spacing = if whole {
        Spacing::Whole
    } else {
        Spacing::Linear
    };
    // From 0 to the highest value, rounded out: at most five ticks.
    let axis = nice_ticks(spacing, (0.0, max), 5);
    let top_value = axis.domain.1;
    let ticks = axis
        .values
        .into_iter()
        .map(|value| Tick {
            value,
            pos: bottom - (bottom - top) * (value / top_value),
            label: tick_label(value),
        })
        .collect();
    let mut plot = StepPlot {
        title,
        top,
        bottom,
        path: String::new(),
        ticks,
    };
    plot.path = steps(values, &plot, right);
    plot
}

/// `M x,y H x V y H x …` over the values to `right`, a run of equal values drawn as one step.
fn steps(values: &[f64], plot: &StepPlot, right: f64) -> String {
    let n = values.len().max(1) as f64;
    let x = |i: usize| LEFT + (right - LEFT) * i as f64 / n;
    let mut path = String::new();
    for (i, v) in values.iter().enumerate() {
        let y = y_of(*v, plot);
        if i == 0 {
            path.push_str(&format!("M{},{}", svg(x(0)), svg(y)));
        } else if *v != values[i - 1] {
            path.push_str(&format!("H{}V{}", svg(x(i)), svg(y)));
        }
    }
    if !values.is_empty() {
        path.push_str(&format!("H{}", svg(x(values.len()))));
    }
    path
}

/// Hour ticks over `n` steps ([`nice_ticks`] of [`Spacing::Hours`]): at most `gaps` (2 to 7)
/// between them, so at most eight, however long the period.
fn hour_ticks(period_h: f64, x: &dyn Fn(f64) -> f64, n: f64, gaps: f64) -> Vec<Tick> {
    let most = gaps.clamp(2.0, 7.0) as usize + 1;
    nice_ticks(Spacing::Hours, (0.0, period_h), most)
        .values
        .into_iter()
        .map(|hours| Tick {
            value: hours,
            pos: x(if period_h > 0.0 {
                hours / period_h * n
            } else {
                0.0
            }),
            label: format!("{} h", trimmed(hours, 2)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four_hours() -> (LoadProfile, PeriodFigures) {
        let load = LoadProfile {
            kind: LoadKind::Rps,
            step_min: 60.0,
            values: vec![10.0, 40.0, 80.0, 20.0],
        };
        let figures = PeriodFigures {
            period_h: 4.0,
            replicas: vec![2, 4, 4, 1],
            peak_replicas: Some(4),
            peak_gpus: Some(4),
            ..PeriodFigures::default()
        };
        (load, figures)
    }

    #[test]
    fn the_steps_hold_each_value_for_its_step() {
        let (load, figures) = four_hours();
        let chart = day_chart(&load, &figures, WIDTH);
        // Four steps over 568 units: 142 each. Load ticks every 20 to 80 over 110 units.
        assert_eq!(
            chart.load.ticks.iter().map(|t| t.value).collect::<Vec<_>>(),
            vec![0.0, 20.0, 40.0, 60.0, 80.0]
        );
        assert_eq!(
            chart.load.path,
            "M56.0,112.2H198.0V71.0H340.0V16.0H482.0V98.5H624.0"
        );
        // Replicas 2, 4, 4, 1 on ticks 0..4: the two 4s are one step.
        assert_eq!(
            chart.replicas.path,
            "M56.0,215.0H198.0V160.0H482.0V242.5H624.0"
        );
    }

    #[test]
    fn the_peak_is_marked_at_its_first_step() {
        let (load, figures) = four_hours();
        let peak = day_chart(&load, &figures, WIDTH)
            .peak
            .expect("replicas are known");
        assert_eq!((peak.x, peak.y), (198.0, 160.0));
        assert_eq!(peak.label, "peak: 4 replicas (4 GPUs) at 1 h");
        let one = PeriodFigures {
            replicas: vec![1, 1, 1, 1],
            peak_replicas: Some(1),
            peak_gpus: Some(1),
            ..figures
        };
        let peak = day_chart(&load, &one, WIDTH)
            .peak
            .expect("replicas are known");
        assert_eq!(peak.label, "peak: 1 replica (1 GPU) at 0 h");
    }

    #[test]
    fn hours_are_ticked_at_most_eight_times() {
        let (load, figures) = four_hours();
        let hours = day_chart(&load, &figures, WIDTH).hours;
        assert_eq!(
            hours.iter().map(|t| t.label.as_str()).collect::<Vec<_>>(),
            ["0 h", "1 h", "2 h", "3 h", "4 h"]
        );
        assert_eq!(hours[4].pos, 624.0);
        let day = hour_ticks(24.0, &|i| i, 24.0, 7.0);
        assert_eq!(day.len(), 7);
        assert_eq!(day[1].label, "4 h");
        let week = hour_ticks(168.0, &|i| i, 168.0, 7.0);
        assert_eq!(week[1].label, "24 h");
        // 10,080 steps of a week, 1,693,440 h: at least 1,440 weeks apart, so every 2,000
        // weeks (336,000 h), not 10,081 ticks.
        let long = hour_ticks(1_693_440.0, &|i| i, 10_080.0, 7.0);
        assert_eq!(long.len(), 6);
        assert_eq!(long[1].label, "336,000 h");
        assert_eq!(long[5].label, "1,680,000 h");
    }

    #[test]
    fn a_narrow_chart_is_drawn_as_wide_as_it_is_shown_with_fewer_hour_ticks() {
        // At 360 px the chart is 312 wide: four steps over 296 - 56 = 240 units, 60 each; room
        // for three gaps of 80 between hour ticks, so every 2 h.
        let (load, figures) = four_hours();
        let chart = day_chart(&load, &figures, 312.0);
        assert_eq!((chart.width, chart.right), (312.0, 296.0));
        assert_eq!(
            chart.replicas.path,
            "M56.0,215.0H116.0V160.0H236.0V242.5H296.0"
        );
        assert_eq!(
            chart
                .hours
                .iter()
                .map(|t| (t.label.as_str(), t.pos))
                .collect::<Vec<_>>(),
            [("0 h", 56.0), ("2 h", 176.0), ("4 h", 296.0)]
        );
        // "Replicas", two spaces and the 32 characters of "peak: 4 replicas (4 GPUs) at 1 h":
        // 42 × 6.6 = 277.2 units, more than the 240 of the plot: the peak's label goes a row
        // up (160 - 18); beside the title on the 568 of the widest chart (160 - 4).
        assert_eq!(chart.peak.map(|p| p.label_y), Some(142.0));
        assert_eq!(
            day_chart(&load, &figures, WIDTH).peak.map(|p| p.label_y),
            Some(156.0)
        );
        // Never wider than the widest.
        assert_eq!(day_chart(&load, &figures, 2000.0).width, WIDTH);
    }

    #[test]
    fn no_replicas_no_peak_and_a_zero_load_still_has_an_axis() {
        let load = LoadProfile {
            kind: LoadKind::Users,
            step_min: 30.0,
            values: vec![0.0, 0.0],
        };
        let figures = PeriodFigures {
            period_h: 1.0,
            ..PeriodFigures::default()
        };
        let chart = day_chart(&load, &figures, WIDTH);
        assert_eq!(chart.peak, None);
        assert_eq!(chart.replicas.path, "");
        assert_eq!(chart.load.ticks.last().map(|t| t.value), Some(1.0));
        assert_eq!(chart.load.path, "M56.0,126.0H624.0");
        assert_eq!(chart.load.title, "Load (concurrent users)");
    }
}
