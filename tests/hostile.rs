//! Hostile input: property tests over the scenario parser, every importer and the link decoder
//! (bounded case counts, so CI time stays bounded), and a corpus of nasty cases kept as
//! regression tests. Nothing may panic; every bad value must come back as a message.

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::import::share;
use llm_slo_planner::core::import::{detect, import, InputFile};
use llm_slo_planner::core::scenario::{number, Scenario};
use proptest::prelude::*;

const CASES: u32 = 256;

fn file(name: &str, text: &str) -> InputFile {
    InputFile {
        name: name.into(),
        text: text.into(),
    }
}

/// Prefixes that steer the detector into each format, so random tails reach every parser.
const PREFIXES: [&str; 15] = [
    "{\"configurations\":[{\"model_id\":",
    "{\"records\":[{\"Max BS (reqs)\":",
    "{\"backend\":\"vllm\",\"max_concurrency\":",
    "{\"backend\": \"sglang\", \"request_rate\": Infinity, \"x\":",
    "{\"input_config\":{\"loadgen\":{\"concurrency\":",
    "[{\"conc\":4,\"metrics\":",
    "[{\"conc\":4,\"output_tput_per_gpu\":",
    "source_path,Model,GPU,TP,PP,Max BS (reqs)\n",
    "model,concurrency,output_tok_s\n",
    "model,config,dataset,isl,osl,date,request_rate,served_req_s,output_tok_s,mean_e2e_ms\n",
    "{\"Number of concurrency\":4,\"Output token throughput (tok/s)\":",
    "[{\"Percentiles\":\"50%\",\"TPOT (s)\":",
    "{\"backend\":\"vllm\",\"max_concurrency\":4,\"output_throughput\":10}\n{\"backend\":\"vllm\",\"max_concurrency\":",
    "{\"mode\":\"multi_turn\",\"backend\":\"openai-chat\",\"output_throughput\":100,\"multi_turn_concurrency\":",
    "[{\"hardware\":\"h200\",\"conc\":4,\"disagg\":true,\"date\":\"2026-01-01\",\"num_decode_gpu\":8,\"metrics\":{\"output_tput_per_gpu\":",
];

