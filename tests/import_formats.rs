//! The formats added for people's own files (vLLM JSON lines and multi-turn output, EvalScope
//! summaries with their percentile files), the messages for files that match no format, and
//! the CSV template's new columns. Samples follow the keys these tools write.

use llm_slo_planner::core::import::{
    detect, import, import_with, Format, ImportOptions, InputFile, RowErrorKind, MODEL_NOT_STATED,
};
use llm_slo_planner::core::model::sweep::{LevelKind, Statistic};

fn file(name: &str, text: &str) -> InputFile {
    InputFile {
        name: name.into(),
        text: text.into(),
    }
}

/// An older EvalScope `benchmark_summary.json` (latencies in seconds).
fn evalscope_summary(concurrency: u32, throughput: f64, tpot_s: f64, itl_s: f64) -> String {
    format!(
        r#"{{"Time taken for tests (s)": 289.0, "Number of concurrency": {concurrency}, "Request rate (req/s)": -1, "Total requests": 100, "Succeed requests": 100, "Failed requests": 0, "Output token throughput (tok/s)": {throughput}, "Total token throughput (tok/s)": 547.177, "Request throughput (req/s)": 0.346, "Average latency (s)": 14.1385, "Average time to first token (s)": 0.0413, "Average time per output token (s)": {tpot_s}, "Average inter-token latency (s)": {itl_s}, "Average input tokens per request": 94.75, "Average output tokens per request": 1486.59}}"#
    )
}

const EVALSCOPE_PERCENTILES: &str = r#"[
 {"Percentiles": "10%", "TTFT (s)": 0.0171, "ITL (s)": 0.0093, "TPOT (s)": 0.0094, "Latency (s)": 2.0817},
 {"Percentiles": "50%", "TTFT (s)": 0.0350, "ITL (s)": 0.0095, "TPOT (s)": 0.0095, "Latency (s)": 14.0},
 {"Percentiles": "90%", "TTFT (s)": 0.0610, "ITL (s)": 0.0101, "TPOT (s)": 0.0098, "Latency (s)": 20.0},
 {"Percentiles": "99%", "TTFT (s)": 0.0900, "ITL (s)": 0.0190, "TPOT (s)": 0.0102, "Latency (s)": 25.0}
]"#;

#[test]
fn evalscope_summaries_read_seconds_and_keep_tpot_and_itl_apart() {
    let files = [
        file(
            "parallel_5/benchmark_summary.json",
            &evalscope_summary(5, 514.391, 0.0095, 0.0093),
        ),
        file(
            "parallel_5/benchmark_percentile.json",
            EVALSCOPE_PERCENTILES,
        ),
        file(
            "parallel_10/benchmark_summary.json",
            &evalscope_summary(10, 900.0, 0.011, 0.0105),
        ),
    ];
    assert!(files.iter().all(|f| detect(f) == Some(Format::EvalScope)));
    let options = ImportOptions {
        model_id: Some("Qwen/Qwen3-8B".into()),
    };
    let imported = import_with(&files, &options).unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    assert_eq!(imported.source.models[0].model_id, "Qwen/Qwen3-8B");
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::Concurrency);
    let l5 = &sweep.levels()[0];
    assert_eq!(l5.level, 5.0);
    assert_eq!(l5.throughput_tok_s, 514.391);
    assert_eq!(l5.latency_ms(Statistic::TpotMean), Some(0.0095 * 1000.0));
    assert_eq!(l5.latency_ms(Statistic::ItlMean), Some(0.0093 * 1000.0));
    assert_eq!(l5.latency_ms(Statistic::TtftMean), Some(0.0413 * 1000.0));
    assert_eq!(l5.avg_output_len, Some(1486.59));
    // The percentile file of the same folder adds p50, p90 and p99.
    assert_eq!(l5.latency_ms(Statistic::TpotP90), Some(0.0098 * 1000.0));
    assert_eq!(l5.latency_ms(Statistic::P99), Some(0.0190 * 1000.0));
    assert_eq!(l5.latency_ms(Statistic::TtftP50), Some(0.0350 * 1000.0));
    assert_eq!(sweep.levels()[1].latency_ms(Statistic::TpotP90), None);
    // Without a model in the file or the dialog, none is made up.
    let bare = import(&files[..1]).unwrap();
    assert_eq!(bare.source.models[0].model_id, MODEL_NOT_STATED);
}

