//! The deployment menu: the chosen model's sweeps, labelled by what tells them apart. A model
//! with many sweeps (`campaigns::GROUP_ABOVE`) lists each configuration once, its newest
//! campaign, grouped by GPU type and count; the campaign menu beside it holds the older ones.

use std::sync::Arc;

use leptos::prelude::*;

use crate::core::model::campaigns::{campaigns_of, is_grouped, menu_entries};
use crate::core::model::source::Source;
use crate::core::scenario::Scenario;
use crate::core::text::scenario_text::statistic_moved;

/// The deployment menu (options carry `data-cfg`) and, for a configuration measured on several
/// dates, the campaign menu (`campaign-select`); choosing one says in `stat_changed` when the
/// statistic had to change.
#[component]
pub fn DeploymentSelect(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    sweep_index: Memo<Option<usize>>,
    stat_changed: RwSignal<Option<String>>,
) -> impl IntoView {
    // Each configuration's campaigns, newest first; one per sweep when not grouped.
    let held = Arc::clone(&source);
    let configs = Memo::new(move |_| {
        let all = model_index
            .get()
            .map(|m| held.sweeps_of(m))
            .unwrap_or_default();
        menu_entries(&held, &all)
    });
    let held = Arc::clone(&source);
    let pick = move |i: usize| {
        let before = scenario.with_untracked(|s| s.slo.stat);
        scenario.update(|s| *s = s.with_sweep(&held, i));
        stat_changed.set(statistic_moved(
            before,
            scenario.with_untracked(|s| s.slo.stat),
        ));
    };
    let on_change = move |ev| {
        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
            pick(i);
        }
    };
    let on_campaign_change = on_change.clone();
    let [menu_of, dates_of] = [(); 2].map(|()| Arc::clone(&source));
    // The menu's value: the selected sweep's configuration, shown by its newest campaign.
    let menu_value = move || {
        let selected = sweep_index.get()?;
        configs
            .with(|c| campaigns_of(c, selected).first().copied())
            .map(|i| i.to_string())
    };
    let campaigns = move || {
        let selected = sweep_index.get()?;
        let campaigns = configs.with(|c| campaigns_of(c, selected).to_vec());
        (campaigns.len() > 1).then_some((selected, campaigns))
    };
    view! {
        <div class="field">
            <label for="deployment">"Deployment"</label>
            <select
                id="deployment"
                data-testid="deployment-select"
                prop:value=move || menu_value().unwrap_or_default()
                on:change=on_change
            >
                {move || {
                    let current = sweep_index.get_untracked();
                    configs.with(|c| menu_options(&menu_of, c, current, sweep_index))
                }}
            </select>
        </div>
        {move || campaigns().map(|(selected, campaigns)| view! {
            <div class="field">
                <label for="campaign">"Campaign (date measured)"</label>
                <select
                    id="campaign"
                    data-testid="campaign-select"
                    prop:value=selected.to_string()
                    on:change=on_campaign_change.clone()
                >
                    {campaigns.into_iter().map(|i| view! {
                        <option value=i.to_string() selected=i == selected>
                            {dates_of.sweeps[i].deployment.date.clone().unwrap_or_else(|| "date not stated".to_string())}
                        </option>
                    }).collect_view()}
                </select>
            </div>
        })}
    }
}

/// One option per configuration: its newest campaign, labelled by the chosen one where it holds
/// `sweep_index`, the one holding `current` selected; grouped by GPU type and count
/// (`<optgroup>`) when the model's sweeps are grouped into configurations.
fn menu_options(
    source: &Arc<Source>,
    configs: &[Vec<usize>],
    current: Option<usize>,
    sweep_index: Memo<Option<usize>>,
) -> AnyView {
    let option = |campaigns: &Vec<usize>| {
        let i = campaigns[0];
        let selected = current.is_some_and(|c| campaigns.contains(&c));
        // The chosen campaign's label where it is one of these (so the menu never names another
        // date than the campaign menu), else the newest's.
        let campaigns = campaigns.clone();
        let cfg = source.sweep_cfg(i).unwrap_or_default();
        let source = Arc::clone(source);
        let label = move || {
            let shown = sweep_index
                .get()
                .filter(|s| campaigns.contains(s))
                .unwrap_or(i);
            match campaigns.len() {
                1 => source.sweep_label(shown).to_string(),
                n => format!("{} ({n} campaigns)", source.sweep_label(shown)),
            }
        };
        view! {
            <option value=i.to_string() data-cfg=cfg selected=selected>
                {label}
            </option>
        }
    };
    let grouped = is_grouped(configs.iter().map(Vec::len).sum());
    if !grouped {
        return configs.iter().map(option).collect_view().into_any();
    }
    let mut groups: Vec<(String, Vec<&Vec<usize>>)> = Vec::new();
    for campaigns in configs {
        let hardware = source.sweeps[campaigns[0]].deployment.hardware_label();
        match groups.last_mut() {
            Some((label, members)) if *label == hardware => members.push(campaigns),
            _ => groups.push((hardware, vec![campaigns])),
        }
    }
    groups
        .into_iter()
        .map(|(label, members)| {
            view! {
                <optgroup label=label>{members.into_iter().map(option).collect_view()}</optgroup>
            }
        })
        .collect_view()
        .into_any()
}
