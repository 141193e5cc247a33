//! Geometry of the two attainment plots, drawn as SVG by `ui::requests` (loaded on demand):
//! each level's share of good requests against the share asked (P), and one level's requests,
//! TPOT across and TTFT up, with the target and the TTFT limit as lines, so a reader sees
//! whether the misses are slow decodes (right of the target) or long waits (above the limit).
//! Coordinates are SVG user units in a [`WIDTH`] × [`HEIGHT`] view box.

use crate::core::model::format::{grouped, level as level_text, svg, trimmed, url_number};
use crate::core::model::limits::MAX_DRAWN_REQUESTS;
use crate::core::model::requests::Requests;
use crate::core::model::sweep::Sweep;
use crate::core::plan::attainment::{attainment, Attainment, RequestSlo};
use crate::core::plan::chart::{nice_ticks, tick_label, Spacing, Ticks, MAX_TICKS};
use crate::core::plan::planner::Plan;

/// The view box's width.
pub const WIDTH: f64 = 480.0;
/// The view box's height.
pub const HEIGHT: f64 = 240.0;
/// The plot area: left, top, right, bottom.
pub const PLOT: (f64, f64, f64, f64) = (56.0, 28.0, 460.0, 200.0);

/// A labelled position along an axis (a tick, or a line across the plot).
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// Position in user units (x for the x axis, y for the y axis).
    pub pos: f64,
    /// Its label.
    pub label: String,
}

/// One level's dot on the attainment plot.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelDot {
    /// Centre, user units.
    pub x: f64,
    /// Centre, user units.
    pub y: f64,
    /// The level (see `LevelKind`).
    pub level: f64,
    /// Whether its share reaches P.
    pub meets: bool,
    /// Its attainment (worded by `text::attainment_text::level_dot_text`).
    pub attainment: Attainment,
}

/// Each level's attainment against P.
#[derive(Clone, Debug, PartialEq)]
pub struct AttainmentPlot {
    /// The levels, evenly spaced in order.
    pub x_ticks: Vec<Mark>,
    /// 0% to 100%.
    pub y_ticks: Vec<Mark>,
    /// The line at P: "P = 95%".
    pub p_line: Mark,
    /// One dot per level with per-request records.
    pub dots: Vec<LevelDot>,
    /// The dots joined, as SVG `points`.
    pub line: String,
}

/// Each level's attainment from `plan` (under attainment), with the level: (index into
/// `sweep.levels()`, level, attainment), for the levels that have per-request records.
pub fn level_attainments(sweep: &Sweep, plan: &Plan) -> Vec<(usize, f64, Attainment)> {
    sweep
        .levels()
        .iter()
        .zip(&plan.verdicts)
        .enumerate()
        .filter_map(|(i, (l, v))| Some((i, l.level, v.attainment?)))
        .collect()
}

/// The plot of `levels` ((level, attainment), ascending) against `p` percent.
pub fn attainment_plot(levels: &[(f64, Attainment)], p: f64) -> AttainmentPlot {
    let (left, top, right, bottom) = PLOT;
    let step = (right - left) / levels.len().max(1) as f64;
    let x = |i: usize| left + (i as f64 + 0.5) * step;
    let y = |percent: f64| bottom - percent.clamp(0.0, 100.0) / 100.0 * (bottom - top);
    let dots: Vec<LevelDot> = levels
        .iter()
        .enumerate()
        .map(|(i, (level, a))| LevelDot {
            x: x(i),
            y: y(a.share().unwrap_or(0.0) * 100.0),
            level: *level,
            meets: crate::core::model::requests::reaches(a.good, a.issued, p) && a.issued > 0,
            attainment: *a,
        })
        .collect();
    AttainmentPlot {
        // The levels' places, 1, 2, 5 … apart: at most MAX_TICKS labels along the axis.
        x_ticks: nice_ticks(
            Spacing::Whole,
            (0.0, levels.len().saturating_sub(1) as f64),
            MAX_TICKS,
        )
        .values
        .into_iter()
        .filter_map(|i| {
            let i = i as usize;
            levels.get(i).map(|(level, _)| Mark {
                pos: x(i),
                label: tick_label(*level),
            })
        })
        .collect(),
        y_ticks: nice_ticks(Spacing::Linear, (0.0, 100.0), 5)
            .values
            .into_iter()
            .map(|v| Mark {
                pos: y(v),
                label: format!("{v}%"),
            })
            .collect(),
        p_line: Mark {
            pos: y(p),
            label: format!("P = {}%", url_number(p)),
        },
        line: dots
            .iter()
            .map(|d| format!("{},{}", svg(d.x), svg(d.y)))
            .collect::<Vec<_>>()
            .join(" "),
        dots,
    }
}

