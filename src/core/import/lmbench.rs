//! LMBench's per-request CSV (`{key}_{workload}_output_{qps}.csv`, as LMCache's LMBench and
//! llm-d-benchmark write it): one row per completed request with `prompt_tokens`,
//! `generation_tokens`, `ttft` (s), `generation_time` (s, from the first token to the last: the
//! first token's wait excluded), `launch_time` and `finish_time` (epoch s). A file is one level:
//! the request rate its name gives (the whole run's rate, on a fixed schedule), read as
//! requests per second. Per request: TTFT; TPOT = generation time ÷ (tokens − 1); normalized
//! TPOT = (TTFT + generation time) ÷ tokens; summarised as the tools do (mean, linear
//! percentiles). Output throughput = the requests' tokens ÷ (last finish − first launch).
//! Failed requests are not written by LMBench (they leave no row), so none are counted. The
//! model comes from the import dialog; the workload from the file name.

use super::errors::{short, RowError};
use super::record::{base_name, positive};
use super::requests::summarised;
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Metric;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::LmBench,
    label: "LMBench per-request CSV",
    described: "an LMBench per-request CSV",
    detect,
    parse,
    keys: &COLUMNS,
    level: "launch_time",
    throughput: "generation_tokens",
};

/// The columns LMBench writes.
const COLUMNS: [&str; 6] = [
    "prompt_tokens",
    "generation_tokens",
    "ttft",
    "generation_time",
    "launch_time",
    "finish_time",
];

/// A CSV with LMBench's timing columns.
fn detect(probe: &Probe) -> bool {
    probe.is_csv() && COLUMNS[1..].iter().all(|c| probe.has(c))
}

/// The request rate and the workload a file name gives: `LMBench_sharegpt_output_0.5.csv` ->
/// (0.5, `sharegpt`).
fn from_name(name: &str) -> Option<(f64, Option<String>)> {
    let stem = base_name(name).strip_suffix(".csv")?;
    let (head, qps) = stem.rsplit_once("_output_")?;
    let qps: f64 = qps.parse().ok().filter(|q: &f64| q.is_finite())?;
    let workload = head
        .split_once('_')
        .map(|(_, w)| w.to_string())
        .filter(|w| !w.is_empty());
    Some((qps, workload))
}

/// One request's figures, in s and tokens.
struct Request {
    tokens: f64,
    ttft: f64,
    generation: f64,
    launch: f64,
    finish: f64,
}

/// Reads one LMBench file: the run of its level (the request rate its name gives), or the
/// problems with it; a request row that cannot be read is a problem and is left out.
fn parse(file: &InputFile, _body: Body, out: &mut Parsed) {
    let Some((qps, workload)) = from_name(&file.name) else {
        return out.problem(
            &file.name,
            None,
            RowError::NoLevel { keys: "the request rate in the file name (…_output_<qps>.csv, as LMBench names its files)".into() },
        );
    };
    if let Err(e) = positive("qps", qps) {
        return out.problem(&file.name, None, e);
    }
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(file.text.as_bytes());
    let Ok(headers) = reader.headers().cloned() else {
        return out.problem(&file.name, None, RowError::NoDataRows);
    };
    let at: Vec<Option<usize>> = COLUMNS
        .iter()
        .map(|c| headers.iter().position(|h| h == *c))
        .collect();
    let mut requests = Vec::new();
    for (i, record) in reader.records().enumerate() {
        let row = Some(i + 2);
        let Ok(record) = record else {
            out.problem(&file.name, row, RowError::UnreadableCsv { reason: None });
            continue;
        };
        match request(&record, &at) {
            Ok(request) => requests.push(request),
            Err(error) => out.problem(&file.name, row, error),
        }
    }
    let Some(first) = requests.iter().map(|r| r.launch).reduce(f64::min) else {
        return out.problem(&file.name, None, RowError::NoDataRows);
    };
    let last = requests.iter().map(|r| r.finish).fold(first, f64::max);
    let tokens: f64 = requests.iter().map(|r| r.tokens).sum();
    let span = last - first;
    if span <= 0.0 || tokens <= 0.0 {
        return out.problem(
            &file.name,
            None,
            RowError::NotPositive {
                key: "output tokens per second".into(),
                value: short(&tokens.to_string()),
            },
        );
    }
    let row = level_row(qps, &requests, tokens, span);
    let deployment = Deployment {
        dataset: workload,
        ..Deployment::new(LevelKind::RequestRate)
    };
    let model = out.model(None, None);
    out.push(&file.name, None, Measured::new(model, deployment, row));
}

/// One request from a CSV record: its figures (s and tokens), or the first column that is not
/// a finite number, named. `at` is the position of each of [`COLUMNS`] in the header.
fn request(record: &csv::StringRecord, at: &[Option<usize>]) -> Result<Request, RowError> {
    let mut values = [0.0; 6];
    for (k, column) in COLUMNS.iter().enumerate().skip(1) {
        let cell = at[k].and_then(|i| record.get(i)).unwrap_or("");
        match cell.parse::<f64>().ok().filter(|v| v.is_finite()) {
            Some(v) => values[k] = v,
            None => {
                return Err(if cell.contains('\0') {
                    RowError::NulByte {
                        column: short(column),
                    }
                } else {
                    RowError::NotANumber {
                        key: short(column),
                        text: Some(short(cell)),
                    }
                });
            }
        }
    }
    Ok(Request {
        tokens: values[1],
        ttft: values[2],
        generation: values[3],
        launch: values[4],
        finish: values[5],
    })
}

/// The row of a level at `qps` req/s: output throughput `tokens` ÷ `span` (tok/s, `span` in s
/// from the first launch to the last finish), TTFT, end-to-end, TPOT and normalized TPOT
/// summarised over the requests (ms), the average output length and the run's counts.
fn level_row(qps: f64, requests: &[Request], tokens: f64, span: f64) -> Row {
    let ms = |f: &dyn Fn(&Request) -> Option<f64>| -> Vec<f64> {
        requests.iter().filter_map(f).map(|s| s * 1000.0).collect()
    };
    let mut row = Row::new(qps, tokens / span);
    let stats = [
        (Metric::Ttft, ms(&|r| Some(r.ttft))),
        (Metric::E2e, ms(&|r| Some(r.finish - r.launch))),
        (
            Metric::Tpot,
            ms(&|r| (r.tokens >= 2.0).then(|| r.generation / (r.tokens - 1.0))),
        ),
        (
            Metric::Ntpot,
            ms(&|r| (r.tokens >= 1.0).then(|| (r.ttft + r.generation) / r.tokens)),
        ),
    ];
    for (metric, values) in stats {
        for (stat, value) in summarised(metric, &values) {
            row.set_latency_ms(stat, Some(value));
        }
    }
    let n = requests.len() as f64;
    row.avg_output_len = Some(tokens / n);
    let counts = RunCounts {
        completed: Some(n),
        failed: None,
        duration_s: Some(span),
        request_throughput_req_s: None,
    };
    row.finish(LevelKind::RequestRate, counts)
}
