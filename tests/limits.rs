//! Bounded work on large inputs: the limits are enforced before the work is done, problem lists
//! stay short, and every parser stays linear (these inputs would take minutes on a quadratic
//! path; the assertions count what was kept and said, not how long it took).

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::import::{import, InputFile, RowErrorKind};
use llm_slo_planner::core::model::limits::{
    MAX_FILE_BYTES, MAX_IMPORT_BYTES, MAX_LISTED_PROBLEMS, MAX_PARAMS, MAX_ROWS,
    MAX_STREAMED_BYTES, MAX_TEXT_CHARS,
};
use llm_slo_planner::core::scenario::Scenario;

fn file(name: &str, text: String) -> InputFile {
    InputFile {
        name: name.into(),
        text,
    }
}

#[test]
fn a_30k_record_vllm_array_keeps_the_row_limit_and_says_so() {
    let records: Vec<String> = (1..=30_000)
        .map(|i| {
            format!(
                "{{\"backend\":\"vllm\",\"model_id\":\"org/m\",\"max_concurrency\":{i},\"output_throughput\":{},\"median_itl_ms\":10}}",
                i * 10
            )
        })
        .collect();
    let imported = import(&[file("all.json", format!("[{}]", records.join(",")))]).unwrap();
    assert_eq!(imported.source.row_count(), MAX_ROWS);
    let kinds: Vec<RowErrorKind> = imported.problems.iter().map(|p| p.error.kind()).collect();
    assert_eq!(kinds, vec![RowErrorKind::TooManyRows]);
    assert_eq!(
        imported.problems[0].message(),
        "only the first 2,000 rows are read"
    );
}

#[test]
fn a_hundred_thousand_bad_rows_list_twenty_and_count_the_rest() {
    let mut text = String::from("model,concurrency,output_tok_s,p50_itl_ms\nm,1,100,10\n");
    for _ in 0..100_000 {
        text.push_str("m,,100,10\n");
    }
    let imported = import(&[file("bad.csv", text)]).unwrap();
    assert_eq!(imported.source.row_count(), 1);
    let listed = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::NoLevel)
        .count();
    assert_eq!(listed, MAX_LISTED_PROBLEMS);
    let more: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::MoreLikeThese)
        .map(|p| p.message())
        .collect();
    assert_eq!(
        more,
        vec!["and 99,980 more like these (no level: `concurrency (or request_rate)` is missing or not a finite number)"]
    );
}

#[test]
fn a_million_row_csv_is_read_up_to_the_row_limit() {
    let mut text = String::from("model,concurrency,output_tok_s\n");
    for i in 1..=1_000_000u32 {
        text.push_str(&format!("m,{i},{i}\n"));
    }
    assert!(text.len() < MAX_FILE_BYTES);
    let imported = import(&[file("million.csv", text)]).unwrap();
    assert_eq!(imported.source.row_count(), MAX_ROWS);
    assert_eq!(imported.problems[0].error.kind(), RowErrorKind::TooManyRows);
}

#[test]
fn files_past_the_size_limit_are_refused_before_they_are_read() {
    let big = "x".repeat(MAX_FILE_BYTES + 1);
    let problems = import(&[file("big.csv", big)]).unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::FileTooLarge);
    assert_eq!(
        problems[0].message(),
        "not read: the file is 32.0 MB, more than the 32.0 MB one imported file may have"
    );
    assert!(!problems[0].message().contains("damaged"));
}

#[test]
fn long_texts_are_cut_and_said() {
    let model = "m".repeat(5_000);
    let text = format!(
        "model,gpu,concurrency,output_tok_s\n{model},{},1,100\n",
        "g".repeat(300)
    );
    let imported = import(&[file("long.csv", text)]).unwrap();
    assert_eq!(
        imported.source.models[0].model_id.chars().count(),
        MAX_TEXT_CHARS + 1
    );
    assert!(imported.problems.iter().any(|p| p.message()
        == "1 row with a text longer than 200 characters (a model, GPU or label): cut to 200"));
}

#[test]
fn a_header_only_csv_says_it_has_no_data_rows() {
    let problems = import(&[file(
        "header-only.csv",
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n".into(),
    )])
    .unwrap_err();
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].file, "header-only.csv");
    assert_eq!(problems[0].error.kind(), RowErrorKind::NoDataRows);
}

