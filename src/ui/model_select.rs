//! The model menu, and what the chosen model is.

use leptos::prelude::*;

use crate::core::explain::statistic_moved;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// The model menu (organisation, then size); choosing a model keeps the GPU type and count where
/// it has them, and says so in `stat_changed` when the statistic had to change.
#[component]
pub fn ModelSelect(
    source: &'static Source,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    stat_changed: RwSignal<Option<String>>,
) -> impl IntoView {
    let models = source.models_in_menu_order();
    // The options are static (one closure each would be a thousand on a large import); the
    // select follows the scenario through its value.
    view! {
        <div class="field">
            <label for="model">"Model"</label>
            <select
                id="model"
                data-testid="model-select"
                prop:value=move || {
                    model_index
                        .get()
                        .map(|i| source.models[i].model_id.clone())
                        .unwrap_or_default()
                }
                on:change=move |ev| {
                    let id = event_target_value(&ev);
                    let before = scenario.with_untracked(|s| s.stat);
                    scenario.update(|s| *s = s.with_model(source, &id));
                    stat_changed.set(statistic_moved(before, scenario.with_untracked(|s| s.stat)));
                }
            >
                {models
                    .into_iter()
                    .map(|i| {
                        let m = &source.models[i];
                        view! {
                            <option
                                value=m.model_id.clone()
                                selected=model_index.get_untracked() == Some(i)
                            >
                                {m.nickname.clone()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <p class="hint" data-testid="model-info">
                {move || {
                    model_index
                        .get()
                        .map(|i| {
                            let m = &source.models[i];
                            format!("{} · {}", m.model_id, m.size_label())
                        })
                }}
            </p>
        </div>

    }
}
