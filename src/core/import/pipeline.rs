//! The import itself: which files are read ([`admit`]), each read in name order with the
//! first format that detects it, companion files joined to their runs, runs grouped into
//! sweeps, and the notes and warnings the import carries.

use std::borrow::Cow;
use std::convert::Infallible;

use crate::core::import::bounded::{read_up_to, Bounded};
use crate::core::import::detection::{closest, is_binary, is_text, is_yaml, yaml_twin};
use crate::core::import::grouping::{cap_text, group_at_most};
use crate::core::import::{
    json, short, Body, FileFormats, Import, ImportOptions, InputFile, Measured, Parsed, Probe,
    Problem, RowError, Warning, FORMATS,
};
use crate::core::model::deployment::date_key;
use crate::core::model::format::level as level_text;
use crate::core::model::limits::{
    MAX_FILE_BYTES, MAX_IMPORT_BYTES, MAX_ROWS, MAX_STREAMED_BYTES, MAX_SWEEPS, MAX_TEXT_CHARS,
    STREAM_ABOVE_BYTES, STREAM_HEAD_BYTES,
};
use crate::core::model::source::{Provenance, Source};
use crate::core::model::sweep::Sweep;
use crate::core::plan::anomalies::{import_flag_counts, AnomalyKind};

/// Which files of an import are read, checked from their sizes (and whether each is read as a
/// stream, [`streams`]) before any is read: a file over [`MAX_FILE_BYTES`] is refused, and so
/// is each file that would bring the import past [`MAX_IMPORT_BYTES`]; files read as a stream
/// have [`MAX_STREAMED_BYTES`] for both limits, counted apart. Each refusal is a problem naming
/// the size and the limit. The tools module checks picked files this way, in its worker, before
/// it reads them.
pub fn admit(sizes: &[(&str, usize, bool)]) -> (Vec<bool>, Vec<Problem>) {
    let mut totals = [0usize; 2];
    let mut problems = Vec::new();
    let admitted = sizes
        .iter()
        .map(|&(name, bytes, streamed)| {
            let (total, file_limit, import_limit) = if streamed {
                (&mut totals[1], MAX_STREAMED_BYTES, MAX_STREAMED_BYTES)
            } else {
                (&mut totals[0], MAX_FILE_BYTES, MAX_IMPORT_BYTES)
            };
            let refusal = if bytes > file_limit {
                Some(RowError::FileTooLarge {
                    bytes,
                    limit: file_limit,
                })
            } else if total.saturating_add(bytes) > import_limit {
                Some(RowError::ImportTooLarge {
                    bytes: total.saturating_add(bytes),
                    limit: import_limit,
                })
            } else {
                *total += bytes;
                None
            };
            if let Some(error) = &refusal {
                problems.push(Problem {
                    file: name.to_string(),
                    row: None,
                    error: error.clone(),
                });
            }
            refusal.is_none()
        })
        .collect();
    (admitted, problems)
}

/// True for a file of a picked folder (`folder/sub/name`, the folder first) that is hidden or
/// inside a hidden folder (a name starting with `.`, such as `.git` or `.DS_Store`): skipped, as
/// the command line skips them when it reads a folder. The picked folder's own name is not
/// looked at.
pub fn hidden_in_folder(path: &str) -> bool {
    path.split('/').skip(1).any(|part| part.starts_with('.'))
}

/// The names of an import's files for its label: up to three, then how many more ("a.json,
/// b.json, c.json and 2,997 more files"), cut to [`MAX_TEXT_CHARS`].
pub fn files_label<S: AsRef<str>>(names: &[S]) -> String {
    let shown: Vec<&str> = names.iter().take(3).map(AsRef::as_ref).collect();
    let mut label = shown.join(", ");
    if names.len() > 3 {
        label.push_str(&format!(
            " and {} more files",
            level_text((names.len() - 3) as f64)
        ));
    }
    cap_text(&mut label);
    label
}

