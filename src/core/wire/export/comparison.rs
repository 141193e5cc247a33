//! A comparison of two arms as JSON (`result.comparison`) and as CSV: every figure of
//! [`Comparison`] unrounded, with the sentences the text answer says, and each arm's figures at
//! its own recommended level with B/A.

use serde::Serialize;

use crate::core::plan::ab::{At, Comparison};
use crate::core::plan::compare::CompareRow;
use crate::core::text::ab_text::{
    crossover_text, differs_text, noise_text, only_text, verdict_text, warning_text,
};
use crate::core::text::arm_figures::{arm_rows, Shown, ARM_FIGURES};
use crate::core::wire::handoff::ExportError;

use super::table::{num, text_cell};
use crate::core::model::format::url_number;

/// One arm as the comparison names it.
#[derive(Clone, Debug)]
pub struct ArmLabel<'a> {
    /// The arm's source: `import (files)`, `lm-arena-chat`.
    pub source: &'a str,
    /// The deployment as the picker labels it.
    pub deployment: &'a str,
    /// The arm's figures at its own recommended level.
    pub recommended: Option<&'a CompareRow>,
}

/// Both arms as the comparison names them.
#[derive(Clone, Debug)]
pub struct ArmLabels<'a> {
    /// The baseline.
    pub a: ArmLabel<'a>,
    /// The candidate.
    pub b: ArmLabel<'a>,
}

/// An arm's figures at its own recommended level, by key (`text::arm_figures`): a count as a
/// whole number.
fn figures(row: Option<&CompareRow>) -> serde_json::Map<String, serde_json::Value> {
    ARM_FIGURES
        .iter()
        .map(|f| {
            let value = f
                .of(row)
                .map_or(serde_json::Value::Null, |v| match f.shown {
                    Shown::Count => serde_json::Value::from(v as u64),
                    _ => serde_json::Value::from(v),
                });
            (f.key.to_string(), value)
        })
        .collect()
}

/// B/A of each figure at each arm's recommended level, by key.
fn ratios(
    a: Option<&CompareRow>,
    b: Option<&CompareRow>,
) -> serde_json::Map<String, serde_json::Value> {
    arm_rows(a, b)
        .iter()
        .map(|r| {
            let value = r
                .ratio()
                .map_or(serde_json::Value::Null, serde_json::Value::from);
            (r.figure.key.to_string(), value)
        })
        .collect()
}

#[derive(Serialize)]
struct JsonArm<'a> {
    source: &'a str,
    deployment: &'a str,
    /// The median throughput over its repeats at S (per GPU, else per replica).
    tok_s_at_speed: Option<f64>,
    /// Each repeat's throughput at S: `measured`, `interpolated`, `too-fast`, `too-slow`.
    at_speed: Vec<JsonAt>,
    recommended: serde_json::Map<String, serde_json::Value>,
}

#[derive(Serialize)]
struct JsonAt {
    how: &'static str,
    tok_s: Option<f64>,
}

impl JsonAt {
    fn of(at: &At) -> JsonAt {
        let how = match at {
            At::Measured { .. } => "measured",
            At::Interpolated { .. } => "interpolated",
            At::TooFast { .. } => "too-fast",
            At::TooSlow { .. } => "too-slow",
        };
        JsonAt {
            how,
            tok_s: at.tok_s(),
        }
    }
}

#[derive(Serialize)]
struct JsonPoint {
    speed_tok_s: f64,
    ratio: f64,
    low: f64,
    high: f64,
}

/// `result.comparison`.
#[derive(Serialize)]
struct JsonComparison<'a> {
    answer: String,
    speed_tok_s: f64,
    tol_pct: f64,
    ratio: Option<f64>,
    ratio_low: Option<f64>,
    ratio_high: Option<f64>,
    interval: &'static str,
    repeats_a: usize,
    repeats_b: usize,
    spread_a: Option<f64>,
    spread_b: Option<f64>,
    verdict: &'static str,
    per: &'static str,
    differs: &'a [String],
    warnings: Vec<String>,
    notes: Vec<String>,
    crossover_tok_s: &'a [f64],
    only_a: Vec<[f64; 2]>,
    only_b: Vec<[f64; 2]>,
    a: JsonArm<'a>,
    b: JsonArm<'a>,
    b_over_a: serde_json::Map<String, serde_json::Value>,
    curve: Vec<JsonPoint>,
}

fn ranges(r: &[(f64, f64)]) -> Vec<[f64; 2]> {
    r.iter().map(|(lo, hi)| [*lo, *hi]).collect()
}

fn json_arm<'a>(label: &ArmLabel<'a>, at: &crate::core::plan::ab::ArmAt) -> JsonArm<'a> {
    JsonArm {
        source: label.source,
        deployment: label.deployment,
        tok_s_at_speed: at.tok_s,
        at_speed: at.at.iter().map(JsonAt::of).collect(),
        recommended: figures(label.recommended),
    }
}

/// `per_gpu` as written: `gpu` or `replica`.
fn per(c: &Comparison) -> &'static str {
    if c.per_gpu {
        "gpu"
    } else {
        "replica"
    }
}

/// The notes beside the answer: the noise, the crossovers, the one-arm ranges, what differs
/// (which arm cannot reach S is the answer's own reason, [`verdict_text`]).
pub fn notes(c: &Comparison) -> Vec<String> {
    let mut out = vec![noise_text(c)];
    out.push(crossover_text(c));
    out.extend(only_text(c));
    out.push(differs_text(c));
    out
}

