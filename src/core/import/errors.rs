//! Why a file, a row or a value could not be used: a [`RowError`] whose variants carry what
//! their message names (the key, the value seen, the limit), worded once by its
//! [`std::fmt::Display`]; [`RowError::kind`] is the variant alone, for tests and for grouping.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::core::model::format::{bytes as bytes_text, short_number};

/// What went wrong: a [`RowError`]'s variant without its fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowErrorKind {
    /// [`RowError::NotJson`].
    NotJson,
    /// [`RowError::NotAnObject`].
    NotAnObject,
    /// [`RowError::NumberOutOfRange`].
    NumberOutOfRange,
    /// [`RowError::Missing`].
    Missing,
    /// [`RowError::NoLevel`].
    NoLevel,
    /// [`RowError::NotANumber`].
    NotANumber,
    /// [`RowError::NotPositive`].
    NotPositive,
    /// [`RowError::AllRequestsFailed`].
    AllRequestsFailed,
    /// [`RowError::NotATimeUnit`].
    NotATimeUnit,
    /// [`RowError::UnknownColumn`].
    UnknownColumn,
    /// [`RowError::NoDataRows`].
    NoDataRows,
    /// [`RowError::UnreadableCsv`].
    UnreadableCsv,
    /// [`RowError::NotRecognised`].
    NotRecognised,
    /// [`RowError::LooksLikeButNoLevel`].
    LooksLikeButNoLevel,
    /// [`RowError::LooksLikeButNoThroughput`].
    LooksLikeButNoThroughput,
    /// [`RowError::PercentilesWithoutSummary`].
    PercentilesWithoutSummary,
    /// [`RowError::PercentilesAmbiguous`].
    PercentilesAmbiguous,
    /// [`RowError::OutOfRange`].
    OutOfRange,
    /// [`RowError::TooManyRows`].
    TooManyRows,
    /// [`RowError::UnusableLatencies`].
    UnusableLatencies,
    /// [`RowError::NoFile`].
    NoFile,
    /// [`RowError::FileTooLarge`].
    FileTooLarge,
    /// [`RowError::ImportTooLarge`].
    ImportTooLarge,
    /// [`RowError::PastLimit`].
    PastLimit,
    /// [`RowError::TooManySweeps`].
    TooManySweeps,
    /// [`RowError::TextCut`].
    TextCut,
    /// [`RowError::MoreLikeThese`].
    MoreLikeThese,
    /// [`RowError::NotText`].
    NotText,
    /// [`RowError::Unreadable`].
    Unreadable,
    /// [`RowError::UnreadableDate`].
    UnreadableDate,
    /// [`RowError::Empty`].
    Empty,
    /// [`RowError::Skipped`].
    Skipped,
    /// [`RowError::LeftOut`].
    LeftOut,
    /// [`RowError::UnsupportedVersion`].
    UnsupportedVersion,
    /// [`RowError::ResponsesWithoutSummary`].
    ResponsesWithoutSummary,
    /// [`RowError::ToolGoodput`].
    ToolGoodput,
    /// [`RowError::GuideLlmCsv`].
    GuideLlmCsv,
    /// [`RowError::NulByte`].
    NulByte,
    /// [`RowError::TooManyValues`].
    TooManyValues,
    /// [`RowError::Yaml`].
    Yaml,
    /// [`RowError::RequestsNotMeasured`].
    RequestsNotMeasured,
    /// [`RowError::NotWhole`].
    NotWhole,
    /// [`RowError::RoleWithoutGpus`].
    RoleWithoutGpus,
    /// [`RowError::RolesDoNotAddUp`].
    RolesDoNotAddUp,
    /// [`RowError::DecodeRoleEnergy`].
    DecodeRoleEnergy,
    /// [`RowError::GpusDoNotAddUp`].
    GpusDoNotAddUp,
    /// [`RowError::SignalsWithoutLevel`].
    SignalsWithoutLevel,
    /// [`RowError::SignalOutOfRange`].
    SignalOutOfRange,
    /// [`RowError::SignalUnit`].
    SignalUnit,
}

