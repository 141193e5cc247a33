//! Geometry of the comparison's chart, drawn as SVG by `ui::ab` (loaded on demand): B/A against
//! per-user speed, both on log axes (B/A is a ratio: 10⁻⁴× and 10⁴× as far from 1×, and
//! whatever B/A, at most a few ticks), with the 1× line, the target's speed, the band of the
//! repeats' min-max, the crossovers and the ranges only one arm reaches. Coordinates are SVG user
//! units in the attainment plots' view box ([`WIDTH`] × [`HEIGHT`], plot area [`PLOT`]), so both
//! are drawn with the same axes.

use crate::core::model::format::{svg, trimmed};
use crate::core::plan::ab::Comparison;
pub use crate::core::plan::attain_plot::{Mark, HEIGHT, PLOT, WIDTH};
use crate::core::plan::chart::{nice_ticks, padded_domain, tick_label, LogScale, Spacing};

/// At most this many ticks on each axis.
const AXIS_TICKS: usize = 6;

/// A speed range only one arm reaches, as drawn: a shaded span of the plot, named at its top.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlyRange {
    /// Where it starts and ends along x, user units (clipped to the plot).
    pub x: (f64, f64),
    /// Its name: `only A`, `only B`.
    pub label: String,
}

/// The ratio at the target, as drawn: the median and its interval.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetDot {
    /// Centre, user units.
    pub x: f64,
    /// The median's height.
    pub y: f64,
    /// The interval's low and high ends' heights.
    pub y_range: (f64, f64),
}

/// Everything the chart draws.
#[derive(Clone, Debug, PartialEq)]
pub struct AbChart {
    /// Per-user speed, log scale.
    pub x_ticks: Vec<Mark>,
    /// B/A, log scale.
    pub y_ticks: Vec<Mark>,
    /// Height of the 1× line.
    pub one_y: f64,
    /// The median ratio along the curve, as SVG `points`; empty when no speed is common.
    pub line: String,
    /// The band of the repeats' min-max along the curve, as SVG polygon `points`; empty with
    /// fewer than two points.
    pub band: String,
    /// The target's speed along x, labelled (`target 40`); `None` outside the axis.
    pub target: Option<Mark>,
    /// The ratio at the target; `None` when it cannot be judged.
    pub target_dot: Option<TargetDot>,
    /// The crossovers along x, labelled by their speed.
    pub crossovers: Vec<Mark>,
    /// The ranges only one arm reaches.
    pub only: Vec<OnlyRange>,
}

/// Lays out the chart of comparison `c`.
pub fn ab_chart(c: &Comparison) -> AbChart {
    let (left, top, right, bottom) = PLOT;
    let x = padded_scale(x_extent(c), left, right);
    let ys = padded_scale(y_extent(c), bottom, top);
    let x_ticks = marks(&x, Spacing::Log, tick_label);
    let y_ticks = marks(&ys, Spacing::Ratio, ratio_label);
    let y = |r: f64| ys.map(r);
    let point = |s: f64, r: f64| format!("{},{}", svg(x.map(s)), svg(y(r)));
    let line = c
        .curve
        .iter()
        .map(|p| point(p.speed_tok_s, p.ratio.ratio))
        .collect::<Vec<_>>()
        .join(" ");
    let band = if c.curve.len() < 2 {
        String::new()
    } else {
        let high = c.curve.iter().map(|p| point(p.speed_tok_s, p.ratio.high));
        let low = c
            .curve
            .iter()
            .rev()
            .map(|p| point(p.speed_tok_s, p.ratio.low));
        high.chain(low).collect::<Vec<_>>().join(" ")
    };
    let inside = |px: f64| (left - 0.5..=right + 0.5).contains(&px);
    let tx = x.map(c.speed_tok_s);
    let target = inside(tx).then(|| Mark {
        pos: tx,
        label: format!("target {}", trimmed(c.speed_tok_s, 3)),
    });
    let target_dot = c.ratio.filter(|_| inside(tx)).map(|r| TargetDot {
        x: tx,
        y: y(r.ratio),
        y_range: (y(r.low), y(r.high)),
    });
    let crossovers = c
        .crossover_tok_s
        .iter()
        .map(|s| Mark {
            pos: x.map(*s),
            label: trimmed(*s, 3),
        })
        .collect();
    let clip = |px: f64| px.clamp(left, right);
    let only = [("only A", &c.only_a), ("only B", &c.only_b)]
        .into_iter()
        .flat_map(|(label, ranges)| {
            ranges.iter().map(move |(lo, hi)| OnlyRange {
                x: (clip(x.map(*lo)), clip(x.map(*hi))),
                label: label.to_string(),
            })
        })
        .collect();
    AbChart {
        x_ticks,
        y_ticks,
        one_y: y(1.0),
        line,
        band,
        target,
        target_dot,
        crossovers,
        only,
    }
}

/// A log scale over `extent` (both > 0), padded as the trade-off chart pads it, onto
/// `[start, end]`.
fn padded_scale(extent: (f64, f64), start: f64, end: f64) -> LogScale {
    let (lo, hi) = padded_domain(extent.0, extent.1);
    LogScale::new(lo, hi, start, end)
}

/// The ticks of `scale` ([`nice_ticks`] of `spacing`, at most [`AXIS_TICKS`]), placed and
/// labelled.
fn marks(scale: &LogScale, spacing: Spacing, label: impl Fn(f64) -> String) -> Vec<Mark> {
    nice_ticks(spacing, scale.domain(), AXIS_TICKS)
        .values
        .into_iter()
        .map(|v| Mark {
            pos: scale.map(v),
            label: label(v),
        })
        .collect()
}

