//! Why a file, a row or a value could not be used: a typed error (kind, key, value) with one
//! [`std::fmt::Display`], so the page's wording lives here and tests match kinds, not strings.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RowErrorKind {
    /// The text is not valid JSON (`value`: the parser's reason).
    NotJson,
    /// A record that should be a JSON object is not.
    NotAnObject,
    /// A JSON number does not fit a 64-bit float (`key`: where, `value`: the text).
    NumberOutOfRange,
    /// A required key or cell is absent or empty (`key`).
    Missing,
    /// No level can be read (`key`: the keys tried).
    NoLevel,
    /// A value is text that is not a number, or another JSON type (`key`, `value`).
    NotANumber,
    /// A level or throughput that must be positive is not (`key`, `value`).
    NotPositive,
    /// Every request of the run failed (`key`: the count that says so).
    AllRequestsFailed,
    /// A latency's unit is not a time (`key`: the metric, `value`: the unit).
    NotATimeUnit,
    /// A CSV column this planner does not read (`key`); its values are ignored (`value`: the
    /// column in ms it may have meant).
    UnknownColumn,
    /// A CSV file with a header and no data rows.
    NoDataRows,
    /// A CSV header or row the CSV reader cannot read (`value`: its reason).
    UnreadableCsv,
    /// The file matches no format and none closely (`value`: a few of its keys).
    NotRecognised,
    /// The file looks like a format (`value`) but lacks the key (`key`) that places a run on
    /// a level.
    LooksLikeButNoLevel,
    /// The file looks like a format (`value`) but lacks its output throughput (`key`).
    LooksLikeButNoThroughput,
    /// An EvalScope percentile file without its summary in the same import (`key`: its folder).
    PercentilesWithoutSummary,
    /// An EvalScope percentile file whose folder holds several summaries of the import (`key`:
    /// how many): which run it belongs to is unknown.
    PercentilesAmbiguous,
    /// A level or throughput outside 1e-6 to 1e9 (`key`: the level, `value`: the throughput).
    OutOfRange,
    /// More rows than one import keeps (`value`: the limit).
    TooManyRows,
    /// Latencies of 0 or below or over 1e9 ms, shown as not reported (`value`: how many).
    UnusableLatencies,
    /// Nothing was offered to import.
    NoFile,
    /// A file larger than one import reads (`key`: its size, `value`: the limit).
    FileTooLarge,
    /// Files together larger than one import reads (`key`: the size so far, `value`: the limit).
    ImportTooLarge,
    /// More sweeps than one import keeps (`value`: the limit).
    TooManySweeps,
    /// Texts longer than a field holds, cut (`key`: how many, `value`: the limit in characters).
    TextCut,
    /// Problems beyond those listed, like the one in `key` (`value`: how many).
    MoreLikeThese,
    /// A file that is not text (an image, an executable).
    NotText,
    /// A picked file the browser could not read (moved, deleted or changed since it was picked;
    /// `value`: the browser's name for the reason, e.g. `NotReadableError`).
    Unreadable,
    /// A `date` that is not a date this planner reads (`key`): its sweep is listed after the
    /// dated ones.
    UnreadableDate,
    /// A file or pasted text with nothing in it but white space.
    Empty,
    /// A file of a known tool that holds no level by design (`key`: what it is, `value`: why it
    /// is not read as one), e.g. a summary that pools every stage.
    Skipped,
    /// Figures of a run not read (`key`: which, `value`: why); the run is kept without them.
    LeftOut,
    /// A file of a known tool in a schema version this planner does not read (`key`: the tool,
    /// `value`: the version found and those read).
    UnsupportedVersion,
    /// LLMPerf individual responses without their summary in the same import (`key`: the run).
    ResponsesWithoutSummary,
    /// A tool's own goodput for the SLO its run was given (`key`: the tool, `value`: the
    /// figures and the SLO): the tool's figures, shown as such.
    ToolGoodput,
    /// GuideLLM's CSV twin of its report: the same benchmarks are read from its JSON.
    GuideLlmCsv,
    /// A NUL byte in a text file's row (`key`: its column): the row is not read.
    NulByte,
    /// A file read as a stream keeps more than one is read with (`value`: the limit), besides
    /// its per-request arrays: what came before the limit is read.
    TooManyValues,
    /// A YAML file: the tools that write one (GuideLLM, inference-perf) write the same report as
    /// JSON, which this planner reads.
    Yaml,
}

