//! Where the sweeps come from: a bundled source (`--src`, compiled into the binary, no network)
//! or files and folders, read the way the page reads a multi-file import (a folder's files
//! named by their path under the folder, as a browser's folder pick names them; listed and read
//! by [`files`](crate::files)) and imported by the page's importers (`core::import::read`).

use std::path::{Path, PathBuf};

use llm_slo_planner::core::import::bounded::text_of;
use llm_slo_planner::core::import::bundled::{lm_arena_chat, parse_task_file};
use llm_slo_planner::core::import::reference::reference;
use llm_slo_planner::core::import::sources::{workload, ImportId, REFERENCE_SOURCE, WORKLOADS};
use llm_slo_planner::core::import::{
    admit, read_with_streams, Import, ImportOptions, InputFile, Problem, StreamedFile,
};
use llm_slo_planner::core::model::source::Source;

use crate::files::{files_of, is_streamed, read_file, size_of, Content};
use crate::reading;
use crate::said::Said;

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
    /// Rows and files that could not be used beside the usable ones.
    pub problems: Vec<Said>,
    /// Notes on what was read, numbers that cannot be true together, loads not served as
    /// offered.
    pub notes: Vec<Said>,
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
                "--src: \"{other}\" is not a bundled source: give one of {}, or files and folders",
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

/// Imports files and folders: sizes checked as the page checks picked files (`admit`), large
/// JSON files read as a stream (`import::read_stream`: never held whole), the others' texts
/// read as UTF-8 (invalid bytes replaced, as a browser reads a file's text), then the page's
/// importers. The standard input and other inputs of unknown size are read the same way, up to
/// the same limits ([`read_unsized`]). A file that cannot be read is a problem beside the
/// others, as a malformed one is. `progress` gets a line now and then for imports of many files.
///
/// Errors: every problem when no row is usable (or a path cannot be listed).
pub fn import(paths: &[PathBuf], mut progress: impl FnMut(String)) -> Result<Loaded, Vec<Said>> {
    let listed = files_of(paths).map_err(|e| vec![Said::command(e)])?;
    let sized: Vec<Option<(usize, bool)>> = listed
        .iter()
        .map(|(_, path)| size_of(path).map(|size| (size, is_streamed(path, size))))
        .collect();
    let sizes: Vec<(&str, usize, bool)> = listed
        .iter()
        .zip(&sized)
        .map(|((name, _), size)| {
            let (bytes, streamed) = size.unwrap_or((0, false));
            (name.as_str(), bytes, streamed)
        })
        .collect();
    let (admitted, refused) = admit(&sizes);
    let mut problems: Vec<Said> = refused.iter().map(Said::from).collect();
    let total = listed.len();
    let many = total > PROGRESS_ABOVE;
    if many {
        progress(format!("reading {total} files"));
    }
    let mut said = Progress {
        say: &mut progress,
        total: if many { total } else { 0 },
        passed: 0,
    };
    let to_read: Vec<Listed> = listed
        .iter()
        .zip(admitted)
        .zip(&sized)
        .enumerate()
        .filter(|(_, ((_, ok), _))| *ok)
        .map(|(k, (((name, path), _), size))| Listed {
            k,
            name,
            path,
            size: *size,
        })
        .collect();
    let read = if let Some(sized) = reading::in_parallel(&to_read) {
        reading::read_in_parallel(&sized, &mut said)
    } else {
        read_in_order(&to_read, &mut said)
    };
    said.before(total);
    problems.extend(read.problems);
    let (files, streamed, id) = (read.files, read.streamed, read.id);
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
            .chain(found.iter().map(Said::from))
            .collect()),
    }
}

/// A listed file to read: its place among those listed, its name (as the page names it), its
/// path, and its size and whether it is read as a stream where the file system knows them.
pub(crate) struct Listed<'a> {
    pub k: usize,
    pub name: &'a str,
    pub path: &'a Path,
    pub size: Option<(usize, bool)>,
}

/// What reading an import's files gave: their texts and streams in the order listed, the
/// problems of those that could not be read, and the import's id, made in that order.
pub(crate) struct ReadFiles {
    pub files: Vec<InputFile>,
    pub streamed: Vec<StreamedFile>,
    pub problems: Vec<Said>,
    pub id: ImportId,
}

impl ReadFiles {
    pub fn new() -> ReadFiles {
        ReadFiles {
            files: Vec::new(),
            streamed: Vec::new(),
            problems: Vec::new(),
            id: ImportId::new(),
        }
    }

    /// Adds a file's text, read as bytes (invalid UTF-8 replaced), to the import and its id.
    pub fn add_text(&mut self, name: &str, bytes: Vec<u8>) {
        let text = text_of(bytes);
        self.id.text(name, &text);
        self.files.push(InputFile {
            name: name.to_string(),
            text,
        });
    }
}

/// An import's progress: its lines, and for an import of many files a line every
/// [`PROGRESS_EVERY`] files passed.
pub(crate) struct Progress<'a> {
    say: &'a mut dyn FnMut(String),
    /// The files listed (0: too few to count them), and how many of them have been passed.
    total: usize,
    passed: usize,
}

