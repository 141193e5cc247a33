//! The trade-off chart: draws `core::chart::layout` as SVG. No geometry is computed here.

use leptos::ev;
use leptos::prelude::*;

use super::data_value;
use crate::browser;
use crate::core::chart::{drawn_points, layout, ChartLayout, SeriesInput, MAX_DRAWN_POINTS};
use crate::core::chart_text::{
    chart_width, drawn_series, export_title, point_text, readout, standalone_svg, summary, HEIGHT,
    MAX_SERIES, SERIES_CLASSES,
};
use crate::core::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// The focused or hovered point: (series index, point index).
type Focus = Option<(usize, usize)>;

/// Per-user tok/s against tok/s per GPU for every deployment of the selected model.
#[component]
pub fn TradeoffChart(
    source: &'static Source,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
    open_sweep: Callback<usize>,
) -> impl IntoView {
    let width = RwSignal::new(chart_width(browser::viewport_width()));
    let handle = window_event_listener(ev::resize, move |_| {
        width.set(chart_width(browser::viewport_width()));
    });
    on_cleanup(move || handle.remove());
    let focus = RwSignal::new(None::<(usize, usize)>);

    let selected = Memo::new(move |_| result.with(|r| r.as_ref().map(|(i, _)| *i)));
    let chart = Memo::new(move |_| {
        let (model_id, stat, target_tps) =
            scenario.with(|s| (s.model_id.clone(), s.stat, s.target.tokens_per_second()));
        let model = source.model_index(&model_id)?;
        let all = source.sweeps_of(model);
        let drawn = drawn_series(source, &all, selected.get(), stat);
        let input: Vec<SeriesInput> = drawn
            .into_iter()
            .map(|i| {
                let sweep = &source.sweeps[i];
                let points = sweep
                    .levels()
                    .iter()
                    .filter_map(|l| {
                        Some((
                            l.level,
                            l.user_tps(stat)?,
                            sweep.per_gpu(l.throughput_tok_s)?,
                        ))
                    })
                    .collect();
                (i, points)
            })
            .collect();
        Some(layout(&input, target_tps, width.get(), HEIGHT))
    });
    // Split so that a new target moves the target line and re-marks the recommended point but
    // rebuilds nothing else: `frame` is the chart without the target, `target` the target's
    // line and feasible area.
    let frame = Memo::new(move |_| {
        chart.get().map(|mut c| {
            c.target_x = None;
            c.feasible = None;
            c
        })
    });
    let target = Memo::new(move |_| chart.with(|c| c.as_ref().map(|c| (c.target_x, c.feasible))));
    let stat = Memo::new(move |_| scenario.with(|s| s.stat));
    // (selected sweep, its recommended level).
    let recommended = Memo::new(move |_| {
        result.with(|r| {
            r.as_ref().map(|(i, p)| {
                let level = p
                    .recommended
                    .and_then(|li| source.sweeps[*i].levels().get(li).map(|l| l.level));
                (*i, level)
            })
        })
    });
    // A new chart has new points: a readout of the old one would describe the wrong point.
    Effect::new(move |_| {
        frame.track();
        focus.set(None);
    });

    move || {
        let chart = frame.get()?;
        let stat = stat.get();
        if chart.series.iter().all(|s| s.points.is_empty()) {
            return Some(view! {
                <section class="chart">
                    <h2>"Trade-off: per-user speed against throughput per GPU"</h2>
                    <p class="hint" data-testid="chart-empty">
                        {format!(
                            "No chart: this model's sweeps state no GPU count (so no tok/s per GPU) or report no {}.",
                            stat.short_label()
                        )}
                    </p>
                </section>
            }
            .into_any());
        }
        let current = selected.get();
        let of_model = current.map_or(0, |i| source.sweeps_of(source.sweeps[i].model_index).len());
        let not_drawn = of_model.saturating_sub(chart.series.len());
        let summary = summary(source, &chart, stat.short_label());
        let chart_for_export = chart.clone();
        Some(view! {
            <section class="chart" aria-labelledby="chart-title">
                <h2 id="chart-title">"Trade-off: per-user speed against throughput per GPU"</h2>
                <div class="chart-box">
                    {svg(source, scenario, &chart, Marks { current, target, recommended }, focus, open_sweep)}
                </div>
                <Legend source=source chart=chart.clone() current=current />
                {(not_drawn > 0).then(|| view! {
                    <p class="hint" data-testid="chart-more">
                        {format!(
                            "{not_drawn} more deployments of this model are not drawn: the chart shows this one and the {} with the highest tok/s per GPU; the side-by-side table lists them all.",
                            MAX_SERIES - 1
                        )}
                    </p>
                })}
                <p class="chart-readout" aria-live="polite" data-testid="chart-readout">
                    {move || readout(source, &chart, focus.get(), stat.short_label())}
                </p>
                <p class="hint" id="chart-summary" data-testid="chart-summary">{summary}</p>
                <button
                    type="button"
                    data-testid="export-svg"
                    on:click=move |_| download_svg(source, scenario, &chart_for_export)
                >
                    "Download chart (SVG)"
                </button>
            </section>
        }
        .into_any())
    }
}

