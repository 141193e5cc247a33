//! The sources a page can plan on: the bundled `lm-arena-chat` task, the other ML.ENERGY
//! workloads (static files fetched on first use), and imported file sets (kept in local storage
//! until removed, re-read on load).

use serde::{Deserialize, Serialize};

use crate::core::import::{InputFile, RowError};

/// The source of an empty `src`.
pub const DEFAULT_SOURCE: &str = "lm-arena-chat";
/// The id of the published reference systems (`core::import::reference`).
pub const REFERENCE_SOURCE: &str = "reference";
/// The id of a source that arrived in the link's `#sweep=` fragment.
pub const SHARED_SOURCE: &str = "shared";
/// Local-storage key prefix of imported file sets: one key per import (`…import.imp-1a2b3c4d`),
/// so that two tabs importing at once never erase each other's import, and an entry that cannot
/// be read is left as it is while the others are kept.
pub const STORAGE_PREFIX: &str = "llm-slo-planner.import.";
/// The key under which earlier versions kept every import in one array; its readable entries
/// move to their own keys the first time it is read.
pub const LEGACY_STORAGE_KEY: &str = "llm-slo-planner.imports";

/// A bundled ML.ENERGY workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Workload {
    /// URL `src` value and task id.
    pub id: &'static str,
    /// Menu label.
    pub label: &'static str,
    /// Path of its task file, relative to the page (`None`: compiled into the page).
    pub path: Option<&'static str>,
}

/// The bundled workloads, the default first.
pub const WORKLOADS: [Workload; 4] = [
    Workload {
        id: DEFAULT_SOURCE,
        label: "LLM Chat (LM Arena), ML.ENERGY",
        path: None,
    },
    Workload {
        id: "gpqa",
        label: "GPQA Diamond (reasoning, long outputs), ML.ENERGY",
        path: Some("data/gpqa.json"),
    },
    Workload {
        id: "sourcegraph-fim",
        label: "Fill-in-the-Middle (Sourcegraph, code), ML.ENERGY",
        path: Some("data/sourcegraph-fim.json"),
    },
    Workload {
        id: "image-chat",
        label: "Image Chat (multimodal), ML.ENERGY",
        path: Some("data/image-chat.json"),
    },
];

/// The bundled workload with this id.
pub fn workload(id: &str) -> Option<&'static Workload> {
    WORKLOADS.iter().find(|w| w.id == id)
}

/// True when `src` names an import kept in this browser's storage: not a bundled workload, the
/// reference systems or a shared `#sweep=` link. A link to it opens only in this browser.
pub fn is_local_import(src: Option<&str>) -> bool {
    src.is_some_and(|id| workload(id).is_none() && id != REFERENCE_SOURCE && id != SHARED_SOURCE)
}

/// One imported file set as kept in local storage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredImport {
    /// Its `src` id.
    pub id: String,
    /// Its files, as imported.
    pub files: Vec<StoredFile>,
    /// The model given in the import dialog for files that state none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

/// One file of a stored import.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredFile {
    /// File name.
    pub name: String,
    /// File text.
    pub text: String,
}

impl StoredImport {
    /// The files, ready for `import::import`.
    pub fn input_files(&self) -> Vec<InputFile> {
        self.files
            .iter()
            .map(|f| InputFile {
                name: f.name.clone(),
                text: f.text.clone(),
            })
            .collect()
    }
}

/// A stable id for a file set: `imp-` and 8 hex digits of a hash of names and texts (and of
/// the model given in the import dialog when there is one); see [`ImportId`].
pub fn import_id(files: &[InputFile], model: Option<&str>) -> String {
    let mut id = ImportId::new();
    for f in files {
        id.text(&f.name, &f.text);
    }
    id.finish(model)
}

/// An import's id ([`import_id`]) made file by file as the files are read, in the order they
/// were given: a file read as a stream adds its bytes as they pass ([`ImportId::reading`]), and
/// gets the id a text of the same bytes would. The hash takes 8 bytes a step (FxHash's: rotate,
/// xor, multiply), so hashing keeps pace with reading; not for adversaries, only to tell file sets
/// apart.
#[derive(Clone)]
pub struct ImportId {
    hash: u64,
    /// Bytes added since the last whole word.
    tail: [u8; 8],
    tail_len: usize,
    /// Bytes added in all.
    len: u64,
}

