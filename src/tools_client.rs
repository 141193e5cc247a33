//! The page's side of the tools module (`src/bin/tools.rs`, run in a Web Worker): one typed
//! function per call, so the page never spells a call's name or arguments itself. Each call's
//! name is a [`Call`], and a native test checks that the tools module exports a function of
//! each name. Answers cross as `core::handoff` bytes (or text kept as a page text).

use crate::browser::{self, PageText, ToolArg};
use crate::core::handoff::{self, Call, ExportRequest, ImportReply, StoredSource};
use crate::core::sources::LegacySplit;
use crate::core::sweep::Source;

/// Calls `call` and decodes its answer.
async fn answer<T: serde::de::DeserializeOwned>(
    call: Call,
    args: &[ToolArg<'_>],
) -> Result<T, String> {
    handoff::decode(&browser::call_tools(call.name(), args).await?)
}

/// Calls `call`, whose answer is `Result<T, String>`, and flattens the two errors (the call's,
/// and the tools module's own).
async fn result<T: serde::de::DeserializeOwned>(
    call: Call,
    args: &[ToolArg<'_>],
) -> Result<T, String> {
    answer::<Result<T, String>>(call, args)
        .await
        .and_then(|r| r)
}

/// Starts the tools module (in its worker) if it is not running, for a caller that will need it
/// after another fetch.
pub fn start() {
    browser::start_loading_tools();
}

/// Parses an ML.ENERGY task file (another bundled workload): the source, or why the text is
/// not a task file.
///
/// Errors: why the tools module did not answer.
pub async fn parse_task_file(text: &str) -> Result<Result<Source, String>, String> {
    answer(Call::ParseTaskFile, &[ToolArg::Text(text)]).await
}

/// The reference systems' source (`core::reference`, kept in the tools module).
///
/// Errors: why the tools module did not answer.
pub async fn reference_source() -> Result<Source, String> {
    answer(Call::ReferenceSource, &[]).await
}

/// The whole bundled source (the page holds its default model family from the start).
///
/// Errors: why the tools module did not answer.
pub async fn bundled_source() -> Result<Source, String> {
    answer(Call::BundledSource, &[]).await
}

/// Imports files (names and texts in the same order), with the import dialog's model for files
/// that state none; the reply holds the import's id, each file's format, and the source or the
/// problems.
///
/// Errors: only when the tools module did not answer.
pub async fn import_files(
    names: &[String],
    texts: &[PageText],
    model: Option<&str>,
) -> Result<ImportReply, String> {
    answer(
        Call::ImportFiles,
        &[
            ToolArg::Texts(names),
            ToolArg::Pages(texts),
            ToolArg::MaybeText(model),
        ],
    )
    .await
}

/// Re-reads one stored import (the text under its own storage key).
///
/// Errors: why it cannot be read (the page leaves the entry as it is).
pub async fn stored_source(text: &PageText) -> Result<StoredSource, String> {
    result(Call::StoredSource, &[ToolArg::Page(text)]).await
}

/// Splits an earlier version's array of stored imports into one entry per import.
///
/// Errors: when the array cannot be read at all.
pub async fn split_legacy_imports(text: &PageText) -> Result<LegacySplit, String> {
    result(Call::SplitLegacyImports, &[ToolArg::Page(text)]).await
}

/// The text to keep in storage for an import (its id, files and the dialog's model), kept as a
/// page text.
///
/// Errors: only when the tools module did not answer.
pub async fn store_entry(
    id: &str,
    names: &[String],
    texts: &[PageText],
    model: Option<&str>,
) -> Result<PageText, String> {
    browser::call_tools_text(
        Call::StoreEntry.name(),
        &[
            ToolArg::Text(id),
            ToolArg::Texts(names),
            ToolArg::Pages(texts),
            ToolArg::MaybeText(model),
        ],
    )
    .await
}

/// A source's `#sweep=` payload.
///
/// Errors: why it cannot be shared (over the link's size limit), or why the tools module did not
/// answer.
pub async fn share_encode(source: &Source) -> Result<String, String> {
    result(
        Call::ShareEncode,
        &[ToolArg::Bytes(&handoff::encode(source))],
    )
    .await
}

/// The source a `#sweep=` payload holds.
///
/// Errors: why the payload cannot be read (damaged, over a limit, another version).
pub async fn share_decode(payload: &str) -> Result<Source, String> {
    result(Call::ShareDecode, &[ToolArg::Text(payload)]).await
}

/// The text of a download (CSV or JSON), written by the tools module.
///
/// Errors: why it could not be written, or why the tools module did not answer.
pub async fn export(request: &ExportRequest) -> Result<String, String> {
    result(Call::Export, &[ToolArg::Bytes(&handoff::encode(request))]).await
}
