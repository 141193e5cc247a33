//! The page's side of the tools module (`src/bin/tools.rs`, run in a Web Worker): one typed
//! function per call, so the page never spells a call's name or arguments itself. The calls are
//! declared once (`core::wire::calls`): each call's arguments are a struct of [`args`] made
//! from that list, with named fields, handed over in the order the tools module takes them, and
//! its answer is decoded as the type the list declares for it ([`Answered`]). Answers cross as
//! `core::wire::handoff` bytes (or text kept as a page text).
//!
//! The bytes are encoded and decoded, and an answer's error worded (`core::text`), in code
//! loaded on demand ([`crate::on_demand`]): the page's first view makes no call, so that code is
//! fetched with the first one, beside the tools module itself. One function decodes every
//! call's answer ([`decode::decode`]), into the variant of [`decode::Decoded`] named after the
//! call, so that the page's first load carries one stub of it, not one per call.

use std::fmt::{self, Display};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use wasm_split_helpers::wasm_split;

use crate::browser::{self, PageText, Progress, ToolArg, Unanswered};
use crate::core::import::sources::LegacySplit;
use crate::core::model::source::Source;
use crate::core::plan::period::{LoadKind, LoadProfile};
use crate::core::text::error_text;
use crate::core::wire::calls::Call;
use crate::core::wire::handoff::{self, ExportKind, ExportRequest, ImportReply, StoredSource};
use crate::on_demand::Failed;
use args::{Answered, Args};

/// Why a call of the tools module gave the page nothing to use, kept as what went wrong until
/// the page says it (`Display`).
#[derive(Clone, Debug, PartialEq)]
pub enum ToolsError {
    /// The tools module did not answer.
    Unanswered(Unanswered),
    /// The code loaded on demand that hands the call over did not do its work: its module could
    /// not be loaded, or the answer's bytes are not the call's answer.
    OnDemand(Failed),
    /// The call answered with its own error.
    Refused(Refused),
}

impl Display for ToolsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolsError::Unanswered(e) => e.fmt(f),
            ToolsError::OnDemand(Failed(message)) | ToolsError::Refused(Refused(message)) => {
                f.write_str(message)
            }
        }
    }
}

impl From<Unanswered> for ToolsError {
    fn from(e: Unanswered) -> ToolsError {
        ToolsError::Unanswered(e)
    }
}

impl From<Failed> for ToolsError {
    fn from(e: Failed) -> ToolsError {
        ToolsError::OnDemand(e)
    }
}

/// A call's own error (the core's typed error, e.g. why a payload cannot be read), in the
/// core's words (`core::text`): worded where its answer is decoded, in code loaded on demand,
/// so that the words of every call's errors stay out of the page's first load.
#[derive(Clone, Debug, PartialEq)]
pub struct Refused(pub String);

impl Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An answer of the tools module as the page takes it: a `Result`'s error in its words
/// ([`Refused`]), any other answer as it is.
pub trait Answer: DeserializeOwned {
    /// The answer, its error worded.
    type Page;
    /// Words the answer's error.
    fn worded(self) -> Self::Page;
}

impl<T: DeserializeOwned, E: DeserializeOwned + Display> Answer for Result<T, E> {
    type Page = Result<T, Refused>;
    fn worded(self) -> Result<T, Refused> {
        self.map_err(|e| Refused(e.to_string()))
    }
}

impl Answer for Source {
    type Page = Source;
    fn worded(self) -> Source {
        self
    }
}

impl Answer for ImportReply {
    type Page = ImportReply;
    fn worded(self) -> ImportReply {
        self
    }
}

/// The answer `bytes` hold, decoded as the call's type `A` and its error worded; or why the
/// bytes are not such an answer.
fn decoded<A: Answer>(bytes: &[u8]) -> Result<A::Page, Failed> {
    handoff::decode::<A>(bytes)
        .map(A::worded)
        .map_err(|e| Failed(e.to_string()))
}

/// The arguments of each call of the tools module, one struct per call, made from the list of
/// calls (`core::wire::calls`): a field per argument, named and typed by its kind; and for a
/// call answering bytes, its answer as the page takes it.
pub mod args {
    use super::decode::Decoded;
    use super::Answer;
    use crate::browser::{PageText, ToolArg};
    use crate::core::wire::calls::{answers, Call};

