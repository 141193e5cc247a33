//! Attainment (`attain=P`): each request judged on its own figures, on the per-request arrays
//! of real files. Every count below was made from the files' arrays with a few lines of Python
//! (`json.load`; TTFT = `ttfts[i]`, end-to-end = TTFT + sum(`itls[i]`), TPOT = (end-to-end −
//! TTFT) / (`output_lens[i]` − 1); a request with an error or no output token is a miss).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod common;
use common::realdata;

use llm_slo_planner::core::import::{import, InputFile};
use llm_slo_planner::core::model::sweep::{Statistic, Sweep};
use llm_slo_planner::core::plan::attain_plot::{
    attainment_plot, judged_requests, level_attainments, requests_plot,
};
use llm_slo_planner::core::plan::attainment::Attainment;
use llm_slo_planner::core::plan::estimate::batching_effect;
use llm_slo_planner::core::plan::planner::{plan, Condition, Limit, Slo, Status, Target};
use llm_slo_planner::core::text::attainment_text::level_dot_text;
use llm_slo_planner::core::text::explain::{status_text, verdict_text};

/// The Scicom vLLM 0.19 `--save-detailed` sweep: 50 requests at concurrency 1, 200 at 10.
fn scicom() -> Sweep {
    let files = [
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json"),
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json"),
    ];
    let imported = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    assert_eq!(imported.source.sweeps.len(), 1);
    imported.source.sweeps[0].clone()
}

fn slo(tpot_ms: f64, ttft_ms: Option<f64>, attain: f64) -> Slo {
    Slo::new(Target::MsPerToken(tpot_ms), Statistic::TpotP50)
        .with_limits(
            ttft_ms
                .map(|max_ms| Limit {
                    stat: Statistic::TtftP99,
                    max_ms,
                })
                .into_iter()
                .collect(),
        )
        .with_attain(Some(attain))
}

#[test]
fn vllm_detailed_arrays_are_each_requests_figures() {
    let sweep = scicom();
    let counts: Vec<(usize, u64)> = sweep
        .rows
        .iter()
        .map(|r| {
            let requests = r.requests.as_ref().expect("per-request records");
            (requests.completed.len(), requests.issued)
        })
        .collect();
    assert_eq!(counts, vec![(50, 50), (200, 200)]);
}

#[test]
fn a_level_meets_when_its_share_of_good_requests_reaches_p() {
    let sweep = scicom();
    // TPOT at most 145 ms: 50 of 50 good at 1 stream, 142 of 200 at 10.
    let p = plan(&sweep, &slo(145.0, None, 70.0));
    assert_eq!(p.status, Status::AllMeet);
    assert_eq!(p.recommended, Some(1));
    let at_10 = p.verdicts[1].attainment.unwrap();
    assert_eq!(
        at_10,
        Attainment {
            good: 142,
            issued: 200,
            completed: 200,
            tpot_misses: 58,
            ttft_misses: 0,
            e2e_misses: 0,
            good_output_tokens: 142 * 128,
            output_tokens: 200 * 128,
        }
    );
    assert_eq!(p.verdicts[0].attainment.unwrap().good, 50);
    // Goodput over the run's 422.0148220008705 s: 142 good requests, 18,176 good tokens
    // (the file's 60.661376485841046 output tok/s is 25,600 tokens over it).
    let level = &sweep.levels()[1];
    let good_req_s = at_10.goodput_req_s(level.throughput_tok_s).unwrap();
    assert!((good_req_s - 142.0 / 422.0148220008705).abs() < 1e-12);
    assert_eq!(
        at_10.goodput_tok_s(level.throughput_tok_s),
        Some(60.661376485841046 * 18176.0 / 25600.0)
    );

    // With a TTFT limit of 5 s on each request: 136 of 200 at 10, under 70%.
    let limited = slo(145.0, Some(5000.0), 70.0);
    let p = plan(&sweep, &limited);
    assert_eq!(p.status, Status::Ok);
    assert_eq!(p.recommended, Some(0));
    let [Condition::Attainment(a)] = p.verdicts[1].broken[..] else {
        panic!("{:?}", p.verdicts[1].broken);
    };
    assert_eq!((a.good, a.issued, a.completed), (136, 200, 200));
    assert_eq!((a.tpot_misses, a.ttft_misses), (58, 7));
    assert_eq!(
        verdict_text(&limited, &p.verdicts[1]),
        "fails: 136 of 200 requests good (68%; 70% asked; missed: 58 on TPOT, 7 on TTFT)"
    );
    // The TTFT limit is judged on each request, not on the level's p99 TTFT.
    assert!(!p.verdicts[0].unreported);

    // At 72.44 ms, 22 of 50 at 1 stream: even the smallest level fails.
    assert_eq!(
        plan(&sweep, &slo(72.44, None, 50.0)).status,
        Status::Unattainable
    );
}

