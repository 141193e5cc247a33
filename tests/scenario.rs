//! The URL scenario codec on the bundled data: defaults, round trips and named errors.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod common;
use common::realdata;

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::import::import;
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::planner::{Limit, Slo, Target};
use llm_slo_planner::core::scenario::{parse_positive, Fleet, Scenario, StatMoved};
use llm_slo_planner::core::text::scenario_text::{data_moved, no_next_limit_reason};

fn parse(query: &str) -> (Scenario, Vec<(String, String)>) {
    let (s, errors) = Scenario::from_query(query, lm_arena_chat());
    (
        s,
        errors
            .into_iter()
            .map(|e| (e.param.clone(), e.to_string()))
            .collect(),
    )
}

fn params(errors: &[(String, String)]) -> Vec<&str> {
    errors.iter().map(|(p, _)| p.as_str()).collect()
}

#[test]
fn empty_url_gives_the_documented_defaults() {
    let (s, errors) = parse("");
    assert!(errors.is_empty());
    assert_eq!(
        s.to_query(),
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50"
    );
    assert_eq!(parse("?").0, s);
}

#[test]
fn a_full_query_round_trips() {
    let q = "model=Qwen%2FQwen3-30B-A3B-Instruct-2507&gpu=H100&gpus=2&tpot=40&stat=p90";
    let (s, errors) = parse(q);
    assert!(errors.is_empty());
    assert_eq!(s.deployment.model_id, "Qwen/Qwen3-30B-A3B-Instruct-2507");
    assert_eq!(
        (s.deployment.gpu.as_str(), s.deployment.num_gpus),
        ("H100", Some(2))
    );
    assert_eq!(s.slo.target, Target::MsPerToken(40.0));
    assert_eq!(s.slo.stat, Statistic::P90);
    assert_eq!(s.to_query(), q);
    assert_eq!(parse(&format!("?{}", s.to_query())).0, s);
    let s2 = Scenario {
        slo: Slo {
            target: Target::TokensPerSecond(12.5),
            stat: Statistic::Rate,
            ..s.slo.clone()
        },
        ..s
    };
    assert_eq!(parse(&s2.to_query()).0, s2);
}

#[test]
fn absent_gpu_prefers_h100_then_the_other_gpu_and_fewest_gpus() {
    let (s, _) = parse("model=Qwen%2FQwen3-30B-A3B-Instruct-2507");
    assert_eq!(
        (s.deployment.gpu.as_str(), s.deployment.num_gpus),
        ("H100", Some(1))
    );
    // DeepSeek-V3.1 is measured only on 8 x B200.
    let (s, errors) = parse("model=deepseek-ai%2FDeepSeek-V3.1");
    assert!(errors.is_empty());
    assert_eq!(
        (s.deployment.gpu.as_str(), s.deployment.num_gpus),
        ("B200", Some(8))
    );
    let (s, _) = parse("model=meta-llama%2FLlama-3.1-70B-Instruct&gpu=B200");
    assert_eq!(s.deployment.num_gpus, Some(2));
}

#[test]
fn malformed_values_are_named_and_the_rest_applies() {
    let (s, errors) = parse("model=Qwen%2FQwen3-32B&gpu=H100&gpus=two&tps=abc&stat=p42&colour=red");
    assert_eq!(params(&errors), vec!["gpus", "tps", "stat", "colour"]);
    assert_eq!(s.deployment.model_id, "Qwen/Qwen3-32B");
    assert_eq!(
        (s.deployment.gpu.as_str(), s.deployment.num_gpus),
        ("H100", Some(1))
    );
    assert_eq!(s.slo.target, Target::TokensPerSecond(20.0));
    assert_eq!(s.slo.stat, Statistic::P50);
    assert!(errors[1].1.contains("\"abc\""));
}

#[test]
fn numbers_that_are_not_finite_positive_are_rejected() {
    for bad in ["0", "-5", "NaN", "inf", "1e999", "", " ", "1,5", "0x10"] {
        assert!(parse_positive(bad).is_err(), "{bad:?} accepted");
        let (s, errors) = parse(&format!("tpot={bad}"));
        assert_eq!(params(&errors), vec!["tpot"], "{bad:?}");
        assert_eq!(s.slo.target, Target::TokensPerSecond(20.0));
    }
    assert_eq!(parse_positive(" 12.5 "), Ok(12.5));
    assert_eq!(parse_positive("1e2"), Ok(100.0));
}

#[test]
fn unknown_model_gpu_and_count_fall_back_with_messages() {
    let (s, errors) = parse("model=nope%2Fmodel&gpu=H100&gpus=1");
    assert_eq!(params(&errors), vec!["model"]);
    assert_eq!(s.deployment.model_id, "meta-llama/Llama-3.1-8B-Instruct");
    let (s, errors) = parse("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=TPU&gpus=3");
    assert_eq!(params(&errors), vec!["gpu", "gpus"]);
    assert_eq!(
        (s.deployment.gpu.as_str(), s.deployment.num_gpus),
        ("H100", Some(1))
    );
}

#[test]
fn both_targets_or_repeats_keep_the_first() {
    let (s, errors) = parse("tps=30&tpot=10");
    assert_eq!(s.slo.target, Target::TokensPerSecond(30.0));
    assert_eq!(params(&errors), vec!["tpot"]);
    let (s, errors) = parse("stat=p99&stat=p90");
    assert_eq!(s.slo.stat, Statistic::P99);
    assert_eq!(params(&errors), vec!["stat"]);
}

#[test]
fn hostile_text_is_kept_as_text_and_shortened() {
    let long = "x".repeat(100_000);
    let (_, errors) = parse(&format!(
        "model=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&{long}=1"
    ));
    assert_eq!(errors.len(), 2);
    // Unknown parameters are reported while reading, the model once the deployment is resolved.
    assert!(errors[1].1.contains("<img src=x onerror=alert(1)>"));
    assert!(errors[0].0.chars().count() <= 41);
    assert!(errors[0].1.len() < 200);
    // Invalid UTF-8 percent-escapes decode lossily, never panic.
    let (_, errors) = parse("gpu=%FF%FE&%C3=1");
    assert_eq!(params(&errors).len(), 2);
}