/// Orders names as people read them: `run2.json` before `run10.json`.
fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    let chunks = |s: &str| -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in s.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, text)) if *d == digit => text.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (x, y) = (chunks(a), chunks(b));
    for (p, q) in x.iter().zip(&y) {
        let order = match (p, q) {
            ((true, m), (true, n)) => {
                let (m, n) = (m.trim_start_matches('0'), n.trim_start_matches('0'));
                m.len().cmp(&n.len()).then_with(|| m.cmp(n))
            }
            ((_, m), (_, n)) => m.cmp(n),
        };
        if order.is_ne() {
            return order;
        }
    }
    x.len().cmp(&y.len()).then_with(|| a.cmp(b))
}

/// True for a file of `bytes` read as a stream ([`read_stream`]) rather than as a text: larger
/// than [`STREAM_ABOVE_BYTES`], and its first bytes (after a byte order mark and white space)
/// start a JSON object or array. `head(n)` reads its first `n` bytes (fewer where it cannot):
/// called only for a file that large, so a small file's bytes are never read twice.
pub fn streams(bytes: usize, head: impl FnOnce(usize) -> Vec<u8>) -> bool {
    if bytes <= STREAM_ABOVE_BYTES {
        return false;
    }
    let head = head(STREAM_HEAD_BYTES);
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    matches!(
        head.iter().find(|b| !b.is_ascii_whitespace()),
        Some(b'{' | b'[')
    )
}

/// A file read as a stream: its name and the JSON values it held, with each request's
/// per-request arrays folded as they were read ([`json`]).
pub struct StreamedFile {
    /// The file's name, as [`InputFile::name`].
    pub name: String,
    streamed: json::Streamed,
}

/// Reads a file as a stream of JSON (one value, or JSON lines), lenient and folded as it is
/// read ([`json`]): it is never held whole, so its size is not limited by memory, and it is read
/// up to [`MAX_STREAMED_BYTES`] (an input of unknown size, e.g. standard input, ends there with
/// [`RowError::PastLimit`]). A file whose first bytes are not text ([`is_binary`]) is named as
/// such and not parsed. What it held is imported with [`read_with_streams`].
pub fn read_stream(name: String, reader: impl std::io::Read) -> StreamedFile {
    let Ok(file) = streamed_with(name, reader, |json| {
        Ok::<_, Infallible>(json::from_stream(json))
    });
    file
}

/// [`read_stream`], many times faster on files of per-request records (a JSON file's value read by
/// a reader of its own, `json_quick`): the same file read, or `None` where that reader cannot
/// be sure of it (the file is not plain valid JSON within the limits), and the file is to be
/// read again from its start with [`read_stream`], which says what is wrong with it.
pub fn read_stream_quick(name: String, reader: impl std::io::Read) -> Option<StreamedFile> {
    streamed_with(name, reader, json::from_stream_quick).ok()
}

/// [`read_stream`] with its JSON read by `from` (the stream after its first bytes).
fn streamed_with<R: std::io::Read, U>(
    name: String,
    reader: R,
    from: impl FnOnce(std::io::Chain<std::io::Cursor<Vec<u8>>, Bounded<R>>) -> Result<json::Streamed, U>,
) -> Result<StreamedFile, U> {
    use std::io::Read;
    let mut reader = Bounded::new(reader, MAX_STREAMED_BYTES);
    let streamed = match read_up_to(&mut reader, STREAM_HEAD_BYTES) {
        Ok(head) if is_binary(&String::from_utf8_lossy(&head)) => json::Streamed {
            values: Vec::new(),
            problems: vec![(None, RowError::NotText)],
        },
        Ok(head) => from(std::io::Cursor::new(head).chain(reader))?,
        Err(e) => json::unread(e),
    };
    Ok(StreamedFile { name, streamed })
}

