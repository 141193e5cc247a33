//! Trade-off chart geometry: log scales, the Pareto frontier and the layout of every mark in SVG
//! user units; every chart's ticks in [`ticks`]. Drawing lives in `ui::chart`; nothing here knows
//! about SVG.
//!
//! x = per-user tok/s at the chosen statistic (`1000 / latency_ms`), y = output tok/s per GPU or
//! total $ per million output tokens ([`ChartY`]), both on log10 scales.

use crate::core::model::format::{grouped, significant};
use crate::core::model::sweep::Sweep;
use crate::core::plan::capacity::{total_cost_per_mtok, CapacityInputs};

pub mod ticks;

pub use ticks::{nice_ticks, tick_label, Spacing, Ticks, MAX_TICKS};

/// A log10 scale from a positive data domain to a pixel range (which may run backwards, as the
/// y axis does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogScale {
    log_min: f64,
    log_max: f64,
    range_start: f64,
    range_end: f64,
}

impl LogScale {
    /// Maps `[domain_min, domain_max]` (both > 0, min < max) onto `[range_start, range_end]`.
    /// An empty or reversed domain is widened to a factor of 2 around its value.
    pub fn new(domain_min: f64, domain_max: f64, range_start: f64, range_end: f64) -> LogScale {
        let (mut lo, mut hi) = (domain_min.log10(), domain_max.log10());
        if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
            let mid = if lo.is_finite() { lo } else { 0.0 };
            lo = mid - 2f64.log10();
            hi = mid + 2f64.log10();
        }
        LogScale {
            log_min: lo,
            log_max: hi,
            range_start,
            range_end,
        }
    }

    /// Pixel position of a data value (> 0); values outside the domain map outside the range,
    /// at most 100 ranges away, and a value that is not (0, or not finite) at the range's start,
    /// so that a position is always a finite number of a few digits.
    pub fn map(&self, value: f64) -> f64 {
        let t = (value.log10() - self.log_min) / (self.log_max - self.log_min);
        let t = if t.is_finite() {
            t.clamp(-100.0, 100.0)
        } else {
            0.0
        };
        self.range_start + t * (self.range_end - self.range_start)
    }

    /// The domain's lower and upper bound.
    pub fn domain(&self) -> (f64, f64) {
        (10f64.powf(self.log_min), 10f64.powf(self.log_max))
    }
}

/// The domain drawn for data spanning `[min, max]` (both > 0): 10% of log room either side.
pub fn padded_domain(min: f64, max: f64) -> (f64, f64) {
    let (lo, hi) = (min.log10(), max.log10());
    let pad = ((hi - lo) * 0.1).max(0.05);
    (10f64.powf(lo - pad), 10f64.powf(hi + pad))
}

/// Indices of the points on the Pareto frontier when both coordinates are better higher: the
/// points no other point beats or equals on both with at least one strictly better. Sorted by x
/// ascending (y then descends along the frontier). Non-finite points are never on it.
pub fn pareto_frontier(points: &[(f64, f64)]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len())
        .filter(|&i| points[i].0.is_finite() && points[i].1.is_finite())
        .collect();
    // Highest x first; among equal x, highest y first.
    crate::core::model::order::sort_by(&mut order, |&a, &b| {
        points[b]
            .0
            .total_cmp(&points[a].0)
            .then(points[b].1.total_cmp(&points[a].1))
    });
    let mut frontier = Vec::new();
    let mut best_y = f64::NEG_INFINITY;
    for i in order {
        if points[i].1 > best_y {
            frontier.push(i);
            best_y = points[i].1;
        }
    }
    frontier.reverse();
    frontier
}

/// One measured point of a series.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPoint {
    /// The level (`max_num_seqs`).
    pub level: f64,
    /// Per-user tok/s at the statistic.
    pub user_tps: f64,
    /// The y value: output tok/s per GPU, or total $ per million output tokens on a cost chart
    /// ([`ChartY`]).
    pub y: f64,
    /// Position in SVG user units.
    pub px: (f64, f64),
}

/// The indices of a series of `n` points drawn as points: all of them up to `max`; else `max`
/// evenly spaced ones, the first and the last among them, ascending.
pub fn drawn_points(n: usize, max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let mut shown: Vec<usize> = (0..max).map(|k| (k * (n - 1)) / (max.max(2) - 1)).collect();
    shown.dedup();
    shown
}

/// One deployment's points, ascending by level.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSeries {
    /// Index into `Source::sweeps`.
    pub sweep_index: usize,
    /// Points with a value at the statistic; levels without one are left out.
    pub points: Vec<ChartPoint>,
}

/// A tick: data value, position on its axis, label.
#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    /// Data value.
    pub value: f64,
    /// Position along the axis in SVG user units.
    pub pos: f64,
    /// Text label.
    pub label: String,
}

