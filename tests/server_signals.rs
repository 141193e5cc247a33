//! Server signals beside client levels, read from the real files of tests/fixtures/realdata:
//! inference-perf's Prometheus reports joined to their stages, AIPerf's server-metrics export
//! joined to InferenceX's per-level agentic results, the CSV template's columns, and what bad
//! input is told. Every value below is read by hand from the files.

mod common;

use common::realdata;
use llm_slo_planner::core::import::{import, Format, InputFile, RowErrorKind};
use llm_slo_planner::core::model::signals::{KvPeak, Signal, SignalSource};
use llm_slo_planner::core::model::sweep::{LevelKind, Statistic};

const KIMI: &str = "inferencex-agentic-kimi";
const RUN1: &str = "kimik2.7_tp4_conc1_kvnone_fp4_vllm_tp4-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc1_mi355x-amds_01";
const RUN4: &str = "kimik2.7_tp4_conc4_kvnone_fp4_vllm_tp4-dcp1-pcp1-ep1-dpafalse_disagg-false_spec-none_conc4_mi355x-amds_02";

fn kimi_files() -> Vec<InputFile> {
    [RUN1, RUN4]
        .iter()
        .flat_map(|run| {
            [
                realdata(&format!("{KIMI}/bmk_agentic_{run}/{run}.json")),
                realdata(&format!(
                    "{KIMI}/agentic_{run}/aiperf_artifacts/server_metrics_export.csv"
                )),
            ]
        })
        .collect()
}

fn stages(with_prometheus: bool) -> Vec<InputFile> {
    (0..7)
        .flat_map(|n| {
            let lifecycle = realdata(&format!(
                "inference-perf-kubecon/results/stage_{n}_lifecycle_metrics.json"
            ));
            let prometheus = with_prometheus.then(|| {
                realdata(&format!(
                    "inference-perf-kubecon/results/stage_{n}_prometheus_metrics.json"
                ))
            });
            std::iter::once(lifecycle).chain(prometheus)
        })
        .collect()
}

#[test]
fn inference_perf_stages_carry_their_queue_and_no_kv() {
    let imported = import(&stages(true)).unwrap();
    assert_eq!(imported.source.sweeps.len(), 1);
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.level_kind(), LevelKind::RequestRate);
    // successes.queue_len.mean of stages 0 to 6.
    let waiting: Vec<Option<f64>> = (0..sweep.levels().len())
        .map(|li| sweep.level_signals(li).and_then(|s| s.waiting_mean))
        .collect();
    let expected = [0.0, 0.0, 0.0, 5.0, 155.0, 208.0, 213.0].map(Some);
    assert_eq!(waiting, expected);
    for li in 0..sweep.levels().len() {
        let s = sweep.level_signals(li).unwrap();
        // kv_cache_usage_percentage reads 0.0 at every stage: not reported.
        assert_eq!((s.kv_use_mean, s.kv_use_max), (None, None));
        assert_eq!(s.source(Signal::KvUse), None);
        // num_preemptions_total: a count of 0; no running gauge in these reports.
        assert_eq!(s.preemptions, Some(0.0));
        assert_eq!(s.running_mean, None);
        assert_eq!(s.source(Signal::Waiting), Some(SignalSource::InferencePerf));
    }
    let kv_note = imported
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::LeftOut && p.message().starts_with("KV"))
        .expect("the KV gauge's zeros are named");
    assert!(kv_note
        .message()
        .contains("exactly 0 at every stage while requests wait"));
    // The summary of every stage is not a stage's.
    let with_summary: Vec<InputFile> = stages(true)
        .into_iter()
        .chain([realdata(
            "inference-perf-kubecon/results/summary_prometheus_metrics.json",
        )])
        .collect();
    let imported = import(&with_summary).unwrap();
    assert!(imported
        .problems
        .iter()
        .any(|p| p.error.kind() == RowErrorKind::Skipped
            && p.file.ends_with("summary_prometheus_metrics.json")));
}

