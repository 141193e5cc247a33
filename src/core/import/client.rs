//! What vLLM's and SGLang's benchmark clients write alike (`bench serve --save-result`,
//! `bench_serving --output-file`): one record per run, latencies in ms under `{mean, median,
//! p90, p95, p99}_{itl, tpot, ttft}_ms`, and the records of a file as one JSON object, an array
//! or JSON lines. Shared by [`super::vllm`] and [`super::sglang`]; neither imports the other.

use serde_json::Value;

use super::client_requests::client_requests;
use super::errors::RowError;
use super::record::{count, parse_json, positive, Record};
use super::{Body, Measured, Parsed, Probe};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::signals::ServerSignals;
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// SGLang's own keys (`mean_e2e_latency_ms`, `total_output_tokens_retokenized`), or a backend
/// named `sglang…`: SGLang's `bench_serving` may drive another server, and says so in `backend`.
pub(crate) fn is_sglang(probe: &Probe) -> bool {
    probe.has_any(&["mean_e2e_latency_ms", "total_output_tokens_retokenized"])
        || probe
            .text("backend")
            .is_some_and(|b| b.starts_with("sglang"))
}

/// The records of a file, each with its 1-based record (or line) number: the object, the
/// array's items, the items of a joined file's `{ "records": [...] }` (results of several runs
/// gathered into one file, each item a run's record), or one per non-empty line. A line that
/// is not JSON, or an item that is not an object, is recorded as a problem against the file.
pub(crate) fn records(
    file: &str,
    text: &str,
    body: Body,
    out: &mut Parsed,
) -> Vec<(usize, serde_json::Map<String, Value>)> {
    let values: Vec<(usize, Value)> = match body {
        Body::Json(Value::Object(mut joined))
            if joined.get("records").is_some_and(Value::is_array) =>
        {
            match joined.remove("records") {
                Some(Value::Array(items)) => items
                    .into_iter()
                    .enumerate()
                    .map(|(i, v)| (i + 1, v))
                    .collect(),
                _ => Vec::new(),
            }
        }
        Body::Json(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i + 1, v))
            .collect(),
        Body::Json(value) => vec![(1, value)],
        Body::Values(values) => values,
        Body::Lines(_) => text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .filter_map(|(i, line)| match parse_json(line) {
                Ok(v) => Some((i + 1, v)),
                Err(e) => {
                    out.problem(file, Some(i + 1), e);
                    None
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    values
        .into_iter()
        .filter_map(|(n, v)| match v {
            Value::Object(map) => Some((n, map)),
            _ => {
                out.problem(file, Some(n), RowError::NotAnObject);
                None
            }
        })
        .collect()
}

/// One run of a benchmark client: its row and the deployment identity it states.
pub(crate) struct ClientRun {
    /// The measured row, derived figures computed.
    pub row: Row,
    /// The identity fields the record states.
    pub deployment: Deployment,
    /// Optional values that could not be read (the row is kept without them).
    pub notes: Vec<RowError>,
}

/// Reads one client record and adds its run to `out` (with the notes on values it could not
/// read), or its problem. The model is the record's stated one (the first of `model_keys` it
/// has), else the import dialog's, else `fallback`.
pub(crate) fn push_client_run(
    out: &mut Parsed,
    file: &str,
    n: usize,
    rec: &Record,
    model_keys: &[&str],
    fallback: Option<&str>,
    serve: Option<&str>,
) {
    match client_run(rec) {
        Ok(mut run) => {
            if let Some(serve) = serve {
                run.deployment.config = Some(serve.to_string());
            }
            let stated = model_keys.iter().find_map(|k| rec.text(k));
            let model = out.model(stated, fallback);
            for note in run.notes {
                out.problem(file, Some(n), note);
            }
            out.push(file, Some(n), Measured::new(model, run.deployment, run.row));
        }
        Err(e) => out.problem(file, Some(n), e),
    }
}

/// Reads one client record. Level: `max_concurrency`, else vLLM's multi-turn
/// `multi_turn_concurrency` (both client concurrencies), else a finite `request_rate`. A run
/// in which no request completed (`completed` 0) is kept as a level that failed, with its
/// `failed` count, when it can be placed on a level.
///
/// Errors: why the record cannot be used (no level, no throughput; every request failed at no
/// level).
pub(crate) fn client_run(rec: &Record) -> Result<ClientRun, RowError> {
    let mut notes = Vec::new();
    let completed = rec.num("completed")?;
    let all_failed = completed == Some(0.0);
    let rate = rec.num("request_rate")?;
    let (level_key, level, kind) = if let Some(c) = rec.num("max_concurrency")? {
        ("max_concurrency", c, LevelKind::Concurrency)
    } else if let Some(c) = rec.num("multi_turn_concurrency")? {
        ("multi_turn_concurrency", c, LevelKind::Concurrency)
    } else if let Some(r) = rate {
        ("request_rate", r, LevelKind::RequestRate)
    } else if all_failed {
        return Err(RowError::AllRequestsFailed {
            key: "completed".into(),
        });
    } else {
        return Err(RowError::NoLevel {
            keys: "max_concurrency, multi_turn_concurrency or request_rate".into(),
        });
    };
    positive(level_key, level)?;
    // vLLM writes `failed`; SGLang counts only `completed`, and its detailed output lists each
    // request's error (empty when it succeeded).
    let failed = rec.opt("failed", &mut notes).or_else(|| {
        let errors = rec.0.get("errors")?.as_array()?;
        let failed = errors
            .iter()
            .filter(|e| e.as_str().is_some_and(|t| !t.trim().is_empty()))
            .count();
        Some(failed as f64)
    });
    let row = if all_failed {
        Row::all_failed(level, failed)
    } else {
        let throughput = rec.required("output_throughput")?;
        positive("output_throughput", throughput)?;
        let mut row = Row::new(level, throughput);
        for (key, stat) in Statistic::keyed(|m, a| format!("{}_{}_ms", a.client_key(), m.key())) {
            row.set_latency_ms(stat, rec.opt(&key, &mut notes));
        }
        // End-to-end latency: vLLM's `median_e2el_ms`, SGLang's `median_e2e_latency_ms`.
        for a in Aggregate::ALL {
            if let Some(stat) = Statistic::from_parts(Metric::E2e, a) {
                let vllm = rec.opt(&format!("{}_e2el_ms", a.client_key()), &mut notes);
                let sglang = rec.opt(&format!("{}_e2e_latency_ms", a.client_key()), &mut notes);
                row.set_latency_ms(stat, vllm.or(sglang));
            }
        }
        row.avg_output_len = rec
            .opt("total_output_tokens", &mut notes)
            .zip(completed)
            .map(|(tokens, n)| tokens / n);
        row
    };
    let counts = RunCounts {
        completed,
        failed,
        duration_s: rec.opt("duration", &mut notes),
        request_throughput_req_s: rec.opt("request_throughput", &mut notes),
    };
    let mut row = row.finish(kind, counts);
    // The server's cap beside a client's level (`vllm bench sweep`): what `capped` compares with.
    let cap = rec.opt("max_num_seqs", &mut notes);
    if kind != LevelKind::MaxNumSeqs && cap.is_some() {
        let mut signals = ServerSignals::new();
        signals.max_num_seqs = cap;
        row.signals = Some(Box::new(signals.checked().0));
    }
    row.requests = client_requests(rec, &mut notes).unwrap_or_else(|e| {
        notes.push(e);
        None
    });
    let multi_turn_level = level_key == "multi_turn_concurrency";
    let deployment = client_deployment(rec, kind, multi_turn_level, rate, &mut notes);
    Ok(ClientRun {
        row,
        deployment,
        notes,
    })
}

/// The deployment identity a client record states: the engine (with SGLang's `server_info`:
/// version, parallelism, precision), the dataset and its lengths (a multi-turn run described),
/// `burstiness`, the offered `request_rate` of a concurrency run and `max_num_seqs`.
/// `multi_turn_level` says the level was read from `multi_turn_concurrency`. Optional values
/// that cannot be read are added to `notes`.
fn client_deployment(
    rec: &Record,
    kind: LevelKind,
    multi_turn_level: bool,
    rate: Option<f64>,
    notes: &mut Vec<RowError>,
) -> Deployment {
    let mut deployment = Deployment::new(kind);
    // The engine where the record names it: benchmark-compare scripts that drive several
    // engines with one client write `framework` (`backend` stays the client protocol);
    // SGLang's client adds the server's own `server_info` when it drives SGLang.
    deployment.engine = rec.label("framework");
    if let Some(server) = rec.object("server_info") {
        deployment.engine = Some("sglang".to_string());
        deployment.engine_version = server.label("version");
        deployment.tp = count(server.num("tp_size").ok().flatten());
        deployment.pp = count(server.num("pp_size").ok().flatten());
        deployment.dp = count(server.num("dp_size").ok().flatten());
        deployment.ep = count(server.num("ep_size").ok().flatten());
        deployment.attention_dp = server.flag("enable_dp_attention");
        let weights = server
            .text("quantization")
            .or(server.text("dtype").filter(|d| *d != "auto"));
        if let Some(precision) = weights {
            deployment.precision = precision.to_string();
        }
    }
    let dataset = rec.text("dataset_name");
    deployment.dataset = dataset.map(str::to_string);
    match dataset {
        Some("random") => {
            deployment.isl = rec.opt("random_input_len", notes);
            deployment.osl = rec.opt("random_output_len", notes);
        }
        Some("sharegpt") => deployment.osl = rec.opt("sharegpt_output_len", notes),
        _ => {}
    }
    if rec.text("mode") == Some("multi_turn") || multi_turn_level {
        let turns = rec.label("turns_per_conversation");
        let delay = rec.label("inter_turn_delay_ms");
        deployment.dataset = Some(format!(
            "multi-turn, {} turns per conversation, {} ms between turns",
            turns.as_deref().unwrap_or("?"),
            delay.as_deref().unwrap_or("?"),
        ));
    }
    deployment.burstiness = rec.opt("burstiness", notes);
    if kind == LevelKind::Concurrency {
        deployment.offered_rate = rate;
    }
    if let Some(n) = rec.label("max_num_seqs") {
        deployment.config = Some(format!("max_num_seqs={n}"));
    }
    deployment
}