/// [`import_with`] without options.
pub fn import(files: &[InputFile]) -> Result<Import, Vec<Problem>> {
    import_with(files, &ImportOptions::default())
}

/// Reads every file, detects its format, and groups the usable rows into sweeps.
///
/// Errors: the list of problems when no file yields a usable row (nothing is loaded then).
pub fn import_with(files: &[InputFile], options: &ImportOptions) -> Result<Import, Vec<Problem>> {
    read(files, options).1
}

/// Each file with the format it was read as (`None`: not recognised), and [`import_with`]'s
/// result: what the page reports of an import, read once.
pub fn read(
    files: &[InputFile],
    options: &ImportOptions,
) -> (FileFormats, Result<Import, Vec<Problem>>) {
    read_with_streams(files, Vec::new(), options)
}

/// [`read`] of files read as texts and files read as streams ([`read_stream`]) together.
pub fn read_with_streams(
    files: &[InputFile],
    streamed: Vec<StreamedFile>,
    options: &ImportOptions,
) -> (FileFormats, Result<Import, Vec<Problem>>) {
    let mut parsed = Parsed {
        model_hint: options
            .model_id
            .as_deref()
            .map(str::trim)
            .filter(|m| !m.is_empty())
            .map(str::to_string),
        ..Parsed::default()
    };
    // Files in name order (as people read numbers), so the rows kept under the row limit and
    // the id of an import do not depend on the order files were picked in.
    let mut files: Vec<Item> = files
        .iter()
        .map(Item::Text)
        .chain(streamed.into_iter().map(Item::Streamed))
        .collect();
    crate::core::model::order::sort_by(&mut files, |a, b| natural_order(a.name(), b.name()));
    let formats = read_files(files, &mut parsed);
    apply_supplements(&mut parsed);
    super::signals::join(&mut parsed);
    if parsed.rows_left_out {
        parsed.note(RowError::TooManyRows { limit: MAX_ROWS });
    }
    let kept = kept_rows(&mut parsed);
    if kept.is_empty() {
        if parsed.problems.is_empty() && parsed.omitted.groups.is_empty() {
            parsed.note(RowError::NoFile);
        }
        return (formats, Err(parsed.into_problems()));
    }
    let names: Vec<&str> = formats.iter().map(|(name, _)| name.as_str()).collect();
    let (models, sweeps, left_out) = group_at_most(kept, MAX_SWEEPS);
    if left_out > 0 {
        parsed.note(RowError::TooManySweeps { limit: MAX_SWEEPS });
    }
    note_undated(&sweeps, &mut parsed);
    let source = Source::new(
        "import".to_string(),
        // The file names: the page says "imported" or "shared by link" around them.
        files_label(&names),
        models,
        sweeps,
        Provenance {
            publisher: "your files".to_string(),
            notes: vec!["Imported in this browser; figures as the files state them, converted to ms and output tok/s.".to_string()],
            ..Provenance::default()
        },
    );
    let warnings = warnings(&source);
    let import = Import {
        source,
        formats: formats.clone(),
        problems: parsed.into_problems(),
        warnings,
    };
    (formats, Ok(import))
}

/// A file of an import: a text, or what a stream held.
enum Item<'a> {
    Text(&'a InputFile),
    Streamed(StreamedFile),
}

impl Item<'_> {
    fn name(&self) -> &str {
        match self {
            Item::Text(file) => &file.name,
            Item::Streamed(file) => &file.name,
        }
    }
}

/// A streamed file as the detector sees it: one value as a JSON text's, several as JSON
/// lines' (each with its line); `None` for a stream that held no value (empty, or not JSON from
/// the start: the problem is recorded). Lines left out and a read stopped early are recorded.
fn streamed_probe(file: StreamedFile, parsed: &mut Parsed) -> Option<Probe> {
    let json::Streamed {
        mut values,
        problems,
    } = file.streamed;
    if values.is_empty() && problems.is_empty() {
        parsed.problem(&file.name, None, RowError::Empty);
    }
    for (line, error) in problems {
        parsed.problem(&file.name, line, error);
    }
    let body = match values.len() {
        0 => return None,
        1 => Body::Json(values.remove(0).1),
        _ => Body::Values(values),
    };
    Some(Probe { body })
}

