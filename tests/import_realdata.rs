//! Every importer on the real samples in tests/fixtures/realdata (copied from the shared realdata/ collection): level counts and
//! hand-checked values, unit conversions, and the broken samples' row messages.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::path::PathBuf;

use llm_slo_planner::core::import::{
    detect, import, Format, Import, InputFile, Problem, RowErrorKind,
};
use llm_slo_planner::core::model::deployment::Disaggregation;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::{LevelKind, Statistic, Sweep};

fn realdata(rel: &str) -> InputFile {
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
        name: rel.rsplit('/').next().unwrap_or(rel).to_string(),
        text,
    }
}

fn dir(rel: &str) -> Vec<InputFile> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/realdata")
        .join(rel);
    let mut names: Vec<String> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
        .iter()
        .map(|n| realdata(&format!("{rel}/{n}")))
        .collect()
}

fn only_sweep(import: &Import) -> &Sweep {
    assert_eq!(
        import.source.sweeps.len(),
        1,
        "{:?}",
        import
            .source
            .sweeps
            .iter()
            .map(|s| s.deployment.base_label())
            .collect::<Vec<_>>()
    );
    &import.source.sweeps[0]
}

fn level(sweep: &Sweep, level: f64) -> &llm_slo_planner::core::model::sweep::Level {
    sweep
        .levels()
        .iter()
        .find(|l| l.level == level)
        .unwrap_or_else(|| panic!("no level {level}"))
}

fn find<'a>(source: &'a Source, model: &str, gpu: &str, gpus: Option<u32>) -> Vec<&'a Sweep> {
    source
        .sweeps
        .iter()
        .filter(|s| {
            source.models[s.model_index].model_id == model
                && s.deployment.gpu == gpu
                && s.deployment.num_gpus == gpus
        })
        .collect()
}

#[test]
fn vllm_multi_file_sweep() {
    let files = dir("inferencex-app__glm-4.7_gaudi3_vllm_sweep");
    let files: Vec<InputFile> = files
        .into_iter()
        .filter(|f| f.name.starts_with("glm47_conc"))
        .collect();
    assert_eq!(files.len(), 8);
    assert!(files.iter().all(|f| detect(f) == Some(Format::VllmBench)));
    let imported = import(&files).unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    let sweep = only_sweep(&imported);
    assert_eq!(imported.source.models[0].model_id, "zai-org/GLM-4.7");
    assert_eq!(sweep.level_kind(), LevelKind::Concurrency);
    assert_eq!(sweep.deployment.num_gpus, None);
    // Every file states burstiness 1 and an unbounded request rate: one sweep.
    assert_eq!(sweep.deployment.burstiness, Some(1.0));
    assert_eq!(sweep.deployment.offered_rate, None);
    assert_eq!(
        sweep.levels().iter().map(|l| l.level).collect::<Vec<_>>(),
        vec![1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0]
    );
    let l16 = level(sweep, 16.0);
    assert_eq!(l16.throughput_tok_s, 186.47558779609227);
    assert_eq!(l16.latency_ms(Statistic::P50), Some(79.2785869925865));
    assert_eq!(l16.latency_ms(Statistic::TpotMean), Some(80.94105414421823));
    assert_eq!(l16.latency_ms(Statistic::TtftP99), Some(1611.2285128283838));
    assert_eq!(
        l16.latency_ms(Statistic::Rate),
        Some(16.0 * 1000.0 / 186.47558779609227)
    );
    let l128 = level(sweep, 128.0);
    assert_eq!(l128.latency_ms(Statistic::P50), Some(133.509546998539));
    assert_eq!(l128.latency_ms(Statistic::P90), None);
}

#[test]
fn vllm_bench_sweep_folders_count_each_run_once_and_keep_repeats() {
    let root = "er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1";
    let mut files = dir(&format!(
        "{root}/SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8"
    ));
    files.extend(dir(&format!(
        "{root}/SERVE--max_num_seqs=8-BENCH--max_concurrency=2-num_prompts=8"
    )));
    assert_eq!(files.len(), 6);
    let imported = import(&files).unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    // Two server configs (max_num_seqs 4 and 8), each with two repeat runs at concurrency 2.
    assert_eq!(imported.source.sweeps.len(), 2);
    let s4 = imported
        .source
        .sweeps
        .iter()
        .find(|s| s.deployment.config.as_deref() == Some("max_num_seqs=4"))
        .unwrap();
    assert_eq!(s4.rows.len(), 2);
    assert!(s4.levels()[0].is_duplicate());
    // Worst of the two runs: run 0 had the cold start (TTFT p99 762 ms).
    assert_eq!(
        s4.levels()[0].latency_ms(Statistic::TtftP99),
        Some(762.4942294094944)
    );
}

