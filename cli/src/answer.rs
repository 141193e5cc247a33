//! The answer of `plan` in each output: text, the page's JSON document, the page's
//! side-by-side CSV.

use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::plan::compare::table_rows;
use llm_slo_planner::core::plan::planner::{Plan, Status};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::text::explain::status_text;
use llm_slo_planner::core::wire::export::{compare_csv, keda_yaml, scenario_json_with};

use crate::input::Loaded;
use crate::links::common_link;
use crate::report;
use crate::said::Said;
use crate::select::Planned;

/// The text answer: each deployment's, with its link when `with_links` (or why it has none),
/// then a summary when there are several.
pub fn text_answer(
    source: &Source,
    planned: &[Planned],
    links: &[Result<String, String>],
    with_links: bool,
) -> String {
    let mut text: Vec<String> = planned
        .iter()
        .zip(links)
        .map(|(p, url)| {
            let mut text = report::plan_text(source, p.sweep_index, &p.scenario, &p.plan);
            if with_links {
                let url = url.as_ref().unwrap_or_else(|e| e);
                text.push_str(&report::line(&format!("  Link: {url}")));
            }
            text
        })
        .collect();
    if planned.len() > 1 {
        let rows: Vec<(usize, &Scenario, &Plan)> = planned
            .iter()
            .map(|p| (p.sweep_index, &p.scenario, &p.plan))
            .collect();
        text.push(report::summary_text(source, &rows));
    }
    text.join("\n")
}

/// The keys the command line adds to the page's JSON document: `warnings` (rows and files not
/// used) and `notes`, each `{file, row, flag, text}` as stderr says them.
pub fn said_json(warnings: &[Said], notes: &[Said]) -> serde_json::Map<String, serde_json::Value> {
    let list = |said: &[Said]| serde_json::Value::Array(said.iter().map(Said::json).collect());
    let mut extra = serde_json::Map::new();
    extra.insert("warnings".to_string(), list(warnings));
    extra.insert("notes".to_string(), list(notes));
    extra
}

/// The JSON answer: the page's document for one deployment, an array of them for several, each
/// with its scenario's URL and the command's `warnings` and `notes` ([`said_json`]).
///
/// Errors: the writer's message.
pub fn json_answer(
    source: &Source,
    planned: &[Planned],
    urls: &[String],
    warnings: &[Said],
    notes: &[Said],
) -> Result<String, String> {
    let extra = said_json(warnings, notes);
    planned
        .iter()
        .zip(urls)
        .map(|(p, url)| {
            scenario_json_with(source, &p.scenario, p.sweep_index, &p.plan, url, &extra)
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
        .map(|docs| match docs.as_slice() {
            [one] => format!("{one}\n"),
            _ => format!("[\n{}\n]\n", docs.join(",\n")),
        })
}

/// The autoscaler answer: the page's KEDA ScaledObject of each deployment with a recommended
/// level, YAML documents separated by `---`; a deployment without one is a comment saying so.
///
/// Errors: no deployment has a recommended level (the writer's message).
pub fn keda_answer(
    source: &Source,
    planned: &[Planned],
    urls: &[String],
) -> Result<String, String> {
    let docs: Vec<Result<String, String>> = planned
        .iter()
        .zip(urls)
        .map(|(p, url)| {
            keda_yaml(source, &p.scenario, p.sweep_index, &p.plan, url).map_err(|e| {
                format!(
                    "# {}: {e}\n",
                    report::clean(source.sweep_label(p.sweep_index))
                )
            })
        })
        .collect();
    if docs.iter().all(Result::is_err) {
        // One deployment the data cannot judge: why, as the text answer says it.
        if let [p] = planned {
            if let Status::NoData { .. } = p.plan.status {
                let sweep = &source.sweeps[p.sweep_index];
                let why = status_text(sweep, &p.plan, &p.scenario.slo);
                return Err(format!("no autoscaler: {why}"));
            }
        }
        return Err(llm_slo_planner::core::text::error_text::NO_AUTOSCALER.to_string());
    }
    Ok(docs
        .into_iter()
        .map(|d| d.unwrap_or_else(|comment| comment))
        .collect::<Vec<_>>()
        .join("---\n"))
}

/// The CSV answer: the page's side-by-side table of the first scenario, every model's when the
/// deployments are of several (or `cmp=all`), under the one deployment's URL or, for several,
/// the parameters' common link on `base` (carrying the shared import, `payload`).
///
/// Errors: the writer's message.
pub fn csv_answer(
    planned: &[Planned],
    urls: &[String],
    params: &[(String, String)],
    base: Option<&str>,
    loaded: &Loaded,
    payload: Option<&str>,
) -> Result<String, String> {
    let source = &loaded.source;
    let models: Vec<usize> = planned
        .iter()
        .map(|p| source.sweeps[p.sweep_index].model_index)
        .collect();
    let first = &planned[0].scenario;
    let all_models = first.view.compare_all || models.iter().any(|m| *m != models[0]);
    let url = match planned {
        [_] => urls[0].clone(),
        _ => {
            // Several models: the page's table with the "All models" switch on.
            let mut params = params.to_vec();
            if all_models && !params.iter().any(|(k, _)| k == "cmp") {
                params.push(("cmp".to_string(), "all".to_string()));
            }
            common_link(base, &params, loaded, payload)
        }
    };
    let (rows, _) = table_rows(
        source,
        &first.slo,
        &first.deployment.model_id,
        first.pricing(),
        all_models,
        first.view.compare_sort,
    );
    compare_csv(source, &rows, first, &url).map_err(|e| e.to_string())
}