#[test]
fn changing_model_keeps_the_gpu_when_the_model_has_it() {
    let source = lm_arena_chat();
    let (s, _) = parse("model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=B200&gpus=1");
    let next = s.with_model(source, "Qwen/Qwen3-8B");
    assert_eq!(
        (next.deployment.gpu.as_str(), next.deployment.num_gpus),
        ("B200", Some(1))
    );
    // Llama-3.1-70B has 2 x B200 only: the count follows.
    let next = s.with_model(source, "meta-llama/Llama-3.1-70B-Instruct");
    assert_eq!(
        (next.deployment.gpu.as_str(), next.deployment.num_gpus),
        ("B200", Some(2))
    );
    // Maverick is on H100 only.
    let next = s.with_model(source, "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8");
    assert_eq!(
        (next.deployment.gpu.as_str(), next.deployment.num_gpus),
        ("H100", Some(8))
    );
    assert_eq!(next.slo.target, s.slo.target);
}

#[test]
fn limits_are_repeatable_and_round_trip() {
    let (s, errors) = parse("tps=25&limit=p99%3A150&limit=p90:80.5&limit=ttft:3&limit=p99:-1");
    assert_eq!(params(&errors), vec!["limit", "limit"]);
    assert_eq!(
        s.slo.limits,
        vec![
            Limit {
                stat: Statistic::P99,
                max_ms: 150.0
            },
            Limit {
                stat: Statistic::P90,
                max_ms: 80.5
            },
        ]
    );
    assert!(s.to_query().ends_with("&limit=p99%3A150&limit=p90%3A80.5"));
    assert_eq!(parse(&s.to_query()).0, s);
}

#[test]
fn targets_outside_the_accepted_range_are_rejected() {
    for bad in ["1e308", "1e-300", "5e-324", "0.0009", "1000001"] {
        let (s, errors) = parse(&format!("tps={bad}"));
        assert_eq!(params(&errors), vec!["tps"], "{bad}");
        assert!(errors[0].1.contains("between 0.001 and 1,000,000"), "{bad}");
        assert_eq!(s.slo.target, Target::TokensPerSecond(20.0));
    }
    assert_eq!(parse_positive("0.001"), Ok(0.001));
    assert_eq!(parse_positive("1000000"), Ok(1_000_000.0));
    let (_, errors) = parse("limit=p99:1e308");
    assert_eq!(params(&errors), vec!["limit"]);
}

#[test]
fn names_match_without_regard_to_case_and_are_written_canonically() {
    let (s, errors) = parse("model=meta-llama%2Fllama-3.1-70b-instruct&gpu=b200");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.deployment.model_id, "meta-llama/Llama-3.1-70B-Instruct");
    assert_eq!(s.deployment.gpu, "B200");
}

#[test]
fn a_parameter_without_a_name_is_reported() {
    let (_, errors) = parse("=5&tps=25");
    assert_eq!(errors.len(), 1);
    assert!(errors[0].1.contains("without a name"));
    let (s, errors) = parse("tps=abc&tps=30");
    assert!(errors
        .iter()
        .any(|(_, m)| m.contains("only the first is read")));
    assert_eq!(s.slo.target, Target::TokensPerSecond(20.0));
}

#[test]
fn fleet_inputs_parse_round_trip_and_name_errors() {
    let (s, errors) = parse("tps=25&users=1000&price=2.5&kwh_price=0.12&co2=400&pue=1.2");
    assert!(errors.is_empty(), "{errors:?}");
    let c = s.fleet.capacity;
    assert_eq!(
        (
            c.users,
            c.price_per_gpu_hour,
            c.price_per_kwh,
            c.co2_g_per_kwh,
            c.pue
        ),
        (Some(1000.0), Some(2.5), Some(0.12), Some(400.0), Some(1.2))
    );
    assert!(s
        .to_query()
        .ends_with("&users=1000&price=2.5&kwh_price=0.12&co2=400&pue=1.2"));
    assert_eq!(parse(&s.to_query()).0, s);
    // Zero is a real price or carbon intensity; zero users or a PUE below 1 is not.
    let (s, errors) = parse("co2=0&price=0&users=0.5&pue=0.9&kwh_price=-1");
    assert_eq!(params(&errors), vec!["users", "pue", "kwh_price"]);
    assert_eq!(s.fleet.capacity.co2_g_per_kwh, Some(0.0));
    assert_eq!(s.fleet.capacity.price_per_gpu_hour, Some(0.0));
    assert_eq!(s.fleet.capacity.users, None);
    assert_eq!(s.fleet.capacity.pue, None);
    assert!(!parse("").0.to_query().contains("users"));
    // Users are streams: a fraction of one is named, like a fraction of a replica.
    let (s, errors) = parse("users=2.5");
    assert_eq!(params(&errors), vec!["users"]);
    assert!(
        errors[0].1.contains("a whole number of streams"),
        "{}",
        errors[0].1
    );
    assert_eq!(s.fleet.capacity.users, None);
    assert_eq!(parse("users=3").0.fleet.capacity.users, Some(3.0));
}

#[test]
fn ttft_is_a_limit_not_a_target_statistic() {
    let (s, errors) = parse("stat=ttft_p90&limit=ttft_p90:500&stat=tpot_p99");
    assert_eq!(params(&errors), vec!["stat", "stat"]);
    assert_eq!(s.slo.stat, Statistic::P50);
    assert_eq!(
        s.slo.limits,
        vec![Limit {
            stat: Statistic::TtftP90,
            max_ms: 500.0
        }]
    );
    let (s, errors) = parse("stat=tpot_p99");
    assert!(errors.is_empty());
    assert_eq!(s.slo.stat, Statistic::TpotP99);
}

#[test]
fn a_repeated_parameter_is_named_once_however_often_it_repeats() {
    let (s, errors) = parse("?tps=30&tps=40&tps=50&tps=60");
    assert_eq!(s.slo.target, Target::TokensPerSecond(30.0));
    assert_eq!(
        errors,
        vec![(
            "tps".to_string(),
            "`tps` is given more than once; only the first is read".to_string()
        )]
    );
}

#[test]
fn the_command_line_says_what_a_page_link_would_do_with_a_value_it_stops_on() {
    // `--tps 10 --tps 20` said "only the first is read" and then planned nothing.
    use llm_slo_planner::core::scenario::Front;
    let source = llm_slo_planner::core::import::bundled::lm_arena_chat();
    let said = |query: &str| -> Vec<String> {
        Scenario::from_query(query, source)
            .1
            .iter()
            .map(|e| e.message(Front::CommandLine))
            .collect()
    };
    assert_eq!(
        said("tps=10&tps=20"),
        ["`--tps` is given more than once (a page link would read only the first)"]
    );
    assert_eq!(
        said("tps=10&tpot=40"),
        ["give only one of `--tps` or `--tpot` (a page link would ignore `--tpot`)"]
    );
}

