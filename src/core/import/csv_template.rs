//! The plain CSV template (its columns are in the README): one row per run, units in the column
//! names. Required: `concurrency` (or `request_rate`) and `output_tok_s`; every other column is
//! optional and may be left empty. Identity columns (`model`, `gpu`, `num_gpus`, `prefill_gpus`,
//! `decode_gpus`, `tp`, `pp`, `ep`, `dp`, `precision`, `framework`, `config`, `dataset`, `isl`,
//! `osl`, `date`) tell sweeps apart; a column the template does not have is named in the import
//! summary. A row with `prefill_gpus` and `decode_gpus` is disaggregated: its GPUs are P + D and
//! its `output_tok_s`, `power_w` and `energy_per_token_j` are the whole deployment's.
//! The server's signals over the run: `running` and `waiting` (mean requests), `kv_usage` (KV
//! cache use at its peak, a fraction from 0 to 1) and `preemptions` (a count); one outside its
//! range is named and not used.

use super::errors::RowError;
use super::grouping::capped;
use super::record::{count, csv_level, csv_rows, positive, Record};
use super::roles::{role_gpus, with_gpus};
use super::{Body, Format, FormatSpec, InputFile, Measured, Parsed, Probe};
use crate::core::model::deployment::{
    Deployment, Disaggregation, Roles, GPU_NOT_STATED, PRECISION_NOT_STATED,
};
use crate::core::model::row::{Row, RunCounts};
use crate::core::model::signals::{Gauge, ServerSignals, Signal, SignalSource};
use crate::core::model::statistic::Statistic;

/// This format: its names, how its files are recognised, and its reader.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::CsvTemplate,
    label: "CSV template",
    described: "the CSV template",
    detect,
    parse,
    keys: &[
        "model",
        "gpu",
        "num_gpus",
        "concurrency",
        "request_rate",
        "output_tok_s",
        "p50_itl_ms",
        "mean_tpot_ms",
        "power_w",
    ],
    level: "concurrency|request_rate",
    throughput: "output_tok_s",
};

/// Columns read besides the latencies (`{mean,p50,p90,p95,p99}_{itl,tpot,ttft}_ms`).
const COLUMNS: [&str; 37] = [
    "model",
    "gpu",
    "num_gpus",
    "prefill_gpus",
    "decode_gpus",
    "tp",
    "pp",
    "ep",
    "dp",
    "precision",
    "framework",
    "config",
    "dataset",
    "isl",
    "osl",
    "date",
    "concurrency",
    "request_rate",
    "output_tok_s",
    "input_tok_s",
    "avg_batch_size",
    "power_w",
    "prefill_power_w",
    "decode_power_w",
    "power_p90_w",
    "power_p95_w",
    "power_p99_w",
    "power_max_w",
    "energy_per_token_j",
    "served_req_s",
    "output_tokens_per_request",
    "input_tokens_per_request",
    "mean_e2e_ms",
    "running",
    "waiting",
    "kv_usage",
    "preemptions",
];

/// The latency columns: `p50_itl_ms`, ..., `p99_ttft_ms`, from the one statistic table.
fn latency_columns() -> Vec<(String, Statistic)> {
    Statistic::keyed(|m, a| format!("{}_{}_ms", a.key(), m.key()))
}

/// A CSV whose header names a level column.
fn detect(probe: &Probe) -> bool {
    probe.is_csv() && probe.has_any(&["concurrency", "request_rate"])
}

/// The server's signals of a row's `running`, `waiting`, `kv_usage` and `preemptions`; `None`
/// when it states none within range (each out of range named).
fn signals(rec: &Record, notes: &mut Vec<RowError>) -> Option<ServerSignals> {
    let mut signals = ServerSignals::new();
    for signal in Signal::ALL {
        if let Some(v) = rec.opt(signal.column(), notes) {
            let read = match signal {
                Signal::Running | Signal::Waiting => Gauge {
                    mean: Some(v),
                    max: None,
                },
                Signal::KvUse | Signal::Preemptions => Gauge {
                    mean: None,
                    max: Some(v),
                },
            };
            signals = signals.with(signal, read, SignalSource::Csv);
        }
    }
    let (checked, left) = signals.checked();
    for o in left {
        notes.push(RowError::SignalOutOfRange {
            signal: format!("{} (column `{}`)", o.signal.label(), o.signal.column()),
            value: o.value,
        });
    }
    (!checked.is_empty()).then_some(checked)
}

