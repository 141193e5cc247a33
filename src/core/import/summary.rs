//! The sentences an import leaves on the page: its summary, its warnings and problems in the
//! import panel's words ([`shown`], written in the tools module, so the page carries none of the
//! messages' wording), and its label in the source picker.

use serde::{Deserialize, Serialize};

use super::{files_label, FileFormats, Format, Import, Problem, RowErrorKind};
use crate::core::model::format::{counted, grouped};
use crate::core::model::source::Source;

/// What the import panel shows of an import, in its words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    /// What was read and imported ([`summary`]).
    pub summary: String,
    /// Each warning: its flag's hook value and its text (`Warning::text`).
    pub warnings: Vec<(String, String)>,
    /// Each problem: its file, and where and what ([`Problem::located`]).
    pub problems: Vec<(String, String)>,
    /// Whether everything was imported, a part, or nothing ([`Outcome`]).
    pub outcome: Outcome,
    /// The outcome at a glance, with its counts ([`outcome_line`]).
    pub outcome_line: String,
}

/// What an import came to: everything read, a part (files or rows left out), or nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Every file and row was read.
    Complete,
    /// Sweeps were imported, with files, rows or sweeps left out.
    Partial,
    /// Nothing was imported.
    #[default]
    Failed,
}

impl Outcome {
    /// Its name in the page's hooks and classes (`data-outcome`).
    pub fn hook(self) -> &'static str {
        match self {
            Outcome::Complete => "complete",
            Outcome::Partial => "partial",
            Outcome::Failed => "failed",
        }
    }
}

/// An import's outcome and its line: `files` read or refused, how many of them were left out
/// whole, how many rows were left out, and whether rows or sweeps past a limit were; `imported`:
/// the sweeps and rows imported, if any.
/// "Complete: 8 of 8 files, 8 rows imported." / "Partial: 1 of 3 files and 2 rows left out;
/// 1 sweep with 6 rows imported." / "Failed: nothing imported from 2 files."
pub fn outcome_line(
    files: usize,
    files_out: usize,
    rows_out: usize,
    past_limit: bool,
    imported: Option<(usize, usize)>,
) -> (Outcome, String) {
    let Some((sweeps, rows)) = imported else {
        return (
            Outcome::Failed,
            format!("Failed: nothing imported from {}.", counted(files, "file")),
        );
    };
    let imported = format!(
        "{} with {} imported",
        counted(sweeps, "sweep"),
        counted(rows, "row")
    );
    let mut out = Vec::new();
    if files_out > 0 {
        out.push(format!(
            "{} of {}",
            grouped(files_out as f64, 0),
            counted(files, "file")
        ));
    }
    if rows_out > 0 {
        out.push(counted(rows_out, "row"));
    }
    if past_limit {
        out.push("what is past a limit".to_string());
    }
    if out.is_empty() {
        return (
            Outcome::Complete,
            format!("Complete: {} read, {imported}.", counted(files, "file")),
        );
    }
    (
        Outcome::Partial,
        format!("Partial: {} left out; {imported}.", out.join(" and ")),
    )
}

/// The outcome of an import of `formats` (each file read) and `refused` (the files not read),
/// whose reading left `problems` (errors and parts left out) and imported `source`, if anything.
fn outcome_of(
    formats: &[(String, Option<Format>)],
    refused: &[Problem],
    problems: &[Problem],
    source: Option<&Source>,
) -> (Outcome, String) {
    let errors = || {
        problems
            .iter()
            .filter(|p| p.error.kind().warning_hook().is_none())
    };
    let mut files_out: Vec<&str> = refused
        .iter()
        .map(|p| p.file.as_str())
        .chain(
            formats
                .iter()
                .filter(|(_, f)| f.is_none())
                .map(|(n, _)| n.as_str()),
        )
        .chain(
            errors()
                .filter(|p| p.row.is_none() && formats.iter().any(|(n, _)| *n == p.file))
                .map(|p| p.file.as_str()),
        )
        .collect();
    files_out.sort_unstable();
    files_out.dedup();
    let rows_out = errors().filter(|p| p.row.is_some()).count();
    let past_limit = problems.iter().any(|p| {
        matches!(
            p.error.kind(),
            RowErrorKind::TooManyRows | RowErrorKind::TooManySweeps
        )
    });
    outcome_line(
        formats.len() + refused.len(),
        files_out.len(),
        rows_out,
        past_limit,
        source.map(|s| (s.sweeps.len(), s.row_count())),
    )
}