#[test]
fn a_prometheus_report_without_its_stage_is_named_and_kept_out() {
    let mut files = stages(false);
    files.truncate(3);
    files.push(realdata(
        "inference-perf-kubecon/results/stage_4_prometheus_metrics.json",
    ));
    let imported = import(&files).unwrap();
    let orphan = imported
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::SignalsWithoutLevel)
        .expect("named");
    assert!(orphan
        .message()
        .starts_with("server signals without a level: inference-perf's Prometheus report stage_4_prometheus_metrics.json, without stage_4_lifecycle_metrics.json"));
    let sweep = &imported.source.sweeps[0];
    assert!((0..sweep.levels().len()).all(|li| sweep.level_signals(li).is_none()));
}

#[test]
fn the_kimi_sweep_reads_each_levels_server_metrics_as_the_csv_states_them() {
    let imported = import(&kimi_files()).unwrap();
    let formats: Vec<Option<Format>> = imported.formats.iter().map(|(_, f)| *f).collect();
    assert!(formats.contains(&Some(Format::InferenceXAgentic)));
    assert!(formats.contains(&Some(Format::AiPerfServerMetrics)));
    assert!(
        imported
            .problems
            .iter()
            .all(|p| p.error.kind() != RowErrorKind::SignalsWithoutLevel),
        "{:?}",
        imported.problems
    );
    assert_eq!(imported.source.sweeps.len(), 1);
    let sweep = &imported.source.sweeps[0];
    assert_eq!(sweep.deployment.config.as_deref(), Some("offload none"));
    assert_eq!(sweep.deployment.num_gpus, Some(4));
    let levels = sweep.levels();
    assert_eq!(
        levels.iter().map(|l| l.level).collect::<Vec<_>>(),
        [1.0, 4.0]
    );
    // conc 1: vllm:num_requests_running avg 0.8896 max 1, waiting avg 0.4367 max 3,
    // vllm:kv_cache_usage_perc (ratio) avg 0.0706 max 0.1378, vllm:num_preemptions total 0.
    let s = sweep.level_signals(0).unwrap();
    assert_eq!((s.running_mean, s.running_max), (Some(0.8896), Some(1.0)));
    assert_eq!((s.waiting_mean, s.waiting_max), (Some(0.4367), Some(3.0)));
    assert_eq!((s.kv_use_mean, s.kv_use_max), (Some(0.0706), Some(0.1378)));
    assert_eq!(s.preemptions, Some(0.0));
    // The export's gauge is read before the result's digest (gpu_usage_pct 0.13776, the same
    // maximum to more digits).
    assert_eq!(s.source(Signal::KvUse), Some(SignalSource::Vllm));
    assert_eq!(s.source(Signal::Running), Some(SignalSource::Vllm));
    assert_eq!(s.kv_peak, KvPeak::Max);
    // conc 4: running avg 3.9115 max 4, waiting avg 1.6342 max 8, KV avg 0.2724 max 0.4077
    // (the digest's 0.40767), preemptions 0.
    let s = sweep.level_signals(1).unwrap();
    assert_eq!((s.running_mean, s.running_max), (Some(3.9115), Some(4.0)));
    assert_eq!((s.waiting_mean, s.waiting_max), (Some(1.6342), Some(8.0)));
    assert_eq!((s.kv_use_mean, s.kv_use_max), (Some(0.2724), Some(0.4077)));
    assert_eq!(s.preemptions, Some(0.0));
    // The client's figures: 60.12642 and 162.62426 output tok/s; mean TPOT 13.21 and 22.9 ms;
    // 195 and 547 requests completed, none failed (warm-up records dropped are not failures).
    assert_eq!(levels[0].throughput_tok_s, 60.12642);
    assert_eq!(levels[1].throughput_tok_s, 162.62426);
    assert_eq!(
        levels[0].latency_ms(Statistic::TpotMean),
        Some(0.01321 * 1000.0)
    );
    assert_eq!(
        levels[1].latency_ms(Statistic::TpotMean),
        Some(0.0229 * 1000.0)
    );
    assert_eq!(levels[1].requests, Some((Some(547.0), Some(0.0))));
}

#[test]
fn the_server_metrics_alone_have_no_level() {
    let files: Vec<InputFile> = kimi_files()
        .into_iter()
        .filter(|f| f.name.ends_with(".csv"))
        .collect();
    let problems = import(&files).unwrap_err();
    let named: Vec<&str> = problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::SignalsWithoutLevel)
        .map(|p| p.file.as_str())
        .collect();
    assert_eq!(named.len(), 2, "{problems:?}");
    assert!(problems[0].message().starts_with(
        "server signals without a level: AIPerf's server metrics (server_metrics_export.csv)"
    ));
}

