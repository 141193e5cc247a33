//! Memory stays linear in the input: a text stated once (a model id at the top of a file, the
//! import dialog's model) is cut and held once, never copied whole into every run. Measured with
//! a counting allocator: the peak bytes held while an import runs, against the input's size.
//! One test function, so that no other test allocates while one is measured.

mod counting;
use counting::{peak_of, Counting};

use llm_slo_planner::core::import::{import_with, ImportOptions, InputFile};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A model id of 1 MB.
fn long_id() -> String {
    format!("org/{}", "m".repeat(1 << 20))
}

fn mlenergy_per_model(id: &str, configs: usize) -> String {
    let config = |i: usize| {
        format!(
            r#"{{"gpu_model":"H100","num_gpus":1,"max_num_seqs":{},"avg_batch_size":{},"median_itl_ms":20,"p90_itl_ms":25,"p95_itl_ms":27,"p99_itl_ms":30,"output_throughput_tokens_per_sec":{},"avg_power_watts":600,"energy_per_token_joules":{},"parallelization":{{"tensor_parallel":1,"data_parallel":1,"expert_parallel":1}}}}"#,
            i + 1,
            i + 1,
            (i + 1) * 50,
            600.0 / ((i + 1) * 50) as f64
        )
    };
    let configs: Vec<String> = (0..configs).map(config).collect();
    format!(
        r#"{{"model_id":"{id}","nickname":"{id}","architecture":"Dense Transformer","total_params_billions":8,"configurations":[{}]}}"#,
        configs.join(",")
    )
}

fn guidellm(id: &str, benchmarks: usize) -> String {
    let b = |i: usize| {
        format!(
            r#"{{"config":{{"strategy":{{"type_":"concurrent","streams":{}}}}},"metrics":{{"request_totals":{{"successful":10,"errored":0,"incomplete":0,"total":10}},"output_tokens_per_second":{{"successful":{{"mean":{}}}}}}},"duration":10}}"#,
            i + 1,
            (i + 1) * 10
        )
    };
    let all: Vec<String> = (0..benchmarks).map(b).collect();
    format!(
        r#"{{"metadata":{{"version":2}},"config":{{"spec":{{"backend":{{"model":"{id}"}}}}}},"benchmarks":[{}]}}"#,
        all.join(",")
    )
}

#[test]
fn a_long_text_stated_once_is_held_once_in_every_reader() {
    let id = long_id();
    let csv: String = std::iter::once("concurrency,output_tok_s,p50_itl_ms\n".to_string())
        .chain((1..=2000).map(|i| format!("{i},{},{}\n", i * 10, 20 + i % 7)))
        .collect();
    let cases: Vec<(&str, InputFile, Option<String>, usize)> = vec![
        (
            "ML.ENERGY per-model file",
            InputFile {
                name: "model.json".into(),
                text: mlenergy_per_model(&id, 500),
            },
            None,
            500,
        ),
        (
            "GuideLLM report",
            InputFile {
                name: "benchmarks.json".into(),
                text: guidellm(&id, 500),
            },
            None,
            500,
        ),
        (
            "CSV with the import dialog's model",
            InputFile {
                name: "runs.csv".into(),
                text: csv,
            },
            Some(id.clone()),
            2000,
        ),
    ];
    for (what, file, model, rows) in cases {
        let input = file.text.len() + model.as_ref().map_or(0, String::len);
        let options = ImportOptions { model_id: model };
        let (result, peak) = peak_of(|| import_with(std::slice::from_ref(&file), &options));
        let imported = result.unwrap_or_else(|p| panic!("{what}: {p:?}"));
        assert_eq!(imported.source.row_count(), rows, "{what}");
        assert!(
            imported.source.models[0].model_id.chars().count() <= 201,
            "{what}"
        );
        // Copied whole into each run, the id alone would take 500 to 2,000 MB here.
        assert!(
            peak < 16 * input + (16 << 20),
            "{what}: {} MB held at the peak for {} MB of input",
            peak >> 20,
            input >> 20
        );
    }
}
