//! The binary, run as CI would run it, on the bundled data and on real benchmark files
//! (`tests/fixtures/realdata`). Figures are the page's (the README's worked examples and the
//! native tests that check them against the data by hand).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use llm_slo_planner::core::import::share;
use llm_slo_planner::core::import::{import, InputFile};
use llm_slo_planner::core::scenario::link::shared_payload;

const LLAMA_8B: &str = "meta-llama/Llama-3.1-8B-Instruct";
const VLLM_FOLDER: &str = "er0080-vllm-benchmarking__fixtures__vllm_bench_sweep_v0.25.1";

/// The last line of a command whose files hold nothing usable.
const NOTHING_USABLE: &str = "llm-slo-planner: nothing planned: no usable row was read from the files given (the messages above say why)";

fn realdata(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/realdata")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_llm-slo-planner"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

fn json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn the_worked_example_gives_the_pages_figures_and_exit_0() {
    let out = run(&[
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25", "--json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    let r = &doc["result"];
    assert_eq!(r["status"], "ok");
    assert_eq!(r["level"], 384.0);
    assert_eq!(r["throughput_tok_s"], 9248.01198181863);
    assert_eq!(r["energy_j_per_token"], 0.07423418180476347);
    assert_eq!(r["power_w"], 686.5186027909551);
    assert_eq!(r["latency_ms"], 37.70148498006165);
    assert_eq!(doc["scenario"]["statistic"], "p50");

    let text = run(&[
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25",
    ]);
    assert_eq!(code(&text), 0);
    let text = stdout(&text);
    assert!(
        text.contains("Answer: run at 384 max_num_seqs [ok]"),
        "{text}"
    );
    assert!(text.contains("9,248 tok/s"), "{text}");
    assert!(text.contains("0.07423 J/token"), "{text}");
    // The recommended level is marked in the table, 512 fails the target.
    assert!(
        text.lines().any(|l| l.trim_start().starts_with("*  384")),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains(" 512 ") && l.contains("fails: target")),
        "{text}"
    );
}

#[test]
fn the_fleet_worked_example_gives_the_readmes_costs() {
    let args = |gpu: &'static str| {
        vec![
            "plan",
            "--model",
            LLAMA_8B,
            "--gpu",
            gpu,
            "--gpus",
            "1",
            "--tps",
            "20",
            "--rps",
            "40",
            "--price",
            "H100:2.49,B200:5.99",
            "--kwh-price",
            "0.1",
            "--json",
        ]
    };
    let h100 = run(&args("H100"));
    assert_eq!(code(&h100), 0, "{}", stderr(&h100));
    let c = &json(&h100)["result"]["capacity"];
    assert_eq!(json(&h100)["result"]["level"], 512.0);
    assert_eq!(c["replicas"], 2);
    assert_eq!(
        c["fleet_total_usd_per_hour"]
            .as_f64()
            .map(|v| (v * 100.0).round() / 100.0),
        Some(5.12)
    );
    let b200 = run(&args("B200"));
    let c = &json(&b200)["result"]["capacity"];
    assert_eq!(json(&b200)["result"]["level"], 256.0);
    assert_eq!(c["replicas"], 3);
    assert_eq!(
        c["fleet_total_usd_per_hour"]
            .as_f64()
            .map(|v| (v * 100.0).round() / 100.0),
        Some(18.13)
    );

    // The side-by-side table names the cheapest first: 1 x H100.
    let csv = run(&[
        "plan",
        "--model",
        LLAMA_8B,
        "--tps",
        "20",
        "--rps",
        "40",
        "--price",
        "H100:2.49,B200:5.99",
        "--kwh-price",
        "0.1",
        "--csv",
    ]);
    assert_eq!(code(&csv), 0, "{}", stderr(&csv));
    let csv = stdout(&csv);
    let rows: Vec<&str> = csv
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .collect();
    assert!(
        rows[0].contains(",H100,1,") && rows[0].contains(",512,"),
        "{csv}"
    );
    assert!(
        rows[1].contains(",B200,1,") && rows[1].contains(",256,"),
        "{csv}"
    );
}

#[test]
fn every_deployment_is_planned_without_selectors_and_the_worst_status_exits() {
    // 38 deployments; at 25 tok/s some cannot reach the target: unattainable beats ok.
    let out = run(&["plan", "--tps", "25", "--json"]);
    let docs = json(&out);
    let docs = docs.as_array().expect("an array for several deployments");
    assert_eq!(docs.len(), 38);
    let statuses: Vec<&str> = docs
        .iter()
        .map(|d| d["result"]["status"].as_str().unwrap())
        .collect();
    let expected = if statuses.contains(&"unattainable") {
        1
    } else if statuses.contains(&"no-data") {
        3
    } else {
        0
    };
    assert_eq!(code(&out), expected);
    // Far beyond any measured speed: unattainable everywhere, exit 1.
    assert_eq!(code(&run(&["plan", "--tps", "100000"])), 1);
    // A limit on a statistic ML.ENERGY does not report: cannot judge, exit 3.
    let no_data = run(&[
        "plan",
        "--model",
        LLAMA_8B,
        "--tps",
        "5",
        "--limit",
        "ttft_p99:500",
    ]);
    assert_eq!(code(&no_data), 3, "{}", stdout(&no_data));
    assert!(stdout(&no_data).contains("[no-data]"));
}

#[test]
fn a_bad_parameter_exits_2_naming_it() {
    let out = run(&["plan", "--tps", "25", "--gpus", "two"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--gpus: must be a whole number of GPUs, got \"two\""),
        "{}",
        stderr(&out)
    );
    let out = run(&["plan", "--tps", "25", "--model", "no/such-model"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("; a page link would show meta-llama/Llama-3.1-8B-Instruct"));
    assert!(stderr(&out).contains("nothing planned: "));
    assert!(stderr(&out).contains("--model: \"no/such-model\" is not in the data"));
    let out = run(&["plan", "--tps", "-3"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--tps"));
    assert_eq!(code(&run(&["plan", "--src", "nope", "--tps", "3"])), 2);
    assert_eq!(code(&run(&["plan", "--stat", "p50"])), 2);
}

#[test]
fn the_other_bundled_workloads_are_compiled_in() {
    let out = run(&["list", "--src", "gpqa"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(stdout(&out).starts_with("gpqa ("), "{}", stdout(&out));
    let listed = stdout(&run(&["list"]));
    assert!(
        listed.starts_with("lm-arena-chat (LLM Chat (LM Arena)): "),
        "{listed}"
    );
    assert!(listed.contains("--gpu H100 --gpus 1"));
    assert!(
        listed.contains("max_num_seqs 8 16 32 64 96 128 192 256 384 512 768"),
        "{listed}"
    );
    assert!(listed.contains("stat: p50, p90, p95, p99"), "{listed}");
}

#[test]
fn a_folder_of_vllm_results_is_read_as_the_page_reads_it() {
    let folder = realdata(VLLM_FOLDER);
    let out = run(&["plan", folder.to_str().unwrap(), "--tps", "10", "--json"]);
    // The folder holds one run where every request failed: a warning beside the usable rows.
    let err = stderr(&out);
    assert!(
        err.contains("warning: ") && err.contains("all requests failed"),
        "{err}"
    );
    let docs = json(&out);
    let docs = docs.as_array().expect("several sweeps");
    assert_eq!(docs.len(), 3);
    assert_ne!(code(&out), 2);
    // The same file read by the page's importer gives the same p99 figure.
    let single = realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json"));
    let out = run(&[
        "plan",
        single.to_str().unwrap(),
        "--tps",
        "10",
        "--stat",
        "p99",
        "--json",
    ]);
    let doc = json(&out);
    assert_eq!(doc["result"]["latency_ms"], 29.815922519960626);
    // --strict makes the unusable run fail the pipeline.
    let strict = run(&["plan", folder.to_str().unwrap(), "--tps", "10", "--strict"]);
    assert_eq!(code(&strict), 2);
    assert!(stderr(&strict).contains("error: "));
}

#[test]
fn a_broken_file_exits_2_with_the_row_message() {
    let failed = realdata(&format!(
        "{VLLM_FOLDER}/bench_serve_all_requests_failed_v0.25.1.json"
    ));
    let out = run(&["plan", failed.to_str().unwrap(), "--tps", "10"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("bench_serve_all_requests_failed_v0.25.1.json, row 1: ")
            && stderr(&out).contains("all requests failed"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty());
    // The last line says nothing was planned, after each file's own message (a file read only in
    // part, such as a saved-detailed file with a 70 MB text, exited 2 on that message alone).
    assert_eq!(
        stderr(&out).lines().last(),
        Some(NOTHING_USABLE),
        "{}",
        stderr(&out)
    );
    let missing = run(&["plan", "no-such-file.json", "--tps", "10"]);
    assert_eq!(code(&missing), 2);
    assert!(stderr(&missing).contains("no-such-file.json: no such file or folder"));
    assert_eq!(stderr(&missing).lines().last(), Some(NOTHING_USABLE));
    // A missing load profile is named as a missing file is, not as the system's error.
    let load = run(&["plan", "--tps", "10", "--load-profile", "no-such-load.csv"]);
    assert_eq!(code(&load), 2);
    assert!(
        stderr(&load).contains("--load-profile: no-such-load.csv: no such file or folder\n"),
        "{}",
        stderr(&load)
    );
}

#[test]
fn require_level_gates_a_regression() {
    let base = [
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25",
    ];
    let at = |n: &'static str| {
        let mut args = base.to_vec();
        args.extend(["--require-level", n]);
        run(&args)
    };
    assert_eq!(code(&at("384")), 0);
    let out = at("512");
    assert_eq!(code(&out), 1);
    assert!(stderr(&out).contains("the recommended level 384 is below --require-level 512"));
}

#[test]
fn fail_on_flag_gates_levels_up_to_the_recommendation() {
    // Qwen3-30B on 2 x H100 has duplicate rows (tests/worked_examples.rs).
    let base = [
        "plan",
        "--model",
        "Qwen/Qwen3-30B-A3B-Instruct-2507",
        "--gpu",
        "H100",
        "--gpus",
        "2",
        "--tpot",
        "40",
    ];
    let mut args = base.to_vec();
    args.extend(["--fail-on-flag", "duplicate"]);
    let out = run(&args);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("flag duplicate"));
    let mut args = base.to_vec();
    args.extend(["--fail-on-flag", "energy-identity"]);
    assert_eq!(code(&run(&args)), 0);
}

#[test]
fn link_carries_the_imported_sweeps_and_the_scenario() {
    let file = realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json"));
    let out = run(&[
        "plan",
        file.to_str().unwrap(),
        "--tps",
        "10",
        "--stat",
        "p99",
        "--link=http://127.0.0.1:8080/",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    let url = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Link: "))
        .expect("a link line");
    let (before, fragment) = url.split_once('#').unwrap();
    assert!(
        before.starts_with("http://127.0.0.1:8080/?src=shared&"),
        "{url}"
    );
    assert!(before.contains("&tps=10&stat=p99"), "{url}");
    let decoded = share::decode(shared_payload(fragment).unwrap()).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let imported = import(&[InputFile {
        name: "bench_serve_v0.25.1.json".to_string(),
        text,
    }])
    .unwrap();
    assert_eq!(decoded.sweeps.len(), imported.source.sweeps.len());
    for (a, b) in decoded.sweeps.iter().zip(&imported.source.sweeps) {
        assert_eq!(a.levels(), b.levels());
    }
    // A bundled workload's link names it in `src`, with no fragment.
    let out = run(&[
        "plan",
        "--src",
        "gpqa",
        "--tps",
        "10",
        "--model",
        "Qwen/Qwen3-14B",
        "--link=https://x.org/p",
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("Link: https://x.org/p?src=gpqa&model="),
        "{text}"
    );
}

#[test]
fn an_import_too_large_for_one_link_gives_each_deployment_its_own() {
    let big = realdata("mlenergy-leaderboard__public_data_tasks__gpqa.json");
    let args = [
        "plan",
        big.to_str().unwrap(),
        "--model",
        "Qwen/Qwen3-14B",
        "--gpu",
        "H100",
        "--gpus",
        "1",
        "--tps",
        "10",
        "--link=http://h/",
        "--json",
    ];
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("each link carries only its own deployment's sweep"),
        "{}",
        stderr(&out)
    );
    let doc = json(&out);
    let url = doc["scenario_url"].as_str().unwrap();
    let (_, fragment) = url.split_once('#').unwrap();
    let one = share::decode(shared_payload(fragment).unwrap()).unwrap();
    assert_eq!(one.sweeps.len(), 1);
    // The link's scenario opens that sweep and plans the same level there.
    let query = url.split_once('?').unwrap().1.split_once('#').unwrap().0;
    let (scenario, errors) = llm_slo_planner::core::scenario::Scenario::from_query(query, &one);
    assert!(errors.is_empty(), "{errors:?}");
    let plan = llm_slo_planner::core::plan::planner::plan(&one.sweeps[0], &scenario.slo);
    let level = plan
        .recommendation(&one.sweeps[0], &scenario.slo)
        .map(|r| r.level);
    assert_eq!(level, doc["result"]["level"].as_f64());
}

#[test]
fn a_sweep_over_8_kb_is_refused_with_the_pages_message() {
    let dir = scratch("big-sweep");
    let mut csv = String::from("model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n");
    for i in 1..=1500u32 {
        let x = f64::from(i);
        csv.push_str(&format!(
            "m,H100,1,{i},{},{}\n",
            x * 97.31 + (x * 7.3).sin(),
            5.0 + x.sqrt() * 1.37
        ));
    }
    let file = dir.join("big.csv");
    std::fs::write(&file, csv).unwrap();
    let out = run(&[
        "plan",
        file.to_str().unwrap(),
        "--tps",
        "10",
        "--link=http://h/",
    ]);
    let strict = run(&[
        "plan",
        file.to_str().unwrap(),
        "--tps",
        "10",
        "--link=http://h/",
        "--strict",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    // The answer is given and its status kept; the link is refused with the page's message.
    assert_ne!(code(&out), 2, "{}", stderr(&out));
    assert!(stdout(&out).contains("Answer: "));
    assert!(stdout(&out).contains("Link: not shared: "));
    assert!(
        stderr(&out).contains("--link: m on ")
            && stderr(&out).contains("not shared: this sweep set is too large to share by link (")
            && stderr(&out).contains("links are kept under 8 KB"),
        "{}",
        stderr(&out)
    );
    assert_eq!(code(&strict), 2);
}

#[test]
fn text_from_files_cannot_drive_the_terminal() {
    let dir = scratch("escapes");
    let file = dir.join("odd.csv");
    std::fs::write(
        &file,
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n\"esc\x1b[31mRED\x1b]0;title\x07\nnext\",H100,1,8,800,9\n",
    )
    .unwrap();
    let listed = run(&["list", file.to_str().unwrap()]);
    let planned = run(&["plan", file.to_str().unwrap(), "--tps", "10"]);
    std::fs::remove_dir_all(&dir).unwrap();
    for out in [&listed, &planned] {
        let text = stdout(out);
        assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
        assert!(text.contains("esc\\u{1b}[31mRED"), "{text}");
        assert!(!text.contains("\nnext"), "{text}");
    }
}

#[test]
fn many_files_report_progress_on_stderr() {
    let dir = std::env::temp_dir().join(format!("llm-slo-planner-cli-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("runs")).unwrap();
    let text =
        std::fs::read_to_string(realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json")))
            .unwrap();
    for i in 0..25 {
        std::fs::write(dir.join("runs").join(format!("run-{i:02}.json")), &text).unwrap();
    }
    std::fs::write(dir.join("runs").join(".hidden.json"), "not read").unwrap();
    let out = run(&["plan", dir.join("runs").to_str().unwrap(), "--tps", "10"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("llm-slo-planner: reading 25 files"),
        "{}",
        stderr(&out)
    );
    assert!(stderr(&out).contains("importing 25 files"));
}

/// A fresh folder under the temporary directory, removed by the caller.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llm-slo-planner-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_closed_or_full_stdout_never_panics() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-slo-planner"))
        .args(["plan", "--tps", "20"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    assert!(matches!(code(&out), 0..=3), "{}", code(&out));
    let full = Command::new(env!("CARGO_BIN_EXE_llm-slo-planner"))
        .args(["plan", "--tps", "20"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    assert_eq!(code(&full), 2);
    assert!(
        stderr(&full).contains("cannot write the answer"),
        "{}",
        stderr(&full)
    );
}

#[test]
fn folders_are_walked_once_without_following_symlinked_folders() {
    let dir = scratch("walk");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let file = realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json"));
    std::fs::copy(&file, runs.join("a.json")).unwrap();
    std::os::unix::fs::symlink(".", runs.join("s1")).unwrap();
    std::os::unix::fs::symlink(".", runs.join("s2")).unwrap();
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    // The same file again, by its own path: read once.
    let out = run(&[
        "plan",
        runs.to_str().unwrap(),
        runs.join("a.json").to_str().unwrap(),
        "--tps",
        "10",
    ]);
    let empty = run(&["plan", dir.join("empty").to_str().unwrap(), "--tps", "10"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(!stdout(&out).contains("duplicate"), "{}", stdout(&out));
    assert_eq!(code(&empty), 2);
    assert!(
        stderr(&empty).contains("no file to read in this folder"),
        "{}",
        stderr(&empty)
    );
}

#[test]
fn the_text_names_each_flag_once_and_gives_the_fleet_notes() {
    let folder = realdata(VLLM_FOLDER);
    let out = run(&[
        "plan",
        folder.to_str().unwrap(),
        "--tps",
        "25",
        "--rps",
        "10",
        "--price",
        "B200:3",
    ]);
    let text = stdout(&out);
    for line in text.lines() {
        let flags = line.split_whitespace().last().unwrap_or("");
        let mut names: Vec<&str> = flags.split(',').collect();
        let count = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), count, "{line}");
    }
    // Each flag shown is explained once under the table.
    assert!(
        text.contains("    duplicate: several runs at one level"),
        "{text}"
    );
    // The load is sized with its formulas; the price is for another GPU type: said.
    assert!(text.contains("demanded output = requests/s × output tokens per request at 2 = 10 × 16.00 = 160.0 tok/s"), "{text}");
    assert!(
        text.contains("GPU cost: no price given for GPU not stated"),
        "{text}"
    );
    // Several deployments end in one line each.
    assert!(text.contains("Summary (3 deployments):"), "{text}");
}

#[test]
fn limits_get_their_own_column_and_the_status_names_what_fails() {
    let folder = realdata(VLLM_FOLDER);
    let out = run(&[
        "plan",
        folder.to_str().unwrap(),
        "--cfg",
        "max_num_seqs=8",
        "--tpot",
        "40",
        "--stat",
        "tpot_p99",
        "--limit",
        "ttft_p99:10",
    ]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("even the smallest measured level fails: p99 TTFT ≤ 10 ms."),
        "{text}"
    );
    assert!(text.contains("p99 TTFT ms"), "{text}");
}

#[test]
fn list_selectors_paste_into_plan_and_links_name_the_data() {
    let file = realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json"));
    let listed = stdout(&run(&["list", file.to_str().unwrap()]));
    assert!(listed.contains("--gpu 'GPU not stated'"), "{listed}");
    assert!(listed.contains(": 1 model, 1 deployment"), "{listed}");
    let doc = json(&run(&[
        "plan",
        "--src",
        "gpqa",
        "--model",
        "Qwen/Qwen3-14B",
        "--tps",
        "20",
        "--json",
    ]));
    assert!(
        doc["scenario_url"]
            .as_str()
            .unwrap()
            .starts_with("?src=gpqa&model="),
        "{doc}"
    );
    // Without --link, an import is named by the id the page gives the same files.
    let doc = json(&run(&[
        "plan",
        file.to_str().unwrap(),
        "--tps",
        "20",
        "--json",
    ]));
    assert!(
        doc["scenario_url"]
            .as_str()
            .unwrap()
            .starts_with("?src=imp-"),
        "{doc}"
    );
}

#[test]
fn a_derived_j_per_token_is_marked_with_its_formula() {
    let dir = scratch("derived");
    let file = dir.join("power.csv");
    std::fs::write(
        &file,
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,power_w\nm,H100,1,8,800,9,400\nm,H100,1,16,1200,12,500\n",
    )
    .unwrap();
    let out = run(&["plan", file.to_str().unwrap(), "--tps", "50"]);
    std::fs::remove_dir_all(&dir).unwrap();
    let text = stdout(&out);
    // 400 W / 800 tok/s = 0.5 J/token, derived, not stored.
    assert!(text.contains("0.5000 †"), "{text}");
    assert!(
        text.contains("† J/token derived: power ÷ output throughput of the same run."),
        "{text}"
    );
}

#[test]
fn the_side_by_side_csv_follows_the_links_sort() {
    let out = run(&[
        "plan",
        "--model",
        LLAMA_8B,
        "--tps",
        "20",
        "--sort",
        "energy_j_per_token:reversed",
        "--csv",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let csv = stdout(&out);
    let mut lines = csv.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "energy_j_per_token")
        .unwrap();
    // Counted from the end: the deployment's label before it holds quoted commas.
    let from_end = header.len() - 1 - at;
    let energies: Vec<f64> = lines
        .map(|l| l.rsplit(',').nth(from_end).unwrap())
        .filter(|v| !v.is_empty())
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(energies.len() > 1, "{csv}");
    // Reversed: worst (most J/token) first.
    assert!(energies.windows(2).all(|w| w[0] >= w[1]), "{energies:?}");
    assert!(csv.contains("sort=energy_j_per_token%3Areversed"), "{csv}");
    // A cost column without a price: refused, naming this command's options.
    let unpriced = run(&[
        "plan",
        "--model",
        LLAMA_8B,
        "--tps",
        "20",
        "--sort",
        "total_cost_usd_per_mtok",
    ]);
    assert_eq!(code(&unpriced), 2);
    assert!(
        stderr(&unpriced)
            .contains("--sort: `--sort=total_cost_usd_per_mtok` needs a GPU price (`--price`)"),
        "{}",
        stderr(&unpriced)
    );
    // Every model's deployments: the link opens the page's table with "All models" on.
    let all = run(&["plan", "--tps", "20", "--csv"]);
    assert!(
        stdout(&all).starts_with("# scenario: ?tps=20&cmp=all\n"),
        "{}",
        stdout(&all)
    );
}

#[test]
fn an_inference_perf_results_folder_is_planned_and_tpot_it_cannot_trust_is_no_data() {
    let folder = realdata("inference-perf-kubecon/results");
    let folder = folder.to_str().unwrap();
    // Normalized TPOT: stage 2 (74.94 req/s) meets 20 ms at p50, stage 3 does not; the summary
    // report is a note, not a problem, so --strict passes.
    let out = run(&[
        "plan",
        folder,
        "--tpot",
        "20",
        "--stat",
        "ntpot_p50",
        "--json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(json(&out)["result"]["level"], 74.94);
    assert!(
        stderr(&out).contains(
            "note: results/summary_lifecycle_metrics.json: inference-perf's summary report: not read as a level"
        ),
        "{}",
        stderr(&out)
    );
    // The example asks for p50 TPOT: this inference-perf version timed stream lines,
    // so TPOT is left out (with the reason on stderr) and the answer is no-data, exit 3.
    let out = run(&["plan", folder, "--tpot", "5", "--stat", "tpot_p50"]);
    assert_eq!(code(&out), 3, "{}", stdout(&out));
    assert!(stderr(&out).contains("TPOT and ITL not read: the mean TPOT of 3.48 ms cannot be true"));
    assert!(
        stdout(&out).contains("It has: mean norm. TPOT, p50 norm. TPOT"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn attain_judges_each_request_and_a_sweep_without_records_is_no_data() {
    let folder = realdata("scicom-vllm-detailed");
    let folder = folder.to_str().unwrap();
    // TPOT at most 145 ms and TTFT at most 5 s per request: 50 of 50 good at 1 stream, 136 of
    // 200 at 10 (counted from the files' arrays; tests/attainment.rs).
    let args = [
        "plan",
        folder,
        "--tpot",
        "145",
        "--limit",
        "ttft_p99:5000",
        "--attain",
        "70",
    ];
    let out = run(&[&args[..], &["--json"]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    assert_eq!(doc["scenario"]["attain_percent"], 70.0);
    let r = &doc["result"];
    assert_eq!(r["level"], 1.0);
    assert_eq!(r["attainment"]["good_requests"], 50);
    assert_eq!(r["attainment"]["percent"], 100.0);
    let by_level = r["attainment_by_level"].as_array().unwrap();
    assert_eq!(by_level[1]["level"], 10.0);
    assert_eq!(by_level[1]["meets"], false);
    assert_eq!(by_level[1]["attainment"]["good_requests"], 136);
    assert_eq!(by_level[1]["attainment"]["issued_requests"], 200);
    assert_eq!(by_level[1]["attainment"]["percent"], 68.0);
    // Why the 64 others missed: 58 over the TPOT, 7 over the TTFT limit (one on both).
    let misses = [
        "tpot_misses",
        "ttft_misses",
        "e2e_misses",
        "failed_requests",
    ]
    .map(|k| by_level[1]["attainment"][k].as_u64());
    assert_eq!(misses, [Some(58), Some(7), Some(0), Some(0)]);

    let text = stdout(&run(&args));
    assert!(
        text.contains("for 70% of requests, and each request's TTFT ≤ 5,000 ms"),
        "{text}"
    );
    assert!(
        text.contains(
            "fails: 136 of 200 requests good (68%; 70% asked; missed: 58 on TPOT, 7 on TTFT)"
        ),
        "{text}"
    );
    assert!(text.contains("Attainment:"), "{text}");

    let csv = stdout(&run(&[&args[..], &["--csv"]].concat()));
    let header = csv.lines().nth(1).unwrap();
    assert!(header.contains(
        "attain_percent,attainment_percent,good_requests,issued_requests,goodput_req_s,goodput_output_tok_s,"
    ));
    let row = csv.lines().nth(2).unwrap();
    assert!(row.contains(",70,100,50,50,"), "{row}");

    // The GuideLLM report has no per-request records: not judged, exit 3, the aggregate offered.
    let guidellm = realdata("llm-d-llm-d-benchmark__tests_fixtures__guidellm_report_v2.json");
    let out = run(&[
        "plan",
        guidellm.to_str().unwrap(),
        "--tpot",
        "50",
        "--attain",
        "95",
    ]);
    assert_eq!(code(&out), 3, "{}", stdout(&out));
    assert!(
        stdout(&out).contains("this sweep has no per-request records"),
        "{}",
        stdout(&out)
    );
    // A link carries the levels, not the requests: said.
    let out = run(&[&args[..], &["--link", "https://example.org/"]].concat());
    assert!(
        stderr(&out).contains(
            "note: the link: It holds no per-request records: attain is not judged from it."
        ),
        "{}",
        stderr(&out)
    );
    // The level table names the share as given, as the answer does.
    let out = run(&["plan", folder, "--tpot", "1000", "--attain", "99.5"]);
    assert!(
        stdout(&out).contains("at TPOT for 99.5% of requests, the worst"),
        "{}",
        stdout(&out)
    );
    // A bad share is named.
    let out = run(&["plan", folder, "--tpot", "145", "--attain", "120"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("must be a percentage from 50 to 100"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_load_over_time_gives_the_periods_figures_and_max_gpus_gates_its_peak() {
    // README "Plan for a day": 10, 40, 80, 20 req/s by the hour, replicas an hour to come up.
    let base = [
        "plan",
        "--tps",
        "20",
        "--model",
        LLAMA_8B,
        "--gpu",
        "H100",
        "--gpus",
        "1",
        "--load",
        "rps:60:10,40,80,20",
        "--lag",
        "60",
        "--price",
        "2",
    ];
    let out = run(&[&base[..], &["--json"]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let period = &json(&out)["result"]["period"];
    assert_eq!(period["replicas"], serde_json::json!([2, 4, 4, 1]));
    assert_eq!(period["period_h"], 4.0);
    assert_eq!(period["peak_gpus"], 4);
    assert_eq!(period["gpu_hours"], 11.0);
    assert_eq!(period["gpu_usd"], 22.0);
    assert_eq!(period["peak_hold_gpu_hours"], 16.0);
    assert_eq!(period["saved_gpu_hours"], 5.0);
    let scenario = &json(&out)["scenario"];
    assert_eq!(scenario["load"], "rps:60:10,40,80,20");
    assert_eq!(
        (
            scenario["lag_min"].as_f64(),
            scenario["min_replicas"].as_u64()
        ),
        (Some(60.0), Some(1))
    );

    let text = stdout(&run(&base));
    assert!(text.contains("  Over the period (4 h: 4 values of 60 min, req/s; replicas 60 min to come up, at least 1):\n    Period: 4 h\n"), "{text}");
    assert!(text.contains("    Peak GPUs: 4\n      peak GPUs = peak replicas × GPUs per replica = 4 × 1 = 4\n    Mean GPUs: 2.75\n"), "{text}");
    assert!(text.contains("    GPU cost: $22.00\n      GPU $ = GPU-hours × price per GPU-hour = 11 × $2 = $22.00\n"), "{text}");
    assert!(
        text.contains("    Saved by following the load: 5 GPU-hours (31.2%, $10.00)\n"),
        "{text}"
    );
    assert!(
        text.contains("    Per day: 66 GPU-hours, $132.00\n"),
        "{text}"
    );

    // The CSV carries the period's figures as period_* columns, empty where absent.
    let csv = stdout(&run(&[&base[..], &["--csv"]].concat()));
    let mut lines = csv.lines().skip(1);
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let cells: Vec<&str> = lines.next().unwrap().rsplit(',').collect();
    // From the end: the columns after the period's (power_*, empty without a budget, and the
    // verdict's and the autoscaler's), then the period's 12.
    let after = header.len()
        - 1
        - header
            .iter()
            .position(|h| *h == "period_saved_gpu_hours")
            .unwrap();
    let period: Vec<(&str, &str)> = header
        .iter()
        .rev()
        .copied()
        .zip(cells)
        .skip(after)
        .take(12)
        .collect();
    assert_eq!(
        period,
        [
            ("period_saved_gpu_hours", "5"),
            ("period_peak_hold_gpu_hours", "16"),
            ("period_total_usd", "22"),
            ("period_co2_kg", ""),
            ("period_electricity_usd", ""),
            ("period_energy_kwh", "7.571281555595822"),
            ("period_gpu_usd", "22"),
            ("period_gpu_hours", "11"),
            ("period_mean_gpus", "2.75"),
            ("period_peak_gpus", "4"),
            ("period_peak_replicas", "4"),
            ("period_h", "4"),
        ]
    );

    let over = run(&[&base[..], &["--max-gpus", "3"]].concat());
    assert_eq!(code(&over), 1);
    assert!(stderr(&over).contains("the load's peak needs 4 GPUs, more than --max-gpus 3"));
    assert_eq!(code(&run(&[&base[..], &["--max-gpus", "4"]].concat())), 0);
    // Without a load there is nothing to gate; a bad count is named.
    let no_load = run(&["plan", "--tps", "20", "--max-gpus", "4"]);
    assert_eq!(code(&no_load), 2);
    assert!(stderr(&no_load).contains("--max-gpus needs a load (--load, --users or --rps)"));
    let bad = run(&["plan", "--tps", "20", "--max-gpus", "0"]);
    assert_eq!(code(&bad), 2);
    assert!(stderr(&bad).contains("--max-gpus: must be a whole number of GPUs above 0, got \"0\""));
}

#[test]
fn a_load_profile_csv_gives_the_same_period_as_the_load_it_holds() {
    let dir = std::env::temp_dir().join(format!("load-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Prometheus' export of the same four hours: seconds since 1970, an hour apart.
    let even = dir.join("day.csv");
    std::fs::write(
        &even,
        "timestamp,rps\n1733313600,10\n1733317200,40\n1733320800,80\n1733324400,20\n",
    )
    .unwrap();
    let base = [
        "plan", "--tps", "20", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--lag", "60",
    ];
    let out = run(&[
        &base[..],
        &["--load-profile", even.to_str().unwrap(), "--json"],
    ]
    .concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        json(&out)["result"]["period"]["replicas"],
        serde_json::json!([2, 4, 4, 1])
    );

    // Uneven timestamps are named at the first jump; a `value` column needs the kind.
    let uneven = dir.join("uneven.csv");
    std::fs::write(&uneven, "timestamp,value\n0,1\n60,2\n200,3\n").unwrap();
    let spec = format!("rps:{}", uneven.display());
    let out = run(&[&base[..], &["--load-profile", &spec]].concat());
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("the timestamps are not evenly spaced: 60 s apart until row 4, which comes 140 s after the row before"), "{}", stderr(&out));
    // Without a kind, the file's own fault comes first; an even file then needs the kind.
    let out = run(&[&base[..], &["--load-profile", uneven.to_str().unwrap()]].concat());
    assert!(
        stderr(&out).contains("uneven.csv: the timestamps are not evenly spaced"),
        "{}",
        stderr(&out)
    );
    let even = dir.join("even.csv");
    std::fs::write(&even, "timestamp,value\n0,1\n60,2\n").unwrap();
    let out = run(&[&base[..], &["--load-profile", even.to_str().unwrap()]].concat());
    assert!(stderr(&out).contains("does not say what its values count (the column is \"value\")"));
    let both = run(&[
        &base[..],
        &[
            "--load",
            "rps:60:1",
            "--load-profile",
            even.to_str().unwrap(),
        ],
    ]
    .concat());
    assert_eq!(code(&both), 2);
    assert!(stderr(&both).contains("--load-profile: give one of --load and --load-profile"));
    std::fs::remove_dir_all(&dir).unwrap();
}

const AGENTIC: [&str; 2] = [
    "ajith-sirra-amd-InferenceMAX_Rocm_Team__results_0603_sa_minimaxm2.5-fp4-mi355x-vllm-agentic-lmcache_results_bmk_agg_bmk__at_5988286.json",
    "ajith-sirra-amd-InferenceMAX_Rocm_Team__results_0604_minimaxm2.5-fp4-mi355x-vllm-agentic-lmcache_results_bmk_agg_bmk__at_5988286.json",
];

/// `compare` over the agentic files of two dates: A and B picked by `--cfg` and `--vs`.
fn compare_agentic(a: &str, b: &str, extra: &[&str]) -> Output {
    let files = AGENTIC.map(|f| realdata(f).to_string_lossy().into_owned());
    let vs = format!("cfg={b}");
    let mut args = vec![
        "compare",
        &files[0],
        &files[1],
        "--cfg",
        a,
        "--vs",
        &vs,
        "--stat",
        "tpot_mean",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

/// `compare` on the bundled data: A Llama 3.1 8B on one H100, B as `vs` selects it.
fn compare_l8(vs: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "compare", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--vs", vs,
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn the_compare_gate_fails_a_regression_and_passes_the_same_files_swapped() {
    // At 20 tok/s per user, LMCache gives 1.11× (1.110-1.117 over 2 × 2 repeats): better.
    let better = compare_agentic("offload none", "offload lmcache", &["--tps", "20"]);
    assert_eq!(code(&better), 0, "{}", stderr(&better));
    assert!(stdout(&better).contains(
        "B gives 1.11× the output per GPU of A at 20 tok/s per user (1.11-1.12 over 2 × 2 repeats): better"
    ));
    // Each figure's B/A written as the headline writes its ratio, three significant digits:
    // the same level 8 on both arms is 1.00× (not 1×), 132.3 ÷ 134.5 tok/s per GPU 0.984×.
    let table = stdout(&better);
    assert!(
        table.contains("  level                  A 8              B 8              B/A 1.00×"),
        "{table}"
    );
    assert!(table.contains("B 132.3          B/A 0.984×"), "{table}");
    let worse = compare_agentic("offload lmcache", "offload none", &["--tps", "20"]);
    assert_eq!(code(&worse), 1, "{}", stdout(&worse));
    assert!(stdout(&worse).contains("): worse"));
    // At 40 tok/s per user the arms differ within the noise: exit 0 both ways.
    let same = compare_agentic("offload lmcache", "offload none", &["--tps", "40"]);
    assert_eq!(code(&same), 0);
    assert!(stdout(&same).contains("no difference beyond the noise"));
    // Faster than either arm's first level: cannot judge, exit 3.
    let fast = compare_agentic("offload none", "offload lmcache", &["--tps", "500"]);
    assert_eq!(code(&fast), 3);
    assert!(stdout(&fast).contains("A cannot reach 500 tok/s per user"));
}

#[test]
fn compare_json_adds_result_comparison_and_csv_writes_one_row() {
    let out = compare_agentic(
        "offload none",
        "offload lmcache",
        &["--tps", "20", "--json"],
    );
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    let c = &doc["result"]["comparison"];
    assert_eq!(c["speed_tok_s"], 20.0);
    assert_eq!(c["ratio"], 1.1135952707711798);
    assert_eq!(c["ratio_low"], 1.1097675573183936);
    assert_eq!(c["ratio_high"], 1.1174338215965016);
    assert_eq!(c["interval"], "repeats");
    assert_eq!(
        (c["repeats_a"].clone(), c["repeats_b"].clone()),
        (2.into(), 2.into())
    );
    assert_eq!(c["verdict"], "better");
    assert_eq!(c["differs"], serde_json::json!(["offload"]));
    assert_eq!(c["crossover_tok_s"].as_array().map(Vec::len), Some(5));
    assert_eq!(c["only_b"], serde_json::json!([]));
    assert_eq!(c["a"]["recommended"]["level"], 8.0);
    // The plan of A is the document's own result.
    assert_eq!(doc["result"]["status"], "ok");
    let csv = compare_agentic("offload none", "offload lmcache", &["--tps", "20", "--csv"]);
    let text = stdout(&csv);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("speed_tok_s,ratio,ratio_low,ratio_high,interval,"));
    assert!(lines[0].contains(",a_energy_per_token_j,b_energy_per_token_j,a_gpus_needed,b_gpus_needed,a_total_cost_per_mtok,b_total_cost_per_mtok,answer"));
    assert!(lines[1]
        .starts_with("20,1.1135952707711798,1.1097675573183936,1.1174338215965016,repeats,2,2,"));
}

#[test]
fn compare_names_bad_input_and_exits_2() {
    let cases: [(&[&str], &str); 5] = [
        // `--tol` read as the link's `tol` is, worded as the scenario's messages are.
        (
            &["--tps", "20", "--vs", "gpu=B200&gpus=1", "--tol", "80"],
            "--tol: must be a percentage from 0 to 50 (the comparison's tolerance), got \"80\"",
        ),
        (
            &["--tps", "20", "--vs", "gpu=B200&gpus=1", "--tol", "x"],
            "--tol: must be a percentage from 0 to 50 (the comparison's tolerance), got \"x\"",
        ),
        (&["--tps", "20", "--vs", "cfg=nothing"], "--vs"),
        (&["--tps", "20"], "--vs"),
        (&["--vs", "cfg=offload none"], "give the per-user target"),
    ];
    for (args, said) in cases {
        let mut full = vec![
            "compare", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1",
        ];
        full.extend_from_slice(args);
        let out = run(&full);
        assert_eq!(code(&out), 2, "{args:?}: {}", stdout(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
    // B equal to A.
    let same = compare_agentic("offload none", "offload none", &["--tps", "20"]);
    assert_eq!(code(&same), 2);
    assert!(stderr(&same).contains("the candidate B is the deployment A itself"));
    // Another model's files.
    let files = AGENTIC.map(|f| realdata(f).to_string_lossy().into_owned());
    let other = realdata(VLLM_FOLDER).join("bench_serve_v0.25.1.json");
    let other = other.to_string_lossy();
    let out = run(&[
        "compare",
        &files[0],
        &files[1],
        "--cfg",
        "offload none",
        "--vs",
        &other,
        "--tps",
        "20",
    ]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("A and B are different models"),
        "{}",
        stderr(&out)
    );
    // B's data of several other models: said so, counted, not listed.
    let out = compare_l8("src=gpqa&gpu=B200&gpus=1", &["--tps", "25"]);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains(&format!(
            "--vs: B's data hold no deployment of {LLAMA_8B} (they hold 12 other models: `list` shows them)"
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_tolerance_is_accepted_and_refused_as_the_links_tol_is() {
    use llm_slo_planner::core::import::bundled::lm_arena_chat;
    use llm_slo_planner::core::scenario::{Front, Scenario};
    let source = lm_arena_chat();
    for tol in [
        "5", "0", "50", "2.5", "-0", "5%", "60", "-1", "x", " ", "NaN",
    ] {
        // The link's reader: the message it gives `tol`, as the command line words it.
        let query = format!(
            "model={LLAMA_8B}&gpu=H100&gpus=1&tps=25&vs=gpu%3DB200&tol={}",
            form_urlencoded::byte_serialize(tol.as_bytes()).collect::<String>()
        );
        let (_, errors) = Scenario::from_query(&query, source);
        let link: Vec<String> = errors
            .iter()
            .map(|e| format!("--{}: {}", e.param, e.detail(Front::CommandLine)))
            .collect();
        let out = run(&[
            "compare", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--vs", "gpu=B200",
            "--tps", "25", "--tol", tol,
        ]);
        match link.as_slice() {
            [] => assert_ne!(code(&out), 2, "{tol}: {}", stderr(&out)),
            [said] => {
                assert_eq!(code(&out), 2, "{tol}");
                assert!(
                    stderr(&out).starts_with(&format!("llm-slo-planner: {said}\n")),
                    "{tol}: {}",
                    stderr(&out)
                );
                assert!(said.starts_with("--tol: must be a percentage from 0 to 50"));
            }
            more => panic!("{tol}: {more:?}"),
        }
    }
}

#[test]
fn an_option_a_command_does_not_take_is_refused_with_exit_2() {
    for (args, said) in [
        (
            &["list", "--max-power", "1MW"][..],
            "llm-slo-planner: --max-power: not read by `list`\n",
        ),
        (
            &["list", "--max-gpus", "3"][..],
            "llm-slo-planner: --max-gpus: not read by `list`\n",
        ),
        (
            &[
                "compare",
                "--model",
                LLAMA_8B,
                "--vs",
                "gpu=B200",
                "--tps",
                "25",
                "--max-power",
                "1MW",
            ][..],
            "llm-slo-planner: --max-power: not read by `compare` (its gate is the verdict)\n",
        ),
    ] {
        let out = run(args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(stderr(&out), said, "{args:?}");
        assert_eq!(stdout(&out), "", "{args:?}");
    }
}

#[test]
fn compare_reads_the_bundled_data_by_selectors() {
    let out = compare_l8("gpu=B200&gpus=1", &["--tps", "25"]);
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("A and B differ in: GPU"), "{text}");
    assert!(text.contains("One run per arm measures no noise"), "{text}");
    // At 140 tok/s per user no level of A meets the target: its figures are "none", not "not
    // reported", and B/A is not written.
    let text = stdout(&compare_l8("gpu=B200&gpus=1", &["--tps", "140"]));
    assert!(
        text.contains("  level                  A none           B 32             B/A -"),
        "{text}"
    );
}

#[test]
fn a_power_budget_is_planned_and_max_power_gates_the_loads_peak() {
    let base = [
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25", "--pue", "1.2",
        "--host-w", "150",
    ];
    let with = |extra: &[&str]| run(&[&base[..], extra].concat());
    // (686.52 + 150) × 1.2 = 1,003.82 W a replica: 996 in 1 MW.
    let out = with(&["--power", "1MW", "--users", "100000", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let p = &json(&out)["result"]["power"];
    assert_eq!(p["replicas"], 996);
    assert_eq!(p["users"], 381482.22857142857);
    assert_eq!(p["tok_s_per_mw"], 9212797.690096814);
    assert_eq!(p["needed_w"], 263001.4487174763);
    assert_eq!(p["fits"], true);
    let text = stdout(&with(&["--power", "1MW"]));
    assert!(text.contains("    Replicas that fit: 996\n      replicas = floor(budget ÷ replica) = floor(1 MW ÷ 1,003.8 W) = 996\n"), "{text}");
    // The gate: 100,000 users fit in 1 MW, 1,000,000 need 2.62 MW; without a load it cannot judge.
    assert_eq!(code(&with(&["--max-power", "1MW", "--users", "100000"])), 0);
    let over = with(&["--max-power", "1MW", "--users", "1000000"]);
    assert_eq!(code(&over), 1);
    assert!(
        stderr(&over).contains(
            "the load's peak needs 2.621 MW (2,611 replicas), more than --max-power 1 MW"
        ),
        "{}",
        stderr(&over)
    );
    assert_eq!(code(&with(&["--max-power", "1MW"])), 2);
    let bad = with(&["--max-power", "1XW", "--users", "10"]);
    assert_eq!(code(&bad), 2);
    assert!(
        stderr(&bad).contains("--max-power: must be a power from 1 W to 10 GW with its unit"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_file_reporting_power_percentiles_is_provisioned_on_the_highest_and_says_which() {
    let dir = scratch("power-peak");
    let file = dir.join("runs.csv");
    // 2 x H100: mean 1,200 W, p90 1,300 W and maximum 1,400 W at concurrency 8 (the level that
    // meets 25 tok/s per user: 1000 / 30 ms = 33.3).
    std::fs::write(
        &file,
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,power_w,power_p90_w,power_max_w\n\
         m,H100,2,8,4000,30,1200,1300,1400\n\
         m,H100,2,16,6000,50,1300,1400,1500\n",
    )
    .unwrap();
    let path = file.to_string_lossy();
    let out = run(&["plan", &path, "--tps", "25", "--power", "100kW", "--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let p = &json(&out)["result"]["power"];
    // 1,400 W ÷ 2 GPUs = 700 W per GPU; a replica 1,400 W; floor(100,000 / 1,400) = 71.
    assert_eq!(p["w_per_gpu"], 700.0);
    assert_eq!(p["replicas"], 71);
    let text = stdout(&run(&["plan", &path, "--tps", "25", "--power", "100kW"]));
    assert!(
        text.contains("GPU power measured at the recommended level (maximum power, the highest the file reports): 1,400 W ÷ 2 GPUs = 700 W per GPU"),
        "{text}"
    );
    // A file without power: `measured` names it, `tdp` answers (700 W per H100).
    std::fs::write(
        &file,
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nm,H100,2,8,4000,30\n",
    )
    .unwrap();
    let none = json(&run(&[
        "plan", &path, "--tps", "25", "--power", "100kW", "--json",
    ]));
    assert!(none["result"]["power"]["error"]
        .as_str()
        .unwrap()
        .starts_with("the power at the recommended level is not reported"));
    let tdp = json(&run(&[
        "plan",
        &path,
        "--tps",
        "25",
        "--power",
        "100kW",
        "--power-basis",
        "tdp",
        "--json",
    ]));
    assert_eq!(tdp["result"]["power"]["w_per_gpu"], 700.0);
    assert_eq!(tdp["result"]["power"]["replicas"], 71);
    let _ = std::fs::remove_dir_all(&dir);
}

/// True for a control character a format writes for itself: its line ends.
fn own_line_end(c: char) -> bool {
    c == '\n'
}

#[test]
fn no_output_of_any_format_carries_a_control_character_from_a_file() {
    let dir = scratch("terminal-bytes");
    let file = dir.join("odd.csv");
    // A model id with ESC (colour, window title), BEL, CR LF and the 8-bit CSI (U+009B).
    let model = "esc\u{1b}[31mRED\u{1b}]0;title\u{7}\r\nnext\u{9b}2J";
    std::fs::write(
        &file,
        format!(
            "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\n\"{model}\",H100,1,8,800,9\n\"{model}\",H100,1,16,1500,12\n\"{model}\",B200,1,8,900,8\n\"{model}\",B200,1,16,1700,10\n"
        ),
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let plan = |extra: &[&str]| {
        let mut args = vec!["plan", path, "--tps", "10"];
        args.extend(extra);
        run(&args)
    };
    let compare = |extra: &[&str]| {
        let mut args = vec![
            "compare", path, "--gpu", "H100", "--vs", "gpu=B200", "--tps", "10",
        ];
        args.extend(extra);
        run(&args)
    };
    let outputs = [
        ("plan", plan(&[])),
        ("plan --json", plan(&["--json"])),
        ("plan --csv", plan(&["--csv"])),
        ("plan --csv --gpu H100", plan(&["--csv", "--gpu", "H100"])),
        ("list", run(&["list", path])),
        ("compare", compare(&[])),
        ("compare --json", compare(&["--json"])),
        ("compare --csv", compare(&["--csv"])),
        // A model named on the command line, said back on stderr.
        (
            "bad --model",
            run(&[
                "plan",
                path,
                "--tps",
                "10",
                "--model",
                "nope\u{1b}[31m\u{7}",
            ]),
        ),
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    for (what, out) in &outputs {
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8(bytes.clone()).unwrap();
            let raw: Vec<char> = text
                .chars()
                .filter(|c| c.is_control() && !own_line_end(*c))
                .collect();
            assert!(raw.is_empty(), "{what} {stream}: {raw:?} in {text:?}");
        }
    }
    let said = |i: usize| stdout(&outputs[i].1);
    // Each format keeps the text readable: ESC as `\u{1b}` (JSON: `\u001b`), the cell one line.
    assert!(said(0).contains("esc\\u{1b}[31mRED\\u{1b}]0;title\\u{7}\\u{d}\\u{a}next\\u{9b}2J"));
    assert_eq!(
        json(&outputs[1].1)[0]["scenario"]["model_id"]
            .as_str()
            .unwrap(),
        model
    );
    for i in [2, 3] {
        assert!(
            said(i).contains("esc\\u{1b}[31mRED\\u{1b}]0;title\\u{7}\\u{d}\\u{a}next\\u{9b}2J"),
            "{}",
            said(i)
        );
    }
    // One CSV line per record: the header and the two deployments (after the scenario line).
    assert_eq!(said(2).lines().count(), 4, "{}", said(2));
    assert_eq!(
        json(&outputs[6].1)["scenario"]["model_id"]
            .as_str()
            .unwrap(),
        model
    );
    assert_eq!(code(&outputs[8].1), 2);
    assert!(stderr(&outputs[8].1).contains("\"nope\\u{1b}[31m\\u{7}\" is not in the data"));
}

#[test]
fn a_line_feed_in_a_gpu_or_dataset_name_cannot_forge_a_line_and_list_selectors_paste_back() {
    let dir = scratch("line-feeds");
    let file = dir.join("odd.csv");
    // Two sweeps on a GPU whose name holds CR LF, told apart by a dataset whose name does too,
    // and one on B200.
    let (gpu, data) = ("H100\r\nFAKE: exit 0", "share\r\nFAKE: ok");
    let mut csv = String::from("model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms,dataset\n");
    for (g, d, tok_s) in [
        (gpu, data, 800),
        (gpu, "other", 700),
        ("B200", "other", 900),
    ] {
        for (level, scale, itl) in [(8, 1, 9), (16, 2, 12)] {
            csv.push_str(&format!(
                "m,\"{g}\",1,{level},{},{itl},\"{d}\"\n",
                tok_s * scale
            ));
        }
    }
    std::fs::write(&file, csv).unwrap();
    let path = file.to_str().unwrap();
    let a = [path, "--gpu", gpu, "--cfg", data, "--tps", "90"];
    let outputs = [
        ("plan", run(&[&["plan"], &a[..]].concat())),
        (
            "plan, every deployment",
            run(&["plan", path, "--tps", "10"]),
        ),
        (
            "compare",
            run(&[&["compare"], &a[..], &["--vs", "gpu=B200"]].concat()),
        ),
        ("list", run(&["list", path])),
    ];
    let escaped = ["H100\\u{d}\\u{a}FAKE: exit 0", "share\\u{d}\\u{a}FAKE: ok"];
    for (what, out) in &outputs {
        let text = stdout(out);
        assert!(
            !text.lines().any(|l| l.starts_with("FAKE")) && !text.contains('\r'),
            "{what}: {text}"
        );
        for name in escaped {
            assert!(text.contains(name), "{what}: {name} in {text}");
        }
    }
    // The comparison's arms and the warning that names the datasets keep a line each.
    let compared = stdout(&outputs[2].1);
    assert!(compared.lines().any(|l| l
        == "warning: The workloads differ: dataset share\\u{d}\\u{a}FAKE: ok in A, other in B."));
    assert!(
        compared
            .lines()
            .any(|l| l
                .starts_with("A: share\\u{d}\\u{a}FAKE: ok · 1 x H100\\u{d}\\u{a}FAKE: exit 0,"))
    );
    // Each deployment's selectors in `list` stay on its line and, pasted into a shell, pick it.
    let listed = stdout(&outputs[3].1);
    let rows: Vec<&str> = listed.lines().filter(|l| l.contains("--gpu ")).collect();
    assert_eq!(rows.len(), 3, "{listed}");
    assert!(rows.iter().any(
        |r| r.contains("--gpu $'H100\\r\\nFAKE: exit 0' --gpus 1 --cfg $'share\\r\\nFAKE: ok'")
    ));
    for row in rows {
        let (label, rest) = row.trim_start().split_once("  ").unwrap();
        let selectors = &rest[rest.find("--gpu").unwrap()..rest.find("  concurrency").unwrap()];
        let pasted = Command::new("bash")
            .arg("-c")
            .arg(format!("\"$0\" plan \"$1\" --tps 10 {selectors}"))
            .arg(env!("CARGO_BIN_EXE_llm-slo-planner"))
            .arg(path)
            .output()
            .expect("bash runs");
        assert_eq!(code(&pasted), 0, "{selectors}: {}", stderr(&pasted));
        assert_eq!(
            stdout(&pasted).lines().next(),
            Some(format!("m on {label}").as_str()),
            "{selectors}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_lone_qualifier_or_an_unmeasured_requests_at_is_named_and_plans_nothing() {
    let plan = |extra: &[&str]| {
        let base = [
            "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25",
        ];
        run(&[&base[..], extra].concat())
    };
    for (extra, said) in [
        (
            &["--power-basis", "tdp"][..],
            "llm-slo-planner: --power-basis: qualifies `--power`, which is not given: it is read only with it",
        ),
        (
            &["--host-w", "150"][..],
            "llm-slo-planner: --host-w: qualifies `--power`, which is not given: it is read only with it",
        ),
        (
            &["--lag", "60", "--users", "100"][..],
            "llm-slo-planner: --lag: qualifies `--load`, which is not given: it is read only with it",
        ),
        (
            &["--requests-at", "16"][..],
            "llm-slo-planner: --requests-at: qualifies `--attain`, which is not given: it is read only with it",
        ),
        // The bundled data have no per-request records: no level of theirs has them.
        (
            &["--attain", "95", "--requests-at", "3"][..],
            "llm-slo-planner: --requests-at: names 3, not a level of this deployment with per-request records; a page link would show the recommended level, else the first that fails",
        ),
    ] {
        let out = plan(extra);
        assert_eq!(code(&out), 2, "{extra:?}");
        assert!(
            stderr(&out).lines().any(|l| l == said),
            "{extra:?}: {}",
            stderr(&out)
        );
    }
    // With what they qualify they are read: --max-power is a budget too.
    for extra in [
        &["--power", "1MW", "--power-basis", "tdp", "--host-w", "150"][..],
        &[
            "--max-power",
            "1MW",
            "--users",
            "1000",
            "--power-basis",
            "tdp",
        ][..],
        &["--load", "users:60:100,200", "--lag", "60"][..],
    ] {
        let out = plan(extra);
        assert_eq!(code(&out), 0, "{extra:?}: {}", stderr(&out));
    }
    // A tolerance of -0 is written back as 0.
    let out = compare_l8("gpu=B200&gpus=1", &["--tps", "40", "--tol", "-0", "--json"]);
    let url = json(&out)["scenario_url"].as_str().unwrap().to_string();
    assert!(url.ends_with("&tol=0"), "{url}");
}

/// The binary run with `feed` writing its standard input from another thread (a write error,
/// once the binary stops reading, ends the feed).
fn run_fed(args: &[&str], feed: impl FnOnce(&mut dyn std::io::Write) + Send + 'static) -> Output {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_llm-slo-planner"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || feed(&mut stdin));
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

/// Writes `line` again and again, at most `cap` bytes (as `yes` would, bounded for the test).
fn endless(line: &'static [u8], cap: usize) -> impl FnOnce(&mut dyn std::io::Write) + Send {
    move |w| {
        let block = line.repeat(64 * 1024 / line.len());
        let mut written = 0;
        while written < cap && w.write_all(&block).is_ok() {
            written += block.len();
        }
    }
}

#[test]
fn endless_standard_input_stops_at_the_size_limit_with_the_size_message() {
    // `yes |`, `/dev/zero`, and a load profile read from an endless stdin: 32 MB read, then
    // the size message (the feed is capped at 200 MB so a regression ends too).
    const CAP: usize = 200 * 1024 * 1024;
    let past = "not read: it goes on past the 32.0 MB one imported file may have";
    let yes = run_fed(&["plan", "-", "--tps", "10"], endless(b"y\n", CAP));
    let zero = run_fed(&["plan", "-", "--tps", "10"], endless(b"\0", CAP));
    let load = run_fed(
        &["plan", "--tps", "10", "--load-profile", "/dev/stdin"],
        endless(b"0,1\n", CAP),
    );
    for out in [&yes, &zero] {
        assert_eq!(code(out), 2);
        assert_eq!(
            stderr(out),
            format!("llm-slo-planner: stdin: {past} (its size is not known before it is read)\n{NOTHING_USABLE}\n")
        );
    }
    assert_eq!(code(&load), 2);
    assert_eq!(
        stderr(&load),
        format!("llm-slo-planner: --load-profile: /dev/stdin: {past} (its size is not known before it is read)\n")
    );
}

#[test]
fn standard_input_is_streamed_as_a_file_of_its_size_is() {
    // A vLLM result followed by 40 MB of white space: over the 32 MB of a text, read as a
    // stream as the same file is (standard input had a 32 MB cap).
    let file = realdata(&format!("{VLLM_FOLDER}/bench_serve_v0.25.1.json"));
    let text = std::fs::read(&file).unwrap();
    let piped = run_fed(&["plan", "-", "--tps", "10", "--json"], move |w| {
        let _ = w.write_all(&text);
        let spaces = vec![b' '; 1024 * 1024];
        for _ in 0..40 {
            let _ = w.write_all(&spaces);
        }
    });
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    assert_eq!(
        stderr(&piped),
        "llm-slo-planner: reading stdin as a stream\n"
    );
    let read = run(&["plan", file.to_str().unwrap(), "--tps", "10", "--json"]);
    assert_eq!(json(&piped)["result"], json(&read)["result"]);
    // A small input is read as a text, as a small file is.
    let small = std::fs::read(&file).unwrap();
    let piped = run_fed(&["plan", "-", "--tps", "10", "--json"], move |w| {
        let _ = w.write_all(&small);
    });
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    assert_eq!(stderr(&piped), "");
    assert_eq!(json(&piped)["result"], json(&read)["result"]);
}

#[test]
fn a_binary_file_that_starts_like_json_is_named_not_text() {
    // 5 MB: read as a stream (large and starting with `{`), then named by its first bytes.
    let dir = scratch("binary-brace");
    let mut bytes = b"{".to_vec();
    let mut x: u32 = 1;
    bytes.extend((0..5 * 1024 * 1024).map(|_| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (x >> 24) as u8
    }));
    let large = dir.join("large.json");
    std::fs::write(&large, &bytes).unwrap();
    let small = dir.join("small.json");
    std::fs::write(&small, &bytes[..2000]).unwrap();
    let outs = [
        run(&["plan", large.to_str().unwrap(), "--tps", "10"]),
        run(&["plan", small.to_str().unwrap(), "--tps", "10"]),
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    for (out, name) in outs.iter().zip(["large.json", "small.json"]) {
        assert_eq!(code(out), 2);
        let err = stderr(out);
        assert!(
            err.ends_with(&format!("llm-slo-planner: {name}: not a text file (a benchmark result is JSON, JSON lines or CSV)\n{NOTHING_USABLE}\n")),
            "{err}"
        );
        assert!(!err.contains("not valid JSON"), "{err}");
    }
}

#[test]
fn the_json_carries_the_answer_and_every_warning_and_note_with_its_file() {
    let dir = scratch("json-said");
    let csv = dir.join("runs.csv");
    // Row 3 has no throughput: a warning of runs.csv, row 3.
    std::fs::write(
        &csv,
        "model,gpu,num_gpus,concurrency,output_tok_s,p50_itl_ms\nm,H100,1,8,800,9\nm,H100,1,16,,12\nm,H100,1,32,2400,30\n",
    )
    .unwrap();
    let out = run(&["plan", csv.to_str().unwrap(), "--tps", "50", "--json"]);
    let no_data = run(&[
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "10", "--stat",
        "tpot_p90", "--json",
    ]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    // The text's answer: run at 8 (9 ms = 111 tok/s meets 50; 32 at 30 ms = 33 fails).
    assert_eq!(
        doc["result"]["answer"],
        serde_json::json!({
            "sentence": "run at 8 concurrency",
            "reason": "Meets the target at every level up to 8; 32 fails: target."
        })
    );
    let warnings = doc["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0]["file"], "runs.csv");
    assert_eq!(warnings[0]["row"], 3);
    // Each is said on stderr too, located.
    let text = warnings[0]["text"].as_str().unwrap();
    assert!(
        stderr(&out).contains(&format!("warning: runs.csv, row 3: {text}")),
        "{}",
        stderr(&out)
    );
    // A sweep that cannot be judged says why, and the command's own note is data too.
    assert_eq!(code(&no_data), 3);
    let doc = json(&no_data);
    assert_eq!(doc["result"]["status"], "no-data");
    assert_eq!(
        doc["result"]["answer"],
        serde_json::json!({
            "sentence": "no level to recommend",
            "reason": "No data: this sweep reports no p90 TPOT. It has: p50 ITL, p90 ITL, p95 ITL, p99 ITL, throughput ÷ concurrency."
        })
    );
    assert_eq!(doc["warnings"], serde_json::json!([]));
    assert_eq!(
        doc["notes"],
        serde_json::json!([{
            "file": null,
            "row": null,
            "flag": null,
            "text": format!("1 other deployment of {LLAMA_8B} is not planned: --gpu, --gpus and --cfg pick one (`list` shows them); without --model, --gpu, --gpus and --cfg every deployment is planned")
        }])
    );
}

/// The InferenceX API rows, the mori-sglang deployment of entry 200 (16 P + 8 D GPUs).
fn mori_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "plan",
        "--model",
        "dsr1",
        "--gpu",
        "mi355x",
        "--gpus",
        "24",
        "--cfg",
        "2026-05-28",
        "--tps",
        "10",
        "--stat",
        "tpot_p50",
        "--price",
        "2",
    ];
    args.extend_from_slice(extra);
    args
}

#[test]
fn a_disaggregated_deployment_is_costed_by_role_and_against_an_api() {
    let file = realdata("inferencex-app__cypress_fixtures_api__benchmarks.json");
    let file = file.to_str().unwrap();
    let args: Vec<&str> = mori_args(&["--api", "1.25:10:0.125", "--cached", "0.5", "--json"])
        .into_iter()
        .chain([file])
        .collect();
    let out = run(&args);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let doc = json(&out);
    let roles = &doc["deployment"]["roles"];
    assert_eq!(roles["prefill"]["gpus"], 16);
    assert_eq!(roles["prefill"]["workers"], 2);
    assert_eq!(roles["decode"]["gpus"], 8);
    assert_eq!(roles["decode"]["attention_dp"], true);
    let r = &doc["result"];
    assert_eq!(r["level"], 2048.0);
    assert_eq!(r["throughput_tok_s"], 1_186.247_252_992_547_8 * 8.0);
    assert_eq!(
        r["throughput_per_gpu_tok_s"],
        1_186.247_252_992_547_8 * 8.0 / 24.0
    );
    assert_eq!(
        r["roles"]["output_tok_s_per_decode_gpu"],
        1_186.247_252_992_547_8
    );
    assert_eq!(
        r["roles"]["decode_role_energy_j_per_output_token"],
        0.685_255
    );
    let c = &r["cost"];
    assert_eq!(c["input_tokens_per_request"], 8192.0);
    assert_eq!(c["input_tokens_source"], "stated");
    assert_eq!(c["replica_usd_per_hour"], 48.0);
    assert_eq!(c["api_usd_per_request"], 0.015_872);
    let usd = 48.0 / (1_186.247_252_992_547_8 * 8.0 * 3600.0 / 1024.0);
    assert_eq!(c["usd_per_request"], usd);
    assert_eq!(c["vs_api"], usd / 0.015_872);
    assert_eq!(c["break_even_utilisation"], usd / 0.015_872);
    // The text says the same, with each formula.
    let text_args: Vec<&str> = mori_args(&["--api", "1.25:10:0.125", "--cached", "0.5"])
        .into_iter()
        .chain([file])
        .collect();
    let text = stdout(&run(&text_args));
    for line in [
        "  Disaggregated: 16 prefill + 8 decode GPUs; tok/s per GPU divides by all 24.",
        "  At 2,048: 1,186.2 output tok/s per decode GPU, 4,740.1 input tok/s per prefill GPU.",
        "    Cost per request: $0.00144 per request, the level running full",
        "    Self-hosted ÷ API: 0.0906× the API's cost per request",
        "    Break-even utilisation: 9.1% of this level's throughput, on average",
        "    Tokens per request: 8,192 in, 1,024 out; the workload's stated isl and osl, not measured by the file: each request is costed as exactly this long.",
    ] {
        assert!(text.contains(&format!("{line}\n")), "{line}\nnot in:\n{text}");
    }
    // A bad api is named and the rest stands (exit 2 as every bad parameter).
    let bad: Vec<&str> = mori_args(&["--api", "1.25"])
        .into_iter()
        .chain([file])
        .collect();
    let out = run(&bad);
    assert_eq!(code(&out), 2);
    assert!(
        stderr(&out).contains("--api: must be two or three prices"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn autoscaler_keda_prints_the_pages_scaled_object_and_the_json_its_fields() {
    use llm_slo_planner::core::import::bundled::lm_arena_chat;
    use llm_slo_planner::core::plan::planner::plan;
    use llm_slo_planner::core::scenario::Scenario;
    use llm_slo_planner::core::wire::export::keda_yaml;
    let base = "http://127.0.0.1:8000/";
    let args = [
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "25", "--users",
        "1000",
    ];
    let out = run(&[&args[..], &["--autoscaler", "keda", "--link", base]].concat());
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    // The document the page's download writes for the same link.
    let source = lm_arena_chat();
    let query =
        "model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=25&stat=p50&users=1000";
    let (scenario, _) = Scenario::from_query(query, source);
    let i = scenario.sweep_index(source).unwrap();
    let p = plan(&source.sweeps[i], &scenario.slo);
    let page = keda_yaml(source, &scenario, i, &p, &format!("{base}?{query}")).unwrap();
    assert_eq!(stdout(&out), page);
    // --json: result.autoscaler, result.why and result.levels.
    let doc = json(&run(&[&args[..], &["--json"]].concat()));
    let a = &doc["result"]["autoscaler"];
    assert_eq!(a["metric"], "vllm:num_requests_running");
    assert_eq!(a["threshold"], 383.01428571428573);
    assert_eq!(
        (&a["min_replicas"], &a["max_replicas"]),
        (&1.into(), &3.into())
    );
    let why = &doc["result"]["why"];
    assert_eq!(why["verdict"], serde_json::json!(["headroom"]));
    assert_eq!(why["next_level"], 512.0);
    let levels = doc["result"]["levels"].as_array().unwrap();
    assert_eq!(
        levels[0]["signals"]["running_mean"],
        serde_json::Value::Null
    );
    assert_eq!(levels[0]["verdict"], serde_json::json!(["headroom"]));
    // An unknown autoscaler is named.
    let out = run(&[&args[..], &["--autoscaler", "hpa"]].concat());
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("--autoscaler: takes `keda`"));
    // No level meets 500 tok/s per user: no autoscaler is written, said on stderr, and the exit
    // status is the plan's (1 unattainable), as --json's is.
    let fast = [
        "plan", "--model", LLAMA_8B, "--gpu", "H100", "--gpus", "1", "--tps", "500",
    ];
    let out = run(&[&fast[..], &["--autoscaler", "keda"]].concat());
    assert_eq!((code(&out), stdout(&out).as_str()), (1, ""));
    assert!(stderr(&out).contains("no autoscaler: no measured level meets the target"));
    assert_eq!(code(&run(&[&fast[..], &["--json"]].concat())), 1);
    // A statistic the data lack: exit 3, and the reason is the data's, not the target's.
    let out = run(&[&args[..], &["--stat", "tpot_p99", "--autoscaler", "keda"]].concat());
    assert_eq!(code(&out), 3);
    assert!(
        stderr(&out).contains("no autoscaler: No data: this sweep reports no p99 TPOT."),
        "{}",
        stderr(&out)
    );
}