/// The comparison as the JSON value of `result.comparison`.
///
/// Errors: [`ExportError::Writer`] with serde_json's reason.
pub fn comparison_value(
    c: &Comparison,
    arms: &ArmLabels,
) -> Result<serde_json::Value, ExportError> {
    let (a, b) = (&arms.a, &arms.b);
    let doc = JsonComparison {
        answer: verdict_text(c),
        speed_tok_s: c.speed_tok_s,
        tol_pct: c.tol_pct,
        ratio: c.ratio.map(|r| r.ratio),
        ratio_low: c.ratio.map(|r| r.low),
        ratio_high: c.ratio.map(|r| r.high),
        interval: c.interval.key(),
        repeats_a: c.a.repeats,
        repeats_b: c.b.repeats,
        spread_a: c.a.spread,
        spread_b: c.b.spread,
        verdict: c.verdict.key(),
        per: per(c),
        differs: &c.differs,
        warnings: c.warnings.iter().map(warning_text).collect(),
        notes: notes(c),
        crossover_tok_s: &c.crossover_tok_s,
        only_a: ranges(&c.only_a),
        only_b: ranges(&c.only_b),
        a: json_arm(a, &c.a),
        b: json_arm(b, &c.b),
        b_over_a: ratios(a.recommended, b.recommended),
        curve: c
            .curve
            .iter()
            .map(|p| JsonPoint {
                speed_tok_s: p.speed_tok_s,
                ratio: p.ratio.ratio,
                low: p.ratio.low,
                high: p.ratio.high,
            })
            .collect(),
    };
    serde_json::to_value(&doc).map_err(|e| ExportError::Writer(e.to_string()))
}

/// A's scenario document (`scenario_json`'s text) with `result.comparison` added, pretty.
///
/// Errors: [`ExportError::Writer`] when the document is not JSON with a `result` object, or
/// serde_json's reason.
pub fn with_comparison(
    scenario_doc: &str,
    c: &Comparison,
    arms: &ArmLabels,
) -> Result<String, ExportError> {
    let writer = |e: serde_json::Error| ExportError::Writer(e.to_string());
    let mut doc: serde_json::Value = serde_json::from_str(scenario_doc).map_err(writer)?;
    let value = comparison_value(c, arms)?;
    let result = doc
        .get_mut("result")
        .and_then(serde_json::Value::as_object_mut)
        .ok_or_else(|| ExportError::Writer("the document has no result".to_string()))?;
    result.insert("comparison".to_string(), value);
    serde_json::to_string_pretty(&doc).map_err(writer)
}

/// The CSV's columns before each arm's figures, in order.
const CSV_LEADING: [&str; 20] = [
    "speed_tok_s",
    "ratio",
    "ratio_low",
    "ratio_high",
    "interval",
    "repeats_a",
    "repeats_b",
    "spread_a",
    "spread_b",
    "verdict",
    "tol_pct",
    "per",
    "differs",
    "crossover_tok_s",
    "only_a",
    "only_b",
    "a_deployment",
    "b_deployment",
    "a_tok_s_at_speed",
    "b_tok_s_at_speed",
];

/// The CSV's columns, in order: [`CSV_LEADING`], then A's and B's value of each figure of
/// `text::arm_figures` (`a_KEY`, `b_KEY`), then the answer.
pub fn csv_header() -> Vec<String> {
    CSV_LEADING
        .iter()
        .map(|h| (*h).to_string())
        .chain(
            ARM_FIGURES
                .iter()
                .flat_map(|f| [format!("a_{}", f.key), format!("b_{}", f.key)]),
        )
        .chain(std::iter::once("answer".to_string()))
        .collect()
}

/// The comparison as CSV: the header and one row (absent figures empty; text from files through
/// `text_cell`; lists joined by `;`, a range `lo-hi`).
///
/// Errors: [`ExportError::Writer`] with the csv writer's reason.
pub fn comparison_csv(c: &Comparison, arms: &ArmLabels) -> Result<String, ExportError> {
    let (a, b) = (&arms.a, &arms.b);
    let list = |r: &[(f64, f64)]| {
        r.iter()
            .map(|(lo, hi)| format!("{}-{}", url_number(*lo), url_number(*hi)))
            .collect::<Vec<_>>()
            .join(";")
    };
    let mut row: Vec<String> = vec![
        url_number(c.speed_tok_s),
        num(c.ratio.map(|r| r.ratio)),
        num(c.ratio.map(|r| r.low)),
        num(c.ratio.map(|r| r.high)),
        c.interval.key().to_string(),
        c.a.repeats.to_string(),
        c.b.repeats.to_string(),
        num(c.a.spread),
        num(c.b.spread),
        c.verdict.key().to_string(),
        url_number(c.tol_pct),
        per(c).to_string(),
        text_cell(&c.differs.join(";")),
        c.crossover_tok_s
            .iter()
            .map(|v| url_number(*v))
            .collect::<Vec<_>>()
            .join(";"),
        list(&c.only_a),
        list(&c.only_b),
        text_cell(a.deployment),
        text_cell(b.deployment),
        num(c.a.tok_s),
        num(c.b.tok_s),
    ];
    for r in arm_rows(a.recommended, b.recommended) {
        row.extend([num(r.a), num(r.b)]);
    }
    row.push(text_cell(&verdict_text(c)));
    let mut w = csv::Writer::from_writer(Vec::new());
    let writer = |e: csv::Error| ExportError::Writer(e.to_string());
    w.write_record(csv_header()).map_err(writer)?;
    w.write_record(&row).map_err(writer)?;
    let bytes = w
        .into_inner()
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| ExportError::Writer(e.to_string()))
}