#[test]
fn an_unknown_cfg_on_a_single_configuration_names_no_empty_label() {
    let (_, errors) = parse("?model=Qwen%2FQwen3-30B-A3B-Instruct-2507&cfg=zzz");
    assert_eq!(
        errors,
        vec![(
            "cfg".to_string(),
            "`cfg` \"zzz\" is not a configuration of this deployment; showing its only configuration"
                .to_string()
        )]
    );
}

#[test]
fn repeated_limits_count_once_and_at_most_eight_are_read() {
    let (s, errors) = parse(&"&limit=p99:150".repeat(60));
    assert_eq!(
        s.slo.limits,
        vec![Limit {
            stat: Statistic::P99,
            max_ms: 150.0
        }]
    );
    assert_eq!(
        errors,
        vec![(
            "limit".to_string(),
            "`limit` \"p99:150\" is given more than once; it counts once".to_string()
        )]
    );
    let (_, errors) = parse(&"&limit=p99:0".repeat(60));
    assert_eq!(errors.len(), 1);
    // A link of more than 64 parameters is read up to the 64th, and says so.
    let (_, errors) = parse(&"&limit=p99:150".repeat(200));
    assert_eq!(errors.len(), 2);
    assert_eq!(
        errors[0].1,
        "the link has more than 64 parameters; only the first 64 are read"
    );
    let many: String = Statistic::ALL
        .iter()
        .zip(1..)
        .map(|(stat, ms)| format!("&limit={}:{ms}", stat.key()))
        .collect();
    let (s, errors) = parse(&many);
    assert_eq!(s.slo.limits.len(), 8);
    assert_eq!(s.slo.limits[7].max_ms, 8.0);
    assert_eq!(
        errors,
        vec![(
            "limit".to_string(),
            "`limit`: at most 8 limits are read; the rest are ignored".to_string()
        )]
    );
    // Bounds on one statistic: the tightest applies, said once however many there are.
    let (s, errors) = parse("limit=p99:300&limit=p99:100&limit=p95:90&limit=p99:200");
    assert_eq!(
        s.slo.limits,
        vec![
            Limit {
                stat: Statistic::P99,
                max_ms: 100.0
            },
            Limit {
                stat: Statistic::P95,
                max_ms: 90.0
            }
        ]
    );
    assert_eq!(
        errors,
        vec![(
            "limit".to_string(),
            "`limit` on p99 is given more than once; the tightest bound applies".to_string()
        )]
    );
}

