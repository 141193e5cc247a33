//! Every chart's ticks: [`nice_ticks`], the one tick function (log, ratio, linear, whole
//! numbers, hours; at most [`MAX_TICKS`] on any domain), and [`tick_label`], a tick's short text.

use crate::core::model::format::{trimmed, PLAIN_BELOW, PLAIN_FROM};

/// At most this many ticks on any axis of any chart, whatever its domain: an axis's ticks are
/// bounded by construction ([`nice_ticks`]), never counted from the data's span.
pub const MAX_TICKS: usize = 12;

/// How an axis places its values, for [`nice_ticks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spacing {
    /// By their log10, over the domain as given: mantissas 1 to 9, {1, 2, 3, 5}, {1, 2, 5} or 1
    /// in each decade, or every k-th decade over many.
    Log,
    /// A ratio by its log10 (B/A), as [`Spacing::Log`]; over less than a decade (around 1×),
    /// the steps of [`Spacing::Linear`] within it where they give more ticks (0.8, 1, 1.2, 1.4).
    Ratio,
    /// Linearly, the domain rounded out to a tick at each end: steps of 1, 2, 2.5 or 5 × a
    /// power of ten.
    Linear,
    /// As [`Spacing::Linear`], in steps of whole numbers (1, 2 or 5 × a power of ten).
    Whole,
    /// Hours over the domain as given: every 0.25, 0.5, 1, 2, 3, 4, 6, 12, 24 or 48 hours, then
    /// 1, 2 or 5 × a power of ten weeks.
    Hours,
}

/// An axis's ticks and the domain it draws.
#[derive(Clone, Debug, PartialEq)]
pub struct Ticks {
    /// The lowest and highest value the axis draws: the domain given, rounded out to the first
    /// and last tick for [`Spacing::Linear`] and [`Spacing::Whole`].
    pub domain: (f64, f64),
    /// The ticks' values, ascending, at most `max` of [`nice_ticks`] and at most [`MAX_TICKS`].
    pub values: Vec<f64>,
}

/// The one tick function of every chart: "nice" values over `[lo, hi]` for an axis of
/// `spacing`, at most `max` of them whatever the domain (`max` taken from 2 to [`MAX_TICKS`],
/// from 3 where the domain is rounded out to ticks), each an exact decimal number (`0.2`, `50`,
/// `2000`), not float noise.
///
/// A log domain must be positive and finite (else no tick). Any other is taken within
/// ±10^300 (a bound not finite as 0); a linear one empty or too narrow (a point, equal points,
/// a span under a billionth of its values) is widened to a tenth of its value above it (0 to 1
/// at 0), an hours one has one tick then, its start.
// Inlined: each chart's call names its spacing, so it keeps only that spacing's code (the
// trade-off chart's log ticks on the page's first load, the others' loaded on demand).
#[inline(always)]
pub fn nice_ticks(spacing: Spacing, domain: (f64, f64), max: usize) -> Ticks {
    let (lo, hi) = domain;
    let max = max.clamp(2, MAX_TICKS);
    match spacing {
        Spacing::Log => Ticks {
            domain: (lo, hi),
            values: log_ticks(lo, hi, max),
        },
        Spacing::Ratio => {
            let mut values = log_ticks(lo, hi, max);
            if lo > 0.0 && hi > lo && hi < lo * 10.0 {
                let linear = inside(Spacing::Linear, (lo, hi), max);
                if linear.len() > values.len() {
                    values = linear;
                }
            }
            Ticks {
                domain: (lo, hi),
                values,
            }
        }
        Spacing::Linear | Spacing::Whole => {
            // Two ticks cannot always round a domain out (one across 0 needs three).
            let max = max.max(3);
            let (lo, hi) = widened(lo, hi);
            let rounded = steps(spacing, hi - lo, max)
                .map(|s| (s, (lo / s.value()).floor(), (hi / s.value()).ceil()))
                .find(|&(_, k0, k1)| k1 - k0 < max as f64);
            match rounded {
                Some((step, k0, k1)) => Ticks {
                    domain: (step.times(k0), step.times(k1)),
                    values: (0..=(k1 - k0) as usize)
                        .map(|i| step.times(k0 + i as f64))
                        .collect(),
                },
                None => Ticks {
                    domain: (lo, hi),
                    values: vec![lo, hi],
                },
            }
        }
        Spacing::Hours => {
            let (lo, hi) = (bounded(lo), bounded(hi));
            Ticks {
                domain: (lo, hi),
                values: match inside(spacing, (lo, hi), max) {
                    none if none.is_empty() => vec![lo],
                    values => values,
                },
            }
        }
    }
}