#[test]
fn vllm_broken_samples_give_row_messages() {
    let failed = realdata("er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1/bench_serve_all_requests_failed_v0.25.1.json");
    let problems: Vec<Problem> = import(&[failed]).unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].row, Some(1));
    assert_eq!(problems[0].error.kind(), RowErrorKind::AllRequestsFailed);
    assert!(problems[0].message().contains("all requests failed"));
    let good = realdata(
        "er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1/bench_serve_v0.25.1.json",
    );
    let imported = import(&[good]).unwrap();
    assert_eq!(
        only_sweep(&imported).levels()[0].latency_ms(Statistic::P99),
        Some(29.815922519960626)
    );
}

#[test]
fn sglang_jsonl_with_bare_infinity() {
    let online =
        realdata("datacrunch-h200-benchmarks__sglang_outputs__llama_3_3_70b_online_output.jsonl");
    assert_eq!(detect(&online), Some(Format::SglangJsonl));
    let imported = import(&[online]).unwrap();
    assert!(imported.problems.is_empty());
    // Seven lines: rates 1, 2, 4, 8, 16 on the random dataset (1024/1024), then 4 and 8 on
    // sharegpt: two workloads, two sweeps (they used to be pooled as "repeat runs").
    assert_eq!(imported.source.sweeps.len(), 2);
    let s = &imported.source.sweeps[0];
    assert_eq!(s.deployment.workload_label(), "random 1024/1024");
    assert_eq!(imported.source.sweep_label(0), "random 1024/1024 · GPU not stated (GPU count not stated), parallelism not stated, precision not stated");
    assert_eq!(imported.source.sweep_label(1), "sharegpt · GPU not stated (GPU count not stated), parallelism not stated, precision not stated");
    assert_eq!(s.rows.len(), 5);
    assert_eq!(s.levels().len(), 5);
    assert!(s.levels().iter().all(|l| !l.is_duplicate()));
    assert_eq!(
        imported.source.sweeps[1].deployment.dataset.as_deref(),
        Some("sharegpt")
    );
    assert_eq!(imported.source.sweeps[1].levels().len(), 2);
    assert_eq!(s.level_kind(), LevelKind::RequestRate);
    assert_eq!(level(s, 1.0).throughput_tok_s, 537.4142851849319);
    assert_eq!(
        level(s, 16.0).latency_ms(Statistic::P50),
        Some(179.12118090316653)
    );
    // Rate needs a concurrency: a request-rate sweep has none.
    assert_eq!(level(s, 1.0).latency_ms(Statistic::Rate), None);

    // request_rate Infinity and no max_concurrency: no level on any line.
    let offline =
        realdata("datacrunch-h200-benchmarks__sglang_outputs__llama_3_3_70b_offline_output.jsonl");
    let problems = import(&[offline]).unwrap_err();
    assert_eq!(problems.len(), 7);
    assert!(problems
        .iter()
        .all(|p| p.error.kind() == RowErrorKind::NoLevel && p.message().starts_with("no level")));
    assert_eq!(problems[6].row, Some(7));
}

#[test]
fn aiperf_profile_exports_convert_units_and_keep_itl_and_tpot_apart() {
    let files = dir("inferencemax-rocm-fork__results_0601__kimik2.5_tp4_fp4_vllm_mi355x_offloadnone__aiperf_profile_exports");
    assert_eq!(files.len(), 10);
    assert!(files.iter().all(|f| detect(f) == Some(Format::AiPerf)));
    let imported = import(&files).unwrap();
    let sweep = only_sweep(&imported);
    assert_eq!(imported.source.models[0].model_id, "amd/Kimi-K2.5-MXFP4");
    assert_eq!(sweep.levels().len(), 10);
    let l4 = level(sweep, 4.0);
    assert_eq!(l4.throughput_tok_s, 126.74117412384639);
    // inter_chunk_latency (pooled) -> ITL; inter_token_latency (per request) -> TPOT.
    assert_eq!(l4.latency_ms(Statistic::P50), Some(13.573606999999999));
    assert_eq!(l4.latency_ms(Statistic::TpotMean), Some(18.1366498691242));
    assert_eq!(l4.latency_ms(Statistic::TtftP90), Some(4844.6748025));
    assert_eq!(
        level(sweep, 1.0).latency_ms(Statistic::P50),
        Some(11.781533999999999)
    );
}

