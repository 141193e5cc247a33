//! The command line's own options, beside the scenario's parameters: one table ([`OPTIONS`]),
//! each option its name, value, help lines, the commands that take it and how its value is
//! read. The usage's "Options:" block, the parsing and the refusals of an option a command does
//! not take all come from it.

use llm_slo_planner::core::plan::anomalies::AnomalyKind;
use llm_slo_planner::core::scenario::parse_power;

use super::{Output, PlanArgs};

/// A command of the command line, by its word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subcommand {
    /// `plan`: plan each selected deployment.
    Plan,
    /// `compare`: a candidate B against a baseline A.
    Compare,
    /// `list`: the deployments of a source.
    List,
}

impl Subcommand {
    /// Every command, in the order messages name them.
    pub const ALL: [Subcommand; 3] = [Subcommand::Plan, Subcommand::Compare, Subcommand::List];

    /// The command's word: `plan`, `compare`, `list`.
    pub fn word(self) -> &'static str {
        match self {
            Subcommand::Plan => "plan",
            Subcommand::Compare => "compare",
            Subcommand::List => "list",
        }
    }

    /// The command a word names.
    pub fn from_word(word: &str) -> Option<Subcommand> {
        Subcommand::ALL.into_iter().find(|c| c.word() == word)
    }

    /// The commands as a message offers them: `` `plan`, `compare` or `list` ``.
    pub fn offered() -> String {
        let words: Vec<String> = Subcommand::ALL
            .iter()
            .map(|c| format!("`{}`", c.word()))
            .collect();
        listed(&words, "or")
    }

    /// What the refusal of a gate this command does not take adds after its name.
    fn refusal_note(self) -> &'static str {
        match self {
            Subcommand::Compare => " (its gate is the verdict)",
            Subcommand::Plan | Subcommand::List => "",
        }
    }
}

/// What the command line's own options say, as they are read.
pub struct Given {
    /// The options that land in `plan`'s arguments.
    pub plan: PlanArgs,
    /// The answer formats asked for (`--json`, `--csv`, `--autoscaler keda`), each with its
    /// option's name: at most one is read.
    pub outputs: Vec<Output>,
}

/// Checks an option's value (`Err`: the message naming it).
type Check = fn(&str) -> Result<(), String>;

/// How an option is read.
enum Reads {
    /// Sets the answer's format: a flag, or (with a checker of its value) an option whose value
    /// must be a word (`--autoscaler keda`).
    Format(Output, Option<Check>),
    /// A flag without a value.
    Flag(fn(&mut PlanArgs)),
    /// An option with a value, read into `plan`'s arguments (`Err`: the message naming the
    /// value).
    Value(fn(&mut PlanArgs, &str) -> Result<(), String>),
}

/// One option of the command line itself.
pub struct OwnOption {
    /// Its name after `--`, e.g. `max-power`.
    pub name: &'static str,
    /// Its value as the usage shows it after the name, separator included (` N`, `=BASE_URL`);
    /// empty for a flag.
    pub value: &'static str,
    /// Its help, one line of the usage each.
    pub help: &'static [&'static str],
    /// The commands that take it; any other refuses it.
    pub takes: &'static [Subcommand],
    /// True when it may be given more than once (each value read).
    pub repeats: bool,
    /// True when it is a gate: the run fails (exit 1) when the answer breaks it.
    pub gate: bool,
    reads: Reads,
}

/// `plan` alone.
const PLAN: &[Subcommand] = &[Subcommand::Plan];
/// `plan` and `compare`.
const ANSWERS: &[Subcommand] = &[Subcommand::Plan, Subcommand::Compare];

