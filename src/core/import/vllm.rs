//! vLLM `bench serve --save-result` JSON: one file per level (`max_concurrency`), or a
//! `vllm bench sweep` folder (`run=N.json` files and a `summary.json` array of the same runs,
//! counted once). Latencies are already in ms. The server's `max_num_seqs`, where recorded,
//! becomes the sweep's configuration label.

use serde_json::Value;

use super::record::Record;
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Row, Statistic};

/// The statistic each `*_ms` key of vLLM and SGLang benchmark clients feeds.
pub(crate) const CLIENT_KEYS: [(&str, Statistic); 15] = [
    ("median_itl_ms", Statistic::P50),
    ("p90_itl_ms", Statistic::P90),
    ("p95_itl_ms", Statistic::P95),
    ("p99_itl_ms", Statistic::P99),
    ("mean_itl_ms", Statistic::ItlMean),
    ("mean_tpot_ms", Statistic::TpotMean),
    ("median_tpot_ms", Statistic::TpotP50),
    ("p90_tpot_ms", Statistic::TpotP90),
    ("p95_tpot_ms", Statistic::TpotP95),
    ("p99_tpot_ms", Statistic::TpotP99),
    ("mean_ttft_ms", Statistic::TtftMean),
    ("median_ttft_ms", Statistic::TtftP50),
    ("p90_ttft_ms", Statistic::TtftP90),
    ("p95_ttft_ms", Statistic::TtftP95),
    ("p99_ttft_ms", Statistic::TtftP99),
];

/// Reads one benchmark-client record (vLLM or SGLang) into a row: level from `max_concurrency`,
/// else a finite `request_rate`. Errors: why the record cannot be used.
pub(crate) fn client_row(rec: &Record) -> Result<(Row, LevelKind), String> {
    let mut notes = Vec::new();
    if rec.num("completed")? == Some(0.0) {
        return Err("all requests failed (completed = 0)".into());
    }
    let (level, kind) = match (rec.num("max_concurrency")?, rec.num("request_rate")?) {
        (Some(c), _) => (c, LevelKind::Concurrency),
        (None, Some(r)) => (r, LevelKind::RequestRate),
        (None, None) => {
            return Err(
                "no level: `max_concurrency` is null and `request_rate` is not a finite number"
                    .into(),
            )
        }
    };
    if level <= 0.0 {
        return Err(format!("level must be positive, got {level}"));
    }
    let throughput = rec
        .num("output_throughput")?
        .ok_or("missing key `output_throughput`")?;
    if throughput < 0.0 {
        return Err(format!("negative `output_throughput` ({throughput})"));
    }
    if throughput == 0.0 {
        return Err("zero output tokens (`output_throughput` is 0)".into());
    }
    let mut row = Row::new(level, throughput);
    for (key, stat) in CLIENT_KEYS {
        let value = rec.opt(key, &mut notes);
        if value.is_some_and(|v| v < 0.0) {
            return Err(format!("negative `{key}`"));
        }
        row.set_latency_ms(stat, value);
    }
    if kind == LevelKind::Concurrency {
        row.set_latency_ms(Statistic::Rate, Some(level * 1000.0 / throughput));
    }
    if let Some(note) = notes.first() {
        return Err(note.clone());
    }
    Ok((row, kind))
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed, seen: &mut Vec<String>) {
    // Python's json.dump writes bare NaN / Infinity for empty statistics.
    let Some(value) = out.json(&file.name, None, &super::sglang::sanitize(&file.text)) else {
        return;
    };
    let records: Vec<&Value> = match &value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    for (i, value) in records.into_iter().enumerate() {
        let row_no = Some(i + 1);
        let Some(obj) = value.as_object() else {
            out.problem(&file.name, row_no, "not a JSON object");
            continue;
        };
        // A sweep folder holds each run twice (run=N.json and summary.json): count it once.
        let fingerprint = value.to_string();
        if seen.contains(&fingerprint) {
            continue;
        }
        seen.push(fingerprint);
        let rec = Record(obj);
        match client_row(&rec) {
            Ok((row, kind)) => {
                let model = rec.text("model_id").unwrap_or("model not stated");
                let mut key = SweepKey::new(model, kind);
                if let Ok(Some(n)) = rec.num("max_num_seqs") {
                    key.config = format!("max_num_seqs={n}");
                }
                out.rows.push(Measured::new(key, row));
            }
            Err(message) => out.problem(&file.name, row_no, message),
        }
    }
}
