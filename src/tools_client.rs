//! The page's side of the tools module (`src/bin/tools.rs`, run in a Web Worker): one typed
//! function per call, so the page never spells a call's name or arguments itself. The calls are
//! declared once (`core::wire::calls`): each call's arguments are a struct of [`args`] made
//! from that list, with named fields, handed over in the order the tools module takes them.
//! Answers cross as `core::wire::handoff` bytes (or text kept as a page text).
//!
//! The bytes are encoded and decoded in code loaded on demand ([`crate::on_demand`]): the page's
//! first view makes no call, so that code is fetched with the first one, beside the tools
//! module itself.

use std::sync::Arc;

use wasm_split_helpers::wasm_split;

use crate::browser::{self, PageText, Progress};
use crate::core::import::sources::LegacySplit;
use crate::core::model::source::Source;
use crate::core::wire::handoff::{self, ExportKind, ExportRequest, ImportReply, StoredSource};
use crate::on_demand::Failed;
use args::Args;

/// The arguments of each call of the tools module, one struct per call, made from the list of
/// calls (`core::wire::calls`): a field per argument, named and typed by its kind.
pub mod args {
    use crate::browser::{PageText, ToolArg};
    use crate::core::wire::calls::Call;

    /// The arguments of one call.
    pub trait Args {
        /// The call they are for.
        const CALL: Call;
        /// The arguments in the order the tools module takes them.
        fn list(&self) -> Vec<ToolArg<'_>>;
    }

    /// The type the page hands an argument of kind `$kind` as (see `core::wire::calls`).
    macro_rules! page_type {
        ($l:lifetime, Text) => { &$l str };
        ($l:lifetime, MaybeText) => { Option<&$l str> };
        ($l:lifetime, Texts) => { &$l [String] };
        ($l:lifetime, Bytes) => { &$l [u8] };
        ($l:lifetime, Page) => { &$l PageText };
        ($l:lifetime, Pages) => { &$l [PageText] };
    }

    /// One call's struct and its [`Args`].
    macro_rules! call_args {
        ($(#[$doc:meta])* $variant:ident $name:ident ()) => {
            $(#[$doc])*
            pub struct $variant;

            impl Args for $variant {
                const CALL: Call = Call::$variant;
                fn list(&self) -> Vec<ToolArg<'_>> {
                    Vec::new()
                }
            }
        };
        ($(#[$doc:meta])* $variant:ident $name:ident ($($arg:ident : $kind:ident),+)) => {
            $(#[$doc])*
            pub struct $variant<'a> {
                $(
                    #[doc = concat!("`", stringify!($arg), "`, a `", stringify!($kind), "`.")]
                    pub $arg: page_type!('a, $kind),
                )+
            }

            impl Args for $variant<'_> {
                const CALL: Call = Call::$variant;
                fn list(&self) -> Vec<ToolArg<'_>> {
                    vec![$(ToolArg::$kind(self.$arg)),+]
                }
            }
        };
    }

    /// Every call's struct.
    macro_rules! declare_args {
        ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident; )*) => {
            $( call_args!($(#[$doc])* $variant $name ($($arg : $kind),*)); )*
        };
    }

    crate::tool_calls!(declare_args);
}

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
fn encode_source(source: Arc<Source>) -> Result<Vec<u8>, Failed> {
    Ok(handoff::encode(&*source))
}

#[wasm_split(on_demand, fallible)]
fn encode_export(
    source: Arc<Source>,
    query: String,
    url: String,
    kind: ExportKind,
) -> Result<Vec<u8>, Failed> {
    Ok(handoff::encode(&ExportRequest {
        source: Source::clone(&source),
        query,
        url,
        kind,
    }))
}

/// Makes the call `args` are for and decodes its answer with `decode` (loaded on demand).
async fn answer<T, D: std::future::Future<Output = Result<T, Failed>>>(
    args: impl Args,
    decode: impl FnOnce(Vec<u8>) -> D,
) -> Result<T, String> {
    reporting(args, decode, None).await
}

/// [`answer`], with the call's progress reports going to `progress`.
async fn reporting<A: Args, T, D: std::future::Future<Output = Result<T, Failed>>>(
    args: A,
    decode: impl FnOnce(Vec<u8>) -> D,
    progress: Option<&Progress>,
) -> Result<T, String> {
    let bytes = browser::call_tools(A::CALL.name(), &args.list(), progress).await?;
    decode(bytes).await.map_err(|f| f.0)
}

/// Makes the call `args` are for, whose answer is a `Result<String, String>` (the file written,
/// the payload made), and flattens the two errors (the call's, and the tools module's own).
async fn text(args: impl Args) -> Result<String, String> {
    answer(args, decode_text).await
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
    answer(args::ParseTaskFile { text }, decode_task_source).await
}

/// The reference systems' source (`core::import::reference`, kept in the tools module).
///
/// Errors: why the tools module did not answer.
pub async fn reference_source() -> Result<Source, String> {
    answer(args::ReferenceSource, decode_source).await
}

/// The whole bundled source (the page holds its default model family from the start).
///
/// Errors: why the tools module did not answer.
pub async fn bundled_source() -> Result<Source, String> {
    answer(args::BundledSource, decode_source).await
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
    let args = args::ImportFiles {
        names,
        texts,
        model,
    };
    reporting(args, decode_import_reply, Some(progress)).await
}

/// Re-reads one stored import (the text under its own storage key).
///
/// Errors: why it cannot be read (the page leaves the entry as it is).
pub async fn stored_source(text: &PageText) -> Result<StoredSource, String> {
    answer(args::StoredSource { text }, decode_stored_source).await
}

/// Splits an earlier version's array of stored imports into one entry per import.
///
/// Errors: when the array cannot be read at all.
pub async fn split_legacy_imports(text: &PageText) -> Result<LegacySplit, String> {
    answer(args::SplitLegacyImports { text }, decode_legacy_split).await
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
    let args = args::StoreEntry {
        id,
        names,
        texts,
        model,
    };
    browser::call_tools_text(args::StoreEntry::CALL.name(), &args.list()).await
}

/// A source's `#sweep=` payload.
///
/// Errors: why it cannot be shared (over the link's size limit), or why the tools module did not
/// answer.
pub async fn share_encode(source: Arc<Source>) -> Result<String, String> {
    let bytes = encode_source(source).await.map_err(|f| f.0)?;
    text(args::ShareEncode { source: &bytes }).await
}

/// The source a `#sweep=` payload holds.
///
/// Errors: why the payload cannot be read (damaged, over a limit, another version).
pub async fn share_decode(payload: &str) -> Result<Source, String> {
    answer(args::ShareDecode { payload }, decode_shared_source).await
}

/// The load a CSV of `timestamp,value` holds, in the link's form (`rps:60:10,40`), its values
/// counting `kind` (`rps`, `users`) when its column does not say; read in the tools module.
///
/// Errors: why the CSV cannot be read, or why the tools module did not answer.
pub async fn read_load_csv(text: &str, kind: &str) -> Result<String, String> {
    self::text(args::ReadLoadCsv { text, kind }).await
}

/// The text of a download (CSV or JSON) of `kind` for the scenario of `query` (a link's query)
/// on `source` shown at `url`, written by the tools module.
///
/// Errors: why it could not be written, or why the tools module did not answer.
pub async fn export(
    source: Arc<Source>,
    query: String,
    url: String,
    kind: ExportKind,
) -> Result<String, String> {
    let bytes = encode_export(source, query, url, kind)
        .await
        .map_err(|f| f.0)?;
    text(args::Export { request: &bytes }).await
}
