//! ML.ENERGY leaderboard V2 per-batch-size data, as the CSV (`Model,GPU,TP,PP,Energy/req (J),
//! Avg TPOT (s),Token tput (tok/s),Avg Output Tokens,Avg BS (reqs),Max BS (reqs)`) or the same
//! records as JSON (`{records: [...]}`). Level = `Max BS (reqs)`, not the file name's `bs` (with
//! PP = 2 it is half). TPOT is in seconds. GPUs = TP × PP. J/token is not stored: it is derived
//! as energy per request / output tokens per request.

use serde_json::Value;

use super::errors::RowError;
use super::grouping::capped;
use super::record::{count, csv_rows, positive, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Statistic;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::MlEnergyV2,
    label: "ML.ENERGY V2 per-batch data",
    described: "ML.ENERGY V2 per-batch data",
    detect,
    parse,
    keys: &COLUMNS,
    level: "Max BS (reqs)",
    throughput: "Token tput (tok/s)",
};

/// The columns this reader knows (`source_path` is the collector's note of the file).
const COLUMNS: [&str; 11] = [
    "source_path",
    "Model",
    "GPU",
    "TP",
    "PP",
    "Energy/req (J)",
    "Avg TPOT (s)",
    "Token tput (tok/s)",
    "Avg Output Tokens",
    "Avg BS (reqs)",
    "Max BS (reqs)",
];

/// A CSV with `Max BS (reqs)`, or `records` whose first has it.
fn detect(probe: &Probe) -> bool {
    (probe.is_csv() || probe.has_top("records")) && probe.has("Max BS (reqs)")
}

fn measured(rec: &Record, notes: &mut Vec<RowError>) -> Result<Measured, RowError> {
    let model = rec
        .text("Model")
        .ok_or_else(|| RowError::missing("Model"))?;
    let gpu = rec.text("GPU").ok_or_else(|| RowError::missing("GPU"))?;
    let tp = count(rec.num("TP")?).ok_or_else(|| RowError::missing("TP"))?;
    let pp = count(rec.opt("PP", notes)).unwrap_or(1);
    let level = rec.level("Max BS (reqs)")?;
    let throughput = rec.required("Token tput (tok/s)")?;
    positive("Max BS (reqs)", level)?;
    positive("Token tput (tok/s)", throughput)?;
    let mut row = Row::new(level, throughput).with(
        Statistic::TpotMean,
        rec.opt("Avg TPOT (s)", notes).map(|s| s * 1000.0),
    );
    row.avg_batch_size = rec.opt("Avg BS (reqs)", notes);
    row.avg_output_len = rec.opt("Avg Output Tokens", notes);
    row.energy_per_request_j = rec.opt("Energy/req (J)", notes);
    let row = row.finish(LevelKind::MaxNumSeqs, RunCounts::default());
    let deployment = Deployment {
        gpu: capped(gpu.trim_start_matches("NVIDIA ")),
        num_gpus: tp.checked_mul(pp),
        tp: Some(tp),
        pp: Some(pp),
        ..Deployment::new(LevelKind::MaxNumSeqs)
    };
    Ok(Measured::new(capped(model), deployment, row))
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    if let Body::Json(value) = body {
        let Some(records) = value.get("records").and_then(Value::as_array) else {
            return out.problem(&file.name, None, RowError::missing("records"));
        };
        for (i, r) in records.iter().enumerate() {
            if out.full() {
                break;
            }
            let mut notes = Vec::new();
            match r.as_object().map(Record) {
                Some(rec) => match measured(&rec, &mut notes) {
                    Ok(m) => out.push(&file.name, Some(i + 1), m),
                    Err(e) => out.problem(&file.name, Some(i + 1), e),
                },
                None => out.problem(&file.name, Some(i + 1), RowError::NotAnObject),
            }
            for note in notes {
                out.problem(&file.name, Some(i + 1), note);
            }
        }
        return;
    }
    let text = file.text.trim_start_matches('\u{feff}');
    csv_rows(&file.name, text, out, |h| COLUMNS.contains(&h), measured);
}
