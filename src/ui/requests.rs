//! The requests behind an attainment: each level's share of good requests against P, and one
//! level's requests, TPOT against TTFT (geometry and the scatter's words:
//! `core::plan::attain_plot`; a dot's words: `core::text::attainment_text`). Drawn when the
//! scenario asks for attainment on a sweep with per-request records; its code is loaded on
//! demand then (such records come only from an import, which loads code on demand anyway).

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::plan_shown::PlanShown;
use crate::browser;
use crate::core::model::format::level as level_text;
use crate::core::model::source::Source;
use crate::core::plan::attain_plot::{
    attainment_plot, judged_requests, level_attainments, requests_plot, Mark, HEIGHT, PLOT, WIDTH,
};
use crate::core::plan::attainment::Attainment;
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::text::attainment_text::level_dot_text;
use crate::on_demand::{self, Drawn, Failed, Holder};

/// The panel, once the scenario asks for attainment and the selected sweep has per-request
/// records: an empty element its code, loaded on demand, draws into.
#[component]
pub fn Requests(
    shown: PlanShown,
    /// Sets the level shown (the link's `requests_at`).
    set_level: Callback<f64>,
) -> impl IntoView {
    let PlanShown {
        source,
        scenario,
        result,
    } = shown.clone();
    let wanted = Memo::new(move |_| {
        scenario.with(|s| s.slo.attain.is_some())
            && result.with(|r| {
                r.as_ref()
                    .is_some_and(|(i, _)| source.sweeps[*i].has_request_records())
            })
    });
    on_demand::while_wanted(
        wanted,
        Holder {
            id: HOLDER,
            lost: "The requests cannot be drawn",
        },
        "Loading the requests…",
        move |owner| panel_view(owner, shown.clone(), set_level),
    )
}

/// The id of the element the panel is drawn into.
const HOLDER: &str = "requests";

/// Draws the panel into the [`HOLDER`] element under `owner` ([`on_demand::draw_in`]), with its
/// code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(
    owner: Option<Owner>,
    shown: PlanShown,
    set_level: Callback<f64>,
) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::draw_in(owner, HOLDER, move || {
        panel(shown, set_level)
    }))
}

/// The two plots and the level menu between them; the level shown is the one the reader picks
/// (kept in the link by `set_level`), else the link's, else the recommended one.
fn panel(shown: PlanShown, set_level: Callback<f64>) -> impl IntoView {
    let PlanShown {
        source,
        scenario,
        result,
    } = shown;
    // (sweep, level index) the reader chose; a choice on another sweep is not kept.
    let chosen = RwSignal::new(None::<(usize, usize)>);
    let levels = levels_with_records(Arc::clone(&source), result);
    let level = Memo::new(move |_| {
        let Levels {
            sweep,
            shown,
            start,
        } = levels.get()?;
        let linked = scenario.with(|s| s.view.requests_at);
        match chosen.get() {
            Some((s, l)) if s == sweep && shown.iter().any(|x| x.0 == l) => Some((sweep, l)),
            _ => shown
                .iter()
                .find(|x| Some(x.1) == linked)
                .map(|x| x.0)
                .or(start)
                .map(|l| (sweep, l)),
        }
    });
    keep_in_link(Arc::clone(&source), chosen, set_level);
    let held = Arc::clone(&source);
    let attain_view = move || attain_plot(&held, scenario, levels.get()?, chosen);
    let held = Arc::clone(&source);
    let scatter_view = move || {
        let (sweep, l) = level.get()?;
        requests_scatter(&held, scenario, sweep, l)
    };
    let options = move || {
        let Levels { sweep, shown, .. } = levels.get()?;
        let unit = source.sweeps[sweep].level_kind().unit();
        let now = level.get().map(|(_, l)| l);
        Some(
            shown
                .into_iter()
                .map(|(i, l, _)| {
                    view! {
                        <option value=i.to_string() selected=now == Some(i)>
                            {format!("{} {unit}", level_text(l))}
                        </option>
                    }
                })
                .collect_view(),
        )
    };
    view! {
        <section class="chart requests" aria-labelledby="requests-title" data-testid="requests-panel">
            <h2 id="requests-title">"The requests: which met the SLO, and why the others missed"</h2>
            <figure>
                {attain_view}
                <figcaption>"Each dot is a level's share of good requests; the dashed line is the share asked (P). A filled dot meets; pick one to see its requests below."</figcaption>
            </figure>
            <label>
                "The requests at"
                <select
                    data-testid="requests-level"
                    on:change=move |ev| {
                        let picked = event_target_value(&ev).parse::<usize>().ok();
                        if let (Some(l), Some(Levels { sweep, .. })) = (picked, levels.get_untracked()) {
                            chosen.set(Some((sweep, l)));
                        }
                    }
                >
                    {options}
                </select>
            </label>
            <figure>{scatter_view}</figure>
        </section>
    }
}

