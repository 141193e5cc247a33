//! The command line, read into a [`Command`]. The scenario's parameters are the page's URL
//! parameters under the same names (`--tps 25`, `--limit p99:150`, `--kwh-price 0.12` for
//! `kwh_price`, `--tol 5` for `tol`), taken from the page's one list of them
//! (`core::scenario::params::PARAMS`) and read by the page's own scenario reader; this module
//! only collects them. The command line's own options are one table
//! ([`options::OPTIONS`](options)).

mod options;
mod usage;

use std::ffi::OsString;
use std::path::PathBuf;

use llm_slo_planner::core::plan::anomalies::AnomalyKind;
use llm_slo_planner::core::scenario::params::{Group, PARAMS};

use options::{format_refused, one_format, own_option, Given, Subcommand};
pub use usage::usage;

/// How `plan` writes its answer on stdout.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Output {
    /// A short table per deployment, for people.
    Text,
    /// The JSON document the page's "Download JSON" writes (an array of them for several
    /// deployments).
    Json,
    /// The page's side-by-side table as CSV.
    Csv,
    /// `--autoscaler keda`: the KEDA ScaledObject the page downloads, one document per deployment.
    Keda,
}

/// How `compare` writes its answer: the formats of [`Output`] a comparison has (it has no
/// autoscaler).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComparisonOutput {
    /// The verdict and each arm's figures, for people.
    Text,
    /// The JSON document with `result.comparison`.
    Json,
    /// One row of CSV.
    Csv,
}

impl From<ComparisonOutput> for Output {
    fn from(output: ComparisonOutput) -> Output {
        match output {
            ComparisonOutput::Text => Output::Text,
            ComparisonOutput::Json => Output::Json,
            ComparisonOutput::Csv => Output::Csv,
        }
    }
}

/// `plan`: what to read, the scenario, and how to answer.
#[derive(Clone, Debug, PartialEq)]
pub struct PlanArgs {
    /// Files and folders to import (none: a bundled source, by `src`).
    pub paths: Vec<PathBuf>,
    /// Scenario parameters as URL key and value, in command-line order.
    pub params: Vec<(String, String)>,
    /// How to write the answer.
    pub output: Output,
    /// `--link=BASE_URL`: print the page link of each scenario, on this base.
    pub link: Option<String>,
    /// `--strict`: rows that cannot be used fail the run (exit 2) instead of warning.
    pub strict: bool,
    /// `--require-level N`: a recommended level below N fails (exit 1).
    pub require_level: Option<f64>,
    /// `--fail-on-flag KIND`: a level up to the recommendation with this flag fails (exit 1).
    pub fail_on_flags: Vec<AnomalyKind>,
    /// `--max-gpus N`: more GPUs at the peak of the load than N fails (exit 1).
    pub max_gpus: Option<u64>,
    /// `--max-power P` (W): more facility power at the peak of the load than P fails (exit 1).
    pub max_power_w: Option<f64>,
    /// `--load-profile [KIND:]FILE.csv`: the load over time from a monitoring tool's CSV.
    pub load_profile: Option<String>,
}

/// `compare`: the baseline A (files and selectors, as `plan` reads them) and the candidate B.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareArgs {
    /// A's files and folders (none: a bundled source, by `src`).
    pub a_paths: Vec<PathBuf>,
    /// B's files and folders, after `--vs` (none: B is in A's data, or a bundled `src`).
    pub b_paths: Vec<PathBuf>,
    /// A's scenario parameters (the target, statistic, limits, `attain`, prices, load), as URL
    /// key and value; the comparison's own as the link's: `vs` (the `--vs` values that are not
    /// files, B's selectors, joined as the link's `vs` writes them: `gpu=B200&gpus=1`) and `tol`.
    pub params: Vec<(String, String)>,
    /// How to write the answer.
    pub output: ComparisonOutput,
    /// `--strict`.
    pub strict: bool,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Plan each selected deployment.
    Plan(PlanArgs),
    /// Compare a candidate with a baseline.
    Compare(CompareArgs),
    /// List the deployments of a source: files and folders, and `src`.
    List {
        /// Files and folders to import.
        paths: Vec<PathBuf>,
        /// `--src`, when given.
        src: Option<String>,
    },
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
}

/// The command word; or, for `--help` and `--version`, the command done at once (`Err`).
///
/// Errors: no command, or an unknown one.
fn command_word(parser: &mut lexopt::Parser) -> Result<Result<Subcommand, Command>, String> {
    use lexopt::prelude::*;
    let offered = Subcommand::offered();
    Ok(Ok(match parser.next().map_err(|e| e.to_string())? {
        Some(Value(v)) => match v.to_str().and_then(Subcommand::from_word) {
            Some(command) => command,
            None => {
                return Err(format!(
                    "unknown command \"{}\": give {offered} (see --help)",
                    v.to_string_lossy()
                ))
            }
        },
        Some(Short('h') | Long("help")) => return Ok(Err(Command::Help)),
        None => return Err(format!("give a command: {offered} (see --help)")),
        Some(Short('V') | Long("version")) => return Ok(Err(Command::Version)),
        Some(other) => return Err(format!("{}: give {offered} first", other.unexpected())),
    }))
}

