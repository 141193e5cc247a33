//! The inputs: model, deployment, target (tok/s per user or ms per token), statistic, copy link.

use leptos::prelude::*;

use crate::browser;
use crate::core::format;
use crate::core::planner::Target;
use crate::core::scenario::{parse_input, parse_positive, FleetInput, Scenario, FLEET_INPUTS};
use crate::core::sweep::{Source, Statistic};

/// Text for the target field: the value as entered, `{}` formatting (`25`, `12.5`).
fn target_text(target: Target) -> String {
    target.value().to_string()
}

/// The input panel. Every change updates the one `scenario` signal.
#[component]
pub fn Controls(
    source: &'static Source,
    scenario: RwSignal<Scenario>,
    /// Whether the fleet, cost and energy inputs start unfolded.
    fleet_open: bool,
) -> impl IntoView {
    let model_index = Memo::new(move |_| scenario.with(|s| source.model_index(&s.model_id)));
    let sweep_index = Memo::new(move |_| scenario.with(|s| s.sweep_index(source)));
    // The statistics the selected sweep reports (for the statistic menu and the limits).
    let statistics = Memo::new(move |_| {
        sweep_index
            .get()
            .map(|i| source.sweeps[i].statistics())
            .unwrap_or_default()
    });
    // The menus follow these memos, not every change of the scenario (a keystroke in the target).
    let stat = Memo::new(move |_| scenario.with(|s| s.stat));
    // What "Add a limit" may propose (a limit that could never be judged with the target is not).
    let proposable = Memo::new(move |_| {
        let judged = stat.get();
        sweep_index
            .get()
            .map(|i| source.sweeps[i].statistics_for_limits(judged))
            .unwrap_or_default()
    });

    let mut models: Vec<usize> = (0..source.models.len()).collect();
    // By organisation, then size, so 8B comes before 70B.
    models.sort_by(|&a, &b| {
        let (ma, mb) = (&source.models[a], &source.models[b]);
        let org = |id: &str| {
            id.split('/')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase()
        };
        org(&ma.model_id)
            .cmp(&org(&mb.model_id))
            .then(
                ma.total_params_b
                    .partial_cmp(&mb.total_params_b)
                    .unwrap_or(std::cmp::Ordering::Equal),
            )
            .then(ma.model_id.cmp(&mb.model_id))
    });

    // Said when choosing a deployment moved the statistic to one it reports.
    let stat_changed = RwSignal::new(None::<String>);
    let note_stat_change = move |before: Statistic| {
        let after = scenario.with_untracked(|s| s.stat);
        stat_changed.set((after != before).then(|| {
            format!(
                "This deployment does not report {}: judged on {} instead.",
                before.short_label(),
                after.short_label()
            )
        }));
    };

    let text = RwSignal::new(scenario.with_untracked(|s| target_text(s.target)));
    let error = RwSignal::new(None::<String>);
    let copied = RwSignal::new(None::<bool>);
    // The last unit switch (before, after): switching straight back restores the exact value.
    let toggled = RwSignal::new(None::<(Target, Target)>);

    let on_target_input = move |ev| {
        let value = event_target_value(&ev);
        match parse_positive(&value) {
            Ok(v) => {
                error.set(None);
                scenario.update(|s| {
                    s.target = match s.target {
                        Target::TokensPerSecond(_) => Target::TokensPerSecond(v),
                        Target::MsPerToken(_) => Target::MsPerToken(v),
                    }
                });
            }
            Err(e) => error.set(Some(format!(
                "Target {e}; the last valid target is still used."
            ))),
        }
        text.set(value);
    };

    let set_unit = move |per_second: bool| {
        let current = scenario.with_untracked(|s| s.target);
        if matches!(current, Target::TokensPerSecond(_)) == per_second {
            return;
        }
        let converted = match toggled.get_untracked() {
            Some((before, after)) if after == current => before,
            _ => current.in_other_unit(),
        };
        toggled.set(Some((current, converted)));
        error.set(None);
        text.set(target_text(converted));
        scenario.update(|s| s.target = converted);
    };

    let is_tps = move || scenario.with(|s| matches!(s.target, Target::TokensPerSecond(_)));
    let other_unit = move || {
        scenario.with(|s| match s.target {
            Target::TokensPerSecond(v) => {
                format!("= {} ms per output token", format::trimmed(1000.0 / v, 4))
            }
            Target::MsPerToken(v) => {
                format!("= {} tok/s per user", format::trimmed(1000.0 / v, 4))
            }
        })
    };

    // The menus' options are static (one closure each would be a thousand on a large import);
    // the selects follow the scenario through their value.
    view! {
        <aside class="controls" aria-label="Scenario">
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
                        note_stat_change(before);
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
                            note_stat_change(before);
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

            <fieldset class="field">
                <legend>"Per-user target"</legend>
                <div class="units" role="radiogroup" aria-label="Target unit">
                    <label>
                        <input
                            type="radio"
                            name="unit"
                            data-testid="unit-tps"
                            prop:checked=is_tps
                            on:change=move |_| set_unit(true)
                        />
                        "tok/s per user"
                    </label>
                    <label>
                        <input
                            type="radio"
                            name="unit"
                            data-testid="unit-tpot"
                            prop:checked=move || !is_tps()
                            on:change=move |_| set_unit(false)
                        />
                        "ms per token"
                    </label>
                </div>
                <input
                    id="target"
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    aria-label="Target value"
                    data-testid="target-input"
                    aria-invalid=move || error.with(Option::is_some).to_string()
                    aria-describedby="target-help"
                    prop:value=move || text.get()
                    on:input=on_target_input
                />
                <p class="hint" id="target-help" data-testid="target-other-unit">
                    {other_unit}
                </p>
                {move || {
                    error
                        .get()
                        .map(|e| {
                            view! {
                                <p class="field-error" role="alert" data-testid="target-error">
                                    {e}
                                </p>
                            }
                        })
                }}
            </fieldset>

            <div class="field">
                <label for="stat">"Judged on"</label>
                {move || stat_changed.get().map(|note| view! {
                    <p class="hint" role="status" data-testid="stat-changed">{note}</p>
                })}
                <select
                    id="stat"
                    data-testid="stat-select"
                    on:change=move |ev| {
                        if let Some(stat) = Statistic::from_key(&event_target_value(&ev)) {
                            stat_changed.set(None);
                            scenario.update(|s| s.stat = stat);
                        }
                    }
                >
                    {move || {
                        let current = stat.get();
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
                                        {option.label()}
                                    </option>
                                }
                            })
                            .collect_view();
                        view! { {unreported} {offered} }
                    }}
                </select>
            </div>

            <Limits scenario=scenario statistics=statistics proposable=proposable />
            <Fleet scenario=scenario open=fleet_open />

            <div class="field share">
                <button
                    type="button"
                    data-testid="copy-link"
                    on:click=move |_| {
                        leptos::task::spawn_local(async move {
                            let ok = browser::copy_text(&browser::href()).await;
                            copied.set(Some(ok));
                        });
                    }
                >
                    "Copy link"
                </button>
                <span class="hint" role="status" aria-live="polite" data-testid="copy-status">
                    {move || match copied.get() {
                        Some(true) => "Link copied.",
                        Some(false) => "This browser did not allow copying; copy the link below.",
                        None => "",
                    }}
                </span>
                {move || (copied.get() == Some(false)).then(|| {
                    view! {
                        <input
                            type="text"
                            readonly
                            aria-label="Link to this scenario"
                            data-testid="share-url"
                            prop:value=move || browser::link_with_query(&scenario.with(Scenario::to_query))
                            on:focus=move |ev| {
                                event_target::<web_sys::HtmlInputElement>(&ev).select();
                            }
                        />
                    }
                })}
            </div>
        </aside>
    }
}

