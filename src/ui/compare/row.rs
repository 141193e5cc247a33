//! A row of the side-by-side table: what it shows of a deployment, kept so that a change that
//! leaves its figures as they were rebuilds nothing, and how it is drawn.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::format::{grouped, money, significant};
use crate::core::model::source::Source;
use crate::core::plan::capacity::{at_recommendation, CapacityInputs};
use crate::core::plan::compare::{best, cheapest, why_none, Column, CompareRow};
use crate::core::plan::planner::Slo;
use crate::core::scenario::Scenario;
use crate::ui::{attr, data_value};

/// A value of `column` as its cell shows it.
fn cell_text(column: Column, value: f64) -> String {
    match column {
        Column::Concurrency | Column::ThroughputPerGpu | Column::Throughput => grouped(value, 0),
        Column::Energy => significant(value, 4),
        Column::UserTps => grouped(value, 1),
        Column::FleetCostPerHour | Column::TotalCostPerMtok => money(value),
        Column::VsApi => format!("{}×", significant(value, 3)),
    }
}

/// The rows of the table drawn, and what their optional columns need.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Lines {
    /// The first rows, as many as are shown.
    pub(super) lines: Vec<Line>,
    /// The fleet's inputs: its load gives the column of GPUs needed.
    pub(super) inputs: CapacityInputs,
    /// Prices are given per GPU type.
    pub(super) priced: bool,
    /// How many rows there are.
    pub(super) total: usize,
}

/// What the table shows of `costed`'s rows (the first `shown`), so that a change that leaves
/// every row's figures as they were (a new target with the same recommended levels) rebuilds
/// nothing.
pub(super) fn lines(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    costed: Memo<(Vec<CompareRow>, Option<Column>)>,
    shown: RwSignal<usize>,
) -> Memo<Lines> {
    Memo::new(move |_| {
        costed.with(|(rows, cost)| {
            let bests: Vec<Option<f64>> = Column::ALL.iter().map(|&c| best(rows, c)).collect();
            let cheapest = cost.and_then(|c| cheapest(rows, c)).map(|r| r.sweep_index);
            scenario.with(|s| {
                let (current, slo) = (s.sweep_index(&source), s.slo.clone());
                let lines = rows
                    .iter()
                    .take(shown.get())
                    .map(|row| {
                        let gpu = &source.sweeps[row.sweep_index].deployment.gpu;
                        let mut line =
                            Line::new(&source, row, &bests, current, &slo, &s.capacity_for(gpu));
                        line.cheapest = cheapest == Some(row.sweep_index);
                        line
                    })
                    .collect();
                Lines {
                    lines,
                    inputs: s.fleet.capacity,
                    priced: !s.fleet.gpu_prices.0.is_empty(),
                    total: rows.len(),
                }
            })
        })
    })
}

/// One row of the table as shown.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Line {
    sweep_index: usize,
    current: bool,
    status: &'static str,
    /// Per [`Column::ALL`].
    cells: Vec<Cell>,
    level: Option<f64>,
    throughput_per_gpu: Option<f64>,
    energy: Option<f64>,
    gpus_needed: Option<u64>,
    cost: Option<f64>,
    /// A price per GPU-hour is given for this deployment's GPU type.
    priced: bool,
    fleet_cost_per_hour: Option<f64>,
    total_cost_per_mtok: Option<f64>,
    /// $ per request ÷ the API's, with an API's price.
    vs_api: Option<f64>,
    /// The cheapest deployment that meets the SLO.
    cheapest: bool,
}

/// A cell of a [`Column::ALL`] column as shown.
#[derive(Clone, Debug, PartialEq)]
enum Cell {
    /// The column's value, and whether it is the column's best.
    Value {
        /// The value, in the column's unit.
        value: f64,
        /// The column's best.
        best: bool,
    },
    /// The level's column of a deployment with no recommended level: why none
    /// (`plan::compare::why_none`).
    WhyNone(String),
    /// A figure of a deployment with no recommended level.
    Dash,
}

