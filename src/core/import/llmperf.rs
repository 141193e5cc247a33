//! LLMPerf (`token_benchmark_ray.py`): a run writes `{stem}_summary.json` (one level: the
//! client's `num_concurrent_requests`; seconds) and `{stem}_individual_responses.json` (one
//! record per request, `error_code` set on those that failed) into one folder. The two files of
//! a run join into one level.
//!
//! What each figure measures (checked against the individual responses): LLMPerf's
//! `inter_token_latency_s` is the sum of every gap from the request's start to its last token,
//! the first token's wait included, divided by the output tokens: **normalized TPOT**, not ITL or
//! TPOT. Its summary quantiles are over the completed requests. TPOT, (end-to-end − TTFT) ÷
//! (output tokens − 1), is computed per request from the individual responses where they are
//! imported. `results_mean_output_throughput_token_per_s` is the aggregate output throughput
//! (the completed requests' output tokens ÷ the run's wall time). Failed requests:
//! `results_number_errors` of the summary, else the responses whose `error_code` is set.
//! Identity: the model, the mean input and output lengths asked for, and `framework` where the
//! run's metadata names the serving stack (as the LLMPerf leaderboard does).

use serde_json::{Map, Value};

use super::errors::{short, RowError};
use super::record::{base_name, folder, positive, s_to_ms, Record};
use super::requests::summarised;
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe, Supplement};
use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::requests::{Request, Requests};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::{Aggregate, Metric, Statistic};

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::LlmPerf,
    label: "LLMPerf results",
    described: "LLMPerf results",
    detect,
    parse,
    keys: &[
        "num_concurrent_requests",
        "results_mean_output_throughput_token_per_s",
        "results_ttft_s_mean",
        "results_error_rate",
        "end_to_end_latency_s",
        "ttft_s",
        "error_code",
        "inter_token_latency_s",
    ],
    level: "num_concurrent_requests",
    throughput: "results_mean_output_throughput_token_per_s",
};

/// The results version LLMPerf writes in every summary (`version`).
const VERSION: &str = "2023-08-31";

/// A summary (or a file of summaries under `records`), or an array of individual responses.
fn detect(probe: &Probe) -> bool {
    (probe.is_json_object()
        && probe.has("num_concurrent_requests")
        && probe.has_any(&[
            "results_mean_output_throughput_token_per_s",
            "results_ttft_s_mean",
        ]))
        || (probe.is_json_array() && probe.has("end_to_end_latency_s") && probe.has("ttft_s"))
}

/// What joins a summary to its individual responses: the folder and the file names' common
/// stem (`…/llama_550_150_summary.json` and `…/llama_550_150_individual_responses.json`).
fn join_key(name: &str, suffix: &str) -> Option<String> {
    let stem = base_name(name).strip_suffix(suffix)?;
    Some(match folder(name) {
        "" => stem.to_string(),
        dir => format!("{dir}/{stem}"),
    })
}

/// The summary key of a statistic: `results_{metric}_quantiles_p90`, `results_{metric}_mean`.
fn summary_key(metric: &str, aggregate: Aggregate) -> String {
    match aggregate {
        Aggregate::Mean => format!("results_{metric}_mean"),
        other => format!("results_{metric}_quantiles_{}", other.key()),
    }
}

/// One summary's run: its deployment and row.
fn summary(rec: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let level = rec.level("num_concurrent_requests")?;
    positive("num_concurrent_requests", level)?;
    let completed = rec.num("results_num_completed_requests")?;
    let failed = rec.opt("results_number_errors", notes);
    let row = if completed == Some(0.0) {
        Row::all_failed(level, failed)
    } else {
        let key = "results_mean_output_throughput_token_per_s";
        let throughput = rec
            .num(key)?
            .ok_or_else(|| RowError::Missing { key: short(key) })?;
        positive(key, throughput)?;
        let mut row = Row::new(level, throughput);
        for (metric, kind) in [
            ("inter_token_latency_s", Metric::Ntpot),
            ("ttft_s", Metric::Ttft),
            ("end_to_end_latency_s", Metric::E2e),
        ] {
            for aggregate in Aggregate::ALL {
                if let Some(stat) = Statistic::from_parts(kind, aggregate) {
                    let value = rec.opt(&summary_key(metric, aggregate), notes);
                    row.set_latency_ms(stat, s_to_ms(value));
                }
            }
        }
        row.avg_output_len = rec.opt("results_number_output_tokens_mean", notes);
        row
    };
    let row = row.finish(
        LevelKind::Concurrency,
        RunCounts {
            completed,
            failed,
            ..RunCounts::default()
        },
    );
    let deployment = Deployment {
        engine: rec.label("framework"),
        isl: rec.opt("mean_input_tokens", notes),
        osl: rec.opt("mean_output_tokens", notes),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((deployment, row))
}

/// The summaries of a file: the object itself, or each of its `records`.
fn summaries(obj: &Map<String, Value>) -> Vec<(usize, &Map<String, Value>)> {
    match obj.get("records").and_then(Value::as_array) {
        Some(items) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i + 1, v.as_object()?)))
            .collect(),
        None => vec![(1, obj)],
    }
}