#[test]
fn the_csv_templates_signal_columns_are_read_and_checked() {
    let text = "concurrency,output_tok_s,running,waiting,kv_usage,preemptions\n\
                8,800,7.9,0,0.42,0\n\
                16,1400,15.2,3.5,1.4,2\n\
                32,1500,,-1,,\n";
    let imported = import(&[InputFile {
        name: "runs.csv".into(),
        text: text.into(),
    }])
    .unwrap();
    let sweep = &imported.source.sweeps[0];
    let s = sweep.level_signals(0).unwrap();
    assert_eq!(
        (s.running_mean, s.waiting_mean, s.kv_use_max, s.preemptions),
        (Some(7.9), Some(0.0), Some(0.42), Some(0.0))
    );
    assert_eq!(
        SignalSource::Csv.metric(Signal::KvUse),
        "the CSV column `kv_usage`"
    );
    // A KV use of 1.4 is no fraction, and -1 requests no count: not used, each named.
    let s = sweep.level_signals(1).unwrap();
    assert_eq!((s.kv_use_max, s.preemptions), (None, Some(2.0)));
    assert!(sweep.level_signals(2).is_none());
    let out: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::SignalOutOfRange)
        .map(|p| p.located())
        .collect();
    assert_eq!(
        out,
        [
            "runs.csv, row 3: KV cache use (column `kv_usage`) of 1.4 is outside its range (KV use is a fraction from 0 to 1, counts are 0 or more): not used",
            "runs.csv, row 4: requests waiting (column `waiting`) of -1 is outside its range (KV use is a fraction from 0 to 1, counts are 0 or more): not used",
        ]
    );
}

#[test]
fn aiperf_json_export_converts_a_percent_and_names_another_unit() {
    let profile = realdata(
        "inferencemax-rocm-fork__results_0601__kimik2.5_tp4_fp4_vllm_mi355x_offloadnone__aiperf_profile_exports/conc004__profile_export_aiperf.json",
    );
    let profile = InputFile {
        name: "run4/profile_export_aiperf.json".into(),
        text: profile.text,
    };
    let json = r#"{"schema_version": "1.0", "metrics": {
        "vllm:kv_cache_usage_perc": {"type": "gauge", "unit": "percent", "series": [{"stats": {"avg": 40.0, "max": 93.0}}]},
        "vllm:num_requests_running": {"type": "gauge", "series": [{"stats": {"avg": 3.5, "max": 4}}, {"stats": {"avg": 2.5, "max": 4}}]},
        "vllm:num_requests_waiting": {"type": "gauge", "unit": "requests", "series": [{"stats": {"avg": 1.25, "max": 6}}]},
        "sglang:token_usage": {"type": "gauge", "unit": "bytes", "series": [{"stats": {"avg": 1.0}}]},
        "vllm:num_preemptions": {"type": "counter", "series": [{"stats": {"total": 7}}]}
    }}"#;
    let server = InputFile {
        name: "run4/server_metrics_export.json".into(),
        text: json.into(),
    };
    let imported = import(&[profile, server]).unwrap();
    let s = imported.source.sweeps[0].level_signals(0).unwrap();
    // 40 and 93 percent as fractions; two engines' running requests add up.
    assert_eq!((s.kv_use_mean, s.kv_use_max), (Some(0.4), Some(0.93)));
    assert_eq!((s.running_mean, s.running_max), (Some(6.0), Some(8.0)));
    assert_eq!((s.waiting_mean, s.preemptions), (Some(1.25), Some(7.0)));
    let unit = imported
        .problems
        .iter()
        .find(|p| p.error.kind() == RowErrorKind::SignalUnit)
        .unwrap();
    assert_eq!(
        unit.message(),
        "`sglang:token_usage` in unit `bytes`, not a ratio (0 to 1) nor a percent: not used"
    );
}

