//! The side-by-side table's head: its title, download and "all models" switch, the sentence
//! saying what it holds, and its sortable columns' headers.

use std::sync::Arc;

use leptos::prelude::*;

use super::{Order, Ordered, SHOWN_ROWS};
use crate::core::model::source::Source;
use crate::core::plan::compare::Column;
use crate::core::scenario::routing::Widening;
use crate::core::scenario::Scenario;
use crate::core::wire::handoff::ExportKind;
use crate::tools_client;
use crate::ui::download::download;
use crate::ui::registry::Registry;

/// A column's header.
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

/// The table's title, its download, the "all models" switch (`shown`: rows drawn, back to the
/// first page on a switch) and the sentence saying what the table holds.
pub(super) fn section_head(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    Ordered { all_models, sort }: Ordered,
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
        scenario.with_untracked(|s| download(Arc::clone(&source), s, kind, export_status));
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
pub(super) fn sort_header(
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
