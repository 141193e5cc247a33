//! The side-by-side table as CSV: one list of columns, each a header (units in the name) and
//! the cell of a row.

use crate::core::model::deployment::Roles;
use crate::core::model::format::url_number;
use crate::core::model::roles::RolePerGpu;
use crate::core::model::signals::ServerSignals;
use crate::core::model::source::Source;
use crate::core::model::sweep::Sweep;
use crate::core::plan::attainment::Attainment;
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::bottleneck::{why, Why};
use crate::core::plan::capacity::{at_recommendation, Capacity};
use crate::core::plan::compare::CompareRow;
use crate::core::plan::cost::{at_recommendation as cost_at, Cost};
use crate::core::plan::period::{period, PeriodFigures};
use crate::core::plan::planner::{Recommendation, Slo};
use crate::core::plan::power::{budget_at, Budgeted, PowerBasis};
use crate::core::scenario::Scenario;
use crate::core::text::power_text::BUDGET_FIGURES;
use crate::core::wire::handoff::ExportError;

use super::recommended_attainment;

/// A number cell: the shortest text that reads back to the value, with an exponent where plain
/// digits would run long ([`url_number`]: `1e-320`, not 322 digits); empty when absent or not
/// finite (as the JSON writes `null`, never `inf`).
pub(crate) fn num(value: Option<f64>) -> String {
    value
        .filter(|v| v.is_finite())
        .map(url_number)
        .unwrap_or_default()
}

/// A text cell a spreadsheet will not evaluate: text starting with `=`, `+`, `-`, `@`, a tab or
/// a carriage return gets a leading `'` (OWASP's advice against CSV injection). Numbers are
/// written by [`num`] and never pass through here.
pub fn text_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// What one row of the CSV is written from: a deployment of the comparison, planned and costed.
struct CsvRow<'a> {
    source: &'a Source,
    row: &'a CompareRow,
    sweep: &'a Sweep,
    slo: &'a Slo,
    rec: Option<&'a Recommendation>,
    attained: Option<Attainment>,
    cap: Option<Capacity>,
    /// The period's figures, with a load over time (`load`).
    period: Option<PeriodFigures>,
    /// The power budget at the recommended level, with a budget (`power`) it can be planned
    /// under, and its basis.
    power: Option<(Budgeted, PowerBasis)>,
    /// Why the answer stops there, with a recommendation.
    why: Option<Why>,
    /// The autoscaler at the recommended level.
    autoscaler: Option<Autoscaler>,
    /// What a request costs at the recommended level, with a price.
    cost: Option<Cost>,
}

/// A cost figure's cell: empty without a price or where the figure is absent.
fn cost_cell(r: &CsvRow, figure: fn(&Cost) -> Option<f64>) -> String {
    num(r.cost.as_ref().and_then(figure))
}

/// The roles of a disaggregated row's deployment.
fn roles<'a>(r: &CsvRow<'a>) -> Option<&'a Roles> {
    r.sweep.deployment.roles()
}

/// A role figure at the recommended level: empty where colocated or not reported.
fn role_cell(r: &CsvRow, figure: fn(&RolePerGpu) -> Option<f64>) -> String {
    let per_gpu = roles(r).zip(r.rec).map(|(roles, rec)| {
        let input = r
            .row
            .plan
            .recommended
            .and_then(|i| r.sweep.levels().get(i))
            .and_then(|l| l.input_tok_s);
        RolePerGpu::of(roles, rec.throughput_tok_s, input)
    });
    num(per_gpu.as_ref().and_then(figure))
}

/// A signal's cell at the recommended level: empty where not reported.
fn signal_at(r: &CsvRow, figure: fn(&ServerSignals) -> Option<f64>) -> String {
    let signals = r
        .why
        .as_ref()
        .and_then(|w| r.sweep.level_signals(w.recommended));
    num(signals.as_ref().and_then(figure))
}

/// An autoscaler figure's cell: empty without a recommendation or where absent.
fn autoscaler_cell(r: &CsvRow, figure: fn(&Autoscaler) -> Option<f64>) -> String {
    num(r.autoscaler.as_ref().and_then(figure))
}

/// A power figure's cell: empty without a budget or where the figure is absent.
fn power_cell(r: &CsvRow, figure: impl Fn(&Budgeted) -> Option<f64>) -> String {
    num(r.power.as_ref().and_then(|(b, _)| figure(b)))
}

/// A period figure's cell: empty without a load or where the figure is absent.
fn period_cell(r: &CsvRow, figure: fn(&PeriodFigures) -> Option<f64>) -> String {
    num(r.period.as_ref().and_then(figure))
}

/// One column of the CSV: its header (units in the name) and its cell. Text from a file passes
/// through [`text_cell`]; a figure that is absent is an empty cell, never 0.
struct CsvColumn {
    header: &'static str,
    cell: fn(&CsvRow) -> String,
}

