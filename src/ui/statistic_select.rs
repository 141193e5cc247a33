//! The statistic the target is judged on: the ones the deployment reports, and a note when a
//! change of deployment moved it.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::sweep::Statistic;

use super::message::message;
use crate::core::model::source::Source;
use crate::core::scenario::Scenario;
use crate::core::text::explain::{statistic_option, STAT_UNDER_ATTAIN};

/// The "Judged on" menu: the per-token statistics of `statistics` (the sweep's), each saying
/// where its per-user speed is implausible, and the chosen one marked when the deployment does
/// not report it; under `attain`, a note that it judges only the levels without per-request
/// records.
#[component]
pub fn StatisticSelect(
    source: Arc<Source>,
    sweep_index: Memo<Option<usize>>,
    scenario: RwSignal<Scenario>,
    statistics: Memo<Vec<Statistic>>,
    stat: Memo<Statistic>,
    stat_changed: RwSignal<Option<String>>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for="stat">"Judged on"</label>
            {move || stat_changed.get().map(|note| view! {
                <p class="hint" role="status" data-testid="stat-changed">{note}</p>
            })}
            {move || scenario.with(|s| s.slo.attain.is_some()).then(|| view! {
                <p class="hint" id="stat-under-attain" data-testid="stat-under-attain">{message(STAT_UNDER_ATTAIN)}</p>
            })}
            <select
                id="stat"
                data-testid="stat-select"
                aria-describedby=move || scenario.with(|s| s.slo.attain.is_some()).then_some("stat-under-attain")
                on:change=move |ev| {
                    if let Some(stat) = Statistic::from_key(&event_target_value(&ev)) {
                        stat_changed.set(None);
                        scenario.update(|s| s.slo.stat = stat);
                    }
                }
            >
                {move || {
                    let current = stat.get();
                    let sweep = sweep_index.get().and_then(|i| source.sweeps.get(i));
                    let stats: Vec<Statistic> = statistics
                        .get()
                        .into_iter()
                        .filter(|s| s.is_per_token())
                        .collect();
                    // A link may name a statistic this deployment does not report: it is
                    // shown as chosen but not offered (the answer says what the sweep has).
                    let unreported = (!stats.contains(&current)).then(|| view! {
                        <option value=current.key() disabled=true prop:selected=true>
                            {format!("{} (not reported by this deployment)", current.label())}
                        </option>
                    });
                    let offered = stats
                        .into_iter()
                        .map(|option| {
                            view! {
                                <option
                                    value=option.key()
                                    prop:selected=move || stat.get() == option
                                >
                                    {sweep.map_or_else(|| option.label().to_string(), |s| statistic_option(s, option))}
                                </option>
                            }
                        })
                        .collect_view();
                    view! { {unreported} {offered} }
                }}
            </select>
        </div>

    }
}
