//! The answer in large type: the recommended level (`max_num_seqs`, concurrency or request rate)
//! and its figures, or why there is none.

use std::sync::Arc;

use leptos::prelude::*;

use super::data_value;
use super::download::download;
use crate::core::model::format::{grouped, level as level_text, significant};
use crate::core::model::source::Source;
use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::anomalies::load_flag_counts;
use crate::core::plan::estimate::{batching_effect, estimate, BatchingEffect, Estimate};
use crate::core::plan::planner::{AlsoMeets, Plan};
use crate::core::scenario::Scenario;
use crate::core::text::explain::times;
use crate::core::text::headline::{
    also_meets_sentence, batching_basis, estimate_method, flag_sentence, headline, slo_sentence,
    Headline,
};
use crate::core::wire::handoff::ExportKind;

/// The answer panel for the current scenario and plan.
#[component]
pub fn Answer(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    // Each part of the answer is redrawn only when what it shows changes: a new target redraws
    // the headline and the estimate, not the batching effect or the notes.
    let slo = Memo::new(move |_| scenario.with(|s| s.slo.clone()));
    let stat = Memo::new(move |_| scenario.with(|s| s.slo.stat));
    let selected = Memo::new(move |_| result.with(|r| r.as_ref().map(|(i, _)| *i)));
    move || {
        let Some(i) = selected.get() else {
            return view! {
                <section class="answer">
                    <p data-testid="rec-status" data-value="no-data">
                        "No measured deployment matches this scenario."
                    </p>
                </section>
            }
            .into_any();
        };
        let held = Arc::clone(&source);
        let shown = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .map(|(_, p)| slo.with(|s| headline(&held.sweeps[i], p, s)))
                    .unwrap_or_default()
            })
        });
        let held = Arc::clone(&source);
        let effect = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref().and_then(|(_, p)| {
                    let reference = held.provenance.reference;
                    slo.with(|s| batching_effect(&held.sweeps[i], s, p, reference))
                })
            })
        });
        let held = Arc::clone(&source);
        let estimate = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .and_then(|(_, p)| slo.with(|s| estimate(&held.sweeps[i], s, p)))
            })
        });
        let also = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .map(|(_, p)| p.also_meets.clone())
                    .unwrap_or_default()
            })
        });
        let sweep = &source.sweeps[i];
        let asked = format!(
            "{} on {}: ",
            source.models[sweep.model_index].nickname,
            source.sweep_label(i)
        );
        let [flagged, batched, estimated_at, also_at] = [(); 4].map(|()| Arc::clone(&source));
        view! {
            <section class="answer" aria-live="polite" aria-label="Recommendation">
                <p class="asked">
                    {move || format!("{asked}{}", slo.with(slo_sentence))}
                </p>
                {headline_view(shown)}
                {move || flags(&flagged.sweeps[i], stat.get())}
                {move || effect.get().map(|e| batching(&batched.sweeps[i], e, stat.get()))}
                {move || estimate.get().map(|e| estimated(&estimated_at.sweeps[i], e, stat.get()))}
                {move || also.with(|a| also_meets(&also_at.sweeps[i], a))}
                <super::why::Opener opens=super::why::Opens::Why source=Arc::clone(&source) scenario=scenario.read_only() result=result />
                {download_json(Arc::clone(&source), scenario, i)}
            </section>
        }
        .into_any()
    }
}

/// The button that downloads the scenario and its results at the sweep `sweep_index` as JSON,
/// and what it did.
fn download_json(
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
    sweep_index: usize,
) -> impl IntoView {
    let export_status = RwSignal::new(String::new());
    view! {
        <button
            type="button"
            class="export"
            data-testid="export-json"
            on:click=move |_| {
                scenario.with_untracked(|s| download(
                    Arc::clone(&source),
                    s,
                    ExportKind::ScenarioJson { sweep_index },
                    export_status,
                ));
            }
        >
            "Download scenario and results (JSON)"
        </button>
        <span class="hint" role="status">{move || export_status.get()}</span>
    }
}

