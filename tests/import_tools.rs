//! The load generators people run today (GuideLLM, inference-perf, LLMPerf, AIPerf 0.11) on
//! their real outputs in tests/fixtures/realdata, each figure mapped by what it measures (checked
//! by hand against the files), and the failed-requests rule on every format that counts them.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod common;
use common::realdata;

use std::path::PathBuf;

use llm_slo_planner::core::import::{import, Format, Import, InputFile, RowErrorKind};
use llm_slo_planner::core::model::sweep::{LevelKind, Statistic, Sweep};
use llm_slo_planner::core::plan::anomalies::{load_flag_counts, AnomalyKind};
use llm_slo_planner::core::plan::planner::{plan, Condition, Limit, Slo, Status, Target};
use llm_slo_planner::core::text::explain::{statistic_option, verdict_text};

fn imported(files: &[InputFile]) -> Import {
    import(files).unwrap_or_else(|p| panic!("{p:?}"))
}

fn level(sweep: &Sweep, at: f64) -> &llm_slo_planner::core::model::sweep::Level {
    sweep.levels().iter().find(|l| l.level == at).unwrap()
}

fn slo(ms: f64, stat: Statistic) -> Slo {
    Slo::new(Target::MsPerToken(ms), stat).with_limits(Vec::<Limit>::new())
}

fn inference_perf_stages() -> Vec<InputFile> {
    let mut files: Vec<InputFile> = (0..7)
        .map(|n| {
            realdata(&format!(
                "inference-perf-kubecon/results/stage_{n}_lifecycle_metrics.json"
            ))
        })
        .collect();
    files.push(realdata(
        "inference-perf-kubecon/results/summary_lifecycle_metrics.json",
    ));
    files
}

#[test]
fn inference_perf_stages_are_one_request_rate_sweep_in_seconds() {
    let imported = imported(&inference_perf_stages());
    assert!(imported
        .formats
        .iter()
        .all(|(_, f)| *f == Some(Format::InferencePerf)));
    assert_eq!(imported.source.sweeps.len(), 1);
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::RequestRate);
    let levels: Vec<f64> = sweep.levels().iter().map(|l| l.level).collect();
    assert_eq!(
        levels,
        vec![1.0, 37.97, 74.94, 111.92, 148.89, 185.86, 222.83]
    );
    // Stage 0: normalized TPOT median 0.00750475577790964 s, TTFT p90 0.03897771495394409 s,
    // output 62.15363932698074 tok/s, 60 requests and no failure.
    let first = level(sweep, 1.0);
    assert_eq!(
        first.latency_ms(Statistic::NtpotP50),
        Some(0.00750475577790964 * 1000.0)
    );
    assert_eq!(
        first.latency_ms(Statistic::TtftP90),
        Some(0.03897771495394409 * 1000.0)
    );
    assert_eq!(first.throughput_tok_s, 62.15363932698074);
    assert_eq!(first.failed_share(), Some(0.0));
    // TPOT (3.48 ms) cannot be true with (483.2 - 33.3) / (62.35 - 1) = 7.33 ms per token: left
    // out with ITL, and said once per stage.
    assert_eq!(first.latency_ms(Statistic::TpotP50), None);
    assert_eq!(first.latency_ms(Statistic::P50), None);
    let left_out: Vec<&str> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::LeftOut)
        .map(|p| p.file.as_str())
        .collect();
    assert_eq!(left_out.len(), 7);
    assert!(imported.problems[0]
        .message()
        .contains("mean TPOT of 3.48 ms cannot be true"));
    // The summary pools every stage: named, never a level.
    let skipped = imported
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::Skipped)
        .unwrap();
    assert!(skipped.file.ends_with("summary_lifecycle_metrics.json"));
    assert!(skipped.error.is_note());
    // achieved_rate is the served rate: 117.04 of 148.89 req/s is saturated.
    let p = plan(sweep, &slo(20.0, Statistic::NtpotP50));
    assert_eq!(p.status, Status::Ok);
    assert_eq!(sweep.levels()[p.recommended.unwrap()].level, 74.94);
    let at_148 = sweep
        .levels()
        .iter()
        .position(|l| l.level == 148.89)
        .unwrap();
    assert!(p.verdicts[at_148]
        .broken
        .iter()
        .any(|c| matches!(c, Condition::Saturated { served_req_s, .. } if *served_req_s == 117.03961255391555)));
    // The issue's example asks for p50 TPOT: the sweep has none it can trust, and says so.
    let p = plan(sweep, &slo(5.0, Statistic::TpotP50));
    assert!(matches!(p.status, Status::NoData { .. }));
}

