//! The planner's tools module: the importers, the ML.ENERGY task-file parser, the reference systems, the whole
//! bundled data, share links, stored imports and the CSV and JSON downloads. Trunk builds it as a second WASM (an ES module, `tools.js`) that runs in a
//! Web Worker (`public/tools-worker.js`) started on first use (`browser::call_tools`), so the
//! page's first load carries none of this code and long work never blocks the page. Each call
//! of the list (`core::wire::calls`) is a function here of its name, which answers the call's
//! type; its export, made from the list, hands that answer to the page as `core::wire::handoff`
//! bytes (or a text). Nothing here touches the page.

use llm_slo_planner::core::import::bundled::TaskFileError;
use llm_slo_planner::core::import::share::ShareError;
use llm_slo_planner::core::import::sources::{
    entry_text, read_entry, split_legacy, ImportId, LegacySplit, StoredError, StoredFile,
    StoredImport,
};
use llm_slo_planner::core::import::summary::shown;
use llm_slo_planner::core::import::{
    admit, import_with, is_text, read_stream, read_stream_quick, read_with_streams, short, streams,
    ImportOptions, InputFile, Problem, RowError, StreamedFile,
};
use llm_slo_planner::core::model::format::bytes as bytes_text;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::plan::period::{LoadKind, LoadProfile};
use llm_slo_planner::core::scenario::load_csv::{self, FieldCsvError};
use llm_slo_planner::core::wire::calls::answers;
use llm_slo_planner::core::wire::handoff::{
    encode, CallError, ExportError, ExportRequest, ImportReply, StoredSource,
};
use llm_slo_planner::core::{
    import::bundled, import::reference, import::share, wire::export, wire::handoff,
};
use wasm_bindgen::prelude::{wasm_bindgen, JsValue};
use wasm_bindgen::JsCast;

/// A page text as the worker holds it: a picked file, read only once admitted, or a text.
enum PageText {
    /// A picked file (a `Blob`).
    File(web_sys::Blob),
    /// A text handed over as a string (pasted, or kept in storage).
    Text(String),
}

impl PageText {
    fn of(value: &JsValue) -> PageText {
        match value.dyn_ref::<web_sys::Blob>() {
            Some(file) => PageText::File(file.clone()),
            None => PageText::Text(value.as_string().unwrap_or_default()),
        }
    }

    /// Its size in bytes: a picked file's, asked here (the page's thread would wait on the file
    /// system for each), or the text's in UTF-8.
    fn size(&self) -> usize {
        match self {
            // A file's size is a whole number of bytes; `as` saturates past usize.
            PageText::File(file) => file.size() as usize,
            PageText::Text(text) => text.len(),
        }
    }

    /// True for a picked file read as a stream (`import::streams`: large, and JSON from its
    /// first bytes).
    fn streams(&self) -> bool {
        let PageText::File(file) = self else {
            return false;
        };
        streams(self.size(), |n| {
            file.slice_with_f64_and_f64(0.0, n as f64)
                .and_then(|head| web_sys::FileReaderSync::new()?.read_as_array_buffer(&head))
                .map(|head| js_sys::Uint8Array::new(&head).to_vec())
                .unwrap_or_default()
        })
    }

    /// Its text: a picked file read here, in the worker, with `FileReaderSync` (invalid UTF-8
    /// becomes U+FFFD, as `Blob.text()` does).
    ///
    /// Errors: the browser's name for why it cannot read the file (`NotReadableError`: moved,
    /// deleted or changed since it was picked).
    fn text(self) -> Result<String, Unreadable> {
        let file = match self {
            PageText::Text(text) => return Ok(text),
            PageText::File(file) => file,
        };
        web_sys::FileReaderSync::new()
            .and_then(|reader| reader.read_as_text(&file))
            .map_err(|e| reason(&e))
    }
}

/// Why the browser could not read a picked file: its name for it (`NotReadableError`), said in
/// the file's problem ([`unreadable`]).
#[derive(Clone)]
struct Unreadable(String);

/// The browser's name for why it could not read a file.
fn reason(error: &JsValue) -> Unreadable {
    Unreadable(
        error
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.name()))
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "the browser gave no reason".into()),
    )
}

