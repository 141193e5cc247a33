//! Every reader's memory stays within a small multiple of its input: for each format of
//! `FORMATS` (`core::import::detection`), a file of that format (a real one from
//! `tests/fixtures/realdata`, or generated) with one text of 1 MB where the reader reads it (a
//! model id, a task, a column's name), imported while a counting allocator measures the peak
//! bytes held and the bytes allocated in all. A text copied whole into each run before it is cut
//! (the 1 MB model id of an ML.ENERGY per-model file over 2,001 rows took 1.9 GB on the command
//! line) fails the second. One test function: nothing else allocates while one is measured.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

use llm_slo_planner::core::import::{read, Format, ImportOptions, InputFile, RowErrorKind};

/// The system allocator, counting the bytes held, their peak and the bytes allocated in all.
struct Counting;

static HELD: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static ALLOCATED: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        let held = HELD.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(held, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Peak bytes held above those held before, and bytes allocated, while `f` runs.
fn measured<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    let before = HELD.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let allocated = ALLOCATED.load(Ordering::Relaxed);
    let out = f();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    (out, peak, ALLOCATED.load(Ordering::Relaxed) - allocated)
}

/// The long text: 1 MB.
fn huge() -> String {
    format!("org/{}", "m".repeat(1 << 20))
}

fn fixture(path: &str) -> String {
    let path = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A JSON fixture with the long text set at `path` (keys, then the last key set).
fn json_with(file: &str, path: &[&str]) -> String {
    let mut doc: Value = serde_json::from_str(&fixture(file)).unwrap();
    let (last, within) = path.split_last().unwrap();
    let mut at = &mut doc;
    for key in within {
        at = match key.parse::<usize>() {
            Ok(i) => &mut at[i],
            Err(_) => &mut at[*key],
        };
    }
    at[*last] = Value::String(huge());
    doc.to_string()
}

/// A CSV with a column whose name is the long text (empty in every row).
fn csv_with_long_column(text: &str) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    std::iter::once(format!("{header},{}", huge()))
        .chain(lines.map(|l| format!("{l},")))
        .map(|l| l + "\n")
        .collect()
}

/// The CSV template: 2,000 rows, the long text in the model of the first.
fn csv_template() -> String {
    let rows = (1..=2000).map(|i| {
        let model = if i == 1 { huge() } else { "org/m".into() };
        format!("{model},{i},{},{}\n", i * 10, 20 + i % 7)
    });
    std::iter::once("model,concurrency,output_tok_s,p50_itl_ms\n".to_string())
        .chain(rows)
        .collect()
}

