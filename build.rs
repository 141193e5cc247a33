//! Compiles the bundled ML.ENERGY task file into the binary as Rust data, so the page parses no
//! JSON at start-up. `data/lm-arena-chat.json` stays the one source of truth: this writes
//! `$OUT_DIR/lm_arena_chat.rs` (a `TASK`, a `TASK_DISPLAY_NAME` and a `CONFIGURATIONS` array of
//! `core::bundled::Configuration`), and `tests/bundled_data.rs` checks that the source built
//! from it equals the one parsed from the JSON.

use std::fmt::Write as _;
use std::path::Path;

const INPUT: &str = "data/lm-arena-chat.json";

fn text(row: &serde_json::Value, key: &str) -> String {
    let value = row[key]
        .as_str()
        .unwrap_or_else(|| panic!("{INPUT}: {key} is not text"));
    format!("Cow::Borrowed({value:?})")
}

fn number(row: &serde_json::Value, key: &str) -> String {
    let value = row[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{INPUT}: {key} is not a number"));
    format!("{value:?}")
}

fn optional(row: &serde_json::Value, key: &str) -> String {
    match row.get(key) {
        None | Some(serde_json::Value::Null) => "None".into(),
        Some(v) => format!(
            "Some({:?})",
            v.as_f64()
                .unwrap_or_else(|| panic!("{INPUT}: {key} is not a number"))
        ),
    }
}

/// A count; absent counts as 0 (as `#[serde(default)]` reads it).
fn count(row: &serde_json::Value, key: &str) -> String {
    row.get(key)
        .map_or(0, |v| {
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .unwrap_or_else(|| panic!("{INPUT}: {key} is not a count"))
        })
        .to_string()
}

fn main() {
    println!("cargo::rerun-if-changed={INPUT}");
    let json = std::fs::read_to_string(INPUT).expect("read the bundled task file");
    let file: serde_json::Value =
        serde_json::from_str(&json).expect("the bundled task file is JSON");
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
    for row in rows {
        writeln!(
            out,
            "Configuration {{ model_id: {}, nickname: {}, architecture: {}, total_params_billions: {}, \
             activated_params_billions: {}, gpu_model: {}, num_gpus: {}, tensor_parallel: {}, \
             expert_parallel: {}, data_parallel: {}, weight_precision: {}, max_num_seqs: {}, \
             avg_batch_size: {}, avg_output_len: {}, median_itl_ms: {}, p90_itl_ms: {}, p95_itl_ms: {}, \
             p99_itl_ms: {}, output_throughput_tokens_per_sec: {}, avg_power_watts: {}, \
             energy_per_token_joules: {}, energy_per_request_joules: {} }},",
            text(row, "model_id"),
            text(row, "nickname"),
            text(row, "architecture"),
            number(row, "total_params_billions"),
            number(row, "activated_params_billions"),
            text(row, "gpu_model"),
            count(row, "num_gpus"),
            count(row, "tensor_parallel"),
            count(row, "expert_parallel"),
            count(row, "data_parallel"),
            text(row, "weight_precision"),
            number(row, "max_num_seqs"),
            number(row, "avg_batch_size"),
            optional(row, "avg_output_len"),
            optional(row, "median_itl_ms"),
            optional(row, "p90_itl_ms"),
            optional(row, "p95_itl_ms"),
            optional(row, "p99_itl_ms"),
            number(row, "output_throughput_tokens_per_sec"),
            optional(row, "avg_power_watts"),
            optional(row, "energy_per_token_joules"),
            optional(row, "energy_per_request_joules"),
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("lm_arena_chat.rs");
    std::fs::write(dest, out).expect("write the compiled task file");
}
