//! What the page's load field takes: the link's own form (`rps:60:3,2,5`), a CSV of
//! `timestamp,value` as monitoring tools export it (the step read from the timestamps), or bare
//! values (the kind and step chosen beside the field); and the named shapes to start from.

use crate::core::model::format::grouped;
use crate::core::model::limits::{MAX_LOAD_FIELD_CHARS, MAX_LOAD_VALUES};
use crate::core::plan::period::{LoadKind, LoadProfile};
use crate::core::scenario::values::{load_of_values, number, parse_load, Accepts, ValueError};

pub use crate::core::scenario::values::parse_load_step;

/// A day by the hour to start from, scaled to a peak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadShape {
    /// The same load every hour.
    Flat,
    /// Low at night, high from 9:00 to 17:00.
    BusinessDay,
    /// A morning and an evening peak.
    TwoPeaks,
}

impl LoadShape {
    /// Every shape, in the order the page offers them.
    pub const ALL: [LoadShape; 3] = [LoadShape::Flat, LoadShape::BusinessDay, LoadShape::TwoPeaks];

    /// Its name on the page.
    pub fn label(self) -> &'static str {
        match self {
            LoadShape::Flat => "Flat",
            LoadShape::BusinessDay => "Business day",
            LoadShape::TwoPeaks => "Two peaks",
        }
    }

    /// Its key in a `data-testid` (`load-shape-business-day`).
    pub fn key(self) -> &'static str {
        match self {
            LoadShape::Flat => "flat",
            LoadShape::BusinessDay => "business-day",
            LoadShape::TwoPeaks => "two-peaks",
        }
    }

    /// Each hour's share of the peak, from 0:00.
    fn shares(self) -> [f64; 24] {
        match self {
            LoadShape::Flat => [1.0; 24],
            LoadShape::BusinessDay => [
                0.1, 0.1, 0.1, 0.1, 0.1, 0.15, 0.3, 0.6, 0.9, 1.0, 1.0, 1.0, 0.95, 1.0, 1.0, 0.95,
                0.9, 0.7, 0.45, 0.3, 0.2, 0.15, 0.1, 0.1,
            ],
            LoadShape::TwoPeaks => [
                0.15, 0.1, 0.1, 0.1, 0.1, 0.15, 0.3, 0.55, 0.8, 1.0, 0.85, 0.7, 0.6, 0.55, 0.5,
                0.55, 0.65, 0.8, 0.95, 1.0, 0.85, 0.6, 0.35, 0.2,
            ],
        }
    }

    /// A day by the hour (step 60 min) of `kind`, each hour its share × `peak`, rounded to two
    /// decimals.
    pub fn profile(self, kind: LoadKind, peak: f64) -> LoadProfile {
        LoadProfile {
            kind,
            step_min: 60.0,
            values: self
                .shares()
                .iter()
                .map(|share| (share * peak * 100.0).round() / 100.0)
                .collect(),
        }
    }
}

/// Why the load field's text was not read: it is longer than [`MAX_LOAD_FIELD_CHARS`].
pub fn too_long_text() -> String {
    format!(
        "the field holds more than the {} characters read ({} values, a week by the minute, at up to 64 characters each), so it was not read",
        grouped(MAX_LOAD_FIELD_CHARS as f64, 0),
        grouped(MAX_LOAD_VALUES as f64, 0)
    )
}

/// Whether `text` is written in the link's form (`rps:…`, `users:…`).
fn is_link_form(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with("rps:") || text.starts_with("users:")
}

/// Whether `text` is a CSV of `timestamp,value` rather than bare values or the link's form: its first line has a
/// comma after a first field that is not a plain number (a header, an ISO 8601 date) or is a
/// number of seconds since 1970 from 1973 on (≥ 10^8).
pub fn looks_like_csv(text: &str) -> bool {
    if is_link_form(text) {
        return false;
    }
    let first = text.lines().next().unwrap_or_default();
    first
        .split_once(',')
        .is_some_and(|(field, _)| number(field).is_none_or(|t| t >= 1e8))
}

