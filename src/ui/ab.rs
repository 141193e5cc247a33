//! The comparison of the deployment shown (A) with the candidate the link names (`vs`, B): the
//! warnings and what an arm cannot reach, the verdict in large type with its hooks, what differs,
//! the noise, a chart of B/A along the per-user speed and both arms at their recommended levels.
//! Drawn while the scenario names a candidate; its code is loaded on demand then.
//!
//! The arms are made ready once per pair (their sweeps split into repeats, `plan::ab::Arms`,
//! which hold what they read) and kept while the pair is shown: a target change only compares.

use std::fmt;
use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::requests::{axes, titles};
use super::{attr, data_value};
use crate::core::model::source::Source;
use crate::core::plan::ab::{AbError, Arm, Arms, Comparison};
use crate::core::plan::ab_chart::{ab_chart, HEIGHT, PLOT, WIDTH};
use crate::core::plan::compare::{recommended, CompareRow};
use crate::core::scenario::Scenario;
use crate::core::text::ab_text::{
    arm_ratio_text, candidate_error_text, chart_summary, crossover_text, differs_text, noise_text,
    only_text, other_source_text, ratio_text, repeats_text, verdict_text, warning_text,
};
use crate::core::text::arm_figures::arm_rows;
use crate::on_demand::{self, Drawn, Failed, Holder};

/// The panel, while the scenario names a candidate: an empty element its code, loaded on
/// demand, draws into.
#[component]
pub fn AbPanel(source: Arc<Source>, scenario: RwSignal<Scenario>) -> impl IntoView {
    let wanted = Memo::new(move |_| scenario.with(|s| s.versus.vs.is_some()));
    on_demand::while_wanted(
        wanted,
        Holder {
            id: HOLDER,
            lost: "The comparison cannot be drawn",
        },
        "Loading the comparison…",
        move |owner| panel_view(owner, Arc::clone(&source), scenario),
    )
}

/// The id of the element the panel is drawn into.
const HOLDER: &str = "ab";

/// Draws the panel into the [`HOLDER`] element under `owner`, with its code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(
    owner: Option<Owner>,
    source: Arc<Source>,
    scenario: RwSignal<Scenario>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::under(owner, || {
        on_demand::mount_in(HOLDER, move || panel(source, scenario))
    }))
}

/// The sweeps of the two arms in the data shown: A, the deployment shown, and B, the candidate.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pair {
    /// A's sweep.
    a: usize,
    /// B's sweep.
    b: usize,
}

/// Why the candidate is not compared, kept until the panel words it (`Display`).
#[derive(Clone, Debug, PartialEq)]
enum NotCompared {
    /// No candidate is named, or the panel is gone: nothing to say.
    Nothing,
    /// B (`vs`, as the link writes it) is in the data `src`, not in the data shown.
    OtherSource {
        /// The candidate as the link writes it.
        vs: String,
        /// The data B is in.
        src: String,
    },
    /// The candidate (`vs`, as the link writes it) cannot be compared with A.
    Candidate {
        /// The candidate as the link writes it.
        vs: String,
        /// Why not.
        error: AbError,
    },
}

impl fmt::Display for NotCompared {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotCompared::Nothing => Ok(()),
            NotCompared::OtherSource { vs, src } => f.write_str(&other_source_text(vs, src)),
            NotCompared::Candidate { vs, error } => f.write_str(&candidate_error_text(vs, error)),
        }
    }
}

/// The two arms' sweeps in the data shown, or why the candidate is not compared.
fn pair_of(source: &Source, s: &Scenario) -> Result<Pair, NotCompared> {
    let Some(vs) = s.versus.vs.as_ref() else {
        return Err(NotCompared::Nothing);
    };
    let written = vs.write();
    if !vs.in_shown(s.src.as_deref()) {
        return Err(NotCompared::OtherSource {
            src: vs.src.clone().unwrap_or_default(),
            vs: written,
        });
    }
    let candidate = |error| NotCompared::Candidate {
        vs: written.clone(),
        error,
    };
    let no_sweep = || candidate(AbError::NoSweep);
    let a = s.sweep_index(source).ok_or_else(no_sweep)?;
    let b = vs
        .resolve(source, &s.deployment.model_id)
        .ok_or_else(no_sweep)?;
    if a == b {
        return Err(candidate(AbError::SameArm));
    }
    Ok(Pair { a, b })
}

/// The arms of the panel and their comparison, or why the candidate is not compared.
type Compared = Result<(Pair, Result<Comparison, AbError>), NotCompared>;