impl Default for ImportId {
    fn default() -> ImportId {
        ImportId::new()
    }
}

impl ImportId {
    /// No file yet.
    pub fn new() -> ImportId {
        ImportId {
            hash: 0,
            tail: [0; 8],
            tail_len: 0,
            len: 0,
        }
    }

    fn word(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn add(&mut self, mut bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.tail_len > 0 {
            let n = (8 - self.tail_len).min(bytes.len());
            self.tail[self.tail_len..self.tail_len + n].copy_from_slice(&bytes[..n]);
            self.tail_len += n;
            bytes = &bytes[n..];
            if self.tail_len < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.tail));
            self.tail_len = 0;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.word(u64::from_le_bytes(word.try_into().unwrap_or([0; 8])));
        }
        let rest = words.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.tail_len = rest.len();
    }

    /// Adds a file held as a text.
    pub fn text(&mut self, name: &str, text: &str) {
        self.add(name.as_bytes());
        self.add(&[0]);
        self.add(text.as_bytes());
        self.add(&[0]);
    }

    /// A reader of the file `name` (`inner`) that adds its bytes as they are read; the file
    /// ends when the reader is dropped.
    pub fn reading<R: std::io::Read>(&mut self, name: &str, inner: R) -> Hashing<'_, R> {
        self.add(name.as_bytes());
        self.add(&[0]);
        Hashing { id: self, inner }
    }

    /// The id, with the import dialog's model when there is one.
    pub fn finish(mut self, model: Option<&str>) -> String {
        if let Some(m) = model {
            self.add(format!("\0model\0{m}").as_bytes());
        }
        let mut last = [0; 8];
        last[..self.tail_len].copy_from_slice(&self.tail[..self.tail_len]);
        self.word(u64::from_le_bytes(last));
        self.word(self.len);
        format!("imp-{:08x}", (self.hash ^ (self.hash >> 32)) as u32)
    }
}

/// A file's reader adding what it reads to an [`ImportId`] (see [`ImportId::reading`]).
pub struct Hashing<'a, R> {
    id: &'a mut ImportId,
    inner: R,
}

impl<R: std::io::Read> std::io::Read for Hashing<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.id.add(&buf[..n]);
        Ok(n)
    }
}

impl<R> Drop for Hashing<'_, R> {
    fn drop(&mut self) {
        self.id.add(&[0]);
    }
}

/// The storage key of an import.
pub fn storage_key(id: &str) -> String {
    format!("{STORAGE_PREFIX}{id}")
}

/// Why an import kept in local storage cannot be read (storage is user-editable: anything may
/// be there); worded by its `Display` (`core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum StoredError {
    /// The text is not a stored import: serde_json's reason.
    NotAnImport(String),
    /// The legacy array ([`LEGACY_STORAGE_KEY`]) is not a JSON array: serde_json's reason.
    NotAList(String),
    /// The import's files, read again, hold no usable row: the first problem, if any.
    NoUsableRow(Option<RowError>),
}

impl std::error::Error for StoredError {}

/// Reads one stored import (storage is user-editable: anything may be there).
///
/// Errors: [`StoredError::NotAnImport`], why the text is not a stored import.
pub fn read_entry(text: &str) -> Result<StoredImport, StoredError> {
    serde_json::from_str(text).map_err(|e| StoredError::NotAnImport(e.to_string()))
}

/// The text one import is stored as.
pub fn entry_text(import: &StoredImport) -> String {
    serde_json::to_string(import).unwrap_or_default()
}

/// The legacy array of imports, split: each readable import with its own entry text (to store
/// under its own key), how many elements could not be read, and the array of those elements,
/// as they were, to keep under the legacy key (`None` when every element was read).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LegacySplit {
    /// (id, entry text) of each readable import.
    pub entries: Vec<(String, String)>,
    /// Elements that are not stored imports.
    pub unreadable: usize,
    /// Those elements, unchanged, as a JSON array.
    pub rest: Option<String>,
}

