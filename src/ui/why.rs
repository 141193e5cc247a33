//! Why the answer stops where it does, and what to set the autoscaler to: each a button in the
//! first view whose panel (`core::plan::bottleneck`, `core::plan::autoscaler`, their words in
//! `core::text::why_text`) is drawn by code loaded on demand, when the button is pressed or the
//! link's fragment names it (`#why`, `#autoscaler`). The trade-off chart's verdict on hover is
//! read the same way ([`verdict_reader`]), on the first hover.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::download::download;
use crate::browser;
use crate::core::model::source::Source;
use crate::core::plan::bottleneck::{verdict, why};
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::text::why_text::{lever_text, targets_text, verdict_words, why_text};
use crate::core::wire::handoff::ExportKind;
use crate::on_demand::{self, Drawn, Failed};

/// A button that opens a panel drawn on demand into the element `holder` (at once when the
/// link's fragment is `#holder`).
fn opener<F>(
    (holder, label, lost): (&'static str, &'static str, &'static str),
    start: impl Fn(Option<Owner>) -> F + Send + Sync + 'static,
) -> impl IntoView
where
    F: std::future::Future<Output = Result<Option<Drawn>, Failed>> + 'static,
{
    let open = RwSignal::new(browser::fragment() == format!("#{holder}"));
    let wanted = Memo::new(move |_| open.get());
    view! {
        <button
            type="button"
            class="link"
            data-testid=format!("{holder}-toggle")
            aria-expanded=move || open.get().to_string()
            on:click=move |_| open.update(|o| *o = !*o)
        >
            {label}
        </button>
        {on_demand::while_wanted(wanted, (holder, lost, "Loading…"), start)}
    }
}

/// "Why it stops here" under the answer.
#[component]
pub fn WhyStops(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    opener(
        (
            "why",
            "Why it stops here",
            "Why it stops here cannot be drawn",
        ),
        move |owner| why_view(owner, Arc::clone(&source), scenario.read_only(), result),
    )
}

/// The autoscaler's targets and its KEDA download, in the fleet panel.
#[component]
pub fn AutoscalerTargets(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    opener(
        (
            "autoscaler",
            "Autoscaler targets per replica (KEDA)",
            "The autoscaler cannot be drawn",
        ),
        move |owner| autoscaler_view(owner, Arc::clone(&source), scenario, result),
    )
}

/// Draws "Why it stops here" into its holder under `owner`, with its code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn why_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::under(owner, || {
        on_demand::mount_in("why", move || {
            move || {
                let (i, plan) = result.get()?;
                let sweep = &source.sweeps[i];
                let slo = scenario.with(|s| s.slo.clone());
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
        })
    }))
}

/// Draws the autoscaler's targets and download into their holder under `owner`, with its code
/// (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn autoscaler_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::under(owner, || {
        on_demand::mount_in("autoscaler", move || {
            let status = RwSignal::new(String::new());
            move || {
                let (i, plan) = result.get()?;
                let sweep = &source.sweeps[i];
                let a = scenario.with(|s| s.autoscaler(sweep, (&plan, &s.slo)));
                let Some(a) = a else {
                    return Some(view! {
                        <p class="hint" data-testid="as-none">"No level meets the target, so there is no per-replica target to scale on."</p>
                    }
                    .into_any());
                };
                let held = Arc::clone(&source);
                let items = targets_text(&a)
                    .into_iter()
                    .map(|(hook, label, text)| view! {
                        <div class="figure"><dt>{label}</dt><dd data-testid=hook>{text}</dd></div>
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
                                ("autoscaler", "yaml", "application/yaml"),
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
        })
    }))
}

/// What the trade-off chart says of a level on hover: its bottleneck verdict, in words, for the
/// sweep at an index and a level.
pub type VerdictOf = Arc<dyn Fn(&Source, usize, f64) -> Option<String>>;

/// The chart's [`VerdictOf`], with its code (loaded on demand, on the first hover).
#[wasm_split(on_demand, fallible)]
pub fn verdict_reader() -> Result<VerdictOf, Failed> {
    Ok(Arc::new(
        |source: &Source, sweep_index: usize, level: f64| {
            let sweep = source.sweeps.get(sweep_index)?;
            let li = sweep.levels().iter().position(|l| l.level == level)?;
            let v = verdict(sweep, li)?;
            Some(format!(
                "Bottleneck: {} ({}); lever: {}.",
                v.keys().join(", "),
                verdict_words(&v, sweep.level_kind()),
                lever_text(v.lever())
            ))
        },
    ))
}
