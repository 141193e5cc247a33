//! The one list of a link's parameters ([`PARAMS`] and [`FLEET_INPUTS`]), each with its
//! reader: what a query string says before its deployment is resolved against a source.

use super::errors::{ParamError, ParamErrorKind};
use super::values::{
    echo, parse_attain, parse_gpus, parse_input, parse_lag, parse_limit, parse_load,
    parse_min_replicas, parse_positive, parse_prices, parse_word, Accepts, InputKind, ValueError,
};
use crate::core::model::limits::{MAX_LIMITS, MAX_PARAMS};
use crate::core::model::sweep::Statistic;
use crate::core::plan::capacity::{CapacityInputs, GpuPrices};
use crate::core::plan::chart::ChartY;
use crate::core::plan::compare::Column;
use crate::core::plan::period::{LoadProfile, Scaling};
use crate::core::plan::planner::{Limit, Target};

/// One optional fleet, cost or energy input: its URL key (also the form's `input-KEY` hook),
/// label, unit, what it accepts, and its field of [`CapacityInputs`].
pub struct FleetInput {
    /// URL key, e.g. `kwh_price`.
    pub key: &'static str,
    /// Form label, e.g. `Electricity price`.
    pub label: &'static str,
    /// Unit shown after the label, e.g. `$ per kWh`.
    pub unit: &'static str,
    /// What the input accepts.
    pub kind: InputKind,
    /// The input's field.
    pub field: fn(&mut CapacityInputs) -> &mut Option<f64>,
}

impl FleetInput {
    /// The input's value in `inputs`.
    pub fn get(&self, inputs: &CapacityInputs) -> Option<f64> {
        let mut inputs = *inputs;
        *(self.field)(&mut inputs)
    }
}

/// The fleet, cost and energy inputs, in form and URL order: the one list of them.
pub const FLEET_INPUTS: [FleetInput; 6] = [
    FleetInput {
        key: "users",
        label: "Concurrent users",
        unit: "streams",
        kind: InputKind::Users,
        field: |c| &mut c.users,
    },
    FleetInput {
        key: "rps",
        label: "Load (instead of users)",
        unit: "requests per second",
        kind: InputKind::Rate,
        field: |c| &mut c.rps,
    },
    FleetInput {
        key: "price",
        label: "GPU price",
        unit: "$ per GPU-hour",
        kind: InputKind::Amount,
        field: |c| &mut c.price_per_gpu_hour,
    },
    FleetInput {
        key: "kwh_price",
        label: "Electricity price",
        unit: "$ per kWh",
        kind: InputKind::Amount,
        field: |c| &mut c.price_per_kwh,
    },
    FleetInput {
        key: "co2",
        label: "Grid carbon intensity",
        unit: "g CO2 per kWh",
        kind: InputKind::Amount,
        field: |c| &mut c.co2_g_per_kwh,
    },
    FleetInput {
        key: "pue",
        label: "PUE",
        unit: "1 = GPUs only",
        kind: InputKind::Pue,
        field: |c| &mut c.pue,
    },
];

/// Every URL key a scenario reads ([`PARAMS`], then the fleet inputs not already among them), in
/// that order: the one list of them, for front ends that take the same parameters another way
/// (the command line's `--KEY VALUE`).
pub fn param_keys() -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = PARAMS.iter().map(|(k, _)| *k).collect();
    for input in &FLEET_INPUTS {
        if !keys.contains(&input.key) {
            keys.push(input.key);
        }
    }
    keys
}

/// True when `key` is one of the fleet inputs' URL keys, or one of the load over time's (`load`,
/// `lag`, `min_replicas`), whose fields are among them.
pub fn is_fleet_param(key: &str) -> bool {
    FLEET_INPUTS.iter().any(|f| f.key == key) || ["load", "lag", "min_replicas"].contains(&key)
}

/// What a link's parameters say, before its deployment is resolved against a source.
#[derive(Default)]
pub(super) struct Read {
    pub(super) src: Option<String>,
    pub(super) cfg: Option<String>,
    pub(super) model: Option<String>,
    pub(super) gpu: Option<String>,
    pub(super) num_gpus: Option<u32>,
    pub(super) target: Option<Target>,
    pub(super) stat: Option<Statistic>,
    pub(super) limits: Vec<Limit>,
    pub(super) attain: Option<f64>,
    pub(super) capacity: CapacityInputs,
    pub(super) gpu_prices: GpuPrices,
    pub(super) chart_y: ChartY,
    pub(super) compare_all: bool,
    pub(super) compare_sort: Option<(Column, bool)>,
    pub(super) load: Option<LoadProfile>,
    pub(super) scaling: Scaling,
}

/// Reads one parameter's value into what the link says; `Err` is what was wrong with it.
type ParamReader = fn(&mut Read, &str, &str) -> Result<(), ParamErrorKind>;

