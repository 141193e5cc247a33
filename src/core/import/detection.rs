//! Recognising a file's format: [`Probe`] reads a file once, [`FORMATS`] lists every format's
//! [`FormatSpec`] (each declared in its reader's file), and a file that matches none is told the
//! closest format and what it lacks.

use serde_json::{Map, Value};

use crate::core::import::{
    aiperf, aiperf_server, aiperf_sweep, csv_template, errors, evalscope, guidellm, inference_perf,
    inferencex, inferencex_agentic, llmperf, lmbench, mlenergy, mlenergy_v2, record, sglang, vllm,
    Format, InputFile, Parsed, RowError, RowErrorKind,
};

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
    pub(super) body: Body,
}

impl Probe {
    pub(super) fn new(text: &str) -> Probe {
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
    pub(super) fn first(&self) -> Option<&Map<String, Value>> {
        match &self.body {
            Body::Json(Value::Object(o)) | Body::Lines(Value::Object(o)) => Some(o),
            Body::Json(Value::Array(items)) => items.first()?.as_object(),
            Body::Values(values) => values.first()?.1.as_object(),
            _ => None,
        }
    }

    /// The first run of a file that holds its runs in `configurations` or `records`.
    pub(super) fn inner(&self) -> Option<&Map<String, Value>> {
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
    /// Why no format matches: a few of the file's keys, or what it holds when it has none.
    pub(super) fn not_recognised(&self) -> RowError {
        match self.without_keys() {
            Some(found) => RowError::NoKeys {
                found: found.to_string(),
            },
            None => RowError::NotRecognised {
                keys: self.sample_keys(),
            },
        }
    }

    /// What a file with no keys holds, in words; `None` when it has keys.
    fn without_keys(&self) -> Option<&'static str> {
        let value = match &self.body {
            Body::Csv(header) if header.iter().all(|h| h.trim().is_empty()) => {
                return Some("a CSV without a header")
            }
            // One "column": text that is neither JSON nor a CSV with a header row.
            Body::Csv(header) if header.len() == 1 => {
                return Some("text that is neither JSON nor a CSV with a header row")
            }
            Body::Json(v) | Body::Lines(v) => v,
            Body::Values(values) => &values.first()?.1,
            _ => return None,
        };
        Some(match value {
            Value::Object(o) if o.is_empty() => "an empty object",
            Value::Object(_) => return None,
            Value::Array(items) if items.is_empty() => "an empty array",
            Value::Array(items) if items.iter().all(Value::is_number) => "an array of numbers",
            Value::Array(items) if items.iter().all(Value::is_string) => "an array of texts",
            Value::Array(items) if items.iter().all(Value::is_array) => "an array of arrays",
            Value::Array(items)
                if items
                    .iter()
                    .any(|i| i.as_object().is_some_and(|o| !o.is_empty())) =>
            {
                return None
            }
            Value::Array(_) => "an array of values without named fields",
            Value::Number(_) => "a single number",
            Value::String(_) => "a single text",
            Value::Bool(_) => "true or false",
            Value::Null => "null",
        })
    }

    pub(super) fn sample_keys(&self) -> String {
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
    aiperf_server::SPEC,
    inferencex::SPEC,
    inferencex_agentic::SPEC,
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
pub(super) fn closest(probe: &Probe) -> RowError {
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
                probe.not_recognised()
            }
        }
        None => probe.not_recognised(),
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

/// The tool whose YAML twin of a report `text` is, known by its top-level keys, and the JSON
/// report it writes beside it: GuideLLM's `benchmarks:` of `generative_benchmark`s, or
/// inference-perf's lifecycle report (`load_summary:` with `successes:` or `failures:`).
pub(super) fn yaml_twin(text: &str) -> Option<(&'static str, &'static str)> {
    let top = |key: &str| {
        text.lines().any(|l| {
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim().is_empty())
        })
    };
    if top("benchmarks:") && text.contains("generative_benchmark") {
        Some(("GuideLLM", "benchmarks.json, with --outputs json"))
    } else if top("load_summary:") && (top("successes:") || top("failures:")) {
        Some(("inference-perf", "stage_N_lifecycle_metrics.json"))
    } else {
        None
    }
}

/// True for a YAML file: named `.yaml` or `.yml`, or starting (after comments) with a document
/// marker, a `key: value` or a `key:` line.
pub(super) fn is_yaml(file: &InputFile) -> bool {
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
pub(super) fn is_binary(text: &str) -> bool {
    let head: Vec<char> = text.chars().take(4096).collect();
    let odd = head
        .iter()
        .filter(|c| **c == '\u{fffd}' || (c.is_control() && !c.is_whitespace()))
        .count();
    odd * 10 > head.len()
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