#[test]
fn guidellm_reports_place_each_benchmark_by_its_strategy() {
    // The older report (GuideLLM's own test asset): one synchronous benchmark = 1 stream.
    let old = imported(&[realdata(
        "vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.json",
    )]);
    assert_eq!(old.formats[0].1, Some(Format::GuideLlm));
    let sweep = &old.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::Concurrency);
    assert_eq!(old.source.models[0].model_id, "example_model");
    let l = level(sweep, 1.0);
    // Every request has 128 output tokens (output_token_count min = max), so the token-weighted
    // percentiles are per request: inter_token_latency_ms is TPOT.
    assert_eq!(l.latency_ms(Statistic::TpotP50), Some(4.9241227427805505));
    assert_eq!(l.latency_ms(Statistic::TpotP90), Some(4.973544849185493));
    assert_eq!(l.latency_ms(Statistic::ItlMean), Some(4.941609043733832));
    // The older time_per_output_token_ms is (last - first token) / tokens: not read.
    assert_eq!(l.latency_ms(Statistic::NtpotP50), None);
    assert_eq!(l.latency_ms(Statistic::TtftP90), Some(18.505334854125977));
    assert_eq!(l.throughput_tok_s, 198.13346751788123);
    // 46 successful, 0 errored (1 incomplete: still running at the 30 s limit, not a failure).
    assert_eq!(l.requests, Some((Some(46.0), Some(0.0))));
    assert_eq!(
        sweep.deployment.dataset.as_deref(),
        Some("prompt_tokens=256,output_tokens=128")
    );

    // GuideLLM 0.8 (metadata.version 2): two constant-rate benchmarks, normalized TPOT read.
    let v2 = imported(&[realdata(
        "llm-d-llm-d-benchmark__tests_fixtures__guidellm_report_v2.json",
    )]);
    let sweep = &v2.source.sweeps[0];
    assert_eq!(v2.source.models[0].model_id, "e2e-mock-model");
    assert_eq!(sweep.level_kind(), LevelKind::RequestRate);
    assert_eq!(
        sweep.levels().iter().map(|l| l.level).collect::<Vec<_>>(),
        vec![2.0, 4.0]
    );
    let l = level(sweep, 2.0);
    assert_eq!(l.latency_ms(Statistic::NtpotP50), Some(2.3760199546813965));
    assert_eq!(l.latency_ms(Statistic::TpotP90), Some(1.2557165963309151));
    assert_eq!(l.throughput_tok_s, 3.1950675815128577);
    assert_eq!(
        (sweep.deployment.isl, sweep.deployment.osl),
        (Some(32.0), Some(8.0))
    );
}

#[test]
fn a_guidellm_report_of_another_version_names_it() {
    let text = r#"{"metadata":{"version":3,"guidellm_version":"0.9"},"benchmarks":[{"metrics":{},"config":{}}]}"#;
    let problems = import(&[InputFile {
        name: "benchmarks.json".into(),
        text: text.into(),
    }])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::UnsupportedVersion);
    assert_eq!(
        problems[0].message(),
        "GuideLLM report of version 3: this planner reads versions 1 and 2 (GuideLLM 0.5 and later) and the older report without `metadata`"
    );
}

