//! Why a URL parameter could not be used as given: a [`ParamError`] is the parameter and a
//! [`ParamErrorKind`] with typed fields (the value, the fallback shown), worded once for each
//! front ([`Front`]): the page names parameters as a link does (`` `price` ``), the command
//! line as its options (`` `--price` ``).

use std::fmt;

use super::values::{PriceError, ValueError};
use crate::core::model::limits::{MAX_LIMITS, MAX_PARAMS};
use crate::core::model::sweep::Statistic;
use crate::core::plan::compare::Column;

/// Where a message is read: it names parameters and the fallback the way that front does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Front {
    /// The page: parameters as in a link (`` `gpus` ``); it goes on with a fallback ("showing").
    Page,
    /// The command line: parameters as options (`` `--kwh-price` ``); it plans nothing instead.
    CommandLine,
}

impl Front {
    /// `key` as this front names it, in backticks.
    fn key(self, key: &str) -> String {
        match self {
            Front::Page => format!("`{key}`"),
            Front::CommandLine => format!("`--{}`", key.replace('_', "-")),
        }
    }

    /// `key=value` as this front writes it, in backticks.
    fn key_value(self, key: &str, value: &str) -> String {
        match self {
            Front::Page => format!("`{key}={value}`"),
            Front::CommandLine => format!("`--{}={value}`", key.replace('_', "-")),
        }
    }

    /// What the front does instead of the value it cannot use.
    fn showing(self) -> &'static str {
        match self {
            Front::Page => "showing",
            Front::CommandLine => "a page link would show",
        }
    }
}

/// What a sorted column of the side-by-side table needs and the scenario lacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    /// A load (`users` or `rps`).
    Load,
    /// A GPU price (`price`).
    Price,
    /// Both.
    LoadAndPrice,
    /// An API's price (`api`).
    Api,
    /// A GPU price and an API's price.
    PriceAndApi,
}

/// What was wrong with a parameter, with the values a message names. Values typed by a user
/// are shortened to 40 characters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamErrorKind {
    /// More than [`MAX_PARAMS`] parameters: the first are read (`param` is empty).
    TooManyParams,
    /// A parameter without a name (`param` is empty).
    Nameless {
        /// Its value.
        value: String,
    },
    /// A parameter other than `limit` given more than once: the first is read.
    Repeated,
    /// A parameter this planner does not read.
    Unknown,
    /// A value that cannot be read.
    Invalid(ValueError),
    /// Both `tps` and `tpot`: the second (`param`) is ignored.
    TargetTwice,
    /// The same `limit` twice: it counts once.
    LimitRepeated {
        /// The limit as given.
        value: String,
    },
    /// Two limits on one statistic: the tightest applies.
    LimitTightest {
        /// The statistic.
        stat: Statistic,
    },
    /// More than [`MAX_LIMITS`] limits: the rest are ignored.
    TooManyLimits,
    /// Entries of `price` not used as given; the others apply.
    Prices(Vec<PriceError>),
    /// Both `users` and `rps`: `users` sizes the fleet (`param` is `rps`).
    UsersAndRps,
    /// `y=cost` without a GPU price: the chart shows tok/s per GPU.
    CostNeedsPrice,
    /// `sort` on a cost column the scenario cannot fill: the table keeps its own order.
    SortNeeds {
        /// The column.
        column: Column,
        /// What it needs.
        needs: Needs,
    },
    /// `model` not in the data.
    ModelNotInData {
        /// The model as given.
        value: String,
        /// The model shown instead.
        shown: String,
    },
    /// `gpu` not measured for the model.
    GpuNotMeasured {
        /// The GPU type as given.
        value: String,
        /// The GPU type shown instead.
        shown: String,
    },
    /// `gpus` not measured on the GPU type for the model.
    GpusNotMeasured {
        /// The count as given.
        count: u32,
        /// The GPU type.
        gpu: String,
        /// The count shown instead; `None`: the sweep without a stated count.
        shown: Option<u32>,
    },
    /// `cfg`, a label from an older link, matches several sweeps: the first is shown.
    CfgAmbiguous {
        /// The configuration as given.
        value: String,
        /// How many sweeps it matches.
        matches: usize,
        /// The configuration shown.
        shown: String,
    },
    /// `stat` names a statistic the deployment shown does not report: its levels are not
    /// judged on it.
    StatNotReported {
        /// The statistic as given.
        stat: Statistic,
    },
    /// `cfg` is not a configuration of the deployment.
    CfgUnknown {
        /// The configuration as given.
        value: String,
        /// The configuration shown; `None`: the deployment's only one.
        shown: Option<String>,
    },
    /// A parameter that qualifies another (`tol` qualifies `vs`) given without it: it is not
    /// read, nor written back.
    Alone {
        /// The parameter it qualifies.
        needs: &'static str,
    },
    /// A parameter that qualifies another the link gives with a value that cannot be used: it
    /// is not written back with it.
    QualifiesUnread {
        /// The parameter it qualifies.
        needs: &'static str,
    },
    /// `requests_at` names no level of the deployment with per-request records: the requests
    /// panel shows its own first level, and the link drops it.
    RequestsAtNotMeasured {
        /// The level as given.
        level: String,
    },
}

