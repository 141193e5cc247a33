//! Downloads written by the tools module (`core::wire::export::export`, off the page's first load):
//! asks for the file's text, then hands it to the browser.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use crate::browser;
use crate::core::model::source::Source;
use crate::core::scenario::Scenario;
use crate::core::text::download_name::download_name;
use crate::core::wire::handoff::ExportKind;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

/// A file the page offers for download: what it holds (the start of its name, see
/// [`download_name`]), its extension and its MIME type.
#[derive(Clone, Copy)]
struct FileKind {
    /// What it holds, e.g. `scenario`.
    what: &'static str,
    /// Its extension, e.g. `json`.
    extension: &'static str,
    /// Its MIME type, e.g. `application/json`.
    mime: &'static str,
}

/// The scenario and its answer, as JSON.
const SCENARIO_JSON: FileKind = FileKind {
    what: "scenario",
    extension: "json",
    mime: "application/json",
};

/// The autoscaler's KEDA manifest.
const KEDA_YAML: FileKind = FileKind {
    what: "autoscaler",
    extension: "yaml",
    mime: "application/yaml",
};

/// The deployments side by side, as CSV.
const DEPLOYMENTS_CSV: FileKind = FileKind {
    what: "deployments",
    extension: "csv",
    mime: "text/csv",
};

/// The trade-off chart, as SVG.
const CHART_SVG: FileKind = FileKind {
    what: "chart",
    extension: "svg",
    mime: "image/svg+xml",
};

/// The file `kind` is downloaded as.
fn file_of(kind: &ExportKind) -> FileKind {
    match kind {
        ExportKind::ScenarioJson { .. } => SCENARIO_JSON,
        ExportKind::CompareCsv { .. } => DEPLOYMENTS_CSV,
        ExportKind::KedaYaml { .. } => KEDA_YAML,
        ExportKind::ChartSvg { .. } => CHART_SVG,
    }
}

/// Asks the tools module for the file's text (`tools_client::export`), named for `scenario`
/// (what the file holds, its extension: [`download_name`]), and hands it to the browser: what
/// the download's status says (empty when it worked). The code that makes the request is loaded
/// on demand: a download fetches the tools module anyway.
#[wasm_split(on_demand, fallible)]
fn export_job(
    source: Arc<Source>,
    scenario: Scenario,
    url: String,
    kind: ExportKind,
) -> Result<Job<String>, Failed> {
    let file = file_of(&kind);
    let name = download_name(&scenario, file.what, file.extension);
    let query = scenario.to_query();
    Ok(Box::pin(async move {
        match tools_client::export(source, query, url, kind).await {
            Ok(text) if browser::download(&name, file.mime, &text) => String::new(),
            Ok(_) => "The browser refused the download.".into(),
            Err(e) => format!("The file could not be written: {e}"),
        }
    }))
}

/// Downloads `kind` for the scenario as it is now, as a file of its kind, named for the
/// scenario; `status` says why when it fails (empty when it worked).
pub fn download(
    source: Arc<Source>,
    scenario: &Scenario,
    kind: ExportKind,
    status: RwSignal<String>,
) {
    let (scenario, url) = (scenario.clone(), browser::href());
    status.set("Writing the file…".into());
    leptos::task::spawn_local(async move {
        let said = on_demand::finished(export_job(source, scenario, url, kind)).await;
        status.set(said.unwrap_or_else(|Failed(e)| format!("The file could not be written: {e}")));
    });
}
