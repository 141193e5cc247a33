//! The planner's tools module: the importers, the ML.ENERGY task-file parser, share links and
//! the list of stored imports. Trunk builds it as a second WASM (an ES module, `tools.js`) that
//! the page loads on first use (`browser::call_tools`), so the page's first load carries none of
//! this code. Every function takes text or bytes and answers with `core::handoff` bytes (or
//! text); nothing here touches the page.

use llm_slo_planner::core::handoff::{encode, ImportReply, StoredSource};
use llm_slo_planner::core::import::{import_with, read, ImportOptions, InputFile};
use llm_slo_planner::core::sources::{read_stored, write_stored, StoredFile, StoredImport};
use llm_slo_planner::core::sweep::Source;
use llm_slo_planner::core::{bundled, handoff, share};
use wasm_bindgen::prelude::wasm_bindgen;

fn input_files(names: Vec<String>, texts: Vec<String>) -> Vec<InputFile> {
    names
        .into_iter()
        .zip(texts)
        .map(|(name, text)| InputFile { name, text })
        .collect()
}

/// An ML.ENERGY task file (`data/*.json`) → `Result<Source, String>`.
#[wasm_bindgen]
pub fn parse_task_file(text: &str) -> Vec<u8> {
    encode(&bundled::parse_task_file(text))
}

/// Files (names and texts, in the same order), with the import dialog's model for files that
/// state none → [`ImportReply`].
#[wasm_bindgen]
pub fn import_files(names: Vec<String>, texts: Vec<String>, model: Option<String>) -> Vec<u8> {
    let files = input_files(names, texts);
    let (formats, result) = read(&files, &ImportOptions { model_id: model });
    encode(&ImportReply { formats, result })
}

/// The stored-imports text of local storage → `Vec<StoredSource>`: every stored import that
/// still reads (anything unreadable counts as none).
#[wasm_bindgen]
pub fn stored_sources(storage: Option<String>) -> Vec<u8> {
    let sources: Vec<StoredSource> = read_stored(storage.as_deref())
        .into_iter()
        .filter_map(|stored| {
            let options = ImportOptions {
                model_id: stored.model.clone(),
            };
            let imported = import_with(&stored.input_files(), &options).ok()?;
            Some(StoredSource {
                id: stored.id,
                files: stored.files.into_iter().map(|f| f.name).collect(),
                source: imported.source,
            })
        })
        .collect();
    encode(&sources)
}

/// The stored-imports text with this import (its files and the dialog's model) added (or
/// replaced): the new text to store.
#[wasm_bindgen]
pub fn store_import(
    storage: Option<String>,
    id: String,
    names: Vec<String>,
    texts: Vec<String>,
    model: Option<String>,
) -> String {
    let mut stored = read_stored(storage.as_deref());
    stored.retain(|s| s.id != id);
    stored.push(StoredImport {
        id,
        model,
        files: input_files(names, texts)
            .into_iter()
            .map(|f| StoredFile {
                name: f.name,
                text: f.text,
            })
            .collect(),
    });
    write_stored(&stored)
}

/// The stored-imports text without the import `id`: the new text to store.
#[wasm_bindgen]
pub fn unstore_import(storage: Option<String>, id: &str) -> String {
    let mut stored = read_stored(storage.as_deref());
    stored.retain(|s| s.id != id);
    write_stored(&stored)
}

/// A source (handoff bytes) → `Result<String, String>`: its `#sweep=` payload, or why not.
#[wasm_bindgen]
pub fn share_encode(source: &[u8]) -> Vec<u8> {
    encode(&handoff::decode::<Source>(source).and_then(|s| share::encode(&s)))
}

/// A `#sweep=` payload → `Result<Source, String>`.
#[wasm_bindgen]
pub fn share_decode(payload: &str) -> Vec<u8> {
    encode(&share::decode(payload))
}

/// Nothing to start: the page calls the functions above.
fn main() {}
