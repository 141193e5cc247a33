//! Downloads: the side-by-side table as CSV, the scenario with its results as JSON and the chart
//! as SVG. Numbers are written unrounded (Rust's `{}` for f64); a value that is absent is an
//! empty CSV cell or a JSON `null`, never 0. Writing uses the `csv` and `serde_json` crates. The
//! tools module runs them ([`export`]), so the page's first load carries none of the writers.

use serde::Serialize;

use crate::core::model::source::Source;
use crate::core::model::sweep::Sweep;
use crate::core::plan::attainment::Attainment;
use crate::core::plan::capacity::{at_recommendation, Capacity};
use crate::core::plan::compare::{table_rows, CompareRow};
use crate::core::plan::estimate::estimate;
use crate::core::plan::period::{period, PeriodFigures};
use crate::core::plan::planner::{plan, Plan, Recommendation, Slo, Target};
use crate::core::scenario::{load_text, Scenario};
use crate::core::text::chart_file::{standalone_svg, ChartFile};
use crate::core::text::chart_text::{charted, export_title, left_off_notes, series_class};
use crate::core::wire::handoff::{ExportError, ExportKind, ExportRequest};
use period::JsonPeriod;

fn num(value: Option<f64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
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

/// The CSV's columns, in order: the model, the deployment (GPU type, GPU count, parallelism
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
];

/// The CSV's header, units in the names ([`CSV_COLUMNS`]).
pub fn csv_header() -> Vec<&'static str> {
    CSV_COLUMNS.iter().map(|c| c.header).collect()
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
    let slo = &scenario.slo();
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(csv_header())
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    for row in rows {
        let Some(sweep) = source.sweeps.get(row.sweep_index) else {
            continue;
        };
        let inputs = scenario.capacity_for(&sweep.deployment.gpu);
        let csv_row =
            CsvRow {
                source,
                row,
                sweep,
                slo,
                rec: row.recommendation.as_ref(),
                attained: recommended_attainment(&row.plan),
                cap: at_recommendation(sweep, &row.plan, slo, &inputs),
                period: scenario.load.as_ref().zip(row.recommendation.as_ref()).map(
                    |(load, rec)| {
                        period(
                            rec,
                            sweep.deployment.num_gpus,
                            load,
                            scenario.scaling,
                            &inputs,
                        )
                    },
                ),
            };
        let record = CSV_COLUMNS.iter().map(|c| (c.cell)(&csv_row));
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

fn recommended_attainment(plan: &Plan) -> Option<Attainment> {
    plan.verdicts.get(plan.recommended?)?.attainment
}

#[derive(Serialize)]
struct JsonExport<'a> {
    scenario_url: &'a str,
    source: JsonSource<'a>,
    scenario: JsonScenario<'a>,
    result: JsonResult,
}

#[derive(Serialize)]
struct JsonSource<'a> {
    name: &'a str,
    task: &'a str,
    task_display_name: &'a str,
}

#[derive(Serialize)]
struct JsonScenario<'a> {
    model_id: &'a str,
    /// The deployment as the picker labels it, and its `cfg` where it needs one.
    deployment: &'a str,
    cfg: Option<&'a str>,
    gpu: &'a str,
    num_gpus: Option<u32>,
    target_unit: &'static str,
    target_value: f64,
    statistic: &'static str,
    limits: Vec<JsonLimit>,
    attain_percent: Option<f64>,
    users: Option<f64>,
    requests_per_second: Option<f64>,
    price_usd_per_gpu_hour: Option<f64>,
    price_usd_per_gpu_hour_by_type: Vec<(&'a str, f64)>,
    price_usd_per_kwh: Option<f64>,
    co2_g_per_kwh: Option<f64>,
    pue: f64,
    /// The load over time in the link's form (`rps:60:10,40`), absent without one.
    load: Option<String>,
    /// Minutes a replica takes to come up.
    lag_min: f64,
    /// The fewest replicas that always run.
    min_replicas: u64,
}

#[derive(Serialize)]
struct JsonLimit {
    statistic: &'static str,
    max_ms: f64,
}

