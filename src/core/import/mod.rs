//! Importing benchmark results from the tools people use: one module per format, a detector,
//! and [`import`], which turns a set of files into a [`Source`] of sweeps. Row-level problems are
//! collected with their file and row; good rows are kept; a set with no usable row is an error.
//!
//! Every latency is converted to ms, throughput to output tok/s summed over the deployment.
//! Nothing absent is filled in: a field a file does not carry stays `None`.

mod aiperf;
mod csv_template;
mod inferencex;
mod mlenergy;
mod mlenergy_v2;
mod record;
mod sglang;
mod vllm;

use super::sweep::{LevelKind, Model, Provenance, Row, Source, Sweep};

/// One file offered for import.
#[derive(Clone, Debug, PartialEq)]
pub struct InputFile {
    /// The file's name (or `pasted text`).
    pub name: String,
    /// Its whole text.
    pub text: String,
}

/// The formats this planner reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Format {
    /// ML.ENERGY leaderboard task file (`{configurations, task}`), current or preview schema.
    MlEnergyTask,
    /// ML.ENERGY leaderboard per-model file (nested `parallelization`).
    MlEnergyModel,
    /// ML.ENERGY leaderboard V2 per-batch-size CSV or records JSON.
    MlEnergyV2,
    /// vLLM `bench serve --save-result` JSON (or a `vllm bench sweep` summary array).
    VllmBench,
    /// SGLang `bench_serving` JSONL.
    SglangJsonl,
    /// NVIDIA AIPerf / GenAI-Perf `profile_export` JSON.
    AiPerf,
    /// InferenceX aggregate JSON (several configurations per file).
    InferenceX,
    /// The plain CSV template of the README.
    CsvTemplate,
}

impl Format {
    /// Human name, e.g. `vLLM bench serve JSON`.
    pub fn label(self) -> &'static str {
        match self {
            Format::MlEnergyTask => "ML.ENERGY task file",
            Format::MlEnergyModel => "ML.ENERGY per-model file",
            Format::MlEnergyV2 => "ML.ENERGY V2 per-batch data",
            Format::VllmBench => "vLLM bench serve JSON",
            Format::SglangJsonl => "SGLang bench_serving JSONL",
            Format::AiPerf => "AIPerf profile export",
            Format::InferenceX => "InferenceX aggregate JSON",
            Format::CsvTemplate => "CSV template",
        }
    }
}

/// A row-level (or file-level, `row: None`) problem.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Problem {
    /// The file it came from.
    pub file: String,
    /// 1-based row, record or line number, when it concerns one.
    pub row: Option<usize>,
    /// What is wrong, in plain words.
    pub message: String,
}

/// What identifies one imported sweep.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SweepKey {
    pub model_id: String,
    pub gpu: String,
    pub num_gpus: Option<u32>,
    pub parallelism: (u32, u32, u32),
    pub precision: String,
    pub level_kind: LevelKind,
    pub config: String,
}

impl SweepKey {
    /// A key with only a model and a level kind: hardware "not stated".
    pub fn new(model_id: &str, level_kind: LevelKind) -> SweepKey {
        SweepKey {
            model_id: model_id.to_string(),
            gpu: "GPU not stated".to_string(),
            num_gpus: None,
            parallelism: (0, 0, 0),
            precision: "precision not stated".to_string(),
            level_kind,
            config: String::new(),
        }
    }
}

/// One measured level read from a file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Measured {
    pub key: SweepKey,
    pub row: Row,
    /// What the file says about the model, if anything (ML.ENERGY files do).
    pub model: Option<Model>,
}

impl Measured {
    /// A level of a model the file says nothing more about.
    pub fn new(key: SweepKey, row: Row) -> Measured {
        Measured {
            key,
            row,
            model: None,
        }
    }
}

/// What a format parser hands back for one file.
#[derive(Default)]
pub(crate) struct Parsed {
    pub rows: Vec<Measured>,
    pub problems: Vec<Problem>,
}

impl Parsed {
    pub fn problem(&mut self, file: &str, row: Option<usize>, message: impl Into<String>) {
        self.problems.push(Problem {
            file: file.to_string(),
            row,
            message: message.into(),
        });
    }