/// `[lo, hi]` within ±10^300 (a bound not finite as 0), in order, an empty or too narrow span
/// widened to a tenth of its value above it (0 to 1 at 0): see [`nice_ticks`].
fn widened(lo: f64, hi: f64) -> (f64, f64) {
    let (lo, hi) = (bounded(lo).min(bounded(hi)), bounded(lo).max(bounded(hi)));
    if hi - lo > lo.abs().max(hi.abs()) * 1e-9 {
        (lo, hi)
    } else if lo == 0.0 {
        (0.0, 1.0)
    } else {
        (lo, lo + lo.abs() * 0.1)
    }
}

/// `v` within ±10^300, 0 when it is not finite.
fn bounded(v: f64) -> f64 {
    if v.is_finite() {
        v.clamp(-1e300, 1e300)
    } else {
        0.0
    }
}

/// The multiples of the first step of `spacing` that puts at most `max` of them within
/// `[lo, hi]` (finite), ascending; none where the span is under a billionth of its values
/// (their multiples would not be told apart).
#[inline(always)]
fn inside(spacing: Spacing, domain: (f64, f64), max: usize) -> Vec<f64> {
    let (lo, hi) = domain;
    if hi - lo <= lo.abs().max(hi.abs()) * 1e-9 {
        return Vec::new();
    }
    steps(spacing, hi - lo, max)
        .map(|s| (s, (lo / s.value()).ceil(), (hi / s.value()).floor()))
        .find(|&(_, k0, k1)| k1 - k0 < max as f64)
        .map_or_else(Vec::new, |(s, k0, k1)| {
            (0..=(k1 - k0).max(0.0) as usize)
                .map(|i| s.times(k0 + i as f64))
                .filter(|v| (lo..=hi).contains(v))
                .collect()
        })
}

/// A step between ticks, an exact decimal: `mantissa × 10^exponent`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    mantissa: u32,
    exponent: i32,
}

impl Step {
    /// Its value.
    fn value(self) -> f64 {
        self.times(1.0)
    }

    /// `k` steps (`k` a whole number), rounded once: `3 × 0.1` is `0.3`.
    fn times(self, k: f64) -> f64 {
        let n = k * f64::from(self.mantissa);
        if self.exponent >= 0 {
            n * 10f64.powi(self.exponent)
        } else {
            n / 10f64.powi(-self.exponent)
        }
    }
}

/// The steps an axis of `spacing` may take over `span` (finite, above 0), ascending from the
/// first that puts at most `max` ticks in it (`span ÷ (max − 1)` or more), over four decades:
/// enough to grow past the span, so that a search over them ends.
// Inlined, as [`nice_ticks`]: each chart keeps only the steps of its own axes.
#[inline(always)]
fn steps(spacing: Spacing, span: f64, max: usize) -> impl Iterator<Item = Step> {
    let rough = span / (max - 1) as f64;
    // The steps below the first decade, the mantissas of each decade, and its unit.
    let (below, decade, unit): (&[Mantissa], &[Mantissa], f64) = match spacing {
        Spacing::Log | Spacing::Ratio | Spacing::Linear => {
            (&[], &[(1, 0), (2, 0), (25, -1), (5, 0)], 1.0)
        }
        Spacing::Whole => (&[], &[(1, 0), (2, 0), (5, 0)], 1.0),
        Spacing::Hours => (&HOUR_STEPS, &[(168, 0), (336, 0), (840, 0)], 168.0),
    };
    let power = (rough / unit).log10().floor().clamp(-330.0, 330.0) as i32;
    // Whole numbers, and weeks, from 1.
    let from = match spacing {
        Spacing::Whole | Spacing::Hours => power.max(0),
        _ => power,
    };
    below
        .iter()
        .copied()
        .chain((from..from + 4).flat_map(move |p| decade.iter().map(move |&(m, e)| (m, p + e))))
        .map(|(mantissa, exponent)| Step { mantissa, exponent })
        .filter(move |s| s.value() >= rough && s.value().is_finite())
}

/// A step's mantissa and its exponent's offset from its decade's: `(25, -1)` is 2.5 × the
/// decade's power of ten.
type Mantissa = (u32, i32);

/// The steps of an hours axis below a week: 0.25, 0.5, 1, 2, 3, 4, 6, 12, 24 and 48 hours.
const HOUR_STEPS: [Mantissa; 10] = [
    (25, -2),
    (5, -1),
    (1, 0),
    (2, 0),
    (3, 0),
    (4, 0),
    (6, 0),
    (12, 0),
    (24, 0),
    (48, 0),
];

