//! AIPerf's sweep aggregate CSV (`sweep_aggregate/profile_export_aiperf_sweep.csv`, AIPerf
//! 0.11): a table with one row per value of the swept parameter (`concurrency`, or
//! `request_rate`), then, after a blank line, the sections `Best Configurations`, `Pareto Optimal
//! Points` and `Metadata`, which are not runs and are not read. Each metric has the columns
//! `{metric}_mean`, `_std`, `_min`, `_max` (and `_cv`) over the sweep's trials: only the means are
//! read (with one trial, the run's own average; `_min` and `_max` are single requests, not
//! percentiles). Latencies are in ms, as AIPerf displays them: `inter_token_latency` is TPOT,
//! `inter_chunk_latency` ITL, `time_to_first_token` TTFT. The CSV states no model: it comes from
//! the import dialog.

use super::errors::RowError;
use super::record::{csv_level, csv_rows, positive, Record};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Statistic;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::AiPerfSweep,
    label: "AIPerf sweep CSV",
    described: "an AIPerf sweep CSV",
    detect,
    parse,
    keys: &[
        "concurrency",
        "request_rate",
        "output_token_throughput_mean",
        "request_throughput_mean",
        "time_to_first_token_mean",
        "inter_token_latency_mean",
        "benchmark_duration_mean",
    ],
    level: "concurrency|request_rate",
    throughput: "output_token_throughput_mean",
};

/// A CSV with a swept parameter and AIPerf's mean output throughput.
fn detect(probe: &Probe) -> bool {
    probe.is_csv()
        && probe.has_any(&["concurrency", "request_rate"])
        && probe.has("output_token_throughput_mean")
}

/// The mean latencies read, in ms.
const LATENCIES: [(&str, Statistic); 3] = [
    ("inter_token_latency_mean", Statistic::TpotMean),
    ("inter_chunk_latency_mean", Statistic::ItlMean),
    ("time_to_first_token_mean", Statistic::TtftMean),
];

fn row(rec: &Record, notes: &mut Vec<RowError>) -> Result<(LevelKind, Row), RowError> {
    let (level, kind) = csv_level(rec)?;
    let completed = rec.opt("request_count_mean", notes);
    let failed = rec.opt("error_request_count_mean", notes);
    let mut row = if completed == Some(0.0) {
        Row::all_failed(level, failed)
    } else {
        let throughput = rec.required("output_token_throughput_mean")?;
        positive("output_token_throughput_mean", throughput)?;
        let mut row = Row::new(level, throughput);
        for (column, stat) in LATENCIES {
            row.set_latency_ms(stat, rec.opt(column, notes));
        }
        row.e2e_mean_ms = rec.opt("request_latency_mean", notes);
        row.avg_output_len = rec.opt("output_sequence_length_mean", notes);
        row
    };
    let counts = RunCounts {
        completed,
        failed,
        duration_s: rec.opt("benchmark_duration_mean", notes),
        request_throughput_req_s: rec.opt("request_throughput_mean", notes),
    };
    row = row.finish(kind, counts);
    Ok((kind, row))
}

fn parse(file: &InputFile, _body: Body, out: &mut Parsed) {
    // The table ends at the first blank line; the sections after it are not runs.
    let table: String = file
        .text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .flat_map(|line| [line, "\n"])
        .collect();
    let model = out.model(None, None);
    csv_rows(
        &file.name,
        &table,
        out,
        |_| true,
        |rec, notes| {
            let (kind, row) = row(rec, notes)?;
            Ok(Measured::new(model.clone(), Deployment::new(kind), row))
        },
    );
}
