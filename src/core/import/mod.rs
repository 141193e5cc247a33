//! Importing benchmark results from the tools people use. [`FORMATS`] is the one list of
//! formats: each entry detects its files and parses them, in a file of its own (no format
//! imports another; shared helpers are [`record`] and [`client`]). [`import`] turns a set of
//! files into a [`Source`] of sweeps: one sweep per model and [`Deployment`] (every identity
//! field the file states), rows grouped by level. Problems are typed ([`RowError`]) with their
//! file and row; good rows are kept; a set with no usable row is an error.
//!
//! Every latency is converted to ms, throughput to output tok/s summed over the deployment.
//! Nothing absent is filled in: a field a file does not carry stays `None`. Derived figures
//! (`rate`, J/token, served req/s) are computed once, by [`Row::finish`].

mod aiperf;
mod aiperf_sweep;
pub mod bundled;
mod client;
mod client_requests;
mod csv_template;
mod errors;
mod evalscope;
mod guidellm;
mod inference_perf;
mod inferencex;
mod json;
mod lenient;
mod llmperf;
mod lmbench;
mod mlenergy;
pub(crate) mod mlenergy_config;
mod mlenergy_v2;
mod record;
pub mod reference;
mod requests;
mod sglang;
pub mod share;
pub mod sources;
pub mod summary;
mod vllm;

use std::collections::{HashMap, HashSet};

use crate::core::model::limits::{
    MAX_FILE_BYTES, MAX_IMPORT_BYTES, MAX_LISTED_PROBLEMS, MAX_MAGNITUDE, MAX_PROBLEM_GROUPS,
    MAX_ROWS, MAX_STREAMED_BYTES, MAX_SWEEPS, MAX_TEXT_CHARS, STREAM_ABOVE_BYTES,
    STREAM_HEAD_BYTES,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

pub use errors::{short, RowError, RowErrorKind};
pub(crate) use lenient::lenient_text;
pub(crate) use mlenergy::measured as mlenergy_measured;
pub(crate) use mlenergy::model as mlenergy_model;

use crate::core::model::deployment::{date_key, Deployment};
use crate::core::model::format::level as level_text;
use crate::core::model::requests::Requests;
use crate::core::model::row::Row;
use crate::core::model::sweep::{Model, Provenance, Source, Statistic, Sweep};
use crate::core::plan::anomalies::{import_flag_counts, AnomalyKind};

/// The model of a run whose file does not state one (and none was given in the import dialog).
pub const MODEL_NOT_STATED: &str = "model not stated";

/// One file offered for import.
#[derive(Clone, Debug, PartialEq)]
pub struct InputFile {
    /// The file's name, with its folder where the browser gives one (or `pasted text`).
    pub name: String,
    /// Its whole text.
    pub text: String,
}

/// What the import dialog adds to the files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// The model of runs whose file does not state one.
    pub model_id: Option<String>,
}

/// The formats this planner reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// ML.ENERGY leaderboard task file (`{configurations, task}`), current or preview schema.
    MlEnergyTask,
    /// ML.ENERGY leaderboard per-model file (nested `parallelization`).
    MlEnergyModel,
    /// ML.ENERGY leaderboard V2 per-batch-size CSV or records JSON.
    MlEnergyV2,
    /// vLLM `bench serve --save-result` JSON or JSON lines, a `vllm bench sweep` summary array,
    /// or the multi-turn benchmark's output.
    VllmBench,
    /// SGLang `bench_serving` JSONL.
    SglangJsonl,
    /// NVIDIA AIPerf / GenAI-Perf `profile_export` JSON.
    AiPerf,
    /// AIPerf's sweep aggregate CSV (`profile_export_aiperf_sweep.csv`).
    AiPerfSweep,
    /// InferenceX aggregate JSON (several configurations per file).
    InferenceX,
    /// EvalScope `perf` summary (and percentile) JSON.
    EvalScope,
    /// GuideLLM `benchmarks.json` report (every benchmark a level).
    GuideLlm,
    /// inference-perf `stage_N_lifecycle_metrics.json` reports (every stage a level).
    InferencePerf,
    /// LLMPerf `*_summary.json` and `*_individual_responses.json`.
    LlmPerf,
    /// LMBench's per-request CSV (`*_output_<qps>.csv`).
    LmBench,
    /// The plain CSV template of the README.
    CsvTemplate,
}

impl Format {
    /// Its spec in [`FORMATS`].
    fn spec(self) -> Option<&'static FormatSpec> {
        FORMATS.iter().find(|spec| spec.format == self)
    }

    /// Human name, e.g. `vLLM bench serve JSON` ([`FormatSpec::label`]).
    pub fn label(self) -> &'static str {
        self.spec().map_or("", |spec| spec.label)
    }
}

