//! Tail limits: extra bounds (`limit=STAT:MS`) that must hold beside the target.

use leptos::prelude::*;

use super::field_error;

use crate::browser;
use crate::core::model::sweep::Statistic;
use crate::core::scenario::{parse_positive, Scenario, ValueError};
use crate::core::text::scenario_text::no_next_limit_reason;

/// Optional tail limits (`limit=STAT:MS` in the URL): a statistic and a ms bound each.
#[component]
pub fn Limits(
    scenario: RwSignal<Scenario>,
    statistics: Memo<Vec<Statistic>>,
    proposable: Memo<Vec<Statistic>>,
) -> impl IntoView {
    // Rows are rebuilt only when a limit is added or removed, so typing keeps focus.
    let count = Memo::new(move |_| scenario.with(|s| s.slo.limits.len()));
    let drafts = Drafts(StoredValue::new([const { None }; Statistic::COUNT]));
    // Each limit's statistic, so the menus follow a change of one, not every keystroke.
    let limit_stats = Memo::new(move |_| {
        scenario.with(|s| s.slo.limits.iter().map(|l| l.stat).collect::<Vec<_>>())
    });
    // Whether "Add a limit" has a statistic without a limit to propose.
    let cannot_add = Memo::new(move |_| {
        proposable.with(|stats| scenario.with(|s| no_next_limit_reason(s, stats)))
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
                                s.slo.limits.push(limit);
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

/// Text a limit's bound field holds that does not parse, kept under the limit's statistic (each
/// limit has its own: a row's key) with the bound (ms) still in use: a row rebuilt while that
/// bound is unchanged shows the text again with its error.
#[derive(Clone, Copy)]
struct Drafts(StoredValue<[Option<(f64, String)>; Statistic::COUNT]>);

impl Drafts {
    /// The draft of the limit on `stat` while its bound is still `max_ms`.
    fn of(self, stat: Statistic, max_ms: f64) -> Option<String> {
        self.0.with_value(|d| match &d[stat as usize] {
            Some((kept_ms, text)) if *kept_ms == max_ms => Some(text.clone()),
            _ => None,
        })
    }

    /// Keeps `text` as the draft of the limit on `stat` (whose bound is `max_ms`), or drops it
    /// (`None`).
    fn set(self, stat: Statistic, max_ms: f64, text: Option<String>) {
        self.0
            .update_value(|d| d[stat as usize] = text.map(|t| (max_ms, t)));
    }

    /// The limit on `from` is now on `to` (which had none): its draft goes with it.
    fn rekey(self, from: Statistic, to: Statistic) {
        self.0.update_value(|d| d.swap(from as usize, to as usize));
    }
}

fn limit_row(
    scenario: RwSignal<Scenario>,
    limit_stats: Memo<Vec<Statistic>>,
    drafts: Drafts,
    index: usize,
    available: &[Statistic],
) -> impl IntoView {
    let initial = scenario.with_untracked(|s| s.slo.limits.get(index).copied());
    let draft = initial.and_then(|now| drafts.of(now.stat, now.max_ms));
    let set_draft = move |text: Option<String>| {
        if let Some(l) = scenario.with_untracked(|s| s.slo.limits.get(index).copied()) {
            drafts.set(l.stat, l.max_ms, text);
        }
    };
    let mut stats = available.to_vec();
    if let Some(l) = initial.filter(|l| !stats.contains(&l.stat)) {
        stats.insert(0, l.stat);
    }
    let limit_error = |e: ValueError| format!("Limit {e}; the last valid value is still used.");
    let error = RwSignal::new(
        draft
            .as_deref()
            .and_then(|t| parse_positive(t).err())
            .map(limit_error),
    );
    let ms_id = format!("limit-ms-{index}");
    view! {
        <div class="limit-row" data-testid="limit-row">
            {stat_select(scenario, limit_stats, drafts, index, stats, initial.map(|l| l.stat))}
            <span aria-hidden="true">"≤"</span>
            <label class="sr-only" for=ms_id.clone()>{format!("Limit {} in ms", index + 1)}</label>
            <input
                id=ms_id.clone()
                type="text"
                inputmode="decimal"
                autocomplete="off"
                data-testid="limit-ms"
                prop:value=draft
                    .clone()
                    .or_else(|| initial.map(|l| l.max_ms.to_string()))
                    .unwrap_or_default()
                aria-invalid=field_error::invalid(error)
                aria-describedby=field_error::described_by(&ms_id, None, error)
                on:input=move |ev| {
                    let text = event_target_value(&ev);
                    match parse_positive(&text) {
                        Ok(v) => {
                            error.set(None);
                            set_draft(None);
                            scenario.update(|s| {
                                if let Some(l) = s.slo.limits.get_mut(index) {
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
                on:click=move |_| remove_limit(scenario, drafts, index)
            >
                "✕"
            </button>
            {field_error::message(&ms_id, error, "limit-error")}
        </div>
    }
}

/// Limit `index`'s statistic menu (`stats`, `chosen` selected) and its label.
fn stat_select(
    scenario: RwSignal<Scenario>,
    limit_stats: Memo<Vec<Statistic>>,
    drafts: Drafts,
    index: usize,
    stats: Vec<Statistic>,
    chosen: Option<Statistic>,
) -> impl IntoView {
    let stat_id = format!("limit-stat-{index}");
    view! {
        <label class="sr-only" for=stat_id.clone()>{format!("Limit {} statistic", index + 1)}</label>
        <select
            id=stat_id
            data-testid="limit-stat"
            on:change=move |ev| {
                if let Some(stat) = Statistic::from_key(&event_target_value(&ev)) {
                    scenario.update(|s| {
                        if let Some(l) = s.slo.limits.get_mut(index) {
                            drafts.rekey(l.stat, stat);
                            l.stat = stat;
                        }
                    });
                }
            }
        >
            {stats
                .into_iter()
                .map(|stat| stat_option(stat, index, chosen == Some(stat), limit_stats))
                .collect_view()}
        </select>
    }
}

/// A statistic in limit `index`'s menu. A statistic another limit has is not offered: two
/// limits on one statistic amount to the tighter, and a link keeps only that one.
fn stat_option(
    stat: Statistic,
    index: usize,
    selected: bool,
    limit_stats: Memo<Vec<Statistic>>,
) -> impl IntoView {
    let taken = move || {
        limit_stats.with(|stats| {
            stats
                .iter()
                .enumerate()
                .any(|(j, s)| j != index && *s == stat)
        })
    };
    view! {
        <option value=stat.key() selected=selected disabled=taken>
            {stat.short_label()}
        </option>
    }
}

/// Removes limit `index` (and its draft text). Keyboard focus stays in the list: on the remove
/// button now in this place, else the one above, else "Add a limit".
fn remove_limit(scenario: RwSignal<Scenario>, drafts: Drafts, index: usize) {
    let mut left = 0;
    scenario.update(|s| {
        if index < s.slo.limits.len() {
            let removed = s.slo.limits.remove(index);
            drafts.set(removed.stat, removed.max_ms, None);
        }
        left = s.slo.limits.len();
    });
    browser::focus_after_render(match left {
        0 => "limit-add".to_string(),
        n => format!("limit-remove-{}", index.min(n - 1)),
    });
}
