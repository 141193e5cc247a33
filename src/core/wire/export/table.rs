//! The side-by-side table as CSV: a row of [`columns`] for each deployment of the comparison,
//! planned and costed.

use crate::core::model::format::url_number;
use crate::core::model::source::Source;
use crate::core::model::sweep::Sweep;
use crate::core::plan::attainment::Attainment;
use crate::core::plan::autoscaler::Autoscaler;
use crate::core::plan::bottleneck::{why, Why};
use crate::core::plan::capacity::{at_recommendation, Capacity};
use crate::core::plan::compare::CompareRow;
use crate::core::plan::cost::{at_recommendation as cost_at, Cost};
use crate::core::plan::period::{period, PeriodFigures};
use crate::core::plan::planner::{Recommendation, Slo};
use crate::core::plan::power::{budget_at, Budgeted, PowerBasis};
use crate::core::scenario::Scenario;
use crate::core::wire::handoff::ExportError;

use super::recommended_attainment;

mod columns;

use columns::cells;
pub use columns::csv_header;

/// A number cell: the shortest text that reads back to the value, with an exponent where plain
/// digits would run long ([`url_number`]: `1e-320`, not 322 digits); empty when absent or not
/// finite (as the JSON writes `null`, never `inf`).
pub(crate) fn num(value: Option<f64>) -> String {
    value
        .filter(|v| v.is_finite())
        .map(url_number)
        .unwrap_or_default()
}

/// A text cell a spreadsheet will not evaluate: text starting with `=`, `+`, `-`, `@`, a tab or
/// a carriage return gets a leading `'` (OWASP's advice against CSV injection). Numbers are
/// written by [`num`] and never pass through here.
pub fn text_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// What one row of the CSV is written from: a deployment of the comparison, planned and costed.
struct CsvRow<'a> {
    source: &'a Source,
    row: &'a CompareRow,
    sweep: &'a Sweep,
    slo: &'a Slo,
    rec: Option<&'a Recommendation>,
    attained: Option<Attainment>,
    cap: Option<Capacity>,
    /// The period's figures, with a load over time (`load`).
    period: Option<PeriodFigures>,
    /// The power budget at the recommended level, with a budget (`power`) it can be planned
    /// under, and its basis.
    power: Option<(Budgeted, PowerBasis)>,
    /// Why the answer stops there, with a recommendation.
    why: Option<Why>,
    /// The autoscaler at the recommended level.
    autoscaler: Option<Autoscaler>,
    /// What a request costs at the recommended level, with a price.
    cost: Option<Cost>,
}

/// The comparison rows as CSV: a first comment line `# scenario: <url>`, the header, one row per
/// deployment, each drawn from [`CSV_COLUMNS`]. Errors: [`ExportError::Writer`], the csv
/// crate's reason (writing to memory does not fail in practice).
pub fn compare_csv(
    source: &Source,
    rows: &[CompareRow],
    scenario: &Scenario,
    scenario_url: &str,
) -> Result<String, ExportError> {
    let slo = &scenario.slo;
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer
        .write_record(csv_header())
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    for row in rows {
        let Some(sweep) = source.sweeps.get(row.sweep_index) else {
            continue;
        };
        let inputs = scenario.capacity_for(&sweep.deployment.gpu);
        let csv_row = CsvRow {
            source,
            row,
            sweep,
            slo,
            rec: row.recommendation.as_ref(),
            attained: recommended_attainment(&row.plan),
            cap: at_recommendation(sweep, &row.plan, slo, &inputs),
            period: scenario
                .fleet
                .load
                .as_ref()
                .zip(row.recommendation.as_ref())
                .map(|(load, rec)| {
                    period(
                        rec,
                        sweep.deployment.num_gpus,
                        load,
                        scenario.fleet.scaling,
                        &inputs,
                    )
                }),
            power: scenario.power_inputs().and_then(|p| {
                let load = scenario
                    .fleet
                    .load
                    .as_ref()
                    .map(|l| (l, scenario.fleet.scaling));
                budget_at(sweep, &row.plan, slo, &p, &inputs, load)?
                    .ok()
                    .map(|b| (b, p.basis))
            }),
            cost: cost_at(sweep, &row.plan, slo, &inputs),
            why: why(sweep, &row.plan),
            autoscaler: scenario.autoscaler(sweep, &row.plan, slo),
        };
        let record = cells(&csv_row);
        writer
            .write_record(record)
            .map_err(|e| ExportError::Writer(e.to_string()))?;
    }
    let body = writer
        .into_inner()
        .map_err(|e| ExportError::Writer(e.to_string()))?;
    let body = String::from_utf8(body).map_err(|e| ExportError::Writer(e.to_string()))?;
    let url = scenario_url.replace(['\r', '\n'], " ");
    Ok(format!("# scenario: {url}\n{body}"))
}