/// The panel's words for an import: `refused`, the files not read (too large: `admit`; or the
/// browser could not read them), then what reading the others gave (`read`: each file's format
/// and the result, from `import::read`); with no file read (`None`), the refusals alone.
pub fn shown(
    refused: Vec<Problem>,
    read: Option<(&FileFormats, &Result<Import, Vec<Problem>>)>,
) -> Shown {
    let listed = |problems: Vec<Problem>| {
        problems
            .into_iter()
            .map(|p| {
                let located = p.located();
                (p.file, located)
            })
            .collect::<Vec<_>>()
    };
    match read {
        None => Shown {
            outcome: Outcome::Failed,
            outcome_line: outcome_line(refused.len(), refused.len(), 0, false, None).1,
            summary: match (refused.iter().all(too_large), refused.len()) {
                (true, 1) => "Nothing imported: the file is larger than one import reads.".into(),
                (true, _) => "Nothing imported: the files are larger than one import reads.".into(),
                (false, _) => "Nothing imported: no file could be read.".into(),
            },
            warnings: Vec::new(),
            problems: listed(refused),
        },
        Some((_, Ok(imported))) => {
            // What was left out of a good import (a column, rows or sweeps past a limit) is a
            // warning, listed with the flags; the rest are errors.
            let (left_out, problems): (Vec<Problem>, Vec<Problem>) = imported
                .problems
                .iter()
                .cloned()
                .partition(|p| p.error.kind().warning_hook().is_some());
            let (outcome, outcome_line) = outcome_of(
                &imported.formats,
                &refused,
                &imported.problems,
                Some(&imported.source),
            );
            Shown {
                outcome,
                outcome_line,
                summary: summary(
                    &imported.formats,
                    &refused,
                    Some(&imported.source),
                    imported.problems.len() + refused.len() + imported.warnings.len(),
                ),
                warnings: left_out
                    .iter()
                    .filter_map(|p| Some((p.error.kind().warning_hook()?.to_string(), p.located())))
                    .chain(imported.warnings.iter().map(|w| (w.kind.clone(), w.text())))
                    .collect(),
                problems: listed([refused, problems].concat()),
            }
        }
        Some((formats, Err(problems))) => Shown {
            outcome: Outcome::Failed,
            outcome_line: outcome_of(formats, &refused, problems, None).1,
            summary: summary(formats, &refused, None, problems.len() + refused.len()),
            warnings: Vec::new(),
            problems: listed([refused, problems.clone()].concat()),
        },
    }
}

/// An import's picker label: "imported (2 sweeps): a.json, b.json", the count first so that a
/// long folder's label cut short by the menu's width still shows it.
pub fn imported_label(source: &Source, files: &[String]) -> String {
    format!(
        "imported ({}): {}",
        counted(source.sweeps.len(), "sweep"),
        files_label(files)
    )
}

/// What an import of files already in the menu (the same files, and model if named) says.
pub const IMPORTED_AGAIN: &str =
    "These files were imported before: the earlier import of them is replaced by this one.";

/// True for a file refused for its size (`admit`).
fn too_large(problem: &Problem) -> bool {
    matches!(
        problem.error.kind(),
        RowErrorKind::FileTooLarge | RowErrorKind::ImportTooLarge | RowErrorKind::PastLimit
    )
}

