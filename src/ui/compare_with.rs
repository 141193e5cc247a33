//! "Compare with": the candidate B, another sweep of the shown model in the data shown, written to
//! the link as `vs`; "none" removes it.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use crate::core::model::source::Source;
use crate::core::scenario::{Scenario, Vs};
use crate::on_demand::{self, Drawn, Failed, Holder};

/// The sweeps of the shown model.
#[derive(Clone, Copy)]
struct Shown {
    /// The shown model's index.
    model_index: Memo<Option<usize>>,
    /// The sweep shown.
    sweep_index: Memo<Option<usize>>,
}

/// "Compare with another deployment", folded unless the link names a candidate, below the
/// deployment: the menu is drawn when it is first unfolded (or at once when the link names a
/// candidate), by its code loaded on demand ([`menu`]), so the first load does not carry it.
#[component]
pub fn CompareWith(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    model_index: Memo<Option<usize>>,
    sweep_index: Memo<Option<usize>>,
) -> impl IntoView {
    let open = scenario.with_untracked(|s| s.versus.vs.is_some());
    let draw = on_demand::on_unfold(
        open,
        Holder {
            id: MENU,
            lost: "The deployments to compare with cannot be listed",
        },
        move |owner| {
            let shown = Shown {
                model_index,
                sweep_index,
            };
            menu_view(owner, Arc::clone(&source), scenario, shown)
        },
    );
    view! {
        <details class="field compare-with" open=open on:toggle=move |_| draw()>
            <summary>"Compare with another deployment"</summary>
            <div id=MENU>"Loading…"</div>
        </details>
    }
}

/// The id of the element the menu is drawn into.
const MENU: &str = "compare-with-menu";

/// Draws the menu into the [`MENU`] element under `owner`, with its code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn menu_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    shown: Shown,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::draw_in(owner, MENU, move || {
        menu(source, scenario, shown)
    }))
}

/// The candidate menu: "none" and every other sweep of the model in the data shown (options
/// carry `data-cfg`); the one `vs` names is selected.
fn menu(source: Arc<Source>, scenario: RwSignal<Scenario>, shown: Shown) -> impl IntoView {
    let Shown {
        model_index,
        sweep_index,
    } = shown;
    let held = Arc::clone(&source);
    let others = Memo::new(move |_| {
        let a = sweep_index.get();
        model_index
            .get()
            .map(|m| held.sweeps_of(m))
            .unwrap_or_default()
            .into_iter()
            .filter(|&i| Some(i) != a)
            .collect::<Vec<usize>>()
    });
    let held = Arc::clone(&source);
    // The sweep `vs` names in the data shown (its `src` the shown one, or none).
    let chosen = Memo::new(move |_| {
        scenario.with(|s| {
            let vs = s.versus.vs.as_ref()?;
            vs.in_shown(s.src.as_deref())
                .then(|| vs.resolve(&held, &s.deployment.model_id))
                .flatten()
        })
    });
    let held = Arc::clone(&source);
    let on_change = move |ev| {
        let picked = event_target_value(&ev).parse::<usize>().ok();
        let vs = picked.and_then(|i| Vs::of_sweep(&held, i, None));
        scenario.update(|s| s.versus.vs = vs);
    };
    view! {
        <div class="field">
            <label for="compare-with">"Compare with"</label>
            <select
                id="compare-with"
                data-testid="compare-with"
                prop:value=move || chosen.get().map(|i| i.to_string()).unwrap_or_default()
                on:change=on_change
            >
                <option value="">"none"</option>
                {move || {
                    let now = chosen.get_untracked();
                    others.get().into_iter().map(|i| view! {
                        <option value=i.to_string() data-cfg=source.sweep_cfg(i).unwrap_or_default().to_string() selected=now == Some(i)>
                            {source.sweep_label(i).to_string()}
                        </option>
                    }).collect_view()
                }}
            </select>
        </div>
    }
}