#[test]
fn aiperf_units_are_converted_per_metric() {
    let mut file = realdata("inferencemax-rocm-fork__results_0601__kimik2.5_tp4_fp4_vllm_mi355x_offloadnone__aiperf_profile_exports/conc004__profile_export_aiperf.json");
    let mut v: serde_json::Value = serde_json::from_str(&file.text).unwrap();
    v["time_to_first_token"]["unit"] = "s".into();
    v["time_to_first_token"]["p90"] = 4.8446748025.into();
    file.text = v.to_string();
    let imported = import(&[file]).unwrap();
    let ttft = only_sweep(&imported).levels()[0]
        .latency_ms(Statistic::TtftP90)
        .unwrap();
    assert!((ttft - 4844.6748025).abs() < 1e-9);
}

#[test]
fn inferencex_agentic_aggregate_in_seconds_with_a_failed_row() {
    let file = realdata("inferencemax-rocm-fork__results_0603_sa__kimik2.5-fp4-b200-vllm-agentic-lmcache__agg_bmk.json");
    assert_eq!(detect(&file), Some(Format::InferenceX));
    let imported = import(&[file]).unwrap();
    // conc 32 on TP8 with lmcache: 0 successful requests.
    assert_eq!(imported.problems.len(), 1);
    assert_eq!(
        imported.problems[0].error.kind(),
        RowErrorKind::AllRequestsFailed
    );
    assert_eq!(imported.problems[0].row, Some(10));
    let rows: usize = imported.source.sweeps.iter().map(|s| s.rows.len()).sum();
    assert_eq!(rows, 22);
    // conc 14, TP4, lmcache: mean ITL 0.014685 s, output 202.6 tok/s on 4 GPUs.
    let s = imported
        .source
        .sweeps
        .iter()
        .find(|s| {
            s.deployment.tp == Some(4) && s.deployment.config.as_deref() == Some("offload lmcache")
        })
        .unwrap();
    assert_eq!(s.deployment.num_gpus, Some(4));
    assert_eq!(s.deployment.engine.as_deref(), Some("vllm"));
    assert_eq!(s.deployment.dataset.as_deref(), Some("agentic-coding"));
    let l14 = level(s, 14.0);
    assert_eq!(
        l14.latency_ms(Statistic::ItlMean),
        Some(0.014684985080327676 * 1000.0)
    );
    assert_eq!(
        l14.latency_ms(Statistic::TtftP90),
        Some(67.3635679862 * 1000.0)
    );
    assert_eq!(l14.throughput_tok_s, 202.60075820785053);
}