impl RowErrorKind {
    /// True for what an import says without anything being wrong: a file of a known tool that
    /// holds no level by design, a YAML file beside the reports (a run's settings, or a report's
    /// YAML twin), a tool's own figures. Never a reason to fail a strict run.
    pub fn is_note(self) -> bool {
        matches!(
            self,
            RowErrorKind::Skipped
                | RowErrorKind::ToolGoodput
                | RowErrorKind::Yaml
                | RowErrorKind::DecodeRoleEnergy
        )
    }

    /// The hook of a problem the page lists among the warnings, not the errors: the import is
    /// read, and something in it was left out (a column it does not read, rows or sweeps past
    /// a limit); `None` for the others.
    pub fn warning_hook(self) -> Option<&'static str> {
        match self {
            RowErrorKind::UnknownColumn => Some("unknown-column"),
            RowErrorKind::TooManyRows => Some("rows-left-out"),
            RowErrorKind::TooManySweeps => Some("sweeps-left-out"),
            RowErrorKind::RequestsNotMeasured => Some("requests-not-measured"),
            _ => None,
        }
    }
}

/// A problem with a file, a row or a value, with what its message names. Texts read from a
/// file are shortened to 40 characters ([`short`]); texts this program states are kept whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RowError {
    /// The text is not valid JSON.
    NotJson {
        /// The parser's reason, with its position.
        reason: String,
    },
    /// A record that should be a JSON object is not.
    NotAnObject,
    /// A JSON number does not fit a 64-bit float.
    NumberOutOfRange {
        /// Where.
        key: String,
        /// The number's text.
        number: String,
    },
    /// A required key or cell is absent, empty, or holds no finite number (`NaN`, `inf`: a
    /// value not reported, as tools write it).
    Missing {
        /// The key.
        key: String,
    },
    /// No level can be read.
    NoLevel {
        /// The keys tried.
        keys: String,
    },
    /// A value is text that is not a number, or another JSON type.
    NotANumber {
        /// The key.
        key: String,
        /// The text, when it is text.
        text: Option<String>,
    },
    /// A level or throughput that must be positive is not.
    NotPositive {
        /// The key.
        key: String,
        /// The value seen.
        value: String,
    },
    /// Every request of the run failed.
    AllRequestsFailed {
        /// The count that says so.
        key: String,
    },
    /// A latency's unit is not a time.
    NotATimeUnit {
        /// The metric.
        metric: String,
        /// Its unit.
        unit: String,
    },
    /// A CSV column this planner does not read; its values are ignored.
    UnknownColumn {
        /// The column.
        column: String,
        /// The column in ms it may have meant.
        meant: Option<String>,
    },
    /// A CSV file with a header and no data rows.
    NoDataRows,
    /// A CSV header or row the CSV reader cannot read.
    UnreadableCsv {
        /// The reader's reason, where it gives one.
        reason: Option<String>,
    },
    /// The file matches no format and none closely.
    NotRecognised {
        /// A few of its keys.
        keys: String,
    },
    /// The file has no keys to recognise a format by: what it holds instead ("an array of
    /// numbers").
    NoKeys {
        /// What the file holds, in words.
        found: String,
    },
    /// The file looks like a format but lacks the key that places a run on a level.
    LooksLikeButNoLevel {
        /// The format, described ("a vLLM bench serve result").
        format: String,
        /// The key (or keys) it lacks.
        key: String,
    },
    /// The file looks like a format but lacks its output throughput.
    LooksLikeButNoThroughput {
        /// The format, described.
        format: String,
        /// The key (or keys) it lacks.
        key: String,
    },
    /// An EvalScope percentile file without its summary in the same import.
    PercentilesWithoutSummary,
    /// An EvalScope percentile file whose folder holds several summaries of the import: which
    /// run it belongs to is unknown.
    PercentilesAmbiguous {
        /// How many summaries.
        summaries: usize,
    },
    /// A level or throughput outside 1e-6 to 1e9.
    OutOfRange {
        /// The level.
        level: f64,
        /// The output throughput, tok/s.
        throughput_tok_s: f64,
    },
    /// More rows than one import keeps.
    TooManyRows {
        /// The limit.
        limit: usize,
    },
    /// Latencies below 1e-6 ms (0 or less) or over 1e9 ms shown as not reported.
    UnusableLatencies {
        /// How many.
        count: u32,
    },
    /// Nothing was offered to import.
    NoFile,
    /// A file larger than one import reads.
    FileTooLarge {
        /// Its size, bytes.
        bytes: usize,
        /// The limit, bytes.
        limit: usize,
    },
    /// An input whose size is not known before it is read (standard input, a device, a pipe)
    /// that goes on past the limit of its kind: read up to the limit, then left.
    PastLimit {
        /// The limit, bytes.
        limit: usize,
    },
    /// Files together larger than one import reads.
    ImportTooLarge {
        /// The size so far with this file, bytes.
        bytes: usize,
        /// The limit, bytes.
        limit: usize,
    },
    /// More sweeps than one import keeps.
    TooManySweeps {
        /// The limit.
        limit: usize,
    },
    /// Runs holding a text longer than a field holds, cut (a run holds the same model id in two
    /// fields, so runs are counted, not texts).
    TextCut {
        /// How many runs (rows).
        rows: usize,
        /// The limit, characters.
        limit: usize,
    },
    /// Problems beyond those listed.
    MoreLikeThese {
        /// The first of them, or what they are.
        example: String,
        /// How many.
        count: usize,
    },
    /// A file that is not text (an image, an executable).
    NotText,
    /// A picked file the browser could not read (moved, deleted or changed since it was picked).
    Unreadable {
        /// The browser's name for the reason, e.g. `NotReadableError`.
        reason: String,
    },
    /// A `date` that is not a date this planner reads: its sweep is listed after the dated ones.
    UnreadableDate {
        /// The date as written.
        date: String,
    },
    /// A file or pasted text with nothing in it but white space.
    Empty,
    /// A file of a known tool that holds no level by design, e.g. a summary that pools every
    /// stage.
    Skipped {
        /// What it is.
        what: String,
        /// Why it is not read as a level.
        why: String,
    },
    /// A file of a server's signals (AIPerf's server-metrics export, inference-perf's Prometheus
    /// report) with no client file of its run beside it: kept out, as its signals have no level.
    SignalsWithoutLevel {
        /// What it is and the client file it looked for.
        what: String,
    },
    /// A server signal outside its range (KV use above 1 as a fraction, a negative count): not
    /// used.
    SignalOutOfRange {
        /// The signal and the metric it came from.
        signal: String,
        /// The value read.
        value: f64,
    },
    /// A server signal whose unit is not the one expected and cannot be converted: not used.
    SignalUnit {
        /// The metric.
        metric: String,
        /// The unit it declares.
        unit: String,
    },
    /// Figures of a run not read; the run is kept without them.
    LeftOut {
        /// Which figures.
        what: String,
        /// Why.
        why: String,
    },
    /// A file of a known tool in a schema version this planner does not read.
    UnsupportedVersion {
        /// The tool.
        tool: String,
        /// The version found and those read.
        versions: String,
    },
    /// LLMPerf individual responses without their summary in the same import.
    ResponsesWithoutSummary {
        /// The run (the file names' common stem, with its folder).
        run: String,
    },
    /// A tool's own goodput for the SLO its run was given: the tool's figures, shown as such.
    ToolGoodput {
        /// The tool.
        tool: String,
        /// The figures and the SLO.
        figures: String,
    },
    /// GuideLLM's CSV twin of its report: the same benchmarks are read from its JSON.
    GuideLlmCsv,
    /// A NUL byte in a text file's row: the row is not read.
    NulByte {
        /// The column.
        column: String,
    },
    /// A file read as a stream keeps more than one is read with, besides its per-request
    /// arrays, or holds one text longer than a text may be: what came before the limit is read.
    TooManyValues {
        /// The limit, bytes.
        limit: usize,
        /// Where the one text longer than the limit starts (its opening quote), bytes from the
        /// file's start; `None` when the values kept together are over the limit.
        text_at: Option<usize>,
    },
    /// A YAML file: the tools that write one (GuideLLM, inference-perf) write the same report as
    /// JSON, which this planner reads.
    Yaml,
    /// Requests of a run's per-request records whose times are not latencies (a NaN, a negative
    /// TTFT or gap, an end before the first token): each counts as a miss, the others are judged.
    RequestsNotMeasured {
        /// How many.
        count: usize,
        /// Requests issued at the level.
        issued: u64,
    },
    /// A count that must be a whole number (GPUs of a role) is not.
    NotWhole {
        /// The key.
        key: String,
        /// The value seen.
        value: String,
    },
    /// A disaggregated row states 0 GPUs for one of its roles: its figures cannot be divided
    /// among them, so the row is not read.
    RoleWithoutGpus {
        /// The key (`num_prefill_gpu`, `prefill_gpus`).
        key: String,
    },
    /// A disaggregated row whose per-GPU throughputs do not add up by role: total per GPU ×
    /// (P + D) ≠ input per prefill GPU × P + output per decode GPU × D. Which GPUs each figure
    /// divides by is not known, so the row is not read (never guessed).
    RolesDoNotAddUp {
        /// Total per GPU × (P + D), tok/s.
        total_tok_s: f64,
        /// Input per prefill GPU × P + output per decode GPU × D, tok/s.
        by_role_tok_s: f64,
        /// P.
        prefill_gpus: u32,
        /// D.
        decode_gpus: u32,
    },
    /// A row's GPU count is not its prefill GPUs + decode GPUs (or that sum does not fit).
    GpusDoNotAddUp {
        /// The `num_gpus` stated.
        num_gpus: Option<u32>,
        /// P.
        prefill_gpus: u32,
        /// D.
        decode_gpus: u32,
    },
    /// A disaggregated row's stored J per output token is the decode role's alone (no
    /// `power_metric_schema_version` 2): it is shown as the decode role's, and the whole
    /// deployment's is power × (P + D) ÷ output tok/s.
    DecodeRoleEnergy {
        /// The key it is stored under.
        key: String,
        /// The stored value, J.
        j: f64,
    },
    /// A tool's YAML twin of its report, known by its keys: the same report as JSON is read.
    YamlTwin {
        /// The tool that wrote it ("GuideLLM").
        tool: String,
        /// The JSON report it writes beside it.
        json: String,
    },
}

