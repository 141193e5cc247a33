//! Compiles the bundled ML.ENERGY task file into the binary as Rust data, so the page parses no
//! JSON at start-up. `data/lm-arena-chat.json` stays the one source of truth: each configuration
//! is read by the same schema reader as an imported ML.ENERGY file
//! (`src/core/import/mlenergy_config.rs`, a module with no dependencies, included here), and
//! written as that reader's `Configuration` literal (its `Debug` form) into
//! `$OUT_DIR/lm_arena_chat.rs`: a `TASK`, a `TASK_DISPLAY_NAME`, every run (`CONFIGURATIONS`),
//! and the part the page holds from the start (`core::import::bundled::lm_arena_chat_part`): the runs of
//! the default model's family (`PART`, the family rule of `src/core/family.rs`, also included),
//! every model (`MODELS`), and what the whole holds (`WHOLE_ROWS`, `WHOLE_SWEEPS`,
//! `WHOLE_GPU_TYPES`). The linker keeps in each binary only the arrays it uses, so the page
//! carries `PART` and not `CONFIGURATIONS`. `tests/bundled_data.rs` checks that importing the
//! file gives the same sweeps, and that the part agrees with the whole.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a build script that cannot read the bundled file fails the build, which is its message"
)]

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};

#[path = "src/core/import/mlenergy_config.rs"]
#[allow(dead_code)]
mod mlenergy_config;

#[path = "src/core/model/family.rs"]
mod family;

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
    println!("cargo::rerun-if-changed=src/core/model/family.rs");
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
    let configs: Vec<mlenergy_config::Configuration> = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let row = row.as_object().expect("a configuration is an object");
            mlenergy_config::read(top, row)
                .unwrap_or_else(|e| panic!("{INPUT}: configuration {}: {e}", i + 1))
        })
        .collect();
    let default_family = family::family_key(family::DEFAULT_MODEL);
    let part: Vec<_> = configs
        .iter()
        .filter(|c| family::family_key(c.model.model_id) == default_family)
        .collect();
    let mut models: Vec<&mlenergy_config::ModelFields> = Vec::new();
    let mut gpu_types: Vec<&str> = Vec::new();
    let mut deployments: Vec<String> = Vec::new();
    for c in &configs {
        if !models.iter().any(|m| m.model_id == c.model.model_id) {
            models.push(&c.model);
        }
        if !gpu_types.contains(&c.gpu_model) {
            gpu_types.push(c.gpu_model);
        }
        // A sweep's identity in this file: the model and every deployment field it states.
        let deployment = format!(
            "{:?}",
            (
                c.model.model_id,
                c.gpu_model,
                c.num_gpus,
                c.tensor_parallel,
                c.expert_parallel,
                c.data_parallel,
                c.weight_precision
            )
        );
        if !deployments.contains(&deployment) {
            deployments.push(deployment);
        }
    }
    let array = |out: &mut String, name: &str, ty: &str, items: &[String]| {
        writeln!(out, "pub(crate) static {name}: [{ty}; {}] = [", items.len()).unwrap();
        for item in items {
            writeln!(out, "{item},").unwrap();
        }
        out.push_str("];\n");
    };
    let literals = |cs: &[&mlenergy_config::Configuration]| -> Vec<String> {
        cs.iter().map(|c| format!("{c:?}")).collect()
    };
    let all: Vec<&mlenergy_config::Configuration> = configs.iter().collect();
    array(
        &mut out,
        "CONFIGURATIONS",
        "Configuration<'static>",
        &literals(&all),
    );
    array(&mut out, "PART", "Configuration<'static>", &literals(&part));
    array(
        &mut out,
        "MODELS",
        "ModelFields<'static>",
        &models.iter().map(|m| format!("{m:?}")).collect::<Vec<_>>(),
    );
    array(
        &mut out,
        "WHOLE_GPU_TYPES",
        "&str",
        &gpu_types
            .iter()
            .map(|g| format!("{g:?}"))
            .collect::<Vec<_>>(),
    );
    writeln!(
        out,
        "pub(crate) const WHOLE_ROWS: usize = {};",
        configs.len()
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) const WHOLE_SWEEPS: usize = {};",
        deployments.len()
    )
    .unwrap();
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("lm_arena_chat.rs");
    std::fs::write(dest, out).expect("write the compiled task file");
}