/// The file without its byte order mark: a mark is not part of the text, so every reader sees
/// the text after it (as a browser's `File.text()` gives it).
fn bom_skipped(file: &InputFile) -> Cow<'_, InputFile> {
    match file.text.strip_prefix('\u{feff}') {
        Some(text) => Cow::Owned(InputFile {
            name: file.name.clone(),
            text: text.to_string(),
        }),
        None => Cow::Borrowed(file),
    }
}

/// Reads each file (sizes first: a text over the limits is never read) with the first format
/// that detects it, into `parsed`; returns each file's format (`None`: not read or not
/// recognised, with a problem saying why).
fn read_files(files: Vec<Item>, parsed: &mut Parsed) -> FileFormats {
    let mut formats = Vec::new();
    // A file that is not text, or is blank, is named as such whatever its size.
    let sizes: Vec<(&str, usize, bool)> = files
        .iter()
        .map(|item| match item {
            Item::Text(f) => (
                f.name.as_str(),
                if is_text(&f.text) { f.text.len() } else { 0 },
                false,
            ),
            Item::Streamed(f) => (f.name.as_str(), 0, true),
        })
        .collect();
    let (admitted, refused) = admit(&sizes);
    for p in refused {
        parsed.problem(&p.file, p.row, p.error);
    }
    for (item, admitted) in files.into_iter().zip(admitted) {
        let streamed_name;
        let without_bom;
        let (file, probe) = match item {
            Item::Text(file) => {
                without_bom = bom_skipped(file);
                let file: &InputFile = &without_bom;
                if !admitted {
                    formats.push((file.name.clone(), None));
                    continue;
                }
                if is_binary(&file.text) {
                    formats.push((file.name.clone(), None));
                    parsed.problem(&file.name, None, RowError::NotText);
                    continue;
                }
                if file.text.trim().is_empty() {
                    formats.push((file.name.clone(), None));
                    parsed.problem(&file.name, None, RowError::Empty);
                    continue;
                }
                (file, Probe::new(&file.text))
            }
            Item::Streamed(streamed) => {
                streamed_name = InputFile {
                    name: streamed.name.clone(),
                    text: String::new(),
                };
                match streamed_probe(streamed, parsed) {
                    Some(probe) => (&streamed_name, probe),
                    None => {
                        formats.push((streamed_name.name, None));
                        continue;
                    }
                }
            }
        };
        match FORMATS.iter().find(|f| (f.detect)(&probe)) {
            Some(spec) => {
                formats.push((file.name.clone(), Some(spec.format)));
                (spec.parse)(file, probe.body, parsed);
            }
            None if is_yaml(file) => {
                formats.push((file.name.clone(), None));
                let error = match yaml_twin(&file.text) {
                    Some((tool, json)) => RowError::YamlTwin {
                        tool: tool.to_string(),
                        json: json.to_string(),
                    },
                    None => RowError::Yaml,
                };
                parsed.problem(&file.name, None, error);
            }
            // GuideLLM's CSV twin of its report (`Run Id`, or the newer `Run Info` group row).
            None if probe.is_csv() && probe.has_any(&["Run Id", "Run ID", "Run Info"]) => {
                formats.push((file.name.clone(), None));
                parsed.problem(&file.name, None, RowError::GuideLlmCsv);
            }
            None => {
                formats.push((file.name.clone(), None));
                parsed.problem(&file.name, None, closest(&probe));
            }
        }
    }
    formats
}