/// The panel: its title, the arms, and the comparison once made.
fn panel(source: Arc<Source>, scenario: RwSignal<Scenario>) -> impl IntoView {
    let held = Arc::clone(&source);
    let pair = Memo::new(move |_| scenario.with(|s| pair_of(&held, s)));
    let judged = Memo::new(move |_| scenario.with(|s| (s.slo.clone(), s.versus.tol_pct)));
    // The arms of the pair shown, made ready once and kept while it is shown: a target change
    // only compares.
    let ready = StoredValue::new_local(None::<(Pair, Result<Arms, AbError>)>);
    let held = Arc::clone(&source);
    let out = Memo::new(move |_| -> Compared {
        let pair = pair.get()?;
        let (slo, tol) = judged.get();
        let arm = |sweep_index| Arm {
            source: &held,
            sweep_index,
        };
        // Kept unless the panel is gone.
        let compared = ready.try_update_value(|r| {
            if r.as_ref().is_none_or(|(p, _)| *p != pair) {
                *r = None;
            }
            let (_, arms) = r.get_or_insert_with(|| (pair, Arms::new(arm(pair.a), arm(pair.b))));
            match arms {
                Ok(arms) => arms.compare(&slo, tol),
                Err(e) => Err(e.clone()),
            }
        });
        Ok((pair, compared.ok_or(NotCompared::Nothing)?))
    });
    let body = move || {
        out.with(|o| match o {
            Err(why) => not_compared(why).into_any(),
            Ok((_, Err(error))) => not_compared(&NotCompared::Candidate {
                vs: scenario.with(|s| s.versus.vs.as_ref().map(|v| v.write()).unwrap_or_default()),
                error: error.clone(),
            })
            .into_any(),
            Ok((pair, Ok(c))) => result_view(&source, scenario, *pair, c).into_any(),
        })
    };
    view! {
        <section class="ab" aria-labelledby="ab-title" data-testid="ab-panel">
            <h2 id="ab-title">"B against A at your target"</h2>
            {body}
        </section>
    }
}

/// Why the candidate is not compared, in words.
fn not_compared(why: &NotCompared) -> impl IntoView {
    view! {
        <p class="field-error" role="status" data-testid="ab-error">{super::message::message(&why.to_string())}</p>
    }
}