#[test]
fn inferencex_api_rows_scale_per_gpu_figures() {
    let file = realdata("inferencex-app__cypress_fixtures_api__benchmarks.json");
    let imported = import(&[file]).unwrap();
    let rows: usize = imported.source.sweeps.iter().map(|s| s.rows.len()).sum();
    // Two rows lack throughput and are rejected; eight disaggregated rows whose per-GPU
    // throughputs do not add up by role are named and not read; the mori-sglang row's stored
    // J per output token is named as the decode role's. The other 425 form 294 sweeps by their
    // identity fields (hardware, engine and image, precision, speculative decoding, both roles'
    // workers, parallelism and GPUs, input/output lengths, and each campaign date).
    let kinds: Vec<RowErrorKind> = imported.problems.iter().map(|p| p.error.kind()).collect();
    let count = |k: RowErrorKind| kinds.iter().filter(|x| **x == k).count();
    assert_eq!(count(RowErrorKind::Missing), 2, "{:?}", imported.problems);
    assert_eq!(count(RowErrorKind::RolesDoNotAddUp), 8);
    assert_eq!(count(RowErrorKind::DecodeRoleEnergy), 1);
    assert_eq!(kinds.len(), 11);
    assert_eq!(rows, 425);
    assert_eq!(imported.source.sweeps.len(), 294);
    // The first entry: mi355x sglang fp4, 4 GPUs, conc 4: 98.988 tok/s per GPU, 628.9 W per GPU.
    let s = find(&imported.source, "dsr1", "mi355x", Some(4))
        .into_iter()
        .find(|s| {
            let d = &s.deployment;
            d.precision_label() == "fp4"
                && d.engine.as_deref() == Some("sglang")
                && d.date.as_deref() == Some("2026-06-11")
                && (d.isl, d.osl) == (Some(1024.0), Some(1024.0))
        })
        .unwrap();
    assert_eq!(
        s.deployment.engine_version.as_deref(),
        Some("lmsysorg/sglang:v0.5.12-rocm700-mi35x")
    );
    assert_eq!(s.deployment.disaggregation, Some(Disaggregation::Colocated));
    let l4 = level(s, 4.0);
    assert_eq!(l4.throughput_tok_s, 98.9883650269406 * 4.0);
    assert_eq!(l4.power_w, Some(628.907 * 4.0));
    assert_eq!(l4.energy_per_token_j, Some(6.353339));
    assert_eq!(
        l4.latency_ms(Statistic::P50),
        Some(0.009406855329871178 * 1000.0)
    );
}

#[test]
fn mlenergy_files_current_preview_and_per_model() {
    let gpqa = realdata("mlenergy-leaderboard__public_data_tasks__gpqa.json");
    assert_eq!(detect(&gpqa), Some(Format::MlEnergyTask));
    let imported = import(&[gpqa]).unwrap();
    assert_eq!(imported.source.row_count(), 187);
    assert_eq!(imported.source.sweeps.len(), 28);

    let preview = realdata(
        "mlenergy-leaderboard__public_data_tasks__lm-arena-chat__at_9fa07d1_preview_oldschema.json",
    );
    let imported = import(&[preview]).unwrap();
    assert!(imported.problems.is_empty());
    assert!(imported
        .source
        .sweeps
        .iter()
        .all(|s| s.rows.iter().all(|r| r.avg_output_len.is_none())));
    // data_parallel / expert_parallel 0 read as 1.
    assert!(imported
        .source
        .sweeps
        .iter()
        .all(|s| s.deployment.dp == Some(1) && s.deployment.ep >= Some(1)));

    let nested = realdata("mlenergy-leaderboard__public_data_models__Qwen__Qwen3-30B-A3B-Instruct-2507__lm-arena-chat.json");
    assert_eq!(detect(&nested), Some(Format::MlEnergyModel));
    let imported = import(&[nested]).unwrap();
    let s = find(
        &imported.source,
        "Qwen/Qwen3-30B-A3B-Instruct-2507",
        "H100",
        Some(2),
    );
    assert_eq!(s.len(), 1);
    // The same duplicate rows as the bundled file: two runs at 256 and at 512.
    assert!(level(s[0], 256.0).is_duplicate() && level(s[0], 512.0).is_duplicate());
    assert_eq!(level(s[0], 256.0).throughput_tok_s, 7154.113418980205);
    assert_eq!(s[0].deployment.ep, Some(2));
    // The per-model file has no nickname: the id stands in, nothing is made up.
    assert_eq!(
        imported.source.models[0].nickname,
        "Qwen/Qwen3-30B-A3B-Instruct-2507"
    );
    assert_eq!(imported.source.models[0].architecture, "MoE");
    assert_eq!(imported.source.models[0].activated_params_b, Some(3.0));
}