/// The message for a comparison's parameter (`--vs`, `--tol`) given to a command that does not
/// compare: named, not dropped.
fn compare_only(option: &str, command: Subcommand) -> String {
    format!(
        "--{option} is read by `compare` (A against a candidate B); `{}` does not compare: run llm-slo-planner compare ... --vs CANDIDATE (see --help)",
        command.word()
    )
}

/// What the arguments after the command word say.
struct Reading {
    command: Subcommand,
    given: Given,
    /// The own options given so far, by name.
    seen: Vec<&'static str>,
    /// `compare`: B as `--vs` gives it (what follows the first `--vs` is B's).
    vs: Option<Vs>,
}

/// Reads the command line (without the program name).
///
/// Errors: a message naming the argument that cannot be used.
pub fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let command = match command_word(&mut parser)? {
        Ok(word) => word,
        Err(done) => return Ok(done),
    };
    let mut r = Reading {
        command,
        given: Given {
            plan: PlanArgs::empty(),
            outputs: Vec::new(),
        },
        seen: Vec::new(),
        vs: None,
    };
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Value(path) => match r.vs.as_mut() {
                Some(b) => b.paths.push(PathBuf::from(path)),
                None => r.given.plan.paths.push(PathBuf::from(path)),
            },
            Short('h') | Long("help") => return Ok(Command::Help),
            Long(name) => {
                let name = name.to_string();
                match own_option(&name) {
                    Some(option) => {
                        option.read(command, &mut parser, &mut r.given, &mut r.seen)?;
                    }
                    None => r.param(&name, &mut parser)?,
                }
            }
            other => return Err(format!("{} (see --help)", other.unexpected())),
        }
    }
    match command {
        Subcommand::List => list(r.given),
        Subcommand::Compare => compared(r.given, r.vs),
        Subcommand::Plan => planned(r.given, Subcommand::Plan),
    }
}

impl Reading {
    /// A scenario parameter `--NAME VALUE`, as the page's list declares it: a comparison's
    /// (`--vs`, `--tol`) on `compare` only; `--vs` B's files and folders, or its selectors.
    ///
    /// Errors: an unknown option, a comparison's parameter on a command that does not compare,
    /// a second `--src`, or no value.
    fn param(&mut self, name: &str, parser: &mut lexopt::Parser) -> Result<(), String> {
        let key = name.replace('-', "_");
        let Some(param) = PARAMS.iter().find(|p| p.keys.contains(&key.as_str())) else {
            return Err(format!("unknown option --{name} (see --help)"));
        };
        if param.group == Group::Comparison && self.command != Subcommand::Compare {
            return Err(compare_only(name, self.command));
        }
        let plan = &mut self.given.plan;
        // The page's reader names every other repeat; `src` is read here, so here.
        once(
            key == "src" && plan.params.iter().any(|(k, _)| k == "src"),
            "--src",
        )?;
        let value = text(parser, &format!("--{name}"))?;
        if key == "vs" {
            self.vs.get_or_insert_with(Vs::default).add(value);
        } else {
            plan.params.push((key, value));
        }
        Ok(())
    }
}

/// B as `--vs` gives it: files and folders, and selectors.
#[derive(Default)]
struct Vs {
    paths: Vec<PathBuf>,
    selectors: Vec<String>,
}

impl Vs {
    /// A `--vs` value: selectors (`gpu=B200&gpus=1`) when it holds `=` and is no file, else a
    /// file or folder.
    fn add(&mut self, value: String) {
        if value.contains('=') && !std::path::Path::new(&value).exists() {
            self.selectors.push(value);
        } else {
            self.paths.push(PathBuf::from(value));
        }
    }
}

/// The `compare` command: `plan`'s checks on the target and format, then B, its selectors as
/// the link's `vs`.
///
/// Errors: as `plan`'s, or no `--vs`.
fn compared(given: Given, vs: Option<Vs>) -> Result<Command, String> {
    let Command::Plan(mut plan) = planned(given, Subcommand::Compare)? else {
        return Err("give the per-user target: --tps or --tpot".to_string());
    };
    let Some(vs) = vs else {
        return Err("give the candidate B with --vs: its files or folders, or its selectors (e.g. --vs 'gpu=B200&gpus=1')".to_string());
    };
    if !vs.selectors.is_empty() {
        plan.params.push(("vs".to_string(), vs.selectors.join("&")));
    }
    Ok(Command::Compare(CompareArgs {
        a_paths: plan.paths,
        b_paths: vs.paths,
        params: plan.params,
        output: match plan.output {
            Output::Text => ComparisonOutput::Text,
            Output::Json => ComparisonOutput::Json,
            Output::Csv => ComparisonOutput::Csv,
            Output::Keda => return Err(format_refused(Output::Keda, Subcommand::Compare)),
        },
        strict: plan.strict,
    }))
}