/// Everything needed to draw the chart, in SVG user units (`width × height`).
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLayout {
    /// View box width.
    pub width: f64,
    /// View box height.
    pub height: f64,
    /// Plot area: left, top, right, bottom.
    pub plot: (f64, f64, f64, f64),
    /// x ticks (per-user tok/s).
    pub x_ticks: Vec<Tick>,
    /// y ticks (tok/s per GPU).
    pub y_ticks: Vec<Tick>,
    /// The series, in the order given.
    pub series: Vec<ChartSeries>,
    /// x position of the target line, when the target lies inside the x domain.
    pub target_x: Option<f64>,
    /// The feasible side (x >= target) as a rectangle: left, top, right, bottom. Clipped to the
    /// plot; `None` when no part of the plot is feasible.
    pub feasible: Option<(f64, f64, f64, f64)>,
    /// The Pareto frontier over all points of all series: (series index, point index), by x.
    pub frontier: Vec<(usize, usize)>,
}

/// Raw input of one series: the sweep index and its (level, per-user tok/s, tok/s per GPU).
pub type SeriesInput = (usize, Vec<(f64, f64, f64)>);

/// Lays out the chart in a `width × height` box. `target_tps` is the per-user target in tok/s;
/// `lower_y_better` when y is a cost (the Pareto frontier then takes lower y as better).
/// Points with a non-finite or non-positive coordinate are dropped (a log scale cannot show them).
pub fn layout(
    input: &[SeriesInput],
    target_tps: f64,
    width: f64,
    height: f64,
    lower_y_better: bool,
) -> ChartLayout {
    let plot = (56.0, 12.0, width - 14.0, height - 44.0);
    let ((x_lo, x_hi), (y_lo, y_hi)) = domains(input, target_tps);
    let xs = LogScale::new(x_lo, x_hi, plot.0, plot.2);
    let ys = LogScale::new(y_lo, y_hi, plot.3, plot.1);
    let x_ticks = ticks(&xs, ((plot.2 - plot.0) / 44.0).max(2.0) as usize);
    let y_ticks = ticks(&ys, ((plot.3 - plot.1) / 28.0).max(2.0) as usize);

    let series: Vec<ChartSeries> = input
        .iter()
        .map(|(sweep_index, pts)| ChartSeries {
            sweep_index: *sweep_index,
            points: pts
                .iter()
                .filter(|p| usable(p.1, p.2))
                .map(|&(level, user_tps, y)| ChartPoint {
                    level,
                    user_tps,
                    y,
                    px: (xs.map(user_tps), ys.map(y)),
                })
                .collect(),
        })
        .collect();
    let frontier = frontier(&series, lower_y_better);

    let target_px = (target_tps.is_finite() && target_tps > 0.0).then(|| xs.map(target_tps));
    let target_x = target_px.filter(|&x| x >= plot.0 && x <= plot.2);
    let feasible = target_px
        .map(|x| x.max(plot.0))
        .filter(|&x| x < plot.2)
        .map(|x| (x, plot.1, plot.2, plot.3));

    ChartLayout {
        width,
        height,
        plot,
        x_ticks,
        y_ticks,
        series,
        target_x,
        feasible,
        frontier,
    }
}

/// True when a point can be drawn on the log scales: both coordinates finite and positive.
fn usable(x: f64, y: f64) -> bool {
    x.is_finite() && y.is_finite() && x > 0.0 && y > 0.0
}

/// The padded x (per-user tok/s) and y domains over the usable points of all series, x widened
/// to take in a positive `target_tps`; 1 to 100 each when no point is usable.
fn domains(input: &[SeriesInput], target_tps: f64) -> ((f64, f64), (f64, f64)) {
    let all: Vec<(f64, f64)> = input
        .iter()
        .flat_map(|(_, pts)| pts.iter().map(|p| (p.1, p.2)))
        .filter(|&(x, y)| usable(x, y))
        .collect();
    let fold = |f: fn(f64, f64) -> f64, init: f64, get: fn(&(f64, f64)) -> f64| {
        all.iter().map(get).fold(init, f)
    };
    let (mut x_min, mut x_max) = (
        fold(f64::min, f64::INFINITY, |p| p.0),
        fold(f64::max, 0.0, |p| p.0),
    );
    if target_tps.is_finite() && target_tps > 0.0 {
        x_min = x_min.min(target_tps);
        x_max = x_max.max(target_tps);
    }
    let (y_min, y_max) = (
        fold(f64::min, f64::INFINITY, |p| p.1),
        fold(f64::max, 0.0, |p| p.1),
    );
    let x = if all.is_empty() {
        (1.0, 100.0)
    } else {
        padded_domain(x_min, x_max)
    };
    let y = if all.is_empty() {
        (1.0, 100.0)
    } else {
        padded_domain(y_min, y_max)
    };
    (x, y)
}