/// Puts the level picked (`chosen`, in the menu or on the plot) into the link (`set_level`).
fn keep_in_link(
    source: Arc<Source>,
    chosen: RwSignal<Option<(usize, usize)>>,
    set_level: Callback<f64>,
) {
    Effect::new(move |_| {
        if let Some((sweep, l)) = chosen.get() {
            if let Some(level) = source.sweeps[sweep].levels().get(l) {
                set_level.run(level.level);
            }
        }
    });
}

/// The levels with records of the sweep `result` plans, and the one shown first.
fn levels_with_records(
    source: Arc<Source>,
    result: Memo<Option<(usize, Plan)>>,
) -> Memo<Option<Levels>> {
    Memo::new(move |_| {
        result.with(|r| {
            r.as_ref().map(|(i, plan)| {
                let sweep = &source.sweeps[*i];
                let shown = level_attainments(sweep, plan);
                let start = [plan.recommended, plan.first_failure]
                    .into_iter()
                    .flatten()
                    .find(|l| shown.iter().any(|s| s.0 == *l))
                    .or(shown.first().map(|s| s.0));
                Levels {
                    sweep: *i,
                    shown,
                    start,
                }
            })
        })
    })
}

/// The levels with records of the sweep shown.
#[derive(Clone, PartialEq)]
struct Levels {
    /// The sweep's index.
    sweep: usize,
    /// Each level with records: its index, its level and its attainment.
    shown: Vec<(usize, f64, Attainment)>,
    /// The level shown first (the recommended one, else the first that fails, else the first).
    start: Option<usize>,
}

/// Each level's share of good requests against P (`levels`), a dot per level that `chosen`
/// follows when pressed; the dots are one Tab stop (arrow keys, Home and End move among them:
/// `browser::move_focus`), the focused one's words said under the plot.
fn attain_plot(
    source: &Source,
    scenario: ReadSignal<Scenario>,
    levels: Levels,
    chosen: RwSignal<Option<(usize, usize)>>,
) -> Option<impl IntoView> {
    let Levels { sweep, shown, .. } = levels;
    let p = scenario.with(|s| s.slo.attain)?;
    let unit = source.sweeps[sweep].level_kind().unit();
    let points: Vec<(f64, _)> = shown.iter().map(|(_, l, a)| (*l, *a)).collect();
    let plot = attainment_plot(&points, p);
    let count = plot.dots.len();
    let readout = RwSignal::new(None::<String>);
    let dots = plot
        .dots
        .into_iter()
        .zip(shown.iter().map(|s| s.0))
        .enumerate()
        .map(|(n, (d, l))| {
            let text = level_dot_text(&d, p, unit);
            let label = format!("{text}; shows its requests below");
            let pick = move || chosen.set(Some((sweep, l)));
            let said = text.clone();
            view! {
                <circle
                    class=if d.meets { "dot meets" } else { "dot misses" }
                    tabindex=if n == 0 { "0" } else { "-1" }
                    data-n=n
                    role="button"
                    aria-label=label
                    on:focus=move |_| readout.set(Some(said.clone()))
                    on:click=move |_| pick()
                    on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                        if ev.key() == "Enter" || ev.key() == " " {
                            ev.prevent_default();
                            pick();
                        }
                    }
                    cx=d.x
                    cy=d.y
                    r="5"
                    data-testid="attain-dot"
                    data-level=d.level.to_string()
                    data-meets=d.meets.to_string()
                >
                    <title>{text}</title>
                </circle>
            }
        })
        .collect_view();
    let name = format!(
        "Share of good requests at each level, against {}",
        plot.p_line.label
    );
    Some(view! {
        <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="group" tabindex="-1" data-testid="attain-chart" aria-label=name
            on:focusout=move |_| readout.set(None)
            on:focusin=move |ev| browser::take_tab_stop(&ev)
            on:keydown=move |ev| if browser::move_focus(&ev, count) { ev.prevent_default() }>
            {axes(plot.x_ticks, plot.y_ticks)}
            <line class="target" data-testid="attain-p-line" x1=PLOT.0 x2=PLOT.2 y1=plot.p_line.pos y2=plot.p_line.pos />
            // Above the line, or below it where the line runs along the top.
            <text class="target-label" x=PLOT.2 - 4.0 text-anchor="end"
                y=if plot.p_line.pos - PLOT.1 < 16.0 { plot.p_line.pos + 14.0 } else { plot.p_line.pos - 4.0 }>
                {plot.p_line.label}
            </text>
            <polyline class="series-line" points=plot.line />
            {dots}
            {titles(source.sweeps[sweep].level_kind().label(), "good requests, % of issued ↑")}
        </svg>
        <p class="chart-readout" aria-live="polite" data-testid="attain-readout">
            {move || readout.get().unwrap_or_else(|| "Focus a dot (Tab, then the arrow keys) to read its level.".into())}
        </p>
    })
}

