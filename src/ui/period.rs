//! The period: with a load over time (`load`), the fleet step by step at the recommended level
//! (`core::plan::period`): its figures with their formulas on hover, the chart of the load and
//! the replicas over the period, and every deployment's cost over it side by side. Its code is
//! loaded on demand, when a load is first given.

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use super::capacity::{escape_dismisses, item};
use super::plan_shown::PlanShown;
use crate::browser;
use crate::core::model::format::{grouped, money, trimmed};
use crate::core::model::source::Source;
use crate::core::plan::period::day_chart::{day_chart, DayChart, StepPlot, HEIGHT};
use crate::core::plan::period::side_by_side::{cheapest_per_day, day_rows, DayRow};
use crate::core::plan::period::{period, LoadProfile, PeriodFigures};
use crate::core::text::chart_text::chart_width;
use crate::core::text::period_text::{
    cheapest_note, not_sized, period_figures, period_heading, PeriodInputs, ENERGY_NOTE,
};
use crate::on_demand::{self, Drawn, Failed, Holder};

/// The panel, once the scenario has a load over time: an empty element its code, loaded on
/// demand, draws into.
#[component]
pub fn Period(shown: PlanShown) -> impl IntoView {
    let scenario = shown.scenario;
    let wanted = Memo::new(move |_| scenario.with(|s| s.fleet.load.is_some()));
    on_demand::while_wanted(
        wanted,
        Holder {
            id: HOLDER,
            lost: "The period cannot be drawn",
        },
        "Loading the period…",
        move |owner| panel_view(owner, shown.clone()),
    )
}

/// The id of the element the panel is drawn into.
const HOLDER: &str = "period";

/// Draws the panel into the [`HOLDER`] element under `owner` ([`on_demand::draw_in`]), with its
/// code (loaded on demand).
#[wasm_split(on_demand, fallible)]
fn panel_view(owner: Option<Owner>, shown: PlanShown) -> Result<Option<Drawn>, Failed> {
    Ok(on_demand::draw_in(owner, HOLDER, move || panel(shown)))
}

/// The figures, the chart and the side-by-side table for the shown scenario.
fn panel(shown: PlanShown) -> impl IntoView {
    let dismissed = escape_dismisses();
    move || {
        let (i, plan, s) = shown.now()?;
        let source = &shown.source;
        let load = s.fleet.load.as_ref()?;
        let sweep = &source.sweeps[i];
        let slo = s.slo.clone();
        let inputs = s.capacity_for(&sweep.deployment.gpu);
        let num_gpus = sweep.deployment.num_gpus;
        let Some(rec) = plan.recommendation(sweep, &slo) else {
            return Some(view! {
                <section class="period" aria-labelledby="period-title" data-testid="period">
                    <h2 id="period-title">"Over the period"</h2>
                    <p class="hint" data-testid="period-none">"No level meets the SLO on this deployment, so nothing is sized over the period."</p>
                </section>
            }.into_any());
        };
        let f = period(&rec, num_gpus, load, s.fleet.scaling, &inputs);
        let rows = day_rows(
            source,
            &slo,
            &s.deployment.model_id,
            s.pricing(),
            load,
            s.fleet.scaling,
        );
        let figures = period_figures(
            &f,
            &PeriodInputs {
                load,
                scaling: s.fleet.scaling,
                rec: &rec,
                num_gpus,
                inputs: &inputs,
            },
        );
        let note = not_sized(&f, load.kind).or(f.energy_kwh.is_some().then_some(ENERGY_NOTE));
        Some(view! {
            <section class="period" aria-labelledby="period-title" data-testid="period">
                <h2 id="period-title">"Over the period"</h2>
                <p class="hint" data-testid="period-heading">{period_heading(&f, load, s.fleet.scaling)}"."</p>
                <dl class="figures">{figures.into_iter().map(|f| item(f, dismissed)).collect_view()}</dl>
                {note.map(|n| view! { <p class="hint">{n}</p> })}
                {chart(load, &f)}
                {side_by_side(source, &rows, i, s.pricing().priced())}
            </section>
        }.into_any())
    }
}