/// Optional tail limits (`limit=STAT:MS` in the URL): a statistic and a ms bound each.
#[component]
fn Limits(
    scenario: RwSignal<Scenario>,
    statistics: Memo<Vec<Statistic>>,
    proposable: Memo<Vec<Statistic>>,
) -> impl IntoView {
    // Rows are rebuilt only when a limit is added or removed, so typing keeps focus.
    let count = Memo::new(move |_| scenario.with(|s| s.limits.len()));
    // Text a limit's bound field holds that does not parse, with the bound (ms) still in use:
    // a row rebuilt while that bound is unchanged shows the text again with its error.
    let drafts = StoredValue::new(Vec::<Option<(f64, String)>>::new());
    // Each limit's statistic, so the menus follow a change of one, not every keystroke.
    let limit_stats =
        Memo::new(move |_| scenario.with(|s| s.limits.iter().map(|l| l.stat).collect::<Vec<_>>()));
    // Whether "Add a limit" has a statistic without a limit to propose.
    let cannot_add = Memo::new(move |_| {
        proposable.with(|stats| scenario.with(|s| s.no_next_limit_reason(stats)))
    });
    view! {
        <fieldset class="field limits">
            <legend>"Tail limits (optional)"</legend>
            <p class="hint">"Each must hold as well, e.g. p99 ITL ≤ 150 ms."</p>
            {move || {
                let stats = statistics.get();
                (0..count.get())
                    .map(|i| limit_row(scenario, limit_stats, drafts, i, &stats))
                    .collect_view()
            }}
            <button
                type="button"
                id="limit-add"
                data-testid="limit-add"
                disabled=move || cannot_add.with(Option::is_some)
                aria-describedby=move || cannot_add.with(Option::is_some).then_some("limit-add-why")
                on:click=move |_| {
                    proposable.with_untracked(|stats| {
                        scenario.update(|s| {
                            if let Some(limit) = s.next_limit(stats) {
                                s.limits.push(limit);
                            }
                        })
                    });
                    // Keyboard users land on the new limit's bound (the button may now be
                    // disabled, which would drop their focus).
                    if let Some(last) = count.get_untracked().checked_sub(1) {
                        browser::focus_after_render(format!("limit-ms-{last}"));
                    }
                }
            >
                "Add a limit"
            </button>
            {move || {
                cannot_add
                    .get()
                    .map(|why| view! { <p class="hint" id="limit-add-why" data-testid="limit-add-why">{why}</p> })
            }}
        </fieldset>
    }
}