impl RowErrorKind {
    /// True for what an import says without anything being wrong: a file of a known tool that
    /// holds no level by design, a YAML file beside the reports (a run's settings, or a report's
    /// YAML twin), a tool's own figures. Never a reason to fail a strict run.
    pub fn is_note(self) -> bool {
        matches!(
            self,
            RowErrorKind::Skipped | RowErrorKind::ToolGoodput | RowErrorKind::Yaml
        )
    }
}

/// A problem with a file, a row or a value: its kind, the key concerned and the value seen
/// (shortened), where they apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowError {
    /// What went wrong.
    pub kind: RowErrorKind,
    /// The key, column or metric concerned.
    pub key: Option<String>,
    /// The value seen, or what the kind needs to say.
    pub value: Option<String>,
}

/// Longest piece of a file's text a message repeats, in characters.
const SHORT_CHARS: usize = 40;

/// A value shortened for a message.
pub(crate) fn short(text: &str) -> String {
    let mut out: String = text.chars().take(SHORT_CHARS).collect();
    if text.chars().nth(SHORT_CHARS).is_some() {
        out.push('…');
    }
    out
}

impl RowError {
    /// An error of `kind` about nothing in particular.
    pub fn new(kind: RowErrorKind) -> RowError {
        RowError {
            kind,
            key: None,
            value: None,
        }
    }

    /// An error of `kind` about `key`.
    pub fn key(kind: RowErrorKind, key: &str) -> RowError {
        RowError {
            kind,
            key: Some(short(key)),
            value: None,
        }
    }

    /// An error of `kind` about `key` holding `value`.
    pub fn value(kind: RowErrorKind, key: &str, value: impl fmt::Display) -> RowError {
        RowError {
            kind,
            key: Some(short(key)),
            value: Some(short(&value.to_string())),
        }
    }

    /// An error of `kind` whose key and value come from this program (a list of keys, a
    /// parser's reason), kept whole: only values read from a file are shortened.
    pub fn stated(kind: RowErrorKind, key: Option<&str>, value: Option<&str>) -> RowError {
        RowError {
            kind,
            key: key.map(str::to_string),
            value: value.map(str::to_string),
        }
    }