#[test]
fn llmperf_summary_and_responses_of_one_run_join_into_one_level() {
    let run = imported(&[
        realdata("llmperf-triton/meta-llama-Llama-2-7b-chat-hf_550_150_summary.json"),
        realdata("llmperf-triton/meta-llama-Llama-2-7b-chat-hf_550_150_individual_responses.json"),
    ]);
    assert!(run.problems.is_empty(), "{:?}", run.problems);
    let sweep = &run.source.sweeps[0];
    let l = level(sweep, 3.0);
    // inter_token_latency_s is normalized TPOT: median of 0.10713 and 0.22756 s.
    assert_eq!(
        l.latency_ms(Statistic::NtpotP50),
        Some(0.16734319896371697 * 1000.0)
    );
    // TPOT from the two responses: (16.3943 - 4.9425) / 152 and (32.5467 - 21.8189) / 142 s.
    let tpot = [
        (16.394321708999996 - 4.9424722919993656) * 1000.0 / 152.0,
        (32.54671416600104 - 21.818911458000002) * 1000.0 / 142.0,
    ];
    let mean = (tpot[0] + tpot[1]) / 2.0;
    assert!((l.latency_ms(Statistic::TpotMean).unwrap() - mean).abs() < 1e-9);
    assert_eq!(l.throughput_tok_s, 4.493054265583841);
    assert_eq!(l.requests, Some((Some(2.0), Some(0.0))));
    assert_eq!(
        (sweep.deployment.isl, sweep.deployment.osl),
        (Some(550.0), Some(150.0))
    );

    // Responses without their summary are named, not guessed onto a level.
    let alone = import(&[realdata(
        "ray-project-llmperf-leaderboard__raw_data_individual__together_13b.json",
    )])
    .unwrap_err();
    assert_eq!(alone[0].error.kind(), RowErrorKind::ResponsesWithoutSummary);
}

#[test]
fn failed_requests_fail_a_level_above_one_percent() {
    let board = imported(&[realdata(
        "llmperf-leaderboard__raw_data_summary__all_providers.json",
    )]);
    assert_eq!(board.source.sweeps.len(), 19);
    let sweep_of = |model: &str| {
        let m = board.source.model_index(model).unwrap();
        board
            .source
            .sweeps
            .iter()
            .find(|s| s.model_index == m)
            .unwrap()
    };
    let target = slo(1000.0, Statistic::NtpotP50);
    // perplexity: 2 of 150 requests failed (1.3%): the level fails on that condition.
    let perplexity = sweep_of("llama-2-70b-chat");
    assert_eq!(perplexity.deployment.engine.as_deref(), Some("perplexity"));
    let p = plan(perplexity, &target);
    assert_eq!(p.status, Status::Unattainable);
    assert_eq!(
        verdict_text(&target, &p.verdicts[0]),
        "fails: 2 of 150 requests failed"
    );
    // together 13b: 1 of 150 (0.67%) is flagged, and the level meets.
    let together = sweep_of("together_ai/togethercomputer/llama-2-13b-chat");
    let p = plan(together, &target);
    assert_eq!(p.status, Status::AllMeet);
    let flags = load_flag_counts(together, Statistic::NtpotP50);
    assert_eq!(flags[0].kind, AnomalyKind::FailedRequests);
    assert_eq!(
        flags[0].detail,
        "1 of 150 requests failed: the figures describe its 149 completed requests"
    );
    // The import warns about both.
    let warning = board
        .warnings
        .iter()
        .find(|w| w.kind == "failed-requests")
        .unwrap();
    assert_eq!(warning.rows, 7);
}