/// The `plan` command with its answer format (at most one of the formats `command` writes:
/// `--json`, `--csv` or, for `plan`, `--autoscaler`).
///
/// Errors: two formats given, no per-user target (`--tps` or `--tpot`), or a `--link` that is
/// not the page's http(s) address.
fn planned(given: Given, command: Subcommand) -> Result<Command, String> {
    let mut plan = given.plan;
    match given.outputs[..] {
        [] => {}
        [output] => plan.output = output,
        _ => return Err(one_format(command)),
    }
    if !plan.params.iter().any(|(k, _)| k == "tps" || k == "tpot") {
        return Err(
            "give the per-user target: --tps (tok/s per user) or --tpot (ms per token)".to_string(),
        );
    }
    if let Some(base) = &plan.link {
        let web = base.starts_with("http://") || base.starts_with("https://");
        if !web || base.contains(['?', '#']) || base.chars().any(char::is_whitespace) {
            return Err(format!(
                "--link must be the page's http(s) address without a query, fragment or spaces (e.g. https://example.org/planner/), got \"{base}\""
            ));
        }
    }
    Ok(Command::Plan(plan))
}

impl PlanArgs {
    /// No path, no parameter, no option: the text output.
    fn empty() -> PlanArgs {
        PlanArgs {
            paths: Vec::new(),
            params: Vec::new(),
            output: Output::Text,
            link: None,
            strict: false,
            require_level: None,
            fail_on_flags: Vec::new(),
            max_gpus: None,
            max_power_w: None,
            load_profile: None,
        }
    }
}

/// `list` takes files, folders and `--src`, nothing else (its own options are refused as they
/// are read).
fn list(given: Given) -> Result<Command, String> {
    let mut src = None;
    for (key, value) in given.plan.params {
        if key != "src" {
            return Err(format!(
                "--{}: `list` reads only files, folders and --src",
                key.replace('_', "-")
            ));
        }
        src = Some(value);
    }
    Ok(Command::List {
        paths: given.plan.paths,
        src,
    })
}

/// Refuses an option given a second time (`given`: it was given before).
fn once(given: bool, name: &str) -> Result<(), String> {
    if given {
        Err(format!("{name}: is given more than once; give it once"))
    } else {
        Ok(())
    }
}

