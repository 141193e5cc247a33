//! Deployments side by side for the current SLO: draws `core::plan::compare` rows; sorting and "best"
//! come from the core.

use std::sync::Arc;

use leptos::prelude::*;

use super::data_value;
use super::download::{download, DEPLOYMENTS_CSV};
use super::registry::Registry;
use crate::core::model::format::{grouped, money, significant};
use crate::core::model::source::Source;
use crate::core::plan::capacity::{at_recommendation, CapacityInputs};
use crate::core::plan::compare::{best, cheapest, table_rows, why_none, Column, CompareRow};
use crate::core::plan::planner::Slo;
use crate::core::scenario::routing::Widening;
use crate::core::scenario::Scenario;
use crate::core::wire::handoff::ExportKind;
use crate::tools_client;

fn header(column: Column) -> &'static str {
    match column {
        Column::Concurrency => "recommended level",
        Column::ThroughputPerGpu => "tok/s per GPU",
        Column::Throughput => "aggregate tok/s",
        Column::Energy => "J/token",
        Column::UserTps => "per-user tok/s",
        Column::FleetCostPerHour => "fleet $/hour",
        Column::TotalCostPerMtok => "total $/M tokens",
        Column::VsApi => "vs API",
    }
}

fn cell_text(column: Column, value: f64) -> String {
    match column {
        Column::Concurrency | Column::ThroughputPerGpu | Column::Throughput => grouped(value, 0),
        Column::Energy => significant(value, 4),
        Column::UserTps => grouped(value, 1),
        Column::FleetCostPerHour | Column::TotalCostPerMtok => money(value),
        Column::VsApi => format!("{}×", significant(value, 3)),
    }
}

/// The side-by-side table's switch and order: all models (URL `cmp=all`), and the column sorted
/// by with whether reversed (URL `sort`; `None`: the table's own order).
pub type Order = (bool, Option<(Column, bool)>);

/// Rows drawn at first, and added per "Show more" press: a model with a thousand imported
/// deployments must not build a thousand table rows on each target change.
const SHOWN_ROWS: usize = 50;

/// The rows, costed at each deployment's own price, and the cost column that ranks them when
/// prices are given, for the switch and the order.
fn costed_rows(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    (all_models, sort): (Memo<bool>, Memo<Option<(Column, bool)>>),
) -> Memo<(Vec<CompareRow>, Option<Column>)> {
    Memo::new(move |_| {
        let order = (all_models.get(), sort.get());
        scenario.with(|s| {
            table_rows(
                &source,
                &s.slo,
                &s.deployment.model_id,
                s.pricing(),
                order.0,
                order.1,
            )
        })
    })
}

/// The comparison table, with an "all models" switch and sortable columns.
#[component]
pub fn Compare(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    open_sweep: Callback<usize>,
    /// The switch and the order as the scenario holds them now (URL `cmp`, `sort`): `scenario`
    /// is the copy the evidence shows, a frame behind a change.
    compare: Memo<Order>,
    /// Keeps the switch and the order in the scenario.
    set_compare: Callback<Order>,
) -> impl IntoView {
    // The switch and the order are the scenario's: read from it, set in it.
    let all_models = Memo::new(move |_| compare.get().0);
    let sort = Memo::new(move |_| compare.get().1);
    let set_sort = move |order: Option<(Column, bool)>| {
        set_compare.run((all_models.get_untracked(), order));
    };
    let shown = RwSignal::new(SHOWN_ROWS);

    let costed = costed_rows(Arc::clone(&source), scenario, (all_models, sort));
    let cost_column = Memo::new(move |_| costed.with(|(_, cost)| *cost));

    // What the table shows, so that a change that leaves every row's figures as they were (a
    // new target with the same recommended levels) rebuilds nothing.
    let held = Arc::clone(&source);
    let lines = Memo::new(move |_| {
        costed.with(|(rows, cost)| {
            let bests: Vec<Option<f64>> = Column::ALL.iter().map(|&c| best(rows, c)).collect();
            let cheapest = cost.and_then(|c| cheapest(rows, c)).map(|r| r.sweep_index);
            scenario.with(|s| {
                let (current, slo) = (s.sweep_index(&held), s.slo.clone());
                let lines: Vec<Line> = rows
                    .iter()
                    .take(shown.get())
                    .map(|row| {
                        let gpu = &held.sweeps[row.sweep_index].deployment.gpu;
                        let mut line =
                            Line::new(&held, row, &bests, current, &slo, &s.capacity_for(gpu));
                        line.cheapest = cheapest == Some(row.sweep_index);
                        line
                    })
                    .collect();
                (
                    lines,
                    s.fleet.capacity,
                    !s.fleet.gpu_prices.0.is_empty(),
                    rows.len(),
                )
            })
        })
    });

    let fleet_columns =
        Memo::new(move |_| scenario.with(|s| (s.fleet.capacity.has_load(), s.priced())));
    let api_column = Memo::new(move |_| {
        cost_column.get().is_some() && scenario.with(|s| s.fleet.capacity.api.is_some())
    });

    let cheapest_of = Arc::clone(&source);
    view! {
        <section class="compare" aria-labelledby="compare-title">
            {section_head(Arc::clone(&source), scenario, (all_models, sort), set_compare, shown)}
            {move || costed.with(|(rows, cost)| cheapest_sentence(&cheapest_of, rows, *cost))}
            <div class="table-scroll" tabindex="0" role="region" aria-label="Deployments side by side: table">
                <table data-testid="compare-table">
                    <thead>
                        <tr>
                            <th scope="col">"deployment"</th>
                            <th scope="col">"status"</th>
                            {Column::ALL.into_iter().map(|c| sort_header(sort, set_sort, c)).collect_view()}
                            {move || fleet_columns.get().0.then(|| view! { <th scope="col" class="num">"GPUs needed"</th> })}
                            {move || fleet_columns.get().1.then(|| view! { <th scope="col" class="num">"GPU $/M tokens"</th> })}
                            {move || cost_column.get().map(|_| Column::COSTS.into_iter().map(|c| sort_header(sort, set_sort, c)).collect_view())}
                            {move || api_column.get().then(|| Column::API.into_iter().map(|c| sort_header(sort, set_sort, c)).collect_view())}
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let (lines, inputs, priced, _) = lines.get();
                            let costed = (cost_column.get().is_some(), api_column.get());
                            lines
                                .into_iter()
                                .map(|line| compare_row(&source, line, &inputs, priced, costed, open_sweep))
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
            {move || {
                let (lines, _, _, total) = lines.get();
                (total > lines.len()).then(|| show_more(shown, lines.len(), total))
            }}
        </section>
    }
}