/// The records a level is judged on (`planner`'s rule): of its runs with per-request records,
/// the one with the lowest share of good requests under `slo` (the first of equals).
pub fn judged_requests<'a>(
    sweep: &'a Sweep,
    level_index: usize,
    slo: &RequestSlo,
) -> Option<&'a Requests> {
    sweep
        .levels()
        .get(level_index)?
        .row_indices
        .iter()
        .filter_map(|&i| sweep.rows.get(i)?.requests.as_ref())
        .map(|r| (attainment(r, slo).share(), r))
        .reduce(|low, next| if next.0 < low.0 { next } else { low })
        .map(|(_, r)| r)
}

/// One level's requests, TPOT against TTFT.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestsPlot {
    /// TPOT, ms per token, from 0.
    pub x_ticks: Vec<Mark>,
    /// TTFT, ms, from 0.
    pub y_ticks: Vec<Mark>,
    /// The target's TPOT: "target 20 ms".
    pub target: Mark,
    /// The tightest TTFT limit: "TTFT limit 2,000 ms", if any.
    pub ttft_limit: Option<Mark>,
    /// The good requests drawn, as an SVG path of dots (`M x y h0`, drawn with round caps).
    pub good_path: String,
    /// The requests that missed, as an SVG path of crosses.
    pub miss_path: String,
    /// What the plot shows, in words (its caption and accessible name).
    pub caption: String,
}

/// The plot of `requests` judged on `slo` (see the module documentation). A request with one
/// output token has no TPOT and is not drawn; failed requests are not drawn; both are counted in
/// the caption, as are the misses on an end-to-end limit (drawn as crosses where they fall).
pub fn requests_plot(requests: &Requests, slo: &RequestSlo) -> RequestsPlot {
    let (left, top, right, bottom) = PLOT;
    let a = attainment(requests, slo);
    let with_tpot: Vec<(f64, f64, bool)> = requests
        .completed
        .iter()
        .filter_map(|r| Some((r.tpot_ms()?, r.ttft_ms, slo.is_met_by(r))))
        .collect();
    let misses = with_tpot.iter().filter(|d| !d.2).count();
    let thinned = Thinned::of(with_tpot.len() - misses, misses);
    let (mut good_seen, mut miss_seen) = (0usize, 0usize);
    let drawn: Vec<(f64, f64, bool)> = with_tpot
        .into_iter()
        .filter(|&(_, _, good)| {
            let (seen, every) = match good {
                true => (&mut good_seen, thinned.good_every),
                false => (&mut miss_seen, thinned.miss_every),
            };
            *seen += 1;
            (*seen - 1) % every == 0
        })
        .collect();
    let lines = [Some(slo.tpot_max_ms), slo.ttft_max_ms];
    let x_axis = axis(&mut drawn.iter().map(|d| d.0).chain(lines[0]));
    let y_axis = axis(&mut drawn.iter().map(|d| d.1).chain(lines[1]));
    let ((x_lo, x_top), (y_lo, y_top)) = (x_axis.domain, y_axis.domain);
    // Within the plot, whatever a value (one past ±10^300 is beyond its axis).
    let x = |v: f64| (left + (v - x_lo) / (x_top - x_lo) * (right - left)).clamp(left, right);
    let y = |v: f64| (bottom - (v - y_lo) / (y_top - y_lo) * (bottom - top)).clamp(top, bottom);
    let mut good_path = String::new();
    let mut miss_path = String::new();
    for (tpot, ttft, good) in &drawn {
        let (px, py) = (x(*tpot), y(*ttft));
        match good {
            true => good_path.push_str(&format!("M{} {}h0", svg(px), svg(py))),
            false => miss_path.push_str(&format!(
                "M{} {}l6 6m0-6l-6 6",
                svg(px - 3.0),
                svg(py - 3.0)
            )),
        }
    }
    let ticks = |values: Vec<f64>, at: &dyn Fn(f64) -> f64| -> Vec<Mark> {
        values
            .into_iter()
            .map(|v| Mark {
                pos: at(v),
                label: tick_label(v),
            })
            .collect()
    };
    RequestsPlot {
        x_ticks: ticks(x_axis.values, &x),
        y_ticks: ticks(y_axis.values, &y),
        target: Mark {
            pos: x(slo.tpot_max_ms),
            label: format!("target {} ms", ms(slo.tpot_max_ms)),
        },
        ttft_limit: slo.ttft_max_ms.map(|max| Mark {
            pos: y(max),
            label: format!("TTFT limit {} ms", ms(max)),
        }),
        good_path,
        miss_path,
        caption: caption(&a, slo, thinned),
    }
}

/// The requests with a TPOT, good and missed, and how they are thinned: 1 in `good_every` of the
/// good ones drawn, 1 in `miss_every` of the missed ones.
struct Thinned {
    goods: usize,
    good_every: usize,
    misses: usize,
    miss_every: usize,
}