/// Longest piece of a file's text a message repeats, in characters.
const SHORT_CHARS: usize = 40;

/// A value read from a file, shortened for a message: its first 40 characters, then `…`.
pub fn short(text: &str) -> String {
    let mut out: String = text.chars().take(SHORT_CHARS).collect();
    if text.chars().nth(SHORT_CHARS).is_some() {
        out.push('…');
    }
    out
}

impl RowError {
    /// The variant alone.
    pub fn kind(&self) -> RowErrorKind {
        match self {
            RowError::NotJson { .. } => RowErrorKind::NotJson,
            RowError::NotAnObject => RowErrorKind::NotAnObject,
            RowError::NumberOutOfRange { .. } => RowErrorKind::NumberOutOfRange,
            RowError::Missing { .. } => RowErrorKind::Missing,
            RowError::NoLevel { .. } => RowErrorKind::NoLevel,
            RowError::NotANumber { .. } => RowErrorKind::NotANumber,
            RowError::NotPositive { .. } => RowErrorKind::NotPositive,
            RowError::AllRequestsFailed { .. } => RowErrorKind::AllRequestsFailed,
            RowError::NotATimeUnit { .. } => RowErrorKind::NotATimeUnit,
            RowError::UnknownColumn { .. } => RowErrorKind::UnknownColumn,
            RowError::NoDataRows => RowErrorKind::NoDataRows,
            RowError::UnreadableCsv { .. } => RowErrorKind::UnreadableCsv,
            RowError::NotRecognised { .. } | RowError::NoKeys { .. } => RowErrorKind::NotRecognised,
            RowError::LooksLikeButNoLevel { .. } => RowErrorKind::LooksLikeButNoLevel,
            RowError::LooksLikeButNoThroughput { .. } => RowErrorKind::LooksLikeButNoThroughput,
            RowError::PercentilesWithoutSummary => RowErrorKind::PercentilesWithoutSummary,
            RowError::PercentilesAmbiguous { .. } => RowErrorKind::PercentilesAmbiguous,
            RowError::OutOfRange { .. } => RowErrorKind::OutOfRange,
            RowError::TooManyRows { .. } => RowErrorKind::TooManyRows,
            RowError::UnusableLatencies { .. } => RowErrorKind::UnusableLatencies,
            RowError::NoFile => RowErrorKind::NoFile,
            RowError::FileTooLarge { .. } => RowErrorKind::FileTooLarge,
            RowError::ImportTooLarge { .. } => RowErrorKind::ImportTooLarge,
            RowError::PastLimit { .. } => RowErrorKind::PastLimit,
            RowError::TooManySweeps { .. } => RowErrorKind::TooManySweeps,
            RowError::TextCut { .. } => RowErrorKind::TextCut,
            RowError::MoreLikeThese { .. } => RowErrorKind::MoreLikeThese,
            RowError::NotText => RowErrorKind::NotText,
            RowError::Unreadable { .. } => RowErrorKind::Unreadable,
            RowError::UnreadableDate { .. } => RowErrorKind::UnreadableDate,
            RowError::Empty => RowErrorKind::Empty,
            RowError::Skipped { .. } => RowErrorKind::Skipped,
            RowError::LeftOut { .. } => RowErrorKind::LeftOut,
            RowError::SignalsWithoutLevel { .. } => RowErrorKind::SignalsWithoutLevel,
            RowError::SignalOutOfRange { .. } => RowErrorKind::SignalOutOfRange,
            RowError::SignalUnit { .. } => RowErrorKind::SignalUnit,
            RowError::UnsupportedVersion { .. } => RowErrorKind::UnsupportedVersion,
            RowError::ResponsesWithoutSummary { .. } => RowErrorKind::ResponsesWithoutSummary,
            RowError::ToolGoodput { .. } => RowErrorKind::ToolGoodput,
            RowError::GuideLlmCsv => RowErrorKind::GuideLlmCsv,
            RowError::NulByte { .. } => RowErrorKind::NulByte,
            RowError::TooManyValues { .. } => RowErrorKind::TooManyValues,
            RowError::RequestsNotMeasured { .. } => RowErrorKind::RequestsNotMeasured,
            RowError::Yaml | RowError::YamlTwin { .. } => RowErrorKind::Yaml,
            RowError::NotWhole { .. } => RowErrorKind::NotWhole,
            RowError::RoleWithoutGpus { .. } => RowErrorKind::RoleWithoutGpus,
            RowError::RolesDoNotAddUp { .. } => RowErrorKind::RolesDoNotAddUp,
            RowError::DecodeRoleEnergy { .. } => RowErrorKind::DecodeRoleEnergy,
            RowError::GpusDoNotAddUp { .. } => RowErrorKind::GpusDoNotAddUp,
        }
    }

