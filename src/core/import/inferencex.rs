//! InferenceX aggregate JSON: an array of entries, several configurations per file, level =
//! `conc`, latencies in **seconds**. Two shapes:
//! - the API rows (`{hardware, framework, model, precision, conc, metrics: {...}, date}`),
//!   throughput and power per GPU, **per role**: `output_tput_per_gpu` is output tok/s ÷ the
//!   decode GPUs (D), `input_tput_per_gpu` input tok/s ÷ the prefill GPUs (P), `tput_per_gpu`
//!   total tok/s ÷ (P + D); a disaggregated row is read only where tput_per_gpu × (P + D) =
//!   input_tput_per_gpu × P + output_tput_per_gpu × D (else named, never guessed). A colocated
//!   row's GPUs are its `num_decode_gpu`. `avg_power_w` is per GPU over all of them; a stored
//!   `joules_per_output_token` of a disaggregated row is the decode role's unless
//!   `power_metric_schema_version` is 2 or later. Identity: hardware, GPUs, decode
//!   TP/EP/attention DP, precision, `framework` and `image`, `spec_method`, the roles (each
//!   side's workers, parallelism and GPUs), `isl`/`osl` and the campaign `date` (each date is
//!   other software);
//! - the agentic `agg_bmk` rows (flat: `hw, conc, tp, offloading, mean_itl, ...,
//!   output_tput_tps, output_tput_per_gpu`), GPUs = output tok/s ÷ output tok/s per GPU.

use serde_json::Value;

use super::errors::RowError;
use super::record::{count, positive, s_to_ms, Record};
use super::roles::{flagged, role_gpus};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{
    Deployment, Disaggregation, LevelKind, Role, Roles, GPU_NOT_STATED, PRECISION_NOT_STATED,
};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::statistic::Statistic;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::InferenceX,
    label: "InferenceX aggregate JSON",
    described: "an InferenceX aggregate file",
    detect,
    parse,
    keys: &[
        "conc",
        "hardware",
        "hw",
        "framework",
        "metrics",
        "output_tput_per_gpu",
        "output_tput_tps",
        "num_decode_gpu",
        "isl",
        "osl",
    ],
    level: "conc",
    throughput: "metrics.output_tput_per_gpu|output_tput_tps",
};

/// An array of entries with `conc` and per-GPU or aggregate throughput.
fn detect(probe: &Probe) -> bool {
    probe.is_json_array()
        && probe.has("conc")
        && probe.has_any(&["metrics", "output_tput_per_gpu", "num_requests_total"])
}

/// Latencies in seconds under `{mean,median,p90,p95,p99}_{itl,tpot,ttft}`.
fn latencies(row: &mut Row, metrics: &Record, notes: &mut Vec<RowError>) {
    for (key, stat) in Statistic::keyed(|m, a| format!("{}_{}", a.client_key(), m.key())) {
        row.set_latency_ms(stat, s_to_ms(metrics.opt(&key, notes)));
    }
    row.e2e_mean_ms = s_to_ms(metrics.opt("mean_e2el", notes));
}

/// One role of a disaggregated row as stated: `prefill_tp`, `prefill_ep`, `prefill_dp_attention`,
/// `prefill_num_workers` (a count of 0 is not stated) and its GPUs.
fn role(e: &Record, prefix: &str, gpus: Option<u32>) -> Role {
    let degree = |key: &str| count(e.num(&format!("{prefix}_{key}")).ok().flatten());
    Role {
        workers: degree("num_workers"),
        tp: degree("tp"),
        ep: degree("ep"),
        attention_dp: e.flag(&format!("{prefix}_dp_attention")),
        gpus,
        ..Role::default()
    }
}

/// GPUs of a row: (P, D) of a disaggregated one, checked whole and not 0; the decode GPUs of
/// a colocated one as (None, GPUs).
fn gpus_of(e: &Record, disaggregated: bool) -> Result<(Option<u32>, u32), RowError> {
    if !disaggregated {
        let gpus =
            count(e.num("num_decode_gpu")?).ok_or_else(|| RowError::missing("num_decode_gpu"))?;
        return Ok((None, gpus));
    }
    let (p, d) = role_gpus(
        ("num_prefill_gpu", e.num("num_prefill_gpu")?),
        ("num_decode_gpu", e.num("num_decode_gpu")?),
    )?;
    let p = p.ok_or_else(|| RowError::missing("num_prefill_gpu"))?;
    let d = d.ok_or_else(|| RowError::missing("num_decode_gpu"))?;
    Ok((Some(p), d))
}

