//! Reading values out of files: JSON records (absent and `null` stay absent, a number in a string
//! such as `"inf"` or `"12.5"` is read as a number, anything else is an error), lenient JSON
//! text (bare `NaN` / `Infinity`), and CSV rows with their unknown columns.

use serde_json::{Map, Value};

use super::errors::{short, RowError};
use super::grouping::capped;
use super::json::from_text;
use super::lenient::lenient_text;
use super::{Measured, Parsed};
use crate::core::model::deployment::LevelKind;

/// One JSON object being read.
pub(crate) struct Record<'a>(pub &'a Map<String, Value>);

impl<'a> Record<'a> {
    /// The number at `key`: `Ok(None)` when absent, null or not finite (`"inf"`), `Err` when it
    /// is some other text or type.
    pub fn num(&self, key: &str) -> Result<Option<f64>, RowError> {
        number(key, self.0.get(key))
    }

    /// The number at `key`, which the row cannot do without: [`RowError::Missing`] names `key`
    /// when it is absent, null or not finite.
    pub fn required(&self, key: &str) -> Result<f64, RowError> {
        self.num(key)?.ok_or_else(|| RowError::missing(key))
    }

    /// The level at `key`: [`RowError::NoLevel`] names `key` when it is absent, null or not
    /// finite.
    pub fn level(&self, key: &str) -> Result<f64, RowError> {
        self.num(key)?
            .ok_or_else(|| RowError::NoLevel { keys: key.into() })
    }

    /// Like [`Record::num`] but an error becomes `None` and is pushed (for optional figures: a
    /// bad optional field must not throw away the row's good fields).
    pub fn opt(&self, key: &str, errors: &mut Vec<RowError>) -> Option<f64> {
        self.num(key).unwrap_or_else(|e| {
            errors.push(e);
            None
        })
    }

    /// The first of `keys` that holds a number (an error in one is returned).
    pub fn first_num(&self, keys: &[&str]) -> Result<Option<f64>, RowError> {
        for key in keys {
            if let Some(v) = self.num(key)? {
                return Ok(Some(v));
            }
        }
        Ok(None)
    }

    /// The text at `key`, if it is a non-empty string (trimmed).
    pub fn text(&self, key: &str) -> Option<&'a str> {
        self.0
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|t| !t.is_empty())
    }

    /// The text at `key` ([`capped`]), or `absent` (a field's "not stated" text).
    pub fn text_or(&self, key: &str, absent: &str) -> String {
        capped(self.text(key).unwrap_or(absent))
    }

    /// The text at `key` ([`capped`]), or a number or boolean written as text (`8`, `true`).
    pub fn label(&self, key: &str) -> Option<String> {
        match self.0.get(key)? {
            Value::String(s) => Some(capped(s.trim())).filter(|s| !s.is_empty()),
            Value::Number(n) => Some(n.to_string()),
            Value::Bool(b) => Some(b.to_string()),
            _ => None,
        }
    }

    /// The boolean at `key` (`true`/`false`, or the text `true`/`false`).
    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.0.get(key)? {
            Value::Bool(b) => Some(*b),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// A nested object.
    pub fn object(&self, key: &str) -> Option<Record<'a>> {
        self.0.get(key).and_then(Value::as_object).map(Record)
    }
}

/// Reads a JSON value as a number (see [`Record::num`]).
fn number(key: &str, value: Option<&Value>) -> Result<Option<f64>, RowError> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64().filter(|v| v.is_finite())),
        Some(Value::String(s)) => match s.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(Some(v)),
            Ok(_) => Ok(None),
            Err(_) => Err(RowError::NotANumber {
                key: short(key),
                text: Some(short(&s.to_string())),
            }),
        },
        Some(_) => Err(RowError::NotANumber {
            key: short(key),
            text: None,
        }),
    }
}