impl Progress<'_> {
    /// Says `line`.
    pub fn line(&mut self, line: String) {
        (self.say)(line);
    }

    /// Before the file at `k` among those listed is read (or `k` the number listed, after the
    /// last): "read 100 of 250 files" for each hundred passed since the last call, this one
    /// included.
    pub fn before(&mut self, k: usize) {
        for j in self.passed..(k + 1).min(self.total) {
            if j > 0 && j % PROGRESS_EVERY == 0 {
                (self.say)(format!("read {j} of {} files", self.total));
            }
        }
        self.passed = self.passed.max(k + 1);
    }
}

/// Reads `files` one after the other, each added to the id as it is read.
fn read_in_order(files: &[Listed], progress: &mut Progress) -> ReadFiles {
    let mut read = ReadFiles::new();
    for file in files {
        progress.before(file.k);
        let progress = &mut |line| progress.line(line);
        match read_file(file.name, file.path, file.size, &mut read.id, progress) {
            Ok(Content::Stream(streamed)) => read.streamed.push(streamed),
            Ok(Content::Bytes(bytes)) => read.add_text(file.name, bytes),
            Err(problem) => read.problems.push(problem),
        }
    }
    read
}

/// The source an import gives, under its `id`: the files' own `problems` (unreadable,
/// refused) first, then the import's problems; its notes and warnings apart.
fn loaded(import: Import, id: String, problems: Vec<Said>) -> Loaded {
    let (notes, others): (Vec<&Problem>, Vec<&Problem>) =
        import.problems.iter().partition(|p| p.error.is_note());
    Loaded {
        source: import.source,
        src: Some(id),
        imported: true,
        problems: problems
            .into_iter()
            .chain(others.into_iter().map(Said::from))
            .collect(),
        notes: notes
            .into_iter()
            .map(Said::from)
            .chain(import.warnings.iter().map(|w| Said {
                flag: Some(w.kind.clone()),
                ..Said::command(w.text())
            }))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llm_slo_planner::core::import::read_with_streams;

    /// A vLLM `--save-detailed` result at `concurrency` of 1,600 requests of 200 gaps each
    /// (4.6 MB: read as a stream); `bad` writes its first request's first gap out of range, where
    /// serde_json's reading stops.
    fn detailed(concurrency: u32, bad: bool) -> String {
        const REQUESTS: usize = 1600;
        let list = |v: &str| vec![v; REQUESTS].join(",");
        let gaps: Vec<String> = (0..200)
            .map(|i| format!("0.0{}4321987654321", i % 7 + 1))
            .collect();
        let gaps = format!("[{}]", gaps.join(", "));
        let first = if bad {
            gaps.replacen("0.01", "1e400", 1)
        } else {
            gaps.clone()
        };
        format!(
            r#"{{"backend": "vllm", "model_id": "org/parallel", "max_concurrency": {concurrency}, "completed": {REQUESTS}, "duration": 60.0, "output_throughput": 1000.0, "output_lens": [{}], "ttfts": [{}], "errors": [{}], "generated_texts": [{}], "itls": [{first}, {}]}}"#,
            list("201"),
            list("0.125"),
            list("\"\""),
            list("\"a text\\n\""),
            vec![gaps.as_str(); REQUESTS - 1].join(", ")
        )
    }

    #[test]
    fn files_read_in_parallel_are_the_import_reading_them_in_order_gives() {
        let dir =
            std::env::temp_dir().join(format!("llm-slo-planner-parallel-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a-c1.json"), detailed(1, false)).unwrap();
        std::fs::write(
            dir.join("b.csv"),
            "model,concurrency,output_tok_s,p50_itl_ms\nm,1,100,10\nm,2,180,11\n",
        )
        .unwrap();
        std::fs::write(dir.join("c-c2.json"), detailed(2, true)).unwrap();
        std::fs::write(dir.join("d-c4.json"), detailed(4, false)).unwrap();
        std::fs::write(dir.join("e.json"), "{\"not\": \"a run\"}").unwrap();
        let listed = files_of(std::slice::from_ref(&dir)).unwrap();
        let to_read: Vec<Listed> = listed
            .iter()
            .enumerate()
            .map(|(k, (name, path))| Listed {
                k,
                name,
                path,
                size: size_of(path).map(|size| (size, is_streamed(path, size))),
            })
            .collect();
        let mut lines = Vec::new();
        let mut say = |line: String| lines.push(line);
        let mut progress = Progress {
            say: &mut say,
            total: 0,
            passed: 0,
        };
        let sized = reading::sizes_known(&to_read).unwrap();
        let parallel = reading::read_in_parallel(&sized, &mut progress);
        let serial = read_in_order(&to_read, &mut progress);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(parallel.problems, serial.problems);
        let imported = |read: ReadFiles| {
            let import = read_with_streams(&read.files, read.streamed, &ImportOptions::default()).1;
            (import, read.id.finish(None))
        };
        let (parallel, serial) = (imported(parallel), imported(serial));
        assert_eq!(parallel, serial);
        // Three streams (one read only in part), a CSV, a JSON text: two sweeps.
        let import = serial.0.unwrap();
        assert_eq!(import.source.sweeps.len(), 2);
        assert!(import
            .problems
            .iter()
            .any(|p| p.file.ends_with("c-c2.json") && p.message().contains("number out of range")));
    }

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