/// Relative difference above which a row's throughputs do not add up by role: 0.1%, room for
/// figures rounded to two decimals (the real rows that add up agree to 1e-15; those that do not
/// are 15% or more apart).
const ROLES_ADD_UP_WITHIN: f64 = 1e-3;

/// Checks tput_per_gpu × (P + D) = input_tput_per_gpu × P + output_tput_per_gpu × D where the
/// row states all three; nothing to check where it does not.
fn check_roles_add_up(
    metrics: &Record,
    p: u32,
    d: u32,
    output_per_gpu: f64,
) -> Result<(), RowError> {
    let (Some(total), Some(input)) = (
        metrics.num("tput_per_gpu")?,
        metrics.num("input_tput_per_gpu")?,
    ) else {
        return Ok(());
    };
    let (p_f, d_f) = (f64::from(p), f64::from(d));
    let total_tok_s = total * (p_f + d_f);
    let by_role_tok_s = input * p_f + output_per_gpu * d_f;
    if (total_tok_s - by_role_tok_s).abs()
        > ROLES_ADD_UP_WITHIN * total_tok_s.abs().max(by_role_tok_s.abs())
    {
        return Err(RowError::RolesDoNotAddUp {
            total_tok_s,
            by_role_tok_s,
            prefill_gpus: p,
            decode_gpus: d,
        });
    }
    Ok(())
}

/// Power and energy of a row: `avg_power_w` per GPU × all GPUs; each role's
/// `{prefill,decode}_avg_power_w` × its GPUs; a stored `joules_per_output_token` is the whole
/// deployment's in a colocated row or under `power_metric_schema_version` 2 or later, else the
/// decode role's (named in a note), and the whole deployment's is then derived from power.
fn power_and_energy(
    row: &mut Row,
    e: &Record,
    metrics: &Record,
    prefill: Option<u32>,
    decode: u32,
    notes: &mut Vec<RowError>,
) {
    let all = f64::from(decode) + f64::from(prefill.unwrap_or(0));
    row.power_w = metrics.opt("avg_power_w", notes).map(|w| w * all);
    let stored = metrics.opt("joules_per_output_token", notes);
    let Some(p) = prefill else {
        row.set_energy_per_token_j(stored);
        return;
    };
    row.roles.prefill_power_w = metrics
        .opt("prefill_avg_power_w", notes)
        .map(|w| w * f64::from(p));
    row.roles.decode_power_w = metrics
        .opt("decode_avg_power_w", notes)
        .map(|w| w * f64::from(decode));
    let schema = metrics
        .opt("power_metric_schema_version", notes)
        .or_else(|| e.opt("power_metric_schema_version", notes));
    if schema.is_some_and(|v| v >= 2.0) {
        row.set_energy_per_token_j(stored);
    } else if let Some(j) = stored {
        row.roles.decode_energy_per_token_j = Some(j);
        notes.push(RowError::DecodeRoleEnergy {
            key: "joules_per_output_token".into(),
            j,
        });
    }
}

/// A row of the InferenceX API. Output tok/s = `output_tput_per_gpu` × the decode GPUs (D);
/// input tok/s = `input_tput_per_gpu` × the prefill GPUs (P) when disaggregated, else × the
/// GPUs; a replica's GPUs are P + D.
fn api_row(e: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let metrics = e.object("metrics").ok_or_else(|| RowError::Missing {
        key: "metrics".into(),
    })?;
    let level = e.level("conc")?;
    let disaggregated = e.flag("disagg");
    let (prefill, decode) = gpus_of(e, disaggregated == Some(true))?;
    let per_gpu = metrics
        .num("output_tput_per_gpu")?
        .ok_or_else(|| RowError::Missing {
            key: "metrics.output_tput_per_gpu".into(),
        })?;
    positive("conc", level)?;
    positive("output_tput_per_gpu", per_gpu)?;
    if let Some(p) = prefill {
        check_roles_add_up(&metrics, p, decode, per_gpu)?;
    }
    let gpus = decode.saturating_add(prefill.unwrap_or(0));
    let mut row = Row::new(level, per_gpu * f64::from(decode));
    row.input_tok_s = metrics
        .opt("input_tput_per_gpu", notes)
        .map(|i| i * f64::from(prefill.unwrap_or(decode)));
    latencies(&mut row, &metrics, notes);
    power_and_energy(&mut row, e, &metrics, prefill, decode, notes);
    let row = row.finish(LevelKind::Concurrency, RunCounts::default());
    let deployment = Deployment {
        gpu: e.text_or("hardware", GPU_NOT_STATED),
        num_gpus: Some(gpus),
        tp: count(e.opt("decode_tp", notes)),
        ep: count(e.opt("decode_ep", notes)),
        attention_dp: e.flag("decode_dp_attention"),
        precision: e.text_or("precision", PRECISION_NOT_STATED),
        engine: e.label("framework"),
        engine_version: e.label("image"),
        spec_decoding: e.label("spec_method"),
        disaggregation: disaggregated.map(|_| match prefill {
            Some(p) => Disaggregation::Disaggregated(Roles {
                prefill: role(e, "prefill", Some(p)),
                decode: role(e, "decode", Some(decode)),
            }),
            None => Disaggregation::Colocated,
        }),
        isl: e.opt("isl", notes),
        osl: e.opt("osl", notes),
        date: e.label("date"),
        ..Deployment::new(LevelKind::Concurrency)
    };
    Ok((deployment, row))
}

