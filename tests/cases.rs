//! The cases of `tests/fixtures/cases/` (copied from the shared collection of inputs the
//! planner once got wrong), each with the answer its README states, worked out by hand from the
//! file; then variations of each kind of fault on other formats and fields.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::path::PathBuf;

use llm_slo_planner::core::import::{import, Import, InputFile};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::{EnergyBasis, Figure, Statistic, Sweep};
use llm_slo_planner::core::plan::anomalies::{
    anomalies, import_flag_counts, load_flag_counts, speed_ratio, AnomalyKind,
};
use llm_slo_planner::core::plan::estimate::batching_effect;
use llm_slo_planner::core::plan::planner::{plan, Condition, Plan, Status};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::text::explain::{times, verdict_text};

fn case(rel: &str) -> InputFile {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/cases")
        .join(rel);
    InputFile {
        name: rel.rsplit('/').next().unwrap_or(rel).to_string(),
        text: std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())),
    }
}

fn imported(files: &[InputFile]) -> Import {
    import(files).unwrap_or_else(|p| panic!("{p:?}"))
}

/// The scenario of `query` on `source`, its sweep and its plan.
fn answer<'a>(source: &'a Source, query: &str) -> (Scenario, &'a Sweep, Plan) {
    let (scenario, errors) = Scenario::from_query(query, source);
    assert!(errors.is_empty(), "{errors:?}");
    let sweep = &source.sweeps[scenario.sweep_index(source).expect("a sweep")];
    let plan = plan(sweep, &scenario.slo);
    (scenario, sweep, plan)
}

fn recommended(sweep: &Sweep, plan: &Plan) -> f64 {
    sweep.levels()[plan.recommended.expect("a recommendation")].level
}

fn level(sweep: &Sweep, level: f64) -> &llm_slo_planner::core::model::sweep::Level {
    sweep.levels().iter().find(|l| l.level == level).unwrap()
}

#[test]
fn batching_sentence_reads_the_way_its_ratios_run() {
    let source = imported(&[
        case("batching-sentence/conc10.json"),
        case("batching-sentence/conc30.json"),
    ])
    .source;
    let (scenario, sweep, plan) = answer(&source, "tps=15&stat=p50");
    assert_eq!(plan.status, Status::AllMeet);
    assert_eq!(recommended(sweep, &plan), 30.0);
    let e = batching_effect(sweep, &scenario.slo, &plan, false).unwrap();
    // Each user 15.8 -> 22.4 tok/s at p50 ITL; aggregate 46.93 -> 7.27 tok/s.
    assert_eq!(
        times(1.0 / e.user_slowdown, "faster", "slower"),
        "1.4x faster"
    );
    assert_eq!(times(e.throughput_gain, "higher", "lower"), "6.5x lower");
    // Not an impossible number: 6 output tokens per request behind an 18.9 s TTFT.
    let (r, _) = speed_ratio(&sweep.rows[1], sweep.level_kind(), Statistic::TpotMean).unwrap();
    assert!(
        (r - 30.0 * 1000.0 / 875.24 / 7.27).abs() < 1e-12 && r < 4.8,
        "{r}"
    );
    assert!(import_flag_counts(sweep).is_empty());
}

#[test]
fn random_and_sharegpt_are_two_sweeps() {
    let source = imported(&[case("sweep-identity/random-vs-sharegpt.jsonl")]).source;
    assert_eq!(source.sweeps.len(), 2);
    let cfgs: Vec<Option<&str>> = (0..2).map(|i| source.sweep_cfg(i)).collect();
    assert_eq!(cfgs, vec![Some("random 1024/1024"), Some("sharegpt")]);
    let (_, sharegpt, plan) = answer(&source, "tpot=50&stat=p50&cfg=sharegpt");
    assert_eq!(plan.status, Status::AllMeet);
    assert_eq!(recommended(sharegpt, &plan), 4.0);
    assert_eq!(plan.verdicts[0].latency_ms, Some(42.32156742364168));
    assert_eq!(sharegpt.levels()[0].throughput_tok_s, 705.0134392448288);
    let (_, random, plan) = answer(&source, "tpot=50&stat=p50&cfg=random+1024%2F1024");
    assert_eq!(random.deployment.workload_label(), "random 1024/1024");
    assert_eq!(plan.status, Status::Unattainable);
    assert_eq!(plan.verdicts[0].latency_ms, Some(135.22850209847093));
}