#[test]
fn mlenergy_v2_csv_and_records_read_max_bs_and_tpot_in_seconds() {
    for name in [
        "mlenergy-leaderboard-v2__llm_text_generation_chat__per_batchsize.csv",
        "mlenergy-leaderboard-v2__llm_text_generation_chat__per_batchsize_records.json",
    ] {
        let file = realdata(name);
        assert_eq!(detect(&file), Some(Format::MlEnergyV2), "{name}");
        let imported = import(&[file]).unwrap();
        assert_eq!(imported.source.row_count(), 191, "{name}");
        assert_eq!(imported.source.sweeps.len(), 30, "{name}");
        let gemma = find(
            &imported.source,
            "google/gemma-2-27b-it",
            "A100-SXM4-40GB",
            Some(4),
        );
        let l128 = level(gemma[0], 128.0);
        assert_eq!(
            l128.latency_ms(Statistic::TpotMean),
            Some(0.11220224938943191 * 1000.0)
        );
        assert_eq!(l128.throughput_tok_s, 1051.3354539260472);
        // J/token is not stored: derived as J per request / output tokens per request.
        let run = &gemma[0].rows[l128.row_indices[0]];
        assert_eq!(
            l128.energy_per_token_j,
            Some(run.energy_per_request_j.unwrap() / run.avg_output_len.unwrap())
        );
        assert_eq!(
            l128.energy_basis,
            Some(llm_slo_planner::core::model::sweep::EnergyBasis::PerRequestOverOutputTokens)
        );
        // Mixtral 8x22B with PP=2: level is Max BS (2048), not the file name's bs1024; 16 GPUs.
        let mixtral = find(
            &imported.source,
            "mistralai/Mixtral-8x22B-Instruct-v0.1",
            "A100-SXM4-40GB",
            Some(16),
        );
        assert_eq!(mixtral[0].deployment.pp, Some(2));
        assert_eq!(mixtral[0].deployment.parallelism_label(), "TP8 PP2");
        assert_eq!(
            level(mixtral[0], 2048.0).throughput_tok_s,
            1521.9288561383771
        );
    }
}

#[test]
fn csv_template_and_its_row_problems() {
    let file = InputFile {
        name: "mine.csv".into(),
        text: "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,p99_ttft_ms,power_w\n\
               my/model,L40S,2,8,800,10.5,300,600\n\
               my/model,L40S,2,16,1400,12,,610\n\
               my/model,L40S,2,,1500,13,,\n\
               my/model,L40S,2,32,abc,14,,\n\
               my/model,L40S,2,64,0,14,,\n\
               my/model,L40S,2,128,2000,-1,,\n"
            .into(),
    };
    assert_eq!(detect(&file), Some(Format::CsvTemplate));
    let imported = import(&[file]).unwrap();
    let sweep = only_sweep(&imported);
    assert_eq!(
        sweep.deployment.base_label(),
        "2 x L40S, parallelism not stated, precision not stated"
    );
    // The row with a latency of -1 is kept, its p50 not reported (and counted).
    assert_eq!(sweep.levels().len(), 3);
    assert_eq!(level(sweep, 128.0).latency_ms(Statistic::P50), None);
    assert_eq!(level(sweep, 8.0).latency_ms(Statistic::P50), Some(10.5));
    assert_eq!(
        level(sweep, 8.0).latency_ms(Statistic::Rate),
        Some(8.0 * 1000.0 / 800.0)
    );
    assert_eq!(level(sweep, 16.0).power_w, Some(610.0));
    let rows: Vec<(Option<usize>, RowErrorKind)> = imported
        .problems
        .iter()
        .map(|p| (p.row, p.error.kind()))
        .collect();
    assert_eq!(
        rows,
        vec![
            (Some(4), RowErrorKind::NoLevel),
            (Some(5), RowErrorKind::NotANumber),
            (Some(6), RowErrorKind::NotPositive),
            (None, RowErrorKind::UnusableLatencies),
        ]
    );
    assert!(imported.problems[1]
        .message()
        .contains("`output_tok_s` is not a number"));
}

#[test]
fn unrecognised_and_hostile_files_change_nothing_and_do_not_panic() {
    let files = [
        InputFile { name: "a.txt".into(), text: "hello".into() },
        InputFile { name: "b.json".into(), text: "{\"x\": 1}".into() },
        InputFile { name: "c.json".into(), text: format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)) },
        InputFile { name: "d.json".into(), text: "{\"backend\":\"vllm\",\"max_concurrency\":\"<img src=x onerror=alert(1)>\",\"output_throughput\":1}".into() },
        InputFile { name: "e.json".into(), text: String::new() },
    ];
    let problems = import(&files).unwrap_err();
    let kinds: Vec<RowErrorKind> = problems.iter().map(|p| p.error.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            RowErrorKind::NotRecognised,
            RowErrorKind::NotRecognised,
            RowErrorKind::NotJson,
            RowErrorKind::NotANumber,
            RowErrorKind::Empty,
        ]
    );
    assert!(problems[3]
        .message()
        .contains("`max_concurrency` is not a number"));
}