/// Each file of an import with the format it was read as (`None`: not recognised).
pub type FileFormats = Vec<(String, Option<Format>)>;

/// A problem with a file (`row: None`) or one of its rows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Problem {
    /// The file it came from (`(import)` for the import as a whole).
    pub file: String,
    /// 1-based row, record or line number, when it concerns one.
    pub row: Option<usize>,
    /// What is wrong.
    pub error: RowError,
}

impl Problem {
    /// What is wrong, in plain words.
    pub fn message(&self) -> String {
        self.error.to_string()
    }

    /// The message with where it was found, as the import panel lists it: "a.csv, row 3: …",
    /// "a.csv: …", or the message alone for the import as a whole.
    pub fn located(&self) -> String {
        match (self.row, self.file.as_str()) {
            (_, "(import)") => self.message(),
            (Some(r), file) => format!("{file}, row {r}: {}", self.message()),
            (None, file) => format!("{file}: {}", self.message()),
        }
    }
}

/// One measured run read from a file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measured {
    /// The model's id.
    pub model_id: String,
    /// What was measured: with the model, the sweep's identity.
    pub deployment: Deployment,
    /// The run.
    pub row: Row,
    /// What the file says about the model, if anything (ML.ENERGY files do).
    pub model: Option<Model>,
    /// What joins a run to the companion files that may add figures (EvalScope: its folder;
    /// LLMPerf: its folder and file stem).
    pub folder: Option<String>,
}

impl Measured {
    /// A run of a model the file says nothing more about.
    pub fn new(model_id: String, deployment: Deployment, row: Row) -> Measured {
        Measured {
            model_id,
            deployment,
            row,
            model: None,
            folder: None,
        }
    }
}

/// Figures a companion file adds to the one run it joins (EvalScope percentiles in the same
/// folder, LLMPerf individual responses beside their summary).
pub(crate) struct Supplement {
    /// The companion file.
    pub file: String,
    /// What joins it to its run: the run's [`Measured::folder`] (EvalScope: the folder; LLMPerf:
    /// the folder and the file names' common stem).
    pub folder: String,
    /// (statistic, ms) pairs.
    pub latencies: Vec<(Statistic, f64)>,
    /// Requests that failed, where the companion counts them.
    pub failed: Option<f64>,
    /// Each request's own figures, where the companion lists them.
    pub requests: Option<Requests>,
    /// What to say when no run of the import joins it.
    pub orphan: RowError,
}

/// Problems beyond those listed, counted per kind and key with the first as example.
#[derive(Default)]
struct Omitted {
    groups: Vec<(RowErrorKind, Option<String>, usize, String)>,
    index: HashMap<(RowErrorKind, Option<String>), usize>,
}

