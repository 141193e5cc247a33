//! A load over time from a monitoring tool's CSV (`timestamp,value`, as Prometheus and most
//! monitoring tools export a series): the step is read from the timestamps, which must be evenly
//! spaced (the `csv` crate reads the rows). Timestamps are seconds since 1970 (milliseconds above 10^11) or ISO 8601 dates
//! (`2026-12-04T13:00:00Z`, a space for the `T`, an offset or none for UTC).

use serde::{Deserialize, Serialize};

use super::values::number;
use crate::core::model::limits::MAX_LOAD_VALUES;
use crate::core::plan::period::{LoadKind, LoadProfile};

/// Why a CSV cannot be read as a load over time; rows are counted from 1, the header included.
/// Worded by its `Display` (`core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum LoadCsvError {
    /// No row with a value.
    Empty,
    /// One row with a value: no step can be read from its timestamps.
    OneRow,
    /// What the values count is not said: neither the values' column (`rps`, `users`) nor the
    /// caller names it.
    NoKind {
        /// The values' column as the header names it.
        column: String,
    },
    /// A row that is not `timestamp,value`.
    Row {
        /// The row.
        row: usize,
    },
    /// A timestamp that is neither seconds since 1970 nor an ISO 8601 date.
    Time {
        /// The row.
        row: usize,
        /// The text, shortened.
        got: String,
    },
    /// A value that is not a number from 0 to 10^9.
    Value {
        /// The row.
        row: usize,
        /// The text, shortened.
        got: String,
    },
    /// Timestamps not evenly spaced: the first place the step changes.
    Uneven {
        /// The row where the step changes.
        row: usize,
        /// The step before it, seconds.
        step_s: f64,
        /// The gap at that row, seconds.
        gap_s: f64,
    },
    /// A step that is not from a second to a week.
    Step {
        /// The step, seconds.
        step_s: f64,
    },
    /// More values than [`MAX_LOAD_VALUES`].
    TooMany {
        /// How many.
        count: usize,
    },
}

impl std::error::Error for LoadCsvError {}

/// A CSV pasted in the page's load field that cannot be read: its [`LoadCsvError`], worded as
/// the CSV's ("the CSV row 4 is not timestamp,value", `core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldCsvError(pub LoadCsvError);

impl std::error::Error for FieldCsvError {}

/// The load a CSV pasted in the page's load field holds: what its values count from the
/// values' column (`rps`, `users`), else `kind` (the field's choice). Read in the tools module,
/// where the csv crate already is, and handed to the page as a value.
///
/// Errors: what cannot be read ([`FieldCsvError`]).
pub fn field_load(text: &str, kind: LoadKind) -> Result<LoadProfile, FieldCsvError> {
    match load_from_csv(text, None) {
        Err(LoadCsvError::NoKind { .. }) => load_from_csv(text, Some(kind)),
        read => read,
    }
    .map_err(FieldCsvError)
}

/// The load the CSV `text` holds, what its values count from `kind` or else from the values'
/// column name (`rps`, `users`).
///
/// Errors: the first thing that cannot be read ([`LoadCsvError`]).
pub fn load_from_csv(text: &str, kind: Option<LoadKind>) -> Result<LoadProfile, LoadCsvError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let mut column = None;
    let mut points: Vec<(usize, f64, f64)> = Vec::new();
    while let Some(record) = records.next() {
        let row_of = |p: Option<&csv::Position>| p.map_or(0, |p| p.line() as usize);
        let record = record.map_err(|e| LoadCsvError::Row {
            row: row_of(e.position()),
        })?;
        let row = row_of(record.position());
        let (Some(time), Some(value), None) = (record.get(0), record.get(1), record.get(2)) else {
            return Err(LoadCsvError::Row { row });
        };
        // A first row whose value is not a number is the header.
        if points.is_empty() && column.is_none() && number(value).is_none() {
            column = Some(value.to_ascii_lowercase());
            continue;
        }
        if points.len() == MAX_LOAD_VALUES {
            return Err(LoadCsvError::TooMany {
                count: points.len() + 1 + records.count(),
            });
        }
        let t = seconds(time).ok_or_else(|| LoadCsvError::Time {
            row,
            got: super::values::echo(time),
        })?;
        let v = number(value)
            .filter(|v| (0.0..=1e9).contains(v))
            .ok_or_else(|| LoadCsvError::Value {
                row,
                got: super::values::echo(value),
            })?;
        points.push((row, t, v));
    }
    let (first, second) = match points.as_slice() {
        [] => return Err(LoadCsvError::Empty),
        [_] => return Err(LoadCsvError::OneRow),
        [(_, first, _), (_, second, _), ..] => (*first, *second),
    };
    let step_s = second - first;
    if !(1.0..=604_800.0).contains(&step_s) {
        return Err(LoadCsvError::Step { step_s });
    }
    for pair in points.windows(2) {
        let gap_s = pair[1].1 - pair[0].1;
        if (gap_s - step_s).abs() > 1e-6 * step_s {
            return Err(LoadCsvError::Uneven {
                row: pair[1].0,
                step_s,
                gap_s,
            });
        }
    }
    // What the values count is asked last: a file with no rows, one row or uneven
    // timestamps is named for that first.
    let kind = match kind.or_else(|| column.as_deref().and_then(LoadKind::from_key)) {
        Some(kind) => kind,
        None => {
            return Err(LoadCsvError::NoKind {
                column: column.unwrap_or_default(),
            })
        }
    };
    Ok(LoadProfile {
        kind,
        step_min: step_s / 60.0,
        values: points.into_iter().map(|(_, _, v)| v).collect(),
    })
}