/// A ratio tick's label, short whatever the ratio: `0.9×`, `1,000×`, from 10⁴ and below 0.001
/// with an exponent (`1e5×`, `1e-4×`).
fn ratio_label(ratio: f64) -> String {
    if (1e-3..1e4).contains(&ratio) {
        format!("{}×", trimmed(ratio, 3))
    } else {
        format!("{ratio:e}×")
    }
}

/// The speeds the chart spans: the curve, the one-arm ranges, the crossovers and the target.
fn x_extent(c: &Comparison) -> (f64, f64) {
    let speeds = c
        .curve
        .iter()
        .map(|p| p.speed_tok_s)
        .chain(c.only_a.iter().chain(&c.only_b).flat_map(|(a, b)| [*a, *b]))
        .chain(c.crossover_tok_s.iter().copied())
        .chain([c.speed_tok_s])
        .filter(|s| s.is_finite() && *s > 0.0);
    let (lo, hi) = speeds.fold((f64::INFINITY, 0.0f64), |(lo, hi), s| {
        (lo.min(s), hi.max(s))
    });
    if hi > lo {
        (lo, hi)
    } else {
        let at = if hi > 0.0 { hi } else { 1.0 };
        (at / 2.0, at * 2.0)
    }
}

/// The ratios the chart spans: the curve's, its band's and the target's, and 1× (its line).
fn y_extent(c: &Comparison) -> (f64, f64) {
    c.curve
        .iter()
        .map(|p| p.ratio)
        .chain(c.ratio)
        .flat_map(|r| [r.low, r.high, r.ratio])
        .filter(|r| r.is_finite() && *r > 0.0)
        .fold((1.0f64, 1.0f64), |(lo, hi), r| (lo.min(r), hi.max(r)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::ab::{AbVerdict, ArmAt, Interval, Ratio, RatioPoint};

    fn ratio(r: f64, low: f64, high: f64) -> Ratio {
        Ratio {
            ratio: r,
            low,
            high,
        }
    }

    fn arm() -> ArmAt {
        ArmAt {
            repeats: 2,
            at: Vec::new(),
            tok_s: None,
            spread: None,
            range: None,
            failed: Vec::new(),
            empty: None,
        }
    }

    fn comparison() -> Comparison {
        Comparison {
            speed_tok_s: 40.0,
            tol_pct: 2.0,
            ratio: Some(ratio(1.07, 1.05, 1.09)),
            interval: Interval::Repeats,
            verdict: AbVerdict::Better,
            a: arm(),
            b: arm(),
            per_gpu: true,
            differs: Vec::new(),
            warnings: Vec::new(),
            curve: vec![
                RatioPoint {
                    speed_tok_s: 10.0,
                    ratio: ratio(0.9, 0.85, 0.95),
                },
                RatioPoint {
                    speed_tok_s: 100.0,
                    ratio: ratio(1.2, 1.1, 1.3),
                },
            ],
            crossover_tok_s: vec![20.0],
            only_a: vec![(5.0, 10.0)],
            only_b: Vec::new(),
        }
    }

    #[test]
    fn the_ratio_runs_along_a_log_speed_axis_with_the_one_line_inside() {
        let chart = ab_chart(&comparison());
        let (left, top, right, bottom) = PLOT;
        // The 1× line lies in the plot, between the lowest and the highest ratio.
        assert!(chart.one_y > top && chart.one_y < bottom);
        // Speeds 10 and 100 are a decade apart; the crossover at 20 lies log(2) of it after 10.
        let xs: Vec<f64> = chart
            .line
            .split(' ')
            .map(|p| p.split(',').next().unwrap().parse().unwrap())
            .collect();
        let cross = chart.crossovers[0].pos;
        let t = (cross - xs[0]) / (xs[1] - xs[0]);
        assert!((t - 2f64.log10()).abs() < 0.01, "{t}");
        assert_eq!(chart.crossovers[0].label, "20");
        // The band holds both points' high then low ends: four corners.
        assert_eq!(chart.band.split(' ').count(), 4);
        // The target is marked and its dot's interval spans its median.
        let target = chart.target.clone().unwrap();
        assert_eq!(target.label, "target 40");
        let dot = chart.target_dot.unwrap();
        assert!(dot.y_range.1 < dot.y && dot.y < dot.y_range.0);
        // Only A reaches 5-10: a bar from the plot's left part, named.
        assert_eq!(chart.only[0].label, "only A");
        assert!(chart.only[0].x.0 >= left && chart.only[0].x.1 <= right);
        // Ticks: ratios on round steps, 1× among them.
        assert!(chart.y_ticks.iter().any(|t| t.label == "1×"));
        assert!(chart.x_ticks.iter().any(|t| t.label == "10"));
    }

    #[test]
    fn a_comparison_without_a_common_speed_still_has_axes_and_the_target() {
        let mut c = comparison();
        c.curve.clear();
        c.crossover_tok_s.clear();
        c.only_a.clear();
        c.ratio = None;
        let chart = ab_chart(&c);
        assert!(chart.line.is_empty() && chart.band.is_empty());
        assert!(chart.target.is_some() && chart.target_dot.is_none());
        assert!(chart.y_ticks.len() >= 2 && !chart.x_ticks.is_empty());
    }
}
