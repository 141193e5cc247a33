//! The CSV's columns: the one list its header and every row are drawn from, each a header
//! (units in the name) and the cell of a row.

use crate::core::model::deployment::Roles;
use crate::core::model::roles::RolePerGpu;
use crate::core::model::signals::ServerSignals;
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::cost::Cost;
use crate::core::plan::period::PeriodFigures;
use crate::core::plan::power::Budgeted;
use crate::core::text::power_text::BUDGET_FIGURES;

use super::{num, text_cell, CsvRow};

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

/// An optional value's text: empty when it is absent.
fn shown(value: Option<impl ToString>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The column of `header` whose cells `cell` writes.
const fn column(header: &'static str, cell: fn(&CsvRow) -> String) -> CsvColumn {
    CsvColumn { header, cell }
}

/// The CSV's columns before the power budget's figures, in order: the model, the deployment (GPU type, GPU count, parallelism
/// label, precision), `deployment`, the picker's label (with what tells the sweep apart from the
/// model's others), and the answer's figures. The one list the header and every row are drawn
/// from.
const CSV_COLUMNS: &[CsvColumn] = &[
    column("model_id", |r| {
        text_cell(&r.source.models[r.sweep.model_index].model_id)
    }),
    column("gpu", |r| text_cell(&r.sweep.deployment.gpu)),
    column("num_gpus", |r| shown(r.sweep.deployment.num_gpus)),
    column("parallelism", |r| {
        text_cell(&r.sweep.deployment.parallelism_label())
    }),
    column("precision", |r| text_cell(&r.sweep.deployment.precision)),
    column("deployment", |r| {
        text_cell(r.source.sweep_label(r.row.sweep_index))
    }),
    column("status", |r| r.row.plan.status.key().to_string()),
    column("level_kind", |r| r.sweep.level_kind().label().to_string()),
    column("level", |r| num(r.rec.map(|rec| rec.level))),
    column("avg_batch_size_requests", |r| {
        num(r.rec.and_then(|rec| rec.avg_batch_size))
    }),
    column("statistic", |r| match r.slo.attain {
        Some(_) => "tpot_per_request".to_string(),
        None => r.slo.stat.key().to_string(),
    }),
    column("latency_ms", |r| num(r.rec.map(|rec| rec.latency_ms))),
    column("per_user_tok_s", |r| num(r.rec.map(|rec| rec.user_tps))),
    column("throughput_tok_s", |r| {
        num(r.rec.map(|rec| rec.throughput_tok_s))
    }),
    column("throughput_per_gpu_tok_s", |r| {
        num(r.rec.and_then(|rec| rec.throughput_per_gpu_tok_s))
    }),
    column("energy_j_per_token", |r| {
        num(r.rec.and_then(|rec| rec.energy_per_token_j))
    }),
    column("power_w", |r| num(r.rec.and_then(|rec| rec.power_w))),
    column("replicas", |r| {
        shown(r.cap.as_ref().and_then(|c| c.replicas))
    }),
    column("gpus_needed", |r| {
        shown(r.cap.as_ref().and_then(|c| c.gpus))
    }),
    column("gpu_cost_usd_per_mtok", |r| {
        num(r.cap.as_ref().and_then(|c| c.cost_per_mtok))
    }),
    column("headroom_fraction", |r| num(r.rec.map(|rec| rec.headroom))),
    column("fleet_cost_usd_per_hour", |r| {
        num(r.row.costs.fleet_cost_per_hour)
    }),
    column("total_cost_usd_per_mtok", |r| {
        num(r.row.costs.total_cost_per_mtok)
    }),
    column("attain_percent", |r| num(r.slo.attain)),
    column("attainment_percent", |r| {
        num(r.attained.and_then(|a| a.share()).map(|s| s * 100.0))
    }),
    column("good_requests", |r| num(r.attained.map(|a| a.good as f64))),
    column("issued_requests", |r| {
        num(r.attained.map(|a| a.issued as f64))
    }),
    column("goodput_req_s", |r| {
        num(r
            .attained
            .zip(r.rec)
            .and_then(|(a, rec)| a.goodput_req_s(rec.throughput_tok_s)))
    }),
    column("goodput_output_tok_s", |r| {
        num(r
            .attained
            .zip(r.rec)
            .and_then(|(a, rec)| a.goodput_tok_s(rec.throughput_tok_s)))
    }),
    column("period_h", |r| period_cell(r, |f| Some(f.period_h))),
    column("period_peak_replicas", |r| {
        period_cell(r, |f| f.peak_replicas.map(|n| n as f64))
    }),
    column("period_peak_gpus", |r| {
        period_cell(r, |f| f.peak_gpus.map(|n| n as f64))
    }),
    column("period_mean_gpus", |r| period_cell(r, |f| f.mean_gpus)),
    column("period_gpu_hours", |r| period_cell(r, |f| f.gpu_hours)),
    column("period_gpu_usd", |r| period_cell(r, |f| f.gpu_usd)),
    column("period_energy_kwh", |r| period_cell(r, |f| f.energy_kwh)),
    column("period_electricity_usd", |r| {
        period_cell(r, |f| f.electricity_usd)
    }),
    column("period_co2_kg", |r| period_cell(r, |f| f.co2_kg)),
    column("period_total_usd", |r| period_cell(r, |f| f.total_usd)),
    column("period_peak_hold_gpu_hours", |r| {
        period_cell(r, |f| f.peak_hold_gpu_hours)
    }),
    column("period_saved_gpu_hours", |r| {
        period_cell(r, |f| f.saved_gpu_hours)
    }),
    column("power_budget_w", |r| {
        power_cell(r, |b| Some(b.plan.budget_w))
    }),
    column("power_basis", |r| {
        shown(r.power.as_ref().map(|(_, basis)| basis.key()))
    }),
];

/// The CSV's columns after the power budget's figures, in order.
const CSV_COLUMNS_AFTER_POWER: &[CsvColumn] = &[
    column("power_fits", |r| {
        shown(
            r.power
                .as_ref()
                .and_then(|(b, _)| b.need)
                .map(|(_, n)| n.fits),
        )
    }),
    column("prefill_gpus", |r| {
        num(roles(r).and_then(|x| x.prefill.gpus).map(f64::from))
    }),
    column("decode_gpus", |r| {
        num(roles(r).and_then(|x| x.decode.gpus).map(f64::from))
    }),
    column("output_tok_s_per_decode_gpu", |r| {
        role_cell(r, |p| p.output_tok_s_per_decode_gpu)
    }),
    column("input_tok_s_per_prefill_gpu", |r| {
        role_cell(r, |p| p.input_tok_s_per_prefill_gpu)
    }),
    column("cost_input_tokens_per_request", |r| {
        cost_cell(r, |c| c.lengths.input.map(|l| l.0))
    }),
    column("cost_output_tokens_per_request", |r| {
        cost_cell(r, |c| c.lengths.output.map(|l| l.0))
    }),
    column("cost_usd_per_request", |r| {
        cost_cell(r, |c| c.usd_per_request)
    }),
    column("cost_usd_per_m_total_tokens", |r| {
        cost_cell(r, |c| c.usd_per_m_total_tokens)
    }),
    column("cost_usd_per_m_output_tokens", |r| {
        cost_cell(r, |c| Some(c.usd_per_m_output_tokens))
    }),
    column("cost_usd_per_m_input_tokens_prefill", |r| {
        cost_cell(r, |c| c.usd_per_m_input_tokens_prefill)
    }),
    column("cost_usd_per_m_output_tokens_decode", |r| {
        cost_cell(r, |c| c.usd_per_m_output_tokens_decode)
    }),
    column("api_usd_per_request", |r| {
        cost_cell(r, |c| c.api_usd_per_request)
    }),
    column("vs_api", |r| cost_cell(r, |c| c.vs_api)),
    column("break_even_utilisation", |r| {
        cost_cell(r, |c| c.break_even_utilisation)
    }),
    column("verdict", |r| {
        r.why
            .as_ref()
            .map(|w| w.at_recommended.keys().join(" "))
            .unwrap_or_default()
    }),
    column("next_level", |r| {
        let next = r.why.as_ref().and_then(|w| w.next);
        num(next.and_then(|i| r.sweep.levels().get(i)).map(|l| l.level))
    }),
    column("next_verdict", |r| {
        r.why
            .as_ref()
            .and_then(|w| w.at_next.as_ref())
            .map(|v| v.keys().join(" "))
            .unwrap_or_default()
    }),
    column("lever", |r| shown(r.why.as_ref().map(|w| w.lever.key()))),
    column("running_mean", |r| signal_at(r, |s| s.running_mean)),
    column("waiting_mean", |r| signal_at(r, |s| s.waiting_mean)),
    column("kv_use_max", |r| signal_at(r, |s| s.kv_use_max)),
    column("preemptions", |r| signal_at(r, |s| s.preemptions)),
    column("autoscaler_metric", |r| {
        shown(r.autoscaler.as_ref().map(|a| a.metric))
    }),
    column("autoscaler_threshold", |r| {
        autoscaler_cell(r, |a| Some(a.threshold))
    }),
    column("autoscaler_min_replicas", |r| {
        autoscaler_cell(r, |a| Some(a.min_replicas as f64))
    }),
    column("autoscaler_max_replicas", |r| {
        autoscaler_cell(r, |a| a.max_replicas.map(|m| m as f64))
    }),
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
pub(super) fn cells(r: &CsvRow) -> Vec<String> {
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