/// The notice when stored imports could not be read: `entries` imports (one key each, or
/// elements of the legacy array) that could not be read, and whether the legacy array itself
/// (`LEGACY_STORAGE_KEY`) could not be read at all; `None` when everything was read.
pub fn stored_notice(entries: usize, legacy_unreadable: bool) -> Option<String> {
    let mut said = Vec::new();
    if legacy_unreadable {
        said.push(format!(
            "The imports an earlier version kept (local storage key {LEGACY_STORAGE_KEY}) could not be read; they are left as they are in this browser's storage."
        ));
    }
    said.extend(unreadable_imports(entries));
    (!said.is_empty()).then(|| said.join(" "))
}

/// "2 stored imports could not be read; they are left as they are in this browser's
/// storage."; `None` for 0. What the page says when the code reading them cannot be loaded.
pub fn unreadable_imports(entries: usize) -> Option<String> {
    let one = entries == 1;
    (entries > 0).then(|| {
        format!(
            "{entries} stored import{} could not be read; {} left as {} in this browser's storage.",
            if one { "" } else { "s" },
            if one { "it is" } else { "they are" },
            if one { "it is" } else { "they are" },
        )
    })
}

/// Splits the legacy array (see [`LegacySplit`]).
///
/// Errors: [`StoredError::NotAList`] when the text is not a JSON array; the key is then left as
/// it is.
pub fn split_legacy(text: &str) -> Result<LegacySplit, StoredError> {
    let (values, tail) = match serde_json::from_str::<Vec<serde_json::Value>>(text) {
        Ok(values) => (values, None),
        Err(e) => match leading_values(text) {
            Some((values, tail)) if !values.is_empty() => (values, Some(tail)),
            _ => return Err(StoredError::NotAList(e.to_string())),
        },
    };
    let mut entries = Vec::new();
    let mut rest = Vec::new();
    for value in values {
        match serde_json::from_value::<StoredImport>(value.clone()) {
            Ok(import) => entries.push((import.id.clone(), entry_text(&import))),
            Err(_) => rest.push(value),
        }
    }
    let unreadable = rest.len() + usize::from(tail.is_some());
    let rest = match tail {
        // What follows the readable elements is kept as it was, after those not read.
        Some(tail) => Some(
            std::iter::once("[".to_string())
                .chain(rest.iter().map(|v| format!("{v},")))
                .chain(std::iter::once(tail.to_string()))
                .collect(),
        ),
        None => (!rest.is_empty()).then(|| serde_json::Value::Array(rest).to_string()),
    };
    Ok(LegacySplit {
        entries,
        unreadable,
        rest,
    })
}