    /// The arguments of one call.
    pub trait Args {
        /// The call they are for.
        const CALL: Call;
        /// The arguments in the order the tools module takes them.
        fn list(&self) -> Vec<ToolArg<'_>>;
    }

    /// The arguments of a call answering bytes, and its answer as the page takes it.
    pub trait Answered: Args {
        /// The answer as the page takes it ([`Answer::Page`] of the call's declared type).
        type Page;
        /// The answer, when `decoded` is this call's.
        fn take(decoded: Decoded) -> Option<Self::Page>;
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

    /// A call's [`Answered`], for an answer of kind `Bytes` (a `Text` is kept as a page text).
    macro_rules! answered {
        (Text, $variant:ident $($l:lifetime)?) => {};
        (Bytes, $variant:ident $($l:lifetime)?) => {
            impl Answered for $variant $(<$l>)? {
                type Page = <answers::$variant as Answer>::Page;
                fn take(decoded: Decoded) -> Option<Self::Page> {
                    match decoded {
                        Decoded::$variant(page) => Some(page),
                        _ => None,
                    }
                }
            }
        };
    }

    /// One call's struct, its [`Args`] and its [`Answered`].
    macro_rules! call_args {
        ($(#[$doc:meta])* $variant:ident () -> $answer:ident) => {
            $(#[$doc])*
            pub struct $variant;

            impl Args for $variant {
                const CALL: Call = Call::$variant;
                fn list(&self) -> Vec<ToolArg<'_>> {
                    Vec::new()
                }
            }

            answered!($answer, $variant);
        };
        ($(#[$doc:meta])* $variant:ident ($($arg:ident : $kind:ident),+) -> $answer:ident) => {
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

            answered!($answer, $variant '_);
        };
    }

    /// Every call's struct.
    macro_rules! declare_args {
        ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident ($ty:ty); )*) => {
            $( call_args!($(#[$doc])* $variant ($($arg : $kind),*) -> $answer); )*
        };
    }

    crate::tool_calls!(declare_args);
}

/// The decoding of every call's answer, loaded on demand: the bytes as the type the list of
/// calls declares for the call (`core::wire::calls::answers`), its error worded.
pub mod decode {
    use wasm_split_helpers::wasm_split;

    use super::{decoded, Answer};
    use crate::core::text::error_text;
    use crate::core::wire::calls::{answers, Call};
    use crate::on_demand::Failed;

    /// [`Decoded`] and [`decode`], from the calls answering bytes (`$variant Bytes`; a `Text`
    /// is left out), gathered first.
    macro_rules! decoding {
        (@bytes [$($done:ident)*]) => {
            decoding!(@emit $($done)*);
        };
        (@bytes [$($done:ident)*] $variant:ident Bytes $($rest:tt)*) => {
            decoding!(@bytes [$($done)* $variant] $($rest)*);
        };
        (@bytes [$($done:ident)*] $variant:ident Text $($rest:tt)*) => {
            decoding!(@bytes [$($done)*] $($rest)*);
        };
        (@emit $($variant:ident)*) => {
            /// A call's answer as the page takes it, in the variant named after the call.
            pub enum Decoded {
                $(
                    #[doc = concat!("The answer to `", stringify!($variant), "`.")]
                    $variant(<answers::$variant as Answer>::Page),
                )*
            }

            /// Decodes the answer to `call` that `bytes` hold.
            #[wasm_split(on_demand, fallible)]
            pub fn decode(call: Call, bytes: Vec<u8>) -> Result<Decoded, Failed> {
                match call {
                    $( Call::$variant => decoded::<answers::$variant>(&bytes).map(Decoded::$variant), )*
                    other => Err(Failed(error_text::damaged_handoff(other.name()))),
                }
            }
        };
        ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident ($ty:ty); )*) => {
            decoding!(@bytes [] $($variant $answer)*);
        };
    }

    crate::tool_calls!(decoding);
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

/// Makes the call `args` are for and decodes its answer (code loaded on demand).
async fn answer<A: Answered>(args: A) -> Result<A::Page, ToolsError> {
    reporting(args, None).await
}

/// [`answer`], with the call's progress reports going to `progress`.
async fn reporting<A: Answered>(
    args: A,
    progress: Option<&Progress>,
) -> Result<A::Page, ToolsError> {
    let decoded = call_decoded(A::CALL, &args.list(), progress).await?;
    A::take(decoded).ok_or_else(|| damaged(A::CALL))
}

/// Makes `call` with `args` and decodes its answer (code loaded on demand), its progress reports
/// going to `progress`: one function for every call, so that the page carries its code once.
async fn call_decoded(
    call: Call,
    args: &[ToolArg<'_>],
    progress: Option<&Progress>,
) -> Result<decode::Decoded, ToolsError> {
    let bytes = browser::call_tools(call.name(), args, progress).await?;
    Ok(decode::decode(call, bytes).await?)
}

/// An answer to `call` decoded as another call's.
fn damaged(call: Call) -> ToolsError {
    ToolsError::OnDemand(Failed(error_text::damaged_handoff(call.name())))
}

/// Makes the call `args` are for, whose answer is a `Result`, and flattens the two errors (the
/// call's, and the tools module's own).
async fn outcome<T, A: Answered<Page = Result<T, Refused>>>(args: A) -> Result<T, ToolsError> {
    answer(args).await?.map_err(ToolsError::Refused)
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
pub async fn parse_task_file(text: &str) -> Result<Result<Source, Refused>, ToolsError> {
    answer(args::ParseTaskFile { text }).await
}

/// The reference systems' source (`core::import::reference`, kept in the tools module).
///
/// Errors: why the tools module did not answer.
pub async fn reference_source() -> Result<Source, ToolsError> {
    answer(args::ReferenceSource).await
}

/// The whole bundled source (the page holds its default model family from the start).
///
/// Errors: why the tools module did not answer.
pub async fn bundled_source() -> Result<Source, ToolsError> {
    answer(args::BundledSource).await
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
) -> Result<ImportReply, ToolsError> {
    let args = args::ImportFiles {
        names,
        texts,
        model,
    };
    reporting(args, Some(progress)).await
}

/// Re-reads one stored import (the text under its own storage key).
///
/// Errors: why it cannot be read (the page leaves the entry as it is).
pub async fn stored_source(text: &PageText) -> Result<StoredSource, ToolsError> {
    outcome(args::StoredSource { text }).await
}

/// Splits an earlier version's array of stored imports into one entry per import.
///
/// Errors: when the array cannot be read at all.
pub async fn split_legacy_imports(text: &PageText) -> Result<LegacySplit, ToolsError> {
    outcome(args::SplitLegacyImports { text }).await
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
) -> Result<PageText, ToolsError> {
    let args = args::StoreEntry {
        id,
        names,
        texts,
        model,
    };
    Ok(browser::call_tools_text(args::StoreEntry::CALL.name(), &args.list()).await?)
}

/// A source's `#sweep=` payload.
///
/// Errors: why it cannot be shared (over the link's size limit), or why the tools module did not
/// answer.
pub async fn share_encode(source: Arc<Source>) -> Result<String, ToolsError> {
    let bytes = encode_source(source).await?;
    outcome(args::ShareEncode { source: &bytes }).await
}

/// The source a `#sweep=` payload holds.
///
/// Errors: why the payload cannot be read (damaged, over a limit, another version).
pub async fn share_decode(payload: &str) -> Result<Source, ToolsError> {
    outcome(args::ShareDecode { payload }).await
}

/// The load a CSV of `timestamp,value` holds, its values counting `kind` when its column does
/// not say; read in the tools module.
///
/// Errors: why the CSV cannot be read, or why the tools module did not answer.
pub async fn read_load_csv(text: &str, kind: LoadKind) -> Result<LoadProfile, ToolsError> {
    let kind = kind.key();
    outcome(args::ReadLoadCsv { text, kind }).await
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
) -> Result<String, ToolsError> {
    let bytes = encode_export(source, query, url, kind).await?;
    outcome(args::Export { request: &bytes }).await
}
