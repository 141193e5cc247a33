//! Where the sweeps come from: a bundled source (`--src`, compiled into the binary, no network)
//! or files and folders, read the way the page reads a multi-file import (a folder's files
//! named by their path under the folder, as a browser's folder pick names them) and imported by
//! the page's importers (`core::import::read`).

use std::io::Read;
use std::path::{Path, PathBuf};

use llm_slo_planner::core::import::bounded::{read_up_to, text_of};
use llm_slo_planner::core::import::bundled::{lm_arena_chat, parse_task_file};
use llm_slo_planner::core::import::reference::reference;
use llm_slo_planner::core::import::sources::{workload, ImportId, REFERENCE_SOURCE, WORKLOADS};
use llm_slo_planner::core::import::{
    admit, read_stream, read_stream_quick, read_with_streams, streams, Import, ImportOptions,
    InputFile, Problem, RowError, StreamedFile,
};
use llm_slo_planner::core::model::format;
use llm_slo_planner::core::model::limits::{MAX_FILE_BYTES, STREAM_ABOVE_BYTES};
use llm_slo_planner::core::model::source::Source;

use crate::reading;

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

/// A problem or a note, with the file and row it is about: stderr says it located, the JSON
/// carries its parts.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    /// The file it is about; `None` for the import or the command as a whole.
    pub file: Option<String>,
    /// The row, record or line it is about.
    pub row: Option<usize>,
    /// The anomaly flag it counts (`implausible-speed`, …), for an import's warning about rows.
    pub flag: Option<String>,
    /// What it says.
    pub text: String,
}

impl Said {
    /// A note of the command as a whole.
    pub fn command(text: String) -> Said {
        Said {
            file: None,
            row: None,
            flag: None,
            text,
        }
    }

    /// A problem of the file `name`.
    fn of_file(name: &str, text: String) -> Said {
        Said {
            file: Some(name.to_string()),
            ..Said::command(text)
        }
    }

    /// The file `name` cannot be read.
    pub(crate) fn unreadable(name: &str, e: &std::io::Error) -> Said {
        Said::of_file(name, format!("cannot be read ({e})"))
    }

    /// "a.csv, row 3: why", "a.csv: why", or the text alone, as stderr says it.
    pub fn located(&self) -> String {
        match (&self.file, self.row) {
            (None, _) => self.text.clone(),
            (Some(file), Some(row)) => format!("{file}, row {row}: {}", self.text),
            (Some(file), None) => format!("{file}: {}", self.text),
        }
    }

    /// As the JSON carries it: `{"file", "row", "flag", "text"}` (absent parts `null`).
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "row": self.row,
            "flag": self.flag,
            "text": self.text,
        })
    }
}