/// The ticks of an axis: at most `n` values across the scale's domain ([`nice_ticks`]), each
/// with its position (px) and label.
fn ticks(scale: &LogScale, n: usize) -> Vec<Tick> {
    nice_ticks(Spacing::Log, scale.domain(), n)
        .values
        .into_iter()
        .map(|value| Tick {
            value,
            pos: scale.map(value),
            label: tick_label(value),
        })
        .collect()
}

/// The Pareto frontier over all points of all series: (series index, point index), by x.
/// `lower_y_better` when y is a cost.
fn frontier(series: &[ChartSeries], lower_y_better: bool) -> Vec<(usize, usize)> {
    let flat: Vec<(usize, usize)> = series
        .iter()
        .enumerate()
        .flat_map(|(si, s)| (0..s.points.len()).map(move |pi| (si, pi)))
        .collect();
    let coords: Vec<(f64, f64)> = flat
        .iter()
        .map(|&(si, pi)| {
            let p = &series[si].points[pi];
            // The frontier takes both coordinates as better higher: a cost is better lower.
            (p.user_tps, if lower_y_better { -p.y } else { p.y })
        })
        .collect();
    pareto_frontier(&coords)
        .into_iter()
        .map(|i| flat[i])
        .collect()
}

/// What the chart's y axis shows (URL `y`: absent, or `cost`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChartY {
    /// Output tok/s per GPU (higher is better).
    #[default]
    PerGpu,
    /// Total $ per million output tokens (GPU + electricity, the parts priced; lower is better).
    Cost,
}

