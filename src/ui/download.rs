//! Downloads written by the tools module (`core::wire::export::export`, off the page's first load):
//! asks for the file's text, then hands it to the browser.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_split_helpers::wasm_split;

use crate::browser;
use crate::core::model::source::Source;
use crate::core::scenario::Scenario;
use crate::core::wire::handoff::ExportKind;
use crate::on_demand::{self, Failed, Job};
use crate::tools_client;

/// Asks the tools module for the file's text (`tools_client::export`), with the code that makes
/// the request, loaded on demand: a download fetches the tools module anyway.
#[wasm_split(on_demand, fallible)]
fn export_job(
    source: Arc<Source>,
    query: String,
    url: String,
    kind: ExportKind,
) -> Result<Job<Result<String, String>>, Failed> {
    Ok(Box::pin(tools_client::export(source, query, url, kind)))
}

/// Downloads `kind` for the scenario as it is now, as `file` of type `mime`; `status` says why
/// when it fails (empty when it worked).
pub fn download(
    source: Arc<Source>,
    scenario: &Scenario,
    kind: ExportKind,
    (file, mime): (&'static str, &'static str),
    status: RwSignal<String>,
) {
    let (query, url) = (scenario.to_query(), browser::href());
    status.set("Writing the file…".into());
    leptos::task::spawn_local(async move {
        let written = on_demand::flattened(export_job(source, query, url, kind)).await;
        status.set(match written {
            Ok(text) if browser::download(file, mime, &text) => String::new(),
            Ok(_) => "The browser refused the download.".into(),
            Err(e) => format!("The file could not be written: {e}"),
        });
    });
}