#[test]
fn a_run_in_which_every_request_failed_is_a_level_that_fails() {
    let run = |conc: u32, completed: u32, failed: u32, tpot: f64| {
        format!(
            "{{\"backend\":\"vllm\",\"model_id\":\"org/m\",\"max_concurrency\":{conc},\"request_rate\":\"inf\",\"completed\":{completed},\"failed\":{failed},\"duration\":60,\"output_throughput\":{},\"mean_tpot_ms\":{tpot},\"total_output_tokens\":{}}}",
            f64::from(completed) * 2.0,
            completed * 100
        )
    };
    let lines = [
        run(8, 400, 0, 20.0),
        run(16, 995, 5, 25.0),
        run(32, 95, 5, 30.0),
        run(64, 0, 800, 0.0),
    ];
    let source = imported(&[InputFile {
        name: "runs.jsonl".into(),
        text: lines.join("\n"),
    }])
    .source;
    let sweep = &source.sweeps[0];
    let target = slo(50.0, Statistic::TpotMean);
    let p = plan(sweep, &target);
    // 16: 5 of 1,000 (0.5%) meets; 32: 5 of 100 fails; 64: nothing completed, still judged.
    assert_eq!(p.status, Status::Ok);
    assert_eq!(sweep.levels()[p.recommended.unwrap()].level, 16.0);
    assert_eq!(
        verdict_text(&target, &p.verdicts[2]),
        "fails: 5 of 100 requests failed"
    );
    assert_eq!(
        verdict_text(&target, &p.verdicts[3]),
        "fails: 800 of 800 requests failed"
    );
    assert!(!p.verdicts[3].unreported);
    assert_eq!(level(sweep, 64.0).throughput_tok_s, 0.0);
    assert_eq!(level(sweep, 64.0).latency_ms(Statistic::Rate), None);
    // A shared link carries the counts and the level with nothing served.
    let packed = llm_slo_planner::core::import::share::encode(&source).unwrap();
    let back = llm_slo_planner::core::import::share::decode(&packed).unwrap();
    assert_eq!(back.sweeps[0].rows, sweep.rows);
}

#[test]
fn aiperf_0_11_reads_the_profiling_phase_and_normalized_tpot() {
    let run = imported(&[realdata("aiperf-0.11/profile_export_aiperf.json")]);
    assert_eq!(run.formats[0].1, Some(Format::AiPerf));
    let sweep = &run.source.sweeps[0];
    assert_eq!(run.source.models[0].model_id, "qwen3-4b");
    let l = level(sweep, 320.0);
    // inter_token_latency is per request (TPOT); inter_chunk_latency pooled (ITL).
    assert_eq!(l.latency_ms(Statistic::TpotMean), Some(53.13678817663723));
    assert_eq!(l.latency_ms(Statistic::P50), Some(60.53469828454955));
    // Normalized TPOT from e2e_output_token_throughput, its inverse: p90 = 1000 / p10.
    assert_eq!(
        l.latency_ms(Statistic::NtpotP90),
        Some(1000.0 / 8.530893601271545)
    );
    assert_eq!(
        l.latency_ms(Statistic::NtpotP50),
        Some(1000.0 / 14.632643812345425)
    );
    assert_eq!(l.latency_ms(Statistic::NtpotMean), None);
    assert_eq!(l.requests, Some((Some(5291.0), Some(0.0))));
    // AIPerf's own goodput, for the SLO its command line gave: a note, the tool's figures.
    let note = run
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::ToolGoodput)
        .unwrap();
    assert!(note
        .message()
        .starts_with("AIPerf's own goodput: 0.657 req/s, 3.72% of requests good"));
    assert!(note.message().contains("time_to_first_token ≤ 1500"));
}

#[test]
fn sglang_server_info_names_the_engine_and_errors_count_failures() {
    let run = imported(&[realdata(
        "Scicom-llm-benchmaq__benchmarks_sglang_runpod_h100sxm_Qwen3-8B__tp8_dp1_Qwen3-8B_in1024_out128_p100_c100_38769a.jsonl",
    )]);
    let d = &run.source.sweeps[0].deployment;
    assert_eq!(d.engine.as_deref(), Some("sglang"));
    assert_eq!(d.engine_version.as_deref(), Some("0.5.9"));
    assert_eq!(
        (d.tp, d.dp, d.ep, d.pp),
        (Some(8), Some(1), Some(1), Some(1))
    );
    assert_eq!(d.precision, "bfloat16");
    let l = level(&run.source.sweeps[0], 100.0);
    assert_eq!(l.requests, Some((Some(100.0), Some(0.0))));
}

#[test]
fn a_vllm_framework_field_is_the_engine_and_splits_sweeps() {
    let run = |framework: &str, tpot: f64| {
        format!(
            "{{\"backend\":\"vllm\",\"framework\":\"{framework}\",\"model_id\":\"org/m\",\"max_concurrency\":8,\"completed\":100,\"output_throughput\":500,\"mean_tpot_ms\":{tpot}}}"
        )
    };
    let source = imported(&[InputFile {
        name: "compare.jsonl".into(),
        text: [run("vllm", 20.0), run("sglang", 15.0)].join("\n"),
    }])
    .source;
    assert_eq!(source.sweeps.len(), 2);
    let engines: Vec<Option<&str>> = source
        .sweeps
        .iter()
        .map(|s| s.deployment.engine.as_deref())
        .collect();
    assert_eq!(engines, vec![Some("vllm"), Some("sglang")]);
}

