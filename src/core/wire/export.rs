//! Downloads: the side-by-side table as CSV, the scenario with its results as JSON and the chart
//! as SVG. Numbers are written unrounded (Rust's `{}` for f64); a value that is absent is an
//! empty CSV cell or a JSON `null`, never 0. Writing uses the `csv` and `serde_json` crates. The
//! tools module runs them ([`export`]), so the page's first load carries none of the writers.
//! One file a job: the CSV (`table`), the JSON document (`json`) with its `result` (`result`,
//! `capacity`, `period`); the chart's file is written here from `core::text::chart_file`.

mod capacity;
pub mod comparison;
mod cost;
mod json;
mod keda;
mod period;
mod power;
mod result;
mod table;
mod why;

use crate::core::plan::attainment::Attainment;
use crate::core::plan::compare::table_rows;
use crate::core::plan::planner::{plan, Plan};
use crate::core::scenario::Scenario;
use crate::core::text::chart_file::{standalone_svg, ChartFile};
use crate::core::text::chart_text::{charted, export_title, left_off_notes, series_class};
use crate::core::wire::handoff::{ExportError, ExportKind, ExportRequest};
pub use json::{scenario_json, scenario_json_with};
pub use keda::keda_yaml;
pub use table::{compare_csv, csv_header, text_cell};

/// The attainment at the recommended level, under `attain`.
fn recommended_attainment(plan: &Plan) -> Option<Attainment> {
    plan.verdicts.get(plan.recommended?)?.attainment
}

/// Writes the file an [`ExportRequest`] asks for (run in the tools module): the scenario read
/// back from its query, planned again on the same source.
///
/// Errors: a deployment index that is not in the source, chart markup that is not an SVG
/// element, or the writers' reasons ([`ExportError`]).
pub fn export(request: &ExportRequest) -> Result<String, ExportError> {
    let source = &request.source;
    let (scenario, _) = Scenario::from_query(&request.query, source);
    // The deployment `i` planned at the scenario's SLO.
    let planned = |i: usize| {
        let sweep = source.sweeps.get(i).ok_or(ExportError::NoSuchDeployment)?;
        Ok(plan(sweep, &scenario.slo))
    };
    match request.kind {
        ExportKind::ScenarioJson { sweep_index } => {
            let plan = planned(sweep_index)?;
            scenario_json(source, &scenario, sweep_index, &plan, &request.url)
        }
        ExportKind::KedaYaml { sweep_index } => {
            let plan = planned(sweep_index)?;
            keda_yaml(source, &scenario, sweep_index, &plan, &request.url)
        }
        ExportKind::CompareCsv { all_models, sort } => {
            let (rows, _) = table_rows(
                source,
                &scenario.slo,
                &scenario.deployment.model_id,
                scenario.pricing(),
                all_models,
                sort,
            );
            compare_csv(source, &rows, &scenario, &request.url)
        }
        ExportKind::ChartSvg {
            ref markup,
            size,
            ref series,
        } => {
            let legend = series
                .iter()
                .enumerate()
                .map(|(i, &s)| {
                    source
                        .sweeps
                        .get(s)
                        .map(|_| (source.sweep_label(s).to_string(), series_class(i)))
                        .ok_or(ExportError::NoSuchDeployment)
                })
                .collect::<Result<Vec<_>, _>>()?;
            // What the page says beside the chart of what it leaves out, said in the file too.
            let notes: Vec<String> = source
                .model_index(&scenario.deployment.model_id)
                .map(|model| {
                    let c = charted(source, &scenario, model, scenario.sweep_index(source));
                    let (more, unpriced) = left_off_notes(source, &c);
                    more.into_iter().chain(unpriced).collect()
                })
                .unwrap_or_default();
            standalone_svg(&ChartFile {
                markup,
                size,
                title: &export_title(source, &scenario),
                legend: &legend,
                notes: &notes,
            })
            .ok_or(ExportError::NotSvg)
        }
    }
}

#[cfg(test)]
mod tests;
