//! Where the sweeps come from: a bundled source (`--src`, compiled into the binary, no network)
//! or files and folders, read the way the page reads a multi-file import (a folder's files
//! named by their path under the folder, as a browser's folder pick names them) and imported by
//! the page's importers (`core::import::read`).

use std::path::{Path, PathBuf};

use llm_slo_planner::core::import::bundled::{lm_arena_chat, parse_task_file};
use llm_slo_planner::core::import::reference::reference;
use llm_slo_planner::core::import::sources::{workload, ImportId, REFERENCE_SOURCE, WORKLOADS};
use llm_slo_planner::core::import::{
    admit, read_stream, read_with_streams, streams, Import, ImportOptions, InputFile,
};
use llm_slo_planner::core::model::format::bytes;
use llm_slo_planner::core::model::source::Source;

/// Files above this many are read with progress on stderr.
const PROGRESS_ABOVE: usize = 20;
/// Progress is reported every this many files.
const PROGRESS_EVERY: usize = 100;

/// A source to plan on.
pub struct Loaded {
    /// The sweeps.
    pub source: Source,
    /// The page's `src`: a bundled source other than the default (`None`: the default), or for
    /// an import the id the page gives the same files (`imp-…`, see `sources::import_id`).
    pub src: Option<String>,
    /// True for imported files: a link carries them in `#sweep=`.
    pub imported: bool,
    /// Rows and files that could not be used beside the usable ones ("file, row N: why").
    pub problems: Vec<String>,
    /// Numbers that cannot be true together, and loads not served as offered.
    pub notes: Vec<String>,
}

/// The task file of a bundled workload that the page fetches on first use, compiled in here.
fn task_file(path: &str) -> Option<&'static str> {
    match path {
        "data/gpqa.json" => Some(include_str!("../../public/data/gpqa.json")),
        "data/sourcegraph-fim.json" => Some(include_str!("../../public/data/sourcegraph-fim.json")),
        "data/image-chat.json" => Some(include_str!("../../public/data/image-chat.json")),
        _ => None,
    }
}

/// A bundled source by its `src`: a workload (`None`: the default) or the reference systems.
///
/// Errors: a message naming `--src` and the ids it takes.
pub fn bundled(src: Option<&str>) -> Result<Loaded, String> {
    let id = src.map(str::trim).filter(|s| !s.is_empty());
    let source = match id.map(|id| (id, workload(id))) {
        None => lm_arena_chat().clone(),
        Some((_, Some(w))) => match w.path {
            None => lm_arena_chat().clone(),
            Some(path) => {
                let text =
                    task_file(path).ok_or_else(|| format!("--src {}: not compiled in", w.id))?;
                parse_task_file(text).map_err(|e| format!("--src {}: {e}", w.id))?
            }
        },
        Some((REFERENCE_SOURCE, None)) => reference().clone(),
        Some((other, None)) => {
            let ids: Vec<&str> = WORKLOADS
                .iter()
                .map(|w| w.id)
                .chain([REFERENCE_SOURCE])
                .collect();
            return Err(format!(
                "--src \"{other}\" is not a bundled source: give one of {}, or files and folders",
                ids.join(", ")
            ));
        }
    };
    Ok(Loaded {
        source,
        src: id
            .filter(|id| workload(id).is_none_or(|w| w.path.is_some()))
            .map(str::to_string),
        imported: false,
        problems: Vec::new(),
        notes: Vec::new(),
    })
}

/// Every file under `folder`, in path order: hidden files and folders (`.git`) and symlinked
/// folders (which can loop) are skipped; a symlink to a file is read.
fn walk(folder: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut found: Vec<(PathBuf, std::fs::FileType)> = entries
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    for (path, kind) in found {
        if kind.is_dir() {
            walk(&path, out)?;
        } else if !(kind.is_symlink() && path.is_dir()) {
            out.push(path);
        }
    }
    Ok(())
}

/// `-`: the standard input, read as one file.
const STDIN: &str = "-";

