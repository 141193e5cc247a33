//! The trade-off chart: draws `core::plan::chart::layout` as SVG. No geometry is computed here.

use std::sync::Arc;

use leptos::prelude::*;

use super::chart_svg::{svg, Marks};
use super::download::download;
use crate::browser;
use crate::core::model::source::Source;
use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::capacity::CapacityInputs;
use crate::core::plan::chart::{layout, ChartLayout, ChartY, SeriesInput};
use crate::core::plan::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::text::chart_text::{
    chart_width, charted, left_off_notes, readout, series_class, summary, HEIGHT,
};
use crate::core::wire::handoff::ExportKind;

/// Per-user tok/s against tok/s per GPU for every deployment of the selected model.
#[component]
pub fn TradeoffChart(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
    open_sweep: Callback<usize>,
    /// Sets what the y axis shows (the switch above the chart).
    set_chart_y: Callback<ChartY>,
) -> impl IntoView {
    let width = window_width();

    let selected = Memo::new(move |_| result.with(|r| r.as_ref().map(|(i, _)| *i)));
    // Which of the model's sweeps are drawn, and which are left off (said under the chart).
    let held = Arc::clone(&source);
    let drawn = Memo::new(move |_| {
        let selected = selected.get();
        scenario.with(|s| {
            let model = held.model_index(&s.deployment.model_id)?;
            Some(charted(&held, s, model, selected))
        })
    });
    let held = Arc::clone(&source);
    let chart = Memo::new(move |_| {
        let (stat, target_tps, y) = scenario.with(|s| {
            (
                s.slo.stat,
                s.slo.target.tokens_per_second(),
                s.drawn_chart_y(),
            )
        });
        let input: Vec<SeriesInput> = drawn
            .with(|d| d.as_ref().map(|d| d.drawn.clone()))?
            .into_iter()
            .map(|i| {
                let sweep = &held.sweeps[i];
                let inputs = scenario.with(|s| s.capacity_for(&sweep.deployment.gpu));
                (i, series_points(sweep, stat, y, &inputs))
            })
            .collect();
        Some(layout(
            &input,
            target_tps,
            width.get(),
            HEIGHT,
            y == ChartY::Cost,
        ))
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
    let stat = Memo::new(move |_| scenario.with(|s| s.slo.stat));
    let recommended = recommended_level(Arc::clone(&source), result);
    let marks = move |current| Marks {
        current,
        target,
        recommended,
    };
    let wiring = Wiring {
        source,
        scenario,
        open_sweep,
        set_chart_y,
    };
    move || {
        let chart = frame.get()?;
        let stat = stat.get();
        let current = selected.get();
        let y = scenario.with_untracked(Scenario::drawn_chart_y);
        let notes = drawn.with(|d| {
            d.as_ref()
                .map_or((None, None), |d| left_off_notes(&wiring.source, d))
        });
        if chart.series.iter().all(|s| s.points.is_empty()) {
            let why = notes.1.unwrap_or_else(|| {
                format!(
                    "this model's sweeps state no GPU count (so no tok/s per GPU) or report no {}.",
                    stat.short_label()
                )
            });
            return Some(no_chart(&wiring, y, format!("No chart: {why}")).into_any());
        }
        let said = Said { stat, y, notes };
        Some(chart_section(wiring.clone(), chart, marks(current), said).into_any())
    }
}

/// The chart's width, px, following the window's as it is resized.
fn window_width() -> RwSignal<f64> {
    let width = RwSignal::new(chart_width(browser::viewport_width()));
    super::window_events::on_window("resize", move |_| {
        width.set(chart_width(browser::viewport_width()));
    });
    width
}

/// The selected sweep and its recommended level (`None`: none meets).
fn recommended_level(
    source: Arc<Source>,
    result: Memo<Option<(usize, Plan)>>,
) -> Memo<Option<(usize, Option<f64>)>> {
    Memo::new(move |_| {
        result.with(|r| {
            r.as_ref().map(|(i, p)| {
                let level = p
                    .recommended
                    .and_then(|li| source.sweeps[*i].levels().get(li).map(|l| l.level));
                (*i, level)
            })
        })
    })
}

/// What the chart's parts are wired to: the data, the scenario shown, and what a press changes.
#[derive(Clone)]
struct Wiring {
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    open_sweep: Callback<usize>,
    set_chart_y: Callback<ChartY>,
}

/// The points of one deployment's series: (level, per-user tok/s at `stat`, the y axis's value
/// at the level, under `inputs` for a cost axis); levels lacking either are left out.
fn series_points(
    sweep: &Sweep,
    stat: Statistic,
    y: ChartY,
    inputs: &CapacityInputs,
) -> Vec<(f64, f64, f64)> {
    sweep
        .levels()
        .iter()
        .filter_map(|l| {
            Some((
                l.level,
                l.user_tps(stat)?,
                y.value(sweep, l.throughput_tok_s, l.energy_per_token_j, inputs)?,
            ))
        })
        .collect()
}

/// The chart's section when no point can be drawn: its heading, the axis switch, and `text`
/// saying why.
fn no_chart(w: &Wiring, y: ChartY, text: String) -> impl IntoView {
    view! {
        <section class="chart">
            <h2>{y.heading()}</h2>
            {y_switch(w.scenario, w.set_chart_y)}
            <p class="hint" data-testid="chart-empty">{text}</p>
        </section>
    }
}

/// What the chart says beside its marks: the statistic judged and the y axis, and its notes of
/// the series left off and of those without a price (`left_off_notes`).
struct Said {
    stat: Statistic,
    y: ChartY,
    notes: (Option<String>, Option<String>),
}

/// The chart's section: heading, axis switch, the SVG with `marks`, the readout of the point
/// focused, legend, `notes` (series left off, unpriced), summary and download.
fn chart_section(w: Wiring, chart: ChartLayout, marks: Marks, said: Said) -> impl IntoView {
    let Said { stat, y, notes } = said;
    let (more_note, unpriced_note) = notes;
    let Wiring {
        source,
        scenario,
        open_sweep,
        set_chart_y,
    } = w;
    // The point focused or hovered, made with the chart drawn here: a new chart has new
    // points, and a readout of the old one would describe the wrong point.
    let focus = RwSignal::new(None::<(usize, usize)>);
    let current = marks.current;
    let summary = summary(&source, &chart, stat.short_label(), y);
    let export = Export {
        size: (chart.width, chart.height),
        series: chart.series.iter().map(|s| s.sweep_index).collect(),
    };
    let export_status = RwSignal::new(String::new());
    let chart_for_readout = chart.clone();
    let read_from = Arc::clone(&source);
    hover_verdict(Arc::clone(&source), &chart, focus);
    view! {
        <section class="chart" aria-labelledby="chart-title">
            <h2 id="chart-title">{y.heading()}</h2>
            {y_switch(scenario, set_chart_y)}
            <div class="chart-box">
                {svg(&source, scenario, &chart, marks, focus, open_sweep)}
            </div>
            <p class="chart-readout" aria-live="polite" data-testid="chart-readout">
                {move || readout(&read_from, &chart_for_readout, focus.get(), stat.short_label(), y)}
                " "
                <span id=super::why::CHART_VERDICT data-testid="chart-verdict"></span>
            </p>
            {legend(&source, &chart, current)}
            {more_note.map(|note| view! { <p class="hint" data-testid="chart-more">{note}</p> })}
            {unpriced_note.map(|note| view! { <p class="hint" data-testid="chart-unpriced">{note}</p> })}
            <p class="hint" id="chart-summary" data-testid="chart-summary">{summary}</p>
            <button
                type="button"
                data-testid="export-svg"
                on:click=move |_| download_svg(Arc::clone(&source), scenario, &export, export_status)
            >
                "Download chart (SVG)"
            </button>
            <span class="hint" role="status">{move || export_status.get()}</span>
        </section>
    }
}

/// Names the bottleneck of the point focused or hovered beside the readout: its code is
/// loaded on demand at the first hover or focus (`ui::why::chart_verdicts`).
fn hover_verdict(
    source: Arc<Source>,
    chart: &ChartLayout,
    focus: RwSignal<Option<(usize, usize)>>,
) {
    let points: Vec<(usize, Vec<f64>)> = chart
        .series
        .iter()
        .map(|s| (s.sweep_index, s.points.iter().map(|p| p.level).collect()))
        .collect();
    let owner = Owner::current();
    let wanted = StoredValue::new_local(Some((source, points)));
    Effect::new(move |_| {
        if focus.get().is_some() {
            if let Some((source, points)) = wanted.try_update_value(Option::take).flatten() {
                let owner = owner.clone();
                leptos::task::spawn_local(async move {
                    let _ = super::why::chart_verdicts(owner, source, points, focus).await;
                });
            }
        }
    });
}

/// The y axis switch (tok/s per GPU or total $ per million tokens), shown when a price is given.
fn y_switch(scenario: ReadSignal<Scenario>, set_chart_y: Callback<ChartY>) -> impl IntoView {
    // Follows a price typed in the fleet inputs: the switch appears with the first one.
    let priced = Memo::new(move |_| scenario.with(Scenario::priced));
    move || {
        priced.get().then(|| {
            let y = scenario.with_untracked(|s| s.view.chart_y);
            view! {
                <div class="field chart-y">
                    <label for="chart-y">"y axis"</label>
                    <select
                        id="chart-y"
                        data-testid="chart-y"
                        on:change=move |ev| {
                            set_chart_y.run(if event_target_value(&ev) == "cost" { ChartY::Cost } else { ChartY::PerGpu });
                        }
                    >
                        <option value="per-gpu" selected=y == ChartY::PerGpu>{ChartY::PerGpu.quantity()}</option>
                        <option value="cost" selected=y == ChartY::Cost>{ChartY::Cost.quantity()}</option>
                    </select>
                </div>
            }
        })
    }
}

/// What the chart's download needs besides its markup: the chart's size and the sweep of each
/// series.
struct Export {
    size: (f64, f64),
    series: Vec<usize>,
}

/// Downloads the chart as it is drawn, as a file that reads on its own: the tools module adds
/// its title and legend (`ExportKind::ChartSvg`, with the chart's `export`).
fn download_svg(
    source: Arc<Source>,
    scenario: ReadSignal<Scenario>,
    export: &Export,
    status: RwSignal<String>,
) {
    if let Some(markup) = browser::element_xml("[data-testid=tradeoff-chart]") {
        let kind = ExportKind::ChartSvg {
            markup,
            size: export.size,
            series: export.series.clone(),
        };
        scenario.with_untracked(|s| download(source, s, kind, status));
    }
}

/// The chart's legend: a swatch and label per series (the selected one marked), the frontier
/// and the feasible area.
fn legend(source: &Source, chart: &ChartLayout, current: Option<usize>) -> impl IntoView {
    let items = chart
        .series
        .iter()
        .enumerate()
        .map(|(si, s)| {
            let class = series_class(si);
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