/// What format parsers hand back for a set of files.
#[derive(Default)]
pub(crate) struct Parsed {
    rows: Vec<Measured>,
    problems: Vec<Problem>,
    pub supplements: Vec<Supplement>,
    /// Problems past the first [`MAX_LISTED_PROBLEMS`], grouped.
    omitted: Omitted,
    /// Runs left out because [`MAX_ROWS`] were kept already.
    rows_left_out: bool,
    /// Records already read (a sweep folder holds each run twice).
    seen: HashSet<String>,
    /// The import dialog's model for files that state none.
    model_hint: Option<String>,
    /// Texts cut to [`MAX_TEXT_CHARS`] in the runs kept.
    texts_cut: usize,
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
    fn note(&mut self, error: RowError) {
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
            self.texts_cut += cap_texts(&mut m);
            self.rows.push(m);
        }
    }

    /// The model of a run: as the file states it, else as the import dialog gives it, else
    /// `fallback` (a file name), else [`MODEL_NOT_STATED`].
    pub fn model(&self, stated: Option<&str>, fallback: Option<&str>) -> String {
        stated
            .filter(|s| !s.trim().is_empty())
            .or(self.model_hint.as_deref())
            .or(fallback)
            .unwrap_or(MODEL_NOT_STATED)
            .to_string()
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
    fn into_problems(mut self) -> Vec<Problem> {
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

/// A file's content as read once for detection and handed to its parser.
pub(crate) enum Body {
    /// The whole text as JSON.
    Json(Value),
    /// JSON lines (the first line's value; the parser reads them all).
    Lines(Value),
    /// Several JSON values read from a stream, each with its number from 1.
    Values(Vec<(usize, Value)>),
    /// A CSV header.
    Csv(Vec<String>),
    /// Text that starts like JSON but is not.
    Invalid(RowError),
}

/// A file as the detector sees it.
pub(crate) struct Probe {
    body: Body,
}

impl Probe {
    fn new(text: &str) -> Probe {
        let text = text.trim_start_matches('\u{feff}').trim_start();
        if !(text.starts_with('{') || text.starts_with('[')) {
            let header = csv::ReaderBuilder::new()
                .flexible(true)
                .trim(csv::Trim::All)
                .from_reader(text.as_bytes())
                .headers()
                .map(|h| h.iter().map(str::to_string).collect())
                .unwrap_or_default();
            return Probe {
                body: Body::Csv(header),
            };
        }
        let body = match record::parse_json(text) {
            Ok(value) => Body::Json(value),
            Err(whole) => {
                let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
                match record::parse_json(first) {
                    Ok(value @ Value::Object(_)) if whole.kind() == RowErrorKind::NotJson => {
                        Body::Lines(value)
                    }
                    _ => Body::Invalid(whole),
                }
            }
        };
        Probe { body }
    }

    /// JSON, whole or as lines.
    pub fn is_json(&self) -> bool {
        matches!(self.body, Body::Json(_) | Body::Lines(_) | Body::Values(_))
    }

    /// One JSON object (not lines).
    pub fn is_json_object(&self) -> bool {
        matches!(self.body, Body::Json(Value::Object(_)))
    }

    /// A JSON array.
    pub fn is_json_array(&self) -> bool {
        matches!(self.body, Body::Json(Value::Array(_)))
    }

    /// A CSV file.
    pub fn is_csv(&self) -> bool {
        matches!(self.body, Body::Csv(_))
    }

    /// The first record: the object, the array's first item, the first line.
    fn first(&self) -> Option<&Map<String, Value>> {
        match &self.body {
            Body::Json(Value::Object(o)) | Body::Lines(Value::Object(o)) => Some(o),
            Body::Json(Value::Array(items)) => items.first()?.as_object(),
            Body::Values(values) => values.first()?.1.as_object(),
            _ => None,
        }
    }

    /// The first run of a file that holds its runs in `configurations` or `records`.
    fn inner(&self) -> Option<&Map<String, Value>> {
        let first = self.first()?;
        ["configurations", "records"]
            .iter()
            .find_map(|k| first.get(*k)?.as_array()?.first()?.as_object())
    }

    /// The first record has `key` at its top.
    pub fn has_top(&self, key: &str) -> bool {
        self.first().is_some_and(|o| o.contains_key(key))
    }

    /// The file has `path` (dots walk into objects): in its first record, in its first run, or
    /// as a CSV column.
    pub fn has(&self, path: &str) -> bool {
        if let Body::Csv(header) = &self.body {
            return header.iter().any(|h| h == path);
        }
        let walk = |o: &Map<String, Value>| {
            let mut parts = path.split('.');
            let mut value = parts.next().and_then(|k| o.get(k));
            for part in parts {
                value = value.and_then(|v| v.get(part));
            }
            value.is_some()
        };
        self.first().is_some_and(walk) || self.inner().is_some_and(walk)
    }

    /// The file has one of `paths`.
    pub fn has_any(&self, paths: &[&str]) -> bool {
        paths.iter().any(|p| self.has(p))
    }

    /// The text at `key` in the first record.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.first()?.get(key)?.as_str()
    }

    /// A few of the file's keys or columns, for a message.
    fn sample_keys(&self) -> String {
        let keys: Vec<String> = match &self.body {
            Body::Csv(header) => header.iter().take(4).cloned().collect(),
            _ => self
                .first()
                .map(|o| o.keys().take(4).cloned().collect())
                .unwrap_or_default(),
        };
        if keys.is_empty() {
            "none".to_string()
        } else {
            keys.iter()
                .map(|k| format!("`{}`", errors::short(k)))
                .collect::<Vec<_>>()
                .join(", ")
        }
    }
}

/// One format, declared in its reader's file: its names, how to recognise its files, how to
/// read them, and what it looks like (for naming the closest format of a file that matches
/// none). [`FORMATS`] lists them.
pub(crate) struct FormatSpec {
    /// The format.
    pub format: Format,
    /// Human name, e.g. `vLLM bench serve JSON`.
    pub label: &'static str,
    /// The format in a sentence: `a vLLM bench serve result`.
    pub described: &'static str,
    /// True for a file of this format.
    pub detect: fn(&Probe) -> bool,
    /// Reads the file's runs into `Parsed`.
    pub parse: fn(&InputFile, Body, &mut Parsed),
    /// Keys typical of the format.
    pub keys: &'static [&'static str],
    /// The key that places a run on a level (alternatives separated by `|`).
    pub level: &'static str,
    /// The key of its output throughput (alternatives separated by `|`).
    pub throughput: &'static str,
}