impl From<&Problem> for Said {
    fn from(p: &Problem) -> Said {
        Said {
            file: (p.file != "(import)").then(|| p.file.clone()),
            row: p.row,
            flag: None,
            text: p.message(),
        }
    }
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

/// A listed file's size where the file system knows it (a regular file); `None` for the
/// standard input, a device such as `/dev/zero` or a pipe, whose first bytes decide how it is
/// read ([`read_unsized`]).
fn size_of(path: &Path) -> Option<usize> {
    if path.as_os_str() == STDIN {
        return None;
    }
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file()
        .then(|| usize::try_from(meta.len()).unwrap_or(usize::MAX))
}

/// True for a file of `bytes` read as a stream (`import::streams`: large, and JSON from its
/// first bytes).
fn is_streamed(path: &Path, bytes: usize) -> bool {
    streams(bytes, |n| {
        std::fs::File::open(path)
            .and_then(|mut f| read_up_to(&mut f, n))
            .unwrap_or_default()
    })
}

/// What a file held: its bytes, or what a stream of it held.
pub(crate) enum Content {
    /// Its bytes, read whole (up to the limit of one file).
    Bytes(Vec<u8>),
    /// Read as a stream ([`read_stream`]).
    Stream(StreamedFile),
}

/// The bytes of a file read as a text: `head`, then the rest of `reader` (`expected` more
/// bytes, as far as known), up to [`MAX_FILE_BYTES`].
///
/// Errors: the file goes on past [`MAX_FILE_BYTES`] ([`RowError::PastLimit`]: an endless
/// input, or a file that grew since its size was read), or cannot be read.
pub(crate) fn text_bytes(
    name: &str,
    (mut bytes, expected): (Vec<u8>, usize),
    mut reader: impl Read,
) -> Result<Content, Said> {
    let left = (MAX_FILE_BYTES + 1).saturating_sub(bytes.len());
    // Room for what is expected (and one byte to see the end) at once, read on into it: the
    // bytes are held once, never copied to a larger buffer.
    bytes.reserve_exact(expected.saturating_add(1).min(left));
    reader
        .by_ref()
        .take(u64::try_from(left).unwrap_or(u64::MAX))
        .read_to_end(&mut bytes)
        .map_err(|e| Said::unreadable(name, &e))?;
    if bytes.len() > MAX_FILE_BYTES {
        let error = RowError::PastLimit {
            limit: MAX_FILE_BYTES,
        };
        return Err(Said::of_file(name, error.to_string()));
    }
    Ok(Content::Bytes(bytes))
}

/// Reads an input whose size is not known before it is read as the page reads a file of its
/// size: up to [`STREAM_ABOVE_BYTES`], its bytes; larger and JSON from its start, a stream
/// (bounded by the stream's own limit); else its bytes up to [`MAX_FILE_BYTES`]. An endless
/// input (`/dev/zero`, `yes |`) ends there.
///
/// Errors: the input goes on past [`MAX_FILE_BYTES`] ([`RowError::PastLimit`]), or cannot be
/// read.
fn read_unsized(
    name: &str,
    mut reader: impl Read,
    id: &mut ImportId,
    progress: &mut dyn FnMut(String),
) -> Result<Content, Said> {
    let cannot = |e: std::io::Error| Said::unreadable(name, &e);
    let head = read_up_to(&mut reader, STREAM_ABOVE_BYTES + 1).map_err(cannot)?;
    if head.len() <= STREAM_ABOVE_BYTES {
        return Ok(Content::Bytes(head));
    }
    if streams(head.len(), |n| head[..n.min(head.len())].to_vec()) {
        let stream = std::io::Cursor::new(head).chain(reader);
        progress(format!("reading {name} as a stream"));
        return Ok(Content::Stream(read_stream(
            name.to_string(),
            id.reading(name, stream),
        )));
    }
    // Large already: as large as a text may be is expected.
    text_bytes(name, (head, MAX_FILE_BYTES), reader)
}

/// The progress line of a file of `bytes` read as a stream.
pub(crate) fn streaming(name: &str, bytes: usize) -> String {
    format!("reading {name} ({}) as a stream", format::bytes(bytes))
}

/// A listed file read: a file of known `size` as a stream when `streams` chose so, else as a
/// text; the others as [`read_unsized`] decides.
///
/// Errors: the problem, with the file's name.
fn read_file(
    name: &str,
    path: &Path,
    size: Option<(usize, bool)>,
    id: &mut ImportId,
    progress: &mut dyn FnMut(String),
) -> Result<Content, Said> {
    let cannot = |e: std::io::Error| Said::unreadable(name, &e);
    match size {
        Some((bytes, true)) => {
            let file = std::fs::File::open(path).map_err(cannot)?;
            progress(streaming(name, bytes));
            // Read quickly; where that reader is unsure, again the exact way, the id as before it.
            let before = id.clone();
            if let Some(file) = read_stream_quick(name.to_string(), id.reading(name, file)) {
                return Ok(Content::Stream(file));
            }
            *id = before;
            let file = std::fs::File::open(path).map_err(cannot)?;
            Ok(Content::Stream(read_stream(
                name.to_string(),
                id.reading(name, file),
            )))
        }
        Some((size, false)) => {
            let file = std::fs::File::open(path).map_err(cannot)?;
            text_bytes(name, (Vec::new(), size), file)
        }
        None if path.as_os_str() == STDIN => {
            read_unsized(name, std::io::stdin().lock(), id, progress)
        }
        None => {
            let file = std::fs::File::open(path).map_err(cannot)?;
            read_unsized(name, file, id, progress)
        }
    }
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
