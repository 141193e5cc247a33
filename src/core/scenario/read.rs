//! What a link's parameters say ([`Read`]), before its deployment is resolved against a source:
//! each parameter is read by its entry in [`PARAMS`] (declared in `params`).

use super::errors::{ParamError, ParamErrorKind};
use super::params::{FLEET_INPUTS, PARAMS};
use super::values::{
    echo, parse_input, parse_limit, parse_positive, parse_prices, Accepts, InputKind, ValueError,
};
use super::{Fleet, Versus, View};
use crate::core::model::limits::{MAX_LIMITS, MAX_PARAMS};
use crate::core::model::sweep::Statistic;
use crate::core::plan::compare::Column;
use crate::core::plan::planner::{Limit, Target};

/// What a link's parameters say, before its deployment is resolved against a source: the
/// deployment and the SLO as given, the fleet and the view as read.
#[derive(Default)]
pub struct Read {
    pub(super) src: Option<String>,
    pub(super) cfg: Option<String>,
    pub(super) model: Option<String>,
    pub(super) gpu: Option<String>,
    pub(super) num_gpus: Option<u32>,
    pub(super) target: Option<Target>,
    pub(super) stat: Option<Statistic>,
    pub(super) limits: Vec<Limit>,
    pub(super) attain: Option<f64>,
    pub(super) fleet: Fleet,
    pub(super) view: View,
    pub(super) versus: Versus,
}