/// The comparison `c` of the arms `pair`: warnings, reach, verdict, figures, chart and table.
fn result_view(
    source: &Arc<Source>,
    scenario: RwSignal<Scenario>,
    pair: Pair,
    c: &Comparison,
) -> impl IntoView {
    let ratio = c.ratio;
    let crossovers = c
        .crossover_tok_s
        .iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let warnings = c.warnings.iter().map(warning_text).collect::<Vec<_>>();
    view! {
        <p class="ab-arms" data-testid="ab-arms">
            "A: " {source.sweep_label(pair.a).to_string()} " · B: " {source.sweep_label(pair.b).to_string()}
        </p>
        {(!warnings.is_empty()).then(|| view! {
            <ul class="ab-warnings" data-testid="ab-warnings">
                {warnings.into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
            </ul>
        })}
        <p class="ab-verdict" data-testid="ab-verdict" data-verdict=c.verdict.key()>{verdict_text(c)}</p>
        <p class="ab-figures">
            <span data-testid="ab-ratio" data-value=attr(ratio.map(|r| data_value(r.ratio)))>
                "B/A " {ratio.map(|r| ratio_text(r.ratio)).unwrap_or_else(|| "–".into())}
            </span>
            <span data-testid="ab-ratio-low" data-value=attr(ratio.map(|r| data_value(r.low)))>
                "low " {ratio.map(|r| ratio_text(r.low)).unwrap_or_else(|| "–".into())}
            </span>
            <span data-testid="ab-ratio-high" data-value=attr(ratio.map(|r| data_value(r.high)))>
                "high " {ratio.map(|r| ratio_text(r.high)).unwrap_or_else(|| "–".into())}
            </span>
            <span data-testid="ab-repeats" data-interval=c.interval.key()>{repeats_text(c)}</span>
        </p>
        <p data-testid="ab-differs">{differs_text(c)}</p>
        <p data-testid="ab-crossover" data-value=crossovers>{crossover_text(c)}</p>
        <p class="hint" data-testid="ab-noise">{noise_text(c)}</p>
        {only_text(c).into_iter().map(|o| view! { <p data-testid="ab-only">{o}</p> }).collect_view()}
        {chart(c)}
        {arms_table(source, scenario, pair)}
    }
}

/// B/A against per-user speed (`plan::ab_chart`), with its words as the text alternative.
fn chart(c: &Comparison) -> impl IntoView {
    let plot = ab_chart(c);
    let (left, top, right, bottom) = PLOT;
    let summary = chart_summary(c);
    let only = plot
        .only
        .into_iter()
        .map(|o| {
            view! {
                <rect class="ab-only" x=o.x.0 y=top width=(o.x.1 - o.x.0).max(1.0) height=bottom - top />
                <text class="tick" x=(o.x.0 + o.x.1) / 2.0 y=top + 12.0 text-anchor="middle">{o.label}</text>
            }
        })
        .collect_view();
    // A crossover's speed under the 1× line, or above it where under it would meet the target's
    // label (its baseline 6 above the plot's bottom, a line of text high).
    let cross_y = if plot.one_y + 16.0 > bottom - 6.0 - 16.0 {
        plot.one_y - 8.0
    } else {
        plot.one_y + 16.0
    };
    let crossings = plot
        .crossovers
        .into_iter()
        .map(|m| {
            view! {
                <circle class="ab-cross" cx=m.pos cy=plot.one_y r="4" />
                <text class="tick" x=m.pos y=cross_y text-anchor="middle">{m.label}</text>
            }
        })
        .collect_view();
    view! {
        <figure class="chart ab-chart">
            <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" data-testid="ab-chart"
                aria-labelledby="ab-chart-title" aria-describedby="ab-chart-summary">
                <title id="ab-chart-title">"B/A against per-user speed"</title>
                {axes(plot.x_ticks, plot.y_ticks)}
                {only}
                {(!plot.band.is_empty()).then(|| view! { <polygon class="ab-band" points=plot.band.clone() /> })}
                <line class="ab-one" x1=left x2=right y1=plot.one_y y2=plot.one_y />
                <polyline class="ab-line" points=plot.line />
                {plot.target.map(|t| view! {
                    <line class="target" x1=t.pos x2=t.pos y1=top y2=bottom />
                    <text class="target-label" x=t.pos + 4.0 y=bottom - 6.0>{t.label}</text>
                })}
                {plot.target_dot.map(|d| view! {
                    <line class="ab-whisker" x1=d.x x2=d.x y1=d.y_range.0 y2=d.y_range.1 />
                    <circle class="ab-dot" cx=d.x cy=d.y r="5" />
                })}
                {crossings}
                {titles("per-user speed, tok/s (log)", "B/A (log) ↑")}
            </svg>
            <figcaption id="ab-chart-summary" data-testid="ab-chart-summary">{summary}</figcaption>
        </figure>
    }
}

/// Both arms planned on their own at the scenario's SLO: their recommended level's figures
/// (`plan::ab::recommended`), each with B/A.
fn arms_table(source: &Arc<Source>, scenario: RwSignal<Scenario>, pair: Pair) -> impl IntoView {
    let source = Arc::clone(source);
    move || {
        let source = &source;
        arms_rows(scenario.with(|s| {
            let of = |sweep_index| {
                recommended(
                    Arm {
                        source,
                        sweep_index,
                    },
                    &s.slo,
                    s.pricing(),
                )
            };
            (of(pair.a), of(pair.b))
        }))
    }
}

/// The table of [`arms_table`] for rows A and B: a row per figure of `text::arm_figures`.
fn arms_rows(rows: (Option<CompareRow>, Option<CompareRow>)) -> impl IntoView {
    let body = arm_rows(rows.0.as_ref(), rows.1.as_ref())
        .into_iter()
        .map(|row| {
            view! {
                <tr>
                    <th scope="row">{row.figure.label}</th>
                    <td>{row.figure.text(row.a)}</td>
                    <td>{row.figure.text(row.b)}</td>
                    <td>{arm_ratio_text(row.a, row.b)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <div class="table-scroll" tabindex="0" role="region" aria-label="Each arm at its own recommended level: table">
            <table class="ab-table" data-testid="ab-table">
                <caption>"Each arm at its own recommended level"</caption>
                <thead>
                    <tr><th scope="col">"Figure"</th><th scope="col">"A"</th><th scope="col">"B"</th><th scope="col">"B/A"</th></tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// The comparison's benchmark (`bench_ab_ms`, `scripts/bench-ab.mjs`): two synthetic arms
/// (`plan::bench::synthetic_arms`) made ready once, then compared and worded at `changes`
/// targets in turn (30 and 25 ms per token on p50 TPOT, or under `attain=95`); each change's
/// time, ms. Its code is loaded on demand, with the panel's; built only with the feature
/// `bench-ab`.
#[cfg(feature = "bench-ab")]
#[wasm_split(on_demand, fallible)]
pub fn bench_compare(
    repeats: u32,
    levels: u32,
    requests: u32,
    changes: u32,
    attain: bool,
) -> Result<Vec<f64>, Failed> {
    use crate::browser::now_ms;
    use crate::core::model::sweep::Statistic;
    use crate::core::plan::ab::DEFAULT_TOL_PCT;
    use crate::core::plan::planner::{Slo, Target};
    let source = crate::core::plan::bench::synthetic_arms(repeats, levels, requests);
    let arm = |sweep_index| Arm {
        source: &source,
        sweep_index,
    };
    let arms = Arms::new(arm(0), arm(1)).map_err(|e| Failed(format!("{e:?}")))?;
    let times = (0..changes)
        .map(|k| {
            let ms = if k % 2 == 0 { 30.0 } else { 25.0 };
            let slo = Slo::new(Target::MsPerToken(ms), Statistic::TpotP50)
                .with_attain(attain.then_some(95.0));
            let start = now_ms();
            let words = arms
                .compare(&slo, DEFAULT_TOL_PCT)
                .map(|c| verdict_text(&c))
                .unwrap_or_default();
            let elapsed = now_ms() - start;
            // The sentence is kept observable, so the comparison is not optimised away.
            if words.is_empty() {
                f64::NAN
            } else {
                elapsed
            }
        })
        .collect();
    Ok(times)
}
