//! The answer in large type: the recommended level (`max_num_seqs`, concurrency or request rate)
//! and its figures, or why there is none.

use leptos::prelude::*;

use super::data_value;
use crate::browser;
use crate::core::anomalies::load_flag_counts;
use crate::core::explain::{status_text, times};
use crate::core::export::scenario_json;
use crate::core::format::{gpus, grouped, level as level_text, percent, significant, trimmed};
use crate::core::planner::{
    batching_effect, estimate, AlsoMeets, BatchingEffect, Estimate, Plan, Slo, Status, Target,
};
use crate::core::scenario::Scenario;
use crate::core::sweep::{Figure as SweepFigure, Level, Source, Statistic, Sweep};

/// "at least 25 tok/s per user (at most 40 ms per token) at p50 ITL, and p99 ITL ≤ 150 ms".
fn slo_sentence(slo: &Slo) -> String {
    let mut text = target_sentence(slo.target, slo.stat);
    for limit in &slo.limits {
        text.push_str(&format!(
            ", and {} ≤ {} ms",
            limit.stat.short_label(),
            trimmed(limit.max_ms, 4)
        ));
    }
    text
}

/// "at least 25 tok/s per user (at most 40 ms per token) at p50 ITL".
fn target_sentence(target: Target, stat: Statistic) -> String {
    let (tps, ms) = (target.tokens_per_second(), target.ms_per_token());
    match target {
        Target::TokensPerSecond(_) => format!(
            "at least {} tok/s per user (at most {} ms per token) at {}",
            trimmed(tps, 4),
            trimmed(ms, 4),
            stat.short_label()
        ),
        Target::MsPerToken(_) => format!(
            "at most {} ms per token (at least {} tok/s per user) at {}",
            trimmed(ms, 4),
            trimmed(tps, 4),
            stat.short_label()
        ),
    }
}

/// The answer panel for the current scenario and plan.
#[component]
pub fn Answer(
    source: &'static Source,
    scenario: RwSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
) -> impl IntoView {
    // Each part of the answer is redrawn only when what it shows changes: a new target redraws
    // the headline and the estimate, not the batching effect or the notes.
    let slo = Memo::new(move |_| scenario.with(Scenario::slo));
    let stat = Memo::new(move |_| scenario.with(|s| s.stat));
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
        let sweep = &source.sweeps[i];
        let shown = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .map(|(_, p)| slo.with(|s| headline(sweep, p, s)))
                    .unwrap_or_default()
            })
        });
        let effect = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref().and_then(|(_, p)| {
                    slo.with(|s| batching_effect(sweep, s, p, source.provenance.reference))
                })
            })
        });
        let estimate = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .and_then(|(_, p)| slo.with(|s| estimate(sweep, s, p)))
            })
        });
        let also = Memo::new(move |_| {
            result.with(|r| {
                r.as_ref()
                    .map(|(_, p)| p.also_meets.clone())
                    .unwrap_or_default()
            })
        });
        view! {
            <section class="answer" aria-live="polite" aria-label="Recommendation">
                <p class="asked">
                    {move || format!(
                        "{} on {}: {}",
                        source.models[sweep.model_index].nickname,
                        source.sweep_label(i),
                        slo.with(slo_sentence),
                    )}
                </p>
                {headline_view(shown)}
                {flags(sweep)}
                {move || effect.get().map(|e| batching(sweep, e, stat.get()))}
                {move || estimate.get().map(|e| estimated(sweep, e, stat.get()))}
                {move || also.with(|a| also_meets(sweep, a))}
                <button
                    type="button"
                    class="export"
                    data-testid="export-json"
                    on:click=move |_| {
                        let text = result.with_untracked(|r| {
                            let (i, plan) = r.as_ref()?;
                            scenario
                                .with_untracked(|s| scenario_json(source, s, *i, plan, &browser::href()))
                                .ok()
                        });
                        if let Some(text) = text {
                            browser::download("llm-slo-planner-scenario.json", "application/json", &text);
                        }
                    }
                >
                    "Download scenario and results (JSON)"
                </button>
            </section>
        }
        .into_any()
    }
}