/// The scenario's URL parameters other than the fleet inputs ([`FLEET_INPUTS`]), each with its
/// reader: the one list of what a link may hold.
const PARAMS: [(&str, ParamReader); 17] = [
    ("src", |r, _, v| {
        r.src = Some(v.trim().to_string()).filter(|v| !v.is_empty());
        Ok(())
    }),
    ("model", |r, _, v| {
        r.model = Some(v.to_string());
        Ok(())
    }),
    ("gpu", |r, _, v| {
        r.gpu = Some(v.to_string());
        Ok(())
    }),
    ("gpus", |r, _, v| {
        r.num_gpus = Some(parse_gpus(v).map_err(ParamErrorKind::Invalid)?);
        Ok(())
    }),
    ("cfg", |r, _, v| {
        r.cfg = Some(v.to_string());
        Ok(())
    }),
    ("tps", Read::target),
    ("tpot", Read::target),
    ("stat", |r, _, v| {
        match Statistic::from_key(v).filter(|s| s.is_per_token()) {
            Some(s) => {
                r.stat = Some(s);
                Ok(())
            }
            None => Err(ParamErrorKind::Invalid(ValueError::Not {
                accepts: Accepts::PerTokenStatistic(Statistic::per_token_keys()),
                got: echo(v),
            })),
        }
    }),
    ("limit", Read::limit),
    ("attain", |r, _, v| {
        r.attain = Some(parse_attain(v).map_err(ParamErrorKind::Invalid)?);
        Ok(())
    }),
    ("y", |r, _, v| {
        parse_word(v, "cost", Accepts::Cost).map_err(ParamErrorKind::Invalid)?;
        r.chart_y = ChartY::Cost;
        Ok(())
    }),
    ("cmp", |r, _, v| {
        parse_word(v, "all", Accepts::All).map_err(ParamErrorKind::Invalid)?;
        r.compare_all = true;
        Ok(())
    }),
    ("sort", |r, _, v| {
        let text = v.trim();
        let (key, reversed) = match text.strip_suffix(":reversed") {
            Some(key) => (key.trim_end(), true),
            None => (text, false),
        };
        match Column::from_key(key) {
            Some(column) => {
                r.compare_sort = Some((column, reversed));
                Ok(())
            }
            None => Err(ParamErrorKind::Invalid(ValueError::Not {
                accepts: Accepts::Column(
                    Column::ALL
                        .into_iter()
                        .chain(Column::COSTS)
                        .map(Column::key)
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
                got: echo(v),
            })),
        }
    }),
    ("load", |r, _, v| {
        r.load = Some(parse_load(v).map_err(ParamErrorKind::Invalid)?);
        Ok(())
    }),
    ("lag", |r, _, v| {
        r.scaling.lag_min = parse_lag(v).map_err(ParamErrorKind::Invalid)?;
        Ok(())
    }),
    ("min_replicas", |r, _, v| {
        r.scaling.min_replicas = parse_min_replicas(v).map_err(ParamErrorKind::Invalid)?;
        Ok(())
    }),
    // Before FLEET_INPUTS' `price`: a bare number, per-type prices, or both.
    ("price", |r, _, v| {
        if v.trim().is_empty() {
            // Said as every other empty number is ("must be a number from 0 to ..., got").
            return parse_input(InputKind::Amount, v)
                .map(|_| ())
                .map_err(ParamErrorKind::Invalid);
        }
        let (every, by_type, errors) = parse_prices(v, |p| parse_input(InputKind::Amount, p));
        r.capacity.price_per_gpu_hour = every;
        r.gpu_prices = by_type;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(ParamErrorKind::Prices(errors))
        }
    }),
];

impl Read {
    /// Reads every parameter of a query string (with or without the leading `?`), up to
    /// [`MAX_PARAMS`]: what the link says, and one error per parameter that could not be used.
    pub(super) fn query(query: &str) -> (Read, Vec<ParamError>) {
        let mut errors = Vec::new();
        let mut read = Read::default();
        let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();

        let query = query.strip_prefix('?').unwrap_or(query);
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
                (key == "limit", read.param(&key, &value))
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
        (read, errors)
    }

    /// Reads parameter `key`: by its entry in [`PARAMS`] or [`FLEET_INPUTS`], else it is unknown.
    fn param(&mut self, key: &str, value: &str) -> Result<(), ParamErrorKind> {
        if let Some((_, reader)) = PARAMS.iter().find(|(k, _)| *k == key) {
            return reader(self, key, value);
        }
        let Some(input) = FLEET_INPUTS.iter().find(|f| f.key == key) else {
            return Err(ParamErrorKind::Unknown);
        };
        let v = parse_input(input.kind, value).map_err(ParamErrorKind::Invalid)?;
        *(input.field)(&mut self.capacity) = Some(v);
        Ok(())
    }

    /// `tps` or `tpot`: the target, given once in one of its units.
    fn target(&mut self, key: &str, value: &str) -> Result<(), ParamErrorKind> {
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

    /// `limit=STAT:MS`, any number of times up to [`MAX_LIMITS`]. Two limits on one statistic
    /// both hold only if the tighter does: one is kept, with a message.
    fn limit(&mut self, _: &str, value: &str) -> Result<(), ParamErrorKind> {
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
