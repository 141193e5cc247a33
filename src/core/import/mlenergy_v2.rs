//! ML.ENERGY leaderboard V2 per-batch-size data, as the CSV (`Model,GPU,TP,PP,Energy/req (J),
//! Avg TPOT (s),Token tput (tok/s),Avg Output Tokens,Avg BS (reqs),Max BS (reqs)`) or the same
//! records as JSON (`{records: [...]}`). Level = `Max BS (reqs)`, not the file name's `bs` (with
//! PP = 2 it is half). TPOT is in seconds. GPUs = TP × PP. J/token is not stored: left absent.

use serde_json::Value;

use super::record::{count, csv_rows, Record};
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Row, Statistic};

fn measured(rec: &Record) -> Result<Measured, String> {
    let model = rec.text("Model").ok_or("missing key `Model`")?;
    let gpu = rec.text("GPU").ok_or("missing key `GPU`")?;
    let tp = count(rec.num("TP")?).ok_or("missing or invalid `TP`")?;
    let pp = count(rec.num("PP")?).unwrap_or(1);
    let level = rec
        .num("Max BS (reqs)")?
        .ok_or("no level: missing `Max BS (reqs)`")?;
    let throughput = rec
        .num("Token tput (tok/s)")?
        .ok_or("missing key `Token tput (tok/s)`")?;
    if level <= 0.0 || throughput <= 0.0 {
        return Err("`Max BS (reqs)` and `Token tput (tok/s)` must be positive".into());
    }
    let batch = rec.num("Avg BS (reqs)")?.filter(|b| *b > 0.0);
    let mut row = Row::new(level, throughput)
        .with(
            Statistic::TpotMean,
            rec.num("Avg TPOT (s)")?.map(|s| s * 1000.0),
        )
        .with(Statistic::Rate, batch.map(|b| b * 1000.0 / throughput));
    row.avg_batch_size = batch;
    row.avg_output_len = rec.num("Avg Output Tokens")?;
    row.energy_per_request_j = rec.num("Energy/req (J)")?;
    let mut key = SweepKey::new(model, LevelKind::MaxNumSeqs);
    key.gpu = gpu.trim_start_matches("NVIDIA ").to_string();
    key.num_gpus = tp.checked_mul(pp);
    key.parallelism = (tp, 1, 1);
    if pp > 1 {
        key.config = format!("PP{pp}");
    }
    Ok(Measured::new(key, row))
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let text = file.text.trim_start_matches('\u{feff}');
    if text.trim_start().starts_with('{') {
        let Some(value) = out.json(&file.name, None, text) else {
            return;
        };
        let Some(records) = value.get("records").and_then(Value::as_array) else {
            return out.problem(&file.name, None, "missing key `records`");
        };
        for (i, r) in records.iter().enumerate() {
            match r.as_object().map(Record) {
                Some(rec) => match measured(&rec) {
                    Ok(m) => out.rows.push(m),
                    Err(e) => out.problem(&file.name, Some(i + 1), e),
                },
                None => out.problem(&file.name, Some(i + 1), "not a JSON object"),
            }
        }
        return;
    }
    csv_rows(&file.name, text, out, measured);
}