impl Thinned {
    /// `goods` good and `misses` missed requests thinned to about [`MAX_DRAWN_REQUESTS`] drawn:
    /// the misses first (every one while they fit), the good ones in the room left.
    fn of(goods: usize, misses: usize) -> Thinned {
        let miss_every = misses.div_ceil(MAX_DRAWN_REQUESTS).max(1);
        let good_every = goods
            .div_ceil(
                MAX_DRAWN_REQUESTS
                    .saturating_sub(misses / miss_every)
                    .max(1),
            )
            .max(1);
        Thinned {
            goods,
            good_every,
            misses,
            miss_every,
        }
    }
}

/// The scatter's caption: what is drawn, the misses by cause, what is not drawn.
fn caption(a: &Attainment, slo: &RequestSlo, thinned: Thinned) -> String {
    let Thinned {
        goods,
        good_every,
        misses,
        miss_every,
    } = thinned;
    let n = |v: u64| level_text(v as f64);
    let mut parts = vec![format!(
        "{} of {} requests good. Each completed request is a mark: its TPOT across, its TTFT up; \
         a dot is good, a cross missed",
        n(a.good),
        n(a.issued)
    )];
    for (count, what) in [
        (
            a.tpot_misses,
            format!(
                "over the target of {} ms per token (slow decodes)",
                ms(slo.tpot_max_ms)
            ),
        ),
        (
            a.ttft_misses,
            format!(
                "over the TTFT limit of {} ms (long waits)",
                ms(slo.ttft_max_ms.unwrap_or(0.0))
            ),
        ),
        (
            a.e2e_misses,
            format!(
                "over the end-to-end limit of {} ms",
                ms(slo.e2e_max_ms.unwrap_or(0.0))
            ),
        ),
    ] {
        if count > 0 {
            parts.push(format!("{} {what}", n(count)));
        }
    }
    let one_token = a.completed - (goods + misses) as u64;
    let failed = a.issued - a.completed;
    for (count, what) in [
        (one_token, "with one output token (no TPOT)"),
        (failed, "failed or incomplete"),
    ] {
        if count > 0 {
            parts.push(format!("{} {what}, not drawn", n(count)));
        }
    }
    for (count, every, what) in [(goods, good_every, "good"), (misses, miss_every, "missed")] {
        if every > 1 {
            parts.push(format!(
                "of the {} {what} requests, 1 in {} is drawn ({})",
                n(count as u64),
                every,
                n(count.div_ceil(every) as u64)
            ));
        }
    }
    format!("{}.", parts.join("; "))
}

/// A number of ms in a label, to 4 significant digits: grouped from 1,000 (`5,000`, `14,290`),
/// else trimmed (`142.9`, `12.5`).
fn ms(v: f64) -> String {
    match v >= 1000.0 {
        true => {
            let unit = 10f64.powf(v.log10().floor() - 3.0);
            grouped((v / unit).round() * unit, 0)
        }
        false => trimmed(v, 4),
    }
}