/// Reads the load field's `text` when it is not a CSV ([`looks_like_csv`]: a CSV is read in
/// the tools module, by `load_csv::field_load`): the link's form `KIND:STEP:V1,...`, or bare
/// values separated by commas, spaces or new lines, of `kind`, each `step_min` minutes (a step
/// [`parse_load_step`] read). `None` for an empty field (no load).
///
/// Errors: what cannot be read (the value's position).
pub fn read_load_input(
    text: &str,
    kind: LoadKind,
    step_min: f64,
) -> Result<Option<LoadProfile>, ValueError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if is_link_form(text) {
        return parse_load(text).map(Some);
    }
    let values = text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|v| !v.is_empty());
    if values.clone().next().is_none() {
        // Only separators: value 1 is missing, as in the link's form.
        return Err(ValueError::Not {
            accepts: Accepts::LoadValue(1),
            got: String::new(),
        });
    }
    load_of_values(kind, step_min, values).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_links_form_and_bare_values_give_the_same_load_and_a_csv_is_told_apart() {
        let want = LoadProfile {
            kind: LoadKind::Rps,
            step_min: 60.0,
            values: vec![10.0, 40.0, 80.0, 20.0],
        };
        let read = |text| read_load_input(text, LoadKind::Users, 30.0);
        assert_eq!(read("rps:60:10,40,80,20"), Ok(Some(want.clone())));
        assert_eq!(
            read_load_input("10, 40\n80 20", LoadKind::Rps, 60.0),
            Ok(Some(want))
        );
        assert_eq!(read("  \n"), Ok(None));
        // A header, or timestamps from 1973 on, make a CSV; bare values do not.
        assert!(looks_like_csv("timestamp,rps\n1700000000,10"));
        assert!(looks_like_csv("1700000000,10\n1700003600,40"));
        assert!(looks_like_csv("2026-12-04T10:00:00Z,10"));
        assert!(!looks_like_csv("10, 40\n80 20"));
        assert!(!looks_like_csv("10 40 80"));
        assert!(!looks_like_csv("rps:5:1,2"));
        assert!(!looks_like_csv(" users:30:100,2000,500"));
    }

    #[test]
    fn a_step_is_read_as_the_link_reads_it() {
        assert_eq!(parse_load_step(" 15 "), Ok(15.0));
        for bad in ["0", "-1", "10081", "x", "1:2"] {
            assert!(parse_load_step(bad).is_err(), "{bad}");
        }
        // Only separators: the first value is missing, as in the link's form `rps:60:`.
        assert_eq!(
            read_load_input(" , ;", LoadKind::Rps, 60.0),
            parse_load("rps:60:").map(Some)
        );
    }

    #[test]
    fn what_cannot_be_read_is_named() {
        let read = |text| read_load_input(text, LoadKind::Rps, 60.0);
        assert!(read("10, x, 30")
            .unwrap_err()
            .to_string()
            .contains("value 2"));
        assert!(read("rps:0:1,2").is_err());
    }

    #[test]
    fn a_shape_is_a_day_by_the_hour_scaled_to_its_peak() {
        let day = LoadShape::BusinessDay.profile(LoadKind::Rps, 40.0);
        assert_eq!((day.step_min, day.values.len()), (60.0, 24));
        assert_eq!(day.values[0], 4.0);
        assert_eq!(day.values.iter().copied().fold(0.0, f64::max), 40.0);
        let two = LoadShape::TwoPeaks.profile(LoadKind::Users, 7.0);
        assert_eq!(
            (two.values[9], two.values[19], two.values[1]),
            (7.0, 7.0, 0.7)
        );
        assert!(LoadShape::Flat
            .profile(LoadKind::Rps, 3.0)
            .values
            .iter()
            .all(|v| *v == 3.0));
    }
}
