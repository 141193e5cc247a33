//! Compiles the bundled ML.ENERGY task file into the binary as Rust data, so the page parses no
//! JSON at start-up. `data/lm-arena-chat.json` stays the one source of truth: each configuration
//! is read by the same schema reader as an imported ML.ENERGY file
//! (`src/core/import/mlenergy_config.rs`, a module with no dependencies, included here), and
//! written as that reader's `Configuration` literal (its `Debug` form) into
//! `$OUT_DIR/lm_arena_chat.rs` (a `TASK`, a `TASK_DISPLAY_NAME` and a `CONFIGURATIONS` array).
//! `tests/bundled_data.rs` checks that importing the file gives the same sweeps.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};

#[path = "src/core/import/mlenergy_config.rs"]
#[allow(dead_code)]
mod mlenergy_config;

const INPUT: &str = "data/lm-arena-chat.json";

impl mlenergy_config::Fields for Map<String, Value> {
    type Error = String;

    fn text(&self, key: &str) -> Option<&str> {
        self.get(key).and_then(Value::as_str)
    }

    fn number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_f64()
                .map(Some)
                .ok_or_else(|| format!("{key} is not a number")),
        }
    }

    fn nested(&self, key: &str) -> Option<&Self> {
        self.get(key).and_then(Value::as_object)
    }

    fn missing(&self, key: &'static str) -> String {
        format!("{key} is missing")
    }

    fn not_positive(&self, key: &'static str, value: f64) -> String {
        format!("{key} is not positive ({value})")
    }
}

fn main() {
    println!("cargo::rerun-if-changed={INPUT}");
    println!("cargo::rerun-if-changed=src/core/import/mlenergy_config.rs");
    let json = std::fs::read_to_string(INPUT).expect("read the bundled task file");
    let file: Value = serde_json::from_str(&json).expect("the bundled task file is JSON");
    let top = file
        .as_object()
        .expect("the bundled task file is an object");
    let rows = file["configurations"].as_array().expect("configurations");
    let mut out = String::new();
    writeln!(
        out,
        "pub(crate) const TASK: &str = {:?};",
        file["task"].as_str().expect("task")
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) const TASK_DISPLAY_NAME: &str = {:?};",
        file["task_display_name"]
            .as_str()
            .expect("task_display_name")
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static CONFIGURATIONS: [Configuration<'static>; {}] = [",
        rows.len()
    )
    .unwrap();
    for (i, row) in rows.iter().enumerate() {
        let row = row.as_object().expect("a configuration is an object");
        let config = mlenergy_config::read(top, row)
            .unwrap_or_else(|e| panic!("{INPUT}: configuration {}: {e}", i + 1));
        writeln!(out, "{config:?},").unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("lm_arena_chat.rs");
    std::fs::write(dest, out).expect("write the compiled task file");
}