/// The files to read, each with its name as the page would give it: a file by its name, a
/// folder's files by their path from the folder's name (`results/run1/a.json`), the standard
/// input (`-`) as `stdin`. A file given twice (or also inside a given folder) is read once.
///
/// Errors: a path that does not exist, or a folder with no file to read.
pub fn files_of(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut add = |name: String, path: PathBuf| {
        let key = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
        if seen.insert(key) {
            files.push((name, path));
        }
    };
    for path in paths {
        let name_of = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        if path.as_os_str() == STDIN {
            add("stdin".to_string(), path.clone());
        } else if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            if found.is_empty() {
                return Err(format!(
                    "{}: no file to read in this folder",
                    path.display()
                ));
            }
            let base =
                std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let folder = name_of(&base).unwrap_or_default();
            for file in found {
                let under = file.strip_prefix(path).unwrap_or(&file);
                let parts: Vec<String> = std::iter::once(folder.clone())
                    .chain(under.iter().map(|c| c.to_string_lossy().into_owned()))
                    .filter(|c| !c.is_empty())
                    .collect();
                add(parts.join("/"), file);
            }
        } else if path.exists() {
            add(
                name_of(path).unwrap_or_else(|| path.display().to_string()),
                path.clone(),
            );
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

/// True for a file read as a stream (`import::streams`: large, and JSON from its first bytes);
/// never the standard input.
fn is_streamed(path: &Path, bytes: usize) -> bool {
    path.as_os_str() != STDIN
        && streams(bytes, |n| {
            let mut head = vec![0u8; n];
            let read = std::fs::File::open(path)
                .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
                .unwrap_or(0);
            head.truncate(read);
            head
        })
}

/// A file's bytes (`-`: the standard input).
fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    if path.as_os_str() == STDIN {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)?;
        Ok(bytes)
    } else {
        std::fs::read(path)
    }
}

/// Imports files and folders: sizes checked as the page checks picked files (`admit`), large
/// JSON files read as a stream (`import::read_stream`: never held whole), the others' texts
/// read as UTF-8 (invalid bytes replaced, as a browser reads a file's text), then the page's
/// importers. A file that cannot be read is a problem beside the others, as a malformed one
/// is. `progress` gets a line now and then for imports of many files.
///
/// Errors: every problem, located, when no row is usable (or a path cannot be listed).
pub fn import(paths: &[PathBuf], mut progress: impl FnMut(String)) -> Result<Loaded, Vec<String>> {
    let listed = files_of(paths).map_err(|e| vec![e])?;
    let sizes: Vec<(&str, usize, bool)> = listed
        .iter()
        .map(|(name, path)| {
            let size = std::fs::metadata(path).map_or(0, |m| m.len());
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            (name.as_str(), size, is_streamed(path, size))
        })
        .collect();
    let (admitted, refused) = admit(&sizes);
    let mut problems: Vec<String> = refused.iter().map(|p| p.located()).collect();
    let total = listed.len();
    let many = total > PROGRESS_ABOVE;
    if many {
        progress(format!("reading {total} files"));
    }
    let mut files = Vec::new();
    let mut streamed = Vec::new();
    let mut id = ImportId::new();
    for (k, ((name, path), ok)) in listed.iter().zip(admitted).enumerate() {
        if many && k > 0 && k % PROGRESS_EVERY == 0 {
            progress(format!("read {k} of {total} files"));
        }
        if !ok {
            continue;
        }
        if sizes[k].2 {
            match std::fs::File::open(path) {
                Ok(file) => {
                    progress(format!(
                        "reading {name} ({}) as a stream",
                        bytes(sizes[k].1)
                    ));
                    streamed.push(read_stream(name.clone(), id.reading(name, file)));
                }
                Err(e) => problems.push(format!("{name}: cannot be read ({e})")),
            }
            continue;
        }
        match read_bytes(path) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                id.text(name, &text);
                files.push(InputFile {
                    name: name.clone(),
                    text,
                });
            }
            Err(e) => problems.push(format!("{name}: cannot be read ({e})")),
        }
    }
    if many {
        progress(format!("importing {} files", files.len() + streamed.len()));
    }
    if files.is_empty() && streamed.is_empty() {
        return Err(problems);
    }
    let id = id.finish(None);
    match read_with_streams(&files, streamed, &ImportOptions::default()).1 {
        Ok(import) => Ok(loaded(import, id, problems)),
        Err(found) => Err(problems
            .into_iter()
            .chain(found.iter().map(|p| p.located()))
            .collect()),
    }
}

/// The source an import gives, under its `id`: the files' own `problems` (unreadable,
/// refused) first, then the import's problems; its notes and warnings apart.
fn loaded(import: Import, id: String, problems: Vec<String>) -> Loaded {
    Loaded {
        source: import.source,
        src: Some(id),
        imported: true,
        problems: problems
            .into_iter()
            .chain(
                import
                    .problems
                    .iter()
                    .filter(|p| !p.error.is_note())
                    .map(|p| p.located()),
            )
            .collect(),
        notes: import
            .problems
            .iter()
            .filter(|p| p.error.is_note())
            .map(|p| p.located())
            .chain(import.warnings.iter().map(|w| w.text()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_workload_is_compiled_in() {
        for w in WORKLOADS {
            let loaded = bundled(Some(w.id)).unwrap();
            assert_eq!(loaded.source.task, w.id);
            assert_eq!(loaded.src.is_some(), w.path.is_some(), "{}", w.id);
        }
        assert!(!bundled(Some(REFERENCE_SOURCE))
            .unwrap()
            .source
            .sweeps
            .is_empty());
        assert_eq!(bundled(None).unwrap().source.sweeps.len(), 38);
        assert!(bundled(Some("nope")).err().unwrap().contains("gpqa"));
    }
}