    /// An error of `kind` with only a value.
    pub fn with_value(kind: RowErrorKind, value: impl fmt::Display) -> RowError {
        RowError {
            kind,
            key: None,
            value: Some(short(&value.to_string())),
        }
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = self.key.as_deref().unwrap_or("?");
        let value = self.value.as_deref().unwrap_or("?");
        match self.kind {
            RowErrorKind::NotJson => write!(f, "not valid JSON: {value}"),
            RowErrorKind::NotAnObject => write!(f, "not a JSON object"),
            RowErrorKind::NumberOutOfRange => write!(
                f,
                "`{key}` holds a number out of range ({value}): it does not fit a 64-bit float"
            ),
            RowErrorKind::Missing => write!(f, "missing key `{key}`"),
            RowErrorKind::NoLevel => write!(f, "no level: `{key}` is missing or not a finite number"),
            RowErrorKind::NotANumber => match &self.value {
                Some(v) => write!(f, "`{key}` is not a number (\"{v}\")"),
                None => write!(f, "`{key}` is not a number"),
            },
            RowErrorKind::NotPositive => write!(f, "`{key}` must be positive, got {value}"),
            RowErrorKind::AllRequestsFailed => write!(f, "all requests failed (`{key}` is 0)"),
            RowErrorKind::NotATimeUnit => write!(f, "`{key}` has unit \"{value}\", not a time"),
            RowErrorKind::UnknownColumn => match &self.value {
                Some(ms) => write!(
                    f,
                    "column `{key}` is not one this planner reads; its values are ignored (did you mean `{ms}`? the template's latencies are in ms)"
                ),
                None => write!(
                    f,
                    "column `{key}` is not one this planner reads; its values are ignored"
                ),
            },
            RowErrorKind::NoDataRows => write!(f, "no data rows: the file has a header only"),
            RowErrorKind::UnreadableCsv => write!(f, "unreadable CSV: {value}"),
            RowErrorKind::NotRecognised => write!(
                f,
                "format not recognised: no format this planner reads has keys like {value} (see the README for the formats)"
            ),
            RowErrorKind::LooksLikeButNoLevel => write!(
                f,
                "looks like {value}, but has no `{key}`: cannot place it on a level"
            ),
            RowErrorKind::LooksLikeButNoThroughput => write!(
                f,
                "looks like {value}, but has no `{key}`: no output throughput to plan with"
            ),
            RowErrorKind::PercentilesWithoutSummary => write!(
                f,
                "an EvalScope percentile file without its benchmark_summary.json (import both files of the run together, from the same folder)"
            ),
            RowErrorKind::PercentilesAmbiguous => write!(
                f,
                "an EvalScope percentile file not read: {key} summaries of this import have no folder to tell which is its run (choose the output folder with the folder button, or import each run's two files on their own)"
            ),
            RowErrorKind::OutOfRange => write!(
                f,
                "a level of {key} with {value} tok/s is out of range (1e-6 to 1e9) and was left out"
            ),
            RowErrorKind::TooManyRows => write!(f, "only the first {value} rows are read"),
            RowErrorKind::UnusableLatencies => {
                let n: u64 = value.parse().unwrap_or(0);
                if n == 1 {
                    write!(f, "1 latency value of 0 or below, or over 1e9 ms, is shown as not reported")
                } else {
                    write!(f, "{n} latency values of 0 or below, or over 1e9 ms, are shown as not reported")
                }
            }
            RowErrorKind::NoFile => write!(f, "no file was given"),
            RowErrorKind::FileTooLarge => write!(
                f,
                "not read: the file is {key}, more than the {value} one imported file may have"
            ),
            RowErrorKind::ImportTooLarge => write!(
                f,
                "not read: with it the files come to {key}, more than the {value} one import may have"
            ),
            RowErrorKind::TooManySweeps => write!(
                f,
                "only the first {value} sweeps are kept; runs of further sweeps were left out"
            ),
            RowErrorKind::TextCut => write!(
                f,
                "{key} longer than {value} characters (a model, GPU or label) cut to {value}"
            ),
            RowErrorKind::MoreLikeThese => write!(f, "and {value} more like these ({key})"),
            RowErrorKind::NotText => write!(f, "not a text file (a benchmark result is JSON, JSON lines or CSV)"),
            RowErrorKind::Unreadable => write!(
                f,
                "could not be read ({value}): moved, deleted or changed since it was picked"
            ),
            RowErrorKind::Empty => write!(f, "empty: there is nothing to read"),
            RowErrorKind::Skipped => write!(f, "{key}: not read as a level, {value}"),
            RowErrorKind::LeftOut => write!(f, "{key} not read: {value}"),
            RowErrorKind::UnsupportedVersion => write!(f, "{key} {value}"),
            RowErrorKind::ResponsesWithoutSummary => write!(
                f,
                "LLMPerf individual responses without their summary (`{key}_summary.json` from the same run): import both files together; the summary places the run on a level"
            ),
            RowErrorKind::GuideLlmCsv => write!(
                f,
                "a GuideLLM CSV: this planner reads the same benchmarks from the JSON report GuideLLM writes with it (benchmarks.json, --outputs json)"
            ),
            RowErrorKind::NulByte => write!(
                f,
                "a NUL byte (\\0) in column `{key}`: the row is not read (the rest of the file is)"
            ),
            RowErrorKind::ToolGoodput => write!(f, "{key}'s own goodput: {value}"),
            RowErrorKind::Yaml => write!(
                f,
                "a YAML file, not read: a run's settings (config.yaml, manifests) are no report, and the tools that write a YAML report write the same as JSON, which this planner reads (GuideLLM's benchmarks.json, inference-perf's stage_N_lifecycle_metrics.json)"
            ),
            RowErrorKind::TooManyValues => write!(
                f,
                "read only in part: a file this large is read as a stream, and it keeps more than {value} besides its per-request arrays (vLLM's and SGLang's `itls` and `generated_texts`)"
            ),
            RowErrorKind::UnreadableDate => write!(
                f,
                "date \"{key}\" is not one this planner reads (e.g. 2026-03-25): its sweep is listed after the dated ones"
            ),
        }
    }
}