#[test]
fn add_a_limit_proposes_a_statistic_without_one_so_the_link_round_trips() {
    // 25 tok/s = 40 ms per token: limits at 3 x 40 = 120 ms.
    let (mut s, _) = parse("tps=25");
    let sweep = &lm_arena_chat().sweeps[s.sweep_index(lm_arena_chat()).unwrap()];
    let available = sweep.statistics();
    let mut proposed = Vec::new();
    while let Some(limit) = s.next_limit(&available) {
        proposed.push(limit.stat);
        s.slo.limits.push(limit);
    }
    assert_eq!(
        s.slo.limits[0],
        Limit {
            stat: Statistic::P99,
            max_ms: 120.0
        }
    );
    // p99, p95, p90 first (p50 is the judged statistic), then the sweep's other statistics;
    // never one twice.
    assert_eq!(
        &proposed[..3],
        &[Statistic::P99, Statistic::P95, Statistic::P90]
    );
    assert!(!proposed.contains(&Statistic::P50));
    let mut unique = proposed.clone();
    unique.dedup();
    assert_eq!(unique.len(), proposed.len());
    assert!(proposed.iter().all(|p| available.contains(p)));
    assert_eq!(proposed.len(), (available.len() - 1).min(8));
    // The page's link reads back to the same limits, without a "given more than once" message.
    let (back, errors) = parse(&s.to_query());
    assert_eq!(back.slo.limits, s.slo.limits);
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn add_a_limit_stops_at_the_most_a_link_reads() {
    let (mut s, _) = parse("tps=25");
    let all = Statistic::ALL;
    for _ in 0..8 {
        let limit = s.next_limit(&all).unwrap();
        s.slo.limits.push(limit);
    }
    assert_eq!(s.next_limit(&all), None);
    assert_eq!(
        no_next_limit_reason(&s, &all).as_deref(),
        Some("A link holds at most 8 limits.")
    );
    // With no statistics named, p99 to p50 (p90 is judged here) are proposed, then nothing.
    let (mut s, _) = parse("tpot=10&stat=p90");
    let mut stats = Vec::new();
    while let Some(limit) = s.next_limit(&[]) {
        assert_eq!(limit.max_ms, 30.0);
        stats.push(limit.stat);
        s.slo.limits.push(limit);
    }
    assert_eq!(stats, [Statistic::P99, Statistic::P95, Statistic::P50]);
    assert_eq!(
        no_next_limit_reason(&s, &[]).as_deref(),
        Some("Each statistic reported together with p90 ITL has a limit.")
    );
    s.slo.limits.clear();
    assert_eq!(no_next_limit_reason(&s, &[]), None);
    // Only the judged statistic is reported with itself (MPT-7B on mean TPOT): nothing to propose.
    let (s, _) = parse("tpot=10&stat=tpot_mean");
    assert_eq!(s.next_limit(&[Statistic::TpotMean]), None);
    assert_eq!(
        no_next_limit_reason(&s, &[Statistic::TpotMean]).as_deref(),
        Some("No other statistic is reported at a level together with mean TPOT.")
    );
}

#[test]
fn switching_source_keeps_the_slo_and_a_statistic_the_new_deployment_reports() {
    use llm_slo_planner::core::import::reference::reference;
    let previous = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tpot=40&stat=p90\
                    &limit=p99:120&users=1000&pue=1.2";
    // Same source family: the deployment is the start's default, the whole SLO carries over.
    let (s, moved) = Scenario::with_slo_of("", previous, lm_arena_chat());
    assert_eq!(moved, None);
    assert_eq!(s.slo.target, Target::MsPerToken(40.0));
    assert_eq!(s.slo.stat, Statistic::P90);
    assert_eq!(
        s.slo.limits,
        vec![Limit {
            stat: Statistic::P99,
            max_ms: 120.0
        }]
    );
    assert_eq!(s.fleet.capacity.users, Some(1000.0));
    assert_eq!(s.fleet.capacity.pue, Some(1.2));
    assert_eq!(s.deployment.model_id, "meta-llama/Llama-3.1-8B-Instruct");
    // The reference systems: MPT-7B reports no p90 ITL, so its own default statistic is used;
    // the target, the limit and the fleet inputs stay, and the link names the source.
    let (s, moved) = Scenario::with_slo_of("src=reference", previous, reference());
    let default = Scenario::from_query("src=reference", reference()).0;
    // The change is said.
    assert_eq!(
        moved.map(data_moved).as_deref(),
        Some(format!(
            "The data now shown does not report p90 ITL: judged on {} instead.",
            default.slo.stat.short_label()
        ))
        .as_deref()
    );
    assert_eq!(s.deployment.model_id, default.deployment.model_id);
    assert_eq!(s.slo.stat, default.slo.stat);
    assert_ne!(s.slo.stat, Statistic::P90);
    assert_eq!(s.slo.target, Target::MsPerToken(40.0));
    assert_eq!(s.slo.limits.len(), 1);
    assert_eq!(s.fleet.capacity.users, Some(1000.0));
    assert!(s.to_query().starts_with("src=reference&"));
}

fn imported_source(name: &str, text: &str) -> llm_slo_planner::core::model::source::Source {
    llm_slo_planner::core::import::import(&[llm_slo_planner::core::import::InputFile {
        name: name.into(),
        text: text.into(),
    }])
    .unwrap()
    .source
}

#[test]
fn cfg_selects_one_sweep_and_links_made_before_still_open() {
    // Two campaigns of one InferenceX configuration: `cfg` is the date that tells them apart,
    // the newest is the default.
    let entry = |date: &str, conc: u32| {
        format!(
            "{{\"hardware\":\"h200\",\"framework\":\"sglang\",\"model\":\"dsr1\",\"precision\":\"fp8\",\"spec_method\":\"none\",\"disagg\":false,\"decode_tp\":8,\"decode_ep\":1,\"decode_dp_attention\":false,\"num_decode_gpu\":8,\"isl\":1024,\"osl\":1024,\"conc\":{conc},\"metrics\":{{\"output_tput_per_gpu\":40,\"median_tpot\":0.01}},\"date\":\"{date}\"}}"
        )
    };
    let text = format!(
        "[{},{},{}]",
        entry("2025-12-13", 4),
        entry("2026-03-25", 4),
        entry("2026-03-25", 8)
    );
    let source = imported_source("x.json", &text);
    let (s, errors) = Scenario::from_query("model=dsr1&tpot=20&stat=tpot_p50", &source);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.deployment.cfg.as_deref(), Some("2026-03-25"));
    assert!(s.to_query().contains("cfg=2026-03-25"));
    let (old, errors) = Scenario::from_query("model=dsr1&cfg=2025-12-13", &source);
    assert!(errors.is_empty());
    assert_eq!(
        source.sweeps[old.sweep_index(&source).unwrap()].rows.len(),
        1
    );
    // A link made before sweeps were told apart by date named "sglang, 1024/1024": both
    // campaigns hold those fields; the newest opens, and the message says so.
    let (legacy, errors) = Scenario::from_query("model=dsr1&cfg=sglang%2C+1024%2F1024", &source);
    assert_eq!(legacy.deployment.cfg.as_deref(), Some("2026-03-25"));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].param, "cfg");
    assert!(
        errors[0].to_string().contains("now matches 2 sweeps"),
        "{errors:?}"
    );
    // An unknown one is named, and the default shows.
    let (unknown, errors) = Scenario::from_query("model=dsr1&cfg=nope", &source);
    assert_eq!(unknown.deployment.cfg.as_deref(), Some("2026-03-25"));
    assert!(errors[0]
        .to_string()
        .contains("`cfg` \"nope\" is not a configuration"));
    // A V2 link's "PP2" still finds the sweep whose parallelism is TP8 PP2.
    let csv = "model,gpu,num_gpus,tp,pp,concurrency,output_tok_s,mean_tpot_ms\nm,A100,16,8,2,8,800,20\nm,A100,16,16,1,8,900,18\n";
    let source = imported_source("v.csv", csv);
    let (pp, errors) = Scenario::from_query("model=m&cfg=PP2", &source);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(pp.deployment.cfg.as_deref(), Some("TP8 PP2"));
}

#[test]
fn a_configuration_label_with_a_comma_opens_from_its_link() {
    let csv = "model,config,concurrency,output_tok_s,mean_tpot_ms\nm,\"TP4, PP2\",8,800,20\nm,EP8,8,900,18\n";
    let source = imported_source("c.csv", csv);
    let (s, errors) = Scenario::from_query("model=m&cfg=TP4%2C+PP2", &source);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.deployment.cfg.as_deref(), Some("TP4, PP2"));
    let again = Scenario::from_query(&s.to_query(), &source);
    assert_eq!(again.0, s);
    assert!(again.1.is_empty());
}

#[test]
fn y_cost_is_kept_in_the_link_with_a_gpu_price_and_named_without_one() {
    use llm_slo_planner::core::plan::chart::ChartY;
    let (s, errors) = parse("tps=20&y=cost&price=2.5");
    assert!(errors.is_empty());
    assert_eq!(
        (s.view.chart_y, s.drawn_chart_y()),
        (ChartY::Cost, ChartY::Cost)
    );
    assert!(
        s.to_query().ends_with("&y=cost&price=2.5"),
        "{}",
        s.to_query()
    );
    // Without a GPU price the cost chart cannot be drawn: the link's `y` is named and dropped.
    let (s, errors) = parse("tps=20&y=cost");
    assert_eq!(
        (s.view.chart_y, s.drawn_chart_y()),
        (ChartY::PerGpu, ChartY::PerGpu)
    );
    assert_eq!(errors[0].0, "y");
    assert!(!s.to_query().contains("y=cost"));
    let (s, errors) = parse("tps=20&y=money");
    assert_eq!(s.view.chart_y, ChartY::PerGpu);
    assert_eq!(errors[0].0, "y");
}