#[test]
fn a_config_column_makes_sweeps() {
    let source = imported(&[case("sweep-identity/config-column.csv")]).source;
    assert_eq!(source.sweeps.len(), 2);
    let (_, ep8, plan) = answer(&source, "tpot=70&stat=tpot_mean&cfg=EP8");
    assert_eq!(plan.status, Status::Ok);
    assert_eq!(recommended(ep8, &plan), 10.0);
    assert_eq!(level(ep8, 10.0).throughput_tok_s, 259.5567);
    assert_eq!(level(ep8, 50.0).latency_ms(Statistic::TpotMean), Some(72.2));
    let (_, tp4pp2, plan) = answer(&source, "tpot=70&stat=tpot_mean&cfg=TP4PP2");
    assert_eq!(recommended(tp4pp2, &plan), 50.0);
    assert_eq!(level(tp4pp2, 50.0).throughput_tok_s, 747.1583);
    assert_eq!(
        level(tp4pp2, 100.0).latency_ms(Statistic::TpotMean),
        Some(99.0)
    );
    // The picker tells them apart.
    assert_eq!(
        source.sweep_label(0),
        "EP8 · 8 x A100-40GB, parallelism not stated, precision not stated"
    );
}

#[test]
fn isl_and_osl_columns_make_sweeps() {
    let source = imported(&[case("sweep-identity/isl-osl-columns.csv")]).source;
    assert_eq!(source.sweeps.len(), 3);
    let (_, sweep, plan) = answer(&source, "tps=29&stat=tpot_mean&cfg=128%2F1024");
    assert_eq!(sweep.deployment.workload_label(), "128/1024");
    assert_eq!(plan.status, Status::Ok);
    assert_eq!(recommended(sweep, &plan), 1.0);
    assert_eq!(plan.verdicts[0].latency_ms, Some(33.5));
    assert_eq!(plan.verdicts[1].latency_ms, Some(35.3));
    assert!(!plan.verdicts[1].meets);
}

#[test]
fn inferencex_campaign_dates_are_separate_sweeps_newest_first() {
    let source = imported(&[case("sweep-identity/inferencex-two-dates.json")]).source;
    assert_eq!(source.sweeps.len(), 2);
    let (scenario, sweep, plan) = answer(&source, "tpot=15&stat=tpot_p90");
    assert_eq!(sweep.deployment.date.as_deref(), Some("2026-03-25"));
    assert_eq!(scenario.deployment.cfg.as_deref(), Some("2026-03-25"));
    assert_eq!(plan.status, Status::AllMeet);
    assert_eq!(recommended(sweep, &plan), 4.0);
    assert!((plan.verdicts[0].latency_ms.unwrap() - 10.482343259871843).abs() < 1e-9);
    assert_eq!(sweep.levels()[0].throughput_tok_s, 45.93448227801786 * 8.0);
    assert_eq!(
        sweep.per_gpu(sweep.levels()[0].throughput_tok_s),
        Some(45.93448227801786)
    );
    // The older campaign reports no p90: the menu does not offer it there, and choosing that
    // deployment moves the statistic to one it reports.
    let old = source
        .sweeps
        .iter()
        .position(|s| s.deployment.date.as_deref() == Some("2025-12-13"))
        .unwrap();
    assert!(!source.sweeps[old]
        .statistics()
        .contains(&Statistic::TpotP90));
    let moved = scenario.with_sweep(&source, old);
    assert!(source.sweeps[old].statistics().contains(&moved.slo.stat));
    // It keeps the metric: p90 TPOT becomes the nearest TPOT that sweep reports, p99.
    assert_eq!(moved.slo.stat, Statistic::TpotP99);
    assert_eq!(moved.deployment.cfg.as_deref(), Some("2025-12-13"));
}