/// Seconds since 1970 of a timestamp: a number (milliseconds above 10^11), or an ISO 8601 date
/// `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]` with `Z`, an offset `±HH:MM`, or none (UTC).
fn seconds(text: &str) -> Option<f64> {
    if let Some(n) = number(text) {
        return Some(if n > 1e11 { n / 1000.0 } else { n });
    }
    let (date, rest) = text.split_at_checked(10)?;
    let mut ymd = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, d) = (ymd.next()??, ymd.next()??, ymd.next()??);
    let rest = rest.strip_prefix(['T', ' '])?;
    let (clock, offset_s) = match rest.find(['Z', '+', '-']) {
        Some(i) => (&rest[..i], offset(&rest[i..])?),
        None => (rest, 0.0),
    };
    let mut hms = clock.split(':');
    let h = hms.next()?.parse::<f64>().ok()?;
    let min = hms.next()?.parse::<f64>().ok()?;
    let s = hms.next().map_or(Some(0.0), |s| s.parse::<f64>().ok())?;
    let valid =
        (1..=12).contains(&m) && (1..=31).contains(&d) && h < 24.0 && min < 60.0 && s < 61.0;
    valid.then(|| {
        days_from_civil(y, m, d) as f64 * 86_400.0 + h * 3600.0 + min * 60.0 + s - offset_s
    })
}

/// An offset `Z` or `±HH:MM`, seconds east of UTC.
fn offset(text: &str) -> Option<f64> {
    if text == "Z" {
        return Some(0.0);
    }
    let sign = if text.starts_with('-') { -1.0 } else { 1.0 };
    let (h, m) = text[1..].split_once(':')?;
    Some(sign * (h.parse::<f64>().ok()? * 3600.0 + m.parse::<f64>().ok()? * 60.0))
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scenario::values::load_text;

    #[test]
    fn a_prometheus_export_reads_with_its_step() {
        let csv = "timestamp,rps\n1733313600,3\n1733317200,2.5\n1733320800,0\n";
        let load = load_from_csv(csv, None).unwrap();
        assert_eq!(load.kind, LoadKind::Rps);
        assert_eq!(load.step_min, 60.0);
        assert_eq!(load.values, [3.0, 2.5, 0.0]);
        // ISO dates, quoted, an offset; the kind given by the caller.
        let csv = "\"time\",\"value\"\n\"2026-12-04T13:00:00+01:00\",10\n2026-12-04 12:15:00Z,12\n";
        let load = load_from_csv(csv, Some(LoadKind::Users)).unwrap();
        assert_eq!((load.kind, load.step_min), (LoadKind::Users, 15.0));
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(seconds("2024-12-04T12:00:00Z"), Some(1_733_313_600.0));
        assert_eq!(seconds("1733313600000"), Some(1_733_313_600.0));
    }

    #[test]
    fn what_cannot_be_read_is_named_at_its_row() {
        let named = |csv: &str| load_from_csv(csv, None).unwrap_err().to_string();
        assert_eq!(
            named("timestamp,rps\n0,1\n60,1\n120,1\n240,1\n"),
            "the timestamps are not evenly spaced: 60 s apart until row 5, which comes 120 s after the row before"
        );
        assert_eq!(
            named("timestamp,value\n0,1\n60,2\n"),
            "does not say what its values count (the column is \"value\"): name the column rps or users, or give the kind (rps:FILE.csv)"
        );
        assert_eq!(
            named("timestamp,rps\n0,-2\n"),
            "row 2: the value must be a number from 0 to 1,000,000,000, got \"-2\""
        );
        assert_eq!(
            named("timestamp,rps\nnoon,2\n"),
            "row 2: \"noon\" is neither seconds since 1970 nor an ISO 8601 date"
        );
        assert_eq!(
            named("timestamp,rps\n60,1\n0,1\n"),
            "the timestamps are -60 s apart: a step must be above 0 and at most a week"
        );
        assert_eq!(named("timestamp,rps\n"), "holds no row of timestamp,value");
        assert_eq!(
            named("timestamp,rps\n0,2\n"),
            "holds one row: the step is read from the timestamps, so it needs two or more"
        );
        assert_eq!(named("just text\n"), "row 1 is not timestamp,value");
    }

    #[test]
    fn the_page_field_s_csv_comes_back_in_the_link_s_form() {
        let field = |csv: &str, kind| field_load(csv, kind).map(|load| load_text(&load));
        let csv = "timestamp,rps\n1700000000,10\n1700003600,40\n1700007200,80\n1700010800,20\n";
        assert_eq!(
            field(csv, LoadKind::Users),
            Ok("rps:60:10,40,80,20".to_string())
        );
        // A column that does not say what it counts takes the kind chosen beside the field.
        let bare = csv.replace("rps", "value");
        assert_eq!(
            field(&bare, LoadKind::Users),
            Ok("users:60:10,40,80,20".to_string())
        );
        let headless = "1700000000,10\n1700001800,40";
        assert_eq!(
            field(headless, LoadKind::Rps),
            Ok("rps:30:10,40".to_string())
        );
        let uneven = field("timestamp,rps\n0,1\n60,2\n180,3\n", LoadKind::Rps)
            .unwrap_err()
            .to_string();
        assert!(
            uneven.starts_with("the CSV ") && uneven.contains("row 4"),
            "{uneven}"
        );
    }

    #[test]
    fn a_file_that_cannot_be_a_load_is_named_for_that_before_its_kind() {
        assert_eq!(load_from_csv("", None), Err(LoadCsvError::Empty));
        assert_eq!(
            load_from_csv("timestamp,value\n0,1\n", None),
            Err(LoadCsvError::OneRow)
        );
        assert!(matches!(
            load_from_csv("timestamp,value\n0,1\n60,2\n180,3\n", None),
            Err(LoadCsvError::Uneven { row: 4, .. })
        ));
    }
}