/// "Read 3 files (2 as vLLM bench serve JSON, 1 not usable; 1 not read: too large): imported 1
/// sweep with 8 rows; see the 2 messages below." `formats`: each file read and its format
/// (`None`: not usable); `not_read`: the files refused by size or that the browser could not
/// read; `source`: what was imported, if anything; `messages`: how many messages the page lists
/// below.
pub fn summary(
    formats: &[(String, Option<Format>)],
    not_read: &[Problem],
    source: Option<&Source>,
    messages: usize,
) -> String {
    let mut by_format: Vec<(&str, usize)> = Vec::new();
    for (_, f) in formats {
        let label = f.map_or("not usable", Format::label);
        match by_format.iter_mut().find(|(l, _)| *l == label) {
            Some((_, n)) => *n += 1,
            None => by_format.push((label, 1)),
        }
    }
    let read = by_format
        .iter()
        .map(|(l, n)| {
            if *l == "not usable" {
                format!("{n} not usable")
            } else {
                format!("{n} as {l}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ");
    let large = not_read.iter().filter(|p| too_large(p)).count();
    let unreadable = not_read.len() - large;
    let read = [
        read,
        if large > 0 {
            format!("{large} not read: too large")
        } else {
            String::new()
        },
        if unreadable > 0 {
            format!("{unreadable} could not be read")
        } else {
            String::new()
        },
    ]
    .into_iter()
    .filter(|part| !part.is_empty())
    .collect::<Vec<_>>()
    .join("; ");
    let result = match source {
        Some(s) => format!(
            "imported {} with {}",
            counted(s.sweeps.len(), "sweep"),
            counted(s.row_count(), "row")
        ),
        None => "nothing imported: no usable row, nothing changed".to_string(),
    };
    let messages = match messages {
        0 => String::new(),
        1 => "; see the message below".to_string(),
        n => format!("; see the {n} messages below"),
    };
    let files = formats.len() + not_read.len();
    format!(
        "Read {} ({read}): {result}{messages}.",
        counted(files, "file")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::admit;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::model::limits::MAX_FILE_BYTES;

    #[test]
    fn the_summary_counts_files_by_format_and_names_what_was_imported() {
        let formats = vec![
            ("a.json".to_string(), Some(Format::VllmBench)),
            ("b.json".to_string(), Some(Format::VllmBench)),
            ("c.txt".to_string(), None),
        ];
        assert_eq!(
            summary(&formats, &admit(&[("d.json", MAX_FILE_BYTES + 1, false)]).1, None, 2),
            format!(
                "Read 4 files (2 as {}, 1 not usable; 1 not read: too large): nothing imported: no usable row, nothing changed; see the 2 messages below.",
                Format::VllmBench.label()
            )
        );
        let source = lm_arena_chat();
        let text = summary(&formats[..1], &[], Some(source), 0);
        assert_eq!(
            text,
            format!(
                "Read 1 file (1 as {}): imported {} sweeps with {} rows.",
                Format::VllmBench.label(),
                source.sweeps.len(),
                source.row_count()
            )
        );
    }
}

#[cfg(test)]
mod warning_tests {
    use super::*;
    use crate::core::import::{import, InputFile};

    #[test]
    fn a_column_left_out_is_a_warning_and_a_bad_row_an_error() {
        // A column it does not read (a warning) and a date that is no date (an error).
        let csv = "model,concurrency,output_tok_s,p50_itl_s,p50_itl_ms,date\n\
                   m,1,100,0.01,10,someday\nm,1,100,0.01,10,2026-01-02\n";
        let file = InputFile {
            name: "runs.csv".into(),
            text: csv.into(),
        };
        let read = import(&[file]);
        let shown = shown(Vec::new(), Some((&Vec::new(), &read)));
        assert_eq!(shown.warnings.len(), 1, "{:?}", shown.warnings);
        assert_eq!(shown.warnings[0].0, "unknown-column");
        assert!(shown.warnings[0]
            .1
            .contains("column `p50_itl_s` is not one this planner reads"));
        assert_eq!(shown.problems.len(), 1, "{:?}", shown.problems);
        assert!(
            shown.problems[0].1.contains("someday"),
            "{:?}",
            shown.problems
        );
    }
}

#[cfg(test)]
mod located_tests {
    use crate::core::import::{Problem, RowError};

    #[test]
    fn a_problem_is_listed_with_its_file_and_row() {
        let problem = |file: &str, row| Problem {
            file: file.to_string(),
            row,
            error: RowError::NotJson {
                reason: "EOF".into(),
            },
        };
        let message = problem("a.json", None).message();
        assert_eq!(
            problem("a.json", Some(3)).located(),
            format!("a.json, row 3: {message}")
        );
        assert_eq!(
            problem("a.json", None).located(),
            format!("a.json: {message}")
        );
        assert_eq!(problem("(import)", Some(3)).located(), message);
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;
    use crate::core::import::{admit, detect, import, InputFile, RowError};
    use crate::core::model::limits::MAX_FILE_BYTES;

    #[test]
    fn the_panel_lists_the_files_refused_for_their_size_before_what_reading_the_others_gave() {
        let (_, refused) = admit(&[("big.json", MAX_FILE_BYTES + 1, false)]);
        let nothing_read = shown(refused.clone(), None);
        assert_eq!(
            nothing_read.summary,
            "Nothing imported: the file is larger than one import reads."
        );
        assert_eq!(
            nothing_read.problems,
            vec![("big.json".to_string(), refused[0].located())]
        );

        let files = [InputFile {
            name: "x.csv".into(),
            text: "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nm,H100,1,8,1000,20\nm,H100,1,16,1800,30\n".into(),
        }];
        let formats = vec![("x.csv".to_string(), detect(&files[0]))];
        let result = import(&files);
        let both = shown(refused.clone(), Some((&formats, &result)));
        assert_eq!(
            both.summary,
            format!(
                "Read 2 files (1 as {}; 1 not read: too large): imported 1 sweep with 2 rows; see the message below.",
                Format::CsvTemplate.label()
            )
        );
        assert_eq!(
            both.problems,
            vec![("big.json".to_string(), refused[0].located())]
        );
        assert!(both.warnings.is_empty());
    }

    #[test]
    fn a_file_the_browser_could_not_read_is_named_and_counted_apart_from_the_large_ones() {
        let unreadable = Problem {
            file: "gone.json".into(),
            row: None,
            error: RowError::Unreadable {
                reason: "NotReadableError".into(),
            },
        };
        assert_eq!(
            shown(vec![unreadable.clone()], None).summary,
            "Nothing imported: no file could be read."
        );
        assert_eq!(
            unreadable.located(),
            "gone.json: could not be read (NotReadableError): moved, deleted or changed since it was picked"
        );
        let (_, large) = admit(&[("big.json", MAX_FILE_BYTES + 1, false)]);
        assert_eq!(
            summary(&[], &[large[0].clone(), unreadable], None, 2),
            "Read 2 files (1 not read: too large; 1 could not be read): nothing imported: no usable row, nothing changed; see the 2 messages below."
        );
    }
}

#[cfg(test)]
mod outcome_tests {
    use super::*;
    use crate::core::import::{admit, detect, import, InputFile};
    use crate::core::model::limits::MAX_FILE_BYTES;

    fn read(files: &[InputFile], refused: Vec<Problem>) -> Shown {
        let formats: FileFormats = files.iter().map(|f| (f.name.clone(), detect(f))).collect();
        shown(refused, Some((&formats, &import(files))))
    }

    fn csv(name: &str, text: &str) -> InputFile {
        InputFile {
            name: name.into(),
            text: text.into(),
        }
    }

    const HEAD: &str = "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n";

    #[test]
    fn a_complete_import_says_so_with_its_counts() {
        let s = read(
            &[csv(
                "x.csv",
                &format!("{HEAD}m,H100,1,8,1000,20\nm,H100,1,16,1800,30\n"),
            )],
            vec![],
        );
        assert_eq!(s.outcome, Outcome::Complete);
        assert_eq!(
            s.outcome_line,
            "Complete: 1 file read, 1 sweep with 2 rows imported."
        );
    }

    #[test]
    fn a_partial_import_counts_the_files_and_rows_left_out() {
        let (_, refused) = admit(&[("big.json", MAX_FILE_BYTES + 1, false)]);
        let files = [
            csv(
                "x.csv",
                &format!("{HEAD}m,H100,1,8,1000,20\nm,H100,1,16,oops,30\nm,H100,1,32,2000,40\n"),
            ),
            csv("notes.txt", "hello"),
        ];
        let s = read(&files, refused);
        assert_eq!(s.outcome, Outcome::Partial);
        assert_eq!(
            s.outcome_line,
            "Partial: 2 of 3 files and 1 row left out; 1 sweep with 2 rows imported."
        );
    }

    #[test]
    fn a_failed_import_counts_its_files() {
        let s = read(&[csv("notes.txt", "hello"), csv("b.txt", "x")], vec![]);
        assert_eq!(s.outcome, Outcome::Failed);
        assert_eq!(s.outcome_line, "Failed: nothing imported from 2 files.");
        let (_, refused) = admit(&[("big.json", MAX_FILE_BYTES + 1, false)]);
        assert_eq!(
            shown(refused, None).outcome_line,
            "Failed: nothing imported from 1 file."
        );
    }

    #[test]
    fn the_picker_label_names_the_sweep_count_before_the_files() {
        let names: Vec<String> = (1..=5)
            .map(|i| format!("{}{i}.json", "a-long-folder-name/".repeat(8)))
            .collect();
        let label = imported_label(crate::core::import::bundled::lm_arena_chat(), &names);
        let sweeps = crate::core::import::bundled::lm_arena_chat().sweeps.len();
        assert!(
            label.starts_with(&format!("imported ({sweeps} sweeps): a-long-folder-name/")),
            "{label}"
        );
    }
}