/// The table's title, its download, the "all models" switch (`shown`: rows drawn, back to the
/// first page on a switch) and the sentence saying what the table holds.
fn section_head(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    (all_models, sort): (Memo<bool>, Memo<Option<(Column, bool)>>),
    set_compare: Callback<Order>,
    shown: RwSignal<usize>,
) -> impl IntoView {
    let registry = use_context::<Registry>();
    let switch = NodeRef::<leptos::html::Input>::new();
    // Every model was asked for, and the whole could not be read: the switch is off again.
    Effect::new(move |_| {
        let failed = registry.is_some_and(|r| r.whole.with(|w| w.failed_at("compare-all-models")));
        if let (true, Some(switch)) = (failed, switch.get()) {
            switch.set_checked(false);
        }
    });
    let partial = source.whole.is_some();
    let export_status = RwSignal::new(String::new());
    let download_csv = move |_| {
        let kind = ExportKind::CompareCsv {
            all_models: all_models.get_untracked(),
            sort: sort.get_untracked(),
        };
        scenario.with_untracked(|s| {
            download(Arc::clone(&source), s, kind, DEPLOYMENTS_CSV, export_status)
        });
    };
    view! {
        <div class="section-head">
            <h2 id="compare-title">"Deployments side by side"</h2>
            <button type="button" data-testid="export-csv" on:click=download_csv>
                "Download CSV"
            </button>
            <span class="hint" role="status">{move || export_status.get()}</span>
            <label class="switch">
                <input
                    type="checkbox"
                    id="compare-all-models"
                    data-testid="compare-all-models"
                    node_ref=switch
                    prop:checked=move || all_models.get()
                    on:focus=move |_| if partial { tools_client::start() }
                    on:change=move |ev| {
                        let all = event_target_checked(&ev);
                        // On the bundled part, every model is shown once the whole is read.
                        if let Some(registry) = registry.filter(|_| all && partial) {
                            registry.widen(Widening::AllModels, "compare-all-models");
                            return;
                        }
                        shown.set(SHOWN_ROWS);
                        set_compare.run((all, None));
                    }
                />
                "All models (only those that meet)"
            </label>
            {move || registry.and_then(|r| r.whole.with(|w| w.status_at("compare-all-models"))).map(|text| view! {
                <span class="hint" role="status" data-testid="whole-status">{text}</span>
            })}
        </div>
        <p class="hint">{move || scope_hint(all_models.get(), sort.get().is_some())}</p>
    }
}

/// What the table holds: this model's deployments, or every model's that meet (`sorted`: by a
/// column the reader chose).
fn scope_hint(all_models: bool, sorted: bool) -> &'static str {
    match (all_models, sorted) {
        (true, true) => "Every deployment of every model that meets the target, sorted by the marked column. Select a row to open it.",
        (true, false) => "Every deployment of every model that meets the target, best tok/s per GPU first. Select a row to open it.",
        (false, _) => "Every deployment of this model and its precision variants at the same target. Select a row to open it. ★ marks the best value in each column.",
    }
}