/// The individual responses of a run: TPOT per completed request, the failed count, and each
/// request's own figures for attainment (a response with an `error_code`, or without its
/// latencies or an output token, is a miss; every response was issued). Responses whose times
/// are not latencies (a NaN, a negative time, an end before the first token) are counted in a
/// problem ([`RowError::RequestsNotMeasured`]).
fn responses(file: &InputFile, items: &[Value], out: &mut Parsed) {
    let mut tpot_ms = Vec::new();
    let mut completed = Vec::new();
    let mut failed = 0usize;
    let mut not_measured = 0;
    for item in items {
        let Some(r) = item.as_object().map(Record) else {
            continue;
        };
        if r.0.get("error_code").is_some_and(|c| !c.is_null()) {
            failed += 1;
            continue;
        }
        let Ok(Some(tokens)) = r.num("number_output_tokens") else {
            continue;
        };
        // A NaN is read as absent: a response without its latencies was not measured.
        let (Ok(Some(e2e)), Ok(Some(ttft))) = (r.num("end_to_end_latency_s"), r.num("ttft_s"))
        else {
            not_measured += 1;
            continue;
        };
        if tokens >= 2.0 {
            tpot_ms.push((e2e - ttft) * 1000.0 / (tokens - 1.0));
        }
        let Ok(output_tokens) = u32::try_from(tokens as u64) else {
            continue;
        };
        if tokens < 1.0 {
            continue;
        }
        match Request::measured(ttft * 1000.0, e2e * 1000.0, output_tokens) {
            Some(request) => completed.push(request),
            None => not_measured += 1,
        }
    }
    if not_measured > 0 {
        let error = RowError::RequestsNotMeasured {
            count: not_measured,
            issued: items.len() as u64,
        };
        out.problem(&file.name, None, error);
    }
    let stem = join_key(&file.name, "_individual_responses.json")
        .unwrap_or_else(|| file.name.trim_end_matches(".json").to_string());
    out.supplements.push(Supplement {
        file: file.name.clone(),
        orphan: RowError::ResponsesWithoutSummary { run: short(&stem) },
        folder: stem,
        latencies: summarised(Metric::Tpot, &tpot_ms),
        failed: Some(failed as f64),
        requests: Some(Requests::new(completed, items.len() as u64)),
    });
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    match body {
        Body::Json(Value::Array(items)) => responses(file, &items, out),
        Body::Json(Value::Object(obj)) => {
            let key = join_key(&file.name, "_summary.json");
            for (n, rec) in summaries(&obj) {
                if out.full() {
                    break;
                }
                let rec = Record(rec);
                if let Some(version) = rec.label("version").filter(|v| v != VERSION) {
                    let found = format!(
                        "of version {}: this planner reads version {VERSION}, the one LLMPerf writes",
                        short(&version)
                    );
                    let error = RowError::UnsupportedVersion {
                        tool: "LLMPerf summary".into(),
                        versions: found,
                    };
                    out.problem(&file.name, Some(n), error);
                    continue;
                }
                let mut notes = Vec::new();
                match summary(&rec, &mut notes) {
                    Ok((deployment, row)) => {
                        let model = out.model(rec.text("model"), None);
                        let mut m = Measured::new(model, deployment, row);
                        m.folder = key.clone();
                        out.push(&file.name, Some(n), m);
                    }
                    Err(e) => out.problem(&file.name, Some(n), e),
                }
                for note in notes {
                    out.problem(&file.name, Some(n), note);
                }
            }
        }
        _ => out.problem(&file.name, None, RowError::NotAnObject),
    }
}