#[test]
fn evalscope_newer_summaries_in_ms_and_unpaired_percentiles() {
    let newer = r#"{"Test Duration (s)": 60.0, "Concurrency": 8, "Request Rate (req/s)": -1, "Total Requests": 200, "Success Requests": 200, "Failed Requests": 0, "Req Throughput (req/s)": 3.3, "Avg Latency (s)": 2.4, "Output Throughput (tok/s)": 1650.0, "TTFT (ms)": 80.0, "TPOT (ms)": 4.7, "ITL (ms)": 4.6, "Avg Output Tokens": 500}"#;
    let imported = import(&[file("benchmark_summary.json", newer)]).unwrap();
    let l = &imported.source.sweeps[0].levels()[0];
    assert_eq!(l.latency_ms(Statistic::TpotMean), Some(4.7));
    assert_eq!(l.latency_ms(Statistic::ItlMean), Some(4.6));
    assert_eq!(l.served_req_s, Some(200.0 / (60.0 - 2.4)));
    // Two summaries and a percentile file with no folders (the plain file picker gives base
    // names): which run it belongs to is unknown, and the message says how to pick them.
    let files = [
        file(
            "benchmark_summary.json",
            &evalscope_summary(5, 500.0, 0.01, 0.01),
        ),
        file(
            "benchmark_summary.json",
            &evalscope_summary(10, 900.0, 0.011, 0.011),
        ),
        file("benchmark_percentile.json", EVALSCOPE_PERCENTILES),
    ];
    let imported = import(&files).unwrap();
    assert_eq!(imported.problems.len(), 1);
    assert_eq!(
        imported.problems[0].error.kind(),
        RowErrorKind::PercentilesAmbiguous
    );
    assert!(imported.problems[0]
        .message()
        .contains("2 summaries of this import have no folder"));
    // A percentile file alone: no summary to add to.
    let problems = import(&[file("benchmark_percentile.json", EVALSCOPE_PERCENTILES)]).unwrap_err();
    assert_eq!(
        problems[0].error.kind(),
        RowErrorKind::PercentilesWithoutSummary
    );
}

#[test]
fn vllm_json_lines_and_multi_turn_output() {
    let lines = (1..=3)
        .map(|i| {
            let c = 1 << i;
            format!(
                "{{\"date\":\"2026010{i}-120000\",\"backend\":\"vllm\",\"model_id\":\"org/m\",\"request_rate\":\"inf\",\"burstiness\":1.0,\"max_concurrency\":{c},\"completed\":50,\"duration\":30,\"output_throughput\":{},\"median_itl_ms\":{},\"mean_tpot_ms\":{}}}",
                100 * c,
                10 + i,
                11 + i
            )
        })
        .collect::<Vec<_>>()
        .join("\n");
    let jsonl = file("results.jsonl", &lines);
    assert_eq!(detect(&jsonl), Some(Format::VllmBench));
    let imported = import(&[jsonl]).unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    // The per-run `date` does not split the sweep.
    assert_eq!(imported.source.sweeps.len(), 1);
    assert_eq!(imported.source.sweeps[0].levels().len(), 3);

    // vLLM's multi-turn benchmark: level `multi_turn_concurrency`, ITL and TPOT both kept.
    let multi = r#"{"date": "2026-05-01T10:00:00Z", "mode": "multi_turn", "backend": "openai-chat", "model_id": "org/m", "num_conversations": 64, "turns_per_conversation": 5, "multi_turn_concurrency": 16, "inter_turn_delay_ms": 500, "duration": 120.5, "conversations_completed": 64, "conversations_failed": 0, "completed": 320, "failed": 0, "total_input_tokens": 400000, "total_output_tokens": 64000, "request_throughput": 2.66, "output_throughput": 531.1, "mean_ttft_ms": 210.0, "median_ttft_ms": 180.0, "p99_ttft_ms": 900.0, "mean_tpot_ms": 24.0, "median_tpot_ms": 23.0, "p99_tpot_ms": 40.0, "mean_itl_ms": 22.5, "median_itl_ms": 21.0, "p99_itl_ms": 60.0, "mean_e2el_ms": 4900.0, "per_turn_metrics": []}"#;
    let multi = file("multi.json", multi);
    assert_eq!(detect(&multi), Some(Format::VllmBench));
    let imported = import(&[multi]).unwrap();
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::Concurrency);
    let l = &sweep.levels()[0];
    assert_eq!(l.level, 16.0);
    assert_eq!(l.latency_ms(Statistic::TpotMean), Some(24.0));
    assert_eq!(l.latency_ms(Statistic::ItlMean), Some(22.5));
    assert_eq!(l.latency_ms(Statistic::P50), Some(21.0));
    assert_eq!(l.avg_output_len, Some(200.0));
    assert_eq!(
        sweep.deployment.dataset.as_deref(),
        Some("multi-turn, 5 turns per conversation, 500 ms between turns")
    );
}