#[test]
fn implausible_speed_is_judged_per_statistic_and_said_in_the_menu() {
    // A concurrency-16 run at 800 tok/s: p50 ITL of 0.05 ms (gaps pooled over chunks) gives
    // R = 16 x 1000 / 0.05 / 800 = 400; mean TPOT of 20 ms gives R = 1.
    let text = "{\"backend\":\"vllm\",\"model_id\":\"org/m\",\"max_concurrency\":16,\"completed\":100,\"output_throughput\":800,\"mean_tpot_ms\":20,\"median_itl_ms\":0.05}";
    let run = imported(&[InputFile {
        name: "r.json".into(),
        text: text.into(),
    }]);
    let sweep = &run.source.sweeps[0];
    assert!(load_flag_counts(sweep, Statistic::TpotMean).is_empty());
    let at_p50 = load_flag_counts(sweep, Statistic::P50);
    assert_eq!(at_p50[0].kind, AnomalyKind::ImplausibleSpeed);
    assert!(
        at_p50[0]
            .detail
            .contains("R = 16 × 1000 / 0.0500 / 800.0 = 400"),
        "{}",
        at_p50[0].detail
    );
    assert_eq!(
        statistic_option(sweep, Statistic::P50),
        "p50 ITL (median token gap) — implausible speed at 1 of 1 levels"
    );
    assert_eq!(
        statistic_option(sweep, Statistic::TpotMean),
        "mean TPOT (per request)"
    );
    assert_eq!(run.warnings[0].kind, "implausible-speed");
}

#[test]
fn a_yaml_twin_points_to_the_json_report() {
    let problems = import(&[realdata(
        "vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.yaml",
    )])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::Yaml);
    // Without its extension too: a `key: value` first line.
    let problems = import(&[InputFile {
        name: "pasted text".into(),
        text: "# a report\nbenchmarks:\n- type_: generative_benchmark\n".into(),
    }])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::Yaml);
}

#[test]
fn a_known_tool_without_its_level_or_version_is_named() {
    // An AIPerf export whose metrics sit under `records` by display name, with no load level.
    let text = r#"{"records":{"Time to First Token":{"unit":"ms","avg":12}},"input_config":{"endpoint":{"model_names":["m"]}},"was_cancelled":false,"error_summary":[]}"#;
    let problems = import(&[InputFile {
        name: "profile_export_aiperf.json".into(),
        text: text.into(),
    }])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::LooksLikeButNoLevel);
    assert_eq!(
        problems[0].message(),
        "looks like an AIPerf export, but has no `input_config.loadgen.concurrency` or `input_config.phases`: cannot place it on a level"
    );
    // An LLMPerf summary of a results version it does not write today.
    let text = r#"{"version":"2025-01-01","model":"m","num_concurrent_requests":4,"results_mean_output_throughput_token_per_s":100,"results_ttft_s_mean":0.2}"#;
    let problems = import(&[InputFile {
        name: "m_summary.json".into(),
        text: text.into(),
    }])
    .unwrap_err();
    assert_eq!(
        problems[0].message(),
        "LLMPerf summary of version 2025-01-01: this planner reads version 2023-08-31, the one LLMPerf writes"
    );
    // An AIPerf export of another major schema version.
    let text = r#"{"schema_version":"2.0","input_config":{},"request_count":{"avg":3}}"#;
    let problems = import(&[InputFile {
        name: "p.json".into(),
        text: text.into(),
    }])
    .unwrap_err();
    assert!(problems[0]
        .message()
        .starts_with("AIPerf profile export of schema version 2.0: this planner reads"));
}