    /// Parses `text` (from the file `file`) as JSON; when it is not, records "not valid JSON"
    /// against the file (or `row`) and returns `None`.
    pub fn json(
        &mut self,
        file: &str,
        row: Option<usize>,
        text: &str,
    ) -> Option<serde_json::Value> {
        serde_json::from_str(text)
            .map_err(|e| {
                self.problem(
                    file,
                    row,
                    format!("not valid JSON: {}", record::short(&e.to_string())),
                )
            })
            .ok()
    }
}

/// Most rows one import keeps: more would not be a benchmark sweep, and drawing them would
/// freeze the page.
pub const MAX_ROWS: usize = 2_000;
/// Largest level and throughput accepted (anything above is a unit or parsing mistake).
const MAX_MAGNITUDE: f64 = 1e9;

/// The result of a successful import.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Import {
    /// The sweeps, as a source named after the files.
    pub source: Source,
    /// Each file and the format it was read as (`None`: not recognised).
    pub formats: Vec<(String, Option<Format>)>,
    /// Rows or values that could not be used, with where they came from.
    pub problems: Vec<Problem>,
}

/// Recognises a file's format from its content (and name for CSV/JSONL).
pub fn detect(file: &InputFile) -> Option<Format> {
    let text = file.text.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('{') || text.starts_with('[') {
        if let Some(format) = detect_json(text) {
            return Some(format);
        }
        // SGLang JSONL lines are objects too; one JSON value per line with bare Infinity.
        let first = text.lines().next().unwrap_or_default();
        if first.contains("\"backend\"")
            && (first.contains("\"sglang\"") || first.contains("e2e_latency"))
        {
            return Some(Format::SglangJsonl);
        }
        return None;
    }
    let header = text.lines().next().unwrap_or_default();
    if header.contains("Max BS (reqs)") {
        Some(Format::MlEnergyV2)
    } else if header
        .split(',')
        .any(|h| h.trim() == "concurrency" || h.trim() == "request_rate")
    {
        Some(Format::CsvTemplate)
    } else {
        None
    }
}

fn detect_json(text: &str) -> Option<Format> {
    let value: serde_json::Value = serde_json::from_str(&sglang::sanitize(text)).ok()?;
    let first = match &value {
        serde_json::Value::Array(items) => items.first()?,
        other => other,
    };
    let obj = first.as_object()?;
    let has = |k: &str| obj.contains_key(k);
    if has("configurations") && has("task") {
        let nested = obj["configurations"]
            .as_array()
            .and_then(|c| c.first())
            .is_some_and(|c| c.get("parallelization").is_some());
        return Some(if nested {
            Format::MlEnergyModel
        } else {
            Format::MlEnergyTask
        });
    }
    if has("configurations") && has("model_id") {
        return Some(Format::MlEnergyModel);
    }
    if has("records") {
        let rec = obj["records"].as_array()?.first()?.as_object()?;
        if rec.contains_key("Max BS (reqs)") {
            return Some(Format::MlEnergyV2);
        }
        return None;
    }
    if has("input_config")
        && (has("inter_token_latency") || has("time_to_first_token") || has("request_count"))
    {
        return Some(Format::AiPerf);
    }
    if has("conc") && (has("metrics") || has("output_tput_per_gpu") || has("num_requests_total")) {
        return Some(Format::InferenceX);
    }
    if has("backend") && (has("max_concurrency") || has("request_rate")) {
        return Some(
            if obj.get("backend").and_then(|b| b.as_str()) == Some("sglang") {
                Format::SglangJsonl
            } else {
                Format::VllmBench
            },
        );
    }
    None
}