#[test]
fn two_workloads_of_one_deployment_stay_apart() {
    let gpqa = realdata("mlenergy-leaderboard__public_data_tasks__gpqa.json");
    let chat = realdata(
        "mlenergy-leaderboard__public_data_tasks__lm-arena-chat__at_9fa07d1_preview_oldschema.json",
    );
    let imported = import(&[gpqa, chat]).unwrap();
    let qwen14 = find(&imported.source, "Qwen/Qwen3-14B", "H100", Some(1));
    let mut workloads: Vec<&str> = qwen14
        .iter()
        .filter_map(|s| s.deployment.dataset.as_deref())
        .collect();
    workloads.sort();
    assert_eq!(workloads, vec!["gpqa", "lm-arena-chat"]);
    assert!(qwen14
        .iter()
        .all(|s| s.levels().iter().all(|l| !l.is_duplicate())));
}

#[test]
fn out_of_range_rows_and_too_many_rows_are_left_out_with_a_message() {
    let mut text =
        String::from("model,concurrency,output_tok_s,p50_itl_ms\nm,1e300,10,5\nm,4,1e-320,5\n");
    for i in 1..=2100 {
        text.push_str(&format!("m,{i},{},5\n", i * 10));
    }
    let imported = import(&[InputFile {
        name: "big.csv".into(),
        text,
    }])
    .unwrap();
    assert_eq!(imported.source.row_count(), 2000);
    let messages: Vec<String> = imported.problems.iter().map(|p| p.message()).collect();
    let messages: Vec<&str> = messages.iter().map(String::as_str).collect();
    // Numbers far out of range are written with an exponent, not 300 digits.
    assert!(messages.contains(
        &"a level of 1e300 with 10 tok/s is out of range (1e-6 to 1e9) and was left out"
    ));
    assert!(messages.contains(
        &"a level of 4 with 1e-320 tok/s is out of range (1e-6 to 1e9) and was left out"
    ));
    assert!(messages
        .iter()
        .any(|m| m.contains("only the first 2,000 rows")));
}

#[test]
fn vllm_json_with_bare_nan_is_read() {
    let file = InputFile {
        name: "nan.json".into(),
        text: "{\"backend\":\"vllm\",\"model_id\":\"m\",\"max_concurrency\":4,\"output_throughput\":100,\"median_itl_ms\":10,\"p99_itl_ms\":0,\"p99_ttft_ms\":NaN}".into(),
    };
    let imported = import(&[file]).unwrap();
    let level = &only_sweep(&imported).levels()[0];
    assert_eq!(level.latency_ms(Statistic::P50), Some(10.0));
    assert_eq!(level.latency_ms(Statistic::P99), None);
    assert_eq!(level.latency_ms(Statistic::TtftP99), None);
    // NaN is how vLLM writes "no value"; a 0 ITL is a value that cannot be used, and is said.
    let messages: Vec<String> = imported.problems.iter().map(|p| p.message()).collect();
    assert_eq!(
        messages,
        ["1 latency value below 1e-6 ms (0 or less) or over 1e9 ms is shown as not reported"]
    );
}

/// A file of the collection with a UTF-8 byte order mark in front, as Windows editors save it.
fn with_bom(file: &InputFile) -> InputFile {
    InputFile {
        name: file.name.clone(),
        text: format!("\u{feff}{}", file.text),
    }
}