/// Every format this planner reads, in detection order: the only list of formats, each spec
/// declared in its reader's file.
pub(crate) const FORMATS: &[FormatSpec] = &[
    mlenergy::MODEL_SPEC,
    mlenergy::TASK_SPEC,
    mlenergy_v2::SPEC,
    aiperf::SPEC,
    inferencex::SPEC,
    evalscope::SPEC,
    guidellm::SPEC,
    inference_perf::SPEC,
    llmperf::SPEC,
    sglang::SPEC,
    vllm::SPEC,
    lmbench::SPEC,
    aiperf_sweep::SPEC,
    csv_template::SPEC,
];

/// The format whose keys a file shares most (at least two), with what it lacks; else a list
/// of the file's keys.
fn closest(probe: &Probe) -> RowError {
    if let Body::Invalid(e) = &probe.body {
        return e.clone();
    }
    let best = FORMATS
        .iter()
        .map(|f| (f.keys.iter().filter(|k| probe.has(k)).count(), f))
        .filter(|(score, _)| *score >= 2)
        .max_by_key(|(score, _)| *score);
    let lacking = |alternatives: &str| {
        let keys: Vec<&str> = alternatives.split('|').collect();
        (!probe.has_any(&keys)).then(|| keys.join("` or `"))
    };
    match best {
        Some((_, spec)) => {
            let format = spec.described.to_string();
            if let Some(key) = lacking(spec.level) {
                RowError::LooksLikeButNoLevel { key, format }
            } else if let Some(key) = lacking(spec.throughput) {
                RowError::LooksLikeButNoThroughput { key, format }
            } else {
                RowError::NotRecognised {
                    keys: probe.sample_keys(),
                }
            }
        }
        None => RowError::NotRecognised {
            keys: probe.sample_keys(),
        },
    }
}

/// Recognises a file's format from its content.
pub fn detect(file: &InputFile) -> Option<Format> {
    let probe = Probe::new(&file.text);
    FORMATS
        .iter()
        .find(|f| (f.detect)(&probe))
        .map(|f| f.format)
}

/// A warning about imported numbers: how many rows carry an anomaly flag that does not depend
/// on the statistic (`implausible-speed`, `saturated`, `rate-above-offered`), with an example.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    /// The flag's hook value, e.g. `implausible-speed`.
    pub kind: String,
    /// Rows flagged.
    pub rows: usize,
    /// What the first flagged row shows, with its sweep and level.
    pub example: String,
}

impl Warning {
    /// "4 rows flagged implausible-speed: … e.g. …".
    pub fn text(&self) -> String {
        let meaning = AnomalyKind::ALL
            .iter()
            .find(|k| k.key() == self.kind)
            .map_or("", |k| k.meaning());
        format!(
            "{} row{} flagged {} ({meaning}). For example {}.",
            self.rows,
            if self.rows == 1 { "" } else { "s" },
            self.kind,
            self.example
        )
    }
}

/// The result of a successful import.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Import {
    /// The sweeps, as a source named after the files.
    pub source: Source,
    /// Each file and the format it was read as (`None`: not recognised).
    pub formats: FileFormats,
    /// Rows or values that could not be used, with where they came from.
    pub problems: Vec<Problem>,
    /// Numbers that cannot be true together, and loads not served as offered.
    pub warnings: Vec<Warning>,
}

/// Which files of an import are read, checked from their sizes (and whether each is read as a
/// stream, [`streams`]) before any is read: a file over [`MAX_FILE_BYTES`] is refused, and so
/// is each file that would bring the import past [`MAX_IMPORT_BYTES`]; files read as a stream
/// have [`MAX_STREAMED_BYTES`] for both limits, counted apart. Each refusal is a problem naming
/// the size and the limit. The tools module checks picked files this way, in its worker, before
/// it reads them.
pub fn admit(sizes: &[(&str, usize, bool)]) -> (Vec<bool>, Vec<Problem>) {
    let mut totals = [0usize; 2];
    let mut problems = Vec::new();
    let admitted = sizes
        .iter()
        .map(|&(name, bytes, streamed)| {
            let (total, file_limit, import_limit) = if streamed {
                (&mut totals[1], MAX_STREAMED_BYTES, MAX_STREAMED_BYTES)
            } else {
                (&mut totals[0], MAX_FILE_BYTES, MAX_IMPORT_BYTES)
            };
            let refusal = if bytes > file_limit {
                Some(RowError::FileTooLarge {
                    bytes,
                    limit: file_limit,
                })
            } else if total.saturating_add(bytes) > import_limit {
                Some(RowError::ImportTooLarge {
                    bytes: total.saturating_add(bytes),
                    limit: import_limit,
                })
            } else {
                *total += bytes;
                None
            };
            if let Some(error) = &refusal {
                problems.push(Problem {
                    file: name.to_string(),
                    row: None,
                    error: error.clone(),
                });
            }
            refusal.is_none()
        })
        .collect();
    (admitted, problems)
}

