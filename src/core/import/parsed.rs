//! What readers hand back for a set of files ([`Parsed`]): the runs kept, and the problems met,
//! listed up to [`MAX_LISTED_PROBLEMS`] and then counted by kind and key.

use std::collections::{HashMap, HashSet};

use crate::core::import::grouping::{cap_texts, capped};
use crate::core::import::{
    Measured, Problem, RowError, RowErrorKind, SignalSupplement, Supplement, MODEL_NOT_STATED,
};
use crate::core::model::limits::{
    MAX_LISTED_PROBLEMS, MAX_MAGNITUDE, MAX_PROBLEM_GROUPS, MAX_ROWS,
};

/// Problems beyond those listed, counted per kind and key with the first as example.
#[derive(Default)]
pub(super) struct Omitted {
    pub(super) groups: Vec<(RowErrorKind, Option<String>, usize, String)>,
    index: HashMap<(RowErrorKind, Option<String>), usize>,
}

/// What format parsers hand back for a set of files.
#[derive(Default)]
pub(crate) struct Parsed {
    pub(super) rows: Vec<Measured>,
    pub(super) problems: Vec<Problem>,
    pub supplements: Vec<Supplement>,
    /// Server signals from files beside the runs, joined after every file is read.
    pub signals: Vec<SignalSupplement>,
    /// Problems past the first [`MAX_LISTED_PROBLEMS`], grouped.
    pub(super) omitted: Omitted,
    /// Runs left out because [`MAX_ROWS`] were kept already.
    pub(super) rows_left_out: bool,
    /// Records already read (a sweep folder holds each run twice).
    pub(super) seen: HashSet<String>,
    /// The import dialog's model for files that state none.
    pub(super) model_hint: Option<String>,
    /// Runs kept that held a text longer than
    /// [`MAX_TEXT_CHARS`](crate::core::model::limits::MAX_TEXT_CHARS), cut.
    pub(super) rows_cut: usize,
}

impl Parsed {
    /// Records a problem with `file` (or its `row`): listed while fewer than
    /// [`MAX_LISTED_PROBLEMS`] are, else counted with those of its kind and key.
    pub fn problem(&mut self, file: &str, row: Option<usize>, error: RowError) {
        if self.problems.len() < MAX_LISTED_PROBLEMS {
            self.problems.push(Problem {
                file: file.to_string(),
                row,
                error,
            });
            return;
        }
        // Grouped by kind and key; an unknown column's key is the column itself, so those group
        // by kind. Past MAX_PROBLEM_GROUPS groups, the rest count together.
        let key = match error.kind() {
            RowErrorKind::UnknownColumn => (RowErrorKind::UnknownColumn, None),
            kind => (kind, error.subject().map(str::to_string)),
        };
        let omitted = &mut self.omitted;
        let (key, example) =
            if omitted.index.contains_key(&key) || omitted.groups.len() < MAX_PROBLEM_GROUPS {
                let example = match error.kind() {
                    RowErrorKind::UnknownColumn => "columns this planner does not read".to_string(),
                    _ => error.to_string(),
                };
                (key, example)
            } else {
                (
                    (RowErrorKind::MoreLikeThese, None),
                    "problems of other kinds".to_string(),
                )
            };
        match omitted.index.get(&key) {
            Some(&i) => omitted.groups[i].2 += 1,
            None => {
                omitted.index.insert(key.clone(), omitted.groups.len());
                omitted.groups.push((key.0, key.1, 1, example));
            }
        }
    }

    /// Records a note about the import as a whole (always listed).
    pub(super) fn note(&mut self, error: RowError) {
        self.problems.push(Problem {
            file: "(import)".to_string(),
            row: None,
            error,
        });
    }

    /// True once [`MAX_ROWS`] runs are kept: parsers stop reading rows then (and the import
    /// says some were left out).
    pub fn full(&mut self) -> bool {
        let full = self.rows.len() >= MAX_ROWS;
        self.rows_left_out |= full;
        full
    }

    /// Keeps the run read at `file`'s `row`, unless its level or throughput is out of range (a
    /// problem there; a throughput of 0 is kept where no request completed) or [`MAX_ROWS`]
    /// are kept already (then it is left out, and the import says so).
    pub fn push(&mut self, file: &str, row: Option<usize>, m: Measured) {
        let sane = |v: f64| v.is_finite() && (1e-6..=MAX_MAGNITUDE).contains(&v);
        // A run in which no request completed is kept with a throughput of 0: a level that failed.
        let throughput_ok = sane(m.row.throughput_tok_s) || m.row.is_all_failed();
        if !sane(m.row.level) || !throughput_ok {
            let error = RowError::OutOfRange {
                level: m.row.level,
                throughput_tok_s: m.row.throughput_tok_s,
            };
            self.problem(file, row, error);
        } else if !self.full() {
            // Cut as each run is kept, so a long text (a 1 MB model id) is held once, not once
            // per run.
            let mut m = m;
            self.rows_cut += usize::from(cap_texts(&mut m) > 0);
            self.rows.push(m);
        }
    }

    /// The model of a run: as the file states it, else as the import dialog gives it, else
    /// `fallback` (a file name), else [`MODEL_NOT_STATED`]; [`capped`].
    pub fn model(&self, stated: Option<&str>, fallback: Option<&str>) -> String {
        capped(
            stated
                .filter(|s| !s.trim().is_empty())
                .or(self.model_hint.as_deref())
                .or(fallback)
                .unwrap_or(MODEL_NOT_STATED),
        )
    }

    /// The import dialog's model, if given.
    pub fn model_hint(&self) -> Option<&str> {
        self.model_hint.as_deref()
    }

    /// True the first time a record with this text is seen in the import.
    pub fn first_time(&mut self, fingerprint: String) -> bool {
        self.seen.insert(fingerprint)
    }

    /// The listed problems, then one line per group of those beyond them ("and N more like
    /// these").
    pub(super) fn into_problems(mut self) -> Vec<Problem> {
        for (_, _, count, example) in std::mem::take(&mut self.omitted.groups) {
            self.problems.push(Problem {
                file: "(import)".to_string(),
                row: None,
                error: RowError::MoreLikeThese { example, count },
            });
        }
        self.problems
    }
}