/// The deployment of an InferenceX aggregate entry (a result of `agg_bmk.json` or a per-level
/// agentic result, which name it with the same keys): GPU type, `gpus`, TP, EP, attention DP,
/// precision, engine and image, speculative decoding, the `disagg` flag, the scenario, and
/// `config` (its offloading, as each file states it).
pub(super) fn agg_deployment(
    e: &Record,
    gpus: Option<u32>,
    config: Option<String>,
    notes: &mut Vec<RowError>,
) -> Deployment {
    Deployment {
        gpu: e.text_or("hw", GPU_NOT_STATED),
        num_gpus: gpus,
        tp: count(e.opt("tp", notes)),
        ep: count(e.opt("ep", notes)),
        attention_dp: e.flag("dp_attention"),
        precision: e.text_or("precision", PRECISION_NOT_STATED),
        engine: e.label("framework"),
        engine_version: e.label("image"),
        spec_decoding: e.label("spec_decoding"),
        disaggregation: flagged(e.flag("disagg")),
        dataset: e.label("scenario_type"),
        config,
        ..Deployment::new(LevelKind::Concurrency)
    }
}

fn agg_row(e: &Record, notes: &mut Vec<RowError>) -> Result<(Deployment, Row), RowError> {
    let level = e.level("conc")?;
    positive("conc", level)?;
    let completed = e.num("num_requests_successful")?;
    let failed = e
        .num("num_requests_total")?
        .zip(completed)
        .map(|(total, ok)| (total - ok).max(0.0));
    if completed == Some(0.0) && failed == Some(0.0) {
        // No request was issued at all: nothing measured, not even a failure.
        return Err(RowError::AllRequestsFailed {
            key: "num_requests_successful".into(),
        });
    }
    let (row, gpus) = if completed == Some(0.0) {
        // No request completed: a level that failed, without figures.
        (Row::all_failed(level, failed), None)
    } else {
        let throughput = e.required("output_tput_tps")?;
        positive("output_tput_tps", throughput)?;
        let gpus = e
            .num("output_tput_per_gpu")?
            .filter(|p| *p > 0.0)
            .map(|p| (throughput / p).round())
            .and_then(|g| count(Some(g)));
        let mut row = Row::new(level, throughput);
        row.input_tok_s = e.opt("input_tput_tps", notes);
        latencies(&mut row, e, notes);
        row.avg_output_len = e.opt("mean_output_tokens_actual", notes);
        row.avg_input_len = e.opt("mean_input_tokens", notes);
        (row, gpus)
    };
    let counts = RunCounts {
        completed,
        failed,
        duration_s: e.opt("duration_seconds", notes),
        request_throughput_req_s: None,
    };
    let row = row.finish(LevelKind::Concurrency, counts);
    let config = e.label("offloading").map(|o| format!("offload {o}"));
    Ok((agg_deployment(e, gpus, config, notes), row))
}

fn parse(file: &InputFile, body: Body, out: &mut Parsed) {
    let Body::Json(Value::Array(entries)) = body else {
        return out.problem(&file.name, None, RowError::NotAnObject);
    };
    for (i, entry) in entries.iter().enumerate() {
        if out.full() {
            break;
        }
        let Some(e) = entry.as_object().map(Record) else {
            out.problem(&file.name, Some(i + 1), RowError::NotAnObject);
            continue;
        };
        let mut notes = Vec::new();
        let result = if e.0.contains_key("metrics") {
            api_row(&e, &mut notes)
        } else {
            agg_row(&e, &mut notes)
        };
        match result {
            Ok((deployment, row)) => {
                let model = out.model(e.text("model"), None);
                out.push(
                    &file.name,
                    Some(i + 1),
                    Measured::new(model, deployment, row),
                );
            }
            Err(error) => out.problem(&file.name, Some(i + 1), error),
        }
        for note in notes {
            out.problem(&file.name, Some(i + 1), note);
        }
    }
}