/// The CSV's columns before the power budget's figures, in order: the model, the deployment (GPU type, GPU count, parallelism
/// label, precision), `deployment`, the picker's label (with what tells the sweep apart from the
/// model's others), and the answer's figures. The one list the header and every row are drawn
/// from.
const CSV_COLUMNS: &[CsvColumn] = &[
    CsvColumn {
        header: "model_id",
        cell: |r| text_cell(&r.source.models[r.sweep.model_index].model_id),
    },
    CsvColumn {
        header: "gpu",
        cell: |r| text_cell(&r.sweep.deployment.gpu),
    },
    CsvColumn {
        header: "num_gpus",
        cell: |r| {
            r.sweep
                .deployment
                .num_gpus
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "parallelism",
        cell: |r| text_cell(&r.sweep.deployment.parallelism_label()),
    },
    CsvColumn {
        header: "precision",
        cell: |r| text_cell(&r.sweep.deployment.precision),
    },
    CsvColumn {
        header: "deployment",
        cell: |r| text_cell(r.source.sweep_label(r.row.sweep_index)),
    },
    CsvColumn {
        header: "status",
        cell: |r| r.row.plan.status.key().to_string(),
    },
    CsvColumn {
        header: "level_kind",
        cell: |r| r.sweep.level_kind().label().to_string(),
    },
    CsvColumn {
        header: "level",
        cell: |r| num(r.rec.map(|rec| rec.level)),
    },
    CsvColumn {
        header: "avg_batch_size_requests",
        cell: |r| num(r.rec.and_then(|rec| rec.avg_batch_size)),
    },
    CsvColumn {
        header: "statistic",
        cell: |r| match r.slo.attain {
            Some(_) => "tpot_per_request".to_string(),
            None => r.slo.stat.key().to_string(),
        },
    },
    CsvColumn {
        header: "latency_ms",
        cell: |r| num(r.rec.map(|rec| rec.latency_ms)),
    },
    CsvColumn {
        header: "per_user_tok_s",
        cell: |r| num(r.rec.map(|rec| rec.user_tps)),
    },
    CsvColumn {
        header: "throughput_tok_s",
        cell: |r| num(r.rec.map(|rec| rec.throughput_tok_s)),
    },
    CsvColumn {
        header: "throughput_per_gpu_tok_s",
        cell: |r| num(r.rec.and_then(|rec| rec.throughput_per_gpu_tok_s)),
    },
    CsvColumn {
        header: "energy_j_per_token",
        cell: |r| num(r.rec.and_then(|rec| rec.energy_per_token_j)),
    },
    CsvColumn {
        header: "power_w",
        cell: |r| num(r.rec.and_then(|rec| rec.power_w)),
    },
    CsvColumn {
        header: "replicas",
        cell: |r| {
            r.cap
                .as_ref()
                .and_then(|c| c.replicas)
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "gpus_needed",
        cell: |r| {
            r.cap
                .as_ref()
                .and_then(|c| c.gpus)
                .map(|n| n.to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "gpu_cost_usd_per_mtok",
        cell: |r| num(r.cap.as_ref().and_then(|c| c.cost_per_mtok)),
    },
    CsvColumn {
        header: "headroom_fraction",
        cell: |r| num(r.rec.map(|rec| rec.headroom)),
    },
    CsvColumn {
        header: "fleet_cost_usd_per_hour",
        cell: |r| num(r.row.costs.fleet_cost_per_hour),
    },
    CsvColumn {
        header: "total_cost_usd_per_mtok",
        cell: |r| num(r.row.costs.total_cost_per_mtok),
    },
    CsvColumn {
        header: "attain_percent",
        cell: |r| num(r.slo.attain),
    },
    CsvColumn {
        header: "attainment_percent",
        cell: |r| num(r.attained.and_then(|a| a.share()).map(|s| s * 100.0)),
    },
    CsvColumn {
        header: "good_requests",
        cell: |r| num(r.attained.map(|a| a.good as f64)),
    },
    CsvColumn {
        header: "issued_requests",
        cell: |r| num(r.attained.map(|a| a.issued as f64)),
    },
    CsvColumn {
        header: "goodput_req_s",
        cell: |r| {
            num(r
                .attained
                .zip(r.rec)
                .and_then(|(a, rec)| a.goodput_req_s(rec.throughput_tok_s)))
        },
    },
    CsvColumn {
        header: "goodput_output_tok_s",
        cell: |r| {
            num(r
                .attained
                .zip(r.rec)
                .and_then(|(a, rec)| a.goodput_tok_s(rec.throughput_tok_s)))
        },
    },
    CsvColumn {
        header: "period_h",
        cell: |r| period_cell(r, |f| Some(f.period_h)),
    },
    CsvColumn {
        header: "period_peak_replicas",
        cell: |r| period_cell(r, |f| f.peak_replicas.map(|n| n as f64)),
    },
    CsvColumn {
        header: "period_peak_gpus",
        cell: |r| period_cell(r, |f| f.peak_gpus.map(|n| n as f64)),
    },
    CsvColumn {
        header: "period_mean_gpus",
        cell: |r| period_cell(r, |f| f.mean_gpus),
    },
    CsvColumn {
        header: "period_gpu_hours",
        cell: |r| period_cell(r, |f| f.gpu_hours),
    },
    CsvColumn {
        header: "period_gpu_usd",
        cell: |r| period_cell(r, |f| f.gpu_usd),
    },
    CsvColumn {
        header: "period_energy_kwh",
        cell: |r| period_cell(r, |f| f.energy_kwh),
    },
    CsvColumn {
        header: "period_electricity_usd",
        cell: |r| period_cell(r, |f| f.electricity_usd),
    },
    CsvColumn {
        header: "period_co2_kg",
        cell: |r| period_cell(r, |f| f.co2_kg),
    },
    CsvColumn {
        header: "period_total_usd",
        cell: |r| period_cell(r, |f| f.total_usd),
    },
    CsvColumn {
        header: "period_peak_hold_gpu_hours",
        cell: |r| period_cell(r, |f| f.peak_hold_gpu_hours),
    },
    CsvColumn {
        header: "period_saved_gpu_hours",
        cell: |r| period_cell(r, |f| f.saved_gpu_hours),
    },
    CsvColumn {
        header: "power_budget_w",
        cell: |r| power_cell(r, |b| Some(b.plan.budget_w)),
    },
    CsvColumn {
        header: "power_basis",
        cell: |r| {
            r.power
                .as_ref()
                .map(|(_, basis)| basis.key().to_string())
                .unwrap_or_default()
        },
    },
];

/// The CSV's columns after the power budget's figures, in order.
const CSV_COLUMNS_AFTER_POWER: &[CsvColumn] = &[
    CsvColumn {
        header: "power_fits",
        cell: |r| {
            r.power
                .as_ref()
                .and_then(|(b, _)| b.need)
                .map(|(_, n)| n.fits.to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "prefill_gpus",
        cell: |r| num(roles(r).and_then(|x| x.prefill.gpus).map(f64::from)),
    },
    CsvColumn {
        header: "decode_gpus",
        cell: |r| num(roles(r).and_then(|x| x.decode.gpus).map(f64::from)),
    },
    CsvColumn {
        header: "output_tok_s_per_decode_gpu",
        cell: |r| role_cell(r, |p| p.output_tok_s_per_decode_gpu),
    },
    CsvColumn {
        header: "input_tok_s_per_prefill_gpu",
        cell: |r| role_cell(r, |p| p.input_tok_s_per_prefill_gpu),
    },
    CsvColumn {
        header: "cost_input_tokens_per_request",
        cell: |r| cost_cell(r, |c| c.lengths.input.map(|l| l.0)),
    },
    CsvColumn {
        header: "cost_output_tokens_per_request",
        cell: |r| cost_cell(r, |c| c.lengths.output.map(|l| l.0)),
    },
    CsvColumn {
        header: "cost_usd_per_request",
        cell: |r| cost_cell(r, |c| c.usd_per_request),
    },
    CsvColumn {
        header: "cost_usd_per_m_total_tokens",
        cell: |r| cost_cell(r, |c| c.usd_per_m_total_tokens),
    },
    CsvColumn {
        header: "cost_usd_per_m_output_tokens",
        cell: |r| cost_cell(r, |c| Some(c.usd_per_m_output_tokens)),
    },
    CsvColumn {
        header: "cost_usd_per_m_input_tokens_prefill",
        cell: |r| cost_cell(r, |c| c.usd_per_m_input_tokens_prefill),
    },
    CsvColumn {
        header: "cost_usd_per_m_output_tokens_decode",
        cell: |r| cost_cell(r, |c| c.usd_per_m_output_tokens_decode),
    },
    CsvColumn {
        header: "api_usd_per_request",
        cell: |r| cost_cell(r, |c| c.api_usd_per_request),
    },
    CsvColumn {
        header: "vs_api",
        cell: |r| cost_cell(r, |c| c.vs_api),
    },
    CsvColumn {
        header: "break_even_utilisation",
        cell: |r| cost_cell(r, |c| c.break_even_utilisation),
    },
    CsvColumn {
        header: "verdict",
        cell: |r| {
            r.why
                .as_ref()
                .map(|w| w.at_recommended.keys().join(" "))
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "next_level",
        cell: |r| {
            let next = r.why.as_ref().and_then(|w| w.next);
            num(next.and_then(|i| r.sweep.levels().get(i)).map(|l| l.level))
        },
    },
    CsvColumn {
        header: "next_verdict",
        cell: |r| {
            r.why
                .as_ref()
                .and_then(|w| w.at_next.as_ref())
                .map(|v| v.keys().join(" "))
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "lever",
        cell: |r| {
            r.why
                .as_ref()
                .map(|w| w.lever.key().to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "running_mean",
        cell: |r| signal_at(r, |s| s.running_mean),
    },
    CsvColumn {
        header: "waiting_mean",
        cell: |r| signal_at(r, |s| s.waiting_mean),
    },
    CsvColumn {
        header: "kv_use_max",
        cell: |r| signal_at(r, |s| s.kv_use_max),
    },
    CsvColumn {
        header: "preemptions",
        cell: |r| signal_at(r, |s| s.preemptions),
    },
    CsvColumn {
        header: "autoscaler_metric",
        cell: |r| {
            r.autoscaler
                .as_ref()
                .map(|a| a.metric.to_string())
                .unwrap_or_default()
        },
    },
    CsvColumn {
        header: "autoscaler_threshold",
        cell: |r| autoscaler_cell(r, |a| Some(a.threshold)),
    },
    CsvColumn {
        header: "autoscaler_min_replicas",
        cell: |r| autoscaler_cell(r, |a| Some(a.min_replicas as f64)),
    },
    CsvColumn {
        header: "autoscaler_max_replicas",
        cell: |r| autoscaler_cell(r, |a| a.max_replicas.map(|m| m as f64)),
    },
];

/// The CSV's header, units in the names: [`CSV_COLUMNS`], the power budget's figures
/// (`text::power_text::BUDGET_FIGURES`), [`CSV_COLUMNS_AFTER_POWER`].
pub fn csv_header() -> Vec<&'static str> {
    CSV_COLUMNS
        .iter()
        .map(|c| c.header)
        .chain(BUDGET_FIGURES.iter().map(|f| f.column))
        .chain(CSV_COLUMNS_AFTER_POWER.iter().map(|c| c.header))
        .collect()
}

/// A row's cells, in [`csv_header`]'s order.
fn cells(r: &CsvRow) -> Vec<String> {
    let power = BUDGET_FIGURES
        .iter()
        .map(|f| power_cell(r, |b| f.value(&b.plan, b.need.as_ref().map(|(_, n)| n))));
    CSV_COLUMNS
        .iter()
        .map(|c| (c.cell)(r))
        .chain(power)
        .chain(CSV_COLUMNS_AFTER_POWER.iter().map(|c| (c.cell)(r)))
        .collect()
}

/// The comparison rows as CSV: a first comment line `# scenario: <url>`, the header, one row per
/// deployment, each drawn from [`CSV_COLUMNS`]. Errors: [`ExportError::Writer`], the csv
/// crate's reason (writing to memory does not fail in practice).
pub fn compare_csv(
    source: &Source,
    rows: &[CompareRow],
    scenario: &Scenario,
    scenario_url: &str,
) -> Result<String, ExportError> {
    let slo = &scenario.slo;
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(csv_header())
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    for row in rows {
        let Some(sweep) = source.sweeps.get(row.sweep_index) else {
            continue;
        };
        let inputs = scenario.capacity_for(&sweep.deployment.gpu);
        let csv_row = CsvRow {
            source,
            row,
            sweep,
            slo,
            rec: row.recommendation.as_ref(),
            attained: recommended_attainment(&row.plan),
            cap: at_recommendation(sweep, &row.plan, slo, &inputs),
            period: scenario
                .fleet
                .load
                .as_ref()
                .zip(row.recommendation.as_ref())
                .map(|(load, rec)| {
                    period(
                        rec,
                        sweep.deployment.num_gpus,
                        load,
                        scenario.fleet.scaling,
                        &inputs,
                    )
                }),
            power: scenario.power_inputs().and_then(|p| {
                let load = scenario
                    .fleet
                    .load
                    .as_ref()
                    .map(|l| (l, scenario.fleet.scaling));
                budget_at(sweep, (&row.plan, slo), &p, (&inputs, load))?
                    .ok()
                    .map(|b| (b, p.basis))
            }),
            cost: cost_at(sweep, &row.plan, slo, &inputs),
            why: why(sweep, &row.plan),
            autoscaler: scenario.autoscaler(sweep, (&row.plan, slo)),
        };
        let record = cells(&csv_row);
        writer
            .write_record(record)
            .map_err(|e| ExportError::Writer(e.to_string()))?;
    }
    let body = writer
        .into_inner()
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    let body = String::from_utf8(body).map_err(|e| ExportError::Writer(e.to_string()))?;
    let url = scenario_url.replace(['\r', '\n'], " ");
    Ok(format!("# scenario: {url}\n{body}"))
}