#[test]
fn the_side_by_side_tables_switch_and_order_round_trip_and_are_named_when_wrong() {
    use llm_slo_planner::core::plan::compare::Column;
    let (s, errors) = parse("tps=20&cmp=all&sort=energy_j_per_token:reversed");
    assert!(errors.is_empty(), "{errors:?}");
    assert!(s.view.compare_all);
    assert_eq!(s.view.compare_sort, Some((Column::Energy, true)));
    assert!(
        s.to_query()
            .ends_with("&cmp=all&sort=energy_j_per_token%3Areversed"),
        "{}",
        s.to_query()
    );
    assert_eq!(parse(&s.to_query()), (s, vec![]));
    // Best first is the default order of a column: written without `:reversed`.
    let (s, _) = parse("tps=20&sort=throughput_per_gpu_tok_s");
    assert_eq!(s.view.compare_sort, Some((Column::ThroughputPerGpu, false)));
    assert!(s.to_query().ends_with("&sort=throughput_per_gpu_tok_s"));
    // Spaces around the key are not part of it.
    let (s, _) = parse("tps=20&sort=%20level%20:reversed");
    assert_eq!(s.view.compare_sort, Some((Column::Concurrency, true)));
    // Neither written when not set.
    let (s, _) = parse("tps=20");
    assert!(!s.to_query().contains("cmp") && !s.to_query().contains("sort"));

    let (s, errors) = parse("tps=20&cmp=some&sort=speed");
    assert_eq!((s.view.compare_all, s.view.compare_sort), (false, None));
    assert_eq!(params(&errors), ["cmp", "sort"]);
    assert_eq!(
        errors[1].1,
        "`sort` must be a column of the side-by-side table (level, throughput_per_gpu_tok_s, throughput_tok_s, energy_j_per_token, per_user_tok_s, fleet_cost_usd_per_hour, total_cost_usd_per_mtok, vs_api), optionally followed by `:reversed`; got \"speed\""
    );
    // A cost column orders nothing without a price: named and dropped; kept with one.
    let (s, errors) = parse("tps=20&sort=total_cost_usd_per_mtok");
    assert_eq!(s.view.compare_sort, None);
    assert_eq!(
        errors,
        [(
            "sort".to_string(),
            "`sort=total_cost_usd_per_mtok` needs a GPU price (`price`): the side-by-side table keeps its own order".to_string()
        )]
    );
    let (s, errors) = parse("tps=20&sort=total_cost_usd_per_mtok&price=2");
    assert!(errors.is_empty());
    assert_eq!(s.view.compare_sort, Some((Column::TotalCostPerMtok, false)));
    // Fleet $ per hour needs a load too.
    let (s, errors) = parse("tps=20&sort=fleet_cost_usd_per_hour&price=2");
    assert_eq!(s.view.compare_sort, None);
    assert_eq!(
        errors[0].1,
        "`sort=fleet_cost_usd_per_hour` needs a load (`users` or `rps`): the side-by-side table keeps its own order"
    );
    let (s, errors) = parse("tps=20&sort=fleet_cost_usd_per_hour");
    assert_eq!(s.view.compare_sort, None);
    assert!(errors[0]
        .1
        .contains("needs a load (`users` or `rps`) and a GPU price (`price`)"));
    let (s, errors) = parse("tps=20&sort=fleet_cost_usd_per_hour&price=2&users=1000");
    assert!(errors.is_empty());
    assert_eq!(s.view.compare_sort, Some((Column::FleetCostPerHour, false)));
    // A price removed afterwards: the link no longer names the cost order.
    let unpriced = Scenario {
        fleet: Fleet {
            capacity: Default::default(),
            ..s.fleet
        },
        ..s
    };
    assert!(!unpriced.to_query().contains("sort"));
}

#[test]
fn the_parameter_list_is_every_key_a_link_reads() {
    use llm_slo_planner::core::scenario::param_keys;
    assert_eq!(
        param_keys(),
        [
            "src",
            "model",
            "gpu",
            "gpus",
            "cfg",
            "tps",
            "tpot",
            "stat",
            "limit",
            "attain",
            "y",
            "cmp",
            "sort",
            "requests_at",
            "users",
            "rps",
            "price",
            "kwh_price",
            "co2",
            "pue",
            "api",
            "cached",
            "power",
            "power_basis",
            "host_w",
            "load",
            "lag",
            "min_replicas",
            "vs",
            "tol"
        ]
    );
    // Each is read (never "unknown parameter") by the page's scenario reader.
    for key in param_keys() {
        let (_, errors) = Scenario::from_query(&format!("{key}=1"), lm_arena_chat());
        assert!(
            errors
                .iter()
                .all(|e| !e.to_string().contains("unknown parameter")),
            "{key}: {errors:?}"
        );
    }
}

#[test]
fn an_empty_price_is_named_and_a_tiny_one_is_written_back_short() {
    let (s, errors) = parse("tps=25&price=&kwh_price=");
    assert_eq!(params(&errors), vec!["price", "kwh_price"]);
    assert_eq!(errors[0].1, errors[1].1.replace("kwh_price", "price"));
    assert_eq!(
        errors[0].1,
        "`price` must be 0 or a number from 0.0001 to 1,000,000, got \"\""
    );
    assert_eq!(s.fleet.capacity.price_per_gpu_hour, None);
    let (s, errors) = parse("tps=25&price=0.0001&co2=0.0001");
    assert!(errors.is_empty(), "{errors:?}");
    let query = s.to_query();
    assert!(query.ends_with("&price=0.0001&co2=0.0001"), "{query}");
    assert_eq!(parse(&query).0, s);
    // `-0` is 0.
    assert!(parse("tps=25&price=-0").0.to_query().ends_with("&price=0"));
}

#[test]
fn errors_are_kinds_with_their_values_worded_for_each_front() {
    use llm_slo_planner::core::scenario::{Accepts, Front, Needs, ParamErrorKind, ValueError};
    let (_, errors) = Scenario::from_query(
        "gpus=x&model=nope&users=1&rps=2&sort=total_cost_usd_per_mtok",
        lm_arena_chat(),
    );
    let kinds: Vec<(&str, &ParamErrorKind)> =
        errors.iter().map(|e| (e.param.as_str(), &e.kind)).collect();
    assert_eq!(
        kinds,
        [
            (
                "gpus",
                &ParamErrorKind::Invalid(ValueError::Not {
                    accepts: Accepts::WholeGpus,
                    got: "x".into()
                })
            ),
            ("rps", &ParamErrorKind::UsersAndRps),
            (
                "sort",
                &ParamErrorKind::SortNeeds {
                    column: llm_slo_planner::core::plan::compare::Column::TotalCostPerMtok,
                    needs: Needs::Price
                }
            ),
            (
                "model",
                &ParamErrorKind::ModelNotInData {
                    value: "nope".into(),
                    shown: "meta-llama/Llama-3.1-8B-Instruct".into()
                }
            ),
        ]
    );
    // The page names parameters as a link does; the command line as its options, after its
    // own `--KEY:`, and says what a page link would show instead of showing it.
    assert_eq!(
        errors[0].to_string(),
        "`gpus` must be a whole number of GPUs, got \"x\""
    );
    assert_eq!(
        errors[0].detail(Front::CommandLine),
        "must be a whole number of GPUs, got \"x\""
    );
    assert_eq!(
        errors[2].message(Front::CommandLine),
        "`--sort=total_cost_usd_per_mtok` needs a GPU price (`--price`): the side-by-side table keeps its own order"
    );
    assert_eq!(
        errors[3].detail(Front::CommandLine),
        "\"nope\" is not in the data; a page link would show meta-llama/Llama-3.1-8B-Instruct"
    );
    let (_, errors) = Scenario::from_query("kwh_price=-1", lm_arena_chat());
    assert_eq!(
        errors[0].message(Front::CommandLine),
        "`--kwh-price` must be 0 or a number from 0.0001 to 1,000,000, got \"-1\""
    );
}