/// The command line's own options, in the usage's order.
pub const OPTIONS: &[OwnOption] = &[
    OwnOption {
        name: "json",
        value: "",
        help: &["the JSON document the page downloads (an array for several deployments)"],
        takes: ANSWERS,
        repeats: true,
        gate: false,
        reads: Reads::Format(Output::Json, None),
    },
    OwnOption {
        name: "csv",
        value: "",
        help: &["the side-by-side table the page downloads, as CSV"],
        takes: ANSWERS,
        repeats: true,
        gate: false,
        reads: Reads::Format(Output::Csv, None),
    },
    OwnOption {
        name: "autoscaler",
        value: " keda",
        help: &[
            "the KEDA ScaledObject the page downloads (scale on the engine's metric, the",
            "recommended level per replica), one YAML document per deployment",
        ],
        takes: PLAN,
        repeats: true,
        gate: false,
        reads: Reads::Format(Output::Keda, Some(keda)),
    },
    OwnOption {
        name: "link",
        value: "=BASE_URL",
        help: &["print the page link of each scenario (imported data in #sweep=)"],
        takes: PLAN,
        repeats: false,
        gate: false,
        reads: Reads::Value(|p, v| {
            p.link = Some(v.to_string());
            Ok(())
        }),
    },
    OwnOption {
        name: "strict",
        value: "",
        help: &["rows that cannot be used fail the run (exit 2) instead of warning"],
        takes: ANSWERS,
        repeats: true,
        gate: false,
        reads: Reads::Flag(|p| p.strict = true),
    },
    OwnOption {
        name: "require-level",
        value: " N",
        help: &["fail (exit 1) when the recommended level is below N"],
        takes: PLAN,
        repeats: false,
        gate: true,
        reads: Reads::Value(|p, v| {
            p.require_level = Some(required_level(v)?);
            Ok(())
        }),
    },
    OwnOption {
        name: "fail-on-flag",
        value: " KIND",
        help: &["fail (exit 1) when a level up to the recommendation has this flag"],
        takes: PLAN,
        repeats: true,
        gate: true,
        reads: Reads::Value(|p, v| {
            p.fail_on_flags.push(flag_kind(v)?);
            Ok(())
        }),
    },
    OwnOption {
        name: "max-gpus",
        value: " N",
        help: &[
            "fail (exit 1) when the load's peak (--load, else --users or --rps) needs more than",
            "N GPUs",
        ],
        takes: PLAN,
        repeats: false,
        gate: true,
        reads: Reads::Value(|p, v| {
            p.max_gpus = Some(max_gpus(v)?);
            Ok(())
        }),
    },
    OwnOption {
        name: "max-power",
        value: " P",
        help: &[
            "fail (exit 1) when the load's peak needs more facility power than P (1MW, 400kW;",
            "each GPU at --power-basis, plus --host-w, times --pue)",
        ],
        takes: PLAN,
        repeats: false,
        gate: true,
        reads: Reads::Value(|p, v| {
            p.max_power_w = Some(parse_power(v).map_err(|e| format!("--max-power: {e}"))?);
            Ok(())
        }),
    },
    OwnOption {
        name: "load-profile",
        value: " [KIND:]FILE.csv",
        help: &[
            "the load over time from a CSV of timestamp,value (KIND rps or users, else the",
            "values' column names it); instead of --load",
        ],
        takes: PLAN,
        repeats: false,
        gate: false,
        reads: Reads::Value(|p, v| {
            p.load_profile = Some(v.to_string());
            Ok(())
        }),
    },
];

/// The column the options' help starts at in the usage.
const HELP_COLUMN: usize = 26;

/// The usage's "Options:" block: each option and its help, the help from [`HELP_COLUMN`], on the
/// option's line when it fits.
pub fn options_usage() -> String {
    let mut lines = Vec::new();
    for option in OPTIONS {
        let named = format!("  --{}{}", option.name, option.value);
        let mut help = option.help.iter();
        match help.next() {
            Some(first) if named.len() < HELP_COLUMN => {
                lines.push(format!("{named:<HELP_COLUMN$}{first}"));
            }
            first => {
                lines.push(named);
                lines.extend(first.map(|l| format!("{:HELP_COLUMN$}{l}", "")));
            }
        }
        lines.extend(help.map(|l| format!("{:HELP_COLUMN$}{l}", "")));
    }
    lines.join("\n")
}

/// The option named `name` (after `--`), if it is one of the command line's own.
pub fn own_option(name: &str) -> Option<&'static OwnOption> {
    OPTIONS.iter().find(|o| o.name == name)
}