fn measured(
    rec: &Record,
    latencies: &[(String, Statistic)],
    out_model: &dyn Fn(Option<&str>) -> String,
    notes: &mut Vec<RowError>,
) -> Result<Measured, RowError> {
    let (level, kind) = csv_level(rec)?;
    let throughput = rec.required("output_tok_s")?;
    positive("output_tok_s", throughput)?;
    let mut row = Row::new(level, throughput);
    for (column, stat) in latencies {
        row.set_latency_ms(*stat, rec.opt(column, notes));
    }
    row.avg_batch_size = rec.opt("avg_batch_size", notes);
    row.power_w = rec.opt("power_w", notes);
    // The highest power percentile or maximum reported within range: the one provisioning
    // reads (one out of range is not reported, and does not hide a lower one that is).
    for (kind, column, _) in crate::core::model::row::PowerPeak::ALL {
        if let Some(w) = crate::core::model::row::in_range(rec.opt(column, notes)) {
            if row.power_peak.is_none_or(|(worst, _)| w >= worst) {
                row.power_peak = Some((w, kind));
            }
        }
    }
    row.set_energy_per_token_j(rec.opt("energy_per_token_j", notes));
    row.served_req_s = rec.opt("served_req_s", notes);
    row.avg_output_len = rec.opt("output_tokens_per_request", notes);
    row.avg_input_len = rec.opt("input_tokens_per_request", notes);
    row.input_tok_s = rec.opt("input_tok_s", notes);
    row.roles.prefill_power_w = rec.opt("prefill_power_w", notes);
    row.roles.decode_power_w = rec.opt("decode_power_w", notes);
    row.e2e_mean_ms = rec.opt("mean_e2e_ms", notes);
    row.signals = signals(rec, notes).map(Box::new);
    let row = row.finish(kind, RunCounts::default());

    let degree = |key: &str, notes: &mut Vec<RowError>| count(rec.opt(key, notes));
    let num_gpus = degree("num_gpus", notes);
    let (num_gpus, disaggregation) = roles(rec, num_gpus)?;
    let deployment = Deployment {
        gpu: rec.text_or("gpu", GPU_NOT_STATED),
        num_gpus,
        disaggregation,
        tp: degree("tp", notes),
        pp: degree("pp", notes),
        ep: degree("ep", notes),
        dp: degree("dp", notes),
        precision: rec.text_or("precision", PRECISION_NOT_STATED),
        engine: rec.label("framework"),
        config: rec.label("config"),
        dataset: rec.label("dataset"),
        isl: rec.opt("isl", notes),
        osl: rec.opt("osl", notes),
        date: rec.label("date"),
        ..Deployment::new(kind)
    };
    let model = out_model(rec.text("model"));
    Ok(Measured::new(model, deployment, row))
}

/// The roles a row states (`prefill_gpus` and `decode_gpus`, both or neither): a
/// disaggregated deployment of P + D GPUs, whose `num_gpus`, where stated, must be P + D.
///
/// Errors: as [`role_gpus`]'s; [`RowError::Missing`] for one role's GPUs without the
/// other's; [`RowError::GpusDoNotAddUp`] for a `num_gpus` other than P + D.
fn roles(
    rec: &Record,
    num_gpus: Option<u32>,
) -> Result<(Option<u32>, Option<Disaggregation>), RowError> {
    let (p, d) = role_gpus(
        ("prefill_gpus", rec.num("prefill_gpus")?),
        ("decode_gpus", rec.num("decode_gpus")?),
    )?;
    let (p, d) = match (p, d) {
        (None, None) => return Ok((num_gpus, None)),
        (Some(p), Some(d)) => (p, d),
        (None, Some(_)) => {
            return Err(RowError::Missing {
                key: "prefill_gpus".into(),
            })
        }
        (Some(_), None) => {
            return Err(RowError::Missing {
                key: "decode_gpus".into(),
            })
        }
    };
    let total = p.checked_add(d).ok_or(RowError::GpusDoNotAddUp {
        num_gpus,
        prefill_gpus: p,
        decode_gpus: d,
    })?;
    if num_gpus.is_some_and(|n| n != total) {
        return Err(RowError::GpusDoNotAddUp {
            num_gpus,
            prefill_gpus: p,
            decode_gpus: d,
        });
    }
    let disaggregation = Disaggregation::Disaggregated(Roles {
        prefill: with_gpus(Some(p)),
        decode: with_gpus(Some(d)),
    });
    Ok((Some(total), Some(disaggregation)))
}

fn parse(file: &InputFile, _body: Body, out: &mut Parsed) {
    let text = file.text.trim_start_matches('\u{feff}');
    let latencies = latency_columns();
    // Cut once here, not once per row.
    let hint = out.model_hint().map(capped);
    let name = capped(&file.name);
    let model = move |stated: Option<&str>| {
        stated
            .map(capped)
            .or_else(|| hint.clone())
            .unwrap_or_else(|| name.clone())
    };
    let known = |h: &str| COLUMNS.contains(&h) || latencies.iter().any(|(c, _)| c == h);
    csv_rows(&file.name, text, out, known, |rec, notes| {
        measured(rec, &latencies, &model, notes)
    });
}