/// A sortable column's header: pressing it sorts best first, pressing again reverses.
fn sort_header(
    sort: Memo<Option<(Column, bool)>>,
    set_sort: impl Fn(Option<(Column, bool)>) + Copy + 'static,
    column: Column,
) -> impl IntoView {
    let state = move || match sort.get() {
        Some((c, false)) if c == column => "descending",
        Some((c, true)) if c == column => "ascending",
        _ => "none",
    };
    let aria = move || {
        // "Best first" is descending for higher-is-better columns, ascending for J/token.
        let s = state();
        match (s, column.higher_is_better()) {
            ("none", _) => "none",
            ("descending", true) | ("ascending", false) => "descending",
            _ => "ascending",
        }
    };
    view! {
        <th scope="col" class="num" aria-sort=aria>
            <button
                type="button"
                class="sort"
                data-testid="compare-sort"
                data-column=header(column)
                on:click=move |_| {
                    set_sort(match sort.get_untracked() {
                        Some((c, false)) if c == column => Some((column, true)),
                        _ => Some((column, false)),
                    })
                }
            >
                {header(column)}
                <span aria-hidden="true">
                    {move || match aria() {
                        "descending" => " ▼",
                        "ascending" => " ▲",
                        _ => "",
                    }}
                </span>
            </button>
        </th>
    }
}

/// "Showing 50 of 120 deployments" and the button that adds [`SHOWN_ROWS`] more.
fn show_more(shown: RwSignal<usize>, showing: usize, total: usize) -> impl IntoView {
    view! {
        <p class="pager" data-testid="compare-more">
            <span role="status">
                {format!(
                    "Showing {} of {} deployments (sort a column to bring others up).",
                    grouped(showing as f64, 0),
                    grouped(total as f64, 0)
                )}
            </span>
            <button
                type="button"
                data-testid="compare-show-more"
                on:click=move |_| shown.update(|n| *n += SHOWN_ROWS)
            >
                {format!("Show {} more", grouped(SHOWN_ROWS.min(total - showing) as f64, 0))}
            </button>
        </p>
    }
}

/// "Cheapest that meets the SLO: Llama 3.1 8B on 1 x H100, $5.12 per hour." (or per million
/// output tokens without a load), above the table; nothing when no priced deployment meets.
fn cheapest_sentence(
    source: &Source,
    rows: &[CompareRow],
    column: Option<Column>,
) -> Option<impl IntoView> {
    let column = column?;
    let row = cheapest(rows, column)?;
    let value = column.value(row)?;
    let sweep = &source.sweeps[row.sweep_index];
    let unit = if column == Column::FleetCostPerHour {
        "per hour"
    } else {
        "per million output tokens"
    };
    Some(view! {
        <p
            class="notice"
            data-testid="cheapest"
            data-model=source.models[sweep.model_index].model_id.clone()
            data-gpu=sweep.deployment.gpu.clone()
            data-gpus=super::attr(sweep.deployment.num_gpus)
            data-value=data_value(value)
        >
            {format!(
                "Cheapest that meets the SLO: {} on {}, {} {unit}.",
                source.models[sweep.model_index].nickname,
                source.sweep_label(row.sweep_index),
                money(value),
            )}
        </p>
    })
}

/// One row of the table as shown.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    sweep_index: usize,
    current: bool,
    status: &'static str,
    /// Per [`Column::ALL`]: the value and whether it is the column's best, or the text shown
    /// instead.
    cells: Vec<Result<(f64, bool), String>>,
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
                Some(v) if column == Column::Concurrency || rec.is_some() => {
                    Ok((v, *best == Some(v)))
                }
                _ if column == Column::Concurrency => Err(why_none(row)),
                _ => Err("—".into()),
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

/// One deployment's row; `priced`: prices are given per GPU type (a row without one says so);
/// `costed`: the cost columns are shown, and the column against an API.
fn compare_row(
    source: &Source,
    line: Line,
    inputs: &CapacityInputs,
    priced: bool,
    (costed, against_api): (bool, bool),
    open_sweep: Callback<usize>,
) -> impl IntoView {
    let sweep = &source.sweeps[line.sweep_index];
    let dash = || "—".to_string();
    let fleet_cells = view! {
        {inputs.has_load().then(|| view! {
            <td class="num">{line.gpus_needed.map_or_else(dash, |g| grouped(g as f64, 0))}</td>
        })}
        {(inputs.price_per_gpu_hour.is_some() || priced).then(|| view! {
            <td class="num">{line.cost.map_or_else(|| if line.priced { dash() } else { "no price given".to_string() }, |c| format!("${}", significant(c, 3)))}</td>
        })}
    };
    let model = &source.models[sweep.model_index];
    let cells = Column::ALL
        .iter()
        .zip(line.cells)
        .map(|(&column, cell)| match cell {
            Ok((v, is_best)) => view! {
                <td class=if is_best { "num best" } else { "num" }>
                    {cell_text(column, v)}
                    {is_best.then(|| view! { <span class="star" title="best in this column">" ★"</span> })}
                </td>
            }
            .into_any(),
            Err(text) => view! { <td class="num muted">{text}</td> }.into_any(),
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
            data-gpus=super::attr(sweep.deployment.num_gpus)
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
            {costed.then(|| view! {
                <td class="num">{line.fleet_cost_per_hour.map_or_else(dash, money)}</td>
                <td class="num">{line.total_cost_per_mtok.map_or_else(dash, money)}</td>
            })}
            {against_api.then(|| view! {
                <td class="num">{line.vs_api.map_or_else(dash, |v| cell_text(Column::VsApi, v))}</td>
            })}
        </tr>
    }
}
