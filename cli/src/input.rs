//! Where the sweeps come from: a bundled source (`--src`, compiled into the binary, no network)
//! or files and folders, read the way the page reads a multi-file import (a folder's files
//! named by their path under the folder, as a browser's folder pick names them) and imported by
//! the page's importers (`core::import::read`).

use std::path::{Path, PathBuf};

use llm_slo_planner::core::bundled::{lm_arena_chat, parse_task_file};
use llm_slo_planner::core::import::{admit, read, ImportOptions, InputFile};
use llm_slo_planner::core::reference::reference;
use llm_slo_planner::core::sources::{workload, REFERENCE_SOURCE, WORKLOADS};
use llm_slo_planner::core::sweep::Source;

/// Files above this many are read with progress on stderr.
const PROGRESS_ABOVE: usize = 20;
/// Progress is reported every this many files.
const PROGRESS_EVERY: usize = 100;

/// A source to plan on.
pub struct Loaded {
    /// The sweeps.
    pub source: Source,
    /// The page's `src` of a bundled source other than the default (`None`: the default, or an
    /// import, which a link carries in `#sweep=`).
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

/// Every file under `folder`, in path order, skipping hidden files and folders (`.git`).
fn walk(folder: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| !n.starts_with('.'))
        })
        .collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.is_file() {
            out.push(path);
        }
    }
    Ok(())
}

/// The files to read, each with its name as the page would give it: a file by its name, a
/// folder's files by their path from the folder's name (`results/run1/a.json`).
///
/// Errors: a path that is neither a file nor a folder.
pub fn files_of(paths: &[PathBuf]) -> Result<Vec<(String, PathBuf)>, String> {
    let mut files = Vec::new();
    for path in paths {
        let name_of = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
        if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            let base =
                std::fs::canonicalize(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let folder = name_of(&base).unwrap_or_default();
            for file in found {
                let under = file.strip_prefix(path).unwrap_or(&file);
                let parts: Vec<String> = std::iter::once(folder.clone())
                    .chain(under.iter().map(|c| c.to_string_lossy().into_owned()))
                    .filter(|c| !c.is_empty())
                    .collect();
                files.push((parts.join("/"), file));
            }
        } else if path.is_file() {
            files.push((name_of(path).unwrap_or_default(), path.clone()));
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    Ok(files)
}

/// Imports files and folders: sizes checked as the page checks picked files (`admit`), texts
/// read as UTF-8 (invalid bytes replaced, as a browser reads a file's text), then the page's
/// importers. `progress` gets a line now and then for imports of many files.
///
/// Errors: every problem, located, when no row is usable (or a path cannot be read).
pub fn import(paths: &[PathBuf], mut progress: impl FnMut(String)) -> Result<Loaded, Vec<String>> {
    let listed = files_of(paths).map_err(|e| vec![e])?;
    let sizes: Vec<(&str, usize)> = listed
        .iter()
        .map(|(name, path)| {
            let size = std::fs::metadata(path).map_or(0, |m| m.len());
            (name.as_str(), usize::try_from(size).unwrap_or(usize::MAX))
        })
        .collect();
    let (admitted, refused) = admit(&sizes);
    let total = listed.len();
    let many = total > PROGRESS_ABOVE;
    if many {
        progress(format!("reading {total} files"));
    }
    let mut files = Vec::new();
    for (k, ((name, path), ok)) in listed.iter().zip(admitted).enumerate() {
        if many && k > 0 && k % PROGRESS_EVERY == 0 {
            progress(format!("read {k} of {total} files"));
        }
        if !ok {
            continue;
        }
        let bytes = std::fs::read(path).map_err(|e| vec![format!("{}: {e}", path.display())])?;
        files.push(InputFile {
            name: name.clone(),
            text: String::from_utf8_lossy(&bytes).into_owned(),
        });
    }
    if many {
        progress(format!("importing {} files", files.len()));
    }
    let refused: Vec<String> = refused.iter().map(|p| p.located()).collect();
    match read(&files, &ImportOptions::default()).1 {
        Ok(import) => Ok(Loaded {
            source: import.source,
            src: None,
            imported: true,
            problems: refused
                .into_iter()
                .chain(import.problems.iter().map(|p| p.located()))
                .collect(),
            notes: import.warnings.iter().map(|w| w.text()).collect(),
        }),
        Err(problems) => Err(refused
            .into_iter()
            .chain(problems.iter().map(|p| p.located()))
            .collect()),
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