#[test]
fn a_load_over_time_round_trips_and_bad_values_are_named() {
    use llm_slo_planner::core::plan::period::{LoadKind, LoadProfile, Scaling};
    let q = "load=rps:60:3,2,2.5,0&lag=30&min_replicas=2";
    let (s, errors) = parse(q);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        s.fleet.load,
        Some(LoadProfile {
            kind: LoadKind::Rps,
            step_min: 60.0,
            values: vec![3.0, 2.0, 2.5, 0.0],
        })
    );
    assert_eq!(
        s.fleet.scaling,
        Scaling {
            lag_min: 30.0,
            min_replicas: 2
        }
    );
    assert!(s
        .to_query()
        .ends_with("&load=rps%3A60%3A3%2C2%2C2.5%2C0&lag=30&min_replicas=2"));
    assert_eq!(parse(&s.to_query()).0, s);

    // Each bad part is named; the rest of the scenario stands.
    let cases = [
        ("load=rps:60:3,x,2", "`load` value 2 must be a number from 0 to 1,000,000,000, got \"x\""),
        ("load=rps:60:3,-1", "`load` value 2 must be a number from 0 to 1,000,000,000, got \"-1\""),
        ("load=rps:0:3", "`load` must be the minutes each value covers, above 0 and at most 10,080 (a week), got \"0\""),
        ("load=cars:60:3", "`load` must start with rps or users, got \"cars\""),
        ("load=3,2,1", "`load` must look like rps:60:3,2,5 (rps or users, the minutes each value covers, the values), got \"3,2,1\""),
    ];
    for (query, message) in cases {
        let (s, errors) = parse(&format!("tps=25&{query}"));
        assert_eq!(errors.len(), 1, "{query}: {errors:?}");
        assert_eq!(errors[0].1, message, "{query}");
        assert_eq!(s.slo.target, Target::TokensPerSecond(25.0));
        assert_eq!(s.fleet.load, None);
        assert_eq!(s.fleet.scaling, Scaling::default());
    }
    // A lag and a floor are read beside the load they qualify.
    for (query, message) in [
        (
            "lag=-5",
            "`lag` must be minutes from 0 to 10,080 (a week), got \"-5\"",
        ),
        (
            "min_replicas=1.5",
            "`min_replicas` must be a whole number of replicas from 0 to 1,000,000, got \"1.5\"",
        ),
    ] {
        let (s, errors) = parse(&format!("tps=25&load=rps:60:3&{query}"));
        assert_eq!(errors.len(), 1, "{query}: {errors:?}");
        assert_eq!(errors[0].1, message, "{query}");
        assert_eq!(s.fleet.scaling, Scaling::default());
    }
    let many = vec!["1"; 10_081].join(",");
    let (_, errors) = parse(&format!("load=users:1:{many}"));
    assert_eq!(
        errors[0].1,
        "`load` holds 10,081 values, more than the 10,080 read (a week by the minute)"
    );
    let (s, errors) = parse(&format!("load=users:1:{}", vec!["1"; 10_080].join(",")));
    assert!(errors.is_empty());
    assert_eq!(s.fleet.load.map(|l| l.values.len()), Some(10_080));
}

#[test]
fn a_candidate_and_a_tolerance_are_read_and_written_back() {
    use llm_slo_planner::core::scenario::Vs;
    let q = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=40&stat=p50&vs=gpu%3DB200%26gpus%3D1&tol=5";
    let (s, errors) = parse(q);
    assert!(errors.is_empty(), "{errors:?}");
    let vs = s.versus.vs.clone().expect("vs is read");
    assert_eq!(vs.write(), "gpu=B200&gpus=1");
    assert_eq!(s.versus.tol_pct, 5.0);
    assert_eq!(s.to_query(), q);
    // B resolves to the B200 sweep of A's model; A itself is its own sweep.
    let source = lm_arena_chat();
    let b = vs
        .resolve(source, &s.deployment.model_id)
        .expect("B names a sweep");
    assert_eq!(source.sweeps[b].deployment.gpu, "B200");
    assert_ne!(Some(b), s.sweep_index(source));
    assert_eq!(
        Vs::of_sweep(source, b, None)
            .unwrap()
            .resolve(source, &s.deployment.model_id),
        Some(b)
    );
    // Nothing measured under these selectors: no sweep, no fallback.
    let none = Vs::parse("gpu=Z999").unwrap();
    assert_eq!(none.resolve(source, &s.deployment.model_id), None);
}

#[test]
fn a_bad_tolerance_or_candidate_is_named_and_the_rest_stands() {
    // `tol` is read beside the `vs` it qualifies, given here though not readable.
    let (s, errors) = parse("tps=33&tol=80&vs=colour%3Dred");
    assert_eq!(params(&errors), ["tol", "vs"]);
    assert_eq!(
        errors[0].1,
        "`tol` must be a percentage from 0 to 50 (the comparison's tolerance), got \"80\""
    );
    assert!(errors[1]
        .1
        .starts_with("`vs` must name the deployment to compare with"));
    assert_eq!(s.slo.target, Target::TokensPerSecond(33.0));
    assert_eq!(s.versus.tol_pct, 2.0);
    assert_eq!(s.versus.vs, None);
    // The default tolerance is not written.
    assert!(!s.to_query().contains("tol"));
}

