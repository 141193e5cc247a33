//! The page's side of the tools module (`src/bin/tools.rs`, run in a Web Worker): one typed
//! function per call, so the page never spells a call's name or arguments itself. Each call's
//! name is a [`Call`], and a native test checks that the tools module exports a function of
//! each name. Answers cross as `core::wire::handoff` bytes (or text kept as a page text).
//!
//! The bytes are encoded and decoded in code loaded on demand ([`crate::on_demand`]): the page's
//! first view makes no call, so that code is fetched with the first one, beside the tools
//! module itself.

use wasm_split_helpers::wasm_split;

use crate::browser::{self, PageText, Progress, ToolArg};
use crate::core::import::sources::LegacySplit;
use crate::core::model::source::Source;
use crate::core::wire::handoff::{
    self, Call, ExportKind, ExportRequest, ImportReply, StoredSource,
};
use crate::on_demand::Failed;

/// Decodes a `T` the tools module sent.
fn decoded<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Failed> {
    handoff::decode(bytes).map_err(Failed)
}

/// Decodes a `Result<T, String>` the tools module sent, its error and the decoding's as one.
fn flattened<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Failed> {
    decoded::<Result<T, String>>(bytes).and_then(|r| r.map_err(Failed))
}

#[wasm_split(on_demand, fallible)]
fn decode_source(bytes: Vec<u8>) -> Result<Source, Failed> {
    decoded(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_shared_source(bytes: Vec<u8>) -> Result<Source, Failed> {
    flattened(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_task_source(bytes: Vec<u8>) -> Result<Result<Source, String>, Failed> {
    decoded(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_import_reply(bytes: Vec<u8>) -> Result<ImportReply, Failed> {
    decoded(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_stored_source(bytes: Vec<u8>) -> Result<StoredSource, Failed> {
    flattened(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_legacy_split(bytes: Vec<u8>) -> Result<LegacySplit, Failed> {
    flattened(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn decode_text(bytes: Vec<u8>) -> Result<String, Failed> {
    flattened(&bytes)
}

#[wasm_split(on_demand, fallible)]
fn encode_source(source: &'static Source) -> Result<Vec<u8>, Failed> {
    Ok(handoff::encode(source))
}

#[wasm_split(on_demand, fallible)]
fn encode_export(
    source: &'static Source,
    query: String,
    url: String,
    kind: ExportKind,
) -> Result<Vec<u8>, Failed> {
    Ok(handoff::encode(&ExportRequest {
        source: source.clone(),
        query,
        url,
        kind,
    }))
}

/// Calls `call` and decodes its answer with `decode` (loaded on demand).
async fn answer<T, D: std::future::Future<Output = Result<T, Failed>>>(
    call: Call,
    args: &[ToolArg<'_>],
    decode: impl FnOnce(Vec<u8>) -> D,
) -> Result<T, String> {
    reporting(call, args, decode, None).await
}

/// [`answer`], with the call's progress reports going to `progress`.
async fn reporting<T, D: std::future::Future<Output = Result<T, Failed>>>(
    call: Call,
    args: &[ToolArg<'_>],
    decode: impl FnOnce(Vec<u8>) -> D,
    progress: Option<&Progress>,
) -> Result<T, String> {
    let bytes = browser::call_tools(call.name(), args, progress).await?;
    decode(bytes).await.map_err(|f| f.0)
}

/// Calls `call`, whose answer is a `Result<String, String>` (the file written, the payload made),
/// and flattens the two errors (the call's, and the tools module's own).
async fn text(call: Call, args: &[ToolArg<'_>]) -> Result<String, String> {
    answer(call, args, decode_text).await
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
    answer(
        Call::ParseTaskFile,
        &[ToolArg::Text(text)],
        decode_task_source,
    )
    .await
}

/// The reference systems' source (`core::import::reference`, kept in the tools module).
///
/// Errors: why the tools module did not answer.
pub async fn reference_source() -> Result<Source, String> {
    answer(Call::ReferenceSource, &[], decode_source).await
}

/// The whole bundled source (the page holds its default model family from the start).
///
/// Errors: why the tools module did not answer.
pub async fn bundled_source() -> Result<Source, String> {
    answer(Call::BundledSource, &[], decode_source).await
}

/// Imports files (names and texts in the same order), with the import dialog's model for files
/// that state none. The reply holds the import's id, its sweeps if any row was usable, what the
/// import panel shows of it, and which files were read (the tools module checks their sizes
/// first: a file over the limits is never read). How much of the large files that are read as
/// a stream has been read goes to `progress` now and then.
///
/// Errors: only when the tools module did not answer.
pub async fn import_files(
    names: &[String],
    texts: &[PageText],
    model: Option<&str>,
    progress: &Progress,
) -> Result<ImportReply, String> {
    reporting(
        Call::ImportFiles,
        &[
            ToolArg::Texts(names),
            ToolArg::Pages(texts),
            ToolArg::MaybeText(model),
        ],
        decode_import_reply,
        Some(progress),
    )
    .await
}

/// Re-reads one stored import (the text under its own storage key).
///
/// Errors: why it cannot be read (the page leaves the entry as it is).
pub async fn stored_source(text: &PageText) -> Result<StoredSource, String> {
    answer(
        Call::StoredSource,
        &[ToolArg::Page(text)],
        decode_stored_source,
    )
    .await
}

/// Splits an earlier version's array of stored imports into one entry per import.
///
/// Errors: when the array cannot be read at all.
pub async fn split_legacy_imports(text: &PageText) -> Result<LegacySplit, String> {
    answer(
        Call::SplitLegacyImports,
        &[ToolArg::Page(text)],
        decode_legacy_split,
    )
    .await
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
pub async fn share_encode(source: &'static Source) -> Result<String, String> {
    let bytes = encode_source(source).await.map_err(|f| f.0)?;
    text(Call::ShareEncode, &[ToolArg::Bytes(&bytes)]).await
}

/// The source a `#sweep=` payload holds.
///
/// Errors: why the payload cannot be read (damaged, over a limit, another version).
pub async fn share_decode(payload: &str) -> Result<Source, String> {
    answer(
        Call::ShareDecode,
        &[ToolArg::Text(payload)],
        decode_shared_source,
    )
    .await
}

/// The text of a download (CSV or JSON) of `kind` for the scenario of `query` (a link's query)
/// on `source` shown at `url`, written by the tools module.
///
/// Errors: why it could not be written, or why the tools module did not answer.
pub async fn export(
    source: &'static Source,
    query: String,
    url: String,
    kind: ExportKind,
) -> Result<String, String> {
    let bytes = encode_export(source, query, url, kind)
        .await
        .map_err(|f| f.0)?;
    text(Call::Export, &[ToolArg::Bytes(&bytes)]).await
}
