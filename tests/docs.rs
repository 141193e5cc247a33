//! The maps match the territory: the README's and docs' tables parse as tables, the contributor
//! recipes (`docs/contributing.md`) are the code they describe, the README names every panel the
//! page shows beneath the answer, and `docs/architecture.md`'s code map names every source file
//! (and no file that is not there).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use llm_slo_planner::core::import::bundled::lm_arena_chat;
use llm_slo_planner::core::scenario::{Front, Scenario};

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of the repository, read whole.
fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The Markdown files whose tables are checked: the README and every `docs/*.md`.
fn markdown_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// The cells of a table row: split on `|` outside code spans and not escaped (`\|`), the outer
/// pipes dropped.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim();
    let inner = inner.strip_prefix('|').unwrap_or(inner);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut out = vec![String::new()];
    let mut ticks = 0; // the length of the backtick run that opened the code span, 0 outside one
    let chars: Vec<char> = inner.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && chars.get(i + 1) == Some(&'|') {
            out.last_mut().expect("a cell").push_str("\\|");
            i += 2;
            continue;
        }
        if c == '`' {
            let run = chars[i..].iter().take_while(|&&c| c == '`').count();
            if ticks == 0 {
                ticks = run;
            } else if run == ticks {
                ticks = 0;
            }
            out.last_mut()
                .expect("a cell")
                .extend(std::iter::repeat_n('`', run));
            i += run;
            continue;
        }
        if c == '|' && ticks == 0 {
            out.push(String::new());
        } else {
            out.last_mut().expect("a cell").push(c);
        }
        i += 1;
    }
    out.into_iter().map(|c| c.trim().to_string()).collect()
}

/// True for a table's separator row (`|---|:--:|`).
fn is_separator(cells: &[String]) -> bool {
    !cells.is_empty()
        && cells.iter().all(|c| {
            let c = c.trim_matches(':');
            !c.is_empty() && c.chars().all(|ch| ch == '-')
        })
}

/// The problems of the tables of one Markdown text: every run of lines starting with `|`
/// (outside fenced code) is a header, a separator with as many cells, then rows with as many,
/// and the line after the table is blank (else it would run into the last row).
fn table_problems(name: &str, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut problems = Vec::new();
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_start().starts_with("```") {
            fenced = !fenced;
            i += 1;
            continue;
        }
        if fenced || !lines[i].trim_start().starts_with('|') {
            i += 1;
            continue;
        }
        let start = i;
        while i < lines.len() && lines[i].trim_start().starts_with('|') {
            i += 1;
        }
        let table = &lines[start..i];
        let at = |k: usize| format!("{name}:{}", start + k + 1);
        let header = cells(table[0]);
        match table.get(1).map(|l| cells(l)) {
            Some(sep) if is_separator(&sep) => {
                if sep.len() != header.len() {
                    problems.push(format!(
                        "{}: the separator has {} cells, the header {}",
                        at(1),
                        sep.len(),
                        header.len()
                    ));
                }
            }
            _ => problems.push(format!("{}: a table without a separator row", at(0))),
        }
        for (k, row) in table.iter().enumerate().skip(2) {
            let n = cells(row).len();
            if n != header.len() {
                problems.push(format!(
                    "{}: {n} cells, the header has {}",
                    at(k),
                    header.len()
                ));
            }
            if !row.trim_end().ends_with('|') {
                problems.push(format!("{}: a row that does not end with `|`", at(k)));
            }
        }
        if let Some(next) = lines.get(i) {
            if !next.trim().is_empty() {
                problems.push(format!(
                    "{}: the line after the table is not blank (it runs into the table): {next}",
                    at(i - start)
                ));
            }
        }
    }
    problems
}