/// One labelled figure of the headline as shown: `None` value shows "not reported".
#[derive(Clone, Debug, PartialEq)]
struct Figure {
    label: &'static str,
    testid: &'static str,
    value: Option<f64>,
    text: String,
    /// Where fewer than all runs at the level report it: (hook key, runs reporting, runs).
    coverage: Option<(&'static str, usize, usize)>,
    /// A derived figure's formula.
    derived: Option<&'static str>,
}

fn figure(
    label: &'static str,
    testid: &'static str,
    value: Option<f64>,
    text: impl Fn(f64) -> String,
) -> Figure {
    Figure {
        label,
        testid,
        value,
        text: value.map_or_else(|| "not reported".to_string(), &text),
        coverage: None,
        derived: None,
    }
}

impl Figure {
    /// The same figure, marked "k of n runs" when fewer than all runs at `level` report it.
    fn covered(mut self, level: Option<&Level>, of: SweepFigure) -> Figure {
        if let Some(l) = level {
            let (runs, all) = (l.runs_reporting(of), l.runs());
            if self.value.is_some() && runs < all {
                self.coverage = Some((of.key(), runs, all));
            }
        }
        self
    }
}

/// The headline as shown: the level (or "—"), the status and its figures.
#[derive(Clone, Debug, Default, PartialEq)]
struct Headline {
    /// The recommended level, if any.
    level: Option<f64>,
    /// "Run at … max_num_seqs" is shown (a recommendation).
    unit: Option<&'static str>,
    status: &'static str,
    status_text: String,
    duplicate: Option<String>,
    figures: Vec<Figure>,
}

fn headline(sweep: &Sweep, plan: &Plan, slo: &Slo) -> Headline {
    let levels = sweep.levels();
    let stat = slo.stat;
    match (&plan.status, plan.recommendation(sweep, slo)) {
        (Status::Ok | Status::AllMeet, Some(r)) => {
            let status_text = status_text(sweep, plan, slo);
            let duplicate = plan
                .recommended
                .and_then(|i| levels.get(i))
                .filter(|l| l.is_duplicate())
                .map(|l| {
                    format!(
                        "{} runs were measured at {}; the figures are the worst of them per metric.",
                        l.row_indices.len(),
                        level_text(l.level),
                    )
                });
            let at = plan.recommended.and_then(|i| levels.get(i));
            let mut energy = figure("Energy", "rec-energy", r.energy_per_token_j, |v| {
                format!("{} J/token", significant(v, 4))
            })
            .covered(at, SweepFigure::EnergyPerToken);
            energy.derived = at.and_then(|l| l.energy_basis).and_then(|b| b.formula());
            Headline {
                level: Some(r.level),
                unit: Some(sweep.level_kind().unit()),
                status: plan.status.key(),
                status_text,
                duplicate,
                figures: vec![
                    figure("Per-user speed", "rec-user-tps", Some(r.user_tps), |v| {
                        format!("{} tok/s at {}", grouped(v, 1), stat.short_label())
                    }),
                    figure("Time per token", "rec-tpot-ms", Some(r.latency_ms), |v| {
                        format!("{} ms at {}", significant(v, 3), stat.short_label())
                    })
                    .covered(at, SweepFigure::Latency(stat)),
                    figure("Headroom", "rec-headroom", Some(r.headroom), percent),
                    figure(
                        "Aggregate output",
                        "rec-throughput",
                        Some(r.throughput_tok_s),
                        |v| format!("{} tok/s", grouped(v, 0)),
                    ),
                    figure(
                        "Per GPU",
                        "rec-throughput-per-gpu",
                        r.throughput_per_gpu_tok_s,
                        |v| format!("{} tok/s/GPU", grouped(v, 0)),
                    ),
                    energy,
                    figure("Average power", "rec-power", r.power_w, |v| {
                        format!("{} W ({})", grouped(v, 0), gpus(sweep.deployment.num_gpus))
                    })
                    .covered(at, SweepFigure::Power),
                    figure(
                        "Avg batch reached",
                        "rec-avg-batch",
                        r.avg_batch_size,
                        |v| format!("{} requests", grouped(v, 1)),
                    )
                    .covered(at, SweepFigure::AvgBatch),
                ],
            }
        }
        (Status::Unattainable, _) => {
            let best = plan
                .best
                .and_then(|i| Some((levels.get(i)?, plan.verdicts.get(i)?)));
            let best_tps = best.and_then(|(_, v)| v.latency_ms).map(|ms| 1000.0 / ms);
            let best_level = best.map(|(l, _)| l.level);
            Headline {
                status: "unattainable",
                status_text: status_text(sweep, plan, slo),
                figures: vec![
                    figure(
                        "Best per-user speed measured",
                        "rec-best-user-tps",
                        best_tps,
                        |v| format!("{} tok/s at {}", grouped(v, 1), stat.short_label()),
                    ),
                    figure("At", "rec-best-level", best_level, |v| {
                        format!("{} {}", sweep.level_kind().label(), level_text(v))
                    }),
                ],
                ..Headline::default()
            }
        }
        (_, _) => {
            let status_text = status_text(sweep, plan, slo);
            Headline {
                status: "no-data",
                status_text,
                ..Headline::default()
            }
        }
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
            {if e.base_stat == stat {
                format!(" (at {}), aggregate ", stat.short_label())
            } else {
                format!(
                    " ({} at {} against {} here: two different rates, compared as the source does), aggregate ",
                    e.base_stat.short_label(),
                    level_text(e.base_level),
                    stat.short_label(),
                )
            }}
            <strong data-testid="batch-throughput-gain" data-value=data_value(e.throughput_gain)>
                {times(e.throughput_gain, "higher", "lower")}
            </strong>
            "."
        </p>
    }
}

/// The flags that make the sweep's numbers doubtful (`implausible-speed`, `saturated`,
/// `rate-above-offered`), carried by the answer with the first flagged run's figures.
fn flags(sweep: &Sweep) -> Option<impl IntoView> {
    let counts = load_flag_counts(sweep);
    (!counts.is_empty()).then(|| {
        view! {
            <ul class="notice warn flags">
                {counts
                    .into_iter()
                    .map(|c| {
                        let level = level_text(sweep.rows[c.first_row].level);
                        view! {
                            <li data-testid="rec-flag" data-kind=c.kind.key()>
                                <strong>{c.kind.key()}</strong>
                                {format!(
                                    " on {} of {} runs ({}). At {level}: {}.",
                                    c.rows,
                                    sweep.rows.len(),
                                    c.kind.meaning(),
                                    c.detail
                                )}
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
            <p class="hint">
                {format!(
                    "Latency at {} taken as linear in log2({}) between the two measured levels, solved for the target; throughput and J/token the same way.",
                    stat.short_label(),
                    sweep.level_kind().label(),
                )}
            </p>
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
                    {format!(
                        "Also meets at {}, but {} below it did not (rate-based speed there: {}).",
                        level_text(level.level),
                        level_text(failed.level),
                        rate.map_or_else(|| "not reported".into(), |r| format!("{} tok/s per user", significant(r, 3))),
                    )}
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