/// One file per format, named as the reader expects, with the long text where it reads it.
fn cases() -> Vec<(Format, InputFile)> {
    let real = |f: &str| format!("realdata/{f}");
    let file = |name: &str, text: String| InputFile {
        name: name.into(),
        text,
    };
    vec![
        (
            Format::MlEnergyModel,
            file("model.json", json_with(&real("mlenergy-leaderboard__public_data_models__Qwen__Qwen3-30B-A3B-Instruct-2507__lm-arena-chat.json"), &["model_id"])),
        ),
        (
            Format::MlEnergyTask,
            file("task.json", json_with(&real("mlenergy-leaderboard__public_data_tasks__gpqa.json"), &["task"])),
        ),
        (
            Format::MlEnergyV2,
            file("v2.csv", csv_with_long_column(&fixture(&real("mlenergy-leaderboard-v2__llm_text_generation_chat__per_batchsize.csv")))),
        ),
        (
            Format::AiPerf,
            file("profile_export_aiperf.json", json_with(&real("aiperf-0.11/profile_export_aiperf.json"), &["input_config", "models", "items", "0", "name"])),
        ),
        (
            Format::InferenceX,
            file("benchmarks.json", json_with(&real("inferencex-app__cypress_fixtures_api__benchmarks.json"), &["0", "model"])),
        ),
        (
            Format::EvalScope,
            file("run/benchmark_summary.json", {
                let text = r#"{"Model": "m", "Number of concurrency": 5, "Total requests": 100, "Succeed requests": 100, "Failed requests": 0, "Output token throughput (tok/s)": 514.4, "Average time per output token (s)": 0.0095}"#;
                let mut doc: Value = serde_json::from_str(text).unwrap();
                doc["Model"] = Value::String(huge());
                doc.to_string()
            }),
        ),
        (
            Format::GuideLlm,
            file("benchmarks.json", json_with(&real("llm-d-llm-d-benchmark__tests_fixtures__guidellm_report_v2.json"), &["args", "model"])),
        ),
        (
            Format::InferencePerf,
            file("stage_0_lifecycle_metrics.json", json_with(&real("inference-perf-kubecon/results/stage_0_lifecycle_metrics.json"), &["note"])),
        ),
        (
            Format::LlmPerf,
            file("summary.json", json_with(&real("llmperf-leaderboard__raw_data_summary__all_providers.json"), &["records", "0", "model"])),
        ),
        (
            Format::SglangJsonl,
            file("sglang.jsonl", {
                let text = fixture(&real("datacrunch-h200-benchmarks__sglang_outputs__llama_3_3_70b_online_output.jsonl"));
                let mut lines = text.lines();
                let mut first: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
                first["model_id"] = Value::String(huge());
                std::iter::once(first.to_string()).chain(lines.map(str::to_string)).map(|l| l + "\n").collect()
            }),
        ),
        (
            Format::VllmBench,
            file("bench.json", json_with(&real("er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1/bench_serve_v0.25.1.json"), &["model_id"])),
        ),
        (
            Format::LmBench,
            file("LMBench_sharegpt_output_1.csv", csv_with_long_column(&fixture(&real("lmbench/LMBench_sharegpt_output_1.csv")))),
        ),
        (
            Format::AiPerfSweep,
            file("profile_export_aiperf_sweep.csv", csv_with_long_column(&fixture("aiperf-sweep/profile_export_aiperf_sweep.csv"))),
        ),
        (Format::CsvTemplate, file("runs.csv", csv_template())),
        (
            Format::AiPerfServerMetrics,
            file("run/server_metrics_export.csv", {
                // The long text as a metric's description, in quotes.
                let text = fixture(&real("inferencex-agentic-kimi/agentic_kimik2.7_tp4_conc4_kvnone_fp4_vllm_tp4-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc4_mi355x-amds_02/aiperf_artifacts/server_metrics_export.csv"));
                text.replacen("Number of requests in model execution batches.", &format!("\"{}\"", huge()), 1)
            }),
        ),
        (
            Format::InferenceXAgentic,
            file("run.json", json_with(&real("inferencex-agentic-kimi/bmk_agentic_kimik2.7_tp4_conc1_kvnone_fp4_vllm_tp4-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_mi355x-amds_01/kimik2.7_tp4_conc1_kvnone_fp4_vllm_tp4-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_mi355x-amds_01.json"), &["model"])),
        ),
    ]
}

/// Every format has its case: a format added to `Format` without one does not compile here.
fn covered(format: Format) -> bool {
    match format {
        Format::MlEnergyTask
        | Format::MlEnergyModel
        | Format::MlEnergyV2
        | Format::VllmBench
        | Format::SglangJsonl
        | Format::AiPerf
        | Format::AiPerfSweep
        | Format::InferenceX
        | Format::EvalScope
        | Format::GuideLlm
        | Format::InferencePerf
        | Format::LlmPerf
        | Format::LmBench
        | Format::CsvTemplate
        | Format::AiPerfServerMetrics
        | Format::InferenceXAgentic => true,
    }
}

#[test]
fn every_reader_holds_a_long_text_within_a_small_multiple_of_its_input() {
    let cases = cases();
    assert_eq!(cases.len(), 16, "one case per format of FORMATS");
    for (format, file) in cases {
        assert!(covered(format));
        let input = file.text.len();
        let (result, peak, allocated) =
            measured(|| read(std::slice::from_ref(&file), &ImportOptions::default()));
        assert_eq!(result.0[0].1, Some(format), "{}", format.label());
        match (format, result.1) {
            // A server's signals alone have no level: named, nothing imported.
            (Format::AiPerfServerMetrics, Err(problems)) => assert!(problems
                .iter()
                .any(|p| p.error.kind() == RowErrorKind::SignalsWithoutLevel)),
            (_, result) => {
                let imported = result.unwrap_or_else(|p| panic!("{}: {p:?}", format.label()));
                for model in &imported.source.models {
                    assert!(model.model_id.chars().count() <= 201, "{}", format.label());
                }
            }
        }
        println!(
            "{}: {} KB of input, {} KB held at the peak, {} KB allocated",
            format.label(),
            input >> 10,
            peak >> 10,
            allocated >> 10
        );
        // Copied whole into each of its runs, the text alone would take tens to thousands of
        // MB. Read once: at most 8 times the input held, 22 allocated in all (the CSV reader's
        // buffer doubling as it reads a 1 MB header, twice), measured on 2026-12-05.
        assert!(
            peak < 10 * input,
            "{}: {peak} bytes held at the peak for {input} bytes of input",
            format.label()
        );
        assert!(
            allocated < 24 * input,
            "{}: {allocated} bytes allocated for {input} bytes of input",
            format.label()
        );
    }
}
