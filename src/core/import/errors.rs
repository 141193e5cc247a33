//! Why a file, a row or a value could not be used: a [`RowError`] whose variants carry what
//! their message names (the key, the value seen, the limit), worded once by its
//! [`std::fmt::Display`] (`errors/wording.rs`); [`RowError::kind`] is the variant alone, for
//! tests and for grouping (`errors/kind.rs`).

use serde::{Deserialize, Serialize};

mod kind;
mod wording;

pub use kind::RowErrorKind;

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
    /// [`RowError::Missing`] for `key`, a key this program names (a text read from a file is
    /// [`short`]ened first).
    pub fn missing(key: &str) -> RowError {
        RowError::Missing { key: key.into() }
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
