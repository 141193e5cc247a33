//! The command line, read into a [`Command`]. The scenario's parameters are the page's URL
//! parameters under the same names (`--tps 25`, `--limit p99:150`, `--kwh-price 0.12` for
//! `kwh_price`), taken from the page's one list of them (`core::scenario::param_keys`) and read
//! by the page's own scenario reader; this module only collects them.

use std::ffi::OsString;
use std::path::PathBuf;

use llm_slo_planner::core::plan::anomalies::AnomalyKind;
use llm_slo_planner::core::scenario::{param_keys, parse_power};

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
    /// `--vs` values that are not files: B's selectors as the link's `vs` writes them
    /// (`gpu=B200&gpus=1`, `cfg=…`, `src=…`).
    pub vs: Vec<String>,
    /// A's scenario parameters (the target, statistic, limits, `attain`, prices, load), as URL
    /// key and value.
    pub params: Vec<(String, String)>,
    /// `--tol`, percent.
    pub tol: Option<f64>,
    /// How to write the answer.
    pub output: Output,
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

/// Options of the command line itself, beside the scenario's parameters.
const OWN_OPTIONS: &str = "  --json                  the JSON document the page downloads (an array for several deployments)
  --csv                   the side-by-side table the page downloads, as CSV
  --autoscaler keda       the KEDA ScaledObject the page downloads (scale on the engine's metric, the
                          recommended level per replica), one YAML document per deployment
  --link=BASE_URL         print the page link of each scenario (imported data in #sweep=)
  --strict                rows that cannot be used fail the run (exit 2) instead of warning
  --require-level N       fail (exit 1) when the recommended level is below N
  --fail-on-flag KIND     fail (exit 1) when a level up to the recommendation has this flag
  --max-gpus N            fail (exit 1) when the load's peak (--load, else --users or --rps) needs more GPUs
  --max-power P           fail (exit 1) when the load's peak needs more facility power than P (1MW, 400kW;
                          each GPU at --power-basis, plus --host-w, times --pue)
  --load-profile [KIND:]FILE.csv
                          the load over time from a CSV of timestamp,value (KIND rps or users, else the
                          values' column names it); instead of --load";

/// The usage text, with the scenario parameters from the page's list.
pub fn usage() -> String {
    let params: Vec<String> = param_keys()
        .into_iter()
        .map(|k| format!("--{}", k.replace('_', "-")))
        .collect();
    let kinds: Vec<&str> = AnomalyKind::ALL.iter().map(|k| k.key()).collect();
    format!(
        "llm-slo-planner: the highest concurrency that meets a per-user token-speed SLO, from measured sweeps.

Usage:
  llm-slo-planner plan [FILES_OR_FOLDERS...] (--tps S | --tpot MS) [PARAMETERS] [OPTIONS]
  llm-slo-planner list [FILES_OR_FOLDERS...] [--src SRC]
  llm-slo-planner compare [BASELINE...] --vs CANDIDATE... (--tps S | --tpot MS) [--tol PCT] [PARAMETERS]
      B against A at the target's per-user speed, beyond the noise of repeated runs. Each side is
      files or folders (A's first: every file after --vs is B's); --vs 'gpu=B200&gpus=1' (the
      link's vs: gpu, gpus, cfg, src) picks B among A's data, B's files or a bundled source;
      --model/--gpu/--gpus/--cfg pick A. --tol: percent, 0 to 50
      (default 2). Exit 0 better or no difference, 1 worse beyond the noise and the tolerance,
      3 cannot judge, 2 bad input. --json adds result.comparison; --csv one row.

Without files, the bundled ML.ENERGY data (--src lm-arena-chat, gpqa, sourcegraph-fim, image-chat,
or reference). Folders are read whole, as the page reads a picked folder.

Scenario parameters (the page's URL parameters, same names, values and defaults; - or _):
  {}
  --model, --gpu, --gpus and --cfg pick one deployment as a link would; without them, every
  deployment is planned.

Options:
{OWN_OPTIONS}
  KIND is one of: {}

Exit status: 0 ok or all-meet; 1 unattainable, or a --require-level, --fail-on-flag, --max-gpus or --max-power gate;
3 no-data (cannot judge); 2 a bad parameter, or no usable row. With several deployments, the
worst: 2, then 1, then 3, then 0.
",
        params.join(" "),
        kinds.join(", ")
    )
}

/// The command word: `plan`, `compare` or `list`; or, for `--help` and `--version`, the
/// command done at once (`Err`).
///
/// Errors: no command, or an unknown one.
fn command_word(parser: &mut lexopt::Parser) -> Result<Result<&'static str, Command>, String> {
    use lexopt::prelude::*;
    Ok(Ok(match parser.next().map_err(|e| e.to_string())? {
        Some(Value(v)) if v == "plan" => "plan",
        Some(Value(v)) if v == "list" => "list",
        Some(Value(v)) if v == "compare" => "compare",
        Some(Short('h') | Long("help")) => return Ok(Err(Command::Help)),
        None => return Err("give a command: `plan`, `compare` or `list` (see --help)".to_string()),
        Some(Short('V') | Long("version")) => return Ok(Err(Command::Version)),
        Some(Value(v)) => {
            return Err(format!(
                "unknown command \"{}\": give `plan`, `compare` or `list` (see --help)",
                v.to_string_lossy()
            ))
        }
        Some(other) => {
            return Err(format!(
                "{}: give `plan`, `compare` or `list` first",
                other.unexpected()
            ))
        }
    }))
}

/// The message for a comparison's option (`--vs`, `--tol`) given to a command that does not
/// compare: named, not dropped.
fn compare_only(option: &str, command: &str) -> String {
    format!(
        "--{option} is read by `compare` (A against a candidate B); `{command}` does not compare: run llm-slo-planner compare ... --vs CANDIDATE (see --help)"
    )
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
    let keys = param_keys();
    let mut plan = PlanArgs::empty();
    let mut outputs = Vec::new();
    // `compare`: what follows `--vs` is B's.
    let mut vs: Option<Vs> = None;
    let mut tol = None;
    while let Some(arg) = parser.next().map_err(|e| e.to_string())? {
        match arg {
            Value(path) => match vs.as_mut() {
                Some(b) => b.paths.push(PathBuf::from(path)),
                None => plan.paths.push(PathBuf::from(path)),
            },
            Long("vs") if command == "compare" => {
                vs.get_or_insert_with(Vs::default)
                    .add(text(&mut parser, "--vs")?);
            }
            Long("tol") if command == "compare" => {
                once(tol.is_some(), "--tol")?;
                tol = Some(tolerance(&text(&mut parser, "--tol")?)?);
            }
            Long(name @ ("vs" | "tol")) => return Err(compare_only(name, command)),
            Short('h') | Long("help") => return Ok(Command::Help),
            Long(flag @ ("json" | "csv")) => outputs.push(output(flag)),
            Long("autoscaler") => outputs.push(keda(&mut parser)?),
            Long("strict") => plan.strict = true,
            Long("link") => {
                once(plan.link.is_some(), "--link")?;
                plan.link = Some(text(&mut parser, "--link")?);
            }
            Long("require-level") => {
                once(plan.require_level.is_some(), "--require-level")?;
                let value = text(&mut parser, "--require-level")?;
                plan.require_level = Some(required_level(&value)?);
            }
            Long("load-profile") => {
                once(plan.load_profile.is_some(), "--load-profile")?;
                plan.load_profile = Some(text(&mut parser, "--load-profile")?);
            }
            Long("max-gpus") => {
                once(plan.max_gpus.is_some(), "--max-gpus")?;
                plan.max_gpus = Some(max_gpus(&text(&mut parser, "--max-gpus")?)?);
            }
            Long("max-power") => {
                once(plan.max_power_w.is_some(), "--max-power")?;
                let value = text(&mut parser, "--max-power")?;
                plan.max_power_w =
                    Some(parse_power(&value).map_err(|e| format!("--max-power {e}"))?);
            }
            Long("fail-on-flag") => {
                let value = text(&mut parser, "--fail-on-flag")?;
                plan.fail_on_flags.push(flag_kind(&value)?);
            }
            Long(name) => {
                let name = name.to_string();
                let key = name.replace('-', "_");
                let Some(key) = keys.iter().find(|k| **k == key) else {
                    return Err(format!("unknown option --{name} (see --help)"));
                };
                // The page's reader names every other repeat; `src` is read here, so here.
                once(
                    *key == "src" && plan.params.iter().any(|(k, _)| k == "src"),
                    "--src",
                )?;
                let value = text(&mut parser, &format!("--{name}"))?;
                plan.params.push((key.to_string(), value));
            }
            other => return Err(format!("{} (see --help)", other.unexpected())),
        }
    }
    if command == "list" {
        return list(plan, &outputs);
    }
    if command == "compare" {
        return compared(plan, vs, tol, &outputs);
    }
    planned(plan, &outputs)
}

/// The answer format `--json` or `--csv` asks for.
fn output(flag: &str) -> (Output, &'static str) {
    match flag {
        "json" => (Output::Json, "--json"),
        _ => (Output::Csv, "--csv"),
    }
}

/// `--autoscaler keda`: the KEDA ScaledObject.
///
/// Errors: another value, named.
fn keda(parser: &mut lexopt::Parser) -> Result<(Output, &'static str), String> {
    match text(parser, "--autoscaler")?.trim() {
        "keda" => Ok((Output::Keda, "--autoscaler")),
        other => Err(format!(
            "--autoscaler takes `keda` (a KEDA ScaledObject), got \"{other}\""
        )),
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

/// The value of `--tol`: a number (its range, 0 to 50, is checked by the comparison).
fn tolerance(value: &str) -> Result<f64, String> {
    value
        .trim()
        .trim_end_matches('%')
        .parse::<f64>()
        .ok()
        .filter(|t| t.is_finite())
        .ok_or_else(|| format!("--tol must be a percentage from 0 to 50, got \"{value}\""))
}

/// The `compare` command: `plan`'s checks on the target and format, then B.
///
/// Errors: as `plan`'s, no `--vs`, or an option `compare` does not read.
fn compared(
    plan: PlanArgs,
    vs: Option<Vs>,
    tol: Option<f64>,
    outputs: &[(Output, &str)],
) -> Result<Command, String> {
    let Command::Plan(plan) = planned(plan, outputs)? else {
        return Err("give the per-user target: --tps or --tpot".to_string());
    };
    let gates = plan.link.is_some()
        || plan.require_level.is_some()
        || !plan.fail_on_flags.is_empty()
        || plan.max_gpus.is_some()
        || plan.max_power_w.is_some()
        || plan.load_profile.is_some();
    if gates {
        return Err("--link, --require-level, --fail-on-flag, --max-gpus, --max-power and --load-profile: not read by `compare` (its gate is the verdict)".to_string());
    }
    let Some(vs) = vs else {
        return Err("give the candidate B with --vs: its files or folders, or its selectors (e.g. --vs 'gpu=B200&gpus=1')".to_string());
    };
    Ok(Command::Compare(CompareArgs {
        a_paths: plan.paths,
        b_paths: vs.paths,
        vs: vs.selectors,
        params: plan.params,
        tol,
        output: plan.output,
        strict: plan.strict,
    }))
}

/// The `plan` command with its answer format (at most one of `--json` or `--csv`).
///
/// Errors: both formats given, no per-user target (`--tps` or `--tpot`), or a `--link` that is
/// not the page's http(s) address.
fn planned(mut plan: PlanArgs, outputs: &[(Output, &str)]) -> Result<Command, String> {
    match outputs {
        [] => {}
        [(output, _)] => plan.output = *output,
        _ => return Err("give at most one of --json, --csv or --autoscaler".to_string()),
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

/// The value of `--max-gpus`: a whole number of GPUs above 0.
fn max_gpus(value: &str) -> Result<u64, String> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| {
            format!("--max-gpus must be a whole number of GPUs above 0, got \"{value}\"")
        })
}

/// The value of `--require-level`: a positive number.
///
/// Errors: the message naming the value that is not one.
fn required_level(value: &str) -> Result<f64, String> {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite() && *n > 0.0)
        .ok_or_else(|| format!("--require-level must be a positive number, got \"{value}\""))
}

/// The flag `--fail-on-flag` names, by its key.
///
/// Errors: the message listing the keys, naming the value that is none of them.
fn flag_kind(value: &str) -> Result<AnomalyKind, String> {
    AnomalyKind::ALL
        .into_iter()
        .find(|k| k.key() == value.trim())
        .ok_or_else(|| {
            let kinds: Vec<&str> = AnomalyKind::ALL.iter().map(|k| k.key()).collect();
            format!(
                "--fail-on-flag must be one of {}, got \"{value}\"",
                kinds.join(", ")
            )
        })
}

/// `list` takes files, folders and `--src`, nothing else.
fn list(plan: PlanArgs, outputs: &[(Output, &str)]) -> Result<Command, String> {
    let own = outputs.first().map(|(_, name)| *name).or_else(|| {
        (plan.link.is_some() || plan.strict || plan.require_level.is_some())
            .then_some("--link, --strict and --require-level")
            .or((!plan.fail_on_flags.is_empty()).then_some("--fail-on-flag"))
    });
    if let Some(name) = own {
        return Err(format!("{name}: not read by `list`"));
    }
    let mut src = None;
    for (key, value) in plan.params {
        if key != "src" {
            return Err(format!(
                "--{}: `list` reads only files, folders and --src",
                key.replace('_', "-")
            ));
        }
        src = Some(value);
    }
    Ok(Command::List {
        paths: plan.paths,
        src,
    })
}

/// Refuses an option given a second time (`given`: it was given before).
fn once(given: bool, name: &str) -> Result<(), String> {
    if given {
        Err(format!("{name} is given more than once; give it once"))
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
}