/// The headline, built once per shape (which figures, whether a level) and updated in place:
/// a new target with the same recommended level changes a few texts, nothing else.
fn headline_view(headline: Memo<Headline>) -> impl IntoView {
    let shape = Memo::new(move |_| {
        headline.with(|h| {
            let figures: Vec<(&'static str, &'static str)> =
                h.figures.iter().map(|f| (f.label, f.testid)).collect();
            (h.unit.is_some(), h.duplicate.is_some(), figures)
        })
    });
    move || {
        let (recommends, duplicate, figures) = shape.get();
        let figure_at = move |i: usize| headline.with(|h| h.figures.get(i).cloned());
        view! {
            <div class="headline">
                {recommends.then(|| view! { <span class="headline-label">"Run at"</span> })}
                <span
                    class=if recommends { "big" } else { "big none" }
                    data-testid="rec-concurrency"
                    data-value=move || headline.with(|h| h.level.map(data_value).unwrap_or_default())
                >
                    {move || headline.with(|h| h.level.map_or_else(|| "—".to_string(), level_text))}
                </span>
                {recommends.then(|| view! {
                    <span class="headline-unit">{move || headline.with(|h| h.unit.unwrap_or_default())}</span>
                })}
            </div>
            <p class="status" data-testid="rec-status" data-value=move || headline.with(|h| h.status)>
                {move || headline.with(|h| h.status_text.clone())}
            </p>
            {duplicate.then(|| view! {
                <p class="note" data-testid="rec-duplicate">
                    {move || headline.with(|h| h.duplicate.clone().unwrap_or_default())}
                </p>
            })}
            {(!figures.is_empty()).then(|| view! {
                <dl class="figures">
                    {figures
                        .into_iter()
                        .enumerate()
                        .map(|(i, (label, testid))| view! {
                            <div class="figure">
                                <dt>{label}</dt>
                                <dd
                                    data-testid=testid
                                    data-value=move || figure_at(i).and_then(|f| f.value).map(data_value)
                                >
                                    {move || figure_at(i).map(|f| f.text).unwrap_or_default()}
                                    {move || figure_at(i).and_then(|f| f.derived).map(|formula| view! {
                                        <span class="derived">{format!(" (derived: {formula})")}</span>
                                    })}
                                    {move || figure_at(i).and_then(|f| f.coverage).map(|(key, runs, of)| view! {
                                        <span
                                            class="coverage"
                                            data-testid="figure-coverage"
                                            data-stat=key
                                            data-runs=runs.to_string()
                                            data-of=of.to_string()
                                        >
                                            {format!(" ({runs} of {of} runs)")}
                                        </span>
                                    })}
                                </dd>
                            </div>
                        })
                        .collect_view()}
                </dl>
            })}
        }
    }
}

/// "vs max_num_seqs 8: each user 2.1x slower, aggregate 5.6x higher" (how Databricks reads MPT-7B batch 1 against batch 64),
/// each comparison written the way its ratio runs ("1.4x faster", "6.5x lower").
fn batching(sweep: &Sweep, e: BatchingEffect, stat: Statistic) -> impl IntoView {
    view! {
        <p class="batching">
            {format!("vs {} {}: each user ", sweep.level_kind().label(), level_text(e.base_level))}
            <strong data-testid="batch-user-slowdown" data-value=data_value(e.user_slowdown)>
                {times(1.0 / e.user_slowdown, "faster", "slower")}
            </strong>
            {batching_basis(&e, stat)}
            <strong data-testid="batch-throughput-gain" data-value=data_value(e.throughput_gain)>
                {times(e.throughput_gain, "higher", "lower")}
            </strong>
            "."
        </p>
    }
}

/// The flags that make the sweep's numbers doubtful (`implausible-speed` at the judged
/// statistic `stat`, `saturated`, `rate-above-offered`, `failed-requests`), carried by the
/// answer with the first flagged run's figures.
fn flags(sweep: &Sweep, stat: Statistic) -> Option<impl IntoView> {
    let counts = load_flag_counts(sweep, stat);
    (!counts.is_empty()).then(|| {
        view! {
            <ul class="notice warn flags">
                {counts
                    .into_iter()
                    .map(|c| {
                        view! {
                            <li data-testid="rec-flag" data-kind=c.kind.key()>
                                <strong>{c.kind.key()}</strong>
                                {flag_sentence(sweep, &c)}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        }
    })
}

/// The estimate between measured levels, set apart and labelled as such.
fn estimated(sweep: &Sweep, e: Estimate, stat: Statistic) -> impl IntoView {
    view! {
        <div class="estimate" data-testid="estimate">
            <p>
                <span class="tag">"Estimate, not measured"</span>
                " About "
                <strong data-testid="est-concurrency" data-value=e.level.to_string()>
                    {grouped(e.level as f64, 0)}
                </strong>
                {format!(
                    " (between measured {} and {}), at about ",
                    level_text(e.from_level),
                    level_text(e.to_level),
                )}
                <span data-testid="est-throughput" data-value=data_value(e.throughput_tok_s)>
                    {format!("{} tok/s", grouped(e.throughput_tok_s, 0))}
                </span>
                {e.energy_per_token_j.map(|j| view! {
                    " and "
                    <span data-testid="est-energy" data-value=data_value(j)>
                        {format!("{} J/token", significant(j, 4))}
                    </span>
                })}
                "."
            </p>
            <p class="hint">{estimate_method(sweep, stat)}</p>
        </div>
    }
}

fn also_meets(sweep: &Sweep, also: &[AlsoMeets]) -> Option<impl IntoView> {
    let levels = sweep.levels();
    let items: Vec<_> = also
        .iter()
        .filter_map(|a| {
            let level = levels.get(a.level_index)?;
            let failed = levels.get(a.failed_below_index)?;
            let rate = level.rate_user_tps();
            Some(view! {
                <li
                    data-testid="also-meets"
                    data-concurrency=data_value(level.level)
                    data-rate-user-tps=rate.map(data_value)
                >
                    {also_meets_sentence(level, failed)}
                </li>
            })
        })
        .collect();
    (!items.is_empty()).then(|| {
        view! {
            <div class="notice">
                <p>"Not recommended: the sweep is not monotonic here."</p>
                <ul>{items}</ul>
            </div>
        }
    })
}