/// "Nice" ticks for a log axis over `[min, max]`: mantissas from the richest of
/// {1..9}, {1, 2, 3, 5}, {1, 2, 5}, {1} that gives at most `max_ticks` ticks, ascending; over
/// more decades than that, every k-th decade from the first. Values are exact decimal numbers
/// (`0.2`, `50`, `2000`), not float noise.
fn log_ticks(min: f64, max: f64, max_ticks: usize) -> Vec<f64> {
    if !(min > 0.0 && max > min && min.is_finite() && max.is_finite()) {
        return Vec::new();
    }
    const SETS: [&[u32]; 4] = [
        &[1, 2, 3, 4, 5, 6, 7, 8, 9],
        &[1, 2, 3, 5],
        &[1, 2, 5],
        &[1],
    ];
    let first_decade = min.log10().floor() as i32;
    let last_decade = max.log10().floor() as i32;
    let mut chosen = Vec::new();
    for set in SETS {
        // At most the 650 decades of a float: bounded work.
        chosen = (first_decade..=last_decade)
            .flat_map(|exponent| {
                set.iter()
                    .map(move |&mantissa| Step { mantissa, exponent }.value())
            })
            .filter(|&v| v >= min * (1.0 - 1e-12) && v <= max * (1.0 + 1e-12))
            .collect();
        if chosen.len() <= max_ticks {
            break;
        }
    }
    if chosen.len() > max_ticks {
        // Even one tick per decade is too many: keep every k-th decade.
        let step = chosen.len().div_ceil(max_ticks.max(1));
        chosen = chosen.into_iter().step_by(step).collect();
    }
    chosen
}

