//! The core's wings and the way their arrows run (issue 31). `src/core/` holds six folders, each
//! a layer; a wing's code may use only the wings listed before it in [`WINGS`]:
//!
//! - `model`: what was measured (statistics, deployments, rows, sweeps, per-request records,
//!   limits, formatting);
//! - `plan`: judgement on a sweep and an SLO (planner, attainment, flags, capacity and cost,
//!   comparison, chart geometry), never the URL;
//! - `import`: bytes to a source (every reader, share links, bundled data, stored imports);
//! - `scenario`: the URL (parameters, values, errors, resolution, routing);
//! - `text`: every sentence the fronts show;
//! - `wire`: the page <-> tools module protocol and the downloads.
//!
//! A `crate::core::WING` path in a wing's code (tests aside, in a module or a `tests.rs`;
//! comments aside) naming a wing listed after its own runs an arrow upward, and fails here with
//! the file and line. So that every arrow is seen, a path out of a wing names its wing: a grouped
//! `crate::core::{…}` or a `super::super::` climbing out of a wing's folder fails too.

use std::fs;
use std::path::{Path, PathBuf};

/// The wings, lowest first.
const WINGS: [&str; 6] = ["model", "plan", "import", "scenario", "text", "wire"];

/// `text` without its tests module (a file's own tests, or a `tests.rs` beside it: none).
fn without_tests<'a>(file: &Path, text: &'a str) -> &'a str {
    if file.file_name().is_some_and(|name| name == "tests.rs") {
        return "";
    }
    text.find("#[cfg(test)]").map_or(text, |i| &text[..i])
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("a wing's folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The wings `line` names through `crate::core::WING`.
fn wings_named(line: &str) -> Vec<&str> {
    line.match_indices("crate::core::")
        .filter_map(|(i, m)| {
            let rest = &line[i + m.len()..];
            let name = rest
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()?;
            WINGS.iter().copied().find(|w| *w == name)
        })
        .collect()
}

#[test]
fn every_arrow_between_the_core_wings_runs_downward() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut upward = Vec::new();
    for (rank, wing) in WINGS.iter().enumerate() {
        for file in rust_files(&core.join(wing)) {
            let text = fs::read_to_string(&file).expect("a source file");
            for (n, line) in without_tests(&file, &text).lines().enumerate() {
                if line.trim_start().starts_with("//") {
                    continue;
                }
                for named in wings_named(line) {
                    if WINGS.iter().position(|w| *w == named) > Some(rank) {
                        upward.push(format!("{}:{}: {wing} -> {named}", file.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(upward.is_empty(), "{upward:#?}");
}

/// True when `line` reaches another wing by a path that does not name it (see the module's
/// comment).
fn hides_its_wing(line: &str) -> bool {
    let grouped = line.contains("core::{") && line.contains("crate::");
    grouped || line.contains("super::super::")
}

#[test]
fn every_path_out_of_a_wing_names_it() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut hidden = Vec::new();
    for wing in WINGS {
        for file in rust_files(&core.join(wing)) {
            let text = fs::read_to_string(&file).expect("a source file");
            for (n, line) in without_tests(&file, &text).lines().enumerate() {
                if !line.trim_start().starts_with("//") && hides_its_wing(line) {
                    hidden.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(hidden.is_empty(), "{hidden:#?}");
}

#[test]
fn the_core_is_its_wings_and_nothing_else() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut entries: Vec<String> = fs::read_dir(&core)
        .expect("src/core")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    entries.sort();
    let mut expected: Vec<String> = WINGS.iter().map(|w| w.to_string()).collect();
    expected.push("mod.rs".to_string());
    expected.sort();
    assert_eq!(entries, expected);
}

#[test]
fn the_check_sees_an_upward_arrow() {
    assert_eq!(
        wings_named("use crate::core::scenario::Scenario; // crate::core::model"),
        ["scenario", "model"]
    );
    assert!(wings_named("use crate::core::modelx::A;").is_empty());
    assert!(hides_its_wing("use crate::core::{model::A, text::B};"));
    assert!(hides_its_wing("use super::super::text::B;"));
    assert!(hides_its_wing("use crate::{core::{text::B}};"));
    assert!(!hides_its_wing("use crate::core::model::{A, B};"));
}