/// Parses lenient JSON text ([`super::lenient`]), folding per-request arrays ([`super::json`]).
///
/// Errors: [`RowErrorKind::NumberOutOfRange`] naming the key when a number does not fit a 64-bit
/// float (`1e400`), else [`RowErrorKind::NotJson`] with the parser's reason.
pub(crate) fn parse_json(text: &str) -> Result<Value, RowError> {
    let text = lenient_text(text);
    from_text(&text).map_err(|e| {
        let reason = e.to_string();
        if reason.starts_with("number out of range") {
            if let Some((key, number)) = out_of_range_at(&text, e.line(), e.column()) {
                return RowError::NumberOutOfRange {
                    key: short(&key),
                    number: short(&number.to_string()),
                };
            }
        }
        RowError::NotJson { reason }
    })
}

/// The key and number text at a serde_json error position (1-based line, column).
fn out_of_range_at(text: &str, line: usize, column: usize) -> Option<(String, String)> {
    let line = text.lines().nth(line.checked_sub(1)?)?;
    let before = line.get(..column.min(line.len()))?;
    let colon = before.rfind(':')?;
    let key_end = before[..colon].rfind('"')?;
    let key_start = before[..key_end].rfind('"')?;
    let rest = &line[colon + 1..];
    let number: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        .collect();
    Some((before[key_start + 1..key_end].to_string(), number))
}

/// Reads CSV text row by row (header first; empty cells left out), handing each row to `read`
/// as a [`Record`] of strings with a list for notes on optional values (recorded against the
/// row, which is kept); rows are numbered from 2 (line 1 is the header). A column `known`
/// does not accept is named once as [`RowErrorKind::UnknownColumn`]; a header without data rows
/// is [`RowErrorKind::NoDataRows`].
pub(crate) fn csv_rows(
    file: &str,
    text: &str,
    out: &mut Parsed,
    known: impl Fn(&str) -> bool,
    read: impl Fn(&Record, &mut Vec<RowError>) -> Result<Measured, RowError>,
) {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => {
            return out.problem(
                file,
                None,
                RowError::UnreadableCsv {
                    reason: Some(short(&e.to_string())),
                },
            )
        }
    };
    for header in headers.iter().filter(|h| !h.is_empty() && !known(h)) {
        // A time in seconds where the format reads ms (`p50_itl_s` for `p50_itl_ms`).
        let in_ms = header
            .strip_suffix("_s")
            .map(|stem| format!("{stem}_ms"))
            .filter(|ms| known(ms));
        let error = match in_ms {
            Some(ms) => RowError::UnknownColumn {
                column: short(header),
                meant: Some(short(&ms.to_string())),
            },
            None => RowError::UnknownColumn {
                column: short(header),
                meant: None,
            },
        };
        out.problem(file, None, error);
    }
    let mut rows = 0;
    for (i, record) in reader.records().enumerate() {
        rows += 1;
        if out.full() {
            break;
        }
        let row_no = Some(i + 2);
        match record {
            Ok(record) => {
                if let Some(at) = record.iter().position(|v| v.contains('\0')) {
                    let column = headers.get(at).unwrap_or("?");
                    out.problem(
                        file,
                        row_no,
                        RowError::NulByte {
                            column: short(column),
                        },
                    );
                    continue;
                }
                // Only the columns read, their names cut: a long header is never copied whole
                // into each row.
                let map: Map<String, Value> = headers
                    .iter()
                    .zip(record.iter())
                    .filter(|(h, v)| !v.is_empty() && known(h))
                    .map(|(h, v)| (capped(h), Value::String(v.to_string())))
                    .collect();
                let mut notes = Vec::new();
                match read(&Record(&map), &mut notes) {
                    Ok(m) => out.push(file, row_no, m),
                    Err(e) => out.problem(file, row_no, e),
                }
                for note in notes {
                    out.problem(file, row_no, note);
                }
            }
            Err(e) => out.problem(
                file,
                row_no,
                RowError::UnreadableCsv {
                    reason: Some(short(&e.to_string())),
                },
            ),
        }
    }
    if rows == 0 {
        out.problem(file, None, RowError::NoDataRows);
    }
}

