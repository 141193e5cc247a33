//! Number formatting for display: units stay with the caller, precision is chosen here so the
//! whole page reads the same way. Hooks carry the unrounded value separately (`data-value`).
//!
//! One rule bounds every figure, whatever the input: a number is written plain from
//! [`PLAIN_FROM`] (0.001) to below [`PLAIN_BELOW`] (10^15), and outside that range (0 aside)
//! with three significant digits and an exponent ([`scientific`]: `1.00e-320`, `1.23e+15` is
//! written `1.23e15`), so no figure runs to hundreds of digits. Drawing coordinates go through
//! [`svg`] (finite, bounded, one decimal).

/// Longest piece of a user's text echoed back in a message, in characters.
pub const ECHO_CHARS: usize = 40;

/// A user's text as a message echoes it: its first [`ECHO_CHARS`] characters, and `…` when it
/// runs longer (text only; never rendered as HTML).
pub fn echo(text: &str) -> String {
    let mut out: String = text.chars().take(ECHO_CHARS).collect();
    if text.chars().nth(ECHO_CHARS).is_some() {
        out.push('…');
    }
    out
}

/// Smallest magnitude written plain (a smaller one, 0 aside, is [`scientific`]).
pub const PLAIN_FROM: f64 = 1e-3;

/// Magnitude from which a number is [`scientific`]: past a thousand trillion digits stop
/// helping.
pub const PLAIN_BELOW: f64 = 1e15;

/// A number with three significant digits and an exponent: `1e-320 -> "1.00e-320"`,
/// `1.2345e18 -> "1.23e18"`; the rule for any figure outside the plain range.
pub fn scientific(value: f64) -> String {
    if !value.is_finite() {
        return not_finite(value);
    }
    format!("{value:.2e}")
}

/// A value past every float (a product of extremes): `∞`, `-∞`, or "not a number".
fn not_finite(value: f64) -> String {
    match value {
        v if v == f64::INFINITY => "∞".to_string(),
        v if v == f64::NEG_INFINITY => "-∞".to_string(),
        _ => "not a number".to_string(),
    }
}

/// True when `value` is written with an exponent: 0 < |value| < [`PLAIN_FROM`], or |value| ≥
/// [`PLAIN_BELOW`].
fn is_scientific(value: f64) -> bool {
    value.is_finite() && value != 0.0 && !(PLAIN_FROM..PLAIN_BELOW).contains(&value.abs())
}

/// A drawing coordinate (an SVG attribute or path point, in px): one decimal, a value that is
/// not finite drawn at 0 and any other kept within ±10^6 px, so that no input draws `NaN` or a
/// number of 300 digits.
pub fn svg(value: f64) -> String {
    let v = if value.is_finite() {
        value.clamp(-1e6, 1e6)
    } else {
        0.0
    };
    format!("{v:.1}")
}

/// A count and its noun, grouped and in the plural but for 1: "1 file", "2,000 rows".
pub fn counted(n: usize, what: &str) -> String {
    format!("{} {what}{}", grouped(n as f64, 0), for_count(n, "", "s"))
}

/// An amount as `shown` (e.g. [`trimmed`]) with its unit, which agrees with the amount as it
/// is shown: `1 GPU-hour`, `0.5 GPU-hours`, `24 GPU-hours` (1.00001 shown as "1" reads "1
/// GPU-hour").
pub fn amount(shown: String, one: &str, many: &str) -> String {
    let unit = if shown == "1" { one } else { many };
    format!("{shown} {unit}")
}

/// The word that agrees with a count: `one` for exactly 1, else `many` ("is"/"are", "a miss"/"misses").
pub fn for_count<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// Rounds to `decimals` places and groups thousands with a comma: `9248.3 -> "9,248"`.
pub fn grouped(value: f64, decimals: usize) -> String {
    if !value.is_finite() {
        return not_finite(value);
    }
    // Past a thousand trillion digits stop helping: an exponent, not 300 digits.
    if value.abs() >= PLAIN_BELOW {
        return scientific(value);
    }
    let text = format!("{:.*}", decimals, value.abs());
    let (int, frac) = match text.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (text.as_str(), None),
    };
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    if value < 0.0 && out.chars().any(|c| c.is_ascii_digit() && c != '0') {
        out.insert(0, '-');
    }
    out
}

/// A number as a link writes it: the shortest text that reads back to the same value, with an
/// exponent where plain digits would run long (`1e-320`, not 322 digits; `2.49` as it is).
pub fn url_number(value: f64) -> String {
    // -0 as 0: a link says what it means, not the sign of a zero.
    let plain = (value + 0.0).to_string();
    if plain.len() > 20 {
        format!("{value:e}")
    } else {
        plain
    }
}

