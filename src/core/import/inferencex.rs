//! InferenceX aggregate JSON: an array of entries, several configurations per file, level =
//! `conc`, latencies in **seconds**. Two shapes:
//! - the API rows (`{hardware, framework, model, precision, conc, metrics: {...}}`), throughput
//!   and power per GPU: aggregate = per GPU × GPUs (decode GPUs, plus prefill GPUs when
//!   disaggregated); `avg_power_w` is per GPU; `joules_per_output_token` is stored J/token;
//! - the agentic `agg_bmk` rows (flat: `hw, conc, tp, offloading, mean_itl, ...,
//!   output_tput_tps, output_tput_per_gpu`), GPUs = output tok/s ÷ output tok/s per GPU.

use serde_json::Value;

use super::record::{count, s_to_ms, Record};
use super::{InputFile, Measured, Parsed, SweepKey};
use crate::core::sweep::{LevelKind, Row, Statistic};

/// (key stem, statistic) for `{mean,median,p90,p95,p99}_{itl,tpot,ttft}` in seconds.
const STATS: [(&str, Statistic); 15] = [
    ("median_itl", Statistic::P50),
    ("p90_itl", Statistic::P90),
    ("p95_itl", Statistic::P95),
    ("p99_itl", Statistic::P99),
    ("mean_itl", Statistic::ItlMean),
    ("mean_tpot", Statistic::TpotMean),
    ("median_tpot", Statistic::TpotP50),
    ("p90_tpot", Statistic::TpotP90),
    ("p95_tpot", Statistic::TpotP95),
    ("p99_tpot", Statistic::TpotP99),
    ("mean_ttft", Statistic::TtftMean),
    ("median_ttft", Statistic::TtftP50),
    ("p90_ttft", Statistic::TtftP90),
    ("p95_ttft", Statistic::TtftP95),
    ("p99_ttft", Statistic::TtftP99),
];

fn latencies(row: &mut Row, metrics: &Record) -> Result<(), String> {
    for (key, stat) in STATS {
        let v = metrics.num(key)?;
        if v.is_some_and(|x| x < 0.0) {
            return Err(format!("negative `{key}`"));
        }
        row.set_latency_ms(stat, s_to_ms(v));
    }
    Ok(())
}

fn api_row(e: &Record) -> Result<Measured, String> {
    let metrics = e.object("metrics").ok_or("missing key `metrics`")?;
    let level = e.num("conc")?.ok_or("no level: missing `conc`")?;
    let decode = count(e.num("num_decode_gpu")?).ok_or("missing `num_decode_gpu`")?;
    let disagg = e.0.get("disagg").and_then(Value::as_bool).unwrap_or(false);
    let gpus = if disagg {
        decode + count(e.num("num_prefill_gpu")?).unwrap_or(0)
    } else {
        decode
    };
    let per_gpu = metrics
        .num("output_tput_per_gpu")?
        .ok_or("missing key `output_tput_per_gpu`")?;
    if level <= 0.0 || per_gpu <= 0.0 {
        return Err("`conc` and output throughput must be positive".into());
    }
    let throughput = per_gpu * f64::from(gpus);
    let mut row =
        Row::new(level, throughput).with(Statistic::Rate, Some(level * 1000.0 / throughput));
    latencies(&mut row, &metrics)?;
    row.power_w = metrics.num("avg_power_w")?.map(|w| w * f64::from(gpus));
    row.energy_per_token_j = metrics.num("joules_per_output_token")?;
    let model = e.text("model").ok_or("missing key `model`")?;
    let mut key = SweepKey::new(model, LevelKind::Concurrency);
    key.gpu = e.text("hardware").unwrap_or("GPU not stated").to_string();
    key.num_gpus = Some(gpus);
    key.precision = e.text("precision").unwrap_or("precision not stated").to_string();
    key.parallelism = (
        count(e.num("decode_tp")?).unwrap_or(1),
        count(e.num("decode_ep")?).unwrap_or(1),
        1,
    );
    let isl = e.num("isl")?.map_or_else(String::new, |v| v.to_string());
    let osl = e.num("osl")?.map_or_else(String::new, |v| v.to_string());
    key.config = format!(
        "{}{}, {isl}/{osl}{}",
        e.text("framework").unwrap_or("engine not stated"),
        if disagg { " disagg" } else { "" },
        e.text("spec_method")
            .filter(|m| *m != "none")
            .map_or_else(String::new, |m| format!(", {m}")),
    );
    Ok(Measured::new(key, row))
}

fn agg_row(e: &Record) -> Result<Measured, String> {
    let level = e.num("conc")?.ok_or("no level: missing `conc`")?;
    if e.num("num_requests_successful")? == Some(0.0) {
        return Err("all requests failed (num_requests_successful = 0)".into());
    }
    let throughput = e
        .num("output_tput_tps")?
        .ok_or("missing key `output_tput_tps`")?;
    if level <= 0.0 || throughput <= 0.0 {
        return Err("`conc` and `output_tput_tps` must be positive".into());
    }
    let gpus = e
        .num("output_tput_per_gpu")?
        .filter(|p| *p > 0.0)
        .map(|p| (throughput / p).round())
        .and_then(|g| count(Some(g)));
    let mut row =
        Row::new(level, throughput).with(Statistic::Rate, Some(level * 1000.0 / throughput));
    latencies(&mut row, e)?;
    let model = e.text("model").ok_or("missing key `model`")?;
    let mut key = SweepKey::new(model, LevelKind::Concurrency);
    key.gpu = e.text("hw").unwrap_or("GPU not stated").to_string();
    key.num_gpus = gpus;
    key.precision = e.text("precision").unwrap_or("precision not stated").to_string();
    let tp = count(e.num("tp")?).unwrap_or(1);
    key.parallelism = (tp, count(e.num("ep")?).unwrap_or(1), 1);
    key.config = format!(
        "{}, offload {}",
        e.text("framework").unwrap_or("engine not stated"),
        e.text("offloading").unwrap_or("not stated"),
    );
    Ok(Measured::new(key, row))
}

pub(crate) fn parse(file: &InputFile, out: &mut Parsed) {
    let Some(value) = out.json(&file.name, None, &file.text) else {
        return;
    };
    let Some(entries) = value.as_array() else {
        return out.problem(&file.name, None, "not a JSON array of entries");
    };
    for (i, entry) in entries.iter().enumerate() {
        let Some(e) = entry.as_object().map(Record) else {
            out.problem(&file.name, Some(i + 1), "not a JSON object");
            continue;
        };
        let result = if e.0.contains_key("metrics") {
            api_row(&e)
        } else {
            agg_row(&e)
        };
        match result {
            Ok(m) => out.rows.push(m),
            Err(message) => out.problem(&file.name, Some(i + 1), message),
        }
    }
}