#[test]
fn a_power_budget_is_read_and_written_back_and_a_bad_one_named() {
    let source = llm_slo_planner::core::import::bundled::lm_arena_chat();
    let q = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&pue=1.2&power=1MW&power_basis=tdp&host_w=150";
    let (s, errors) = Scenario::from_query(q, source);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.fleet.power.budget_w, Some(1e6));
    assert_eq!(s.fleet.power.host_w, Some(150.0));
    let written = s.to_query();
    assert!(
        written.contains("power=1MW&power_basis=tdp&host_w=150"),
        "{written}"
    );
    let (bad, errors) = Scenario::from_query(
        "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=25&power=20GW&power_basis=peak",
        source,
    );
    let said: Vec<&str> = errors.iter().map(|e| e.param.as_str()).collect();
    assert_eq!(said, ["power", "power_basis"]);
    assert_eq!(bad.fleet.power.budget_w, None);
    // A budget in GW, as the message's "to 10 GW" invites (it was refused before).
    let (giga, errors) = Scenario::from_query("tps=25&power=1.5GW", source);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(giga.fleet.power.budget_w, Some(1.5e9));
    assert!(
        giga.to_query().ends_with("&power=1.5GW"),
        "{}",
        giga.to_query()
    );
}

#[test]
fn every_single_valued_parameter_given_twice_is_named_as_given_twice_never_as_unknown() {
    use llm_slo_planner::core::scenario::params::PARAMS;
    use llm_slo_planner::core::scenario::{Front, ParamErrorKind};
    let keys: Vec<&str> = PARAMS
        .iter()
        .flat_map(|p| p.keys.iter().copied())
        .filter(|k| *k != "limit")
        .collect();
    assert!(keys.len() >= 20, "{keys:?}");
    for key in keys {
        // The first value may be wrong for this parameter: the second is named all the same.
        for first in ["1", "x"] {
            let (_, errors) =
                Scenario::from_query(&format!("{key}={first}&{key}=2"), lm_arena_chat());
            assert!(
                errors.iter().all(|e| e.kind != ParamErrorKind::Unknown),
                "{key}: {errors:?}"
            );
            let twice: Vec<_> = errors
                .iter()
                .filter(|e| e.kind == ParamErrorKind::Repeated)
                .collect();
            assert_eq!(twice.len(), 1, "{key}={first}: {errors:?}");
            assert_eq!(twice[0].param, key);
            assert_eq!(
                twice[0].message(Front::Page),
                format!("`{key}` is given more than once; only the first is read")
            );
            assert_eq!(
                twice[0].message(Front::CommandLine),
                format!(
                    "`--{}` is given more than once (a page link would read only the first)",
                    key.replace('_', "-")
                )
            );
        }
    }
}

#[test]
fn the_statistic_asked_for_comes_back_with_data_that_has_it() {
    use llm_slo_planner::core::import::reference::reference;
    let asked = "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tpot=40&stat=p90";
    // To the reference systems, which report no p90 ITL: moved to their default.
    let (on_reference, moved) = Scenario::with_slo_asked("src=reference", asked, reference(), None);
    let default = Scenario::from_query("src=reference", reference())
        .0
        .slo
        .stat;
    assert_eq!(
        moved,
        Some(StatMoved {
            before: Statistic::P90,
            after: default
        })
    );
    // Back to data that reports p90 ITL: p90 comes back, and nothing is said moved.
    let (back, again) =
        Scenario::with_slo_asked("", &on_reference.to_query(), lm_arena_chat(), moved);
    assert_eq!(back.slo.stat, Statistic::P90);
    assert_eq!(again, None);
    // A statistic chosen on the reference systems meanwhile is kept, not replaced.
    let mut chosen = on_reference.clone();
    chosen.slo.stat = Statistic::P99;
    let (kept, _) = Scenario::with_slo_asked("", &chosen.to_query(), lm_arena_chat(), moved);
    assert_eq!(kept.slo.stat, Statistic::P99);
}

#[test]
fn a_linked_statistic_the_deployment_does_not_report_is_named() {
    use llm_slo_planner::core::import::reference::reference;
    let (s, errors) = Scenario::from_query("src=reference&stat=p90", reference());
    assert!(errors.is_empty(), "{errors:?}");
    let error = s.unreported_stat(reference()).unwrap();
    assert_eq!(error.param, "stat");
    assert_eq!(
        error.to_string(),
        "`stat` \"p90\": the data shown does not report p90 ITL for this deployment, so its levels are not judged; pick a statistic it reports under “Judged on”"
    );
    let (reported, _) = Scenario::from_query("stat=p90", lm_arena_chat());
    assert_eq!(reported.unreported_stat(lm_arena_chat()), None);
}

#[test]
fn the_requests_panels_level_is_kept_in_the_link_and_one_not_measured_is_named() {
    // The Scicom sweep: per-request records at concurrency 1 and 10.
    let files = [
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p50_c1_d48e1d.json"),
        realdata("scicom-vllm-detailed/tm-l40sx2_qwen27b_PP2_in4096_out128_p200_c10_5bfafa.json"),
    ];
    let scicom = import(&files).unwrap_or_else(|p| panic!("{p:?}")).source;
    let (s, errors) = Scenario::from_query("tpot=145&attain=70&requests_at=10", &scicom);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.view.requests_at, Some(10.0));
    assert!(
        s.to_query().ends_with("&requests_at=10"),
        "{}",
        s.to_query()
    );
    // Another deployment has levels of its own: the panel's level is not carried to it.
    assert_eq!(s.with_sweep(&scicom, 0).view.requests_at, None);
    // Level 3 is not measured, and the bundled data have no per-request records: each named,
    // the panel left to show its own level, the link without it.
    for (query, source, level) in [
        ("tpot=145&attain=70&requests_at=3", &scicom, "3"),
        ("tpot=40&attain=90&requests_at=16", lm_arena_chat(), "16"),
    ] {
        let (s, errors) = Scenario::from_query(query, source);
        let said: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(
            said,
            [format!("`requests_at` names {level}, not a level of this deployment with per-request records; showing the recommended level, else the first that fails")]
        );
        assert_eq!(s.view.requests_at, None);
        assert!(!s.to_query().contains("requests_at"), "{}", s.to_query());
    }
    let (none, _) = Scenario::from_query("tpot=40", lm_arena_chat());
    assert_eq!(none.view.requests_at, None);
    assert!(!none.to_query().contains("requests_at"));
    let (_, bad) = Scenario::from_query("requests_at=-3", lm_arena_chat());
    assert_eq!(bad.len(), 1);
    assert_eq!(bad[0].param, "requests_at");
}

