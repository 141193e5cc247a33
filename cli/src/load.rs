//! The source of a command and the load of `--load-profile`, read from files (problems said on
//! stderr).

use llm_slo_planner::core::plan::period::LoadKind;
use llm_slo_planner::core::scenario::load_csv::load_from_csv;
use llm_slo_planner::core::scenario::load_text;

use crate::exit::Exit;
use crate::input::{self, Loaded};
use crate::out::say;

/// The source of the command: files and folders, or a bundled source. Problems and notes go to
/// stderr; with `strict`, a problem beside usable rows fails.
pub fn load(paths: &[std::path::PathBuf], src: Option<&str>, strict: bool) -> Result<Loaded, Exit> {
    let loaded = if paths.is_empty() {
        input::bundled(src).map_err(|e| vec![e])
    } else if src.is_some() {
        Err(vec![
            "give files and folders, or --src for a bundled source, not both".to_string(),
        ])
    } else {
        input::import(paths, |line| say(&line))
    };
    let loaded = loaded.map_err(|problems| {
        for p in problems {
            say(&p);
        }
        Exit::BadInput
    })?;
    let said = if strict { "error" } else { "warning" };
    for p in &loaded.problems {
        say(&format!("{said}: {p}"));
    }
    for n in &loaded.notes {
        say(&format!("note: {n}"));
    }
    if strict && !loaded.problems.is_empty() {
        return Err(Exit::BadInput);
    }
    Ok(loaded)
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
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let load = load_from_csv(&text, kind).map_err(|e| format!("{path}: {e}"))?;
    params.push(("load".to_string(), load_text(&load)));
    Ok(())
}