/// True for a YAML file: named `.yaml` or `.yml`, or starting (after comments) with a document
/// marker, a `key: value` or a `key:` line.
fn is_yaml(file: &InputFile) -> bool {
    let name = file.name.to_ascii_lowercase();
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return true;
    }
    let first = file
        .text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .unwrap_or("");
    let key = first
        .split_once(": ")
        .map(|(key, _)| key)
        .or(first.strip_suffix(':'));
    first == "---"
        || key.is_some_and(|key| {
            !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
        })
}

/// True for a text that can hold a benchmark result: not binary ([`is_binary`]) and not blank.
/// The page keeps only such files of an import.
pub fn is_text(text: &str) -> bool {
    !is_binary(text) && !text.trim_start_matches('\u{feff}').trim().is_empty()
}

/// True for text read from a binary file (an image, an executable): more than one character
/// in ten of its first 4 KB is not text (NUL bytes, control characters, bytes that are not
/// UTF-8). A stray NUL in a text file is not enough: the row holding it is named instead.
fn is_binary(text: &str) -> bool {
    let head: Vec<char> = text.chars().take(4096).collect();
    let odd = head
        .iter()
        .filter(|c| **c == '\u{fffd}' || (c.is_control() && !c.is_whitespace()))
        .count();
    odd * 10 > head.len()
}

/// The names of an import's files for its label: up to three, then how many more ("a.json,
/// b.json, c.json and 2,997 more files"), cut to [`MAX_TEXT_CHARS`].
pub fn files_label<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(3).map(AsRef::as_ref).collect();
    let mut label = shown.join(", ");
    if names.len() > 3 {
        label.push_str(&format!(
            " and {} more files",
            level_text((names.len() - 3) as f64)
        ));
    }
    cap_text(&mut label);
    label
}