#[test]
fn an_aiperf_sweep_csv_reads_its_table_and_not_its_sections() {
    // Laid out as AIPerf 0.11 writes it (the writer's header, blank lines and sections); the row
    // at 320 carries the averages of the real 1.3 export in aiperf-0.11/.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/aiperf-sweep/profile_export_aiperf_sweep.csv");
    let run = imported(&[InputFile {
        name: "profile_export_aiperf_sweep.csv".into(),
        text: std::fs::read_to_string(path).unwrap(),
    }]);
    assert!(run.problems.is_empty(), "{:?}", run.problems);
    assert_eq!(run.formats[0].1, Some(Format::AiPerfSweep));
    let sweep = &run.source.sweeps[0];
    assert_eq!(
        sweep.levels().iter().map(|l| l.level).collect::<Vec<_>>(),
        vec![16.0, 320.0]
    );
    let l = level(sweep, 320.0);
    assert_eq!(l.latency_ms(Statistic::TpotMean), Some(53.14));
    assert_eq!(l.latency_ms(Statistic::ItlMean), Some(53.46));
    assert_eq!(l.latency_ms(Statistic::TtftMean), Some(3579.70));
    assert_eq!(l.throughput_tok_s, 4601.89);
    assert_eq!(l.latency_ms(Statistic::TpotP90), None);
    assert_eq!(l.requests, Some((Some(5291.0), Some(0.0))));
}

#[test]
fn lmbench_per_request_csvs_are_a_request_rate_sweep_from_their_names() {
    let run = imported(&[
        realdata("lmbench/LMBench_sharegpt_output_0.5.csv"),
        realdata("lmbench/LMBench_sharegpt_output_1.csv"),
    ]);
    assert!(run.problems.is_empty(), "{:?}", run.problems);
    assert_eq!(run.formats[0].1, Some(Format::LmBench));
    let sweep = &run.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::RequestRate);
    assert_eq!(sweep.deployment.dataset.as_deref(), Some("sharegpt"));
    let close = |a: Option<f64>, b: f64| assert!((a.unwrap() - b).abs() < 1e-9, "{a:?} vs {b}");
    // 252 requests at 0.5 req/s: their tokens over first launch to last finish; per request
    // TPOT = generation_time / (tokens - 1) (generation_time starts at the first token).
    let l = level(sweep, 0.5);
    close(Some(l.throughput_tok_s), 107.72699127190964);
    close(l.latency_ms(Statistic::TtftP50), 349.74801540374756);
    close(l.latency_ms(Statistic::TpotP90), 62.3203155978414);
    close(l.latency_ms(Statistic::TpotMean), 55.84699364386272);
    close(
        level(sweep, 1.0).latency_ms(Statistic::TpotP90),
        65.6596509421744,
    );
    // LMBench writes no row for a failed request: none is counted, and no share is said.
    let row = &sweep.rows[l.row_indices[0]];
    assert_eq!(
        (row.completed_requests, row.failed_requests),
        (Some(252.0), None)
    );
    assert_eq!(l.failed_share(), None);
}

/// The p-th percentile by linear interpolation between the closest ranks (numpy's default).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    let rank = (sorted.len() - 1) as f64 * p / 100.0;
    let (below, above) = (rank.floor() as usize, rank.ceil() as usize);
    sorted[below] + (sorted[above] - sorted[below]) * (rank - below as f64)
}

