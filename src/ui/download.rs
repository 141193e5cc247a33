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

/// A file written for download: its name and text, or why it could not be written.
type Written = Result<(String, String), String>;

/// Asks the tools module for the file's text (`tools_client::export`), with its name for
/// `scenario` (`what` it holds, `extension`: [`download_name`]); the code that makes the request
/// is loaded on demand: a download fetches the tools module anyway.
#[wasm_split(on_demand, fallible)]
fn export_job(
    source: Arc<Source>,
    scenario: Scenario,
    url: String,
    kind: ExportKind,
    (what, extension): (&'static str, &'static str),
) -> Result<Job<Written>, Failed> {
    let name = download_name(&scenario, what, extension);
    let query = scenario.to_query();
    Ok(Box::pin(async move {
        tools_client::export(source, query, url, kind)
            .await
            .map(|text| (name, text))
    }))
}

/// Downloads `kind` for the scenario as it is now, as a file of `what` it holds, its `extension`
/// and `mime` type, named for the scenario; `status` says why when it fails (empty when it
/// worked).
pub fn download(
    source: Arc<Source>,
    scenario: &Scenario,
    kind: ExportKind,
    (what, extension, mime): (&'static str, &'static str, &'static str),
    status: RwSignal<String>,
) {
    let (scenario, url) = (scenario.clone(), browser::href());
    status.set("Writing the file…".into());
    leptos::task::spawn_local(async move {
        let written =
            on_demand::flattened(export_job(source, scenario, url, kind, (what, extension))).await;
        status.set(match written {
            Ok((file, text)) if browser::download(&file, mime, &text) => String::new(),
            Ok(_) => "The browser refused the download.".into(),
            Err(e) => format!("The file could not be written: {e}"),
        });
    });
}