/// `significant` significant digits without exponent: `0.074237 -> "0.0742"` (3),
/// `34.62 -> "34.6"` (3), `1234.6 -> "1,235"` (3: never drops integer digits); outside the
/// plain range, [`scientific`] (`1e-320 -> "1.00e-320"`).
pub fn significant(value: f64, significant: usize) -> String {
    if !value.is_finite() || value == 0.0 {
        return grouped(value, 0);
    }
    if is_scientific(value) {
        return scientific(value);
    }
    let magnitude = value.abs().log10().floor() as i64;
    let decimals = (significant as i64 - 1 - magnitude).max(0) as usize;
    grouped(value, decimals)
}

/// Like [`significant`] but without trailing zeros after the point: `25.0 -> "25"`,
/// `33.30 -> "33.3"`. For numbers inside sentences.
pub fn trimmed(value: f64, digits: usize) -> String {
    let text = significant(value, digits);
    // Zeros are trimmed from the digits, never from an exponent (`1.00e-300 -> "1e-300"`).
    let (digits, exponent) = text.split_at(text.find('e').unwrap_or(text.len()));
    if digits.contains('.') {
        let digits = digits.trim_end_matches('0').trim_end_matches('.');
        format!("{digits}{exponent}")
    } else {
        text
    }
}

/// A sweep level: whole numbers grouped (`4,096`), fractional ones (request rates) with up to 4
/// significant digits (`0.5`, `2.25`).
pub fn level(value: f64) -> String {
    if value.fract() == 0.0 {
        grouped(value, 0)
    } else {
        trimmed(value, 4)
    }
}

/// A size in bytes: `512 bytes`, `12.3 KB`, `4.5 MB`, `2.0 GB` (of 1,024).
pub fn bytes(n: usize) -> String {
    let n = n as f64;
    if n < 1024.0 {
        format!("{n} bytes")
    } else if n < 1024.0 * 1024.0 {
        format!("{:.1} KB", n / 1024.0)
    } else if n < 1024.0 * 1024.0 * 1024.0 {
        format!("{:.1} MB", n / (1024.0 * 1024.0))
    } else {
        format!("{:.1} GB", n / (1024.0 * 1024.0 * 1024.0))
    }
}

/// `1 GPU`, `4 GPUs`; `GPU count not stated` for `None`.
pub fn gpus(count: Option<u32>) -> String {
    match count {
        Some(1) => "1 GPU".to_string(),
        Some(n) => format!("{n} GPUs"),
        None => "GPU count not stated".to_string(),
    }
}

/// Dollars: cents from $1 up, three significant digits below: `5.1177 -> "$5.12"`,
/// `0.07054 -> "$0.0705"`.
pub fn money(v: f64) -> String {
    if v >= 1.0 {
        format!("${}", grouped(v, 2))
    } else {
        format!("${}", significant(v, 3))
    }
}

/// A fraction as a signed percentage with one decimal: `0.042 -> "+4.2%"`.
pub fn percent(fraction: f64) -> String {
    let text = grouped(fraction * 100.0, 1);
    // A sign on a figure that rounds to 0 would read as a change: "0.0%", never "+0.0%".
    if fraction > 0.0 && text.chars().any(|c| !matches!(c, '0' | '.' | ',')) {
        format!("+{text}%")
    } else {
        format!("{text}%")
    }
}