/// The chart of the load and the replicas over the period, the peak marked, with its words for
/// a screen reader; as wide as the trade-off chart (at most `WIDTH`), so that its text is drawn
/// at its size on a narrow screen.
fn chart(load: &LoadProfile, f: &PeriodFigures) -> impl IntoView {
    let c = day_chart(load, f, chart_width(browser::viewport_width()));
    let summary = format!(
        "{} values of {} min; {}.",
        grouped(load.values.len() as f64, 0),
        trimmed(load.step_min, 4),
        c.peak
            .as_ref()
            .map_or("replicas not sized", |p| p.label.as_str()),
    );
    view! {
        <div class="chart-box period-chart">
            <svg
                data-testid="period-chart"
                role="img"
                aria-labelledby="period-chart-title period-chart-summary"
                width=c.width
                height=HEIGHT
                viewBox=format!("0 0 {} {HEIGHT}", c.width)
            >
                <title id="period-chart-title">"The load and the replicas it needs over the period"</title>
                {plot(&c, &c.load, "load-line")}
                {plot(&c, &c.replicas, "replicas-line")}
                {c.hours.iter().map(|t| view! {
                    <text class="tick" x=t.pos y=c.replicas.bottom + 20.0 text-anchor="middle">{t.label.clone()}</text>
                }).collect_view()}
                {c.peak.as_ref().map(|p| view! {
                    <g data-testid="period-peak">
                        <circle class="peak" cx=p.x cy=p.y r=5.0 />
                        <text class="peak-label" x=c.right y=p.label_y text-anchor="end">{p.label.clone()}</text>
                    </g>
                })}
            </svg>
        </div>
        <p class="hint" id="period-chart-summary" data-testid="period-chart-summary">{summary}</p>
    }
}

/// One plot: its frame, value ticks, title and steps.
fn plot(c: &DayChart, p: &StepPlot, class: &'static str) -> impl IntoView {
    view! {
        <g>
            <text class="axis-label" x=c.left y=p.top - 4.0>{p.title.clone()}</text>
            {p.ticks.iter().map(|t| view! {
                <line class="grid" x1=c.left x2=c.right y1=t.pos y2=t.pos />
                <text class="tick" x=c.left - 6.0 y=t.pos + 4.0 text-anchor="end">{t.label.clone()}</text>
            }).collect_view()}
            <path class=class d=p.path.clone() data-testid=class />
        </g>
    }
}

/// The side-by-side table's columns after the deployment's; each cell also carries its column's
/// name, shown beside it where the rows are stacked (a narrow screen).
const COLUMNS: [&str; 5] = [
    "peak GPUs",
    "mean GPUs",
    "GPU-hours per day",
    "$ per day",
    "$ per hour at the peak",
];

/// Every deployment's period side by side, the shown one marked, and the cheapest per day.
fn side_by_side(source: &Source, rows: &[DayRow], shown: usize, priced: bool) -> impl IntoView {
    let cheapest = cheapest_per_day(rows).map(|r| r.row.sweep_index);
    let cell = |v: Option<String>| v.unwrap_or_else(|| "not reported".into());
    let body = rows
        .iter()
        .map(|r| {
            let f = r.figures.as_ref();
            let deployment = source.sweep_label(r.row.sweep_index).to_string();
            let peak = f.and_then(|f| f.peak_gpus).map(|g| grouped(g as f64, 0));
            let mean = f.and_then(|f| f.mean_gpus).map(|m| trimmed(m, 3));
            let hours = f.and_then(|f| f.gpu_hours.map(|h| trimmed(f.per_day(h), 4)));
            // A deployment whose GPU type has no price is not costed: it says so.
            let unpriced = (!r.gpu_priced && f.is_some()).then(|| "no GPU price".to_string());
            let usd = r.usd_per_day().map(money).or(unpriced.clone());
            let at_peak = r.peak_usd_per_hour.map(money).or(unpriced);
            let mark = if r.row.sweep_index == cheapest.unwrap_or(usize::MAX) && rows.len() > 1 {
                " (cheapest per day)"
            } else {
                ""
            };
            let none = r
                .figures
                .is_none()
                .then(|| "none: no level meets".to_string());
            view! {
                <tr class:current=r.row.sweep_index == shown data-testid="period-row">
                    <th scope="row">{deployment}{mark}</th>
                    <td class="num" data-label=COLUMNS[0]>{none.clone().unwrap_or_else(|| cell(peak))}</td>
                    <td class="num" data-label=COLUMNS[1]>{cell(mean)}</td>
                    <td class="num" data-label=COLUMNS[2]>{cell(hours)}</td>
                    <td class="num" data-label=COLUMNS[3] data-testid="period-row-usd">{cell(usd)}</td>
                    <td class="num" data-label=COLUMNS[4]>{cell(at_peak)}</td>
                </tr>
            }
        })
        .collect_view();
    let note = cheapest_note(source, rows).unwrap_or_else(|| {
        if priced {
            "No deployment that meets has a GPU price, so none is named cheapest."
        } else {
            "Enter a price per GPU-hour to compare each deployment's cost per day."
        }
        .to_string()
    });
    view! {
        <h3>"Every deployment over the period"</h3>
        <div class="table-scroll stacks" tabindex="0" role="region" aria-label="Every deployment over the period: table">
            <table data-testid="period-compare">
                <thead>
                    <tr>
                        <th scope="col">"deployment"</th>
                        {COLUMNS.into_iter().map(|c| view! { <th scope="col" class="num">{c}</th> }).collect_view()}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
        <p class="hint" data-testid="period-cheapest">{note}</p>
    }
}
