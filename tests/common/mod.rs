//! What the native test files share.

use std::path::PathBuf;

use llm_slo_planner::core::import::InputFile;

/// A sample of `tests/fixtures/realdata` (a path under it), named by that path.
pub fn realdata(rel: &str) -> InputFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/realdata")
        .join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the samples live in tests/fixtures/realdata)",
            path.display()
        )
    });
    InputFile {
        name: rel.to_string(),
        text,
    }
}