/// The level of a CSV row: its `concurrency`, else its `request_rate`, a positive number (the
/// CSV template and AIPerf's sweep CSV).
///
/// Errors: [`RowErrorKind::NoLevel`] when neither is there, [`RowErrorKind::NotPositive`].
pub(crate) fn csv_level(rec: &Record) -> Result<(f64, LevelKind), RowError> {
    let (key, level, kind) = match (rec.num("concurrency")?, rec.num("request_rate")?) {
        (Some(c), _) => ("concurrency", c, LevelKind::Concurrency),
        (None, Some(r)) => ("request_rate", r, LevelKind::RequestRate),
        (None, None) => {
            return Err(RowError::NoLevel {
                keys: "concurrency (or request_rate)".into(),
            })
        }
    };
    Ok((positive(key, level)?, kind))
}

/// Seconds to milliseconds, keeping absence.
pub(crate) fn s_to_ms(v: Option<f64>) -> Option<f64> {
    v.map(|s| s * 1000.0)
}

/// A positive count as u32 (GPU counts, degrees), if it is one.
pub(crate) fn count(v: Option<f64>) -> Option<u32> {
    v.filter(|x| *x >= 1.0 && x.fract() == 0.0 && *x <= f64::from(u32::MAX))
        .map(|x| x as u32)
}

/// A count read as a whole number (`0` included): `Ok(None)` when absent.
///
/// Errors: [`RowError::NotWhole`] naming the key when it is negative, has a fraction or does
/// not fit a `u32`.
pub(crate) fn whole(key: &str, v: Option<f64>) -> Result<Option<u32>, RowError> {
    match v {
        None => Ok(None),
        Some(x) if x >= 0.0 && x.fract() == 0.0 && x <= f64::from(u32::MAX) => Ok(Some(x as u32)),
        Some(x) => Err(RowError::NotWhole {
            key: short(key),
            value: short(&x.to_string()),
        }),
    }
}

/// The required level and throughput of a run: positive finite numbers.
///
/// Errors: [`RowErrorKind::NotPositive`] naming the key.
pub(crate) fn positive(key: &str, value: f64) -> Result<f64, RowError> {
    if value > 0.0 {
        Ok(value)
    } else {
        Err(RowError::NotPositive {
            key: short(key),
            value: short(&value.to_string()),
        })
    }
}

/// The file name without its folders (`a/b/c.json` -> `c.json`).
pub(crate) fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// The folder part of a file name (`a/b/c.json` -> `a/b`), empty without one.
pub(crate) fn folder(name: &str) -> &str {
    name.rfind(['/', '\\']).map_or("", |i| &name[..i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::RowErrorKind;

    #[test]
    fn numbers_out_of_range_name_their_key() {
        let e = parse_json(
            r#"{"backend":"vllm","model_id":"org/big","max_concurrency":4,"output_throughput":1e400,"median_itl_ms":12}"#,
        )
        .unwrap_err();
        assert_eq!(
            e,
            RowError::NumberOutOfRange {
                key: "output_throughput".into(),
                number: "1e400".into()
            }
        );
        assert_eq!(
            parse_json("{\"a\": ").unwrap_err().kind(),
            RowErrorKind::NotJson
        );
        assert_eq!(
            parse_json("{\"a\": NaN, \"b\": \"NaN\", \"c\": -Infinity}").unwrap(),
            serde_json::json!({"a": null, "b": "NaN", "c": null})
        );
    }

    #[test]
    fn a_lone_surrogate_is_replaced_and_pairs_are_kept() {
        let read = |t: &str| parse_json(t).unwrap();
        assert_eq!(read(r#"{"m":"a\uD800b"}"#)["m"], "a\u{fffd}b");
        assert_eq!(read(r#"{"m":"\uD83D\uDE00"}"#)["m"], "\u{1f600}");
    }

    #[test]
    fn file_names_split_into_folder_and_base() {
        assert_eq!(base_name("a/b/c.json"), "c.json");
        assert_eq!(folder("a/b/c.json"), "a/b");
        assert_eq!(folder("c.json"), "");
        assert_eq!(
            super::super::errors::short(&"x".repeat(50)).chars().count(),
            41
        );
    }
}