#[test]
fn a_figure_one_run_reports_is_kept_with_its_coverage() {
    let source = imported(&[case("partial-reports/one-run-reports-more.csv")]).source;
    let (_, sweep, plan) = answer(&source, "tpot=20&stat=p90");
    assert_eq!(plan.status, Status::Ok);
    assert_eq!(recommended(sweep, &plan), 16.0);
    let l16 = level(sweep, 16.0);
    assert_eq!(l16.latency_ms(Statistic::P90), Some(18.2));
    assert_eq!(level(sweep, 64.0).latency_ms(Statistic::P90), Some(36.0));
    assert_eq!(l16.throughput_tok_s, 795.8);
    assert_eq!(l16.power_w, Some(5756.0));
    assert_eq!(l16.energy_per_token_j, Some(5756.0 / 1012.9));
    assert_eq!(format!("{:.3}", 5756.0 / 1012.9), "5.683");
    assert_eq!(l16.energy_basis, Some(EnergyBasis::PowerOverThroughput));
    for figure in [
        Figure::Latency(Statistic::P90),
        Figure::Power,
        Figure::EnergyPerToken,
    ] {
        assert_eq!(
            (l16.runs_reporting(figure), l16.runs()),
            (1, 2),
            "{figure:?}"
        );
    }
}

#[test]
fn seconds_in_ms_columns_are_flagged_on_every_row() {
    let imported = imported(&[case("units/seconds-in-ms-columns.csv")]);
    let sweep = &imported.source.sweeps[0];
    let flags = anomalies(sweep, &imported.source.models[0], Statistic::TpotMean);
    let implausible: Vec<usize> = flags
        .iter()
        .filter(|a| a.kind == AnomalyKind::ImplausibleSpeed)
        .map(|a| a.row_index)
        .collect();
    assert_eq!(implausible, vec![0, 1, 2, 3]);
    // At 10: R = 10 x 1000 / 0.0374 / 259.5567, about 1,030.
    let (r, _) = speed_ratio(&sweep.rows[1], sweep.level_kind(), Statistic::TpotMean).unwrap();
    assert!((r - 10.0 * 1000.0 / 0.0374 / 259.5567).abs() < 1e-9 && (1000.0..1050.0).contains(&r));
    let detail = &flags
        .iter()
        .find(|a| a.row_index == 1 && a.kind == AnomalyKind::ImplausibleSpeed)
        .unwrap()
        .detail;
    assert!(detail.starts_with("1000 / 0.0374 ms (mean TPOT) = 26,738 tok/s per user at concurrency 10 cannot come from 259.6 tok/s in aggregate"), "{detail}");
    // The import warns; the answer carries the flag (the sweep's flag counts).
    assert_eq!(imported.warnings.len(), 1);
    assert_eq!(imported.warnings[0].kind, "implausible-speed");
    assert_eq!(imported.warnings[0].rows, 4);
    let counts = load_flag_counts(sweep, Statistic::TpotMean);
    assert_eq!(counts[0].kind, AnomalyKind::ImplausibleSpeed);
    assert_eq!(counts[0].rows, 4);
}

#[test]
fn a_request_rate_the_server_did_not_sustain_fails_as_saturated() {
    let imported = imported(&[case("saturation/request-rate-sweep.jsonl")]);
    let source = &imported.source;
    let (scenario, sweep, plan) = answer(source, "tpot=30&stat=tpot_mean");
    assert_eq!(plan.status, Status::Ok);
    assert_eq!(recommended(sweep, &plan), 4.0);
    let saturated: Vec<f64> = sweep
        .levels()
        .iter()
        .zip(&plan.verdicts)
        .filter(|(_, v)| {
            v.broken
                .iter()
                .any(|c| matches!(c, Condition::Saturated { .. }))
        })
        .map(|(l, _)| l.level)
        .collect();
    assert_eq!(saturated, vec![8.0, 16.0, 32.0, 64.0]);
    // Served = completed / (duration - mean end-to-end latency): 996 / (262.11 - 2.07512) s.
    let l8 = level(sweep, 8.0);
    assert_eq!(l8.served_req_s, Some(996.0 / (262.11 - 2.07512)));
    assert_eq!(
        verdict_text(&scenario.slo, &plan.verdicts[2]),
        "fails: saturated (served 3.8 of 8 req/s)"
    );
    // Rate 2 served 3.8 req/s: 1.9x the offered rate.
    let flags = anomalies(sweep, &source.models[0], Statistic::TpotMean);
    let above: Vec<&str> = flags
        .iter()
        .filter(|a| a.kind == AnomalyKind::RateAboveOffered)
        .map(|a| a.detail.as_str())
        .collect();
    assert_eq!(above, vec!["served 3.8 req/s, 1.9x the offered 2"]);
    assert_eq!(
        flags
            .iter()
            .filter(|a| a.kind == AnomalyKind::Saturated)
            .count(),
        4
    );
    // The median TPOT of -0.0 and the mean ITL of 0.0 are "not reported", and counted.
    assert_eq!(level(sweep, 2.0).latency_ms(Statistic::TpotP50), None);
    assert_eq!(level(sweep, 2.0).latency_ms(Statistic::ItlMean), None);
    assert!(imported.problems.iter().any(|p| p.message()
        == "24 latency values below 1e-6 ms (0 or less) or over 1e9 ms are shown as not reported"));
    let kinds: Vec<&str> = imported.warnings.iter().map(|w| w.kind.as_str()).collect();
    assert_eq!(kinds, vec!["saturated", "rate-above-offered"]);
}

