//! Deployments side by side for the current SLO: draws `core::plan::compare` rows; sorting and "best"
//! come from the core.

use std::sync::Arc;

use leptos::prelude::*;

use super::data_value;
use crate::core::model::format::{grouped, money};
use crate::core::model::source::Source;
use crate::core::plan::compare::{cheapest, table_rows, Column, CompareRow};
use crate::core::scenario::Scenario;
use head::{section_head, sort_header};
use row::{compare_row, Lines, Optional};

mod head;
mod row;

/// The side-by-side table's switch and order: all models (URL `cmp=all`), and the column sorted
/// by with whether reversed (URL `sort`; `None`: the table's own order).
pub type Order = (bool, Option<(Column, bool)>);

/// Rows drawn at first, and added per "Show more" press: a model with a thousand imported
/// deployments must not build a thousand table rows on each target change.
const SHOWN_ROWS: usize = 50;

/// The side-by-side table's switch and order as the page reads them ([`Order`]'s two parts).
#[derive(Clone, Copy)]
struct Ordered {
    /// All models (URL `cmp=all`).
    all_models: Memo<bool>,
    /// The column sorted by and whether reversed (URL `sort`).
    sort: Memo<Option<(Column, bool)>>,
}

/// The rows, costed at each deployment's own price, and the cost column that ranks them when
/// prices are given, for the switch and the order.
fn costed_rows(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    ordered: Ordered,
) -> Memo<(Vec<CompareRow>, Option<Column>)> {
    Memo::new(move |_| {
        let order = (ordered.all_models.get(), ordered.sort.get());
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

    let ordered = Ordered { all_models, sort };
    let costed = costed_rows(Arc::clone(&source), scenario, ordered);
    let cost_column = Memo::new(move |_| costed.with(|(_, cost)| *cost));

    let lines = row::lines(Arc::clone(&source), scenario, costed, shown);

    let fleet_columns =
        Memo::new(move |_| scenario.with(|s| (s.fleet.capacity.has_load(), s.priced())));
    let api_column = Memo::new(move |_| {
        cost_column.get().is_some() && scenario.with(|s| s.fleet.capacity.api.is_some())
    });

    let cheapest_of = Arc::clone(&source);
    view! {
        <section class="compare" aria-labelledby="compare-title">
            {section_head(Arc::clone(&source), scenario, ordered, set_compare, shown)}
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
                            let Lines { lines, inputs, priced, .. } = lines.get();
                            let shown = Optional {
                                priced,
                                costs: cost_column.get().is_some(),
                                against_api: api_column.get(),
                            };
                            lines
                                .into_iter()
                                .map(|line| compare_row(&source, line, &inputs, shown, open_sweep))
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
            {move || {
                let Lines { lines, total, .. } = lines.get();
                (total > lines.len()).then(|| show_more(shown, lines.len(), total))
            }}
        </section>
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