#[derive(Serialize)]
struct JsonResult {
    status: &'static str,
    level_kind: &'static str,
    level: Option<f64>,
    avg_batch_size: Option<f64>,
    latency_ms: Option<f64>,
    per_user_tok_s: Option<f64>,
    headroom_fraction: Option<f64>,
    throughput_tok_s: Option<f64>,
    throughput_per_gpu_tok_s: Option<f64>,
    energy_j_per_token: Option<f64>,
    power_w: Option<f64>,
    estimate: Option<JsonEstimate>,
    capacity: Option<JsonCapacity>,
    /// Under `attain`: at the recommended level.
    attainment: Option<JsonAttainment>,
    /// Under `attain`: every level's, in the sweep's order.
    attainment_by_level: Option<Vec<JsonLevelAttainment>>,
    /// With a load over time (`load`): the period's figures at the recommended level.
    #[serde(skip_serializing_if = "Option::is_none")]
    period: Option<JsonPeriod>,
}

impl JsonResult {
    /// The result of `plan` on `sweep` for `slo`: the status and the figures at the
    /// recommended level (tok/s, ms, J/token, W), the estimate between levels, the fleet at the
    /// scenario's inputs and, under `attain`, the attainment at the recommendation and at each
    /// level.
    fn of(sweep: &Sweep, plan: &Plan, slo: &Slo, scenario: &Scenario) -> JsonResult {
        let rec = plan.recommendation(sweep, slo);
        JsonResult {
            status: plan.status.key(),
            level_kind: sweep.level_kind().label(),
            level: rec.as_ref().map(|r| r.level),
            avg_batch_size: rec.as_ref().and_then(|r| r.avg_batch_size),
            latency_ms: rec.as_ref().map(|r| r.latency_ms),
            per_user_tok_s: rec.as_ref().map(|r| r.user_tps),
            headroom_fraction: rec.as_ref().map(|r| r.headroom),
            throughput_tok_s: rec.as_ref().map(|r| r.throughput_tok_s),
            throughput_per_gpu_tok_s: rec.as_ref().and_then(|r| r.throughput_per_gpu_tok_s),
            energy_j_per_token: rec.as_ref().and_then(|r| r.energy_per_token_j),
            power_w: rec.as_ref().and_then(|r| r.power_w),
            estimate: estimate(sweep, slo, plan).map(|e| JsonEstimate {
                level: e.level,
                between: [e.from_level, e.to_level],
                throughput_tok_s: e.throughput_tok_s,
                energy_j_per_token: e.energy_per_token_j,
            }),
            capacity: at_recommendation(
                sweep,
                plan,
                slo,
                &scenario.capacity_for(&sweep.deployment.gpu),
            )
            .map(Into::into),
            attainment: recommended_attainment(plan)
                .zip(rec.as_ref())
                .map(|(a, r)| JsonAttainment::of(&a, r.throughput_tok_s)),
            attainment_by_level: slo.attain.map(|_| {
                sweep
                    .levels()
                    .iter()
                    .zip(&plan.verdicts)
                    .map(|(l, v)| JsonLevelAttainment {
                        level: l.level,
                        meets: v.meets,
                        attainment: v
                            .attainment
                            .map(|a| JsonAttainment::of(&a, l.throughput_tok_s)),
                    })
                    .collect()
            }),
            period: scenario.load.as_ref().zip(rec.as_ref()).map(|(load, r)| {
                let inputs = scenario.capacity_for(&sweep.deployment.gpu);
                period(
                    r,
                    sweep.deployment.num_gpus,
                    load,
                    scenario.scaling,
                    &inputs,
                )
                .into()
            }),
        }
    }
}

#[derive(Serialize)]
struct JsonAttainment {
    percent: Option<f64>,
    good_requests: u64,
    issued_requests: u64,
    /// Why the others missed (a request can miss on several): completed requests over the
    /// target, over a TTFT limit, over an end-to-end limit, and requests that did not complete.
    tpot_misses: u64,
    ttft_misses: u64,
    e2e_misses: u64,
    failed_requests: u64,
    goodput_req_s: Option<f64>,
    goodput_output_tok_s: Option<f64>,
}