/// Short tick label: `0.5`, `20`, `500`, `1k`, `2.5k`, `10k`, `1M`.
pub fn tick_label(value: f64) -> String {
    // Outside the plain range, the one rule of `format` (`1e-320`, `1.5e300`), not 300 digits.
    if value != 0.0 && !(PLAIN_FROM..PLAIN_BELOW).contains(&value.abs()) {
        return trimmed(value, 3);
    }
    let (scaled, suffix) = if value >= 1e6 {
        (value / 1e6, "M")
    } else if value >= 1e3 {
        (value / 1e3, "k")
    } else {
        (value, "")
    };
    let rounded = (scaled * 1000.0).round() / 1000.0;
    format!("{rounded}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_choose_the_richest_set_that_fits() {
        assert_eq!(log_ticks(15.0, 65.0, 8), vec![20.0, 30.0, 40.0, 50.0, 60.0]);
        assert_eq!(
            log_ticks(3.0, 150.0, 8),
            vec![3.0, 5.0, 10.0, 20.0, 30.0, 50.0, 100.0]
        );
        assert_eq!(log_ticks(3.0, 150.0, 6), vec![5.0, 10.0, 20.0, 50.0, 100.0]);
        assert_eq!(
            log_ticks(1.0, 100000.0, 6),
            vec![1.0, 10.0, 100.0, 1000.0, 10000.0, 100000.0]
        );
        assert_eq!(log_ticks(1.0, 1e8, 3), vec![1.0, 1000.0, 1e6]);
        assert_eq!(log_ticks(0.15, 0.65, 3), vec![0.2, 0.3, 0.5]);
        assert!(log_ticks(0.0, 10.0, 5).is_empty());
        assert!(log_ticks(10.0, 10.0, 5).is_empty());
        assert!(log_ticks(f64::NAN, 10.0, 5).is_empty());
    }

    #[test]
    fn linear_ticks_round_the_domain_out_to_steps_of_1_2_2_5_or_5() {
        let t = |lo, hi, max| nice_ticks(Spacing::Linear, (lo, hi), max);
        // 0 to 42 in at most six: 8.4 apart at least, so 10, from 0 to 50.
        assert_eq!(
            t(0.0, 42.0, 6),
            Ticks {
                domain: (0.0, 50.0),
                values: vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0]
            }
        );
        // 9.5 to 21: 2.5 would take seven ticks (7.5 to 22.5), 5 takes five.
        assert_eq!(t(9.5, 21.0, 6).domain, (5.0, 25.0));
        // 0 to 10 in five: 2.5 apart; exact decimals, not 0.30000000000000004.
        assert_eq!(t(0.0, 10.0, 5).values, vec![0.0, 2.5, 5.0, 7.5, 10.0]);
        assert_eq!(t(0.0, 0.3, 4).values, vec![0.0, 0.1, 0.2, 0.3]);
        // A point, equal points: a tenth of the value above it; 0 to 1 at 0.
        assert_eq!(t(100.0, 100.0, 6).domain, (100.0, 110.0));
        assert_eq!(t(0.0, 0.0, 5).domain, (0.0, 1.0));
        assert_eq!(t(f64::NAN, f64::INFINITY, 5).domain, (0.0, 1.0));
        // A domain across 0 in three ticks (two would not reach both ends).
        assert_eq!(t(-0.1, 0.1, 2).values, vec![-0.1, 0.0, 0.1]);
        // Whole numbers: replicas 0 to 3 in five ticks are 0, 1, 2, 3, not 0.75 apart.
        let whole = nice_ticks(Spacing::Whole, (0.0, 3.0), 5);
        assert_eq!(whole.values, vec![0.0, 1.0, 2.0, 3.0]);
        assert_eq!(nice_ticks(Spacing::Whole, (0.0, 99.0), 12).values.len(), 11);
    }

    #[test]
    fn ratio_ticks_within_a_decade_take_even_steps_where_they_tick_more() {
        // 0.76 to 1.46 (B/A 0.85 to 1.3, padded): 0.8, 0.9 and 1 by the decade's mantissas
        // (a log axis's ticks); 0.2 apart, four.
        assert_eq!(
            nice_ticks(Spacing::Log, (0.76, 1.46), 6).values,
            vec![0.8, 0.9, 1.0]
        );
        let t = nice_ticks(Spacing::Ratio, (0.76, 1.46), 6);
        assert_eq!(t.values, vec![0.8, 1.0, 1.2, 1.4]);
        assert_eq!(t.domain, (0.76, 1.46));
        // 15 to 65: the mantissas already give five.
        assert_eq!(
            nice_ticks(Spacing::Ratio, (15.0, 65.0), 8).values,
            vec![20.0, 30.0, 40.0, 50.0, 60.0]
        );
        assert!(nice_ticks(Spacing::Ratio, (0.0, 10.0), 5).values.is_empty());
    }

    #[test]
    fn hours_are_ticked_every_0_25_to_48_hours_then_by_weeks() {
        let hours = |h, most| nice_ticks(Spacing::Hours, (0.0, h), most).values;
        assert_eq!(hours(1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(hours(24.0, 5), vec![0.0, 6.0, 12.0, 18.0, 24.0]);
        // Four weeks in at most three ticks: 336 h (two weeks) apart.
        assert_eq!(hours(672.0, 3), vec![0.0, 336.0, 672.0]);
        assert_eq!(hours(0.0, 8), vec![0.0]);
    }

    #[test]
    fn no_domain_gives_more_than_max_ticks() {
        let extremes = [
            (1e-15, 1e15),
            (5e-324, 1.7e308),
            (1e-15, 1e-15),
            (1e15, 1e15),
            (1e17, 1e17 + 16.0),
            (-1e308, 1e308),
            (3.0, 3.0000000001),
            (f64::MIN_POSITIVE, 1.0),
        ];
        for (lo, hi) in extremes {
            for spacing in [
                Spacing::Log,
                Spacing::Ratio,
                Spacing::Linear,
                Spacing::Whole,
                Spacing::Hours,
            ] {
                for max in [0, 2, 5, 12, 1000] {
                    let t = nice_ticks(spacing, (lo, hi), max);
                    assert!(
                        t.values.len() <= max.clamp(3, MAX_TICKS),
                        "{spacing:?} {lo} {hi} {max}: {t:?}"
                    );
                    assert!(t.values.iter().all(|v| v.is_finite()), "{t:?}");
                    assert!(t.values.windows(2).all(|w| w[0] < w[1]), "{t:?}");
                    assert!(t.domain.0.is_finite() || spacing == Spacing::Hours);
                }
            }
        }
        // 1e-15 to 1e15 on a log axis, 31 decades: every third, eleven ticks.
        let decades = log_ticks(1e-15, 1e15, 12);
        assert_eq!(decades.len(), 11);
        assert_eq!(
            (
                tick_label(decades[0]),
                tick_label(decades[1]),
                tick_label(decades[10])
            ),
            ("1e-15".into(), "1e-12".into(), "1e15".into())
        );
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(0.2), "0.2");
        assert_eq!(tick_label(50.0), "50");
        assert_eq!(tick_label(2000.0), "2k");
        assert_eq!(tick_label(2500.0), "2.5k");
        assert_eq!(tick_label(3_000_000.0), "3M");
        // Extremes by the one rule of `format`: never hundreds of digits.
        assert_eq!(tick_label(1e-320), "1e-320");
        assert_eq!(tick_label(5e-324), "4.94e-324");
        assert_eq!(tick_label(1e308), "1e308");
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(1.5e300), "1.5e300");
    }
}