/// An axis of the scatter over `values` (from 0 up; a value not finite is left out): from 5%
/// below the lowest to 5% above the highest, rounded out to round ticks, at most six of them
/// ([`nice_ticks`]).
fn axis(values: &mut dyn Iterator<Item = f64>) -> Ticks {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    let lo = if lo.is_finite() {
        (lo * 0.95).max(0.0)
    } else {
        0.0
    };
    nice_ticks(Spacing::Linear, (lo, hi * 1.05), 6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::attainment::tests::request;

    #[test]
    fn an_axis_spans_its_values_5_percent_past_them_between_round_ticks() {
        let of = |values: &[f64]| axis(&mut values.iter().copied());
        // 0 to 40 × 1.05 = 42: steps of 10 to 50.
        let t = of(&[0.0, 40.0]);
        assert_eq!(
            (t.domain, t.values),
            ((0.0, 50.0), vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0])
        );
        // 10 × 0.95 = 9.5 to 20 × 1.05 = 21: steps of 5 from 5 to 25.
        assert_eq!(of(&[10.0, 20.0, 15.0]).domain, (5.0, 25.0));
        assert_eq!(of(&[100.0, 1900.0]).domain, (0.0, 2000.0));
        // No value, or none finite: 0 to 1.
        assert_eq!(of(&[]).domain, (0.0, 1.0));
        assert_eq!(of(&[f64::NAN, f64::INFINITY]).domain, (0.0, 1.0));
    }

    #[test]
    fn ms_labels_keep_four_significant_digits() {
        assert_eq!(
            (ms(142.857_142_857), ms(5000.0), ms(12.5)),
            ("142.9".into(), "5,000".into(), "12.5".into())
        );
        assert_eq!(
            (ms(14_285.714), ms(12_345.678)),
            ("14,290".into(), "12,350".into())
        );
    }

    #[test]
    fn levels_are_spaced_evenly_and_p_is_a_line() {
        let a = |good, issued| Attainment {
            good,
            issued,
            completed: issued,
            tpot_misses: issued - good,
            ..Attainment::default()
        };
        let plot = attainment_plot(&[(1.0, a(200, 200)), (64.0, a(150, 200))], 95.0);
        // The plot is 404 wide: two slots of 202, dots at their middles.
        assert_eq!((plot.dots[0].x, plot.dots[1].x), (157.0, 359.0));
        // 100% at the top (28), 75% a quarter of 172 down, 95% at 36.6.
        assert_eq!((plot.dots[0].y, plot.dots[1].y), (28.0, 71.0));
        assert!((plot.p_line.pos - 36.6).abs() < 1e-9);
        assert_eq!(plot.p_line.label, "P = 95%");
        assert_eq!((plot.dots[0].meets, plot.dots[1].meets), (true, false));
        assert_eq!(
            crate::core::text::attainment_text::level_dot_text(&plot.dots[1], 95.0, "concurrency"),
            "64 concurrency: 150 of 200 requests good (75%; 95% asked; missed: 50 on TPOT)"
        );
        assert_eq!(plot.line, "157.0,28.0 359.0,71.0");
        assert_eq!(plot.x_ticks[1].label, "64");
    }

    #[test]
    fn the_scatter_puts_slow_decodes_right_of_the_target_and_long_waits_above_the_limit() {
        let requests = Requests::new(
            vec![
                request(100.0, 1090.0, 100),  // TPOT 10, good
                request(100.0, 2080.0, 100),  // TPOT 20: slow decode
                request(1900.0, 2890.0, 100), // TPOT 10, TTFT 1,900: long wait
                request(300.0, 300.0, 1),     // one token: not drawn
            ],
            5,
        );
        let slo = RequestSlo {
            tpot_max_ms: 15.0,
            ttft_max_ms: Some(1000.0),
            e2e_max_ms: None,
        };
        let plot = requests_plot(&requests, &slo);
        // TPOT 10 to 20 ms and the target 15 (9.5 to 21 with 5%): from 5 to 25 in steps of 5,
        // over 404 units.
        let labels = |m: &[Mark]| m.iter().map(|t| t.label.clone()).collect::<Vec<_>>();
        assert_eq!(labels(&plot.x_ticks), ["5", "10", "15", "20", "25"]);
        // TTFT 100 to 1,900 and the limit 1,000 (95 to 1,995): 0 to 2,000 in steps of 500, over
        // 172 units.
        assert_eq!(labels(&plot.y_ticks), ["0", "500", "1k", "1.5k", "2k"]);
        // (10, 100): x 56 + 5/20 × 404 = 157, y 200 − 100/2000 × 172 = 191.4.
        assert_eq!(plot.good_path, "M157.0 191.4h0");
        // (10, 1,900) and (20, 100), in TPOT order, each a cross from 3 units up and left of
        // its centre: (157, 36.6) and (359, 191.4).
        assert_eq!(
            plot.miss_path,
            "M154.0 33.6l6 6m0-6l-6 6M356.0 188.4l6 6m0-6l-6 6"
        );
        assert_eq!(plot.target.pos, 258.0);
        assert_eq!(plot.target.label, "target 15 ms");
        assert_eq!(
            plot.ttft_limit.map(|m| (m.pos, m.label)),
            Some((114.0, "TTFT limit 1,000 ms".to_string()))
        );
        assert_eq!(
            plot.caption,
            "2 of 5 requests good. Each completed request is a mark: its TPOT across, its TTFT \
             up; a dot is good, a cross missed; 1 over the target of 15 ms per token (slow \
             decodes); 1 over the TTFT limit of 1,000 ms (long waits); 1 with one output token \
             (no TPOT), not drawn; 1 failed or incomplete, not drawn."
        );
    }

    #[test]
    fn a_large_level_draws_every_miss_and_every_kth_good_request() {
        let mut completed = vec![request(0.0, 99.0, 100); 45_000]; // TPOT 1: good
        completed.extend(vec![request(0.0, 990.0, 100); 5]); // TPOT 10: slow
        let requests = Requests::new(completed, 45_005);
        let slo = RequestSlo {
            tpot_max_ms: 5.0,
            ttft_max_ms: None,
            e2e_max_ms: None,
        };
        let plot = requests_plot(&requests, &slo);
        // 19,995 dots are left for 45,000 good requests: every 3rd, 15,000 of them.
        assert_eq!(plot.good_path.matches('M').count(), 15_000);
        assert_eq!(plot.miss_path.matches('M').count(), 5);
        assert!(plot
            .caption
            .ends_with("of the 45,000 good requests, 1 in 3 is drawn (15,000)."));
    }
}
