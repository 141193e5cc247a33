//! JSON numbers read as serde_json reads them (with `float_roundtrip`), from their text: their
//! grammar, then the exact value ([`number`]), with a quick path for the plain ones of a list
//! ([`plain_number`]).

use lexical_parse_float::FromLexical;
use serde_json::Value;

/// A JSON number as serde_json reads it: a whole number that fits `u64` (not negative) or
/// `i64` (negative), else a float.
#[derive(Clone, Copy)]
pub(super) enum Number {
    Unsigned(u64),
    Negative(i64),
    Float(f64),
}

impl Number {
    pub(super) fn value(self) -> Value {
        match self {
            Number::Unsigned(n) => Value::from(n),
            Number::Negative(n) => Value::from(n),
            Number::Float(f) => Value::from(f),
        }
    }

    /// As a gap reads it: `as f64`, as serde_json's `visit_i64`/`visit_u64` hand it on.
    pub(super) fn float(self) -> f64 {
        match self {
            Number::Unsigned(n) => n as f64,
            Number::Negative(n) => n as f64,
            Number::Float(f) => f,
        }
    }
}

/// True for a byte a JSON number can hold.
pub(super) fn in_number(b: u8) -> bool {
    matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
}

/// The digits at the start of `t`: how many.
pub(super) fn digits(t: &[u8]) -> usize {
    t.iter().take_while(|b| b.is_ascii_digit()).count()
}

/// True when `t` is one JSON number, whole: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
/// Returns whether it has a fraction or an exponent too.
pub(super) fn grammar(t: &[u8]) -> Option<bool> {
    let t = t.strip_prefix(b"-").unwrap_or(t);
    let whole = digits(t);
    if whole == 0 || (t[0] == b'0' && whole > 1) {
        return None;
    }
    let mut rest = &t[whole..];
    let mut float = false;
    if let Some(after) = rest.strip_prefix(b".") {
        let n = digits(after);
        if n == 0 {
            return None;
        }
        rest = &after[n..];
        float = true;
    }
    if let Some((b'e' | b'E', after)) = rest.split_first() {
        let after = after
            .strip_prefix(b"+")
            .or_else(|| after.strip_prefix(b"-"))
            .unwrap_or(after);
        let n = digits(after);
        if n == 0 {
            return None;
        }
        rest = &after[n..];
        float = true;
    }
    rest.is_empty().then_some(float)
}

/// How many bytes of JSON white space `t` starts with.
pub(super) fn blank(t: &[u8]) -> usize {
    t.iter()
        .take_while(|b| matches!(b, b' ' | b'\n' | b'\t' | b'\r'))
        .count()
}

/// Powers of ten a float holds exactly.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// A JSON number at the start of `t`, in one pass: its length and value as serde_json reads
/// it, when it is whole (a byte that cannot continue it follows) and a float is in range;
/// `None` otherwise (the number is then read by [`number`], or is not one). A float whose
/// significant digits make at most 2^53, times a power of ten up to 10^22, is exact by one
/// multiplication or division, hence correctly rounded (Clinger's fast path); others are
/// parsed by lexical.
pub(super) fn plain_number(t: &[u8]) -> Option<(usize, Number)> {
    let negative = t.first() == Some(&b'-');
    let mut at = usize::from(negative);
    // The significant digits, up to 19 (leading zeros dropped), the power of ten they are
    // scaled by, and whether more digits were dropped.
    let (mut mantissa, mut significant, mut exponent, mut dropped) = (0u64, 0u32, 0i64, false);
    let mut digits = |t: &[u8], at: &mut usize, fraction: bool| {
        let start = *at;
        while let Some(&d @ b'0'..=b'9') = t.get(*at) {
            *at += 1;
            if significant == 0 && d == b'0' {
                exponent -= i64::from(fraction);
            } else if significant < 19 {
                mantissa = mantissa * 10 + u64::from(d - b'0');
                significant += 1;
                exponent -= i64::from(fraction);
            } else {
                dropped = true;
                exponent += i64::from(!fraction);
            }
        }
        *at > start
    };
    if !digits(t, &mut at, false)
        || (t[usize::from(negative)] == b'0' && at > usize::from(negative) + 1)
    {
        return None;
    }
    let whole = at;
    if t.get(at) == Some(&b'.') {
        at += 1;
        if !digits(t, &mut at, true) {
            return None;
        }
    }
    if let Some(b'e' | b'E') = t.get(at) {
        at += 1;
        let sign = t.get(at).filter(|b| matches!(b, b'+' | b'-')).copied();
        at += usize::from(sign.is_some());
        let start = at;
        let mut power = 0i64;
        while let Some(&d @ b'0'..=b'9') = t.get(at) {
            power = (power * 10 + i64::from(d - b'0')).min(1 << 32);
            at += 1;
        }
        if at == start {
            return None;
        }
        exponent += if sign == Some(b'-') { -power } else { power };
    }
    if in_number(*t.get(at)?) {
        return None;
    }
    let text = &t[..at];
    if at == whole {
        return number(text).map(|n| (at, n));
    }
    let f = if !dropped && mantissa <= 1 << 53 && (-22..=22).contains(&exponent) {
        let power = EXACT_POWERS[exponent.unsigned_abs() as usize];
        let f = if exponent < 0 {
            mantissa as f64 / power
        } else {
            mantissa as f64 * power
        };
        if negative {
            -f
        } else {
            f
        }
    } else {
        f64::from_lexical(text).ok()?
    };
    f.is_finite().then_some((at, Number::Float(f)))
}

/// The number `t` as serde_json reads it (with `float_roundtrip`: a float correctly rounded);
/// `None` for a text that is not one number, or a float out of range.
pub(super) fn number(t: &[u8]) -> Option<Number> {
    let float = grammar(t)?;
    let negative = t[0] == b'-';
    if !float {
        let whole = if negative { &t[1..] } else { t };
        let parsed = whole.iter().try_fold(0u64, |n, d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        });
        if let Some(n) = parsed {
            if !negative {
                return Some(Number::Unsigned(n));
            }
            // serde_json: `-0` and below `i64::MIN` are floats.
            let neg = (n as i64).wrapping_neg();
            return Some(if neg >= 0 {
                Number::Float(-(n as f64))
            } else {
                Number::Negative(neg)
            });
        }
    }
    let f = f64::from_lexical(t).ok()?;
    f.is_finite().then_some(Number::Float(f))
}