#[test]
fn vllm_and_sglang_summaries_are_checked_against_their_per_request_records() {
    // vLLM 0.19 --save-detailed and SGLang 0.5.9 with per-request arrays: a request's TPOT is
    // sum(itls[i]) / (output_lens[i] - 1), and the median of those is the file's median_tpot_ms,
    // so `*_tpot_ms` is read as TPOT (per request) and `*_itl_ms` as ITL (chunk gaps pooled).
    // SGLang divides (end-to-end - TTFT), a few microseconds more than its chunk gaps' sum: the
    // medians agree to 1e-5 there, exactly for vLLM.
    for (file, seconds, tolerance) in [
        ("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json", true, 1e-7),
        ("Scicom-llm-benchmaq__benchmarks_sglang_runpod_h100sxm_Qwen3-8B__tp8_dp1_Qwen3-8B_in1024_out128_p100_c100_38769a.jsonl", true, 1e-5),
    ] {
        let input = realdata(file);
        let text = input.text.replace("Infinity", "null");
        let record: serde_json::Value =
            serde_json::from_str(text.lines().next().unwrap()).unwrap();
        let itls = record["itls"].as_array().unwrap();
        let lens = record["output_lens"].as_array().unwrap();
        let scale = if seconds { 1000.0 } else { 1.0 };
        let mut tpot: Vec<f64> = itls
            .iter()
            .zip(lens)
            .filter_map(|(gaps, n)| {
                let n = n.as_f64()?;
                let sum: f64 = gaps.as_array()?.iter().filter_map(|g| g.as_f64()).sum();
                (n > 1.0).then_some(sum * scale / (n - 1.0))
            })
            .collect();
        tpot.sort_by(f64::total_cmp);
        let median = record["median_tpot_ms"].as_f64().unwrap();
        assert!(
            (percentile(&tpot, 50.0) - median).abs() < tolerance * median,
            "{file}: {} vs {median}",
            percentile(&tpot, 50.0)
        );
        let run = imported(&[input]);
        let l = &run.source.sweeps[0].levels()[0];
        assert_eq!(l.latency_ms(Statistic::TpotP50), Some(median));
        assert_eq!(
            l.latency_ms(Statistic::P50),
            record["median_itl_ms"].as_f64()
        );
    }
}

#[test]
fn a_guidellm_csv_points_to_its_json_report() {
    // GuideLLM's older CSV writer: one header row, `Type, Run Id, Id, Name, ...`.
    let csv = "Type,Run Id,Id,Name,Start Time,End Time,Duration,Successful Requests\ngenerative_benchmark,r1,b1,concurrent@4,2025-06-05 10:00:00,2025-06-05 10:00:30,30,120\n";
    let problems = import(&[InputFile {
        name: "benchmarks.csv".into(),
        text: csv.into(),
    }])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::GuideLlmCsv);
}

#[test]
fn a_bad_lmbench_row_names_its_column_and_a_nul_byte() {
    let header = "prompt_tokens,generation_tokens,ttft,generation_time,launch_time,finish_time\n";
    let text = format!(
        "{header}689,275,0.17,14.6,1746539923.6,1746539938.4\n543,3\u{0}32,0.17,17.7,1746539925.6,1746539943.6\n543,x,0.17,17.7,1746539925.6,1746539943.6\n"
    );
    let run = imported(&[InputFile {
        name: "LMBench_sharegpt_output_0.5.csv".into(),
        text,
    }]);
    assert_eq!(run.problems.len(), 2);
    assert_eq!(
        run.problems[0].located(),
        "LMBench_sharegpt_output_0.5.csv, row 3: a NUL byte (\\0) in column `generation_tokens`: the row is not read (the rest of the file is)"
    );
    assert_eq!(run.problems[1].error.kind(), RowErrorKind::NotANumber);
    assert_eq!(run.problems[1].error.subject(), Some("generation_tokens"));
    assert_eq!(run.source.row_count(), 1);
}

#[test]
fn a_tools_yaml_twin_is_named_for_the_tool_that_wrote_it() {
    let named = |name: &str| {
        let problems = import(&[realdata(name)]).unwrap_err();
        assert_eq!(problems[0].error.kind(), RowErrorKind::Yaml);
        problems[0].message()
    };
    assert_eq!(
        named("vllm-project-guidellm__tests_unit_entrypoints_assets__benchmarks_stripped__at_a1fe883a.yaml"),
        "GuideLLM's YAML twin of its report, not read: GuideLLM writes the same report as JSON (benchmarks.json, with --outputs json), which this planner reads"
    );
    assert_eq!(
        named("llm-d-llm-d-benchmark__tests_fixtures__inference_perf_lifecycle.yaml"),
        "inference-perf's YAML twin of its report, not read: inference-perf writes the same report as JSON (stage_N_lifecycle_metrics.json), which this planner reads"
    );
    // Another YAML file (a run's settings) is not named for a tool.
    let settings = import(&[InputFile {
        name: "config.yaml".into(),
        text: "model: org/m\nbenchmarks: 3\n".into(),
    }])
    .unwrap_err();
    assert!(settings[0]
        .message()
        .starts_with("a YAML file, not read: a run's settings"));
}