/// A number as written in a message: plain from 0.001 to 1e9, in exponent form outside (a
/// value of 1e300 is not printed with 300 digits).
pub fn short_number(value: f64) -> String {
    if (1e-3..1e9).contains(&value.abs()) || value == 0.0 {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

/// How many of a level's requests failed: "4,068 of 4,800 requests failed", or the share
/// alone where the file does not count them both ("100% of requests failed": none completed).
pub fn failed_text(failed: Option<f64>, issued: Option<f64>, share: f64) -> String {
    match (failed, issued) {
        (Some(f), Some(n)) if n > 0.0 => {
            format!("{} of {} requests failed", level(f), level(n))
        }
        _ => format!("{}% of requests failed", trimmed(share * 100.0, 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_numbers_read_back_and_stay_short() {
        assert_eq!(url_number(2.49), "2.49");
        assert_eq!(url_number(1e-320), "1e-320");
        assert_eq!(url_number(1e-320).parse::<f64>(), Ok(1e-320));
        assert_eq!(url_number(123456789.0), "123456789");
        assert_eq!(url_number(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn grouped_rounds_and_groups() {
        assert_eq!(grouped(9248.3, 0), "9,248");
        assert_eq!(grouped(1234567.891, 2), "1,234,567.89");
        assert_eq!(grouped(999.5, 0), "1,000");
        assert_eq!(grouped(12.0, 1), "12.0");
        assert_eq!(grouped(-1234.0, 0), "-1,234");
        assert_eq!(grouped(-0.01, 1), "0.0");
    }

    #[test]
    fn an_amount_s_unit_agrees_with_the_amount_as_shown() {
        for (value, shown) in [
            (1.0, "1 GPU-hour"),
            (1.000_01, "1 GPU-hour"),
            (0.0, "0 GPU-hours"),
            (0.5, "0.5 GPU-hours"),
        ] {
            assert_eq!(amount(trimmed(value, 4), "GPU-hour", "GPU-hours"), shown);
        }
        let replica_hours = amount(trimmed(1.25, 4), "replica-hour", "replica-hours");
        assert_eq!(replica_hours, "1.25 replica-hours");
    }

    #[test]
    fn significant_keeps_digits() {
        assert_eq!(significant(0.074237, 3), "0.0742");
        assert_eq!(significant(34.62, 3), "34.6");
        assert_eq!(significant(1234.6, 3), "1,235");
        assert_eq!(significant(0.0, 3), "0");
    }

    #[test]
    fn trimmed_drops_trailing_zeros() {
        assert_eq!(trimmed(25.0, 4), "25");
        assert_eq!(trimmed(33.333333, 4), "33.33");
        assert_eq!(trimmed(33.3, 4), "33.3");
        assert_eq!(trimmed(1000.0, 4), "1,000");
        assert_eq!(gpus(Some(1)), "1 GPU");
        assert_eq!(gpus(None), "GPU count not stated");
        assert_eq!(level(4096.0), "4,096");
        assert_eq!(level(0.5), "0.5");
        assert_eq!(level(2.25), "2.25");
        assert_eq!(gpus(Some(8)), "8 GPUs");
    }

    #[test]
    fn every_figure_reads_as_a_person_reads_it_whatever_the_input() {
        // Each writer, over the extremes: the exact text, never more than 16 characters.
        type Writer = (&'static str, fn(f64) -> String);
        let writers: [Writer; 10] = [
            ("grouped 0", |v| grouped(v, 0)),
            ("grouped 2", |v| grouped(v, 2)),
            ("significant 3", |v| significant(v, 3)),
            ("trimmed 4", |v| trimmed(v, 4)),
            ("level", level),
            ("money", money),
            ("percent", percent),
            ("short_number", short_number),
            ("scientific", scientific),
            ("svg", svg),
        ];
        let want: [[&str; 5]; 10] = [
            // 1e-320, 5e-324, 1e308, 0, -1e-320
            ["0", "0", "1.00e308", "0", "0"],
            ["0.00", "0.00", "1.00e308", "0.00", "0.00"],
            ["1.00e-320", "4.94e-324", "1.00e308", "0", "-1.00e-320"],
            ["1e-320", "4.94e-324", "1e308", "0", "-1e-320"],
            ["1e-320", "4.94e-324", "1.00e308", "0", "-1e-320"],
            ["$1.00e-320", "$4.94e-324", "$1.00e308", "$0", "$-1.00e-320"],
            ["0.0%", "0.0%", "+∞%", "0.0%", "0.0%"],
            ["1e-320", "5e-324", "1e308", "0", "-1e-320"],
            ["1.00e-320", "4.94e-324", "1.00e308", "0.00e0", "-1.00e-320"],
            ["0.0", "0.0", "1000000.0", "0.0", "-0.0"],
        ];
        for ((name, write), want) in writers.iter().zip(want) {
            for (v, want) in [1e-320, 5e-324, 1e308, 0.0, -1e-320].into_iter().zip(want) {
                let text = write(v);
                assert_eq!(text, want, "{name}({v:e})");
                assert!(text.chars().count() <= 16, "{name}({v:e}): {text}");
            }
        }
        assert_eq!(svg(f64::NAN), "0.0");
        assert_eq!(
            (grouped(f64::NAN, 1), money(f64::INFINITY)),
            ("not a number".into(), "$∞".into())
        );
        assert_eq!(svg(f64::INFINITY), "0.0");
        assert_eq!(svg(-1e308), "-1000000.0");
        assert_eq!(url_number(5e-324), "5e-324");
        assert_eq!(url_number(1e308), "1e308");
        // The plain range is as before: 0.001 up, below 10^15.
        assert_eq!(significant(0.001234, 3), "0.00123");
        assert_eq!(significant(0.000999, 3), "9.99e-4");
        assert_eq!(money(0.0001 * 100.0 * 730.0), "$7.30");
        assert_eq!(grouped(999_999_999_999_999.0, 0), "999,999,999,999,999");
        assert_eq!(grouped(1e15, 0), "1.00e15");
    }

    #[test]
    fn percent_is_signed() {
        assert_eq!(percent(0.042), "+4.2%");
        assert_eq!(percent(-0.5), "-50.0%");
        assert_eq!(percent(0.0), "0.0%");
    }
}
