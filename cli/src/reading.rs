//! An import's files read on every core: each file by one of as many threads as the machine has
//! cores (a text read whole; a stream parsed as it is read, quickly where it can be:
//! `import::read_stream_quick`), while this thread adds the files to the import's id in the
//! order they were listed, as the page adds them (`ImportId`: one hash over every file's name and
//! bytes, in order, so a file's bytes can be added only once those before it are). This thread
//! reads each streamed file a second time for it, ahead of the threads parsing it (from the page
//! cache, several times faster than parsing); a file whose read stopped early (a problem that
//! ends it) is added again, up to where its read stopped. The import is the one reading the files
//! one after the other gives.

use std::io::Read;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};

use llm_slo_planner::core::import::bounded::text_of;
use llm_slo_planner::core::import::sources::ImportId;
use llm_slo_planner::core::import::{read_stream, read_stream_quick, InputFile, StreamedFile};

use crate::files::{streaming, text_bytes, Begun, Content};
use crate::input::{Listed, Progress, ReadFiles};
use crate::said::Said;

/// Bytes read at a time to add a streamed file to the import's id.
const HASH_READ_BYTES: usize = 1 << 20;

/// A listed file of a size the file system knows (see [`Listed`]): its size and whether it is
/// read as a stream.
pub(crate) type Sized<'a, 'b> = (&'b Listed<'a>, (usize, bool));

/// `files` with their sizes when they are read in parallel: several, on a machine of several
/// cores, each of a size the file system knows ([`sizes_known`]); `None` otherwise.
pub(crate) fn in_parallel<'a, 'b>(files: &'b [Listed<'a>]) -> Option<Vec<Sized<'a, 'b>>> {
    if files.len() < 2 || threads(files.len()) < 2 {
        return None;
    }
    sizes_known(files)
}

/// `files` with their sizes, when the file system knows each (the standard input and devices
/// are read once, in order).
pub(crate) fn sizes_known<'a, 'b>(files: &'b [Listed<'a>]) -> Option<Vec<Sized<'a, 'b>>> {
    files.iter().map(|f| f.size.map(|size| (f, size))).collect()
}

/// The threads that read `files` files: one a core, at most one a file.
fn threads(files: usize) -> usize {
    std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(files)
}

/// What a reading thread tells this one.
enum Message {
    /// A progress line.
    Progress(String),
    /// The file at this place of the list read, and how many of its bytes (a stream's; 0 for a
    /// text).
    Read(usize, Result<Content, Said>, u64),
}

/// A file as this thread keeps it, read.
enum Done {
    Text(String),
    Stream(StreamedFile, u64),
    Failed(Said),
}

/// A reader that counts the bytes read through it.
struct Counted<'a, R> {
    inner: R,
    bytes: &'a mut u64,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        *self.bytes += n as u64;
        Ok(n)
    }
}

/// A listed file read on a reading thread: a stream quickly, or again the exact way where that
/// reader is unsure; with how many of its bytes were read (a stream's).
fn read_one(
    (file, (bytes, streamed)): Sized,
    progress: &mut dyn FnMut(String),
) -> (Result<Content, Said>, u64) {
    let open = || std::fs::File::open(file.path).map_err(|e| Said::unreadable(file.name, &e));
    if !streamed {
        return (
            open().and_then(|f| {
                let begun = Begun {
                    bytes: Vec::new(),
                    expected: bytes,
                };
                text_bytes(file.name, begun, f)
            }),
            0,
        );
    }
    let mut read = 0;
    let quick = open().map(|f| {
        progress(streaming(file.name, bytes));
        read_stream_quick(
            file.name.to_string(),
            Counted {
                inner: f,
                bytes: &mut read,
            },
        )
    });
    match quick {
        Err(problem) => (Err(problem), 0),
        Ok(Some(streamed)) => (Ok(Content::Stream(streamed)), read),
        Ok(None) => {
            read = 0;
            let exact = open().map(|f| {
                Content::Stream(read_stream(
                    file.name.to_string(),
                    Counted {
                        inner: f,
                        bytes: &mut read,
                    },
                ))
            });
            (exact, read)
        }
    }
}