/// The requests of level `l` of sweep `sweep`, TPOT against TTFT, good and missed, with the
/// target and any TTFT limit.
fn requests_scatter(
    source: &Source,
    scenario: ReadSignal<Scenario>,
    sweep: usize,
    l: usize,
) -> Option<impl IntoView> {
    let slo = scenario.with(|s| s.slo.clone().request_slo());
    let requests = judged_requests(&source.sweeps[sweep], l, &slo)?;
    let plot = requests_plot(requests, &slo);
    let (left, top, right, bottom) = PLOT;
    Some(view! {
        <svg viewBox=format!("0 0 {WIDTH} {HEIGHT}") role="img" data-testid="requests-scatter"
            aria-label="Each request's TPOT against its TTFT" aria-describedby="requests-caption">
            {axes(plot.x_ticks, plot.y_ticks)}
            <line class="target" x1=plot.target.pos x2=plot.target.pos y1=top y2=bottom />
            // On the side of the line with more room.
            {if plot.target.pos > (left + right) / 2.0 {
                view! { <text class="target-label" x=plot.target.pos - 4.0 y=top + 12.0 text-anchor="end">{plot.target.label}</text> }
            } else {
                view! { <text class="target-label" x=plot.target.pos + 4.0 y=top + 12.0 text-anchor="start">{plot.target.label}</text> }
            }}
            {plot.ttft_limit.map(|m| view! {
                <line class="target" x1=left x2=right y1=m.pos y2=m.pos />
                <text class="target-label" x=left + 4.0 y=m.pos - 4.0>{m.label}</text>
            })}
            <path class="good-requests" d=plot.good_path />
            <path class="missed-requests" d=plot.miss_path />
            {titles("TPOT, ms per token", "TTFT, ms ↑")}
        </svg>
        <p id="requests-caption" data-testid="requests-caption">{plot.caption}</p>
    })
}

/// Grid lines and tick labels of a plot (also the comparison's chart, `ui::ab`); the x axis's
/// labels a line of their own text under the plot (16 px on a narrow screen).
pub(super) fn axes(x_ticks: Vec<Mark>, y_ticks: Vec<Mark>) -> impl IntoView {
    let (left, top, right, bottom) = PLOT;
    let x = x_ticks
        .into_iter()
        .map(|t| {
            view! {
                <line class="grid" x1=t.pos x2=t.pos y1=top y2=bottom />
                <text class="tick" x=t.pos y=bottom dy="1.1em" text-anchor="middle">{t.label}</text>
            }
        })
        .collect_view();
    let y = y_ticks
        .into_iter()
        .map(|t| {
            view! {
                <line class="grid" x1=left x2=right y1=t.pos y2=t.pos />
                <text class="tick" x=left - 6.0 y=t.pos + 4.0 text-anchor="end">{t.label}</text>
            }
        })
        .collect_view();
    view! { {x} {y} <rect class="frame" x=left y=top width=right - left height=bottom - top /> }
}

/// The axes' titles: `x` under the plot, under its tick labels (a line and a quarter of its own
/// text), `y` above its left edge (right of the value ticks, which it would meet at 16 px on a
/// narrow screen).
pub(super) fn titles(x: &'static str, y: &'static str) -> impl IntoView {
    let (left, _, right, bottom) = PLOT;
    view! {
        <text class="axis-label" x=(left + right) / 2.0 y=bottom dy="2.35em" text-anchor="middle">{format!("{x} →")}</text>
        <text class="axis-label" x=left y=14.0>{y}</text>
    }
}