fn vllm_run(extra: &str) -> String {
    format!(
        "{{\"backend\":\"vllm\",\"model_id\":\"org/m\",\"completed\":100,\"duration\":60,{extra}}}"
    )
}

#[test]
fn identity_holds_on_other_formats_and_fields() {
    // vLLM JSON lines: burstiness and a finite request rate on a concurrency sweep are identity;
    // the run's date is not.
    let lines = [
        vllm_run("\"date\":\"20260101-1\",\"burstiness\":1.0,\"request_rate\":\"inf\",\"max_concurrency\":4,\"output_throughput\":400,\"median_itl_ms\":10"),
        vllm_run("\"date\":\"20260101-2\",\"burstiness\":1.0,\"request_rate\":\"inf\",\"max_concurrency\":8,\"output_throughput\":700,\"median_itl_ms\":11"),
        vllm_run("\"date\":\"20260101-3\",\"burstiness\":0.5,\"request_rate\":\"inf\",\"max_concurrency\":4,\"output_throughput\":380,\"median_itl_ms\":12"),
        vllm_run("\"date\":\"20260101-4\",\"burstiness\":1.0,\"request_rate\":8,\"max_concurrency\":4,\"output_throughput\":390,\"median_itl_ms\":10"),
    ];
    let source = imported(&[InputFile {
        name: "results.jsonl".into(),
        text: lines.join("\n"),
    }])
    .source;
    assert_eq!(source.sweeps.len(), 3);
    assert_eq!(source.sweeps[0].levels().len(), 2);
    let cfgs: Vec<String> = (0..3)
        .filter_map(|i| source.sweep_cfg(i).map(str::to_string))
        .collect();
    assert_eq!(
        cfgs,
        vec![
            "burstiness 1, no finite request rate",
            "burstiness 0.5, no finite request rate",
            "burstiness 1, at 8 req/s"
        ]
    );
    // A field stated in one run and absent in another separates them too (CSV `date`,
    // `framework`), and equal fields keep repeats together.
    let csv = "model,concurrency,output_tok_s,p50_itl_ms,framework,date\n\
               m,8,800,10,vllm,2026-01-01\n\
               m,8,780,11,vllm,2026-01-01\n\
               m,8,700,12,vllm,\n\
               m,8,650,13,sglang,2026-01-01\n";
    let source = imported(&[InputFile {
        name: "runs.csv".into(),
        text: csv.into(),
    }])
    .source;
    assert_eq!(source.sweeps.len(), 3);
    assert!(source.sweeps[0].levels()[0].is_duplicate());
    // The newest date comes first in the picker; the undated sweep last.
    let order = source.sweeps_of(0);
    assert_eq!(source.sweeps[*order.last().unwrap()].deployment.date, None);
}

