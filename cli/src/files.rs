//! The files a command names, listed and read: folders walked into their files (named as a
//! browser's folder pick names them), each file read as the page reads a picked file (its
//! bytes, or a stream of a large JSON file), within the page's limits.

use std::io::Read;
use std::path::{Path, PathBuf};

use llm_slo_planner::core::import::bounded::read_up_to;
use llm_slo_planner::core::import::sources::ImportId;
use llm_slo_planner::core::import::{
    read_stream, read_stream_quick, streams, RowError, StreamedFile,
};
use llm_slo_planner::core::model::format;
use llm_slo_planner::core::model::limits::{MAX_FILE_BYTES, STREAM_ABOVE_BYTES};

use crate::said::Said;

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
pub(crate) fn size_of(path: &Path) -> Option<usize> {
    if path.as_os_str() == STDIN {
        return None;
    }
    let meta = std::fs::metadata(path).ok()?;
    meta.is_file()
        .then(|| usize::try_from(meta.len()).unwrap_or(usize::MAX))
}

/// True for a file of `bytes` read as a stream (`import::streams`: large, and JSON from its
/// first bytes).
pub(crate) fn is_streamed(path: &Path, bytes: usize) -> bool {
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

/// A file's bytes read so far, and how many more are expected.
pub(crate) struct Begun {
    /// The bytes read so far (none, or the head read to tell a stream from a text).
    pub(crate) bytes: Vec<u8>,
    /// How many more bytes are expected, as far as known.
    pub(crate) expected: usize,
}

/// The bytes of a file read as a text: those `begun`, then the rest of `reader` (as many as
/// `begun` expects, as far as known), up to [`MAX_FILE_BYTES`].
///
/// Errors: the file goes on past [`MAX_FILE_BYTES`] ([`RowError::PastLimit`]: an endless
/// input, or a file that grew since its size was read), or cannot be read.
pub(crate) fn text_bytes(name: &str, begun: Begun, mut reader: impl Read) -> Result<Content, Said> {
    let Begun {
        mut bytes,
        expected,
    } = begun;
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
    text_bytes(
        name,
        Begun {
            bytes: head,
            expected: MAX_FILE_BYTES,
        },
        reader,
    )
}

/// The progress line of a file of `bytes` read as a stream.
pub(crate) fn streaming(name: &str, bytes: usize) -> String {
    format!("reading {name} ({}) as a stream", format::bytes(bytes))
}

/// A listed file read: a file of known `size` as a stream when `streams` chose so, else as a
/// text; the others as [`read_unsized`] decides.
///
/// Errors: the problem, with the file's name.
pub(crate) fn read_file(
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
            text_bytes(
                name,
                Begun {
                    bytes: Vec::new(),
                    expected: size,
                },
                file,
            )
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
