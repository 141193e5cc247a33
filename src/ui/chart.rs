//! The trade-off chart: draws `core::chart::layout` as SVG. No geometry is computed here.

use leptos::ev;
use leptos::prelude::*;

use super::chart_svg::{svg, Marks};
use crate::browser;
use crate::core::campaigns::{is_grouped, menu_entries, shown};
use crate::core::chart::{layout, ChartLayout, SeriesInput};
use crate::core::chart_text::{
    chart_width, drawn_series, export_title, readout, standalone_svg, summary, ChartY, HEIGHT,
    MAX_SERIES, SERIES_CLASSES,
};
use crate::core::planner::Plan;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;

/// Per-user tok/s against tok/s per GPU for every deployment of the selected model.
#[component]
pub fn TradeoffChart(
    source: &'static Source,
    scenario: ReadSignal<Scenario>,
    result: Memo<Option<(usize, Plan)>>,
    open_sweep: Callback<usize>,
    /// Sets what the y axis shows (the switch above the chart).
    set_chart_y: Callback<ChartY>,
) -> impl IntoView {
    let width = RwSignal::new(chart_width(browser::viewport_width()));
    let handle = window_event_listener(ev::resize, move |_| {
        width.set(chart_width(browser::viewport_width()));
    });
    on_cleanup(move || handle.remove());
    let focus = RwSignal::new(None::<(usize, usize)>);

    let selected = Memo::new(move |_| result.with(|r| r.as_ref().map(|(i, _)| *i)));
    let chart = Memo::new(move |_| {
        let (model_id, stat, target_tps, y) = scenario.with(|s| {
            (
                s.model_id.clone(),
                s.stat,
                s.target.tokens_per_second(),
                s.drawn_chart_y(),
            )
        });
        let model = source.model_index(&model_id)?;
        // Many sweeps: the newest campaign of each configuration (or the selected one).
        let all = shown(
            &menu_entries(source, &source.sweeps_of(model)),
            selected.get(),
        );
        let drawn = drawn_series(source, &all, selected.get(), stat);
        // On the cost axis, a deployment whose GPU type has no price is not drawn (said below).
        let input: Vec<SeriesInput> = drawn
            .into_iter()
            .filter(|&i| {
                y != ChartY::Cost
                    || scenario.with(|s| s.gpu_priced(&source.sweeps[i].deployment.gpu))
            })
            .map(|i| {
                let sweep = &source.sweeps[i];
                let inputs = scenario.with(|s| s.capacity_for(&sweep.deployment.gpu));
                let points = sweep
                    .levels()
                    .iter()
                    .filter_map(|l| {
                        Some((
                            l.level,
                            l.user_tps(stat)?,
                            y.value(sweep, l.throughput_tok_s, l.energy_per_token_j, &inputs)?,
                        ))
                    })
                    .collect();
                (i, points)
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
        let current = selected.get();
        let model_sweeps =
            current.map_or_else(Vec::new, |i| source.sweeps_of(source.sweeps[i].model_index));
        let y = scenario.with_untracked(Scenario::drawn_chart_y);
        // The GPU types of this model's deployments left off the cost axis for want of a price.
        let unpriced_gpus: Vec<&str> = if y == ChartY::Cost {
            scenario.with_untracked(|s| {
                model_sweeps
                    .iter()
                    .map(|&i| source.sweeps[i].deployment.gpu.as_str())
                    .filter(|gpu| !s.gpu_priced(gpu))
                    .collect()
            })
        } else {
            Vec::new()
        };
        let unpriced_count = unpriced_gpus.len();
        // Each type once, in the order first met.
        let unpriced: Vec<&str> = unpriced_gpus
            .iter()
            .enumerate()
            .filter(|(k, gpu)| !unpriced_gpus[..*k].contains(gpu))
            .map(|(_, gpu)| *gpu)
            .collect();
        let unpriced_note = (unpriced_count > 0).then(|| {
            format!(
                "{unpriced_count} deployment{} of this model {} not drawn on the cost axis: no GPU price is given for {} (electricity alone does not cost a deployment).",
                if unpriced_count == 1 { "" } else { "s" },
                if unpriced_count == 1 { "is" } else { "are" },
                unpriced.join(", "),
            )
        });
        if chart.series.iter().all(|s| s.points.is_empty()) {
            if let Some(note) = unpriced_note {
                return Some(view! {
                    <section class="chart">
                        <h2>{y.heading()}</h2>
                        {y_switch(scenario, set_chart_y)}
                        <p class="hint" data-testid="chart-empty">{format!("No chart: {note}")}</p>
                    </section>
                }
                .into_any());
            }
            return Some(view! {
                <section class="chart">
                    <h2>{scenario.with_untracked(Scenario::drawn_chart_y).heading()}</h2>
                    {y_switch(scenario, set_chart_y)}
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
        let of_model = model_sweeps.len();
        let not_drawn = of_model.saturating_sub(chart.series.len() + unpriced_count);
        let grouped = is_grouped(of_model);
        let summary = summary(source, &chart, stat.short_label(), y);
        let chart_for_export = chart.clone();
        let chart_for_readout = chart.clone();
        Some(view! {
            <section class="chart" aria-labelledby="chart-title">
                <h2 id="chart-title">{y.heading()}</h2>
                {y_switch(scenario, set_chart_y)}
                <div class="chart-box">
                    {svg(source, scenario, &chart, Marks { current, target, recommended }, focus, open_sweep)}
                </div>
                <p class="chart-readout" aria-live="polite" data-testid="chart-readout">
                    {move || readout(source, &chart_for_readout, focus.get(), stat.short_label(), y)}
                </p>
                <Legend source=source chart=chart.clone() current=current />
                {(not_drawn > 0).then(|| view! {
                    <p class="hint" data-testid="chart-more">
                        {format!(
                            "{not_drawn} more deployments of this model are not drawn: the chart shows this one and the {} with the highest tok/s per GPU{}; the side-by-side table lists them all.",
                            MAX_SERIES - 1,
                            if grouped { " among the newest campaign of each configuration (older campaigns are in the campaign menu)" } else { "" },
                        )}
                    </p>
                })}
                {unpriced_note.map(|note| view! { <p class="hint" data-testid="chart-unpriced">{note}</p> })}
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

/// The y axis switch (tok/s per GPU or total $ per million tokens), shown when a price is given.
fn y_switch(
    scenario: ReadSignal<Scenario>,
    set_chart_y: Callback<ChartY>,
) -> Option<impl IntoView> {
    let (priced, y) = scenario.with_untracked(|s| (s.priced(), s.chart_y));
    priced.then(|| {
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
                    <option value="per-gpu" selected=y == ChartY::PerGpu>"output tok/s per GPU"</option>
                    <option value="cost" selected=y == ChartY::Cost>"total $ per M output tokens"</option>
                </select>
            </div>
        }
    })
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
