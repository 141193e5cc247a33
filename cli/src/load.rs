//! The source of a command and the load of `--load-profile`, read from files (problems said on
//! stderr).

use llm_slo_planner::core::import::bounded::{read_up_to, text_of};
use llm_slo_planner::core::import::RowError;
use llm_slo_planner::core::model::limits::MAX_FILE_BYTES;
use llm_slo_planner::core::plan::period::LoadKind;
use llm_slo_planner::core::scenario::load_csv::load_from_csv;
use llm_slo_planner::core::scenario::load_text;

use crate::exit::Exit;
use crate::input::{self, Loaded};
use crate::out::say;
use crate::said::Said;

/// The last line when the files given hold nothing this planner can use (each file's message
/// comes first), so that a partial read of one file is not taken for the whole answer.
pub const NOTHING_USABLE: &str =
    "nothing planned: no usable row was read from the files given (the messages above say why)";

/// The source of the command: files and folders, or a bundled source. Problems and notes go to
/// stderr; with `strict`, a problem beside usable rows fails.
pub fn load(paths: &[std::path::PathBuf], src: Option<&str>, strict: bool) -> Result<Loaded, Exit> {
    let loaded = if paths.is_empty() {
        input::bundled(src).map_err(|e| vec![Said::command(e)])
    } else if src.is_some() {
        Err(vec![Said::command(
            "give files and folders, or --src for a bundled source, not both".to_string(),
        )])
    } else {
        input::import(paths, |line| say(&line))
    };
    let loaded = loaded.map_err(|problems| {
        for p in &problems {
            say(&p.located());
        }
        if !paths.is_empty() && src.is_none() {
            say(NOTHING_USABLE);
        }
        Exit::BadInput
    })?;
    let said = if strict { "error" } else { "warning" };
    for p in &loaded.problems {
        say(&format!("{said}: {}", p.located()));
    }
    for n in &loaded.notes {
        say(&format!("note: {}", n.located()));
    }
    if strict && !loaded.problems.is_empty() {
        return Err(Exit::BadInput);
    }
    Ok(loaded)
}

/// A file's text as an imported file's is read: up to [`MAX_FILE_BYTES`] (an endless input
/// such as `/dev/zero` ends there), invalid UTF-8 replaced.
///
/// Errors: the file cannot be read, or goes on past the limit (the import's message).
pub fn read_limited(path: &str) -> Result<String, String> {
    let bytes = std::fs::File::open(path)
        .and_then(|mut file| read_up_to(&mut file, MAX_FILE_BYTES + 1))
        .map_err(|e| match e.kind() {
            // As the files of a command are named when missing.
            std::io::ErrorKind::NotFound => format!("{path}: no such file or folder"),
            _ => format!("{path}: cannot be read ({e})"),
        })?;
    if bytes.len() > MAX_FILE_BYTES {
        let error = RowError::PastLimit {
            limit: MAX_FILE_BYTES,
        };
        return Err(format!("{path}: {error}"));
    }
    Ok(text_of(bytes))
}

/// Adds the load of `--load-profile [KIND:]FILE.csv` to `params` as the link's `load`.
///
/// Errors: `--load` is given too, the file cannot be read, or its rows cannot
/// (`core::scenario::load_csv`).
pub fn with_load_profile(params: &mut Vec<(String, String)>, spec: &str) -> Result<(), String> {
    if params.iter().any(|(k, _)| k == "load") {
        return Err("give one of --load and --load-profile".to_string());
    }
    let (kind, path) = match spec.split_once(':') {
        Some(("rps", path)) => (Some(LoadKind::Rps), path),
        Some(("users", path)) => (Some(LoadKind::Users), path),
        _ => (None, spec),
    };
    let text = read_limited(path)?;
    let load = load_from_csv(&text, kind).map_err(|e| format!("{path}: {e}"))?;
    params.push(("load".to_string(), load_text(&load)));
    Ok(())
}