fn limit_row(
    scenario: RwSignal<Scenario>,
    limit_stats: Memo<Vec<Statistic>>,
    drafts: StoredValue<Vec<Option<(f64, String)>>>,
    index: usize,
    available: &[Statistic],
) -> impl IntoView {
    let initial = scenario.with_untracked(|s| s.limits.get(index).copied());
    let draft = drafts.with_value(|d| match (d.get(index), initial) {
        (Some(Some((max_ms, text))), Some(now)) if *max_ms == now.max_ms => Some(text.clone()),
        _ => None,
    });
    let set_draft = move |text: Option<String>| {
        drafts.update_value(|d| {
            if d.len() <= index {
                d.resize(index + 1, None);
            }
            d[index] = text.and_then(|t| {
                let max_ms = scenario.with_untracked(|s| s.limits.get(index).map(|l| l.max_ms))?;
                Some((max_ms, t))
            });
        })
    };
    let mut stats = available.to_vec();
    if let Some(l) = initial.filter(|l| !stats.contains(&l.stat)) {
        stats.insert(0, l.stat);
    }
    let limit_error = |e: String| format!("Limit {e}; the last valid value is still used.");
    let error = RwSignal::new(
        draft
            .as_deref()
            .and_then(|t| parse_positive(t).err())
            .map(limit_error),
    );
    let stat_id = format!("limit-stat-{index}");
    let ms_id = format!("limit-ms-{index}");
    view! {
        <div class="limit-row" data-testid="limit-row">
            <label class="sr-only" for=stat_id.clone()>{format!("Limit {} statistic", index + 1)}</label>
            <select
                id=stat_id
                data-testid="limit-stat"
                on:change=move |ev| {
                    if let Some(stat) = Statistic::from_key(&event_target_value(&ev)) {
                        scenario.update(|s| {
                            if let Some(l) = s.limits.get_mut(index) {
                                l.stat = stat;
                            }
                        });
                    }
                }
            >
                {stats
                    .into_iter()
                    .map(|stat| {
                        // A statistic another limit has is not offered: two limits on one
                        // statistic amount to the tighter, and a link keeps only that one.
                        let taken = move || {
                            limit_stats.with(|stats| {
                                stats.iter().enumerate().any(|(j, s)| j != index && *s == stat)
                            })
                        };
                        view! {
                            <option
                                value=stat.key()
                                selected=initial.is_some_and(|l| l.stat == stat)
                                disabled=taken
                            >
                                {stat.short_label()}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
            <span aria-hidden="true">"≤"</span>
            <label class="sr-only" for=ms_id.clone()>{format!("Limit {} in ms", index + 1)}</label>
            <input
                id=ms_id
                type="text"
                inputmode="decimal"
                autocomplete="off"
                data-testid="limit-ms"
                prop:value=draft
                    .clone()
                    .or_else(|| initial.map(|l| l.max_ms.to_string()))
                    .unwrap_or_default()
                aria-invalid=move || error.with(Option::is_some).to_string()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    match parse_positive(&text) {
                        Ok(v) => {
                            error.set(None);
                            set_draft(None);
                            scenario.update(|s| {
                                if let Some(l) = s.limits.get_mut(index) {
                                    l.max_ms = v;
                                }
                            });
                        }
                        Err(e) => {
                            error.set(Some(limit_error(e)));
                            set_draft(Some(text));
                        }
                    }
                }
            />
            <span>"ms"</span>
            <button
                type="button"
                class="remove"
                id=format!("limit-remove-{index}")
                data-testid="limit-remove"
                aria-label=format!("Remove limit {}", index + 1)
                on:click=move |_| {
                    let mut left = 0;
                    drafts.update_value(|d| {
                        if index < d.len() {
                            d.remove(index);
                        }
                    });
                    scenario.update(|s| {
                        if index < s.limits.len() {
                            s.limits.remove(index);
                        }
                        left = s.limits.len();
                    });
                    // Keyboard focus stays in the list: on the remove button now in this place,
                    // else the one above, else "Add a limit".
                    browser::focus_after_render(match left {
                        0 => "limit-add".to_string(),
                        n => format!("limit-remove-{}", index.min(n - 1)),
                    });
                }
            >
                "✕"
            </button>
            {move || error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
        </div>
    }
}

/// Optional fleet, cost and energy inputs ([`FLEET_INPUTS`]); an empty field means "not given".
#[component]
fn Fleet(scenario: RwSignal<Scenario>, open: bool) -> impl IntoView {
    // Folded unless the link sets (or tries to set) one of them, so the answer is near on a phone.
    view! {
        <details class="field fleet" open=open>
            <summary>"Fleet, cost and energy (optional)"</summary>
            {FLEET_INPUTS.iter().map(|input| fleet_input(scenario, input)).collect_view()}
        </details>
    }
}

fn fleet_input(scenario: RwSignal<Scenario>, input: &'static FleetInput) -> impl IntoView {
    let FleetInput {
        key,
        label,
        unit,
        kind,
        field,
    } = *input;
    let initial = scenario.with_untracked(|s| input.get(&s.capacity));
    let error = RwSignal::new(None::<String>);
    let id = format!("fleet-{key}");
    view! {
        <div class="fleet-row">
            <label for=id.clone()>{label}<span class="unit">{format!(" ({unit})")}</span></label>
            <input
                id=id
                type="text"
                inputmode="decimal"
                autocomplete="off"
                data-testid=format!("input-{key}")
                value=initial.map(|v| v.to_string()).unwrap_or_default()
                aria-invalid=move || error.with(Option::is_some).to_string()
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    let parsed = if text.trim().is_empty() { Ok(None) } else { parse_input(kind, &text).map(Some) };
                    match parsed {
                        Ok(v) => {
                            error.set(None);
                            scenario.update(|s| *field(&mut s.capacity) = v);
                        }
                        Err(e) => error.set(Some(format!("{label} {e}; the last valid value is still used."))),
                    }
                }
            />
            {move || error.get().map(|e| view! { <p class="field-error" role="alert">{e}</p> })}
        </div>
    }
}