    /// The key, column or metric the error is about, where it names one: problems past those
    /// listed are counted by kind and subject.
    pub fn subject(&self) -> Option<&str> {
        match self {
            RowError::NumberOutOfRange { key, .. }
            | RowError::Missing { key }
            | RowError::NoLevel { keys: key }
            | RowError::NotANumber { key, .. }
            | RowError::NotPositive { key, .. }
            | RowError::AllRequestsFailed { key }
            | RowError::NotATimeUnit { metric: key, .. }
            | RowError::LooksLikeButNoLevel { key, .. }
            | RowError::LooksLikeButNoThroughput { key, .. }
            | RowError::UnreadableDate { date: key }
            | RowError::Skipped { what: key, .. }
            | RowError::LeftOut { what: key, .. }
            | RowError::SignalsWithoutLevel { what: key }
            | RowError::SignalOutOfRange { signal: key, .. }
            | RowError::SignalUnit { metric: key, .. }
            | RowError::UnsupportedVersion { tool: key, .. }
            | RowError::ResponsesWithoutSummary { run: key }
            | RowError::ToolGoodput { tool: key, .. }
            | RowError::UnknownColumn { column: key, .. }
            | RowError::NulByte { column: key }
            | RowError::NotWhole { key, .. }
            | RowError::RoleWithoutGpus { key }
            | RowError::DecodeRoleEnergy { key, .. } => Some(key),
            _ => None,
        }
    }