/// Tells the page how far a long call has come: `progress` of the worker script, which posts it
/// to the page with the call's id (nothing when there is none).
fn progress(text: &str) {
    let progress = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("progress"));
    if let Some(progress) = progress
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Function>().ok())
    {
        let _ = progress.call1(&JsValue::NULL, &JsValue::from_str(text));
    }
}

/// Bytes of a picked file read at a time (one `FileReaderSync` call each).
const SLICE_BYTES: usize = 4 * 1024 * 1024;
/// A picked file read piece by piece with `FileReaderSync` (a slice at a time, never whole),
/// reporting the bytes read of the import's streamed files after each slice.
struct BlobReader {
    blob: web_sys::Blob,
    at: f64,
    size: f64,
    /// Bytes of the import's streamed files read before this one, and in all.
    before: f64,
    total: f64,
    /// Why the browser could not read it, if it could not.
    failed: std::rc::Rc<std::cell::RefCell<Option<Unreadable>>>,
    /// Where each slice goes once copied ([`discarding_port`]).
    discard: Option<web_sys::MessagePort>,
}

/// A port whose other end is closed: a slice's `ArrayBuffer`, once copied, is posted to it and
/// transferred, so its memory is freed at once. Left to the collector, the tab held up to 200 MB
/// of them while a 541 MB folder was read (V8 collects on the growth of the JS heap, which these
/// buffers hardly touch); this way it grows by 30 MB.
fn discarding_port() -> Option<web_sys::MessagePort> {
    let channel = web_sys::MessageChannel::new().ok()?;
    channel.port2().close();
    Some(channel.port1())
}

impl std::io::Read for BlobReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at >= self.size || buf.is_empty() {
            return Ok(0);
        }
        let end = (self.at + buf.len() as f64).min(self.size);
        let piece = self
            .blob
            .slice_with_f64_and_f64(self.at, end)
            .and_then(|piece| web_sys::FileReaderSync::new()?.read_as_array_buffer(&piece))
            .map_err(|e| {
                let why = reason(&e);
                *self.failed.borrow_mut() = Some(why.clone());
                std::io::Error::other(why.0)
            })?;
        let bytes = js_sys::Uint8Array::new(&piece);
        // A slice no longer than `buf`: its length fits.
        let n = (bytes.length() as usize).min(buf.len());
        bytes.copy_to(&mut buf[..n]);
        if let Some(port) = &self.discard {
            // Not freed at once if this fails: freed by the collector.
            let _ = port.post_message_with_transferable(&piece, &js_sys::Array::of1(&piece));
        }
        self.at += n as f64;
        progress(&format!(
            "{} of {} read",
            bytes_text((self.before + self.at) as usize),
            bytes_text(self.total as usize)
        ));
        Ok(n)
    }
}

/// An ML.ENERGY task file (`data/*.json`) → its source, or why it is not one.
pub fn parse_task_file(text: &str) -> Result<Source, TaskFileError> {
    bundled::parse_task_file(text)
}

/// Reads a picked file as a stream, a slice at a time, adding it to the import's `id`: quickly
/// (`import::read_stream_quick`), or again from its start the exact way where that reader is
/// unsure. The progress posted counts `before` bytes (the import's streamed files read before
/// it) of `total`. Returns the file read, or the browser's reason it could not be read.
fn read_blob(
    name: &str,
    blob: &web_sys::Blob,
    before: usize,
    total: usize,
    id: &mut ImportId,
) -> Result<StreamedFile, Unreadable> {
    let failed = std::rc::Rc::default();
    let discard = discarding_port();
    let reader = || {
        let reader = BlobReader {
            blob: blob.clone(),
            at: 0.0,
            size: blob.size(),
            before: before as f64,
            total: total as f64,
            failed: std::rc::Rc::clone(&failed),
            discard: discard.clone(),
        };
        std::io::BufReader::with_capacity(SLICE_BYTES, reader)
    };
    // Read quickly; where that reader is unsure, again the exact way, the id as before it.
    let start = id.clone();
    let file = match read_stream_quick(name.to_string(), id.reading(name, reader())) {
        Some(file) => file,
        None => {
            *id = start;
            failed.take();
            read_stream(name.to_string(), id.reading(name, reader()))
        }
    };
    match failed.take() {
        None => Ok(file),
        Some(reason) => Err(reason),
    }
}