#[test]
fn a_link_with_fifty_thousand_parameters_is_read_up_to_its_limit() {
    let query: String = (0..50_000).map(|i| format!("&x{i}=1")).collect();
    let (scenario, errors) = Scenario::from_query(&query, lm_arena_chat());
    assert!(scenario.sweep_index(lm_arena_chat()).is_some());
    assert_eq!(errors.len(), MAX_PARAMS + 1);
    // Said first, so a page that lists only some messages shows it.
    assert!(errors[0].to_string().contains("more than 64 parameters"));
}

#[test]
fn many_unknown_columns_and_many_kinds_of_problem_stay_a_short_list() {
    let header: Vec<String> = (0..1000).map(|i| format!("junk{i}")).collect();
    let text = format!(
        "model,concurrency,output_tok_s,{}\nm,1,100\n",
        header.join(",")
    );
    let imported = import(&[file("cols.csv", text)]).unwrap();
    let more: Vec<String> = imported
        .problems
        .iter()
        .filter(|p| p.error.kind() == RowErrorKind::MoreLikeThese)
        .map(|p| p.message())
        .collect();
    assert_eq!(imported.problems.len(), MAX_LISTED_PROBLEMS + 1);
    assert_eq!(
        more,
        vec!["and 980 more like these (columns this planner does not read)"]
    );
}

#[test]
fn sizes_are_checked_before_files_are_read() {
    use llm_slo_planner::core::import::admit;
    let mb = 1024 * 1024;
    let (admitted, problems) = admit(&[
        ("a", 25 * mb, false),
        ("b", 25 * mb, false),
        ("big", 1500 * mb, true),
        ("c", 25 * mb, false),
        ("d", 40 * mb, false),
        ("big2", 600 * mb, true),
        ("big3", 400 * mb, true),
        ("huge", 2049 * mb, true),
    ]);
    assert_eq!(
        admitted,
        vec![true, true, true, false, false, false, true, false]
    );
    let refused: Vec<(&str, RowErrorKind)> = problems
        .iter()
        .map(|p| (p.file.as_str(), p.error.kind()))
        .collect();
    assert_eq!(
        refused,
        vec![
            ("c", RowErrorKind::ImportTooLarge),
            ("d", RowErrorKind::FileTooLarge),
            ("big2", RowErrorKind::ImportTooLarge),
            ("huge", RowErrorKind::FileTooLarge),
        ]
    );
    assert_eq!(
        problems[2].error.to_string(),
        "not read: with it the files come to 2.1 GB, more than the 2.0 GB one import may have"
    );
    assert!(75 * mb > MAX_IMPORT_BYTES);
    assert_eq!(MAX_STREAMED_BYTES, 2048 * mb);
}