    /// True for what an import says without anything being wrong ([`RowErrorKind::is_note`]).
    pub fn is_note(&self) -> bool {
        self.kind().is_note()
    }
}

impl std::error::Error for RowError {}

impl fmt::Display for RowError {
    #[allow(
        clippy::too_many_lines,
        reason = "one arm per error kind, each its message; splitting it would scatter the table"
    )]
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::NotJson { reason } => write!(f, "not valid JSON: {reason}"),
            RowError::NotAnObject => write!(f, "not a JSON object"),
            RowError::NumberOutOfRange { key, number } => write!(
                f,
                "`{key}` holds a number out of range ({number}): it does not fit a 64-bit float"
            ),
            RowError::Missing { key } => {
                write!(f, "`{key}` has no value (absent, empty, NaN or infinite)")
            }
            RowError::NoLevel { keys } => {
                write!(f, "no level: `{keys}` is missing or not a finite number")
            }
            RowError::NotANumber { key, text: Some(v) } => {
                write!(f, "`{key}` is not a number (\"{v}\")")
            }
            RowError::NotANumber { key, text: None } => write!(f, "`{key}` is not a number"),
            RowError::NotPositive { key, value } => {
                write!(f, "`{key}` must be positive, got {value}")
            }
            RowError::AllRequestsFailed { key } => write!(f, "all requests failed (`{key}` is 0)"),
            RowError::NotATimeUnit { metric, unit } => {
                write!(f, "`{metric}` has unit \"{unit}\", not a time")
            }
            RowError::UnknownColumn { column, meant } => {
                write!(
                    f,
                    "column `{column}` is not one this planner reads; its values are ignored"
                )?;
                match meant {
                    Some(ms) => write!(
                        f,
                        " (did you mean `{ms}`? the template's latencies are in ms)"
                    ),
                    None => Ok(()),
                }
            }
            RowError::NoDataRows => write!(f, "no data rows: the file has a header only"),
            RowError::UnreadableCsv { reason } => match reason {
                Some(reason) => write!(f, "unreadable CSV: {reason}"),
                None => write!(f, "unreadable CSV"),
            },
            RowError::NotRecognised { keys } => write!(
                f,
                "format not recognised: no format this planner reads has keys like {keys} (see the README for the formats)"
            ),
            RowError::NoKeys { found } => write!(
                f,
                "format not recognised: the file holds {found}, not runs or requests with named fields (a JSON object each, or a CSV with a header row; see the README for the formats)"
            ),
            RowError::LooksLikeButNoLevel { format, key } => write!(
                f,
                "looks like {format}, but has no `{key}`: cannot place it on a level"
            ),
            RowError::LooksLikeButNoThroughput { format, key } => write!(
                f,
                "looks like {format}, but has no `{key}`: no output throughput to plan with"
            ),
            RowError::PercentilesWithoutSummary => write!(
                f,
                "an EvalScope percentile file without its benchmark_summary.json (import both files of the run together, from the same folder)"
            ),
            RowError::PercentilesAmbiguous { summaries } => write!(
                f,
                "an EvalScope percentile file not read: {summaries} summaries of this import have no folder to tell which is its run (import the output folder whole, or each run's two files on their own)"
            ),
            RowError::OutOfRange {
                level,
                throughput_tok_s,
            } => write!(
                f,
                "a level of {} with {} tok/s is out of range (1e-6 to 1e9) and was left out",
                short_number(*level),
                short_number(*throughput_tok_s)
            ),
            RowError::TooManyRows { limit } => write!(
                f,
                "only the first {} rows are read",
                crate::core::model::format::grouped(*limit as f64, 0)
            ),
            RowError::UnusableLatencies { count: 1 } => write!(
                f,
                "1 latency value below 1e-6 ms (0 or less) or over 1e9 ms is shown as not reported"
            ),
            RowError::UnusableLatencies { count } => write!(
                f,
                "{} latency values below 1e-6 ms (0 or less) or over 1e9 ms are shown as not reported",
                crate::core::model::format::grouped(f64::from(*count), 0)
            ),
            RowError::NoFile => write!(f, "no file was given"),
            RowError::FileTooLarge { bytes, limit } => write!(
                f,
                "not read: the file is {}, more than the {} one imported file may have",
                bytes_text(*bytes),
                bytes_text(*limit)
            ),
            RowError::PastLimit { limit } => write!(
                f,
                "not read: it goes on past the {} one imported file may have (its size is not known before it is read)",
                bytes_text(*limit)
            ),
            RowError::ImportTooLarge { bytes, limit } => write!(
                f,
                "not read: with it the files come to {}, more than the {} one import may have",
                bytes_text(*bytes),
                bytes_text(*limit)
            ),
            RowError::TooManySweeps { limit } => write!(
                f,
                "only the first {} sweeps are kept; runs of further sweeps were left out",
                crate::core::model::format::grouped(*limit as f64, 0)
            ),
            RowError::TextCut { rows, limit } => write!(
                f,
                "{} with a text longer than {limit} characters (a model, GPU or label): cut to {limit}",
                crate::core::model::format::counted(*rows, "row")
            ),
            RowError::MoreLikeThese { example, count } => {
                write!(
                    f,
                    "and {} more like these ({example})",
                    crate::core::model::format::grouped(*count as f64, 0)
                )
            }
            RowError::NotText => write!(
                f,
                "not a text file (a benchmark result is JSON, JSON lines or CSV)"
            ),
            RowError::Unreadable { reason } => write!(
                f,
                "could not be read ({reason}): moved, deleted or changed since it was picked"
            ),
            RowError::Empty => write!(f, "empty: there is nothing to read"),
            RowError::Skipped { what, why } => write!(f, "{what}: not read as a level, {why}"),
            RowError::LeftOut { what, why } => write!(f, "{what} not read: {why}"),
            RowError::SignalsWithoutLevel { what } => write!(
                f,
                "server signals without a level: {what}; they are kept out (import the run's files together, from the same folder)"
            ),
            RowError::SignalOutOfRange { signal, value } => write!(
                f,
                "{signal} of {} is outside its range (KV use is a fraction from 0 to 1, counts are 0 or more): not used",
                short_number(*value)
            ),
            RowError::SignalUnit { metric, unit } => write!(
                f,
                "`{metric}` in unit `{unit}`, not a ratio (0 to 1) nor a percent: not used"
            ),
            RowError::RequestsNotMeasured { count, issued } => write!(
                f,
                "{} of {} request{} hold a time that is not a latency (NaN, a negative TTFT or gap, or an end before the first token): counted as {}",
                crate::core::model::format::grouped(*count as f64, 0),
                crate::core::model::format::grouped(*issued as f64, 0),
                if *issued == 1 { "" } else { "s" },
                if *count == 1 { "a miss" } else { "misses" }
            ),
            RowError::UnsupportedVersion { tool, versions } => write!(f, "{tool} {versions}"),
            RowError::ResponsesWithoutSummary { run } => write!(
                f,
                "LLMPerf individual responses without their summary (`{run}_summary.json` from the same run): import both files together; the summary places the run on a level"
            ),
            RowError::GuideLlmCsv => write!(
                f,
                "a GuideLLM CSV: this planner reads the same benchmarks from the JSON report GuideLLM writes with it (benchmarks.json, --outputs json)"
            ),
            RowError::NulByte { column } => write!(
                f,
                "a NUL byte (\\0) in column `{column}`: the row is not read (the rest of the file is)"
            ),
            RowError::ToolGoodput { tool, figures } => write!(f, "{tool}'s own goodput: {figures}"),
            RowError::Yaml => write!(
                f,
                "a YAML file, not read: a run's settings (config.yaml, manifests) are no report, and the tools that write a YAML report write the same as JSON, which this planner reads (GuideLLM's benchmarks.json, inference-perf's stage_N_lifecycle_metrics.json)"
            ),
            RowError::YamlTwin { tool, json } => write!(
                f,
                "{tool}'s YAML twin of its report, not read: {tool} writes the same report as JSON ({json}), which this planner reads"
            ),
            RowError::TooManyValues {
                limit,
                text_at: Some(at),
            } => write!(
                f,
                "read only in part: the text starting at byte {} is longer than {}, the longest text read (a request's generated text, a model id), so the file is read up to it",
                crate::core::model::format::grouped(*at as f64, 0),
                bytes_text(*limit)
            ),
            RowError::TooManyValues { limit, .. } => write!(
                f,
                "read only in part: a file this large is read as a stream, and it keeps more than {} besides its per-request arrays (vLLM's and SGLang's `itls` and `generated_texts`)",
                bytes_text(*limit)
            ),
            RowError::NotWhole { key, value } => {
                write!(f, "`{key}` must be a whole number, got {value}")
            }
            RowError::RoleWithoutGpus { key } => write!(
                f,
                "`{key}` is 0 in a disaggregated row: a role without GPUs cannot be counted, so the row is not read"
            ),
            RowError::RolesDoNotAddUp {
                total_tok_s,
                by_role_tok_s,
                prefill_gpus,
                decode_gpus,
            } => write!(
                f,
                "its per-GPU throughputs do not add up by role: tput_per_gpu × (P + D) = {} tok/s, but input_tput_per_gpu × P + output_tput_per_gpu × D = {} tok/s (P = {prefill_gpus}, D = {decode_gpus}); which GPUs each figure divides by is not known, so the row is not read",
                crate::core::model::format::grouped(*total_tok_s, 1),
                crate::core::model::format::grouped(*by_role_tok_s, 1)
            ),
            RowError::GpusDoNotAddUp {
                num_gpus,
                prefill_gpus,
                decode_gpus,
            } => match num_gpus {
                Some(n) => write!(
                    f,
                    "`num_gpus` ({n}) is not prefill_gpus + decode_gpus ({prefill_gpus} + {decode_gpus} = {}): the row is not read",
                    u64::from(*prefill_gpus) + u64::from(*decode_gpus)
                ),
                None => write!(
                    f,
                    "prefill_gpus + decode_gpus ({prefill_gpus} + {decode_gpus}) is more GPUs than a count holds: the row is not read"
                ),
            },
            RowError::DecodeRoleEnergy { key, j } => write!(
                f,
                "`{key}` ({} J) is the decode role's alone (no power_metric_schema_version 2): shown as the decode role's; the whole deployment's J per output token is avg_power_w × (P + D) ÷ output tok/s",
                crate::core::model::format::trimmed(*j, 4)
            ),
            RowError::UnreadableDate { date } => write!(
                f,
                "date \"{date}\" is not one this planner reads (e.g. 2026-03-25): its sweep is listed after the dated ones"
            ),
        }
    }
}