/// A URL parameter that could not be used as given: which, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name as it appeared in the URL (shortened); empty for the link as a
    /// whole.
    pub param: String,
    /// What was wrong.
    pub kind: ParamErrorKind,
}

impl ParamError {
    /// An error of `kind` about parameter `param` (shortened to 40 characters).
    pub fn new(param: &str, kind: ParamErrorKind) -> ParamError {
        ParamError {
            param: super::values::echo(param),
            kind,
        }
    }

    /// The message for `front`, naming the parameter where its words start with it (the
    /// page's "`gpus` must be a whole number of GPUs, got \"x\"").
    pub fn message(&self, front: Front) -> String {
        let detail = self.detail(front);
        if self.leads() && !self.param.is_empty() {
            // "`limit`: at most 8 limits are read", where the name is not the subject.
            let sep = if self.kind == ParamErrorKind::TooManyLimits {
                ":"
            } else {
                ""
            };
            format!("{}{sep} {detail}", front.key(&self.param))
        } else {
            detail
        }
    }

    /// The message without the parameter's own name where it would lead: what the command line
    /// writes after `--gpus:`.
    #[allow(
        clippy::too_many_lines,
        reason = "one arm per error kind, each its message; splitting it would scatter the table"
    )]
    pub fn detail(&self, front: Front) -> String {
        let key = |k: &str| front.key(k);
        let own = key(&self.param);
        let showing = front.showing();
        match &self.kind {
            ParamErrorKind::TooManyParams => format!(
                "the link has more than {MAX_PARAMS} parameters; only the first {MAX_PARAMS} are read"
            ),
            ParamErrorKind::Nameless { value } => {
                format!("a parameter without a name (\"={value}\") is ignored")
            }
            // The command line plans nothing on it: it says what a page link would do.
            ParamErrorKind::Repeated => match front {
                Front::Page => "is given more than once; only the first is read".into(),
                Front::CommandLine => {
                    "is given more than once (a page link would read only the first)".into()
                }
            },
            ParamErrorKind::Unknown => format!("unknown parameter {own} is ignored"),
            ParamErrorKind::Invalid(error) => error.to_string(),
            ParamErrorKind::TargetTwice => match front {
                Front::Page => format!(
                    "give only one of {} or {}; {own} is ignored",
                    key("tps"),
                    key("tpot")
                ),
                Front::CommandLine => format!(
                    "give only one of {} or {} (a page link would ignore {own})",
                    key("tps"),
                    key("tpot")
                ),
            },
            ParamErrorKind::LimitRepeated { value } => {
                format!("\"{value}\" is given more than once; it counts once")
            }
            ParamErrorKind::LimitTightest { stat } => format!(
                "on {} is given more than once; the tightest bound applies",
                stat.key()
            ),
            ParamErrorKind::TooManyLimits => {
                format!("at most {MAX_LIMITS} limits are read; the rest are ignored")
            }
            ParamErrorKind::Prices(errors) => errors
                .iter()
                .enumerate()
                .map(|(i, e)| match i {
                    0 => e.to_string(),
                    _ => format!("{own} {e}"),
                })
                .collect::<Vec<_>>()
                .join("; "),
            // The command line plans nothing instead of going on, and draws no chart.
            ParamErrorKind::UsersAndRps => match front {
                Front::Page => format!(
                    "give one of {users} or {}: both are given, so {users} sizes the fleet",
                    key("rps"),
                    users = key("users")
                ),
                Front::CommandLine => {
                    format!("give one of {} or {}, not both", key("users"), key("rps"))
                }
            },
            ParamErrorKind::CostNeedsPrice => format!(
                "{} needs a GPU price ({}){}",
                front.key_value("y", "cost"),
                key("price"),
                match front {
                    Front::Page => ": the chart shows tok/s per GPU",
                    Front::CommandLine => "",
                }
            ),
            ParamErrorKind::SortNeeds { column, needs } => {
                let load = format!("a load ({} or {})", key("users"), key("rps"));
                let price = format!("a GPU price ({})", key("price"));
                format!(
                    "{} needs {}: the side-by-side table keeps its own order",
                    front.key_value("sort", column.key()),
                    match needs {
                        Needs::Load => load,
                        Needs::Price => price,
                        Needs::LoadAndPrice => format!("{load} and {price}"),
                        Needs::Api => format!("an API's price ({})", key("api")),
                        Needs::PriceAndApi => {
                            format!("{price} and an API's price ({})", key("api"))
                        }
                    }
                )
            }
            ParamErrorKind::ModelNotInData { value, shown } => {
                format!("\"{value}\" is not in the data; {showing} {shown}")
            }
            ParamErrorKind::GpuNotMeasured { value, shown } => {
                format!("\"{value}\" is not measured for this model; {showing} {shown}")
            }
            ParamErrorKind::GpusNotMeasured { count, gpu, shown } => format!(
                "{count} is not measured on {gpu} for this model; {showing} {}",
                shown.map_or_else(
                    || "the sweep without a stated count".to_string(),
                    |n| n.to_string()
                )
            ),
            ParamErrorKind::CfgAmbiguous {
                value,
                matches,
                shown,
            } => format!(
                "\"{value}\" now matches {matches} sweeps, told apart by more fields; {showing} \"{shown}\", the first"
            ),
            ParamErrorKind::StatNotReported { stat } => format!(
                "\"{}\": the data shown does not report {} for this deployment, so its levels are not judged; pick a statistic it reports under “Judged on”",
                stat.key(),
                stat.short_label()
            ),
            ParamErrorKind::CfgUnknown { value, shown } => format!(
                "\"{value}\" is not a configuration of this deployment; {showing} {}",
                shown.as_ref().map_or_else(
                    || "its only configuration".to_string(),
                    |c| format!("\"{c}\"")
                )
            ),
            ParamErrorKind::Alone { needs } => {
                format!("qualifies {}, which is not given: it is read only with it", key(needs))
            }
            ParamErrorKind::QualifiesUnread { needs } => {
                format!("qualifies {0}, whose value cannot be used (said above): it is left out of the link with {0}", key(needs))
            }
            ParamErrorKind::RequestsAtNotMeasured { level } => format!(
                "names {level}, not a level of this deployment with per-request records; {showing} the recommended level, else the first that fails"
            ),
        }
    }

    /// True when the message starts with the parameter's name ("`gpus` must be …").
    fn leads(&self) -> bool {
        !matches!(
            self.kind,
            ParamErrorKind::TooManyParams
                | ParamErrorKind::Nameless { .. }
                | ParamErrorKind::Unknown
                | ParamErrorKind::TargetTwice
                | ParamErrorKind::UsersAndRps
                | ParamErrorKind::CostNeedsPrice
                | ParamErrorKind::SortNeeds { .. }
        )
    }
}

/// The page's message ([`ParamError::message`] for [`Front::Page`]).
impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Front::Page))
    }
}

impl std::error::Error for ParamError {}