#[test]
fn the_plots_show_each_levels_share_and_the_requests_of_one_level() {
    let sweep = scicom();
    let limited = slo(145.0, Some(5000.0), 70.0);
    let p = plan(&sweep, &limited);
    let levels = level_attainments(&sweep, &p);
    let counts: Vec<(usize, f64, u64)> = levels.iter().map(|(i, l, a)| (*i, *l, a.good)).collect();
    assert_eq!(counts, vec![(0, 1.0, 50), (1, 10.0, 136)]);
    let points: Vec<_> = levels.iter().map(|(_, l, a)| (*l, *a)).collect();
    let plot = attainment_plot(&points, 70.0);
    let meets: Vec<bool> = plot.dots.iter().map(|d| d.meets).collect();
    assert_eq!(meets, vec![true, false]);
    assert_eq!(
        level_dot_text(&plot.dots[1], 70.0, "concurrency"),
        "10 concurrency: 136 of 200 requests good (68%; 70% asked; missed: 58 on TPOT, 7 on TTFT)"
    );
    // The level of 10: 136 dots and 64 crosses (58 slow, 7 waited long; 1 both).
    let request_slo = limited.request_slo();
    let requests = judged_requests(&sweep, 1, &request_slo).expect("records");
    assert_eq!(requests.completed.len(), 200);
    let scatter = requests_plot(requests, &request_slo);
    assert_eq!(scatter.good_path.matches('M').count(), 136);
    assert_eq!(scatter.miss_path.matches('M').count(), 64);
    assert_eq!(
        scatter.caption,
        "136 of 200 requests good. Each completed request is a mark: its TPOT across, its TTFT \
         up; a dot is good, a cross missed; 58 over the target of 145 ms per token (slow \
         decodes); 7 over the TTFT limit of 5,000 ms (long waits)."
    );
}

#[test]
fn the_per_user_speed_under_attainment_is_the_tpot_p_percent_of_requests_reach() {
    let sweep = scicom();
    let p = plan(&sweep, &slo(150.0, None, 90.0));
    // 90% of 200: the 180th smallest TPOT, 146.6435269602963 ms by the Python count.
    let at_10 = p.verdicts[1].latency_ms.unwrap();
    assert!((at_10 - 146.6435269602963).abs() < 1e-9, "{at_10}");
    let at_1 = p.verdicts[0].latency_ms.unwrap();
    assert!((at_1 - 72.45666296111317).abs() < 1e-9, "{at_1}");
    let rec = p.recommendation(&sweep, &slo(150.0, None, 90.0)).unwrap();
    assert_eq!(rec.latency_ms, at_10);
    // What batching costs each user is read the same way: 146.64 ÷ 72.46 ms, not at the
    // statistic in the menu.
    let e = batching_effect(&sweep, &slo(150.0, None, 90.0), &p, false).unwrap();
    assert_eq!((e.base_level, e.attain), (1.0, Some(90.0)));
    assert!((e.user_slowdown - 146.6435269602963 / 72.45666296111317).abs() < 1e-12);
}

#[test]
fn a_sweep_without_per_request_records_is_not_judged_and_the_aggregate_statistic_is_offered() {
    let files = [realdata(
        "llm-d-llm-d-benchmark__tests_fixtures__guidellm_report_v2.json",
    )];
    let imported = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let sweep = &imported.source.sweeps[0];
    assert!(sweep.rows.iter().all(|r| r.requests.is_none()));
    let asked = slo(50.0, None, 95.0);
    let p = plan(sweep, &asked);
    assert!(matches!(
        p.status,
        Status::NoData {
            records_missing: true,
            ..
        }
    ));
    assert_eq!(p.recommended, None);
    let text = status_text(sweep, &p, &asked);
    assert!(
        text.starts_with(
            "No data: attain=95 counts each request, and this sweep has no per-request records (vLLM bench serve --save-detailed, SGLang bench_serving and LLMPerf's individual responses write them; a shared #sweep= link carries none)."
        ),
        "{text}"
    );
    assert!(text.ends_with("(stat=tpot_p95, without attain)."), "{text}");
}

