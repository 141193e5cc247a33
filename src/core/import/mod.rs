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
mod aiperf_server;
mod aiperf_sweep;
pub mod bounded;
pub mod bundled;
mod client;
mod client_requests;
mod csv_template;
mod detection;
mod errors;
mod evalscope;
mod grouping;
mod guidellm;
mod inference_perf;
mod inferencex;
mod inferencex_agentic;
mod json;
mod json_quick;
mod lenient;
mod llmperf;
mod lmbench;
mod mlenergy;
pub(crate) mod mlenergy_config;
mod mlenergy_v2;
mod parsed;
mod pipeline;
mod record;
pub mod reference;
mod requests;
mod roles;
mod sglang;
pub mod share;
mod signals;
pub mod sources;
pub mod summary;
mod vllm;

use serde::{Deserialize, Serialize};

pub use detection::{detect, is_text};
pub(crate) use detection::{Body, FormatSpec, Probe, FORMATS};
pub use errors::{short, RowError, RowErrorKind};
pub(crate) use grouping::{cap_deployment, cap_text, group};
pub(crate) use lenient::lenient_text;
pub(crate) use mlenergy::measured as mlenergy_measured;
pub(crate) use mlenergy::model as mlenergy_model;
pub(crate) use parsed::Parsed;
pub use pipeline::{
    admit, files_label, hidden_in_folder, import, import_with, read, read_stream,
    read_stream_quick, read_with_streams, streams, StreamedFile,
};

use crate::core::model::deployment::Deployment;
use crate::core::model::requests::Requests;
use crate::core::model::row::Row;
use crate::core::model::signals::ServerSignals;
use crate::core::model::source::Source;
use crate::core::model::sweep::{Model, Statistic};
use crate::core::plan::anomalies::AnomalyKind;

pub use crate::core::model::sweep::MODEL_NOT_STATED;

/// The name a pasted `text` is imported under: "pasted at 17:52:03 (model,concurrency,output…)",
/// `clock` the local time of the paste and the text's first line (up to 24 characters), so that
/// each paste has its own entry in the Data menu and its own messages.
pub fn pasted_name(clock: &str, text: &str) -> String {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    match first {
        None => format!("pasted at {clock}"),
        Some(line) if line.chars().count() <= 24 => format!("pasted at {clock} ({line})"),
        Some(line) => format!(
            "pasted at {clock} ({}…)",
            line.chars().take(24).collect::<String>()
        ),
    }
}

/// One file offered for import.
#[derive(Clone, Debug, PartialEq)]
pub struct InputFile {
    /// The file's name, with its folder where the browser gives one (or [`pasted_name`]).
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
    /// AIPerf's server-metrics export (`server_metrics_export.csv` or `.json`): a server's
    /// signals, joined to the run beside it.
    AiPerfServerMetrics,
    /// InferenceX's per-level result of an agentic run (`bmk_agentic_<run>/<run>.json`).
    InferenceXAgentic,
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

/// A server's signals from a file beside a run (AIPerf's server-metrics export, inference-perf's
/// Prometheus report), joined to the one run whose [`Measured::folder`] is one of its `keys`
/// (tried in order).
pub(crate) struct SignalSupplement {
    /// The file.
    pub file: String,
    /// What joins it to its run: the folder it sits in (AIPerf's profile export beside it), the
    /// run's name (InferenceX keeps its result in `bmk_agentic_<run>/`, the server metrics in
    /// `agentic_<run>/aiperf_artifacts/`), or the stage (inference-perf `stage_N`).
    pub keys: Vec<String>,
    /// The signals, checked ([`ServerSignals::checked`]).
    pub signals: ServerSignals,
    /// inference-perf: its KV gauge read exactly 0 (mean and every percentile), which it writes
    /// for a metric its query found no series for.
    pub kv_zero: bool,
    /// What it is, for "server signals without a level: …".
    pub what: String,
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
            "{} flagged {} ({meaning}). For example {}.",
            crate::core::model::format::counted(self.rows, "row"),
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
