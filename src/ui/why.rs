//! Why the answer stops where it does, and what to set the autoscaler to: each a button in the
//! first view whose panel (`core::plan::bottleneck`, `core::plan::autoscaler`, their words in
//! `core::text::why_text`) is drawn by code loaded on demand when the button is pressed. The
//! trade-off chart's verdict on hover is written the same way ([`chart_verdicts`]), from the
//! first hover or focus.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::download::download;
use super::plan_shown::PlanShown;
use crate::browser;
use crate::core::model::source::Source;
use crate::core::plan::bottleneck::{verdict, why};
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::text::why_text::{lever_text, targets_text, verdict_words, why_text};
use crate::core::wire::handoff::ExportKind;
use crate::on_demand::{self, Drawn, Failed, Holder, Panel};

/// What a button of this module opens.
#[derive(Clone, Copy, PartialEq)]
pub enum Opens {
    /// "Why it stops here", under the answer.
    Why,
    /// The autoscaler's targets and its KEDA download, under the fleet panel.
    Autoscaler,
}

impl Opens {
    /// The id of the element its panel is drawn into (the button's is `{id}-toggle`), and the
    /// button's label.
    fn names(self) -> (&'static str, &'static str) {
        match self {
            Opens::Why => ("why", "Why it stops here"),
            Opens::Autoscaler => ("autoscaler", "Autoscaler targets per replica (KEDA)"),
        }
    }
}

/// A button that opens and closes its panel, drawn by code loaded on demand into the element
/// after it: one component for both panels, and no more of it in the first load than the
/// button, its element and the call (which hands over the three parts of a
/// [`PlanShown`] apart: the struct handed through the first load's call cost it bytes).
#[component]
pub fn Opener(
    opens: Opens,
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    let (holder, label) = opens.names();
    let panel = Panel::new();
    let owner = Owner::current();
    let toggle = move |_| {
        if panel.is_drawn() {
            panel.clear();
            browser::set_text(holder, "");
            browser::set_attribute(&format!("{holder}-toggle"), "aria-expanded", "false");
            return;
        }
        let drawn = Holder {
            id: holder,
            lost: "It cannot be drawn",
        };
        panel.draw(drawn, || {
            opened(opens, owner.clone(), Arc::clone(&source), scenario, result)
        });
    };
    view! {
        <button
            type="button"
            class="link"
            id=format!("{holder}-toggle")
            data-testid=format!("{holder}-toggle")
            aria-expanded="false"
            on:click=toggle
        >
            {label}
        </button>
        <div id=holder></div>
    }
}

/// Draws the panel `opens` into its element under `owner`, with its code (loaded on demand),
/// and says its button is expanded.
#[wasm_split(on_demand, fallible)]
fn opened(
    opens: Opens,
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> Result<Option<Drawn>, Failed> {
    let (holder, _) = opens.names();
    let shown = PlanShown {
        source,
        scenario,
        result,
    };
    let drawn = match opens {
        Opens::Why => on_demand::draw_in(owner, holder, move || why_view(shown)),
        Opens::Autoscaler => on_demand::draw_in(owner, holder, move || autoscaler_view(shown)),
    };
    browser::set_attribute(&format!("{holder}-toggle"), "aria-expanded", "true");
    Ok(drawn)
}

/// "Why it stops here".
fn why_view(shown: PlanShown) -> impl IntoView {
    move || {
        let (i, plan) = shown.result.get()?;
        let sweep = &shown.source.sweeps[i];
        let slo = shown.scenario.with(|s| s.slo.clone());
        let Some(w) = why(sweep, &plan) else {
            return Some(view! {
                <p class="hint" data-testid="why-verdict" data-verdict="">
                    "No level meets the target, so nothing stops it: see the whole sweep for each level's bottleneck."
                </p>
            }
            .into_any());
        };
        let t = why_text(sweep, &plan, &slo, &w);
        let keys = w.at_recommended.keys().join(" ");
        let next_keys = w.at_next.as_ref().map(|v| v.keys().join(" "));
        Some(
            view! {
                <div class="why" data-testid="why">
                    <p data-testid="why-next" data-verdict=next_keys>{t.next}</p>
                    <p data-testid="why-verdict" data-verdict=keys>{t.verdict}</p>
                    <p data-testid="why-lever" data-lever=w.lever.key()>{t.lever}</p>
                </div>
            }
            .into_any(),
        )
    }
}

/// The autoscaler's targets and download.
fn autoscaler_view(shown: PlanShown) -> impl IntoView {
    let status = RwSignal::new(String::new());
    let scenario = shown.scenario;
    move || {
        let (i, plan) = shown.result.get()?;
        let sweep = &shown.source.sweeps[i];
        let a = scenario.with(|s| s.autoscaler(sweep, &plan, &s.slo));
        let Some(a) = a else {
            return Some(view! {
                <p class="hint" data-testid="as-none">"No level meets the target, so there is no per-replica target to scale on."</p>
            }
            .into_any());
        };
        let held = Arc::clone(&shown.source);
        let items = targets_text(&a)
            .into_iter()
            .map(|(hook, label, text)| {
                view! {
                    <div class="figure"><dt>{label}</dt><dd data-testid=hook>{text}</dd></div>
                }
            })
            .collect_view();
        Some(view! {
            <dl class="figures" data-testid="autoscaler-targets">{items}</dl>
            <p class="hint">{format!("KEDA scales on {} summed over the deployment: {}.", a.metric, a.query)}</p>
            <button
                type="button"
                class="export"
                data-testid="export-keda"
                on:click=move |_| {
                    scenario.with_untracked(|s| download(
                        Arc::clone(&held),
                        s,
                        ExportKind::KedaYaml { sweep_index: i },
                        status,
                    ));
                }
            >
                "Download autoscaler (KEDA YAML)"
            </button>
            <span class="hint" role="status">{move || status.get()}</span>
        }
        .into_any())
    }
}

/// The id of the element of the chart's readout that names the bottleneck of the point focused
/// or hovered.
pub const CHART_VERDICT: &str = "chart-verdict";

/// From now on, the [`CHART_VERDICT`] element names the bottleneck verdict of the point
/// `focus` points at (series and point of `points`: each series' sweep and levels), with its code
/// (loaded on demand, at the chart's first hover or focus), for as long as `owner` lives.
#[wasm_split(on_demand, fallible)]
pub fn chart_verdicts(
    owner: Option<Owner>,
    source: Arc<Source>,
    points: Vec<(usize, Vec<f64>)>,
    focus: RwSignal<Option<(usize, usize)>>,
) -> Result<(), Failed> {
    on_demand::under(owner, || {
        Effect::new(move |_| {
            let text = focus.get().and_then(|(si, pi)| {
                let (sweep_index, levels) = points.get(si)?;
                let sweep = source.sweeps.get(*sweep_index)?;
                let li = sweep
                    .levels()
                    .iter()
                    .position(|l| Some(&l.level) == levels.get(pi))?;
                let v = verdict(sweep, li)?;
                Some(format!(
                    "Bottleneck: {} ({}); lever: {}.",
                    v.keys().join(", "),
                    verdict_words(&v, sweep.level_kind()),
                    lever_text(v.lever())
                ))
            });
            browser::set_text(CHART_VERDICT, text.as_deref().unwrap_or(""));
        });
    });
    Ok(())
}