/// The problem of a file the browser could not read, with its `reason`.
fn unreadable(name: &str, reason: &Unreadable) -> Problem {
    Problem {
        file: name.to_string(),
        row: None,
        error: RowError::Unreadable {
            reason: short(&reason.0),
        },
    }
}

/// Files (names, and picked files or texts, in the same order), with the import dialog's model
/// for files that state none → [`ImportReply`], with the import's id, what the import panel shows
/// of it, and which files were read. Sizes are checked first (`admit`): a file over the limits is
/// never read. Large JSON files are read as a stream (`import::read_stream`), a slice at a time,
/// with progress posted to the page.
pub fn import_files(names: Vec<String>, texts: Vec<JsValue>, model: Option<String>) -> ImportReply {
    let texts: Vec<PageText> = texts.iter().map(PageText::of).collect();
    let sizes: Vec<(&str, usize, bool)> = names
        .iter()
        .zip(&texts)
        .map(|(name, text)| (name.as_str(), text.size(), text.streams()))
        .collect();
    let (admitted, mut refused) = admit(&sizes);
    let streamed_total: usize = sizes
        .iter()
        .zip(&admitted)
        .filter(|((_, _, streamed), ok)| *streamed && **ok)
        .map(|((_, size, _), _)| size)
        .sum();
    let mut read = vec![false; names.len()];
    let mut bytes_read = 0;
    let mut files = Vec::new();
    let mut streamed = Vec::new();
    let mut id = ImportId::new();
    for (i, (text, admitted)) in texts.into_iter().zip(admitted).enumerate() {
        if !admitted {
            continue;
        }
        if let (PageText::File(blob), true) = (&text, sizes[i].2) {
            match read_blob(&names[i], blob, bytes_read, streamed_total, &mut id) {
                Ok(file) => {
                    read[i] = true;
                    bytes_read += text.size();
                    streamed.push(file);
                }
                Err(reason) => refused.push(unreadable(&names[i], &reason)),
            }
            continue;
        }
        match text.text() {
            Ok(text) => {
                // Kept with the import where it can hold a result (not binary, not blank).
                if is_text(&text) {
                    read[i] = true;
                    bytes_read += text.len();
                }
                id.text(&names[i], &text);
                files.push(InputFile {
                    name: names[i].clone(),
                    text,
                });
            }
            Err(reason) => refused.push(unreadable(&names[i], &reason)),
        }
    }
    if files.is_empty() && streamed.is_empty() {
        return ImportReply {
            id: String::new(),
            source: None,
            shown: shown(refused, None),
            read,
            bytes_read,
        };
    }
    let id = id.finish(model.as_deref());
    let (formats, result) = read_with_streams(&files, streamed, &ImportOptions { model_id: model });
    let shown = shown(refused, Some((&formats, &result)));
    ImportReply {
        id,
        source: result.ok().map(|imported| imported.source),
        shown,
        read,
        bytes_read,
    }
}

/// One stored import's text (local storage, one key per import) → the import re-read, or why
/// it cannot be (the page then leaves the entry as it is).
pub fn stored_source(text: &str) -> Result<StoredSource, StoredError> {
    let stored = read_entry(text)?;
    let options = ImportOptions {
        model_id: stored.model.clone(),
    };
    let imported = import_with(&stored.input_files(), &options).map_err(|problems| {
        StoredError::NoUsableRow(problems.into_iter().next().map(|p| p.error))
    })?;
    Ok(StoredSource {
        id: stored.id,
        files: stored.files.into_iter().map(|f| f.name).collect(),
        source: imported.source,
    })
}

/// The legacy array of stored imports → each readable import's own entry, and the unreadable
/// elements kept as they were; or why the array cannot be read.
pub fn split_legacy_imports(text: &str) -> Result<LegacySplit, StoredError> {
    split_legacy(text)
}

/// An import (its id, files read, as picked files or texts, and the dialog's model) → the text to
/// store under its own key; an empty text when a file cannot be read again (moved or changed
/// since it was imported), so that nothing other than what was imported is kept.
pub fn store_entry(
    id: &str,
    names: Vec<String>,
    texts: Vec<JsValue>,
    model: Option<String>,
) -> String {
    let files: Result<Vec<StoredFile>, Unreadable> = names
        .into_iter()
        .zip(&texts)
        .map(|(name, text)| {
            Ok(StoredFile {
                name,
                text: PageText::of(text).text()?,
            })
        })
        .collect();
    match files {
        Ok(files) => entry_text(&StoredImport {
            id: id.to_string(),
            model,
            files,
        }),
        Err(_) => String::new(),
    }
}