/// Downloads the chart as it is drawn, as a standalone SVG file with its title and legend.
fn download_svg(source: &Source, scenario: ReadSignal<Scenario>, chart: &ChartLayout) {
    let title = scenario.with_untracked(|s| export_title(source, s));
    let legend: Vec<(String, &str)> = chart
        .series
        .iter()
        .enumerate()
        .map(|(i, s)| {
            (
                source.sweep_label(s.sweep_index).to_string(),
                SERIES_CLASSES[i % SERIES_CLASSES.len()],
            )
        })
        .collect();
    if let Some(svg) = browser::element_xml("[data-testid=tradeoff-chart]")
        .and_then(|m| standalone_svg(&m, chart, &title, &legend))
    {
        browser::download("llm-slo-planner-chart.svg", "image/svg+xml", &svg);
    }
}

/// The target line's x and the feasible area: left, top, right, bottom (see [`ChartLayout`]).
type TargetMarks = Option<(Option<f64>, Option<(f64, f64, f64, f64)>)>;

/// What the chart marks on top of its frame.
struct Marks {
    /// The selected sweep.
    current: Option<usize>,
    /// The target line and the feasible area.
    target: Memo<TargetMarks>,
    /// The selected sweep and its recommended level.
    recommended: Memo<Option<(usize, Option<f64>)>>,
}

fn svg(
    source: &'static Source,
    scenario: ReadSignal<Scenario>,
    chart: &ChartLayout,
    marks: Marks,
    focus: RwSignal<Focus>,
    open_sweep: Callback<usize>,
) -> impl IntoView {
    let Marks {
        current,
        target,
        recommended,
    } = marks;
    let (left, top, right, bottom) = chart.plot;
    let stat = scenario.with_untracked(|s| s.stat.short_label());
    let x_grid = chart
        .x_ticks
        .iter()
        .map(|t| {
            view! {
                <line class="grid" x1=t.pos x2=t.pos y1=top y2=bottom />
                <text class="tick" x=t.pos y=bottom + 16.0 text-anchor="middle">{t.label.clone()}</text>
            }
        })
        .collect_view();
    let y_grid = chart
        .y_ticks
        .iter()
        .map(|t| {
            view! {
                <line class="grid" x1=left x2=right y1=t.pos y2=t.pos />
                <text class="tick" x=left - 6.0 y=t.pos + 4.0 text-anchor="end">{t.label.clone()}</text>
            }
        })
        .collect_view();
    let feasible = move || {
        target.get().and_then(|t| t.1).map(|(x0, y0, x1, y1)| {
            view! { <rect class="feasible" x=x0 y=y0 width=x1 - x0 height=y1 - y0 /> }
        })
    };
    let target = move || {
        target.get().and_then(|t| t.0).map(|x| {
            view! {
                <line class="target" x1=x x2=x y1=top y2=bottom />
                <text class="target-label" x=x + 4.0 y=top + 12.0>"target"</text>
            }
        })
    };
    let frontier_points: Vec<String> = chart
        .frontier
        .iter()
        .map(|&(si, pi)| {
            let p = &chart.series[si].points[pi];
            format!("{:.1},{:.1}", p.px.0, p.px.1)
        })
        .collect();
    let frontier = (frontier_points.len() > 1).then(|| {
        view! { <polyline class="frontier" points=frontier_points.join(" ") /> }
    });
    let drawn = Drawn {
        source,
        current,
        recommended,
        focus,
        open_sweep,
        stat,
    };
    let series = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, _)| series_view(chart, si, &drawn))
        .collect_view();
    view! {
        <svg
            data-testid="tradeoff-chart"
            role="img"
            aria-labelledby="chart-svg-title chart-summary"
            width=chart.width
            height=chart.height
            viewBox=format!("0 0 {} {}", chart.width, chart.height)
            on:mouseleave=move |_| focus.set(None)
        >
            <title id="chart-svg-title">"Per-user tok/s against output tok/s per GPU, one line per deployment, log scales"</title>
            {feasible}
            {x_grid}
            {y_grid}
            <rect class="frame" x=left y=top width=right - left height=bottom - top />
            {frontier}
            {target}
            {series}
            <text class="axis-label" x=(left + right) / 2.0 y=chart.height - 6.0 text-anchor="middle">
                {format!("per-user tok/s at {stat} (log) →")}
            </text>
            <text
                class="axis-label"
                x=14.0
                y=(top + bottom) / 2.0
                text-anchor="middle"
                transform=format!("rotate(-90 14 {})", (top + bottom) / 2.0)
            >
                "output tok/s per GPU (log) →"
            </text>
        </svg>
    }
}

/// What every series and point of the chart needs besides its geometry.
struct Drawn {
    source: &'static Source,
    /// The selected sweep.
    current: Option<usize>,
    /// The selected sweep and its recommended level.
    recommended: Memo<Option<(usize, Option<f64>)>>,
    focus: RwSignal<Focus>,
    open_sweep: Callback<usize>,
    /// The statistic's short label.
    stat: &'static str,
}