#[test]
fn the_inference_perf_stages_queue_from_stage_3_with_kv_not_reported() {
    use llm_slo_planner::core::plan::bottleneck::{verdicts, Fired};
    use llm_slo_planner::core::text::why_text::fired_text;
    let imported = import(&stages(true)).unwrap();
    let sweep = &imported.source.sweeps[0];
    let v = verdicts(sweep);
    let keys: Vec<Vec<&str>> = v.iter().map(|v| v.keys()).collect();
    // queue_len 0, 0, 0, 5, 155, 208, 213; achieved_rate 111.924 of 111.92 req/s at stage 3,
    // then 117.040 of 148.89 (0.786), 117.736 of 185.86 (0.633), 116.319 of 222.83 (0.522):
    // below 0.95 of the offered rate from stage 4.
    assert_eq!(
        keys,
        [
            vec!["headroom"],
            vec!["headroom"],
            vec!["headroom"],
            vec!["queueing"],
            vec!["queueing", "overloaded"],
            vec!["queueing", "overloaded"],
            vec!["queueing", "overloaded"],
        ]
    );
    assert_eq!(
        v[3].fired[0],
        Fired::Queueing {
            waiting_mean: 5.0,
            kv_use_max: None
        }
    );
    assert_eq!(
        fired_text(&v[4].fired[0], sweep.level_kind()),
        "requests queue (waiting 155 on average) while the KV cache is not reported"
    );
}

#[test]
fn the_kimi_levels_are_headroom_then_compute_bound_queueing() {
    use llm_slo_planner::core::plan::bottleneck::{verdicts, Lever};
    use llm_slo_planner::core::text::why_text::verdict_words;
    let imported = import(&kimi_files()).unwrap();
    let sweep = &imported.source.sweeps[0];
    let v = verdicts(sweep);
    // conc 1: 0.4367 waiting (< 1), 0.8896 running of 1 (≥ 0.85): headroom. conc 4: 1.6342
    // waiting with KV max 0.4077 (< 0.5): compute-bound queueing.
    assert_eq!(v[0].keys(), ["headroom"]);
    assert_eq!(v[1].keys(), ["queueing"]);
    assert_eq!(v[1].lever(), Lever::ReplicaOrBatchedTokens);
    assert_eq!(
        verdict_words(&v[1], sweep.level_kind()),
        "compute-bound: requests wait (1.63 on average) while the KV cache is 41% used; more KV memory will not help"
    );
}

#[test]
fn the_bundled_sweeps_end_where_their_batch_still_filled_85_percent_of_the_cap() {
    use llm_slo_planner::core::import::bundled::lm_arena_chat;
    use llm_slo_planner::core::plan::bottleneck::{fill_ratio, verdict};
    let source = lm_arena_chat();
    let last_fill = |model: &str, gpu: &str, gpus: u32| {
        let sweep = source
            .sweeps
            .iter()
            .find(|s| {
                source.models[s.model_index].model_id == model
                    && s.deployment.gpu == gpu
                    && s.deployment.num_gpus == Some(gpus)
            })
            .unwrap();
        let last = sweep.levels().last().unwrap();
        (last.level, fill_ratio(last, sweep.level_kind()).unwrap())
    };
    // data/lm-arena-chat.json, the last row of each sweep: avg_batch_size ÷ max_num_seqs.
    assert_eq!(
        last_fill("meta-llama/Llama-3.1-8B-Instruct", "H100", 1),
        (768.0, 690.8681318681319 / 768.0)
    );
    assert_eq!(
        last_fill("meta-llama/Llama-3.1-8B-Instruct", "B200", 1),
        (2048.0, 2042.921052631579 / 2048.0)
    );
    assert_eq!(
        last_fill("meta-llama/Llama-3.1-70B-Instruct", "H100", 4),
        (1024.0, 898.4528301886793 / 1024.0)
    );
    assert_eq!(
        last_fill("meta-llama/Llama-3.1-405B-Instruct", "B200", 8),
        (4096.0, 3588.6633663366338 / 4096.0)
    );
    // Every bundled sweep's last level filled at least 85% (ML.ENERGY drops the runs below):
    // none is not-filled.
    for sweep in &source.sweeps {
        let last = sweep.levels().len() - 1;
        let fill = fill_ratio(&sweep.levels()[last], sweep.level_kind()).unwrap();
        assert!(fill >= 0.85, "{fill}");
        assert!(!verdict(sweep, last).unwrap().keys().contains(&"not-filled"));
    }
}