/// A source (handoff bytes) → its `#sweep=` payload, or why it cannot be shared.
pub fn share_encode(source: &[u8]) -> Result<String, CallError<ShareError>> {
    let source = handoff::decode::<Source>(source).map_err(CallError::Damaged)?;
    share::encode(&source).map_err(CallError::Failed)
}

/// A `#sweep=` payload → the source it holds, or why it cannot be read.
pub fn share_decode(payload: &str) -> Result<Source, ShareError> {
    share::decode(payload)
}

/// A CSV of `timestamp,value`, and what its values count when its column does not say (`rps` or
/// `users`; anything else is read as `rps`) → the load, or why it cannot be read.
pub fn read_load_csv(text: &str, kind: &str) -> Result<LoadProfile, FieldCsvError> {
    load_csv::field_load(text, LoadKind::from_key(kind).unwrap_or(LoadKind::Rps))
}

/// An export request (handoff bytes) → the CSV or JSON text, or why it was not written.
pub fn write_export(request: &[u8]) -> Result<String, CallError<ExportError>> {
    let request = handoff::decode::<ExportRequest>(request).map_err(CallError::Damaged)?;
    export::export(&request).map_err(CallError::Failed)
}

/// The reference systems (`core::import::reference`) → their `Source`: kept here, off the page's first
/// load, and read when the picker shows them.
pub fn reference_source() -> &'static Source {
    reference::reference()
}

/// The whole bundled `lm-arena-chat` source → its `Source`: the page holds its default model
/// family from the start and reads the rest here when first needed.
pub fn bundled_source() -> &'static Source {
    bundled::lm_arena_chat()
}

/// One export: its parameters typed one by one, each argument's kind as the tools module takes
/// it (`core::wire::calls`), written out for `#[wasm_bindgen]`; then the function, which calls
/// the function above of its name and hands the answer, of the type its call declares, over:
/// encoded (`Bytes`), or as it is (`Text`).
macro_rules! export {
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : Text $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: &str,] ($($arg,)* $next) $($($rest)*)?);
    };
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : MaybeText $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: Option<String>,] ($($arg,)* $next) $($($rest)*)?);
    };
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : Texts $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: Vec<String>,] ($($arg,)* $next) $($($rest)*)?);
    };
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : Bytes $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: &[u8],] ($($arg,)* $next) $($($rest)*)?);
    };
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : Page $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: &str,] ($($arg,)* $next) $($($rest)*)?);
    };
    ($docs:tt $variant:ident $name:ident $answer:ident [$($param:tt)*] ($($arg:ident),*) $next:ident : Pages $(, $($rest:tt)*)?) => {
        export!($docs $variant $name $answer [$($param)* $next: Vec<JsValue>,] ($($arg,)* $next) $($($rest)*)?);
    };
    ([$(#[$doc:meta])*] $variant:ident $name:ident Bytes [$($param:tt)*] ($($arg:ident),*)) => {
        $(#[$doc])*
        #[wasm_bindgen]
        pub fn $name($($param)*) -> Vec<u8> {
            encode::<answers::$variant>(&super::$name($($arg),*))
        }
    };
    ([$(#[$doc:meta])*] $variant:ident $name:ident Text [$($param:tt)*] ($($arg:ident),*)) => {
        $(#[$doc])*
        #[wasm_bindgen]
        pub fn $name($($param)*) -> String {
            let text: answers::$variant = super::$name($($arg),*);
            text
        }
    };
}

/// The exports, one per call of the list (`core::wire::calls`), each named after its call:
/// one whose function above takes other arguments or answers another type than its call's does
/// not compile.
macro_rules! exports {
    ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident ($ty:ty); )*) => {
        mod exports {
            use super::*;

            $( export!([$(#[$doc])*] $variant $name $answer [] () $($arg : $kind),*); )*
        }
    };
}

llm_slo_planner::tool_calls!(exports);

/// Nothing to start: the page calls the functions above.
fn main() {}