/// `core::scenario::number` gives what `str::parse::<f64>` gives (after trimming), bit for bit.
fn same_as_std(text: &str) -> Result<(), TestCaseError> {
    let std = text.trim().parse::<f64>().ok();
    let ours = number(text);
    match (std, ours) {
        (Some(a), Some(b)) if a.is_nan() => prop_assert!(b.is_nan(), "{text:?}"),
        (a, b) => prop_assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "{:?}", text),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(CASES))]

    #[test]
    fn numbers_read_as_the_standard_library_reads_them(
        text in "[ +\\-]{0,2}[0-9]{0,25}(\\.[0-9]{0,25})?([eE][+\\-]?[0-9]{0,4})?[ ]{0,2}",
        junk in "[ +\\-.0-9eE_xa-zA-Z,]{0,12}",
        value in any::<f64>(),
        digits in 0usize..25,
    ) {
        same_as_std(&text)?;
        same_as_std(&junk)?;
        for shown in [value.to_string(), format!("{value:e}"), format!("{value:.digits$}"), format!("{value:.digits$e}")] {
            same_as_std(&shown)?;
        }
    }

    #[test]
    fn any_query_parses_to_a_scenario_that_names_a_sweep(query in ".{0,300}") {
        let source = lm_arena_chat();
        let (scenario, _) = Scenario::from_query(&query, source);
        prop_assert!(scenario.sweep_index(source).is_some());
        let again = Scenario::from_query(&scenario.to_query(), source);
        prop_assert_eq!(again.0, scenario);
        prop_assert!(again.1.is_empty());
    }

    #[test]
    fn any_structured_query_is_safe(
        keys in proptest::collection::vec("(model|gpu|gpus|tps|tpot|stat|limit|users|price|pue|co2|kwh_price|cfg|src|[a-z]{1,5})", 0..8),
        values in proptest::collection::vec("(-?[0-9]{0,6}(\\.[0-9]{0,4})?(e[0-9]{1,3})?|NaN|inf|p99:[0-9]{1,7}|[^&=]{0,20})", 0..8),
    ) {
        let query: Vec<String> = keys.iter().zip(values.iter()).map(|(k, v)| format!("{k}={v}")).collect();
        let source = lm_arena_chat();
        let (scenario, _) = Scenario::from_query(&query.join("&"), source);
        prop_assert!(scenario.slo.target.value().is_finite() && scenario.slo.target.value() > 0.0);
        prop_assert!(scenario.slo.limits.iter().all(|l| l.max_ms.is_finite() && l.max_ms > 0.0));
    }

    #[test]
    fn every_importer_survives_random_tails(prefix in 0usize..PREFIXES.len(), tail in ".{0,400}") {
        let text = format!("{}{}", PREFIXES[prefix], tail);
        let f = file("random.json", &text);
        let _ = detect(&f);
        if let Ok(imported) = import(&[f]) {
            for sweep in &imported.source.sweeps {
                prop_assert!(sweep.rows.iter().all(|r| r.level.is_finite() && r.level > 0.0));
                prop_assert!(sweep.rows.iter().all(|r| r.throughput_tok_s.is_finite() && r.throughput_tok_s > 0.0));
            }
        }
    }

    #[test]
    fn file_sets_with_companion_files_survive(
        picks in proptest::collection::vec((0usize..PREFIXES.len(), ".{0,120}", "[ab]?"), 1..4),
    ) {
        let files: Vec<_> = picks
            .iter()
            .map(|(p, tail, folder)| file(&format!("{folder}/benchmark_summary.json"), &format!("{}{}", PREFIXES[*p], tail)))
            .collect();
        let _ = import(&files);
    }

    #[test]
    fn a_link_holds_no_more_than_it_carries(
        name_len in 0usize..20_000,
        sweeps in 1usize..30,
        rows in 1usize..80,
        repeat_model in proptest::bool::ANY,
    ) {
        // Long texts and many rows compress well: whatever a link unpacks to, the page holds
        // each text once, cut to its limit, so memory stays within a small multiple of it.
        let long = "x".repeat(name_len);
        let model = format!("{{\"id\":\"{long}\",\"nick\":\"{long}\",\"arch\":\"a\",\"total\":null,\"active\":null}}");
        let models = if repeat_model { vec![model.clone(); 3] } else { vec![model] };
        let row: Vec<String> = (1..=rows).map(|l| format!("{{\"l\":{l},\"t\":10,\"ms\":[[\"p50\",5]]}}")).collect();
        let sweep = |i: usize| format!(
            "{{\"model\":0,\"dep\":{{\"gpu\":\"{long}{i}\",\"prec\":\"{long}\",\"kind\":\"c\"}},\"rows\":[{}]}}",
            row.join(",")
        );
        let json = format!(
            "{{\"v\":2,\"name\":\"{long}\",\"models\":[{}],\"sweeps\":[{}]}}",
            models.join(","),
            (0..sweeps).map(sweep).collect::<Vec<_>>().join(",")
        );
        let packed = base64::Engine::encode(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD,
            miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9),
        );
        if let Ok(source) = share::decode(&packed) {
            let texts_cap = (source.models.len() * 3 + source.sweeps.len() * 2) * 4 * 201;
            let rows_bytes = source.row_count() * std::mem::size_of::<llm_slo_planner::core::model::sweep::Row>();
            prop_assert!(held_bytes(&source) <= texts_cap + rows_bytes);
        }
    }

    #[test]
    fn random_links_decode_to_messages(packed in "[A-Za-z0-9_-]{0,600}") {
        let _ = share::decode(&packed);
    }
}