#[test]
fn an_api_price_and_a_cached_share_round_trip_and_bad_ones_are_named() {
    use llm_slo_planner::core::plan::compare::Column;
    use llm_slo_planner::core::plan::cost::ApiPrice;
    let (s, errors) = parse("tps=20&price=2&api=1.25:10:0.125&cached=0.5");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        s.fleet.capacity.api,
        Some(ApiPrice {
            input: 1.25,
            output: 10.0,
            cached_input: Some(0.125)
        })
    );
    assert_eq!(s.fleet.capacity.cached, Some(0.5));
    assert!(s
        .to_query()
        .ends_with("price=2&api=1.25%3A10%3A0.125&cached=0.5"));
    let (s, _) = parse("price=2&api=1.25:10");
    assert_eq!(s.fleet.capacity.api.unwrap().cached_input, None);
    assert!(s.to_query().ends_with("api=1.25%3A10"));
    for (query, message) in [
        (
            "api=1.25",
            "`api` must be two or three prices, $ per million input, output and cached input tokens, each 0 or from 0.0001 to 1,000,000 (e.g. 1.25:10 or 1.25:10:0.125), got \"1.25\"",
        ),
        (
            "api=1:2:3:4",
            "`api` must be two or three prices, $ per million input, output and cached input tokens, each 0 or from 0.0001 to 1,000,000 (e.g. 1.25:10 or 1.25:10:0.125), got \"1:2:3:4\"",
        ),
        (
            "api=-1:10",
            "`api` must be two or three prices, $ per million input, output and cached input tokens, each 0 or from 0.0001 to 1,000,000 (e.g. 1.25:10 or 1.25:10:0.125), got \"-1:10\"",
        ),
        (
            "api=0:0&cached=1.5",
            "`cached` must be a share from 0 to 1 (of the input tokens the API serves from its cache), got \"1.5\"",
        ),
    ] {
        let (s, errors) = parse(&format!("tps=20&{query}&price=3"));
        assert_eq!(errors.len(), 1, "{query}: {errors:?}");
        assert_eq!(errors[0].1, message);
        // The rest stands.
        assert_eq!(s.fleet.capacity.price_per_gpu_hour, Some(3.0));
        assert_eq!(s.fleet.capacity.cached, None);
        assert_eq!(s.fleet.capacity.api.is_some(), query.starts_with("api=0:0"));
    }
    // Sorting by vs API needs an API's price and a GPU price.
    let (s, errors) = parse("tps=20&price=2&sort=vs_api");
    assert_eq!(s.view.compare_sort, None);
    assert!(
        errors[0].1.contains("needs an API's price (`api`)"),
        "{errors:?}"
    );
    let (s, errors) = parse("tps=20&price=2&api=1:2&sort=vs_api");
    assert!(errors.is_empty());
    assert_eq!(s.view.compare_sort, Some((Column::VsApi, false)));
}

#[test]
fn a_qualifier_without_what_it_qualifies_is_named_and_neither_read_nor_written() {
    let alone = |key: &str, needs: &str| {
        (
            key.to_string(),
            format!("`{key}` qualifies `{needs}`, which is not given: it is read only with it"),
        )
    };
    let (s, errors) =
        parse("tps=25&tol=5&power_basis=tdp&host_w=150&lag=60&min_replicas=3&requests_at=16");
    assert_eq!(
        errors,
        [
            alone("tol", "vs"),
            alone("power_basis", "power"),
            alone("host_w", "power"),
            alone("lag", "load"),
            alone("min_replicas", "load"),
            alone("requests_at", "attain"),
        ]
    );
    assert_eq!(s, parse("tps=25").0);
    assert_eq!(s.to_query(), parse("tps=25").0.to_query());
    // An API's price qualifies a GPU price, a cached share the API's price.
    let unread = |key: &str, needs: &str| {
        (
            key.to_string(),
            format!("`{key}` qualifies `{needs}`, whose value cannot be used (said above): it is left out of the link with `{needs}`"),
        )
    };
    let (s, errors) = parse("tps=25&api=1.25%3A10&cached=0.5");
    assert_eq!(errors, [alone("api", "price"), unread("cached", "api")]);
    assert_eq!(s.to_query(), parse("tps=25").0.to_query());
    let (s, errors) = parse("tps=25&price=2&cached=0.5");
    assert_eq!(errors, [alone("cached", "api")]);
    assert_eq!(s.to_query(), parse("tps=25&price=2").0.to_query());
    // Beside what it qualifies, given with a value that cannot be used: named too.
    let (s, errors) = parse("tps=25&api=1:10:0.1:5&price=2&cached=0.5");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(
        (errors[0].0.as_str(), &errors[1]),
        ("api", &unread("cached", "api"))
    );
    assert_eq!(s.to_query(), parse("tps=25&price=2").0.to_query());
    let (_, errors) = parse("tps=25&vs=&tol=5");
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert_eq!(errors[1], unread("tol", "vs"));
    // With what each qualifies, each is read and written back, -0 as 0.
    let q = "tps=25&attain=90&power=1MW&power_basis=tdp&host_w=0&load=rps%3A60%3A1%2C2&lag=60&min_replicas=3&vs=gpu%3DB200&tol=-0";
    let (s, errors) = Scenario::from_query(q, lm_arena_chat());
    assert_eq!(
        params(
            &errors
                .iter()
                .map(|e| (e.param.clone(), e.to_string()))
                .collect::<Vec<_>>()
        ),
        Vec::<&str>::new()
    );
    assert_eq!(
        (
            s.fleet.power.host_w,
            s.fleet.scaling.min_replicas,
            s.versus.tol_pct
        ),
        (Some(0.0), 3, 0.0)
    );
    let written = s.to_query();
    for part in [
        "power_basis=tdp&host_w=0",
        "lag=60&min_replicas=3",
        "&tol=0",
    ] {
        assert!(written.contains(part), "{part} in {written}");
    }
    assert!(!written.contains("-0"), "{written}");
    // Before what it qualifies in the link, a qualifier is read all the same.
    let (s, errors) = parse("tps=25&tol=5&vs=gpu%3DB200");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.versus.tol_pct, 5.0);
    // Beside a budget the link gives but cannot be read, host_w is read (the budget fixed in the
    // page takes it), and left out of the link while there is no budget, which is said.
    let (s, errors) = parse("tps=25&power=1XW&host_w=150");
    assert_eq!(params(&errors), ["power", "host_w"]);
    assert_eq!(s.fleet.power.host_w, Some(150.0));
    assert!(!s.to_query().contains("host_w"), "{}", s.to_query());
    // A qualifier whose parameter the page leaves (the candidate unset) is not written either.
    let mut unset = s.clone();
    unset.versus.vs = None;
    unset.fleet.power.budget_w = None;
    let written = unset.to_query();
    for key in ["tol", "power_basis", "host_w", "vs=", "power="] {
        assert!(!written.contains(key), "{key} in {written}");
    }
}