#[test]
fn a_byte_order_mark_is_skipped_by_every_format() {
    let case = |rel: &str| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/cases")
            .join(rel);
        InputFile {
            name: rel.rsplit('/').next().unwrap().to_string(),
            text: std::fs::read_to_string(path).unwrap(),
        }
    };
    let evalscope = InputFile {
        name: "parallel_5/benchmark_summary.json".into(),
        text: r#"{"Number of concurrency": 5, "Total requests": 100, "Succeed requests": 100, "Failed requests": 0, "Output token throughput (tok/s)": 514.391, "Average time per output token (s)": 0.0095, "Average inter-token latency (s)": 0.0093}"#.into(),
    };
    let sets: Vec<Vec<InputFile>> = vec![
        vec![realdata("mlenergy-leaderboard__public_data_tasks__gpqa.json")],
        vec![realdata("mlenergy-leaderboard__public_data_models__Qwen__Qwen3-30B-A3B-Instruct-2507__lm-arena-chat.json")],
        vec![realdata("mlenergy-leaderboard-v2__llm_text_generation_chat__per_batchsize.csv")],
        vec![realdata("mlenergy-leaderboard-v2__llm_text_generation_chat__per_batchsize_records.json")],
        vec![realdata("er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1/bench_serve_v0.25.1.json")],
        vec![case("sweep-identity/random-vs-sharegpt.jsonl")],
        vec![realdata("aiperf-0.11/profile_export_aiperf.json")],
        vec![case("../aiperf-sweep/profile_export_aiperf_sweep.csv")],
        vec![realdata("inferencex-app__cypress_fixtures_api__benchmarks.json")],
        vec![evalscope],
        vec![realdata("llm-d-llm-d-benchmark__tests_fixtures__guidellm_report_v2.json")],
        dir("inference-perf-kubecon/results"),
        dir("llmperf-triton"),
        dir("lmbench"),
        vec![case("sweep-identity/config-column.csv")],
    ];
    let mut formats = Vec::new();
    for files in &sets {
        let marked: Vec<InputFile> = files.iter().map(with_bom).collect();
        let plain = import(files).unwrap();
        let read = import(&marked).unwrap_or_else(|p| panic!("{}: {p:?}", files[0].name));
        assert_eq!(read.source.sweeps, plain.source.sweeps, "{}", files[0].name);
        assert_eq!(read.problems, plain.problems, "{}", files[0].name);
        assert_eq!(read.formats, plain.formats, "{}", files[0].name);
        formats.extend(read.formats.iter().filter_map(|(_, f)| *f));
    }
    // Every format the planner reads is among them.
    for format in [
        Format::MlEnergyTask,
        Format::MlEnergyModel,
        Format::MlEnergyV2,
        Format::VllmBench,
        Format::SglangJsonl,
        Format::AiPerf,
        Format::AiPerfSweep,
        Format::InferenceX,
        Format::EvalScope,
        Format::GuideLlm,
        Format::InferencePerf,
        Format::LlmPerf,
        Format::LmBench,
        Format::CsvTemplate,
    ] {
        assert!(formats.contains(&format), "{format:?}");
    }
    // The SGLang file of the report: both runs read, one sweep each (random and sharegpt).
    let sglang = import(&[with_bom(&case("sweep-identity/random-vs-sharegpt.jsonl"))]).unwrap();
    assert!(sglang.problems.is_empty(), "{:?}", sglang.problems);
    assert_eq!(sglang.source.sweeps.len(), 2);
    let rows: usize = sglang.source.sweeps.iter().map(|s| s.rows.len()).sum();
    assert_eq!(rows, 2);
}

/// The sweep of `model` on `gpu` with `gpus` GPUs whose `framework`, date and lengths match.
fn sweep_of<'a>(
    source: &'a Source,
    (gpu, gpus): (&str, u32),
    (engine, date): (&str, &str),
    (isl, osl): (f64, f64),
) -> &'a Sweep {
    find(source, "dsr1", gpu, Some(gpus))
        .into_iter()
        .find(|s| {
            let d = &s.deployment;
            d.engine.as_deref() == Some(engine)
                && d.date.as_deref() == Some(date)
                && (d.isl, d.osl) == (Some(isl), Some(osl))
        })
        .unwrap()
}