impl JsonAttainment {
    fn of(a: &Attainment, throughput_tok_s: f64) -> JsonAttainment {
        JsonAttainment {
            percent: a.share().map(|s| s * 100.0),
            good_requests: a.good,
            issued_requests: a.issued,
            tpot_misses: a.tpot_misses,
            ttft_misses: a.ttft_misses,
            e2e_misses: a.e2e_misses,
            failed_requests: a.issued.saturating_sub(a.completed),
            goodput_req_s: a.goodput_req_s(throughput_tok_s),
            goodput_output_tok_s: a.goodput_tok_s(throughput_tok_s),
        }
    }
}

#[derive(Serialize)]
struct JsonLevelAttainment {
    level: f64,
    meets: bool,
    /// `null` where the level has no per-request records.
    attainment: Option<JsonAttainment>,
}

#[derive(Serialize)]
struct JsonEstimate {
    level: u64,
    between: [f64; 2],
    throughput_tok_s: f64,
    energy_j_per_token: Option<f64>,
}

#[derive(Serialize)]
struct JsonCapacity {
    streams_per_replica: Option<f64>,
    replicas: Option<u64>,
    gpus: Option<u64>,
    fleet_throughput_tok_s: Option<f64>,
    fleet_power_kw: Option<f64>,
    gpu_cost_usd_per_mtok: Option<f64>,
    kwh_per_mtok: Option<f64>,
    electricity_usd_per_mtok: Option<f64>,
    co2_kg_per_mtok: Option<f64>,
    energy_per_request_j: Option<f64>,
    wh_per_1000_requests: Option<f64>,
    demand_tok_s: Option<f64>,
    implied_streams: Option<f64>,
    utilisation_fraction: Option<f64>,
    fleet_gpu_cost_usd_per_hour: Option<f64>,
    gpu_cost_usd_per_mtok_at_load: Option<f64>,
    fleet_electricity_usd_per_hour: Option<f64>,
    fleet_total_usd_per_hour: Option<f64>,
    total_usd_per_mtok: Option<f64>,
    totals_leave_out: Option<&'static str>,
}

impl From<Capacity> for JsonCapacity {
    fn from(c: Capacity) -> JsonCapacity {
        JsonCapacity {
            streams_per_replica: c.streams_per_replica,
            replicas: c.replicas,
            gpus: c.gpus,
            fleet_throughput_tok_s: c.fleet_throughput_tok_s,
            fleet_power_kw: c.fleet_power_kw,
            gpu_cost_usd_per_mtok: c.cost_per_mtok,
            kwh_per_mtok: c.kwh_per_mtok,
            electricity_usd_per_mtok: c.elec_cost_per_mtok,
            co2_kg_per_mtok: c.co2_kg_per_mtok,
            energy_per_request_j: c.energy_per_request_j,
            wh_per_1000_requests: c.wh_per_1000_requests,
            demand_tok_s: c.demand_tok_s,
            implied_streams: c.implied_streams,
            utilisation_fraction: c.utilisation,
            fleet_gpu_cost_usd_per_hour: c.fleet_gpu_cost_per_hour,
            gpu_cost_usd_per_mtok_at_load: c.load_cost_per_mtok,
            fleet_electricity_usd_per_hour: c.fleet_elec_cost_per_hour,
            fleet_total_usd_per_hour: c.fleet_cost_per_hour,
            total_usd_per_mtok: c.total_cost_per_mtok,
            totals_leave_out: c.total_lacks,
        }
    }
}

