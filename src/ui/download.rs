//! Downloads written by the tools module (`core::export::export`, off the page's first load):
//! asks for the file's text, then hands it to the browser.

use leptos::prelude::*;

use crate::browser;
use crate::core::handoff::ExportKind;
use crate::core::scenario::Scenario;
use crate::core::sweep::Source;
use crate::tools_client;

/// Downloads `kind` for the scenario as it is now, as `file` of type `mime`; `status` says why
/// when it fails (empty when it worked).
pub fn download(
    source: &'static Source,
    scenario: &Scenario,
    kind: ExportKind,
    (file, mime): (&'static str, &'static str),
    status: RwSignal<String>,
) {
    let (query, url) = (scenario.to_query(), browser::href());
    status.set("Writing the file…".into());
    leptos::task::spawn_local(async move {
        status.set(match tools_client::export(source, query, url, kind).await {
            Ok(text) if browser::download(file, mime, &text) => String::new(),
            Ok(_) => "The browser refused the download.".into(),
            Err(e) => format!("The file could not be written: {e}"),
        });
    });
}