#[test]
fn sglang_arrays_count_a_one_token_request_as_meeting_the_tpot_part() {
    let files = [realdata(
        "Scicom-llm-benchmaq__benchmarks_sglang_runpod_h100sxm_Qwen3-8B__tp8_dp1_Qwen3-8B_in1024_out128_p100_c100_38769a.jsonl",
    )];
    let imported = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let sweep = &imported.source.sweeps[0];
    // 100 requests at 100 streams, one of them with a single output token.
    for (tpot_ms, good) in [(12.0, 59), (11.0, 48)] {
        let p = plan(sweep, &slo(tpot_ms, None, 50.0));
        let a = p.verdicts[0].attainment.unwrap();
        assert_eq!((a.good, a.issued), (good, 100), "{tpot_ms} ms");
    }
    assert_eq!(plan(sweep, &slo(12.0, None, 59.0)).status, Status::AllMeet);
    assert_eq!(
        plan(sweep, &slo(12.0, None, 59.5)).status,
        Status::Unattainable
    );
}

#[test]
fn llmperf_individual_responses_are_the_runs_records() {
    // The leaderboard's together 13B summary (from the joined summaries) beside its 150
    // individual responses, one with an `error_code`.
    let summaries: serde_json::Value = serde_json::from_str(
        &realdata("llmperf-leaderboard__raw_data_summary__all_providers.json").text,
    )
    .unwrap();
    let summary = summaries["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source_path"] == "raw_data/summary/together_13b.json")
        .unwrap();
    let files = [
        InputFile {
            name: "run/together_13b_summary.json".into(),
            text: summary.to_string(),
        },
        InputFile {
            name: "run/together_13b_individual_responses.json".into(),
            text: realdata(
                "ray-project-llmperf-leaderboard__raw_data_individual__together_13b.json",
            )
            .text,
        },
    ];
    let imported = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let sweep = &imported.source.sweeps[0];
    let requests = sweep.rows[0].requests.as_ref().unwrap();
    assert_eq!((requests.completed.len(), requests.issued), (149, 150));
    for (tpot_ms, ttft_ms, good) in [
        (12.0, None, 149),
        (11.0, None, 148),
        (12.0, Some(500.0), 55),
    ] {
        let p = plan(sweep, &slo(tpot_ms, ttft_ms, 50.0));
        let a = p.verdicts[0].attainment.unwrap();
        assert_eq!((a.good, a.issued), (good, 150), "{tpot_ms} {ttft_ms:?}");
    }
}

#[test]
fn end_to_end_limits_are_judged_on_the_level_and_under_attainment_on_each_request() {
    let sweep = scicom();
    // vLLM's own end-to-end figures (`mean_e2el_ms`, `median_e2el_ms`, `p99_e2el_ms`).
    let at_10 = &sweep.rows[1];
    assert_eq!(
        [Statistic::E2eMean, Statistic::E2eP50, Statistic::E2eP99].map(|s| at_10.latency_ms(s)),
        [
            Some(21064.87122469931),
            Some(21051.361640915275),
            Some(27823.80368778248)
        ]
    );
    assert_eq!(at_10.latency_ms(Statistic::E2eP90), None);
    let e2e = |max_ms: f64| Limit {
        stat: Statistic::E2eP99,
        max_ms,
    };
    // On the level: p50 TPOT 142.83 ms meets 145 at 10 streams, its p99 end-to-end 27.8 s not.
    let on_level = slo(145.0, None, 50.0)
        .with_limits(vec![e2e(25000.0)])
        .with_attain(None);
    let p = plan(&sweep, &on_level);
    assert_eq!((p.status, p.recommended), (Status::Ok, Some(0)));
    assert_eq!(p.verdicts[1].broken, vec![Condition::Limit(0)]);
    // On each request (end-to-end = TTFT + the sum of its ITLs): at most 21 s, 9 of 200 good at
    // 10 streams (58 over the TPOT, 190 over 21 s); 50 of 50 at 1 (10.35 s each).
    let per_request = slo(145.0, None, 70.0).with_limits(vec![e2e(21000.0)]);
    let p = plan(&sweep, &per_request);
    assert_eq!((p.status, p.recommended), (Status::Ok, Some(0)));
    let [Condition::Attainment(a)] = p.verdicts[1].broken[..] else {
        panic!("{:?}", p.verdicts[1].broken);
    };
    assert_eq!((a.good, a.tpot_misses, a.e2e_misses), (9, 58, 190));
    assert_eq!(
        verdict_text(&per_request, &p.verdicts[1]),
        "fails: 9 of 200 requests good (4.5%; 70% asked; missed: 58 on TPOT, 190 on end-to-end latency)"
    );
    assert_eq!(p.verdicts[0].attainment.unwrap().good, 50);
    assert_eq!(
        llm_slo_planner::core::text::headline::slo_sentence(&per_request),
        "at most 145 ms per token (at least 6.897 tok/s per user) in each request's TPOT, for 70% of requests, and each request's end-to-end latency ≤ 21,000 ms"
    );
}