/// Orders names as people read them: `run2.json` before `run10.json`.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let chunks = |s: &str| -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, text)) if *d == digit => text.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (x, y) = (chunks(a), chunks(b));
    for (p, q) in x.iter().zip(&y) {
        let order = match (p, q) {
            ((true, m), (true, n)) => {
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                m.len().cmp(&n.len()).then_with(|| m.cmp(n))
            }
            ((_, m), (_, n)) => m.cmp(n),
        };
        if order.is_ne() {
            return order;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// True for a file of `bytes` read as a stream ([`read_stream`]) rather than as a text: larger
/// than [`STREAM_ABOVE_BYTES`], and its first bytes (after a byte order mark and white space)
/// start a JSON object or array. `head(n)` reads its first `n` bytes (fewer where it cannot):
/// called only for a file that large, so a small file's bytes are never read twice.
pub fn streams(bytes: usize, head: impl FnOnce(usize) -> Vec<u8>) -> bool {
    if bytes <= STREAM_ABOVE_BYTES {
        return false;
    }
    let head = head(STREAM_HEAD_BYTES);
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    matches!(
        head.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}

/// A file read as a stream: its name and the JSON values it held, with each request's
/// per-request arrays folded as they were read ([`json`]).
pub struct StreamedFile {
    /// The file's name, as [`InputFile::name`].
    pub name: String,
    streamed: json::Streamed,
}

/// Reads a file as a stream of JSON (one value, or JSON lines), lenient and folded as it is
/// read ([`json`]): it is never held whole, so its size is not limited by memory. What it held is
/// imported with [`read_with_streams`].
pub fn read_stream(name: String, reader: impl std::io::Read) -> StreamedFile {
    StreamedFile {
        name,
        streamed: json::from_stream(reader),
    }
}

/// [`import_with`] without options.
pub fn import(files: &[InputFile]) -> Result<Import, Vec<Problem>> {
    import_with(files, &ImportOptions::default())
}

/// Reads every file, detects its format, and groups the usable rows into sweeps.
///
/// Errors: the list of problems when no file yields a usable row (nothing is loaded then).
pub fn import_with(files: &[InputFile], options: &ImportOptions) -> Result<Import, Vec<Problem>> {
    read(files, options).1
}

/// Each file with the format it was read as (`None`: not recognised), and [`import_with`]'s
/// result: what the page reports of an import, read once.
pub fn read(
    files: &[InputFile],
    options: &ImportOptions,
) -> (FileFormats, Result<Import, Vec<Problem>>) {
    read_with_streams(files, Vec::new(), options)
}

/// [`read`] of files read as texts and files read as streams ([`read_stream`]) together.
pub fn read_with_streams(
    files: &[InputFile],
    streamed: Vec<StreamedFile>,
    options: &ImportOptions,
) -> (FileFormats, Result<Import, Vec<Problem>>) {
    let mut parsed = Parsed {
        model_hint: options
            .model_id
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_string),
        ..Parsed::default()
    };
    // Files in name order (as people read numbers), so the rows kept under the row limit and
    // the id of an import do not depend on the order files were picked in.
    let mut files: Vec<Item> = files
        .iter()
        .map(Item::Text)
        .chain(streamed.into_iter().map(Item::Streamed))
        .collect();
    crate::core::model::order::sort_by(&mut files, |a, b| natural_order(a.name(), b.name()));
    let formats = read_files(files, &mut parsed);
    apply_supplements(&mut parsed);
    if parsed.rows_left_out {
        parsed.note(RowError::TooManyRows { limit: MAX_ROWS });
    }
    let kept = kept_rows(&mut parsed);
    if kept.is_empty() {
        if parsed.problems.is_empty() && parsed.omitted.groups.is_empty() {
            parsed.note(RowError::NoFile);
        }
        return (formats, Err(parsed.into_problems()));
    }
    let names: Vec<&str> = formats.iter().map(|(name, _)| name.as_str()).collect();
    let (models, sweeps, left_out) = group_at_most(kept, MAX_SWEEPS);
    if left_out > 0 {
        parsed.note(RowError::TooManySweeps { limit: MAX_SWEEPS });
    }
    note_undated(&sweeps, &mut parsed);
    let source = Source::new(
        "import".to_string(),
        // The file names: the page says "imported" or "shared by link" around them.
        files_label(&names),
        models,
        sweeps,
        Provenance {
            publisher: "your files".to_string(),
            notes: vec!["Imported in this browser; figures as the files state them, converted to ms and output tok/s.".to_string()],
            ..Provenance::default()
        },
    );
    let warnings = warnings(&source);
    let import = Import {
        source,
        formats: formats.clone(),
        problems: parsed.into_problems(),
        warnings,
    };
    (formats, Ok(import))
}

/// A file of an import: a text, or what a stream held.
enum Item<'a> {
    Text(&'a InputFile),
    Streamed(StreamedFile),
}

impl Item<'_> {
    fn name(&self) -> &str {
        match self {
            Item::Text(file) => &file.name,
            Item::Streamed(file) => &file.name,
        }
    }
}

/// A streamed file as the detector sees it: one value as a JSON text's, several as JSON
/// lines' (each with its line); `None` for a stream that held no value (empty, or not JSON from
/// the start: the problem is recorded). Lines left out and a read stopped early are recorded.
fn streamed_probe(file: StreamedFile, parsed: &mut Parsed) -> Option<Probe> {
    let json::Streamed {
        mut values,
        problems,
    } = file.streamed;
    if values.is_empty() && problems.is_empty() {
        parsed.problem(&file.name, None, RowError::Empty);
    }
    for (line, error) in problems {
        parsed.problem(&file.name, line, error);
    }
    let body = match values.len() {
        0 => return None,
        1 => Body::Json(values.remove(0).1),
        _ => Body::Values(values),
    };
    Some(Probe { body })
}

/// Reads each file (sizes first: a text over the limits is never read) with the first format
/// that detects it, into `parsed`; returns each file's format (`None`: not read or not
/// recognised, with a problem saying why).
fn read_files(files: Vec<Item>, parsed: &mut Parsed) -> FileFormats {
    let mut formats = Vec::new();
    // A file that is not text, or is blank, is named as such whatever its size.
    let sizes: Vec<(&str, usize, bool)> = files
        .iter()
        .map(|item| match item {
            Item::Text(f) => (
                f.name.as_str(),
                if is_text(&f.text) { f.text.len() } else { 0 },
                false,
            ),
            Item::Streamed(f) => (f.name.as_str(), 0, true),
        })
        .collect();
    let (admitted, refused) = admit(&sizes);
    for p in refused {
        parsed.problem(&p.file, p.row, p.error);
    }
    for (item, admitted) in files.into_iter().zip(admitted) {
        let streamed_name;
        let (file, probe) = match item {
            Item::Text(file) => {
                if !admitted {
                    formats.push((file.name.clone(), None));
                    continue;
                }
                if is_binary(&file.text) {
                    formats.push((file.name.clone(), None));
                    parsed.problem(&file.name, None, RowError::NotText);
                    continue;
                }
                if file.text.trim_start_matches('\u{feff}').trim().is_empty() {
                    formats.push((file.name.clone(), None));
                    parsed.problem(&file.name, None, RowError::Empty);
                    continue;
                }
                (file, Probe::new(&file.text))
            }
            Item::Streamed(streamed) => {
                streamed_name = InputFile {
                    name: streamed.name.clone(),
                    text: String::new(),
                };
                match streamed_probe(streamed, parsed) {
                    Some(probe) => (&streamed_name, probe),
                    None => {
                        formats.push((streamed_name.name, None));
                        continue;
                    }
                }
            }
        };
        match FORMATS.iter().find(|f| (f.detect)(&probe)) {
            Some(spec) => {
                formats.push((file.name.clone(), Some(spec.format)));
                (spec.parse)(file, probe.body, parsed);
            }
            None if is_yaml(file) => {
                formats.push((file.name.clone(), None));
                parsed.problem(&file.name, None, RowError::Yaml);
            }
            // GuideLLM's CSV twin of its report (`Run Id`, or the newer `Run Info` group row).
            None if probe.is_csv() && probe.has_any(&["Run Id", "Run ID", "Run Info"]) => {
                formats.push((file.name.clone(), None));
                parsed.problem(&file.name, None, RowError::GuideLlmCsv);
            }
            None => {
                formats.push((file.name.clone(), None));
                parsed.problem(&file.name, None, closest(&probe));
            }
        }
    }
    formats
}

/// The rows read (their texts cut to [`MAX_TEXT_CHARS`] as each was kept); notes on rows left
/// out, latencies not usable and texts cut.
fn kept_rows(parsed: &mut Parsed) -> Vec<Measured> {
    let kept = std::mem::take(&mut parsed.rows);
    let unusable: u32 = kept.iter().map(|m| m.row.unusable_latencies()).sum();
    if unusable > 0 {
        parsed.note(RowError::UnusableLatencies { count: unusable });
    }
    let cut = parsed.texts_cut;
    if cut > 0 {
        parsed.note(RowError::TextCut {
            count: cut,
            limit: MAX_TEXT_CHARS,
        });
    }
    kept
}

/// A problem for each campaign date no sweep's order can read (named once each).
fn note_undated(sweeps: &[Sweep], parsed: &mut Parsed) {
    let mut undated: Vec<&str> = sweeps
        .iter()
        .filter_map(|s| s.deployment.date.as_deref())
        .filter(|d| date_key(d).is_none())
        .collect();
    crate::core::model::order::sort_by(&mut undated, |a, b| a.cmp(b));
    undated.dedup();
    for date in undated {
        parsed.problem(
            "(import)",
            None,
            RowError::UnreadableDate { date: short(date) },
        );
    }
}

/// Adds each companion file's latencies to the one run of its folder.
fn apply_supplements(parsed: &mut Parsed) {
    for sup in std::mem::take(&mut parsed.supplements) {
        let mut runs = parsed
            .rows
            .iter_mut()
            .filter(|m| m.folder.as_deref() == Some(sup.folder.as_str()));
        match (runs.next(), runs.next()) {
            (Some(m), None) => {
                for (stat, ms) in sup.latencies {
                    m.row.set_latency_ms(stat, Some(ms));
                }
                if sup.failed.is_some() && m.row.failed_requests.is_none() {
                    m.row.failed_requests = sup.failed;
                }
                if m.row.requests.is_none() {
                    m.row.requests = sup.requests;
                }
            }
            (None, _) => parsed.problem(&sup.file, None, sup.orphan),
            (Some(_), Some(_)) => {
                let n = 2 + runs.count();
                parsed.problem(
                    &sup.file,
                    None,
                    RowError::PercentilesAmbiguous { summaries: n },
                )
            }
        }
    }
}

/// The import's warnings: rows flagged `implausible-speed` (at any statistic), `saturated`,
/// `rate-above-offered` or `failed-requests`, counted per kind over all sweeps with the first as
/// example.
fn warnings(source: &Source) -> Vec<Warning> {
    let mut out: Vec<Warning> = Vec::new();
    for (i, sweep) in source.sweeps.iter().enumerate() {
        for count in import_flag_counts(sweep) {
            match out.iter_mut().find(|w| w.kind == count.kind.key()) {
                Some(w) => w.rows += count.rows,
                None => out.push(Warning {
                    kind: count.kind.key().to_string(),
                    rows: count.rows,
                    example: format!(
                        "{} on {} at {}: {}",
                        source.models[sweep.model_index].model_id,
                        source.sweep_label(i),
                        level_text(sweep.rows[count.first_row].level),
                        count.detail
                    ),
                }),
            }
        }
    }
    crate::core::model::order::sort_by_key(&mut out, |w| {
        AnomalyKind::ALL.iter().position(|k| k.key() == w.kind)
    });
    out
}

/// Groups measured runs into sweeps: one per model and deployment (every identity field
/// equal), models and sweeps in first-seen order.
pub(crate) fn group(rows: Vec<Measured>) -> (Vec<Model>, Vec<Sweep>) {
    let (models, sweeps, _) = group_at_most(rows, usize::MAX);
    (models, sweeps)
}

/// [`group`], keeping at most `max_sweeps` sweeps; also returns how many runs of further
/// sweeps were left out. Linear in the runs (sweeps found by the hash of their identity).
fn group_at_most(rows: Vec<Measured>, max_sweeps: usize) -> (Vec<Model>, Vec<Sweep>, usize) {
    let mut models: Vec<Model> = Vec::new();
    let mut model_index: HashMap<String, usize> = HashMap::new();
    let mut keys: Vec<(usize, Deployment)> = Vec::new();
    let mut sweep_index: HashMap<(usize, String), usize> = HashMap::new();
    let mut groups: Vec<Vec<Row>> = Vec::new();
    let mut left_out = 0;
    for m in rows {
        let mi = match model_index.get(&m.model_id) {
            Some(&i) => i,
            None => {
                models.push(m.model.clone().unwrap_or_else(|| Model {
                    model_id: m.model_id.clone(),
                    nickname: m.model_id.clone(),
                    architecture: "architecture not stated".to_string(),
                    total_params_b: None,
                    activated_params_b: None,
                }));
                model_index.insert(m.model_id.clone(), models.len() - 1);
                models.len() - 1
            }
        };
        let key = (mi, m.deployment.identity_key());
        match sweep_index.get(&key) {
            Some(&i) => groups[i].push(m.row),
            None if keys.len() >= max_sweeps => left_out += 1,
            None => {
                sweep_index.insert(key, keys.len());
                keys.push((mi, m.deployment));
                groups.push(vec![m.row]);
            }
        }
    }
    let sweeps = keys
        .into_iter()
        .zip(groups)
        .map(|((model_index, deployment), rows)| Sweep::new(model_index, deployment, rows))
        .collect();
    (models, sweeps, left_out)
}

/// Cuts a text to [`MAX_TEXT_CHARS`]; true when it was longer.
pub(crate) fn cap_text(text: &mut String) -> bool {
    match text.char_indices().nth(MAX_TEXT_CHARS) {
        Some((at, _)) => {
            text.truncate(at);
            text.push('…');
            // Truncating keeps the allocation: give the long text's memory back.
            text.shrink_to_fit();
            true
        }
        None => false,
    }
}

/// Cuts a deployment's texts to [`MAX_TEXT_CHARS`]; how many were cut.
pub(crate) fn cap_deployment(d: &mut Deployment) -> usize {
    let mut texts: Vec<&mut String> = vec![&mut d.gpu, &mut d.precision];
    for field in [
        &mut d.engine,
        &mut d.engine_version,
        &mut d.spec_decoding,
        &mut d.disaggregation,
        &mut d.dataset,
        &mut d.config,
        &mut d.date,
    ] {
        texts.extend(field.as_mut());
    }
    texts.into_iter().map(cap_text).filter(|cut| *cut).count()
}

/// Cuts a run's texts (model, identity fields) to [`MAX_TEXT_CHARS`]; how many were cut.
fn cap_texts(m: &mut Measured) -> usize {
    let mut cut = usize::from(cap_text(&mut m.model_id)) + cap_deployment(&mut m.deployment);
    if let Some(model) = m.model.as_mut() {
        for text in [
            &mut model.model_id,
            &mut model.nickname,
            &mut model.architecture,
        ] {
            cut += usize::from(cap_text(text));
        }
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_format_is_listed_once_with_its_names_and_keys() {
        for (i, spec) in FORMATS.iter().enumerate() {
            assert!(
                FORMATS[..i].iter().all(|s| s.format != spec.format),
                "{:?} twice",
                spec.format
            );
            assert_eq!(spec.format.label(), spec.label);
            assert!(!spec.label.is_empty() && !spec.described.is_empty());
            assert!(spec.keys.len() >= 2, "{:?}", spec.format);
        }
    }
}