#[test]
fn files_that_match_no_format_say_which_they_are_closest_to() {
    // An AIPerf export without its load generator's concurrency.
    let aiperf = r#"{"schema_version": "1", "aiperf_version": "0.3", "request_count": {"avg": 100}, "output_token_throughput": {"unit": "tokens/sec", "avg": 500}, "inter_token_latency": {"unit": "ms", "avg": 10}}"#;
    let problems = import(&[file("profile_export_aiperf.json", aiperf)]).unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::LooksLikeButNoLevel);
    assert_eq!(
        problems[0].message(),
        "looks like an AIPerf export, but has no `input_config.loadgen.concurrency` or `input_config.phases`: cannot place it on a level"
    );
    // A vLLM result without its output throughput: with `backend` it is read as one and the row
    // says what it lacks; without, the file is named as close to one.
    let vllm = r#"{"backend": "vllm", "model_id": "m", "max_concurrency": 4, "completed": 10, "duration": 5, "median_itl_ms": 10}"#;
    let problems = import(&[file("r.json", vllm)]).unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::Missing);
    assert_eq!(
        problems[0].message(),
        "`output_throughput` has no value (absent, empty, NaN or infinite)"
    );
    let vllm = r#"{"model_id": "m", "max_concurrency": 4, "completed": 10, "duration": 5, "median_itl_ms": 10}"#;
    let problems = import(&[file("r.json", vllm)]).unwrap_err();
    assert_eq!(
        problems[0].error.kind(),
        RowErrorKind::LooksLikeButNoThroughput
    );
    assert!(problems[0]
        .message()
        .starts_with("looks like a vLLM bench serve result, but has no `output_throughput`"));
    // A CSV with the template's columns but no level.
    let csv = "model,gpu,num_gpus,output_tok_s,p50_itl_ms\nm,H100,1,100,10\n";
    let problems = import(&[file("t.csv", csv)]).unwrap_err();
    assert_eq!(
        problems[0].message(),
        "looks like the CSV template, but has no `concurrency` or `request_rate`: cannot place it on a level"
    );
    // Nothing like any format: its keys are named.
    let problems = import(&[file("x.json", r#"{"foo": 1, "bar": 2}"#)]).unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::NotRecognised);
    assert!(problems[0].message().contains("`bar`, `foo`"));
    // A number out of range names its key.
    let problems = import(&[file(
        "big.json",
        r#"{"backend":"vllm","model_id":"org/big","max_concurrency":4,"output_throughput":1e400,"median_itl_ms":12}"#,
    )])
    .unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::NumberOutOfRange);
    assert!(problems[0]
        .message()
        .starts_with("`output_throughput` holds a number out of range (1e400)"));
}

#[test]
fn the_csv_template_reads_its_new_columns_and_names_unknown_ones() {
    let csv = "model,gpu,num_gpus,tp,pp,precision,framework,config,dataset,isl,osl,date,concurrency,output_tok_s,p95_tpot_ms,p95_ttft_ms,served_req_s,output_tokens_per_request,power_w,colour\n\
               m,H100,8,4,2,fp8,vllm,TP4PP2,random,1024,128,2026-02-01,16,1600,22,900,3.1,128,5000,blue\n";
    let imported = import(&[file("t.csv", csv)]).unwrap();
    let sweep = &imported.source.sweeps[0];
    let d = &sweep.deployment;
    assert_eq!(d.base_label(), "8 x H100, TP4 PP2, fp8");
    assert_eq!(d.engine.as_deref(), Some("vllm"));
    assert_eq!(d.config.as_deref(), Some("TP4PP2"));
    assert_eq!(d.workload_label(), "random 1024/128");
    assert_eq!(d.date.as_deref(), Some("2026-02-01"));
    let l = &sweep.levels()[0];
    assert_eq!(l.latency_ms(Statistic::TpotP95), Some(22.0));
    assert_eq!(l.latency_ms(Statistic::TtftP95), Some(900.0));
    assert_eq!(l.served_req_s, Some(3.1));
    assert_eq!(l.avg_output_len, Some(128.0));
    assert_eq!(l.energy_per_token_j, Some(5000.0 / 1600.0));
    assert_eq!(imported.problems.len(), 1);
    assert_eq!(
        imported.problems[0].error.kind(),
        RowErrorKind::UnknownColumn
    );
    assert_eq!(imported.problems[0].error.subject(), Some("colour"));
    // A column in seconds where the template has ms is pointed at the right one; a date that is
    // no date is said, and its sweep listed after the dated ones.
    let csv = "model,concurrency,output_tok_s,p50_itl_s,date\nm,1,100,0.01,someday\nm,1,100,0.01,2026-01-02\n";
    let imported = import(&[file("s.csv", csv)]).unwrap();
    let messages: Vec<String> = imported.problems.iter().map(|p| p.message()).collect();
    assert_eq!(
        messages,
        vec![
            "column `p50_itl_s` is not one this planner reads; its values are ignored (did you mean `p50_itl_ms`? the template's latencies are in ms)",
            "date \"someday\" is not one this planner reads (e.g. 2026-03-25): its sweep is listed after the dated ones",
        ]
    );
    assert_eq!(imported.source.sweeps_of(0), vec![1, 0]);
}

#[test]
fn a_file_without_keys_says_what_it_holds_instead() {
    let said = |text: &str| {
        let problems = import(&[file("pasted.json", text)]).unwrap_err();
        assert_eq!(problems[0].error.kind(), RowErrorKind::NotRecognised);
        problems[0].message()
    };
    assert_eq!(
        said("[1,2,3]"),
        "format not recognised: the file holds an array of numbers, not runs or requests with named fields (a JSON object each, or a CSV with a header row; see the README for the formats)"
    );
    assert!(said("[]").contains("the file holds an empty array,"));
    assert!(said("{}").contains("the file holds an empty object,"));
    assert!(said("[[1,2],[3,4]]").contains("the file holds an array of arrays,"));
    assert!(said(r#"["a","b"]"#).contains("the file holds an array of texts,"));
    // A file with keys still names a few of them.
    assert!(said(r#"{"alpha": 1, "beta": 2}"#).contains("keys like `alpha`, `beta`"));
}

#[test]
fn each_paste_is_named_by_its_time_and_first_line() {
    use llm_slo_planner::core::import::pasted_name;
    assert_eq!(pasted_name("17:52:03", "  \n"), "pasted at 17:52:03");
    assert_eq!(
        pasted_name("17:52:03", "\n[1,2,3]\n"),
        "pasted at 17:52:03 ([1,2,3])"
    );
    assert_eq!(
        pasted_name(
            "09:05:00",
            "model,concurrency,output_tok_s,p50_itl_ms\nm,1,100,10"
        ),
        "pasted at 09:05:00 (model,concurrency,output…)"
    );
}

/// A joined file: vLLM results of several runs gathered under `{ "records": [...] }` (each with
/// the path it came from) are read run by run, as the files themselves would be.
#[test]
fn a_joined_records_file_of_vllm_results_is_read_record_by_record() {
    let records = (1..=3)
        .map(|i| {
            let c = 1 << i;
            format!(
                "{{\"source_path\":\"results/run{c}.json\",\"backend\":\"vllm\",\"model_id\":\"org/m\",\"request_rate\":\"inf\",\"max_concurrency\":{c},\"completed\":50,\"duration\":30,\"output_throughput\":{},\"median_itl_ms\":{},\"mean_tpot_ms\":{}}}",
                100 * c,
                10 + i,
                11 + i
            )
        })
        .collect::<Vec<_>>()
        .join(",");
    let joined = file(
        "joined.json",
        &format!("{{\"_source\":\"gathered by hand\",\"records\":[{records}]}}"),
    );
    assert_eq!(detect(&joined), Some(Format::VllmBench));
    let imported = import(&[joined]).unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    let levels = imported.source.sweeps[0].levels();
    assert_eq!(
        levels.iter().map(|l| l.level).collect::<Vec<_>>(),
        vec![2.0, 4.0, 8.0]
    );
    assert_eq!(levels[1].latency_ms(Statistic::P50), Some(12.0));
    assert_eq!(levels[2].latency_ms(Statistic::TpotMean), Some(14.0));
}

/// A hand-made InferenceX API row: 2 prefill + 4 decode GPUs, per-role throughputs that add up
/// (total 300 per GPU x 6 = 1,800 = 600 x 2 + 150 x 4), power per GPU 500 W over all six, 600 W
/// per prefill GPU, 450 W per decode GPU; a stored J per output token of 3 (450 / 150: the
/// decode role's); `extra` adds keys to the metrics.
fn disaggregated_row(extra: &str, prefill_gpus: &str) -> String {
    format!(
        r#"[{{"hardware":"h200","framework":"dynamo-sglang","model":"m","precision":"fp8","spec_method":"none","disagg":true,
           "prefill_tp":2,"prefill_ep":1,"prefill_dp_attention":false,"prefill_num_workers":1,
           "decode_tp":4,"decode_ep":1,"decode_dp_attention":false,"decode_num_workers":1,
           "num_prefill_gpu":{prefill_gpus},"num_decode_gpu":4,"isl":1024,"osl":1024,"conc":16,"date":"2026-01-01",
           "metrics":{{"tput_per_gpu":300,"input_tput_per_gpu":600,"output_tput_per_gpu":150,"median_tpot":0.02,
           "avg_power_w":500,"prefill_avg_power_w":600,"decode_avg_power_w":450,"joules_per_output_token":3{extra}}}}}]"#
    )
}

#[test]
fn a_disaggregated_row_without_a_power_schema_version_stores_the_decode_roles_energy() {
    let imported = import(&[file("x.json", &disaggregated_row("", "2"))]).unwrap();
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.deployment.num_gpus, Some(6));
    let l = &sweep.levels()[0];
    // Output per decode GPU x D; input per prefill GPU x P.
    assert_eq!(l.throughput_tok_s, 600.0);
    assert_eq!(l.input_tok_s, Some(1200.0));
    // Power: 500 W x (P + D); the roles' own: 600 W x 2, 450 W x 4.
    assert_eq!(l.power_w, Some(3000.0));
    assert_eq!(l.roles.prefill_power_w, Some(1200.0));
    assert_eq!(l.roles.decode_power_w, Some(1800.0));
    // The whole deployment's J per output token: 3,000 W / 600 tok/s = 5 J, not the stored 3
    // (the decode role's, kept and named).
    assert_eq!(l.energy_per_token_j, Some(5.0));
    assert_eq!(l.roles.decode_energy_per_token_j, Some(3.0));
    assert_eq!(imported.problems.len(), 1);
    assert_eq!(
        imported.problems[0].message(),
        "`joules_per_output_token` (3 J) is the decode role's alone (no power_metric_schema_version 2): shown as the decode role's; the whole deployment's J per output token is avg_power_w × (P + D) ÷ output tok/s"
    );
    // With power_metric_schema_version 2 the stored value is the whole deployment's.
    let v2 = disaggregated_row(r#","power_metric_schema_version":2"#, "2");
    let imported = import(&[file("x.json", &v2)]).unwrap();
    let l = &imported.source.sweeps[0].levels()[0];
    assert_eq!(l.energy_per_token_j, Some(3.0));
    assert_eq!(l.roles.decode_energy_per_token_j, None);
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
}

#[test]
fn a_role_of_zero_or_fractional_gpus_is_named_and_the_rest_stands() {
    for (p, message) in [
        (
            "0",
            "`num_prefill_gpu` is 0 in a disaggregated row: a role without GPUs cannot be counted, so the row is not read",
        ),
        ("2.5", "`num_prefill_gpu` must be a whole number, got 2.5"),
    ] {
        let bad = disaggregated_row("", p);
        let good = disaggregated_row("", "2");
        let err = import(&[file("bad.json", &bad)]).unwrap_err();
        assert_eq!(err[0].message(), message);
        // The other file of the same import stands.
        let imported = import(&[file("bad.json", &bad), file("good.json", &good)]).unwrap();
        assert_eq!(imported.source.row_count(), 1);
        assert_eq!(imported.problems[0].message(), message);
    }
}

#[test]
fn the_csv_template_states_roles_by_their_gpus() {
    let csv = "model,gpu,prefill_gpus,decode_gpus,concurrency,output_tok_s,input_tok_s,input_tokens_per_request,p50_tpot_ms\n\
               m,H100,2,6,16,1600,12800,2048,20\n";
    let imported = import(&[file("t.csv", csv)]).unwrap();
    let sweep = &imported.source.sweeps[0];
    let d = &sweep.deployment;
    assert_eq!(d.num_gpus, Some(8));
    let roles = d.disaggregation.as_ref().unwrap().roles().unwrap();
    assert_eq!((roles.prefill.gpus, roles.decode.gpus), (Some(2), Some(6)));
    let l = &sweep.levels()[0];
    assert_eq!(
        (l.avg_input_len, l.input_tok_s),
        (Some(2048.0), Some(12800.0))
    );
    // num_gpus must be P + D; one role's GPUs alone are named.
    let csv = "model,num_gpus,prefill_gpus,decode_gpus,concurrency,output_tok_s\nm,4,2,6,16,1600\nm,,2,,16,1600\n";
    let err = import(&[file("t.csv", csv)]).unwrap_err();
    let messages: Vec<String> = err.iter().map(|p| p.message()).collect();
    assert_eq!(
        messages,
        [
            "`num_gpus` (4) is not prefill_gpus + decode_gpus (2 + 6 = 8): the row is not read",
            "`decode_gpus` has no value (absent, empty, NaN or infinite)",
        ]
    );
}