#[test]
fn partial_reports_hold_on_other_formats() {
    // Two vLLM runs at one level: only the second reports p99 ITL and TTFT.
    let a = vllm_run(
        "\"max_concurrency\":16,\"output_throughput\":900,\"median_itl_ms\":15,\"mean_tpot_ms\":16",
    );
    let b = vllm_run("\"max_concurrency\":16,\"output_throughput\":950,\"median_itl_ms\":14,\"mean_tpot_ms\":17,\"p99_itl_ms\":40,\"p99_ttft_ms\":300");
    let source = imported(&[
        InputFile {
            name: "a.json".into(),
            text: a,
        },
        InputFile {
            name: "b.json".into(),
            text: b,
        },
    ])
    .source;
    let l = &source.sweeps[0].levels()[0];
    assert_eq!(l.latency_ms(Statistic::P99), Some(40.0));
    assert_eq!(l.latency_ms(Statistic::P50), Some(15.0));
    assert_eq!(l.latency_ms(Statistic::TpotMean), Some(17.0));
    assert_eq!(l.runs_reporting(Figure::Latency(Statistic::TtftP99)), 1);
    assert_eq!(l.runs(), 2);
    let (_, _, plan) = answer(&source, "tpot=50&stat=p99");
    assert_eq!(plan.status, Status::AllMeet);
}

#[test]
fn implausible_speed_holds_on_other_formats() {
    // A vLLM result whose latencies were written in seconds: 0.02 "ms" at concurrency 32 and
    // 1,200 tok/s gives R = 32 x 1000 / 0.02 / 1200 = 1,333.
    let text = vllm_run("\"max_concurrency\":32,\"output_throughput\":1200,\"mean_tpot_ms\":0.02,\"median_itl_ms\":0.019");
    let imported = imported(&[InputFile {
        name: "s.json".into(),
        text,
    }]);
    assert_eq!(imported.warnings.len(), 1);
    assert_eq!(imported.warnings[0].kind, "implausible-speed");
    // The same run in ms is clear: R = 32 x 1000 / 20 / 1200 = 1.3.
    let text = vllm_run("\"max_concurrency\":32,\"output_throughput\":1200,\"mean_tpot_ms\":20,\"median_itl_ms\":19");
    assert!(import(&[InputFile {
        name: "ms.json".into(),
        text
    }])
    .unwrap()
    .warnings
    .is_empty());
    // An ML.ENERGY row uses avg_batch_size and p50 ITL (no TPOT there).
    let bundled = llm_slo_planner::core::import::bundled::lm_arena_chat();
    let worst = bundled
        .sweeps
        .iter()
        .flat_map(|s| {
            s.rows.iter().flat_map(move |r| {
                Statistic::ALL
                    .into_iter()
                    .filter_map(move |stat| speed_ratio(r, s.level_kind(), stat))
            })
        })
        .map(|(r, _)| r)
        .fold(0.0, f64::max);
    assert!(worst < 100.0, "{worst}");
}

#[test]
fn saturation_holds_on_other_formats() {
    // A vLLM request-rate sweep served at about 5 req/s whatever was offered.
    let lines: Vec<String> = [(2.0, 2.0), (4.0, 4.0), (8.0, 5.1), (16.0, 5.0)]
        .iter()
        .map(|(rate, served)| {
            format!(
                "{{\"backend\":\"vllm\",\"model_id\":\"org/m\",\"request_rate\":{rate},\"max_concurrency\":null,\"completed\":600,\"duration\":{},\"output_throughput\":900,\"mean_tpot_ms\":20}}",
                600.0 / served
            )
        })
        .collect();
    let source = imported(&[InputFile {
        name: "rates.jsonl".into(),
        text: lines.join("\n"),
    }])
    .source;
    let (_, sweep, plan) = answer(&source, "tpot=30&stat=tpot_mean");
    // Served = completed / duration here (no end-to-end latency): 5.1 of 8, 5 of 16.
    assert_eq!(recommended(sweep, &plan), 4.0);
    assert!(matches!(
        plan.verdicts[2].broken[..],
        [Condition::Saturated { .. }]
    ));
    // The CSV template's own served_req_s column.
    let csv =
        "model,request_rate,served_req_s,output_tok_s,mean_tpot_ms\nm,1,1,100,10\nm,2,1.5,150,11\n";
    let source = imported(&[InputFile {
        name: "r.csv".into(),
        text: csv.into(),
    }])
    .source;
    let (_, sweep, plan) = answer(&source, "tpot=30&stat=tpot_mean");
    assert_eq!(recommended(sweep, &plan), 1.0);
    assert_eq!(sweep.levels()[1].served_req_s, Some(1.5));
}
