//! The trade-off chart's SVG: grid, axes, target line, feasible area, Pareto frontier, and one
//! line per deployment with focusable points, one Tab stop for them all (arrow keys, Home and End
//! move among them: `browser::move_focus`). Geometry is `core::plan::chart::layout`.

use leptos::ev;
use leptos::prelude::*;

use super::data_value;
use crate::browser;
use crate::core::model::limits::MAX_DRAWN_POINTS;
use crate::core::model::source::Source;
use crate::core::plan::chart::ChartY;
use crate::core::plan::chart::{drawn_points, ChartLayout};
use crate::core::scenario::Scenario;
use crate::core::text::chart_text::{point_text, series_class};

/// The focused or hovered point: (series index, point index).
pub type Focus = Option<(usize, usize)>;

/// The target line's x and the feasible area: left, top, right, bottom (see [`ChartLayout`]).
pub type TargetMarks = Option<(Option<f64>, Option<(f64, f64, f64, f64)>)>;

/// What the chart marks on top of its frame.
pub struct Marks {
    /// The selected sweep.
    pub current: Option<usize>,
    /// The target line and the feasible area.
    pub target: Memo<TargetMarks>,
    /// The selected sweep and its recommended level.
    pub recommended: Memo<Option<(usize, Option<f64>)>>,
}

/// The chart as SVG, with its marks on top of the frame.
pub fn svg(
    source: &Source,
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
    let (stat, y) = scenario.with_untracked(|s| (s.slo.stat.short_label(), s.drawn_chart_y()));
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
    let drawn = Drawn {
        source,
        current,
        recommended,
        focus,
        open_sweep,
        stat,
        y,
    };
    // Each series' drawn points, evenly spaced (the frontier is its own line: on a sweep that
    // trades speed for throughput at every level, every point is on it), numbered across the
    // chart (`data-n`) for the arrow keys.
    let mut count = 0;
    let series = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let shown = drawn_points(s.points.len(), MAX_DRAWN_POINTS);
            let first = count;
            count += shown.len();
            series_view(chart, si, Thinned { shown, first }, &drawn)
        })
        .collect_view();
    view! {
        <svg
            data-testid="tradeoff-chart"
            role="group"
            tabindex="-1"
            aria-labelledby="chart-svg-title chart-summary"
            width=chart.width
            height=chart.height
            viewBox=format!("0 0 {} {}", chart.width, chart.height)
            on:mouseleave=move |_| focus.set(None)
            on:focusout=move |_| focus.set(None)
            on:focusin=move |ev| browser::take_tab_stop(&ev)
            on:keydown=move |ev| if browser::move_focus(&ev, count) { ev.prevent_default() }
        >
            <title id="chart-svg-title">{format!("Per-user tok/s against {}, one line per deployment, log scales; arrow keys move between its points", y.quantity())}</title>
            {feasible}
            {grid(chart)}
            <rect class="frame" x=left y=top width=right - left height=bottom - top />
            {frontier(chart)}
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
                {y.axis()}
            </text>
        </svg>
    }
}

/// The grid lines and tick labels of both axes.
fn grid(chart: &ChartLayout) -> impl IntoView {
    let (left, top, right, bottom) = chart.plot;
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
    view! {
        {x_grid}
        {y_grid}
    }
}

/// The Pareto frontier as one line through its points (none with fewer than two).
fn frontier(chart: &ChartLayout) -> Option<impl IntoView> {
    let frontier_points: Vec<String> = chart
        .frontier
        .iter()
        .map(|&(si, pi)| {
            let p = &chart.series[si].points[pi];
            format!("{:.1},{:.1}", p.px.0, p.px.1)
        })
        .collect();
    (frontier_points.len() > 1).then(|| {
        view! { <polyline class="frontier" points=frontier_points.join(" ") /> }
    })
}

/// What every series and point of the chart needs besides its geometry.
struct Drawn<'a> {
    source: &'a Source,
    /// The selected sweep.
    current: Option<usize>,
    /// The selected sweep and its recommended level.
    recommended: Memo<Option<(usize, Option<f64>)>>,
    focus: RwSignal<Focus>,
    open_sweep: Callback<usize>,
    /// The statistic's short label.
    stat: &'static str,
    /// What the y axis shows.
    y: ChartY,
}

/// The points of a series drawn (their indices, evenly thinned) and the chart's number of the
/// first.
struct Thinned {
    shown: Vec<usize>,
    first: usize,
}

/// One deployment's line and its points (`thinned`), with the recommended level's ring.
fn series_view(chart: &ChartLayout, si: usize, thinned: Thinned, d: &Drawn<'_>) -> impl IntoView {
    let Thinned {
        shown: drawn,
        first,
    } = thinned;
    let s = &chart.series[si];
    let (source, current, recommended) = (d.source, d.current, d.recommended);
    let class = series_class(si);
    let is_current = current == Some(s.sweep_index);
    let line: Vec<String> = s
        .points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.px.0, p.px.1))
        .collect();
    let sweep = &source.sweeps[s.sweep_index];
    let sweep_index = s.sweep_index;
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
        .enumerate()
        .map(|(k, &pi)| point_view(chart, PointAt { si, pi }, first + k, d))
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

/// A point of the chart: its series (`si`) and its index in that series (`pi`).
struct PointAt {
    si: usize,
    pi: usize,
}

/// One point, number `n` of the chart: a focusable mark (the first the chart's Tab stop) that
/// names its figures and switches to its deployment.
fn point_view(chart: &ChartLayout, at: PointAt, n: usize, d: &Drawn<'_>) -> impl IntoView {
    let PointAt { si, pi } = at;
    let s = &chart.series[si];
    let p = &s.points[pi];
    let sweep_index = s.sweep_index;
    let sweep = &d.source.sweeps[sweep_index];
    let class = series_class(si);
    let is_current = d.current == Some(sweep_index);
    let (recommended, focus, open_sweep) = (d.recommended, d.focus, d.open_sweep);
    let level = p.level;
    // Per point, so that a new recommendation touches only the two points
    // whose mark changes.
    let is_recommended = Memo::new(move |_| recommended.get() == Some((sweep_index, Some(level))));
    let is_recommended = move || is_recommended.get();
    let on_frontier = chart.frontier.contains(&(si, pi));
    let text = point_text(d.source, sweep_index, p, d.stat, d.y);
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
            tabindex=if n == 0 { "0" } else { "-1" }
            data-n=n
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