/// The scenario and its results as pretty JSON (absent values are `null`).
/// Errors: [`ExportError::NoSuchDeployment`], or [`ExportError::Writer`] with serde_json's reason
/// (serialising these types does not fail in practice).
pub fn scenario_json(
    source: &Source,
    scenario: &Scenario,
    sweep_index: usize,
    plan: &Plan,
    scenario_url: &str,
) -> Result<String, ExportError> {
    let slo = scenario.slo();
    let sweep = source
        .sweeps
        .get(sweep_index)
        .ok_or(ExportError::NoSuchDeployment)?;
    let (target_unit, target_value) = match scenario.target {
        Target::TokensPerSecond(v) => ("tok/s per user", v),
        Target::MsPerToken(v) => ("ms per token", v),
    };
    let export = JsonExport {
        scenario_url,
        source: JsonSource {
            name: &source.provenance.publisher,
            task: &source.task,
            task_display_name: &source.task_display_name,
        },
        scenario: JsonScenario {
            model_id: &scenario.model_id,
            deployment: source.sweep_label(sweep_index),
            cfg: scenario.cfg.as_deref(),
            gpu: &scenario.gpu,
            num_gpus: scenario.num_gpus,
            target_unit,
            target_value,
            statistic: scenario.stat.key(),
            limits: scenario
                .limits
                .iter()
                .map(|l| JsonLimit {
                    statistic: l.stat.key(),
                    max_ms: l.max_ms,
                })
                .collect(),
            attain_percent: scenario.attain,
            users: scenario.capacity.users,
            requests_per_second: scenario.capacity.rps,
            price_usd_per_gpu_hour: scenario.capacity.price_per_gpu_hour,
            price_usd_per_gpu_hour_by_type: scenario
                .gpu_prices
                .0
                .iter()
                .map(|(g, p)| (g.as_str(), *p))
                .collect(),
            price_usd_per_kwh: scenario.capacity.price_per_kwh,
            co2_g_per_kwh: scenario.capacity.co2_g_per_kwh,
            pue: scenario.capacity.pue_or_default(),
            load: scenario.load.as_ref().map(load_text),
            lag_min: scenario.scaling.lag_min,
            min_replicas: scenario.scaling.min_replicas,
        },
        result: JsonResult::of(sweep, plan, &slo, scenario),
    };
    serde_json::to_string_pretty(&export).map_err(|e| ExportError::Writer(e.to_string()))
}

/// Writes the file an [`ExportRequest`] asks for (run in the tools module): the scenario read
/// back from its query, planned again on the same source.
///
/// Errors: a deployment index that is not in the source, chart markup that is not an SVG
/// element, or the writers' reasons ([`ExportError`]).
pub fn export(request: &ExportRequest) -> Result<String, ExportError> {
    let source = &request.source;
    let (scenario, _) = Scenario::from_query(&request.query, source);
    match request.kind {
        ExportKind::ScenarioJson { sweep_index } => {
            let sweep = source
                .sweeps
                .get(sweep_index)
                .ok_or(ExportError::NoSuchDeployment)?;
            let plan = plan(sweep, &scenario.slo());
            scenario_json(source, &scenario, sweep_index, &plan, &request.url)
        }
        ExportKind::CompareCsv { all_models, sort } => {
            let (rows, _) = table_rows(
                source,
                (&scenario.slo(), &scenario.model_id),
                scenario.pricing(),
                (all_models, sort),
            );
            compare_csv(source, &rows, &scenario, &request.url)
        }
        ExportKind::ChartSvg {
            ref markup,
            size,
            ref series,
        } => {
            let legend = series
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    source
                        .sweeps
                        .get(s)
                        .map(|_| (source.sweep_label(s).to_string(), series_class(i)))
                        .ok_or(ExportError::NoSuchDeployment)
                })
                .collect::<Result<Vec<_>, _>>()?;
            // What the page says beside the chart of what it leaves out, said in the file too.
            let notes: Vec<String> = source
                .model_index(&scenario.model_id)
                .map(|model| {
                    let c = charted(source, &scenario, model, scenario.sweep_index(source));
                    let (more, unpriced) = left_off_notes(source, &c);
                    more.into_iter().chain(unpriced).collect()
                })
                .unwrap_or_default();
            standalone_svg(&ChartFile {
                markup,
                size,
                title: &export_title(source, &scenario),
                legend: &legend,
                notes: &notes,
            })
            .ok_or(ExportError::NotSvg)
        }
    }
}

mod period;

#[cfg(test)]
mod tests;