impl Read {
    /// Reads every parameter of a query string (with or without the leading `?`), up to
    /// [`MAX_PARAMS`]: what the link says, and one error per parameter that could not be used.
    /// A parameter that qualifies another ([`Param::needs`](super::params::Param)) is read only
    /// when the link gives that one too (a bad value of it is named on its own), or it is among
    /// `beside` (given another way, as the command line's `--max-power` gives a budget); else
    /// what it lacks is named ([`ParamErrorKind::Alone`]; its value, once read beside it).
    pub(super) fn query(query: &str, beside: &[&str]) -> (Read, Vec<ParamError>) {
        let mut errors = Vec::new();
        let mut read = Read::default();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();

        let query = query.strip_prefix('?').unwrap_or(query);
        let given = |needs: &str| {
            beside.contains(&needs)
                || form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k == needs)
        };
        for (count, (key, value)) in form_urlencoded::parse(query.as_bytes()).enumerate() {
            if count == MAX_PARAMS {
                // First, so that a page listing only some messages still shows this one.
                errors.insert(0, ParamError::new("", ParamErrorKind::TooManyParams));
                break;
            }
            // A repeat, and each repeated limit, may say the same thing again: said once.
            let (read_once, result) = if key.is_empty() {
                (
                    false,
                    Err(ParamErrorKind::Nameless {
                        value: echo(&value),
                    }),
                )
            } else if key != "limit" && !seen.insert(key.to_string()) {
                (true, Err(ParamErrorKind::Repeated))
            } else {
                // Each parameter is read by its entry in PARAMS; else it is unknown.
                match PARAMS.iter().find(|p| p.keys.contains(&key.as_ref())) {
                    Some(param) => match param.needs {
                        Some(needs) if !given(needs) => {
                            (false, Err(ParamErrorKind::Alone { needs }))
                        }
                        _ => (key == "limit", (param.read)(&mut read, &key, &value)),
                    },
                    None => (false, Err(ParamErrorKind::Unknown)),
                }
            };
            if let Err(kind) = result {
                let error = ParamError::new(&key, kind);
                if read_once {
                    push_once(&mut errors, error);
                } else {
                    errors.push(error);
                }
            }
        }
        // A qualifier read beside what it qualifies, when that could not be used: named too.
        let unread: Vec<ParamError> = PARAMS
            .iter()
            .filter_map(|p| Some((p.keys[0], p.needs?)))
            .filter(|(qualifier, needs)| {
                let named = |k: &str| errors.iter().any(|e: &ParamError| e.param == k);
                given(qualifier) && !named(qualifier) && named(needs)
            })
            .map(|(qualifier, needs)| {
                ParamError::new(qualifier, ParamErrorKind::QualifiesUnread { needs })
            })
            .collect();
        errors.extend(unread);
        (read, errors)
    }

    /// `tps` or `tpot`: the target, given once in one of its units.
    pub(super) fn target(&mut self, key: &str, value: &str) -> Result<(), ParamErrorKind> {
        if self.target.is_some() {
            return Err(ParamErrorKind::TargetTwice);
        }
        let v = parse_positive(value).map_err(ParamErrorKind::Invalid)?;
        self.target = Some(if key == "tps" {
            Target::TokensPerSecond(v)
        } else {
            Target::MsPerToken(v)
        });
        Ok(())
    }

    /// `stat`: a per-token statistic's key.
    pub(super) fn stat(&mut self, value: &str) -> Result<(), ParamErrorKind> {
        match Statistic::from_key(value).filter(|s| s.is_per_token()) {
            Some(s) => {
                self.stat = Some(s);
                Ok(())
            }
            None => Err(ParamErrorKind::Invalid(ValueError::Not {
                accepts: Accepts::PerTokenStatistic(Statistic::per_token_keys()),
                got: echo(value),
            })),
        }
    }

    /// `limit=STAT:MS`, any number of times up to [`MAX_LIMITS`]. Two limits on one statistic
    /// both hold only if the tighter does: one is kept, with a message.
    pub(super) fn limit(&mut self, value: &str) -> Result<(), ParamErrorKind> {
        let limit = parse_limit(value).map_err(ParamErrorKind::Invalid)?;
        match self.limits.iter().position(|l| l.stat == limit.stat) {
            Some(i) if self.limits[i] == limit => {
                Err(ParamErrorKind::LimitRepeated { value: echo(value) })
            }
            Some(i) => {
                self.limits[i].max_ms = self.limits[i].max_ms.min(limit.max_ms);
                Err(ParamErrorKind::LimitTightest { stat: limit.stat })
            }
            None if self.limits.len() >= MAX_LIMITS => Err(ParamErrorKind::TooManyLimits),
            None => {
                self.limits.push(limit);
                Ok(())
            }
        }
    }

    /// `sort=KEY` or `sort=KEY:reversed`: a column of the side-by-side table.
    pub(super) fn sort(&mut self, value: &str) -> Result<(), ParamErrorKind> {
        let text = value.trim();
        let (key, reversed) = match text.strip_suffix(":reversed") {
            Some(key) => (key.trim_end(), true),
            None => (text, false),
        };
        match Column::from_key(key) {
            Some(column) => {
                self.view.compare_sort = Some((column, reversed));
                Ok(())
            }
            None => Err(ParamErrorKind::Invalid(ValueError::Not {
                accepts: Accepts::Column(
                    Column::ALL
                        .into_iter()
                        .chain(Column::COSTS)
                        .chain(Column::API)
                        .map(Column::key)
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                got: echo(value),
            })),
        }
    }

    /// `price`: a bare number, per-type prices, or both.
    pub(super) fn prices(&mut self, value: &str) -> Result<(), ParamErrorKind> {
        if value.trim().is_empty() {
            // Said as every other empty number is ("must be a number from 0 to ..., got").
            return parse_input(InputKind::Amount, value)
                .map(|_| ())
                .map_err(ParamErrorKind::Invalid);
        }
        let (every, by_type, errors) = parse_prices(value, |p| parse_input(InputKind::Amount, p));
        self.fleet.capacity.price_per_gpu_hour = every;
        self.fleet.gpu_prices = by_type;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ParamErrorKind::Prices(errors))
        }
    }

    /// A fleet input of the form ([`FLEET_INPUTS`]) under `key`.
    pub(super) fn fleet_number(&mut self, key: &str, value: &str) -> Result<(), ParamErrorKind> {
        let Some(input) = FLEET_INPUTS.iter().find(|f| f.key == key) else {
            return Err(ParamErrorKind::Unknown);
        };
        let v = parse_input(input.kind, value).map_err(ParamErrorKind::Invalid)?;
        *(input.field)(&mut self.fleet.capacity) = Some(v);
        Ok(())
    }
}

/// Adds `error` unless the same message is already there: a link that repeats a mistake is
/// told once.
fn push_once(errors: &mut Vec<ParamError>, error: ParamError) {
    // Compared by message: the page needs no equality of every kind.
    let message = error.to_string();
    if !errors.iter().any(|e| e.to_string() == message) {
        errors.push(error);
    }
}