/// One deployment's line and its points (evenly thinned), with the recommended level's ring.
fn series_view(chart: &ChartLayout, si: usize, d: &Drawn) -> impl IntoView {
    let s = &chart.series[si];
    let (source, current, recommended) = (d.source, d.current, d.recommended);
    let class = SERIES_CLASSES[si % SERIES_CLASSES.len()];
    let is_current = current == Some(s.sweep_index);
    let line: Vec<String> = s
        .points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.px.0, p.px.1))
        .collect();
    let sweep = &source.sweeps[s.sweep_index];
    let sweep_index = s.sweep_index;
    // Evenly spaced (the frontier is its own line: on a sweep that trades speed for
    // throughput at every level, every point is on it).
    let drawn = drawn_points(s.points.len(), MAX_DRAWN_POINTS);
    // A recommended level between the drawn points still gets its ring.
    let hidden: Vec<(f64, (f64, f64))> = s
        .points
        .iter()
        .enumerate()
        .filter(|(pi, _)| drawn.binary_search(pi).is_err())
        .map(|(_, p)| (p.level, p.px))
        .collect();
    let ring = move || {
        let (i, level) = recommended.get()?;
        let (_, (x, y)) = hidden
            .iter()
            .find(|(l, _)| i == sweep_index && Some(*l) == level)?;
        Some(view! { <circle class="point recommended" cx=*x cy=*y r=7.0 aria-hidden="true" /> })
    };
    let points = drawn
        .iter()
        .map(|&pi| point_view(chart, si, pi, d))
        .collect_view();
    view! {
        <g class=format!("series {class}{}", if is_current { " current" } else { "" })
            data-testid="chart-series"
            data-gpu=sweep.deployment.gpu.clone()
            data-gpus=super::attr(sweep.deployment.num_gpus)>
            <polyline class="series-line" points=line.join(" ") />
            {points}
            {ring}
        </g>
    }
}

/// One point: a focusable mark that names its figures and switches to its deployment.
fn point_view(chart: &ChartLayout, si: usize, pi: usize, d: &Drawn) -> impl IntoView {
    let s = &chart.series[si];
    let p = &s.points[pi];
    let sweep_index = s.sweep_index;
    let sweep = &d.source.sweeps[sweep_index];
    let class = SERIES_CLASSES[si % SERIES_CLASSES.len()];
    let is_current = d.current == Some(sweep_index);
    let (recommended, focus, open_sweep) = (d.recommended, d.focus, d.open_sweep);
    let level = p.level;
    // Per point, so that a new recommendation touches only the two points
    // whose mark changes.
    let is_recommended = Memo::new(move |_| recommended.get() == Some((sweep_index, Some(level))));
    let is_recommended = move || is_recommended.get();
    let on_frontier = chart.frontier.contains(&(si, pi));
    let text = point_text(d.source, sweep_index, p, d.stat);
    let label = move || {
        format!(
            "{text}{}{}",
            if is_recommended() {
                ", recommended"
            } else {
                ""
            },
            if is_current {
                ""
            } else {
                ". Press Enter to switch to this deployment"
            },
        )
    };
    let pick = move || {
        if !is_current {
            open_sweep.run(sweep_index);
        }
    };
    view! {
        <circle
            class=move || format!(
                "point {class}{}{}",
                if is_recommended() { " recommended" } else { "" },
                if on_frontier { " on-frontier" } else { "" },
            )
            cx=p.px.0
            cy=p.px.1
            r=move || if is_recommended() { 7.0 } else { 4.5 }
            tabindex="0"
            role="button"
            aria-label=label
            data-testid="chart-point"
            data-concurrency=data_value(p.level)
            data-gpu=sweep.deployment.gpu.clone()
            data-gpus=super::attr(sweep.deployment.num_gpus)
            on:mouseenter=move |_| focus.set(Some((si, pi)))
            on:focus=move |_| focus.set(Some((si, pi)))
            on:click=move |_| pick()
            on:keydown=move |ev: ev::KeyboardEvent| {
                if ev.key() == "Enter" || ev.key() == " " {
                    ev.prevent_default();
                    pick();
                }
            }
        />
    }
}

#[component]
fn Legend(source: &'static Source, chart: ChartLayout, current: Option<usize>) -> impl IntoView {
    let items = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let class = SERIES_CLASSES[si % SERIES_CLASSES.len()];
            let label = source.sweep_label(s.sweep_index);
            let here = if current == Some(s.sweep_index) { " (selected)" } else { "" };
            view! { <li><span class=format!("swatch {class}")></span>{format!("{label}{here}")}</li> }
        })
        .collect_view();
    view! {
        <ul class="legend">
            {items}
            <li><span class="swatch frontier-swatch"></span>"Pareto frontier"</li>
            <li><span class="swatch feasible-swatch"></span>"meets the per-user target"</li>
        </ul>
    }
}
