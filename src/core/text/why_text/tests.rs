use super::*;
use crate::core::plan::bottleneck::{
    Rule, CAPPED_AT, FLAT_BELOW, KV_BOUND_AT, OVERLOADED_BELOW, QUEUE_AT, TTFT_RISE,
};
use crate::core::text::readme::{flat, section};

#[test]
fn the_readme_states_the_rules_and_their_limits_word_for_word() {
    let section = section("## Why it stops here");
    for (i, (name, text)) in RULES.iter().enumerate() {
        let stated = flat(&format!("{}. `{name}`: {text}", i + 1));
        assert!(
            section.contains(&stated),
            "README should state, word for word:\n{stated}"
        );
    }
    assert!(
        section.contains(&flat(LIMITS)),
        "README should state:\n{LIMITS}"
    );
}

#[test]
fn the_rules_are_worded_in_the_order_and_with_the_thresholds_applied() {
    let keys: Vec<&str> = RULES.iter().map(|(k, _)| *k).collect();
    let applied: Vec<&str> = Rule::ALL.iter().map(|r| r.key()).collect();
    assert_eq!(keys, applied);
    let text = |key: &str| RULES.iter().find(|(k, _)| *k == key).map_or("", |r| r.1);
    assert!(text("kv-bound").contains(&format!("≥ {KV_BOUND_AT},")));
    assert!(text("capped").contains(&format!("≥ {CAPPED_AT} ×")));
    assert!(text("queueing").contains(&format!("≥ {QUEUE_AT} while KV use max < {KV_BOUND_AT}")));
    assert!(text("queueing").contains(&format!("below {COMPUTE_BOUND_BELOW}")));
    assert!(text("not-filled").contains(&format!("< {NOT_FILLED_BELOW} ×")));
    assert!(text("overloaded").contains(&format!("< {OVERLOADED_BELOW} ×")));
    assert!(text("queueing-from-latency").contains(&format!("≥ {TTFT_RISE} ×")));
    assert!(text("queueing-from-latency").contains(&format!("< {}%", FLAT_BELOW * 100.0)));
}

#[test]
fn each_verdict_is_stated_with_the_numbers_that_fired_it() {
    let kind = LevelKind::MaxNumSeqs;
    assert_eq!(
        fired_text(
            &Fired::Queueing {
                waiting_mean: 155.0,
                kv_use_max: None
            },
            kind
        ),
        "requests queue (waiting 155 on average) while the KV cache is not reported"
    );
    assert_eq!(
        fired_text(
            &Fired::Queueing {
                waiting_mean: 1.6342,
                kv_use_max: Some(0.4077)
            },
            LevelKind::Concurrency
        ),
        "compute-bound: requests wait (1.63 on average) while the KV cache is 41% used; more KV memory will not help"
    );
    assert_eq!(
        fired_text(
            &Fired::NotFilled {
                running_mean: 100.0,
                basis: RunningBasis::AvgBatch,
                of: 128.0,
                of_cap: true
            },
            kind
        ),
        "the batch is not filled: avg batch 100 of max_num_seqs 128 (78%, below 85%)"
    );
    assert_eq!(
        fired_text(
            &Fired::KvBound {
                kv_use_max: Some(0.93),
                kv_peak: KvPeak::P99,
                preemptions: Some(12.0)
            },
            kind
        ),
        "the KV cache is full (KV use p99 0.93, 12 preemptions)"
    );
    assert_eq!(at_level(LevelKind::RequestRate, 111.92), "111.9 req/s");
}

#[test]
fn the_autoscaler_threshold_names_its_replica_range_in_words_that_agree() {
    let mut a = crate::core::plan::autoscaler::example(LevelKind::MaxNumSeqs, 8.0);
    a.max_replicas = Some(1);
    let threshold = |a: &Autoscaler| {
        targets_text(a)
            .into_iter()
            .find(|(hook, ..)| *hook == "as-threshold")
            .map(|(.., text)| text)
    };
    let expected = "8 of vllm:num_requests_running per replica (1 replica)";
    assert_eq!(threshold(&a).as_deref(), Some(expected));
    a.max_replicas = Some(13);
    let expected = "8 of vllm:num_requests_running per replica (1 to 13 replicas)";
    assert_eq!(threshold(&a).as_deref(), Some(expected));
    (a.min_replicas, a.max_replicas) = (3, Some(3));
    let expected = "8 of vllm:num_requests_running per replica (3 replicas)";
    assert_eq!(threshold(&a).as_deref(), Some(expected));
}
