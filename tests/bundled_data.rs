//! The bundled ML.ENERGY lm-arena-chat file: shape and validity.

use llm_slo_planner::core::import::bundled::{lm_arena_chat, lm_arena_chat_part, parse_task_file};
use llm_slo_planner::core::import::{import, InputFile};
use llm_slo_planner::core::model::sweep::Statistic;
use llm_slo_planner::core::plan::compare::family;
use llm_slo_planner::core::scenario::DEFAULT_MODEL;

/// The task file as published, byte for byte: the one source of truth for the bundled data.
const LM_ARENA_CHAT_JSON: &str = include_str!("../data/lm-arena-chat.json");

#[test]
fn compiled_data_equals_the_json_file() {
    // build.rs compiles the JSON into Rust data; parsing the JSON must give the same source,
    // every number bit for bit.
    let parsed = parse_task_file(LM_ARENA_CHAT_JSON).unwrap();
    assert_eq!(&parsed, lm_arena_chat());
    let bits = |s: &llm_slo_planner::core::model::source::Source| -> Vec<u64> {
        s.sweeps
            .iter()
            .flat_map(|w| w.rows.iter())
            .flat_map(|r| {
                [
                    Some(r.level),
                    Some(r.throughput_tok_s),
                    r.power_w,
                    r.energy_per_token_j,
                ]
                .into_iter()
                .chain(Statistic::ALL.iter().map(|&st| r.latency_ms(st)))
            })
            .map(|x| x.map_or(u64::MAX, f64::to_bits))
            .collect()
    };
    assert_eq!(bits(&parsed), bits(lm_arena_chat()));
}

#[test]
fn importing_the_bundled_file_gives_the_bundled_sweeps() {
    // One reader for the bundled data, the other workloads and an imported ML.ENERGY file: the
    // same models, sweeps and rows (the task name and provenance are the import's own).
    let imported = import(&[InputFile {
        name: "lm-arena-chat.json".into(),
        text: LM_ARENA_CHAT_JSON.into(),
    }])
    .unwrap();
    assert!(imported.problems.is_empty(), "{:?}", imported.problems);
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let bundled = lm_arena_chat();
    assert_eq!(imported.source.models, bundled.models);
    assert_eq!(imported.source.sweeps, bundled.sweeps);
    for i in 0..bundled.sweeps.len() {
        assert_eq!(imported.source.sweep_label(i), bundled.sweep_label(i));
    }
}

#[test]
fn the_part_the_page_holds_is_the_default_family_of_the_whole() {
    // The page starts with the default model's family and reads the rest when first needed:
    // every sweep it holds is the whole's, named alike, and it says what the whole holds.
    let (part, whole) = (lm_arena_chat_part(), lm_arena_chat());
    assert_eq!(part.models, whole.models);
    assert_eq!(part.provenance, whole.provenance);
    assert_eq!(
        (part.task.as_str(), part.task_display_name.as_str()),
        (whole.task.as_str(), whole.task_display_name.as_str())
    );
    let default = whole.model_index(DEFAULT_MODEL).unwrap();
    let family = family(whole, default);
    let held: Vec<usize> = (0..whole.models.len())
        .filter(|&m| part.holds_model(m))
        .collect();
    let mut expected = family.clone();
    expected.sort_unstable();
    assert_eq!(held, expected);
    let family_sweeps: Vec<usize> = family.iter().flat_map(|&m| whole.sweeps_of(m)).collect();
    assert_eq!(part.sweeps.len(), family_sweeps.len());
    for m in &family {
        let (mine, theirs) = (part.sweeps_of(*m), whole.sweeps_of(*m));
        assert_eq!(mine.len(), theirs.len());
        for (&i, &j) in mine.iter().zip(&theirs) {
            assert_eq!(part.sweeps[i], whole.sweeps[j]);
            assert_eq!(part.sweep_label(i), whole.sweep_label(j));
            assert_eq!(part.sweep_cfg(i), whole.sweep_cfg(j));
        }
    }
    assert_eq!(part.whole_counts(), (328, 38));
    assert_eq!(part.whole_counts(), whole.whole_counts());
    assert_eq!(part.gpu_types(), whole.gpu_types());
    assert!(whole.whole.is_none());
    assert_eq!(part.row_count(), 20);
}

#[test]
fn bundled_file_has_328_rows_in_38_deployments() {
    let source = lm_arena_chat();
    assert_eq!(source.task, "lm-arena-chat");
    assert_eq!(source.task_display_name, "LLM Chat (LM Arena)");
    assert_eq!(source.row_count(), 328);
    assert_eq!(source.sweeps.len(), 38);
    assert_eq!(source.models.len(), 18);
}

#[test]
fn every_numeric_field_is_finite_and_positive() {
    let value: serde_json::Value = serde_json::from_str(LM_ARENA_CHAT_JSON).unwrap();
    let rows = value["configurations"].as_array().unwrap();
    assert_eq!(rows.len(), 328);
    let mut numbers = 0;
    for (i, row) in rows.iter().enumerate() {
        for (key, field) in row.as_object().unwrap() {
            if let Some(x) = field.as_f64() {
                numbers += 1;
                assert!(x.is_finite() && x > 0.0, "row {i} field {key} = {x}");
            } else {
                assert!(
                    field.is_string(),
                    "row {i} field {key} is neither number nor text"
                );
            }
        }
    }
    // 17 numeric fields per row in the current schema.
    assert_eq!(numbers, 328 * 17);
}

#[test]
fn every_sweep_is_sorted_and_has_every_statistic() {
    for sweep in &lm_arena_chat().sweeps {
        assert!(sweep.rows.windows(2).all(|w| w[0].level <= w[1].level));
        assert_eq!(
            sweep.statistics(),
            vec![
                Statistic::P50,
                Statistic::P90,
                Statistic::P95,
                Statistic::P99,
                Statistic::Rate
            ]
        );
    }
}

#[test]
fn only_qwen3_30b_on_2_h100_has_duplicate_levels() {
    let source = lm_arena_chat();
    let with_duplicates: Vec<String> = source
        .sweeps
        .iter()
        .filter(|s| s.levels().iter().any(|l| l.is_duplicate()))
        .map(|s| {
            format!(
                "{} {}",
                source.models[s.model_index].model_id,
                s.deployment.base_label()
            )
        })
        .collect();
    assert_eq!(
        with_duplicates,
        vec!["Qwen/Qwen3-30B-A3B-Instruct-2507 2 x H100, EP2, bf16".to_string()]
    );
}