impl OwnOption {
    /// Reads this option for `command` (its value from `parser` when it takes one) into `given`;
    /// `seen`: the options given before it.
    ///
    /// Errors: the command does not take it, it is given twice and is read once, two answer
    /// formats, or its value cannot be read.
    pub fn read(
        &'static self,
        command: Subcommand,
        parser: &mut lexopt::Parser,
        given: &mut Given,
        seen: &mut Vec<&'static str>,
    ) -> Result<(), String> {
        let name = format!("--{}", self.name);
        if !self.takes.contains(&command) {
            return Err(self.refusal(command));
        }
        super::once(!self.repeats && seen.contains(&self.name), &name)?;
        seen.push(self.name);
        match self.reads {
            Reads::Format(output, checked) => {
                if let Some(check) = checked {
                    check(&super::text(parser, &name)?)?;
                }
                given.outputs.push(output);
                Ok(())
            }
            Reads::Flag(set) => {
                set(&mut given.plan);
                Ok(())
            }
            Reads::Value(read) => read(&mut given.plan, &super::text(parser, &name)?),
        }
    }
}

impl OwnOption {
    /// The refusal of this option by a command that does not take it: "--max-power: not read by
    /// `list`"; a gate's refusal says what the command's gate is instead.
    pub fn refusal(&self, command: Subcommand) -> String {
        format!(
            "--{}: not read by `{}`{}",
            self.name,
            command.word(),
            if self.gate {
                command.refusal_note()
            } else {
                ""
            }
        )
    }
}

/// The refusal of an answer format `command` does not write, worded as the refusal of the option
/// that asks for it ("--autoscaler: not read by `compare`").
pub fn format_refused(output: Output, command: Subcommand) -> String {
    OPTIONS
        .iter()
        .find(|o| matches!(o.reads, Reads::Format(f, _) if f == output))
        .map_or_else(
            || format!("{output:?}: not written by `{}`", command.word()),
            |o| o.refusal(command),
        )
}

/// The gates, as the usage's exit status names them: "--require-level, --fail-on-flag, --max-gpus
/// or --max-power".
pub fn gates() -> String {
    let names: Vec<String> = OPTIONS
        .iter()
        .filter(|o| o.gate)
        .map(|o| format!("--{}", o.name))
        .collect();
    listed(&names, "or")
}

/// The refusal of two answer formats, naming those `command` writes: "give at most one of
/// --json, --csv or --autoscaler" (`plan`).
pub fn one_format(command: Subcommand) -> String {
    let names: Vec<String> = OPTIONS
        .iter()
        .filter(|o| matches!(o.reads, Reads::Format(..)) && o.takes.contains(&command))
        .map(|o| format!("--{}", o.name))
        .collect();
    format!("give at most one of {}", listed(&names, "or"))
}

/// `--autoscaler keda`: the KEDA ScaledObject.
///
/// Errors: another value, named.
fn keda(value: &str) -> Result<(), String> {
    match value.trim() {
        "keda" => Ok(()),
        other => Err(format!(
            "--autoscaler: takes `keda` (a KEDA ScaledObject), got \"{other}\""
        )),
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
            format!("--max-gpus: must be a whole number of GPUs above 0, got \"{value}\"")
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
        .ok_or_else(|| format!("--require-level: must be a positive number, got \"{value}\""))
}

/// The flag `--fail-on-flag` names, by its key.
///
/// Errors: the message listing the keys, naming the value that is none of them.
fn flag_kind(value: &str) -> Result<AnomalyKind, String> {
    AnomalyKind::ALL
        .into_iter()
        .find(|k| k.key() == value.trim())
        .ok_or_else(|| {
            format!(
                "--fail-on-flag: must be one of {}, got \"{value}\"",
                flag_keys()
            )
        })
}

/// The keys `--fail-on-flag` takes, as the usage and its message list them.
pub fn flag_keys() -> String {
    let kinds: Vec<&str> = AnomalyKind::ALL.iter().map(|k| k.key()).collect();
    kinds.join(", ")
}

/// `items` as a sentence lists them: `a, b or c` (`conjunction` `or`, `and`).
pub fn listed(items: &[String], conjunction: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {conjunction} {last}", rest.join(", ")),
    }
}