/// Reads `files` on every core, then gives them in their order (see the module).
pub(crate) fn read_in_parallel(files: &[Sized], progress: &mut Progress) -> ReadFiles {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads(files.len()) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || loop {
                let at = next.fetch_add(1, Ordering::Relaxed);
                let Some(&file) = files.get(at) else {
                    return;
                };
                let mut say = |line| {
                    let _ = tx.send(Message::Progress(line));
                };
                let (read, bytes) = read_one(file, &mut say);
                if tx.send(Message::Read(at, read, bytes)).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        in_order(files, &rx, progress)
    })
}

/// This thread's part: the files' results, as they come, put in order, and the import's id
/// made in that order (see the module).
fn in_order(files: &[Sized], rx: &Receiver<Message>, progress: &mut Progress) -> ReadFiles {
    let mut done: Vec<Option<Done>> = files.iter().map(|_| None).collect();
    let mut id = ImportId::new();
    // The id before each file, and the bytes of each streamed file added ahead of its read.
    let mut before = Vec::with_capacity(files.len());
    let mut ahead = Vec::with_capacity(files.len());
    for (at, &(file, (_, streamed))) in files.iter().enumerate() {
        progress.before(file.k);
        before.push(id.clone());
        if streamed {
            ahead.push(add_stream(&mut id, file, u64::MAX, &mut || {
                while let Ok(message) = rx.try_recv() {
                    take(&mut done, message, progress);
                }
            }));
            continue;
        }
        ahead.push(None);
        while done[at].is_none() {
            let Ok(message) = rx.recv() else { break };
            take(&mut done, message, progress);
        }
        if let Some(Done::Text(text)) = &done[at] {
            id.text(file.name, text);
        }
    }
    while let Ok(message) = rx.recv() {
        take(&mut done, message, progress);
    }
    // A streamed file whose read stopped before its end (or could not be read either time):
    // the id again from there, with what was read.
    let stopped = files
        .iter()
        .zip(&done)
        .zip(&ahead)
        .position(|((_, done), ahead)| {
            let read = match done {
                Some(Done::Stream(_, bytes)) => Some(*bytes),
                _ => None,
            };
            ahead.is_some() && *ahead != read
        });
    if let Some(from) = stopped {
        id = before[from].clone();
        for (&(file, _), done) in files[from..].iter().zip(&done[from..]) {
            match done {
                Some(Done::Text(text)) => id.text(file.name, text),
                Some(Done::Stream(_, bytes)) => {
                    add_stream(&mut id, file, *bytes, &mut || ());
                }
                _ => {}
            }
        }
    }
    gathered(files, done, id)
}

/// A reading thread's message taken: a progress line said, a file read kept at its place.
fn take(done: &mut [Option<Done>], message: Message, progress: &mut Progress) {
    match message {
        Message::Progress(line) => progress.line(line),
        Message::Read(at, read, bytes) => {
            done[at] = Some(match read {
                Ok(Content::Bytes(bytes)) => Done::Text(text_of(bytes)),
                Ok(Content::Stream(streamed)) => Done::Stream(streamed, bytes),
                Err(problem) => Done::Failed(problem),
            });
        }
    }
}

/// Adds the file's name and its first `limit` bytes to `id`, as reading it as a stream would,
/// calling `between` between reads; how many bytes were added (`None`: it cannot be opened, and
/// nothing was added).
fn add_stream(
    id: &mut ImportId,
    file: &Listed,
    limit: u64,
    between: &mut dyn FnMut(),
) -> Option<u64> {
    let f = std::fs::File::open(file.path).ok()?;
    let mut reader = id.reading(file.name, f.take(limit));
    let mut buf = vec![0; HASH_READ_BYTES];
    let mut added = 0;
    while let Ok(n) = reader.read(&mut buf) {
        if n == 0 {
            break;
        }
        added += n as u64;
        between();
    }
    Some(added)
}

/// The files read, in their order, under the import's `id`.
fn gathered(files: &[Sized], done: Vec<Option<Done>>, id: ImportId) -> ReadFiles {
    let mut read = ReadFiles {
        id,
        ..ReadFiles::new()
    };
    for (&(file, _), done) in files.iter().zip(done) {
        match done {
            Some(Done::Text(text)) => read.files.push(InputFile {
                name: file.name.to_string(),
                text,
            }),
            Some(Done::Stream(streamed, _)) => read.streamed.push(streamed),
            Some(Done::Failed(problem)) => read.problems.push(problem),
            None => {}
        }
    }
    read
}