impl ChartY {
    /// The chart's heading.
    pub fn heading(self) -> &'static str {
        match self {
            ChartY::PerGpu => "Trade-off: per-user speed against throughput per GPU",
            ChartY::Cost => {
                "Trade-off: per-user speed against total cost per million output tokens"
            }
        }
    }

    /// What the axis shows: "output tok/s per GPU", "total $ per M output tokens".
    pub fn quantity(self) -> &'static str {
        match self {
            ChartY::PerGpu => "output tok/s per GPU",
            ChartY::Cost => "total $ per M output tokens",
        }
    }

    /// The axis title.
    pub fn axis(self) -> String {
        format!("{} (log) →", self.quantity())
    }

    /// A y value with its unit: "9,248 tok/s per GPU", "$0.0725 per M tokens".
    pub fn text(self, v: f64) -> String {
        match self {
            ChartY::PerGpu => format!("{} tok/s per GPU", grouped(v, 0)),
            ChartY::Cost => format!("${} per M tokens", significant(v, 3)),
        }
    }

    /// A y value without its unit: "9,248", "$0.0725".
    pub fn number(self, v: f64) -> String {
        match self {
            ChartY::PerGpu => grouped(v, 0),
            ChartY::Cost => format!("${}", significant(v, 3)),
        }
    }

    /// The y value of one level of `sweep` (throughput tok/s, J/token) for `inputs` (the
    /// sweep's GPU type's price); `None` when it has none (no GPU count; for the cost, no GPU
    /// price for its type: electricity alone would make an unpriced GPU look cheap, so it is
    /// never drawn as a total, as the side-by-side table never ranks it).
    pub fn value(
        self,
        sweep: &Sweep,
        throughput_tok_s: f64,
        energy_per_token_j: Option<f64>,
        inputs: &CapacityInputs,
    ) -> Option<f64> {
        match self {
            ChartY::PerGpu => sweep.per_gpu(throughput_tok_s),
            ChartY::Cost => inputs.price_per_gpu_hour.and_then(|_| {
                total_cost_per_mtok(
                    throughput_tok_s,
                    energy_per_token_j,
                    sweep.deployment.num_gpus,
                    inputs,
                )
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;

    #[test]
    fn large_series_draw_a_bounded_spread_of_points() {
        assert_eq!(drawn_points(5, 60), vec![0, 1, 2, 3, 4]);
        let shown = drawn_points(2000, 60);
        assert_eq!(shown.first(), Some(&0));
        assert_eq!(shown.last(), Some(&1999));
        assert_eq!(shown.len(), 60);
        assert!(shown.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn log_scale_maps_decades_evenly_and_runs_backwards() {
        let s = LogScale::new(1.0, 100.0, 0.0, 200.0);
        assert_eq!(s.map(1.0), 0.0);
        assert_eq!(s.map(10.0), 100.0);
        assert_eq!(s.map(100.0), 200.0);
        let y = LogScale::new(10.0, 1000.0, 300.0, 100.0);
        assert_eq!(y.map(10.0), 300.0);
        assert_eq!(y.map(100.0), 200.0);
        assert_eq!(y.map(1000.0), 100.0);
    }

    #[test]
    fn degenerate_domain_is_widened() {
        let s = LogScale::new(50.0, 50.0, 0.0, 100.0);
        let (lo, hi) = s.domain();
        assert!((lo - 25.0).abs() < 1e-9 && (hi - 100.0).abs() < 1e-9);
        assert!((s.map(50.0) - 50.0).abs() < 1e-9);
    }

    #[test]
    fn pareto_frontier_keeps_undominated_points() {
        let pts = [
            (10.0, 100.0), // dominated by (20, 150)
            (20.0, 150.0),
            (5.0, 300.0),
            (30.0, 50.0),
            (30.0, 40.0),  // same x, lower y: dominated
            (25.0, 150.0), // beats (20, 150) on x
            (f64::NAN, 1000.0),
        ];
        assert_eq!(pareto_frontier(&pts), vec![2, 5, 3]);
        assert!(pareto_frontier(&[]).is_empty());
        // Identical points: one of them stands for both.
        assert_eq!(pareto_frontier(&[(1.0, 1.0), (1.0, 1.0)]).len(), 1);
    }

    #[test]
    fn on_a_cost_chart_the_frontier_takes_lower_cost_as_better() {
        let input = vec![(
            0,
            vec![(8.0, 100.0, 1.0), (64.0, 50.0, 0.5), (512.0, 20.0, 0.8)],
        )];
        let l = layout(&input, 30.0, 640.0, 360.0, true);
        // (20 tok/s, $0.8) costs more than (50 tok/s, $0.5) and is slower: not on the frontier.
        assert_eq!(l.frontier, vec![(0, 1), (0, 0)]);
        // Read as better higher, (100 tok/s, 1.0) would beat both others.
        let higher = layout(&input, 30.0, 640.0, 360.0, false);
        assert_eq!(higher.frontier, vec![(0, 0)]);
    }

    #[test]
    fn layout_places_points_target_and_frontier() {
        let input = vec![
            (
                0,
                vec![
                    (8.0, 100.0, 1000.0),
                    (64.0, 50.0, 5000.0),
                    (512.0, 20.0, 9000.0),
                ],
            ),
            (
                1,
                vec![
                    (8.0, 120.0, 500.0),
                    (64.0, 40.0, 3000.0),
                    (128.0, -1.0, 4000.0),
                ],
            ),
        ];
        let l = layout(&input, 30.0, 640.0, 360.0, false);
        assert_eq!(l.series[1].points.len(), 2);
        // Frontier: (120, 500) series 1, (100, 1000), (50, 5000), (20, 9000) of series 0.
        assert_eq!(l.frontier, vec![(0, 2), (0, 1), (0, 0), (1, 0)]);
        let tx = l.target_x.unwrap();
        assert!(tx > l.plot.0 && tx < l.plot.2);
        assert_eq!(l.feasible, Some((tx, l.plot.1, l.plot.2, l.plot.3)));
        // Higher per-user speed is further right; higher throughput is further up.
        let p = &l.series[0].points;
        assert!(p[0].px.0 > p[1].px.0 && p[0].px.1 > p[1].px.1);
        assert!(l
            .x_ticks
            .iter()
            .all(|t| t.pos >= l.plot.0 && t.pos <= l.plot.2));
        assert!(l.y_ticks.iter().any(|t| t.label == "1k"));
    }

    #[test]
    fn target_beyond_every_point_still_shows() {
        let input = vec![(0, vec![(8.0, 100.0, 1000.0)])];
        let l = layout(&input, 500.0, 640.0, 360.0, false);
        assert!(l.target_x.is_some());
        assert!(l.feasible.is_some());
        let empty = layout(&[], 20.0, 640.0, 360.0, false);
        assert!(empty.series.is_empty() && empty.frontier.is_empty());
    }

    #[test]
    fn the_cost_axis_needs_a_gpu_price_electricity_alone_is_no_total() {
        let source = lm_arena_chat();
        let sweep = &source.sweeps[0];
        let level = &sweep.levels()[0];
        let cost = |inputs: &CapacityInputs| {
            ChartY::Cost.value(
                sweep,
                level.throughput_tok_s,
                level.energy_per_token_j,
                inputs,
            )
        };
        let electricity_only = CapacityInputs {
            price_per_kwh: Some(0.1),
            ..CapacityInputs::default()
        };
        assert_eq!(cost(&electricity_only), None);
        let priced = CapacityInputs {
            price_per_gpu_hour: Some(2.0),
            ..electricity_only
        };
        assert_eq!(
            cost(&priced),
            total_cost_per_mtok(
                level.throughput_tok_s,
                level.energy_per_token_j,
                sweep.deployment.num_gpus,
                &priced
            )
        );
        assert!(cost(&priced).is_some());
    }
}
