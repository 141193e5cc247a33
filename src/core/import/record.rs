//! Reading numbers out of JSON records: absent and `null` stay absent, a number in a string
//! (`"inf"`, `"12.5"`, as some tools write) is read as a number, anything else is a problem.

use serde_json::{Map, Value};

use super::{Measured, Parsed};

/// One JSON object being read.
pub(crate) struct Record<'a>(pub &'a Map<String, Value>);

impl<'a> Record<'a> {
    /// The number at `key`: `Ok(None)` when absent, null or not finite (`"inf"`), `Err` with a
    /// message when it is some other text or type.
    pub fn num(&self, key: &str) -> Result<Option<f64>, String> {
        match self.0.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64().filter(|v| v.is_finite())),
            Some(Value::String(s)) => match s.trim().parse::<f64>() {
                Ok(v) if v.is_finite() => Ok(Some(v)),
                Ok(_) => Ok(None),
                Err(_) => Err(format!("`{key}` is not a number (\"{}\")", short(s))),
            },
            Some(_) => Err(format!("`{key}` is not a number")),
        }
    }

    /// Like [`Record::num`] but a problem becomes `None` (for optional statistics: a bad
    /// optional field must not throw away the row's good fields). The message is pushed.
    pub fn opt(&self, key: &str, problems: &mut Vec<String>) -> Option<f64> {
        match self.num(key) {
            Ok(v) => v,
            Err(e) => {
                problems.push(e);
                None
            }
        }
    }

    /// The text at `key`, if it is a string.
    pub fn text(&self, key: &str) -> Option<&'a str> {
        self.0.get(key).and_then(Value::as_str)
    }

    /// A nested object.
    pub fn object(&self, key: &str) -> Option<Record<'a>> {
        self.0.get(key).and_then(Value::as_object).map(Record)
    }
}

/// Reads CSV text row by row (header first; empty cells left out), handing each row to `read`
/// as a [`Record`] of strings; rows are numbered from 2 (line 1 is the header).
pub(crate) fn csv_rows(
    file: &str,
    text: &str,
    out: &mut Parsed,
    read: impl Fn(&Record) -> Result<Measured, String>,
) {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = match reader.headers() {
        Ok(h) => h.clone(),
        Err(e) => return out.problem(file, None, format!("unreadable CSV header: {e}")),
    };
    for (i, record) in reader.records().enumerate() {
        let row_no = Some(i + 2);
        match record {
            Ok(record) => {
                let map: Map<String, Value> = headers
                    .iter()
                    .zip(record.iter())
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(h, v)| (h.to_string(), Value::String(v.to_string())))
                    .collect();
                match read(&Record(&map)) {
                    Ok(m) => out.rows.push(m),
                    Err(e) => out.problem(file, row_no, e),
                }
            }
            Err(e) => out.problem(file, row_no, format!("unreadable CSV row: {e}")),
        }
    }
}

/// A value shortened for a message.
pub(crate) fn short(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().nth(40).is_some() {
        out.push('…');
    }
    out
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