#[test]
fn every_table_parses_as_a_table() {
    let mut problems = Vec::new();
    let mut tables = 0;
    for file in markdown_files() {
        let text = read(&file);
        tables += text.matches("\n|---").count();
        problems.extend(table_problems(&file, &text));
    }
    assert!(tables > 10, "found only {tables} tables");
    assert!(
        problems.is_empty(),
        "tables that do not parse:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_row_running_into_prose_is_caught() {
    let text = "| a | b |\n|---|---|\n| 1 | 2 | 3\nprose\n";
    let problems = table_problems("t", text);
    assert!(
        problems.iter().any(|p| p.contains("t:3: 3 cells")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("not blank")),
        "{problems:?}"
    );
    assert_eq!(cells(r"| `a|b` | c \| d |"), ["`a|b`", r"c \| d"]);
    assert_eq!(cells("| ``a ` | b`` | c |"), ["``a ` | b``", "c"]);
}

/// The inline code spans of a Markdown text (outside fenced code), backtick runs matched.
fn code_spans(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    let mut prose = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            prose.push_str(line);
            prose.push('\n');
        }
    }
    let chars: Vec<char> = prose.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            i += 1;
            continue;
        }
        let run = chars[i..].iter().take_while(|&&c| c == '`').count();
        let open = i + run;
        let mut j = open;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let r = chars[j..].iter().take_while(|&&c| c == '`').count();
                if r == run {
                    close = Some(j);
                    break;
                }
                j += r;
            } else {
                j += 1;
            }
        }
        match close {
            Some(c) => {
                let span: String = chars[open..c].iter().collect();
                spans.push(span.split_whitespace().collect::<Vec<_>>().join(" "));
                i = c + run;
            }
            None => i = open,
        }
    }
    spans
}

/// The fenced code blocks of a Markdown text with the given info string.
fn fenced_blocks(text: &str, info: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        match &mut current {
            None if line.trim() == format!("```{info}") => current = Some(Vec::new()),
            Some(block) if line.trim() == "```" => {
                blocks.push(block.join("\n"));
                current = None;
            }
            Some(block) => block.push(line),
            None => {}
        }
    }
    blocks
}