#[test]
fn a_request_with_a_nan_or_a_negative_time_counts_as_a_miss_and_is_counted() {
    use llm_slo_planner::core::import::RowErrorKind;
    // The Scicom file at concurrency 1 (50 requests, each of 128 tokens): request 4's TTFT is a
    // NaN, request 8 has a negative gap, request 12 a negative TTFT.
    let mut doc: serde_json::Value = serde_json::from_str(
        &realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json")
            .text,
    )
    .unwrap();
    doc["ttfts"][3] = "NAN_HERE".into();
    doc["itls"][7][5] = (-0.01).into();
    doc["ttfts"][11] = (-1.0).into();
    let text = doc.to_string().replace("\"NAN_HERE\"", "NaN");
    let imported = import(&[InputFile {
        name: "c1.json".into(),
        text,
    }])
    .unwrap_or_else(|p| panic!("{p:?}"));
    let sweep = &imported.source.sweeps[0];
    let requests = sweep.rows[0]
        .requests
        .as_ref()
        .expect("the level keeps its records");
    assert_eq!((requests.completed.len(), requests.issued), (47, 50));
    let notes: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::RequestsNotMeasured)
        .map(|p| p.located())
        .collect();
    assert_eq!(
        notes,
        ["c1.json, row 1: 3 of 50 requests hold a time that is not a latency (NaN, a negative TTFT or gap, or an end before the first token): counted as misses"]
    );
    assert_eq!(
        RowErrorKind::RequestsNotMeasured.warning_hook(),
        Some("requests-not-measured")
    );
    // Every other request meets a loose target: 47 of 50.
    let a = plan(sweep, &slo(10_000.0, None, 50.0)).verdicts[0]
        .attainment
        .unwrap();
    assert_eq!((a.good, a.issued), (47, 50));

    // LLMPerf's individual responses (150, one failed): one ends before its first token, one
    // has a NaN end-to-end latency.
    let mut responses: serde_json::Value = serde_json::from_str(
        &realdata("ray-project-llmperf-leaderboard__raw_data_individual__together_13b.json").text,
    )
    .unwrap();
    let ok: Vec<usize> = (0..150)
        .filter(|&i| responses[i]["error_code"].is_null())
        .take(2)
        .collect();
    responses[ok[0]]["end_to_end_latency_s"] = (-1.0).into();
    responses[ok[1]]["end_to_end_latency_s"] = "NAN_HERE".into();
    let summaries: serde_json::Value = serde_json::from_str(
        &realdata("llmperf-leaderboard__raw_data_summary__all_providers.json").text,
    )
    .unwrap();
    let summary = summaries["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["source_path"] == "raw_data/summary/together_13b.json")
        .unwrap();
    let files = [
        InputFile {
            name: "run/together_13b_summary.json".into(),
            text: summary.to_string(),
        },
        InputFile {
            name: "run/together_13b_individual_responses.json".into(),
            text: responses.to_string().replace("\"NAN_HERE\"", "NaN"),
        },
    ];
    let imported = import(&files).unwrap_or_else(|p| panic!("{p:?}"));
    let requests = imported.source.sweeps[0].rows[0].requests.as_ref().unwrap();
    assert_eq!((requests.completed.len(), requests.issued), (147, 150));
    let notes: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::RequestsNotMeasured)
        .map(|p| p.located())
        .collect();
    assert_eq!(
        notes,
        ["run/together_13b_individual_responses.json: 2 of 150 requests hold a time that is not a latency (NaN, a negative TTFT or gap, or an end before the first token): counted as misses"]
    );
}