impl Line {
    fn new(
        source: &Source,
        row: &CompareRow,
        bests: &[Option<f64>],
        current: Option<usize>,
        slo: &Slo,
        inputs: &CapacityInputs,
    ) -> Line {
        let sweep = &source.sweeps[row.sweep_index];
        let cap = at_recommendation(sweep, &row.plan, slo, inputs);
        let rec = row.recommendation.as_ref();
        let cells = Column::ALL
            .iter()
            .zip(bests)
            .map(|(&column, best)| match column.value(row) {
                Some(value) if column == Column::Concurrency || rec.is_some() => Cell::Value {
                    value,
                    best: *best == Some(value),
                },
                _ if column == Column::Concurrency => Cell::WhyNone(why_none(row)),
                _ => Cell::Dash,
            })
            .collect();
        Line {
            sweep_index: row.sweep_index,
            current: current == Some(row.sweep_index),
            status: row.plan.status.key(),
            cells,
            level: rec.map(|r| r.level),
            throughput_per_gpu: rec.and_then(|r| r.throughput_per_gpu_tok_s),
            energy: rec.and_then(|r| r.energy_per_token_j),
            gpus_needed: cap.as_ref().and_then(|c| c.gpus),
            cost: cap.as_ref().and_then(|c| c.cost_per_mtok),
            priced: inputs.price_per_gpu_hour.is_some(),
            fleet_cost_per_hour: row.costs.fleet_cost_per_hour,
            total_cost_per_mtok: row.costs.total_cost_per_mtok,
            vs_api: row.costs.vs_api,
            cheapest: false,
        }
    }
}

/// Which of the table's optional columns a row fills, beside those its fleet's inputs give.
#[derive(Clone, Copy)]
pub(super) struct Optional {
    /// Prices are given per GPU type (a row without one says so).
    pub(super) priced: bool,
    /// The cost columns are shown.
    pub(super) costs: bool,
    /// The column against an API is shown.
    pub(super) against_api: bool,
}

/// One deployment's row, with the optional columns `shown`.
pub(super) fn compare_row(
    source: &Source,
    line: Line,
    inputs: &CapacityInputs,
    shown: Optional,
    open_sweep: Callback<usize>,
) -> impl IntoView {
    let sweep = &source.sweeps[line.sweep_index];
    let dash = || "—".to_string();
    let fleet_cells = view! {
        {inputs.has_load().then(|| view! {
            <td class="num">{line.gpus_needed.map_or_else(dash, |g| grouped(g as f64, 0))}</td>
        })}
        {(inputs.price_per_gpu_hour.is_some() || shown.priced).then(|| view! {
            <td class="num">{line.cost.map_or_else(|| if line.priced { dash() } else { "no price given".to_string() }, |c| format!("${}", significant(c, 3)))}</td>
        })}
    };
    let model = &source.models[sweep.model_index];
    let cells = Column::ALL
        .iter()
        .zip(line.cells)
        .map(|(&column, cell)| match cell {
            Cell::Value { value, best } => view! {
                <td class=if best { "num best" } else { "num" }>
                    {cell_text(column, value)}
                    {best.then(|| view! { <span class="star" title="best in this column">" ★"</span> })}
                </td>
            }
            .into_any(),
            Cell::WhyNone(text) => view! { <td class="num muted">{text}</td> }.into_any(),
            Cell::Dash => view! { <td class="num muted">"—"</td> }.into_any(),
        })
        .collect_view();
    let sweep_index = line.sweep_index;
    let open = move || open_sweep.run(sweep_index);
    view! {
        <tr
            class=if line.current { "current" } else { "" }
            data-testid="compare-row"
            data-model=model.model_id.clone()
            data-gpu=sweep.deployment.gpu.clone()
            data-gpus=attr(sweep.deployment.num_gpus)
            data-status=line.status
            data-concurrency=line.level.map(data_value).unwrap_or_default()
            data-throughput-per-gpu=line.throughput_per_gpu.map(data_value).unwrap_or_default()
            data-energy=line.energy.map(data_value).unwrap_or_default()
            data-gpus-needed=line.gpus_needed.map(|g| g.to_string()).unwrap_or_default()
            data-cost-per-mtok=line.cost.map(data_value).unwrap_or_default()
            data-fleet-cost-per-hour=line.fleet_cost_per_hour.map(data_value).unwrap_or_default()
            data-total-cost-per-mtok=line.total_cost_per_mtok.map(data_value).unwrap_or_default()
            data-vs-api=line.vs_api.map(data_value).unwrap_or_default()
            data-cheapest=line.cheapest.then_some("true")
        >
            <th scope="row">
                <button type="button" class="link" on:click=move |_| open()>
                    {format!("{} · {}", model.nickname, source.sweep_label(sweep_index))}
                </button>
            </th>
            <td>{line.status}</td>
            {cells}
            {fleet_cells}
            {shown.costs.then(|| view! {
                <td class="num">{line.fleet_cost_per_hour.map_or_else(dash, money)}</td>
                <td class="num">{line.total_cost_per_mtok.map_or_else(dash, money)}</td>
            })}
            {shown.against_api.then(|| view! {
                <td class="num">{line.vs_api.map_or_else(dash, |v| cell_text(Column::VsApi, v))}</td>
            })}
        </tr>
    }
}