#[test]
fn a_binary_file_is_said_to_be_no_text() {
    let png =
        String::from_utf8_lossy(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
            .into_owned();
    let problems = import(&[file("fake.png", png)]).unwrap_err();
    assert_eq!(problems[0].error.kind(), RowErrorKind::NotText);
}

#[test]
fn an_empty_file_is_said_to_be_empty() {
    for text in ["", "   \n\t\r\n", "\u{feff}", "\u{feff}  \n"] {
        let problems = import(&[file("empty.csv", text.to_string())]).unwrap_err();
        assert_eq!(problems.len(), 1, "{text:?}");
        assert_eq!(problems[0].error.kind(), RowErrorKind::Empty, "{text:?}");
        assert_eq!(problems[0].file, "empty.csv");
        assert_eq!(
            problems[0].error.to_string(),
            "empty: there is nothing to read"
        );
    }
}

#[test]
fn a_nul_byte_in_a_csv_names_its_row_and_the_rest_is_read() {
    let csv = "model,concurrency,output_tok_s,p50_itl_ms\nm,1,100,10\nm,2\0,150,12\nm,4,300,14\n";
    let imported = import(&[file("one-nul.csv", csv.to_string())]).unwrap();
    assert_eq!(imported.source.row_count(), 2);
    assert_eq!(imported.problems.len(), 1);
    assert_eq!(imported.problems[0].error.kind(), RowErrorKind::NulByte);
    assert_eq!(imported.problems[0].row, Some(3));
    assert_eq!(
        imported.problems[0].located(),
        "one-nul.csv, row 3: a NUL byte (\\0) in column `concurrency`: the row is not read (the rest of the file is)"
    );
}

#[test]
fn counts_in_import_messages_group_their_thousands() {
    // A 2 MB model id over 2,001 rows said "4000 texts … cut" (each run holds the id twice) and
    // "1829 rows flagged": runs are counted, and every count is grouped.
    use llm_slo_planner::core::import::Warning;
    let warning = Warning {
        kind: "saturated".to_string(),
        rows: 1829,
        example: "m at 8".to_string(),
    };
    assert!(
        warning.text().starts_with("1,829 rows flagged saturated ("),
        "{}",
        warning.text()
    );
    let rows: String = (0..1500)
        .map(|i| format!("{},g,{},100\n", "m".repeat(300), i + 1))
        .collect();
    let imported = import(&[file(
        "long.csv",
        format!("model,gpu,concurrency,output_tok_s\n{rows}"),
    )])
    .unwrap();
    let said: Vec<String> = imported.problems.iter().map(|p| p.message()).collect();
    assert!(
        said.contains(&"1,500 rows with a text longer than 200 characters (a model, GPU or label): cut to 200".to_string()),
        "{said:?}"
    );
}

#[test]
fn a_figure_below_any_measurement_or_above_the_range_is_not_reported() {
    // A power of 1e-320 W read as measured gave "5.00e-315 J/token", a p99 of 1e308 W "∞ MW".
    let text = "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,power_w,power_p99_w\nm,H100,1,8,1000,20,1e-320,1e308\nm,H100,1,16,1800,30,700,900\n";
    let imported = import(&[file("power.csv", text.to_string())]).unwrap();
    let levels = imported.source.sweeps[0].levels();
    assert_eq!((levels[0].power_w, levels[0].power_peak), (None, None));
    assert_eq!(levels[0].energy_per_token_j, None);
    assert_eq!(levels[1].power_w, Some(700.0));
    assert_eq!(levels[1].power_peak.map(|p| p.0), Some(900.0));
}

#[test]
fn a_required_value_written_nan_or_infinite_is_said_to_have_no_value_not_to_be_missing() {
    // "NaN" read as absent said "missing key `output_tok_s`", beside a key that is there.
    let text =
        "model,gpu,concurrency,output_tok_s\nm,H100,8,NaN\nm,H100,16,Infinity\nm,H100,32,1000\n";
    let imported = import(&[file("nan.csv", text.to_string())]).unwrap();
    let said: Vec<(Option<usize>, String)> = imported
        .problems
        .iter()
        .map(|p| (p.row, p.message()))
        .collect();
    let no_value = "`output_tok_s` has no value (absent, empty, NaN or infinite)".to_string();
    assert_eq!(said, [(Some(2), no_value.clone()), (Some(3), no_value)]);
}

#[test]
fn a_power_percentile_out_of_range_does_not_hide_a_lower_one_in_range() {
    // p99 1e308 W beside p90 800 W: the p90 was lost and the mean (700 W) used, with nothing said.
    let text = "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,power_w,power_p90_w,power_p99_w\nm,H100,1,8,1000,20,700,800,1e308\n";
    let imported = import(&[file("peaks.csv", text.to_string())]).unwrap();
    let level = &imported.source.sweeps[0].levels()[0];
    assert_eq!(level.power_peak.map(|p| p.0), Some(800.0));
}

#[test]
fn a_latency_below_a_nanosecond_is_counted_as_not_reported_and_a_derived_j_held_to_range() {
    let text = "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,power_w\nm,H100,1,8,1800000,1e-7,2e-6\nm,H100,1,16,1000,20,700\n";
    let imported = import(&[file("tiny.csv", text.to_string())]).unwrap();
    let said: Vec<String> = imported.problems.iter().map(|p| p.message()).collect();
    assert!(
        said.contains(
            &"1 latency value below 1e-6 ms (0 or less) or over 1e9 ms is shown as not reported"
                .to_string()
        ),
        "{said:?}"
    );
    // 2e-6 W ÷ 1,800,000 tok/s = 1.11e-12 J/token: below any measurement, not reported.
    let levels = imported.source.sweeps[0].levels();
    assert_eq!(levels[0].energy_per_token_j, None);
    assert_eq!(levels[1].energy_per_token_j, Some(0.7));
}
