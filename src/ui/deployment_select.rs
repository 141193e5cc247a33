//! The deployment menu: the chosen model's sweeps, labelled by what tells them apart.

use leptos::prelude::*;

use crate::core::explain::statistic_moved;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// The deployment menu (options carry `data-cfg`); choosing one says in `stat_changed` when the
/// statistic had to change.
#[component]
pub fn DeploymentSelect(
    source: &'static Source,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    sweep_index: Memo<Option<usize>>,
    stat_changed: RwSignal<Option<String>>,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for="deployment">"Deployment"</label>
            <select
                id="deployment"
                data-testid="deployment-select"
                prop:value=move || sweep_index.get().map(|i| i.to_string()).unwrap_or_default()
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                        let before = scenario.with_untracked(|s| s.stat);
                        scenario.update(|s| *s = s.with_sweep(source, i));
                        stat_changed.set(statistic_moved(before, scenario.with_untracked(|s| s.stat)));
                    }
                }
            >
                {move || {
                    model_index
                        .get()
                        .map(|m| source.sweeps_of(m))
                        .unwrap_or_default()
                        .into_iter()
                        .map(|i| {
                            view! {
                                <option
                                    value=i.to_string()
                                    data-cfg=source.sweep_cfg(i).unwrap_or_default()
                                    selected=sweep_index.get_untracked() == Some(i)
                                >
                                    {source.sweep_label(i)}
                                </option>
                            }
                        })
                        .collect_view()
                }}
            </select>
        </div>

    }
}