/// An option's value as text.
fn text(parser: &mut lexopt::Parser, name: &str) -> Result<String, String> {
    let value = parser
        .value()
        .map_err(|_| format!("{name} needs a value"))?;
    value
        .into_string()
        .map_err(|v| format!("{name}: \"{}\" is not valid UTF-8", v.to_string_lossy()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use llm_slo_planner::core::scenario::param_keys;

    fn parsed(args: &[&str]) -> Result<Command, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn scenario_parameters_keep_their_url_names_and_order() {
        let Ok(Command::Plan(p)) = parsed(&[
            "plan",
            "a.json",
            "--tps",
            "25",
            "--limit=p99:150",
            "--kwh-price",
            "0.12",
            "--limit",
            "p90:80",
            "dir",
            "--json",
        ]) else {
            panic!("not a plan");
        };
        assert_eq!(p.paths, vec![PathBuf::from("a.json"), PathBuf::from("dir")]);
        assert_eq!(
            p.params,
            vec![
                ("tps".to_string(), "25".to_string()),
                ("limit".to_string(), "p99:150".to_string()),
                ("kwh_price".to_string(), "0.12".to_string()),
                ("limit".to_string(), "p90:80".to_string()),
            ]
        );
        assert_eq!(p.output, Output::Json);
    }

    #[test]
    fn the_target_is_required_and_unknown_options_are_named() {
        assert!(parsed(&["plan", "--stat", "p90"])
            .unwrap_err()
            .contains("--tps"));
        assert_eq!(
            parsed(&["plan", "--tps", "5", "--speed", "3"]).unwrap_err(),
            "unknown option --speed (see --help)"
        );
        assert_eq!(
            parsed(&["plan", "--tps"]).unwrap_err(),
            "--tps needs a value"
        );
        assert!(parsed(&["plan", "--tps", "5", "--json", "--csv"])
            .unwrap_err()
            .contains("at most one"));
        assert!(parsed(&["plan", "--tps", "5", "--fail-on-flag", "odd"])
            .unwrap_err()
            .contains("non-monotonic"));
        assert!(parsed(&["plan", "--tps", "5", "--link=http://x/?a=1"])
            .unwrap_err()
            .starts_with("--link"));
        assert!(parsed(&["frobnicate"])
            .unwrap_err()
            .contains("unknown command"));
        // A comparison's options on a command that does not compare are named, not dropped.
        for (command, option) in [("plan", "--vs"), ("plan", "--tol"), ("list", "--vs")] {
            assert_eq!(
                parsed(&[command, "--tps", "10", option, "gpu=B200"]).unwrap_err(),
                format!("{option} is read by `compare` (A against a candidate B); `{command}` does not compare: run llm-slo-planner compare ... --vs CANDIDATE (see --help)")
            );
        }
    }

    #[test]
    fn list_reads_files_and_src_only() {
        assert_eq!(
            parsed(&["list", "--src", "gpqa"]),
            Ok(Command::List {
                paths: Vec::new(),
                src: Some("gpqa".to_string())
            })
        );
        assert!(parsed(&["list", "--tps", "5"])
            .unwrap_err()
            .starts_with("--tps"));
        assert!(parsed(&["list", "--json"])
            .unwrap_err()
            .starts_with("--json"));
    }

    #[test]
    fn the_usage_lists_every_parameter_of_the_page() {
        let text = usage();
        for key in param_keys() {
            assert!(
                text.contains(&format!("--{}", key.replace('_', "-"))),
                "{key}"
            );
        }
    }

    #[test]
    fn every_own_option_is_in_the_usage_and_read_by_the_commands_of_its_table_only() {
        use options::OPTIONS;
        let text = usage();
        for option in OPTIONS {
            assert!(
                text.contains(&format!("\n  --{}{}", option.name, option.value)),
                "{}",
                option.name
            );
            for line in option.help {
                assert!(text.contains(line), "{}: {line}", option.name);
            }
            let value: &[&str] = match option.name {
                "json" | "csv" | "strict" => &[],
                "autoscaler" => &["keda"],
                "link" => &["https://x.example/"],
                "require-level" | "max-gpus" => &["3"],
                "fail-on-flag" => &["non-monotonic"],
                "max-power" => &["1MW"],
                "load-profile" => &["load.csv"],
                other => panic!("give --{other} a value here"),
            };
            for command in Subcommand::ALL {
                let mut args = vec![command.word(), "--tps", "10", "--vs", "gpu=B200"];
                args.truncate(if command == Subcommand::Compare { 5 } else { 3 });
                let name = format!("--{}", option.name);
                args.push(&name);
                args.extend_from_slice(value);
                let read = parsed(&args);
                if option.takes.contains(&command) {
                    assert!(read.is_ok(), "{args:?}: {read:?}");
                } else {
                    let note = if command == Subcommand::Compare && option.gate {
                        " (its gate is the verdict)"
                    } else {
                        ""
                    };
                    assert_eq!(
                        read,
                        Err(format!("{name}: not read by `{}`{note}", command.word())),
                        "{args:?}"
                    );
                }
            }
        }
        // `list` takes none of them.
        assert!(OPTIONS.iter().all(|o| !o.takes.contains(&Subcommand::List)));
        assert_eq!(
            parsed(&["list", "--max-power", "1MW"]),
            Err("--max-power: not read by `list`".to_string())
        );
        assert_eq!(
            parsed(&["plan", "--tps", "5", "--csv", "--autoscaler", "keda"]),
            Err("give at most one of --json, --csv or --autoscaler".to_string())
        );
        // `compare` names only the formats it writes.
        assert_eq!(
            parsed(&["compare", "a.json", "--vs", "b.json", "--tps", "5", "--json", "--csv"]),
            Err("give at most one of --json or --csv".to_string())
        );
        assert_eq!(
            parsed(&["plan", "--tps", "5", "--max-gpus", "3", "--max-gpus", "4"]),
            Err("--max-gpus: is given more than once; give it once".to_string())
        );
    }

    #[test]
    fn the_tolerance_and_the_candidates_selectors_are_the_links_parameters() {
        let Ok(Command::Compare(c)) = parsed(&[
            "compare", "a.json", "--tps", "10", "--tol", "5%", "--vs", "gpu=B200", "b.json",
            "--vs", "gpus=1",
        ]) else {
            panic!("not a comparison");
        };
        assert_eq!(c.a_paths, vec![PathBuf::from("a.json")]);
        assert_eq!(c.b_paths, vec![PathBuf::from("b.json")]);
        // Read, as every parameter, by the page's reader: `5%` is refused there as in a link.
        assert_eq!(
            c.params,
            vec![
                ("tps".to_string(), "10".to_string()),
                ("tol".to_string(), "5%".to_string()),
                ("vs".to_string(), "gpu=B200&gpus=1".to_string()),
            ]
        );
    }
}
