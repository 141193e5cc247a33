//! The KEDA `ScaledObject` the page downloads and `--autoscaler keda` prints validates against
//! KEDA's own CRD schema (tests/fixtures/schemas/keda.sh_scaledobjects.yaml, its
//! `openAPIV3Schema`), read with a JSON-schema validator; and its numbers are the recommended
//! level's, worked by hand.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

mod common;

use serde_json::Value;

use common::realdata;
use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::import::{import, InputFile};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::plan::planner::plan;
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::wire::export::keda_yaml;

/// The ScaledObject's schema from KEDA's CRD.
fn schema() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/schemas/keda.sh_scaledobjects.yaml"
    );
    let crd: Value = serde_norway::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"].clone()
}

/// The document written for `query` on `source`, checked against the schema, and read back.
fn written(source: &Source, query: &str) -> (String, Value) {
    let (scenario, errors) = Scenario::from_query(query, source);
    assert!(errors.is_empty(), "{errors:?}");
    let i = scenario.sweep_index(source).unwrap();
    let p = plan(&source.sweeps[i], &scenario.slo);
    let yaml = keda_yaml(
        source,
        &scenario,
        i,
        &p,
        &format!("http://127.0.0.1/?{query}"),
    )
    .unwrap();
    let doc: Value = serde_norway::from_str(&yaml).unwrap();
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}\n{yaml}");
    (yaml, doc)
}

#[test]
fn the_bundled_answer_scales_on_running_requests_at_its_level() {
    // Llama 3.1 8B on 1 x H100 at 25 tok/s per user (p50 ITL): max_num_seqs 384 is the
    // recommended level, its avg_batch_size 381.47..., and 1,000 users need ceil(1000 / that).
    let source = lm_arena_chat();
    let (yaml, doc) = written(
        source,
        "model=meta-llama/Llama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50&users=1000",
    );
    assert_eq!(doc["apiVersion"], "keda.sh/v1alpha1");
    assert_eq!(doc["kind"], "ScaledObject");
    let trigger = &doc["spec"]["triggers"][0];
    assert_eq!(trigger["type"], "prometheus");
    assert_eq!(
        trigger["metadata"]["query"],
        "sum(vllm:num_requests_running{model_name=\"meta-llama/Llama-3.1-8B-Instruct\"})"
    );
    let sweep = source
        .sweeps
        .iter()
        .find(|s| {
            source.models[s.model_index].model_id == "meta-llama/Llama-3.1-8B-Instruct"
                && s.deployment.gpu == "H100"
                && s.deployment.num_gpus == Some(1)
        })
        .unwrap();
    let level = sweep.levels().iter().find(|l| l.level == 384.0).unwrap();
    let batch = level.avg_batch_size.unwrap();
    assert_eq!(
        trigger["metadata"]["threshold"],
        llm_slo_planner::core::model::format::url_number(batch)
    );
    assert_eq!(doc["spec"]["minReplicaCount"], 1);
    assert_eq!(
        doc["spec"]["maxReplicaCount"],
        (1000.0 / batch).ceil() as u64
    );
    assert!(yaml.starts_with("# KEDA ScaledObject for meta-llama/Llama-3.1-8B-Instruct"));
    // The README's worked example is this document, its comments aside.
    let body = &yaml[yaml.find("apiVersion").unwrap()..];
    let readme = include_str!("../README.md");
    assert!(
        readme.contains(&format!("```yaml\n{body}```")),
        "the README's autoscaler example should read:\n{body}"
    );
    assert!(yaml.contains("# Scenario: http://127.0.0.1/?model=meta-llama/Llama-3.1-8B-Instruct"));
}

#[test]
fn a_request_rate_sweep_scales_on_completed_requests_per_second() {
    let files: Vec<InputFile> = (0..7)
        .map(|n| {
            realdata(&format!(
                "inference-perf-kubecon/results/stage_{n}_lifecycle_metrics.json"
            ))
        })
        .collect();
    let imported = import(&files).unwrap();
    // Stages 0 to 3 (up to 111.92 req/s) meet 50 ms at p90 normalized TPOT; stage 4 is served
    // at 117.04 of 148.89 req/s (saturated). A load of 100 then 300 req/s, one replica serving
    // 6,955.73 output tok/s ÷ 62.80 tokens per request = 110.76 req/s at stage 3 (the period's
    // rule): ceil(100 / 110.76) = 1 to ceil(300 / 110.76) = 3 replicas.
    let (yaml, doc) = written(
        &imported.source,
        "src=import&tpot=50&stat=ntpot_p90&load=rps:60:100,300",
    );
    let trigger = &doc["spec"]["triggers"][0];
    assert_eq!(
        trigger["metadata"]["query"],
        "sum(rate(vllm:request_success_total[1m]))"
    );
    // No model to select: every model is summed, and said.
    assert!(yaml.contains("# The model is not stated in the data: the query sums every model"));
    assert_eq!(trigger["metadata"]["threshold"], "111.92");
    assert_eq!(
        (
            &doc["spec"]["minReplicaCount"],
            &doc["spec"]["maxReplicaCount"]
        ),
        (&Value::from(1), &Value::from(3))
    );
    assert!(yaml.contains("# The engine is not stated: vLLM's metric names are used."));
    assert!(yaml.contains("# Replicas: the load's trough and peak at this level."));
}

#[test]
fn the_schema_refuses_what_keda_would() {
    // The validator bites: no scaleTargetRef, a trigger without its type, a count as text.
    let validator = jsonschema::validator_for(&schema()).unwrap();
    let bad: Value = serde_norway::from_str(
        "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata:\n  name: x\nspec:\n  minReplicaCount: one\n  triggers:\n    - metadata:\n        query: q\n",
    )
    .unwrap();
    let errors: Vec<String> = validator.iter_errors(&bad).map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
}

#[test]
fn each_deployment_has_a_name_of_its_own_and_counts_keda_can_hold() {
    // The bundled data at 25 tok/s for 1,000 users: one document per deployment that meets it,
    // each named after its model and deployment (Llama 3.1 8B on H100 and on B200 differ).
    let source = lm_arena_chat();
    let (scenario, _) = Scenario::from_query("tps=25&users=1000", source);
    let mut names: Vec<String> = Vec::new();
    for (i, sweep) in source.sweeps.iter().enumerate() {
        let p = plan(sweep, &scenario.slo);
        if let Ok(yaml) = keda_yaml(source, &scenario, i, &p, "http://127.0.0.1/") {
            let doc: Value = serde_norway::from_str(&yaml).unwrap();
            names.push(doc["metadata"]["name"].as_str().unwrap().to_string());
        }
    }
    assert!(names.len() > 20, "{names:?}");
    let mut unique = names.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    assert!(names.contains(&"meta-llama-llama-3-1-8b-instruct-1-x-b200-tp1-bf16".to_string()));

    // 10^-6 output tok/s a replica at 1,000 tokens a request for 10^9 requests a second: 10^18
    // replicas, more than KEDA's int32 counts: capped and said.
    let tiny = InputFile {
        name: "tiny.csv".into(),
        text: "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,output_tokens_per_request\nm/t,H100,1,1,0.000001,10,1000\nm/t,H100,1,2,0.000002,12,1000\n".into(),
    };
    let imported = import(&[tiny]).unwrap();
    let (yaml, doc) = written(&imported.source, "src=import&tpot=50&rps=1000000000");
    assert_eq!(doc["spec"]["maxReplicaCount"], 2_147_483_647);
    assert!(
        yaml.contains("more than KEDA's replica counts hold (2,147,483,647): capped there"),
        "{yaml}"
    );
}
