//! The words of the errors the core hands to a front: a load's CSV, a share link, a stored
//! import, a task file (each error's `Display`), and the sentences of the errors of `wire`,
//! which this wing cannot name (`wire::handoff` words them with these).

use std::fmt;

use crate::core::import::bundled::TaskFileError;
use crate::core::import::share::{Held, ShareError, VERSION};
use crate::core::import::sources::StoredError;
use crate::core::model::format::{grouped, short_number};
use crate::core::model::limits::{MAX_LINK_BYTES, MAX_LOAD_VALUES, MAX_PAYLOAD_BYTES};
use crate::core::scenario::load_csv::{FieldCsvError, LoadCsvError};

/// A download asked for a deployment the source does not hold.
pub const NO_SUCH_DEPLOYMENT: &str = "no such deployment";
/// A chart download whose markup is not an SVG element.
pub const NOT_AN_SVG: &str = "the chart is not an SVG element";
/// Why no autoscaler can be written: no level meets the target.
pub const NO_AUTOSCALER: &str =
    "no autoscaler: no measured level meets the target, so there is no per-replica target to scale on";

/// Bytes from the tools module (or handed to it) that are not the value sent, with postcard's
/// `reason`.
pub fn damaged_handoff(reason: &str) -> String {
    format!("damaged data from the tools module ({reason})")
}

impl fmt::Display for LoadCsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadCsvError::Empty => write!(f, "holds no row of timestamp,value"),
            LoadCsvError::OneRow => write!(
                f,
                "holds one row: the step is read from the timestamps, so it needs two or more"
            ),
            LoadCsvError::NoKind { column } => write!(
                f,
                "does not say what its values count (the column is \"{column}\"): name the column rps or users, or give the kind (rps:FILE.csv)"
            ),
            LoadCsvError::Row { row } => write!(f, "row {row} is not timestamp,value"),
            LoadCsvError::Time { row, got } => write!(
                f,
                "row {row}: \"{got}\" is neither seconds since 1970 nor an ISO 8601 date"
            ),
            LoadCsvError::Value { row, got } => write!(
                f,
                "row {row}: the value must be a number from 0 to 1,000,000,000, got \"{got}\""
            ),
            LoadCsvError::Uneven { row, step_s, gap_s } => write!(
                f,
                "the timestamps are not evenly spaced: {} s apart until row {row}, which comes {} s after the row before",
                short_number(*step_s),
                short_number(*gap_s)
            ),
            LoadCsvError::Step { step_s } if *step_s > 0.0 && *step_s < 1.0 => write!(
                f,
                "the timestamps are {} s apart: a step must be at least a second and at most a week",
                short_number(*step_s)
            ),
            LoadCsvError::Step { step_s } => write!(
                f,
                "the timestamps are {} s apart: a step must be above 0 and at most a week",
                short_number(*step_s)
            ),
            LoadCsvError::TooMany { count } => write!(
                f,
                "holds {} values, more than the {} read (a week by the minute)",
                grouped(*count as f64, 0),
                grouped(MAX_LOAD_VALUES as f64, 0)
            ),
        }
    }
}

impl fmt::Display for FieldCsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the CSV {}", self.0)
    }
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let link_kb = MAX_LINK_BYTES / 1024;
        match self {
            ShareError::Unwritable(reason) => f.write_str(reason),
            ShareError::TooLarge { kb } => write!(
                f,
                "this sweep set is too large to share by link ({kb} KB compressed; links are kept under {link_kb} KB). Share the files instead."
            ),
            ShareError::LinkTooLong { kb } => write!(
                f,
                "the shared sweep in this link is {kb} KB, more than the {link_kb} KB a link carries"
            ),
            ShareError::CutShort { chars } => write!(
                f,
                "the shared sweep in this link looks cut short: its {} characters end before the sweep does (copy the whole link, or use Share by link again)",
                grouped(*chars as f64, 0)
            ),
            ShareError::NotBase64 { at, character } => write!(
                f,
                "the shared sweep in this link is damaged: character {} ({character:?}) is not URL-safe base64",
                grouped(*at as f64, 0)
            ),
            ShareError::TooBig => write!(
                f,
                "the shared sweep in this link unpacks to more than {} MB, more than this page reads",
                MAX_PAYLOAD_BYTES / (1024 * 1024)
            ),
            ShareError::NotCompressed => {
                f.write_str("the shared sweep in this link is damaged (not compressed data)")
            }
            ShareError::NotOurs => {
                f.write_str("the shared sweep in this link is not in a format this page reads")
            }
            ShareError::Version { v } => write!(
                f,
                "the shared sweep uses format version {v}, this page reads 1 and {VERSION}"
            ),
            ShareError::TooMany { count, limit, what } => {
                let what = match what {
                    Held::Models => "models",
                    Held::Sweeps => "sweeps",
                    Held::Rows => "rows",
                };
                write!(
                    f,
                    "the shared sweep in this link holds {count} {what}, more than the {limit} this page reads"
                )
            }
            ShareError::NotPositive => f.write_str(
                "the shared sweep holds a level or throughput that is not a positive number up to 1e9",
            ),
            ShareError::NoRows => f.write_str("the shared sweep in this link holds no rows"),
            ShareError::UnknownModel => {
                f.write_str("the shared sweep names a model it does not hold")
            }
        }
    }
}

impl fmt::Display for StoredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredError::NotAnImport(reason) => write!(f, "not a stored import ({reason})"),
            StoredError::NotAList(reason) => write!(f, "not a list of imports ({reason})"),
            StoredError::NoUsableRow(Some(problem)) => problem.fmt(f),
            StoredError::NoUsableRow(None) => f.write_str("no usable row"),
        }
    }
}

impl fmt::Display for TaskFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TaskFileError::NotJson(reason) => f.write_str(reason),
            TaskFileError::NotTaskFile => {
                f.write_str("not an ML.ENERGY task file (no `task` and `task_display_name`)")
            }
            TaskFileError::NoUsableRun(Some(problem)) => problem.fmt(f),
            TaskFileError::NoUsableRun(None) => f.write_str("no usable run"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_is_worded_as_before() {
        assert_eq!(
            ShareError::TooMany {
                count: 1_200,
                limit: 1_000,
                what: Held::Sweeps
            }
            .to_string(),
            "the shared sweep in this link holds 1200 sweeps, more than the 1000 this page reads"
        );
        assert_eq!(
            ShareError::NotBase64 {
                at: 1_234,
                character: '*'
            }
            .to_string(),
            "the shared sweep in this link is damaged: character 1,234 ('*') is not URL-safe base64"
        );
        assert_eq!(StoredError::NoUsableRow(None).to_string(), "no usable row");
        assert_eq!(
            TaskFileError::NoUsableRun(None).to_string(),
            "no usable run"
        );
        assert_eq!(
            damaged_handoff("unexpected end"),
            "damaged data from the tools module (unexpected end)"
        );
    }
}