/// The rows read (their texts cut to [`MAX_TEXT_CHARS`] as each was kept); notes on rows left
/// out, latencies not usable and texts cut.
fn kept_rows(parsed: &mut Parsed) -> Vec<Measured> {
    let kept = std::mem::take(&mut parsed.rows);
    let unusable: u32 = kept.iter().map(|m| m.row.unusable_latencies()).sum();
    if unusable > 0 {
        parsed.note(RowError::UnusableLatencies { count: unusable });
    }
    let rows = parsed.rows_cut;
    if rows > 0 {
        parsed.note(RowError::TextCut {
            rows,
            limit: MAX_TEXT_CHARS,
        });
    }
    kept
}

/// A problem for each campaign date no sweep's order can read (named once each).
fn note_undated(sweeps: &[Sweep], parsed: &mut Parsed) {
    let mut undated: Vec<&str> = sweeps
        .iter()
        .filter_map(|s| s.deployment.date.as_deref())
        .filter(|d| date_key(d).is_none())
        .collect();
    crate::core::model::order::sort_by(&mut undated, |a, b| a.cmp(b));
    undated.dedup();
    for date in undated {
        parsed.problem(
            "(import)",
            None,
            RowError::UnreadableDate { date: short(date) },
        );
    }
}

/// Adds each companion file's latencies to the one run of its folder.
fn apply_supplements(parsed: &mut Parsed) {
    for sup in std::mem::take(&mut parsed.supplements) {
        let mut runs = parsed
            .rows
            .iter_mut()
            .filter(|m| m.folder.as_deref() == Some(sup.folder.as_str()));
        match (runs.next(), runs.next()) {
            (Some(m), None) => {
                for (stat, ms) in sup.latencies {
                    m.row.set_latency_ms(stat, Some(ms));
                }
                if sup.failed.is_some() && m.row.failed_requests.is_none() {
                    m.row.failed_requests = sup.failed;
                }
                if m.row.requests.is_none() {
                    m.row.requests = sup.requests;
                }
            }
            (None, _) => parsed.problem(&sup.file, None, sup.orphan),
            (Some(_), Some(_)) => {
                let n = 2 + runs.count();
                parsed.problem(
                    &sup.file,
                    None,
                    RowError::PercentilesAmbiguous { summaries: n },
                )
            }
        }
    }
}

/// The import's warnings: rows flagged `implausible-speed` (at any statistic), `saturated`,
/// `rate-above-offered` or `failed-requests`, counted per kind over all sweeps with the first as
/// example.
fn warnings(source: &Source) -> Vec<Warning> {
    let mut out: Vec<Warning> = Vec::new();
    for (i, sweep) in source.sweeps.iter().enumerate() {
        for count in import_flag_counts(sweep) {
            match out.iter_mut().find(|w| w.kind == count.kind.key()) {
                Some(w) => w.rows += count.rows,
                None => out.push(Warning {
                    kind: count.kind.key().to_string(),
                    rows: count.rows,
                    example: format!(
                        "{} on {} at {}: {}",
                        source.models[sweep.model_index].model_id,
                        source.sweep_label(i),
                        level_text(sweep.rows[count.first_row].level),
                        count.detail
                    ),
                }),
            }
        }
    }
    crate::core::model::order::sort_by_key(&mut out, |w| {
        AnomalyKind::ALL.iter().position(|k| k.key() == w.kind)
    });
    out
}

#[cfg(test)]
mod hidden_tests {
    use super::hidden_in_folder;

    #[test]
    fn a_folders_hidden_files_and_folders_are_skipped_but_not_the_folder_picked() {
        assert!(hidden_in_folder("run/.DS_Store"));
        assert!(hidden_in_folder("run/.git/config"));
        assert!(hidden_in_folder("run/sub/.hidden.json"));
        assert!(!hidden_in_folder("run/sub/result.json"));
        assert!(!hidden_in_folder(".results/result.json"));
        assert!(!hidden_in_folder("result.json"));
    }
}
