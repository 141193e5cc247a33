//! The plain CSV template (its header is in the README): one row per level, units in the column
//! names. Required: `concurrency` (or `request_rate`) and `output_tok_s`; every other column is
//! optional and may be left empty.

use super::record::{count, csv_rows, Record};
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Row, Statistic};

const COLUMNS: [(&str, Statistic); 13] = [
    ("p50_itl_ms", Statistic::P50),
    ("p90_itl_ms", Statistic::P90),
    ("p95_itl_ms", Statistic::P95),
    ("p99_itl_ms", Statistic::P99),
    ("mean_itl_ms", Statistic::ItlMean),
    ("mean_tpot_ms", Statistic::TpotMean),
    ("p50_tpot_ms", Statistic::TpotP50),
    ("p90_tpot_ms", Statistic::TpotP90),
    ("p99_tpot_ms", Statistic::TpotP99),
    ("mean_ttft_ms", Statistic::TtftMean),
    ("p50_ttft_ms", Statistic::TtftP50),
    ("p90_ttft_ms", Statistic::TtftP90),
    ("p99_ttft_ms", Statistic::TtftP99),
];

fn measured(rec: &Record, file: &str) -> Result<Measured, String> {
    let (level, kind) = match (rec.num("concurrency")?, rec.num("request_rate")?) {
        (Some(c), _) => (c, LevelKind::Concurrency),
        (None, Some(r)) => (r, LevelKind::RequestRate),
        (None, None) => return Err("no level: `concurrency` (or `request_rate`) is empty".into()),
    };
    let throughput = rec
        .num("output_tok_s")?
        .ok_or("missing value `output_tok_s`")?;
    if level <= 0.0 {
        return Err(format!("level must be positive, got {level}"));
    }
    if throughput <= 0.0 {
        return Err("zero or negative output tokens (`output_tok_s`)".into());
    }
    let batch = rec.num("avg_batch_size")?.filter(|b| *b > 0.0);
    let concurrency = batch.or((kind == LevelKind::Concurrency).then_some(level));
    let mut row = Row::new(level, throughput).with(
        Statistic::Rate,
        concurrency.map(|c| c * 1000.0 / throughput),
    );
    for (column, stat) in COLUMNS {
        let v = rec.num(column)?;
        if v.is_some_and(|x| x < 0.0) {
            return Err(format!("negative `{column}`"));
        }
        row.set_latency_ms(stat, v);
    }
    row.avg_batch_size = batch;
    row.power_w = rec.num("power_w")?;
    row.energy_per_token_j = rec.num("energy_per_token_j")?;
    let model = rec
        .text("model")
        .filter(|m| !m.trim().is_empty())
        .unwrap_or(file);
    let mut key = SweepKey::new(model, kind);
    if let Some(gpu) = rec.text("gpu").filter(|g| !g.trim().is_empty()) {
        key.gpu = gpu.trim().to_string();
    }
    key.num_gpus = count(rec.num("num_gpus")?);
    Ok(Measured::new(key, row))
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let text = file.text.trim_start_matches('\u{feff}');
    csv_rows(&file.name, text, out, |rec| measured(rec, &file.name));
}