#[test]
fn inferencex_disaggregated_rows_are_counted_by_role() {
    use llm_slo_planner::core::model::roles::RolePerGpu;
    let file = realdata("inferencex-app__cypress_fixtures_api__benchmarks.json");
    let imported = import(&[file]).unwrap();
    // Entry 275: gb300 dynamo-trt, 4 prefill + 8 decode GPUs, conc 8192, 1k/1k:
    // output_tput_per_gpu 13,739.34 is per decode GPU, so output tok/s = x 8 = 109,914.7 (the
    // reading x (P + D) gave 164,872.1, +50%); input tok/s = input_tput_per_gpu x 4.
    let s = sweep_of(
        &imported.source,
        ("gb300", 12),
        ("dynamo-trt", "2026-02-03"),
        (1024.0, 1024.0),
    );
    let roles = *s.deployment.disaggregation.unwrap().roles().unwrap();
    assert_eq!((roles.prefill.gpus, roles.decode.gpus), (Some(4), Some(8)));
    assert_eq!(roles.total_gpus(), Some(12));
    let l = level(s, 8192.0);
    assert_eq!(l.throughput_tok_s, 13_739.342_867_310_535 * 8.0);
    assert!((l.throughput_tok_s - 109_914.74).abs() < 0.01);
    // Per GPU of the deployment: over P + D = 12.
    assert_eq!(
        s.per_gpu(l.throughput_tok_s),
        Some(l.throughput_tok_s / 12.0)
    );
    let per_role = RolePerGpu::of(&roles, l.throughput_tok_s, l.input_tok_s);
    assert_eq!(
        per_role.output_tok_s_per_decode_gpu,
        Some(13_739.342_867_310_535)
    );
    let input_per_gpu = per_role.input_tok_s_per_prefill_gpu.unwrap();
    assert!((input_per_gpu * 4.0 + 13_739.342_867_310_535 * 8.0 - 219_852.525_9).abs() < 0.01);

    // Entry 200: mi355x mori-sglang, 16 P (2 workers) + 8 D (1 worker), TP8 EP8 DP-attention,
    // conc 2048, 8k/1k, with power and no power_metric_schema_version.
    let s = sweep_of(
        &imported.source,
        ("mi355x", 24),
        ("mori-sglang", "2026-05-28"),
        (8192.0, 1024.0),
    );
    assert_eq!(
        s.deployment
            .field_label(llm_slo_planner::core::model::deployment::Field::Disaggregation),
        "disaggregated: prefill 2 x TP8 EP8 DP-attention on 16 GPUs, \
         decode 1 x TP8 EP8 DP-attention on 8 GPUs"
    );
    let l = level(s, 2048.0);
    let output = 1_186.247_252_992_547_8 * 8.0;
    assert_eq!(l.throughput_tok_s, output);
    // avg_power_w is per GPU over all 24; each role's over its own.
    assert_eq!(l.power_w, Some(907.773 * 24.0));
    assert_eq!(l.roles.prefill_power_w, Some(956.5 * 16.0));
    assert_eq!(l.roles.decode_power_w, Some(812.882 * 8.0));
    // The stored 0.685255 J is the decode role's (812.882 W / 1,186.25 tok/s); the whole
    // deployment's is 21,786.55 W / 9,489.98 tok/s = 2.2957 J, 3.35x it.
    assert_eq!(l.roles.decode_energy_per_token_j, Some(0.685_255));
    assert_eq!(l.energy_per_token_j, Some(907.773 * 24.0 / output));
    assert!((l.energy_per_token_j.unwrap() - 2.295_743).abs() < 1e-6);
    assert_eq!(
        l.energy_basis,
        Some(llm_slo_planner::core::model::sweep::EnergyBasis::PowerOverThroughput)
    );
    let note = imported
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::DecodeRoleEnergy)
        .unwrap();
    assert_eq!(note.row, Some(200));
    assert!(note.error.is_note());
}

#[test]
fn inferencex_rows_whose_roles_do_not_add_up_are_named_not_guessed() {
    let file = realdata("inferencex-app__cypress_fixtures_api__benchmarks.json");
    let imported = import(&[file]).unwrap();
    let broken: Vec<&Problem> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::RolesDoNotAddUp)
        .collect();
    // Entries 151, 153, 156, 158, 159, 164, 166 and 170: gb200 rows of 0 workers whose
    // tput_per_gpu x (P + D) is not input_tput_per_gpu x P + output_tput_per_gpu x D.
    let at: Vec<Option<usize>> = broken.iter().map(|p| p.row).collect();
    assert_eq!(
        at,
        [151, 153, 156, 158, 159, 164, 166, 170].map(Some).to_vec()
    );
    assert_eq!(
        broken[0].error.to_string(),
        "its per-GPU throughputs do not add up by role: tput_per_gpu × (P + D) = 2,352.1 tok/s, \
         but input_tput_per_gpu × P + output_tput_per_gpu × D = 5,935.6 tok/s (P = 36, D = 36); \
         which GPUs each figure divides by is not known, so the row is not read"
    );
}