/// Reads every file, detects its format, and groups the usable rows into sweeps.
///
/// Errors: the list of problems when no file yields a usable row (nothing is loaded then).
pub fn import(files: &[InputFile]) -> Result<Import, Vec<Problem>> {
    let mut parsed = Parsed::default();
    let mut formats = Vec::new();
    let mut seen_records: Vec<String> = Vec::new();
    for file in files {
        let format = detect(file);
        formats.push((file.name.clone(), format));
        match format {
            Some(Format::MlEnergyTask) | Some(Format::MlEnergyModel) => {
                mlenergy::parse(file, &mut parsed)
            }
            Some(Format::MlEnergyV2) => mlenergy_v2::parse(file, &mut parsed),
            Some(Format::VllmBench) => vllm::parse(file, &mut parsed, &mut seen_records),
            Some(Format::SglangJsonl) => sglang::parse(file, &mut parsed),
            Some(Format::AiPerf) => aiperf::parse(file, &mut parsed),
            Some(Format::InferenceX) => inferencex::parse(file, &mut parsed),
            Some(Format::CsvTemplate) => csv_template::parse(file, &mut parsed),
            None => parsed.problem(
                &file.name,
                None,
                "format not recognised (see the README for the formats this planner reads)",
            ),
        }
    }
    let mut kept = Vec::with_capacity(parsed.rows.len().min(MAX_ROWS));
    for m in std::mem::take(&mut parsed.rows) {
        let sane = |v: f64| v.is_finite() && (1e-6..=MAX_MAGNITUDE).contains(&v);
        if !sane(m.row.level) || !sane(m.row.throughput_tok_s) {
            parsed.problem(
                "(import)",
                None,
                format!(
                    "a level of {} with {} tok/s is out of range (1e-6 to 1e9) and was left out",
                    short_number(m.row.level),
                    short_number(m.row.throughput_tok_s)
                ),
            );
        } else if kept.len() == MAX_ROWS {
            parsed.problem(
                "(import)",
                None,
                format!("only the first {MAX_ROWS} rows are read"),
            );
            break;
        } else {
            kept.push(m);
        }
    }
    let unusable: u32 = kept.iter().map(|m| m.row.unusable_latencies()).sum();
    if unusable > 0 {
        parsed.problem(
            "(import)",
            None,
            format!(
                "{unusable} latency value{} of 0 or below {} shown as not reported",
                if unusable == 1 { "" } else { "s" },
                if unusable == 1 { "is" } else { "are" },
            ),
        );
    }
    parsed.rows = kept;
    if parsed.rows.is_empty() {
        if parsed.problems.is_empty() {
            parsed.problem("(import)", None, "no file was given");
        }
        return Err(parsed.problems);
    }
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    Ok(Import {
        source: build_source(&names, parsed.rows),
        formats,
        problems: parsed.problems,
    })
}

/// A number as written in a message: plain from 0.001 to 1e9, in exponent form outside (a
/// value of 1e300 is not printed with 300 digits).
fn short_number(value: f64) -> String {
    if (1e-3..1e9).contains(&value.abs()) || value == 0.0 {
        value.to_string()
    } else {
        format!("{value:e}")
    }
}

/// Groups measured rows into sweeps, one per key, models in first-seen order.
pub(crate) fn build_source(names: &[&str], rows: Vec<Measured>) -> Source {
    let mut models: Vec<Model> = Vec::new();
    let mut keys: Vec<SweepKey> = Vec::new();
    let mut groups: Vec<Vec<Row>> = Vec::new();
    for m in rows {
        if !models.iter().any(|x| x.model_id == m.key.model_id) {
            models.push(m.model.clone().unwrap_or_else(|| Model {
                model_id: m.key.model_id.clone(),
                nickname: m.key.model_id.clone(),
                architecture: "architecture not stated".to_string(),
                total_params_b: None,
                activated_params_b: None,
            }));
        }
        match keys.iter().position(|k| *k == m.key) {
            Some(i) => groups[i].push(m.row),
            None => {
                keys.push(m.key);
                groups.push(vec![m.row]);
            }
        }
    }
    let sweeps = keys
        .into_iter()
        .zip(groups)
        .map(|(k, rows)| {
            let model_index = models
                .iter()
                .position(|m| m.model_id == k.model_id)
                .unwrap_or(0);
            Sweep::new(
                model_index,
                k.gpu,
                k.num_gpus,
                k.parallelism,
                k.precision,
                rows,
            )
            .with_level_kind(k.level_kind)
            .with_config(k.config)
        })
        .collect();
    Source {
        task: "import".to_string(),
        // The file names: the page says "imported" or "shared by link" around them.
        task_display_name: names.join(", "),
        models,
        sweeps,
        provenance: Provenance {
            publisher: "your files".to_string(),
            notes: vec!["Imported in this browser; figures as the files state them, converted to ms and output tok/s.".to_string()],
            ..Provenance::default()
        },
    }
}
