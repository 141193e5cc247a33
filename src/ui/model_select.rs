//! The model menu, and what the chosen model is.

use std::sync::Arc;

use leptos::prelude::*;

use super::registry::Registry;
use crate::core::model::source::Source;
use crate::core::scenario::routing::Widening;
use crate::core::scenario::Scenario;
use crate::core::text::scenario_text::statistic_moved;
use crate::tools_client;

/// The model menu (organisation, then size); choosing a model keeps the GPU type and count where
/// it has them, and says so in `stat_changed` when the statistic had to change. On the bundled
/// data's part (`Source::whole`), a model it does not hold is shown once the whole is read (the
/// tools module is started as the menu takes the focus, so that is quick); the menu says so
/// meanwhile.
#[component]
pub fn ModelSelect(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    stat_changed: RwSignal<Option<String>>,
) -> impl IntoView {
    let models = source.models_in_menu_order();
    let registry = use_context::<Registry>();
    let partial = source.whole.is_some();
    let menu = NodeRef::<leptos::html::Select>::new();
    // A model the whole was read for, and could not be: the menu shows the model shown again.
    let held = Arc::clone(&source);
    Effect::new(move |_| {
        let failed = registry.is_some_and(|r| r.whole.with(|w| w.failed_at("model")));
        if let (true, Some(menu), Some(i)) = (failed, menu.get(), model_index.get_untracked()) {
            menu.set_value(&held.models[i].model_id);
        }
    });
    // The options are static (one closure each would be a thousand on a large import); the
    // select follows the scenario through its value.
    let options = models
        .into_iter()
        .map(|i| {
            let m = &source.models[i];
            view! {
                <option value=m.model_id.clone() selected=model_index.get_untracked() == Some(i)>
                    {m.nickname.clone()}
                </option>
            }
        })
        .collect_view();
    let [valued, changed, described] = [(); 3].map(|()| Arc::clone(&source));
    view! {
        <div class="field">
            <label for="model">"Model"</label>
            <select
                id="model"
                data-testid="model-select"
                node_ref=menu
                prop:value=move || {
                    model_index
                        .get()
                        .map(|i| valued.models[i].model_id.clone())
                        .unwrap_or_default()
                }
                on:focus=move |_| if partial { tools_client::start() }
                on:change=move |ev| {
                    let id = event_target_value(&ev);
                    let beyond = changed.model_index(&id).is_some_and(|m| !changed.holds_model(m));
                    if let Some(registry) = registry.filter(|_| beyond) {
                        registry.widen(Widening::Model(id), "model");
                        return;
                    }
                    let before = scenario.with_untracked(|s| s.slo.stat);
                    scenario.update(|s| *s = s.with_model(&changed, &id));
                    stat_changed.set(statistic_moved(before, scenario.with_untracked(|s| s.slo.stat)));
                }
            >
                {options}
            </select>
            {move || registry.and_then(|r| r.whole.with(|w| w.status_at("model"))).map(|text| view! {
                <p class="hint" role="status" data-testid="whole-status">{text}</p>
            })}
            <p class="hint" data-testid="model-info">
                {move || {
                    model_index
                        .get()
                        .map(|i| {
                            let m = &described.models[i];
                            format!("{} · {}", m.model_id, m.size_label())
                        })
                }}
            </p>
        </div>

    }
}
