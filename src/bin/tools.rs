//! The planner's tools module: the importers, the ML.ENERGY task-file parser, the reference systems, the whole
//! bundled data, share links, stored imports and the CSV and JSON downloads. Trunk builds it as a second WASM (an ES module, `tools.js`) that runs in a
//! Web Worker (`public/tools-worker.js`) started on first use (`browser::call_tools`), so the
//! page's first load carries none of this code and long work never blocks the page. Every
//! function takes text or bytes and answers with `core::handoff` bytes (or text); nothing here
//! touches the page.

use llm_slo_planner::core::handoff::{decode, encode, ExportRequest, ImportReply, StoredSource};
use llm_slo_planner::core::import::summary::{shown, Shown};
use llm_slo_planner::core::import::{import_with, read, ImportOptions, InputFile};
use llm_slo_planner::core::sources::{
    entry_text, import_id, read_entry, split_legacy, StoredFile, StoredImport,
};
use llm_slo_planner::core::sweep::Source;
use llm_slo_planner::core::{bundled, export, handoff, reference, share};
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
/// state none, and the files the page refused for their size (`Vec<Problem>` bytes, from
/// `admit`) → [`ImportReply`], with the import's id and what the import panel shows of it.
#[wasm_bindgen]
pub fn import_files(
    names: Vec<String>,
    texts: Vec<String>,
    model: Option<String>,
    refused: Vec<u8>,
) -> Vec<u8> {
    let refused = match decode(&refused) {
        Ok(refused) => refused,
        Err(_) => {
            return encode(&ImportReply {
                id: String::new(),
                source: None,
                shown: Shown {
                    summary: "Nothing imported: the page's list of files refused for their size was damaged (a bug).".into(),
                    ..Shown::default()
                },
            })
        }
    };
    let files = input_files(names, texts);
    if files.is_empty() {
        return encode(&ImportReply {
            id: String::new(),
            source: None,
            shown: shown(refused, None),
        });
    }
    let id = import_id(&files, model.as_deref());
    let (formats, result) = read(&files, &ImportOptions { model_id: model });
    let shown = shown(refused, Some((&formats, &result)));
    encode(&ImportReply {
        id,
        source: result.ok().map(|imported| imported.source),
        shown,
    })
}

/// One stored import's text (local storage, one key per import) → `Result<StoredSource,
/// String>`: the import re-read, or why it cannot be (the page then leaves the entry as it is).
#[wasm_bindgen]
pub fn stored_source(text: &str) -> Vec<u8> {
    let read = read_entry(text).and_then(|stored| {
        let options = ImportOptions {
            model_id: stored.model.clone(),
        };
        let imported = import_with(&stored.input_files(), &options).map_err(|problems| {
            problems
                .first()
                .map_or_else(|| "no usable row".to_string(), |p| p.message())
        })?;
        Ok(StoredSource {
            id: stored.id,
            files: stored.files.into_iter().map(|f| f.name).collect(),
            source: imported.source,
        })
    });
    encode(&read)
}

/// The legacy array of stored imports → `Result<LegacySplit, String>`: each readable import's
/// own entry, and the unreadable elements kept as they were.
#[wasm_bindgen]
pub fn split_legacy_imports(text: &str) -> Vec<u8> {
    encode(&split_legacy(text))
}

/// An import (its id, files and the dialog's model) → the text to store under its own key.
#[wasm_bindgen]
pub fn store_entry(
    id: String,
    names: Vec<String>,
    texts: Vec<String>,
    model: Option<String>,
) -> String {
    entry_text(&StoredImport {
        id,
        model,
        files: input_files(names, texts)
            .into_iter()
            .map(|f| StoredFile {
                name: f.name,
                text: f.text,
            })
            .collect(),
    })
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

/// An export request (handoff bytes) → `Result<String, String>`: the CSV or JSON text.
#[wasm_bindgen]
pub fn write_export(request: &[u8]) -> Vec<u8> {
    encode(&handoff::decode::<ExportRequest>(request).and_then(|r| export::export(&r)))
}

/// The reference systems (`core::reference`) → their `Source`: kept here, off the page's first
/// load, and read when the picker shows them.
#[wasm_bindgen]
pub fn reference_source() -> Vec<u8> {
    encode(reference::reference())
}

/// The whole bundled `lm-arena-chat` source → its `Source`: the page holds its default model
/// family from the start and reads the rest here when first needed.
#[wasm_bindgen]
pub fn bundled_source() -> Vec<u8> {
    encode(bundled::lm_arena_chat())
}

/// Nothing to start: the page calls the functions above.
fn main() {}