/// Every line of `text` with its indentation removed (blank lines dropped).
fn dedented(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_parameter_recipe_is_the_real_host_w_declaration() {
    let recipe = read("docs/contributing.md");
    let params = read("src/core/scenario/params/power.rs");
    let blocks = fenced_blocks(&recipe, "rust");
    let block = blocks
        .iter()
        .find(|b| b.contains("host_w"))
        .expect("docs/contributing.md has a ```rust block declaring host_w");
    let wanted = dedented(block);
    let lines = dedented(&params);
    let found = lines.windows(wanted.len()).any(|w| w == wanted.as_slice());
    let at = params
        .lines()
        .position(|l| l.contains("\"host_w\""))
        .map_or(0, |i| i + 1);
    assert!(
        found,
        "the ```rust block of docs/contributing.md's \"Adding a parameter\" should be host_w's \
         declaration as src/core/scenario/params/power.rs has it (see around its line {at}), line for \
         line up to indentation"
    );
    let declared: usize = files_under(&root().join("src/core/scenario"))
        .iter()
        .map(|f| {
            fs::read_to_string(f)
                .unwrap_or_default()
                .matches("keys: &[\"host_w\"]")
                .count()
        })
        .sum();
    assert_eq!(declared, 1, "the parameters declare the key host_w once");
}

#[test]
fn every_rust_block_of_the_recipes_is_in_the_code() {
    let recipe = read("docs/contributing.md");
    let sources: Vec<(String, String)> = files_under(&root().join("src"))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
        .map(|f| {
            let text = fs::read_to_string(&f).unwrap_or_default();
            (f.display().to_string(), text)
        })
        .collect();
    let blocks = fenced_blocks(&recipe, "rust");
    assert!(blocks.len() >= 2, "the recipes give their declarations");
    for block in blocks {
        let wanted = dedented(&block);
        let found = sources.iter().any(|(_, text)| {
            let lines = dedented(text);
            lines.windows(wanted.len()).any(|w| w == wanted.as_slice())
        });
        assert!(
            found,
            "this ```rust block of docs/contributing.md is in no file of src/ (line for line, up to \
             indentation); copy it again from the declaration it shows:\n{block}"
        );
    }
}

#[test]
fn the_statistic_recipe_is_a_real_line_with_90_made_75() {
    let recipe = read("docs/contributing.md");
    let statistic = read("src/core/model/statistic.rs");
    let spans = code_spans(&recipe);
    for new in [
        "(Aggregate::P75, \"p75\", \"p75\", Some(75)),",
        "P75 = Some((M::Itl, A::P75)), \"p75\", \"p75 ITL (75% of token gaps at most this)\", \"p75 ITL\";",
    ] {
        assert!(
            spans.iter().any(|s| s == new),
            "docs/contributing.md should give `{new}`"
        );
        let real = new.replace("75", "90");
        assert!(
            statistic.lines().any(|l| l.trim() == real),
            "src/core/model/statistic.rs should hold `{real}` (the recipe's line with 75 made 90)"
        );
    }
}

/// What the command line writes for the parameter errors of `query` ("--host-w: ..."), as
/// `cli/src/select.rs` words them.
fn command_line_errors(query: &str) -> Vec<String> {
    let (_, errors) = Scenario::from_query(query, lm_arena_chat());
    errors
        .iter()
        .map(|m| {
            format!(
                "--{}: {}",
                m.param.replace('_', "-"),
                m.detail(Front::CommandLine)
            )
        })
        .collect()
}

#[test]
fn what_the_parameter_recipe_says_the_command_line_does_it_does() {
    let recipe = read("docs/contributing.md");
    let spans = code_spans(&recipe);
    let (scenario, errors) = Scenario::from_query("tps=25&power=1MW&host_w=150", lm_arena_chat());
    assert!(errors.is_empty(), "{errors:?}");
    assert!(spans.iter().any(|s| s == "host_w=150"));
    assert!(scenario.to_query().contains("&host_w=150"));
    for (query, said) in [
        (
            "tps=25&power=1MW&host_w=abc",
            "--host-w: must be watts per GPU, 0 or from 0.0001 to 10,000, got \"abc\"",
        ),
        (
            "tps=25&host_w=150",
            "--host-w: qualifies `--power`, which is not given: it is read only with it",
        ),
    ] {
        assert_eq!(
            command_line_errors(query),
            [said],
            "for ?{query} the command line says what docs/contributing.md should quote"
        );
        assert!(
            spans.iter().any(|s| s == said),
            "docs/contributing.md should quote `{said}`"
        );
    }
}

/// The names the recipes add (the new format, parameter or statistic) and words in code type
/// that are not code; every other code span of `docs/contributing.md` is in the code.
const RECIPE_NEW: &[&str] = &[
    "<tool>::SPEC",
    "mod <tool>;",
    "p75",
    "p75_itl_ms",
    "p75_itl",
    "75%",
    "llm-slo-planner plan toy.json --tps 20",
    "{\"concurrency\": 8, \"output_tok_s\": 950, \"p50_itl_ms\": 21}",
    "form: { label, unit, kind, field }",
    "host_w=150",
    "\"host_w\": 150.0",
    "--host-w 150",
    "--host-w abc",
    "--host-w",
    "llm-slo-planner plan --model meta-llama/Llama-3.1-8B-Instruct --gpu H100 --gpus 1 --tps 25 --power 1MW --host-w 150 --json",
    "--host-w: must be watts per GPU, 0 or from 0.0001 to 10,000, got \"abc\"",
    "--host-w: qualifies `--power`, which is not given: it is read only with it",
    "--power",
    "run",
];

/// Every source text the recipes may cite: `src/`, `cli/src/`, `tests/`, the manifests.
fn code_text() -> String {
    let mut text = String::new();
    for dir in ["src", "cli/src", "tests", "benches"] {
        for file in files_under(&root().join(dir)) {
            if file.extension().is_some_and(|e| e == "rs") {
                text.push_str(&fs::read_to_string(&file).unwrap_or_default());
            }
        }
    }
    for file in ["Cargo.toml", "clippy.toml", "build.rs", "scripts/test.sh"] {
        text.push_str(&read(file));
    }
    text
}

/// True for a cited call (`out.push(file, …)`, `Deployment::new(level_kind)`) whose callee's
/// segments are all in the code and whose last is a function there (`fn push(`).
fn call_exists(span: &str, code: &str) -> bool {
    let Some((callee, _)) = span.split_once('(') else {
        return false;
    };
    let segments: Vec<&str> = callee.split(['.', ':']).filter(|s| !s.is_empty()).collect();
    let Some(last) = segments.last() else {
        return false;
    };
    segments.iter().all(|s| code.contains(s)) && code.contains(&format!("fn{last}("))
}

#[test]
fn every_name_the_recipes_cite_exists() {
    let recipe = read("docs/contributing.md");
    let code = code_text();
    // Compared without whitespace: rustfmt breaks a cited attribute or call over lines.
    let flat: String = code.split_whitespace().collect();
    let mut missing = Vec::new();
    for span in code_spans(&recipe) {
        if RECIPE_NEW.contains(&span.as_str()) || span.starts_with("src/core/import/<tool>") {
            continue;
        }
        // The statistic's new lines are checked by the test above.
        if span.contains("75") {
            continue;
        }
        let looks_like_path = span.contains('/') && !span.contains(' ') && span.contains('.');
        let exists = if looks_like_path {
            root().join(&span).exists()
        } else if let Some((before, _)) = span.split_once("\"...\"") {
            // `"..."` stands for any text.
            flat.contains(&before.split_whitespace().collect::<String>())
        } else {
            flat.contains(&span.split_whitespace().collect::<String>()) || call_exists(&span, &flat)
        };
        if !exists {
            missing.push(span);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/contributing.md cites in code type what the code does not have (a file, a name, a \
         signature): {missing:?}"
    );
}

/// The heading texts of the panels a page's component file draws: literal `<h2 …>"…"</h2>` and
/// `<summary>"…"</summary>` (a `format!("… {}")` heading by its words before the braces).
fn panel_headings(source: &str) -> Vec<String> {
    let mut headings = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        let inner = if line.starts_with("<h2") {
            line.split_once('>').map(|(_, r)| r)
        } else {
            line.strip_prefix("<summary>")
        };
        let Some(inner) = inner else { continue };
        let inner = inner.trim_start_matches("{format!(");
        if let Some(rest) = inner.strip_prefix('"') {
            let text = rest.split('"').next().unwrap_or_default();
            let text = text.split('{').next().unwrap_or_default();
            headings.push(text.trim().trim_end_matches(':').to_string());
        }
    }
    headings
}

/// The page's components placed by `file`'s `view!` (`<super::name::…`).
fn placed(file: &str) -> Vec<String> {
    read(file)
        .split("<super::")
        .skip(1)
        .filter_map(|s| s.split("::").next())
        .map(|m| format!("src/ui/{m}.rs"))
        .collect()
}

#[test]
fn beneath_the_answer_names_every_panel() {
    let readme = read("README.md");
    let start = readme
        .find("## Beneath the answer")
        .expect("the README has \"Beneath the answer\"");
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    // The panels beneath the answer: what the planner's results hold, and what the evidence
    // beneath the answer and below the chart draw.
    let planner = read("src/ui/planner.rs");
    let results = planner
        .split("<main")
        .nth(1)
        .expect("the planner has its <main>");
    let mut files: BTreeSet<String> = results
        .split("<super::")
        .skip(1)
        .filter_map(|s| s.split("::").next())
        .map(|m| format!("src/ui/{m}.rs"))
        .collect();
    files.extend(placed("src/ui/upper_evidence.rs"));
    files.extend(placed("src/ui/lower_evidence.rs"));
    let mut missing = Vec::new();
    let mut named = 0;
    for file in &files {
        for heading in panel_headings(&read(file)) {
            named += 1;
            if !section.contains(&heading) {
                missing.push(format!("{heading} ({file})"));
            }
        }
    }
    // The panels opened by a button ("Why it stops here", the autoscaler's targets).
    let why = read("src/ui/why.rs");
    for label in why.lines().filter_map(|l| l.trim().strip_prefix("Opens::")) {
        if let Some(text) = label.split('"').nth(3) {
            named += 1;
            if !section.contains(text) {
                missing.push(format!("{text} (src/ui/why.rs)"));
            }
        }
    }
    assert!(
        named >= 12,
        "found only {named} panel headings in {files:?}"
    );
    assert!(
        missing.is_empty(),
        "README's \"Beneath the answer\" should name these panels by their headings: {missing:?}"
    );
}

/// Every file under `dir`, recursively, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// The source files the code map must name, relative to the root: `src/**`, `cli/src/**`,
/// `cli/tests/*.rs`, `build.rs`, `benches/*`, `tests/*.rs` and `tests/*/mod.rs`, `tests/e2e/*`,
/// `scripts/*` and `public/tools-worker.js` (not the fixtures, data or generated files).
fn source_files() -> BTreeSet<String> {
    let root = root();
    let rel = |p: &Path| {
        p.strip_prefix(&root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/")
    };
    let mut files = BTreeSet::new();
    for dir in ["src", "cli/src", "cli/tests", "benches", "scripts", "tests"] {
        for file in files_under(&root.join(dir)) {
            let path = rel(&file);
            if path.starts_with("tests/fixtures/") {
                continue;
            }
            files.insert(path);
        }
    }
    files.insert("build.rs".to_string());
    files.insert("public/tools-worker.js".to_string());
    files
}

/// One section of the code map: the folders and files its heading names (from the root) and
/// its text up to the next heading.
struct Section {
    heading: String,
    folders: Vec<String>,
    files: Vec<String>,
    text: String,
}

/// The sections of `docs/architecture.md`'s "Code map". A `###` heading's code spans are paths
/// from the root; a `####` heading's are relative to its `###` heading's one folder.
fn code_map_sections(map: &str) -> Vec<Section> {
    let start = map
        .find("\n## Code map")
        .expect("architecture.md has its code map");
    let body = &map[start + 1..];
    let end = body[3..].find("\n## ").map_or(body.len(), |i| i + 3);
    let body = &body[..end];
    let mut sections: Vec<Section> = Vec::new();
    let mut parent = String::new();
    for line in body.lines() {
        let level = if line.starts_with("#### ") {
            4
        } else if line.starts_with("### ") {
            3
        } else {
            if let Some(s) = sections.last_mut() {
                s.text.push_str(line);
                s.text.push('\n');
            }
            continue;
        };
        let names = code_spans(line);
        let from = |n: &str| {
            if level == 4 {
                format!("{parent}{n}")
            } else {
                n.to_string()
            }
        };
        let folders: Vec<String> = names
            .iter()
            .filter(|n| n.ends_with('/'))
            .map(|n| from(n))
            .collect();
        let files: Vec<String> = names
            .iter()
            .filter(|n| !n.ends_with('/') && looks_like_file(n).is_some())
            .map(|n| from(n))
            .collect();
        if level == 3 {
            parent = folders.first().cloned().unwrap_or_default();
        }
        sections.push(Section {
            heading: line.to_string(),
            folders,
            files,
            text: String::new(),
        });
    }
    sections
}

/// What the code map omits and what it names in vain, each as "path (section)".
fn code_map_problems(map: &str, files: &BTreeSet<String>) -> (Vec<String>, Vec<String>) {
    let sections = code_map_sections(map);
    let mut omitted = Vec::new();
    for file in files {
        if sections.iter().any(|s| s.files.contains(file)) || is_module_tests(file) {
            continue;
        }
        // The section of the deepest folder a heading names that holds the file.
        let home = sections
            .iter()
            .flat_map(|s| s.folders.iter().map(move |f| (f, s)))
            .filter(|(f, _)| file.starts_with(f.as_str()))
            .max_by_key(|(f, _)| f.len());
        let Some((folder, section)) = home else {
            omitted.push(format!("{file} (no heading names its folder)"));
            continue;
        };
        let relative = &file[folder.len()..];
        let bare = file.rsplit('/').next().unwrap_or(file);
        let spans = code_spans(&section.text);
        if !spans
            .iter()
            .any(|s| s == relative || s == bare || s == file)
        {
            omitted.push(format!(
                "{file} (add `{relative}` under {})",
                section.heading
            ));
        }
    }
    let mut vain = Vec::new();
    let exists = |p: &str| root().join(p).exists();
    for section in &sections {
        for named in section.folders.iter().chain(&section.files) {
            if !exists(named) {
                vain.push(format!("{named} (in the heading {})", section.heading));
            }
        }
        for span in code_spans(&section.text) {
            let Some(file) = looks_like_file(&span) else {
                continue;
            };
            let found = exists(file)
                || section
                    .files
                    .iter()
                    .any(|f| f.rsplit('/').next() == Some(file))
                || section
                    .folders
                    .iter()
                    .any(|f| exists(&format!("{f}{file}")) || files_named(files, f, file));
            if !found {
                vain.push(format!("{span} (under {})", section.heading));
            }
        }
    }
    (omitted, vain)
}

/// True for a module's tests in a file of their own (`x/tests.rs` beside `x.rs`): named by
/// their module.
fn is_module_tests(file: &str) -> bool {
    file.strip_suffix("/tests.rs")
        .is_some_and(|module| root().join(format!("{module}.rs")).exists())
}

/// The file or folder a code span names, if it is one: a name with a source file's extension
/// or ending in `/`, no spaces or other code.
fn looks_like_file(span: &str) -> Option<&str> {
    const EXTENSIONS: &[&str] = &[
        ".rs", ".mjs", ".js", ".sh", ".py", ".toml", ".json", ".css", ".html",
    ];
    let plain = !span.is_empty()
        && span
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./".contains(c));
    (plain
        && (EXTENSIONS.iter().any(|e| span.ends_with(e))
            || (span.ends_with('/') && span.len() > 1)))
        .then_some(span)
}

/// True when `files` holds a file under `folder` whose name (or path below a folder of it)
/// is `name`.
fn files_named(files: &BTreeSet<String>, folder: &str, name: &str) -> bool {
    files.iter().filter(|f| f.starts_with(folder)).any(|f| {
        f.ends_with(&format!("/{}", name.trim_end_matches('/'))) || f.contains(&format!("/{name}"))
    })
}

#[test]
fn the_code_map_names_every_source_file() {
    let map = read("docs/architecture.md");
    let (omitted, vain) = code_map_problems(&map, &source_files());
    let mut message = String::new();
    if !omitted.is_empty() {
        message.push_str(&format!(
            "docs/architecture.md's code map omits {} files; name each in its folder's section (its \
             path from that folder or its bare name, in code type):\n  {}\n",
            omitted.len(),
            omitted.join("\n  ")
        ));
    }
    if !vain.is_empty() {
        message.push_str(&format!(
            "docs/architecture.md's code map names {} files or folders that are not there; remove or \
             correct them:\n  {}\n",
            vain.len(),
            vain.join("\n  ")
        ));
    }
    assert!(message.is_empty(), "{message}");
}

/// GitHub's anchor of a heading: lower case, code marks and punctuation dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim_start_matches('#')
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The relative links of a Markdown text (`[text](target)`, outside fenced code): not web
/// addresses.
fn relative_links(text: &str) -> Vec<String> {
    let mut links = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        for part in line.split("](").skip(1) {
            let Some(target) = part.split(')').next() else {
                continue;
            };
            if !target.contains("://") && !target.starts_with("mailto:") && !target.is_empty() {
                links.push(target.to_string());
            }
        }
    }
    links
}

#[test]
fn every_relative_link_reaches_its_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in markdown_files() {
        let text = read(&file);
        let dir = Path::new(&file).parent().unwrap_or(Path::new(""));
        for link in relative_links(&text) {
            checked += 1;
            let (path, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let target = if path.is_empty() {
                PathBuf::from(&file)
            } else {
                dir.join(path)
            };
            let Ok(body) = fs::read(root().join(&target)) else {
                broken.push(format!("{file}: {link} (no such file)"));
                continue;
            };
            if fragment.is_empty() {
                continue;
            }
            let body = String::from_utf8_lossy(&body);
            let found = body
                .lines()
                .filter(|l| l.starts_with('#'))
                .any(|l| anchor(l) == fragment);
            if !found {
                broken.push(format!("{file}: {link} (no heading #{fragment})"));
            }
        }
    }
    assert!(checked > 20, "found only {checked} links");
    assert!(
        broken.is_empty(),
        "links that reach nothing:\n{}",
        broken.join("\n")
    );
}

#[test]
fn anchors_are_githubs() {
    assert_eq!(
        anchor("## Is B better than A? Comparing two configurations"),
        "is-b-better-than-a-comparing-two-configurations"
    );
    assert_eq!(anchor("### `src/core/`"), "srccore");
    assert_eq!(
        anchor("## Fleet and cost (rps and prices)"),
        "fleet-and-cost-rps-and-prices"
    );
}