#[test]
fn the_json_names_each_signals_metric_and_leaves_the_unreported_null() {
    use llm_slo_planner::core::plan::planner::plan;
    use llm_slo_planner::core::scenario::Scenario;
    use llm_slo_planner::core::wire::export::scenario_json;
    let imported = import(&stages(true)).unwrap();
    let source = &imported.source;
    let (scenario, _) = Scenario::from_query("src=import&tpot=50&stat=ntpot_p90", source);
    let p = plan(&source.sweeps[0], &scenario.slo);
    let doc: serde_json::Value =
        serde_json::from_str(&scenario_json(source, &scenario, 0, &p, "u").unwrap()).unwrap();
    let stage3 = &doc["result"]["levels"][3];
    assert_eq!(stage3["level"], 111.92);
    assert_eq!(stage3["signals"]["waiting_mean"], 5.0);
    assert_eq!(stage3["signals"]["kv_use_max"], serde_json::Value::Null);
    assert_eq!(stage3["signals"]["running_mean"], serde_json::Value::Null);
    assert_eq!(stage3["signals"]["preemptions"], 0.0);
    assert_eq!(
        stage3["signals"]["sources"],
        serde_json::json!({"waiting": "inference-perf queue_len", "preemptions": "inference-perf num_preemptions_total"})
    );
    assert_eq!(stage3["verdict"], serde_json::json!(["queueing"]));
    assert_eq!(
        doc["result"]["levels"][4]["verdict"],
        serde_json::json!(["queueing", "overloaded"])
    );
    // The answer is 111.92 req/s; stage 4 (148.89) is saturated: why names its verdict.
    let why = &doc["result"]["why"];
    assert_eq!(why["level"], 111.92);
    assert_eq!(why["verdict"], serde_json::json!(["queueing"]));
    assert_eq!(why["next_level"], 148.89);
    assert_eq!(
        why["next_verdict"],
        serde_json::json!(["queueing", "overloaded"])
    );
    assert_eq!(
        (why["rule"].as_str(), why["lever"].as_str()),
        (Some("queueing"), Some("replica-or-batched-tokens"))
    );
}

#[test]
fn a_kv_use_of_0_while_requests_wait_is_not_reported_even_where_other_stages_read_more() {
    // Stage 3's KV gauge read 0.45 (mean) and 0.7 (p99): the gauge had a series, so the zeros
    // are not the whole run's; but stage 6 reads 0 while 213 requests wait, which no KV cache
    // can: not reported there, and named.
    let zero = "\"kv_cache_usage_percentage\": {\"mean\": 0.0, \"median\": 0.0, \"p90\": 0.0, \"p99\": 0.0}";
    let files: Vec<InputFile> = stages(true)
        .into_iter()
        .map(|mut f| {
            if f.name.ends_with("stage_3_prometheus_metrics.json") {
                assert!(f.text.contains(zero));
                f.text = f.text.replace(
                    zero,
                    "\"kv_cache_usage_percentage\": {\"mean\": 0.45, \"median\": 0.45, \"p90\": 0.6, \"p99\": 0.7}",
                );
            }
            f
        })
        .collect();
    let imported = import(&files).unwrap();
    let sweep = &imported.source.sweeps[0];
    let kv: Vec<Option<f64>> = (0..sweep.levels().len())
        .map(|li| sweep.level_signals(li).and_then(|s| s.kv_use_mean))
        .collect();
    // Stages 0 to 2 wait for nothing and run no gauge: their 0 stands; 4 to 6 wait: not reported.
    assert_eq!(
        kv,
        [
            Some(0.0),
            Some(0.0),
            Some(0.0),
            Some(0.45),
            None,
            None,
            None
        ]
    );
    let named: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::LeftOut && p.message().starts_with("KV"))
        .map(|p| p.message())
        .collect();
    assert_eq!(named.len(), 3, "{named:?}");
    assert!(
        named[2].contains("stage_6_prometheus_metrics.json"),
        "{named:?}"
    );
    assert!(named[2].contains("reads exactly 0 while requests run or wait"));
}