#[test]
fn nasty_corpus() {
    let source = lm_arena_chat();
    let huge = "9".repeat(400);
    let ten_mb = "x".repeat(10 * 1024 * 1024);
    let queries = [
        format!("tps={huge}"),
        format!("tpot=-{huge}"),
        "tps=NaN&tpot=Infinity&users=-Infinity&pue=1e-320".to_string(),
        "stat=&model=&gpu=&gpus=&limit=".to_string(),
        format!("model={ten_mb}"),
        format!("{ten_mb}=1"),
        "model=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&gpu=%3Cscript%3E".to_string(),
        "%FF%FE%FD=%C0%AF&tps=%E0%80%80".to_string(),
        "&&&===&&".to_string(),
        "limit=p99:1e308&limit=:&limit=ttft_p90:".to_string(),
    ];
    for q in &queries {
        let (scenario, errors) = Scenario::from_query(q, source);
        assert!(
            scenario.sweep_index(source).is_some(),
            "{}",
            &q[..q.len().min(60)]
        );
        assert!(errors.iter().all(|e| e.to_string().chars().count() < 400));
    }

    let nested = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let invalid_utf8 = String::from_utf8_lossy(&[0xff, 0xfe, b'{', 0xc0, 0xaf, b'}']).into_owned();
    let files = [
        file("nested.json", &nested),
        file("utf8.json", &invalid_utf8),
        file("big.csv", &format!("model,concurrency,output_tok_s\n{}", "a,1,1\n".repeat(200_000))),
        file("inf.jsonl", "{\"backend\":\"sglang\",\"request_rate\":Infinity,\"max_concurrency\":NaN,\"output_throughput\":-Infinity}"),
        file("xss.json", "{\"backend\":\"vllm\",\"model_id\":\"<img src=x onerror=alert(1)>\",\"max_concurrency\":4,\"output_throughput\":100,\"median_itl_ms\":10}"),
        file("neg.csv", "model,concurrency,output_tok_s,p50_itl_ms\nm,-4,100,10\nm,4,-100,10\nm,4,100,-10\n"),
        file("huge.json", &format!("{{\"backend\":\"vllm\",\"max_concurrency\":{huge},\"output_throughput\":1e308}}")),
        file("empty", ""),
    ];
    for f in &files {
        let result = import(std::slice::from_ref(f));
        if f.name == "big.csv" || f.name == "xss.json" || f.name == "neg.csv" {
            let imported = result.expect(&f.name);
            if f.name == "xss.json" {
                assert_eq!(
                    imported.source.models[0].model_id,
                    "<img src=x onerror=alert(1)>"
                );
            }
            if f.name == "neg.csv" {
                // A negative level or throughput rejects its row; a negative latency is "not
                // reported" and the row is kept.
                assert_eq!(imported.source.row_count(), 1);
                let level = &imported.source.sweeps[0].levels()[0];
                assert_eq!(
                    level.latency_ms(llm_slo_planner::core::model::sweep::Statistic::P50),
                    None
                );
            }
        } else if f.name != "huge.json" {
            assert!(result.is_err(), "{} imported", f.name);
        }
    }
    assert!(share::decode(&ten_mb).is_err());
}

/// Bytes of text and numbers a source holds: what a link or file expands into in memory.
fn held_bytes(source: &llm_slo_planner::core::model::source::Source) -> usize {
    let models: usize = source
        .models
        .iter()
        .map(|m| m.model_id.len() + m.nickname.len() + m.architecture.len())
        .sum();
    let sweeps: usize = source
        .sweeps
        .iter()
        .map(|s| {
            let d = &s.deployment;
            d.gpu.len()
                + d.precision.len()
                + [
                    &d.engine,
                    &d.engine_version,
                    &d.spec_decoding,
                    &d.dataset,
                    &d.config,
                    &d.date,
                ]
                .iter()
                .map(|t| t.as_ref().map_or(0, String::len))
                .sum::<usize>()
                + s.rows.len() * std::mem::size_of::<llm_slo_planner::core::model::sweep::Row>()
        })
        .sum();
    models + sweeps
}

#[test]
fn an_amplifying_link_holds_what_it_says_once() {
    // cases/reliability: a 632-character link whose sweeps each name a 64 KB model; it once took
    // the tab to 521 MB (each of 2,000 rows held its own copy).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/cases/reliability/amplifying-link-fragment.txt"
    ))
    .unwrap();
    let payload = text.trim().trim_start_matches("#sweep=");
    match share::decode(payload) {
        Ok(source) => {
            // Each text at most 200 characters, held once per model or sweep.
            assert!(source
                .models
                .iter()
                .all(|m| m.model_id.chars().count() <= 201));
            assert!(held_bytes(&source) < 2_000_000, "{}", held_bytes(&source));
        }
        Err(error) => {
            let message = error.to_string();
            assert!(!message.contains("damaged"), "{message}")
        }
    }
}