/// The elements of a JSON array `text` that read, one after another, up to the first that
/// does not (the array cut short, or garbage within it), and the text from there on; `None`
/// when `text` does not open an array.
fn leading_values(text: &str) -> Option<(Vec<serde_json::Value>, &str)> {
    let mut at = text.trim_start().strip_prefix('[')?;
    let mut values = Vec::new();
    loop {
        at = at.trim_start();
        at = at.strip_prefix(',').unwrap_or(at).trim_start();
        let mut stream = serde_json::Deserializer::from_str(at).into_iter::<serde_json::Value>();
        match stream.next() {
            Some(Ok(value)) => {
                values.push(value);
                at = &at[stream.byte_offset()..];
            }
            _ => return Some((values, at)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_import_kept_here_is_local() {
        assert!(is_local_import(Some("imp-3f2a9c")));
        for src in [
            None,
            Some(DEFAULT_SOURCE),
            Some("gpqa"),
            Some(REFERENCE_SOURCE),
            Some(SHARED_SOURCE),
        ] {
            assert!(!is_local_import(src), "{src:?}");
        }
    }

    #[test]
    fn a_notice_names_what_could_not_be_read() {
        assert_eq!(stored_notice(0, false), None);
        assert_eq!(
            stored_notice(1, false).as_deref(),
            Some(
                "1 stored import could not be read; it is left as it is in this browser's storage."
            )
        );
        assert_eq!(
            stored_notice(0, true).as_deref(),
            Some("The imports an earlier version kept (local storage key llm-slo-planner.imports) could not be read; they are left as they are in this browser's storage.")
        );
        assert!(stored_notice(2, true)
            .unwrap()
            .ends_with("2 stored imports could not be read; they are left as they are in this browser's storage."));
    }

    #[test]
    fn workloads_are_found_by_id() {
        assert_eq!(
            workload("gpqa").and_then(|w| w.path),
            Some("data/gpqa.json")
        );
        assert!(workload("nope").is_none());
    }

    #[test]
    fn import_ids_are_stable_and_differ_by_content() {
        let a = [InputFile {
            name: "a.json".into(),
            text: "{}".into(),
        }];
        let b = [InputFile {
            name: "a.json".into(),
            text: "{ }".into(),
        }];
        assert_eq!(import_id(&a, None), import_id(&a, None));
        assert_ne!(import_id(&a, None), import_id(&b, None));
        assert_ne!(import_id(&a, None), import_id(&a, Some("org/m")));
        assert!(import_id(&a, None).starts_with("imp-") && import_id(&a, None).len() == 12);
        // A file read as a stream gets the id its text would.
        let mut id = ImportId::new();
        id.text("a.json", "{}");
        let mut read = String::new();
        std::io::Read::read_to_string(&mut id.reading("b.json", "{ }".as_bytes()), &mut read)
            .unwrap();
        let both = [
            a[0].clone(),
            InputFile {
                name: "b.json".into(),
                ..b[0].clone()
            },
        ];
        assert_eq!(id.finish(Some("org/m")), import_id(&both, Some("org/m")));
        assert_eq!(import_id(&a, None), "imp-2ccc86fb");
    }

    /// A stored import of one small file, `imp-1`.
    fn one_file_import() -> StoredImport {
        StoredImport {
            id: "imp-1".into(),
            files: vec![StoredFile {
                name: "x.json".into(),
                text: "{\"a\":1}".into(),
            }],
            model: None,
        }
    }

    #[test]
    fn stored_imports_round_trip_one_entry_each_and_garbage_is_an_error() {
        let stored = one_file_import();
        assert_eq!(read_entry(&entry_text(&stored)), Ok(stored.clone()));
        assert!(read_entry("not json").is_err());
        assert!(read_entry("null").is_err());
        assert_eq!(storage_key("imp-1"), "llm-slo-planner.import.imp-1");
        assert_eq!(stored.input_files()[0].name, "x.json");
    }

    #[test]
    fn the_legacy_array_keeps_what_it_cannot_read() {
        // cases/reliability/stored-imports-one-unreadable.json: one good import, then null.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/cases/reliability/stored-imports-one-unreadable.json"
        ))
        .unwrap();
        let split = split_legacy(&text).unwrap();
        assert_eq!(split.entries.len(), 1);
        assert_eq!(split.entries[0].0, "imp-6bc0a9d8");
        assert_eq!(
            read_entry(&split.entries[0].1).unwrap().files[0].name,
            "A.csv"
        );
        assert_eq!(split.unreadable, 1);
        assert_eq!(split.rest.as_deref(), Some("[null]"));
        assert!(split_legacy("not json").is_err());
        let all_good = split_legacy("[]").unwrap();
        assert_eq!((all_good.entries.len(), all_good.rest), (0, None));
    }

    #[test]
    fn a_readable_import_beside_garbage_in_the_legacy_array_is_read() {
        let stored = one_file_import();
        let good = entry_text(&stored);
        // A good import, an element that is no import, then text cut short.
        let text = format!("[{good}, 7, {{\"id\": \"imp-2\", \"files\": [ garbage");
        let split = split_legacy(&text).unwrap();
        assert_eq!(split.entries, vec![("imp-1".to_string(), good.clone())]);
        assert_eq!(split.unreadable, 2);
        assert_eq!(
            split.rest.as_deref(),
            Some("[7,{\"id\": \"imp-2\", \"files\": [ garbage")
        );
        // What is kept reads the same way again: nothing more is lost, nothing read twice.
        let again = split_legacy(split.rest.as_deref().unwrap_or_default()).unwrap();
        assert_eq!((again.entries.len(), again.unreadable), (0, 2));
        assert_eq!(again.rest, split.rest);
        // Garbage after a complete array.
        let after = split_legacy(&format!("[{good}] trailing")).unwrap();
        assert_eq!((after.entries.len(), after.unreadable), (1, 1));
        assert_eq!(after.rest.as_deref(), Some("[] trailing"));
    }
}
