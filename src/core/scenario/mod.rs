//! The scenario: everything a shared link reproduces, read from and written to the URL query.
//!
//! Parameters ([`PARAMS`] and [`FLEET_INPUTS`], the one list of them): `src` (the source:
//! `lm-arena-chat` when absent, another bundled workload, or an imported sweep set), `model` (a
//! `model_id`), `gpu` (e.g. `H100`), `gpus` (GPU count), `cfg` (the sweep's configuration label
//! where model, GPU and count leave a choice), exactly one of `tps` (per-user tok/s) or `tpot`
//! (ms per output token), `stat` (a per-token statistic's key, e.g. `p50`, `tpot_p90`, `rate`),
//! any number of tail limits `limit=STAT:MS` (e.g. `limit=p99:150`), and the optional fleet
//! inputs `users` (or `rps`, requests per second), `price` ($/GPU-hour), `kwh_price` ($/kWh),
//! `co2` (g/kWh) and `pue`; and how the side-by-side table is shown: `cmp=all` (every model's
//! deployments that meet) and `sort=KEY` (a column, best first; `KEY:reversed` worst first).
//! A parameter that is unknown or malformed gives a [`ParamError`] naming it; the
//! others still apply and defaults fill the rest, so parsing never fails as a whole.

mod errors;
mod values;

pub use errors::{Front, Needs, ParamError, ParamErrorKind};
pub use values::{
    number, parse_attain, parse_input, parse_limit, parse_positive, parse_prices, Accepts,
    InputKind, PriceError, ValueError, MIN_VALUE,
};

use super::capacity::{prices_text, CapacityInputs, GpuPrices, Pricing};
use super::chart::ChartY;
use super::compare::Column;
use super::format::url_number;
use super::planner::{Limit, Slo, Target};
use super::sweep::{Source, Statistic, Sweep};
use crate::core::limits::{MAX_LIMITS, MAX_PARAMS, MAX_VALUE};
use values::{echo, parse_gpus, parse_word};

/// `model_id` used when the URL names none (or an unknown one).
pub use super::family::DEFAULT_MODEL;
/// GPU preferred when the URL names none and the model has it.
pub const DEFAULT_GPU: &str = "H100";
/// Target used when the URL gives none: 20 tok/s per user.
pub const DEFAULT_TARGET: Target = Target::TokensPerSecond(20.0);

/// A fully resolved scenario: `model_id`, `gpu`, `num_gpus` and `cfg` always name a sweep of the
/// source. Fields use the field's terms; their URL keys are in [`PARAMS`] (`gpus` for
/// `num_gpus`).
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The source id (URL `src`); `None` for the default `lm-arena-chat`.
    pub src: Option<String>,
    /// The sweep's `cfg` (`Source::sweep_cfg`: what tells it apart from the model's other sweeps
    /// on that GPU type and count, built from its identity fields; not `Deployment::config`,
    /// the label a file states) when model, GPU and count do not identify one.
    pub cfg: Option<String>,
    /// The model's `model_id`.
    pub model_id: String,
    /// GPU type, e.g. `H100`.
    pub gpu: String,
    /// GPUs per replica (URL `gpus`); `None` for a sweep whose source does not state it.
    pub num_gpus: Option<u32>,
    /// Per-user target, in the unit the user chose.
    pub target: Target,
    /// Statistic the target is judged on.
    pub stat: Statistic,
    /// Extra tail limits, in URL order.
    pub limits: Vec<Limit>,
    /// The share of requests, percent (50 to 100; URL `attain`), that must be good at a level,
    /// judged on per-request records; `None`: judged on the level's statistics.
    pub attain: Option<f64>,
    /// Optional fleet, cost and energy inputs (`price_per_gpu_hour`: the price for every GPU
    /// type not in `gpu_prices`).
    pub capacity: CapacityInputs,
    /// Prices per GPU-hour of named GPU types (URL `price=H100:2.49,B200:5.99`).
    pub gpu_prices: GpuPrices,
    /// What the trade-off chart's y axis shows (URL `y=cost`; the cost only when a price is given).
    pub chart_y: ChartY,
    /// The side-by-side table lists every model's deployments that meet (URL `cmp=all`), not
    /// only this model's family.
    pub compare_all: bool,
    /// The side-by-side table's order: a column, and whether reversed (worst first) (URL
    /// `sort=KEY` or `sort=KEY:reversed`, KEY a [`Column::key`]); `None`: its own order.
    pub compare_sort: Option<(Column, bool)>,
}

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

/// True when `key` is one of the fleet inputs' URL keys.
pub fn is_fleet_param(key: &str) -> bool {
    FLEET_INPUTS.iter().any(|f| f.key == key)
}

/// What a link's parameters say, before its deployment is resolved against a source.
#[derive(Default)]
struct Read {
    src: Option<String>,
    cfg: Option<String>,
    model: Option<String>,
    gpu: Option<String>,
    num_gpus: Option<u32>,
    target: Option<Target>,
    stat: Option<Statistic>,
    limits: Vec<Limit>,
    attain: Option<f64>,
    capacity: CapacityInputs,
    gpu_prices: GpuPrices,
    chart_y: ChartY,
    compare_all: bool,
    compare_sort: Option<(Column, bool)>,
}

/// Reads one parameter's value into what the link says; `Err` is what was wrong with it.
type ParamReader = fn(&mut Read, &str, &str) -> Result<(), ParamErrorKind>;

/// The scenario's URL parameters other than the fleet inputs ([`FLEET_INPUTS`]), each with its
/// reader: the one list of what a link may hold.
const PARAMS: [(&str, ParamReader); 14] = [
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
    fn query(query: &str) -> (Read, Vec<ParamError>) {
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

impl Scenario {
    /// Reads a query string (with or without the leading `?`), resolving the deployment against
    /// `source`. Returns the scenario and one error per parameter that could not be used.
    /// Each parameter is read by its entry in [`PARAMS`] (or [`FLEET_INPUTS`]); a parameter
    /// other than `limit` is read once.
    pub fn from_query(query: &str, source: &Source) -> (Scenario, Vec<ParamError>) {
        let (read, mut errors) = Read::query(query);
        if read.capacity.users.is_some() && read.capacity.rps.is_some() {
            errors.push(ParamError::new("rps", ParamErrorKind::UsersAndRps));
        }
        let priced = Pricing {
            capacity: &read.capacity,
            gpu_prices: &read.gpu_prices,
        }
        .priced();
        let Read {
            src,
            cfg,
            model,
            gpu,
            num_gpus,
            target,
            stat,
            limits,
            attain,
            capacity,
            gpu_prices,
            chart_y,
            compare_all,
            compare_sort,
        } = read;
        let chart_y = if chart_y == ChartY::Cost && !priced {
            errors.push(ParamError::new("y", ParamErrorKind::CostNeedsPrice));
            ChartY::PerGpu
        } else {
            chart_y
        };

        // A cost column sorts nothing without a price (and fleet $/hour without a load).
        let compare_sort = match compare_sort {
            Some((column, _)) if !column.sortable(priced, capacity.has_load()) => {
                let needs = if priced {
                    Needs::Load
                } else if column == Column::FleetCostPerHour {
                    Needs::LoadAndPrice
                } else {
                    Needs::Price
                };
                errors.push(ParamError::new(
                    "sort",
                    ParamErrorKind::SortNeeds { column, needs },
                ));
                None
            }
            sort => sort,
        };

        let default_model = source.model_index(DEFAULT_MODEL).unwrap_or(0);
        let model_index = match model {
            Some(id) => match source.model_index(&id).or_else(|| {
                source
                    .models
                    .iter()
                    .position(|m| m.model_id.eq_ignore_ascii_case(&id))
            }) {
                Some(i) => i,
                None => {
                    let shown = source
                        .models
                        .get(default_model)
                        .map_or("", |m| m.model_id.as_str());
                    errors.push(ParamError::new(
                        "model",
                        ParamErrorKind::ModelNotInData {
                            value: echo(&id),
                            shown: shown.to_string(),
                        },
                    ));
                    default_model
                }
            },
            None => default_model,
        };
        let (gpu, num_gpus) = resolve_deployment(source, model_index, gpu, num_gpus, &mut errors);
        let cfg = resolve_config(source, model_index, &gpu, num_gpus, cfg, &mut errors);
        let scenario = Scenario {
            src,
            cfg,
            model_id: source
                .models
                .get(model_index)
                .map(|m| m.model_id.clone())
                .unwrap_or_default(),
            gpu,
            num_gpus,
            target: target.unwrap_or(DEFAULT_TARGET),
            stat: stat.unwrap_or(Statistic::P50),
            limits,
            attain,
            capacity,
            gpu_prices,
            chart_y,
            compare_all,
            compare_sort,
        };
        // Without a `stat`, judge on p50 ITL if the sweep has it, else its first per-token one.
        let scenario = match (stat, scenario.sweep_index(source)) {
            (None, Some(i)) => Scenario {
                stat: default_stat(&source.sweeps[i]),
                ..scenario
            },
            _ => scenario,
        };
        (scenario, errors)
    }

    /// The scenario of `start` (a source's opening query, e.g. `src=gpqa`) on `source`, planning
    /// for the SLO of the `previous` query: its target, limits and fleet inputs, and its
    /// statistic when the deployment of `start` reports it (else that deployment's default).
    /// The deployment is `start`'s: another source need not have the previous one. Used when the
    /// page switches source, so the user's SLO survives the switch.
    pub fn with_slo_of(start: &str, previous: &str, source: &Source) -> Scenario {
        let (scenario, _) = Scenario::from_query(start, source);
        let (previous, _) = Scenario::from_query(previous, source);
        let reported = scenario
            .sweep_index(source)
            .is_some_and(|i| source.sweeps[i].statistics().contains(&previous.stat));
        Scenario {
            target: previous.target,
            stat: if reported {
                previous.stat
            } else {
                scenario.stat
            },
            limits: previous.limits,
            attain: previous.attain,
            capacity: previous.capacity,
            gpu_prices: previous.gpu_prices,
            chart_y: previous.chart_y,
            compare_all: previous.compare_all,
            compare_sort: previous.compare_sort,
            ..scenario
        }
    }

    /// The query string for this scenario, without the leading `?`, e.g.
    /// `model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50`.
    pub fn to_query(&self) -> String {
        let (key, value) = match self.target {
            Target::TokensPerSecond(v) => ("tps", v),
            Target::MsPerToken(v) => ("tpot", v),
        };
        let mut query = form_urlencoded::Serializer::new(String::new());
        if let Some(src) = &self.src {
            query.append_pair("src", src);
        }
        query
            .append_pair("model", &self.model_id)
            .append_pair("gpu", &self.gpu);
        if let Some(n) = self.num_gpus {
            query.append_pair("gpus", &n.to_string());
        }
        if let Some(cfg) = &self.cfg {
            query.append_pair("cfg", cfg);
        }
        query
            .append_pair(key, &url_number(value))
            .append_pair("stat", self.stat.key());
        for limit in &self.limits {
            query.append_pair(
                "limit",
                &format!("{}:{}", limit.stat.key(), url_number(limit.max_ms)),
            );
        }
        if let Some(p) = self.attain {
            query.append_pair("attain", &url_number(p));
        }
        if self.drawn_chart_y() == ChartY::Cost {
            query.append_pair("y", "cost");
        }
        if self.compare_all {
            query.append_pair("cmp", "all");
        }
        // A cost column orders nothing without a price (fleet $/hour without a load).
        match self
            .compare_sort
            .filter(|(column, _)| column.sortable(self.priced(), self.capacity.has_load()))
        {
            Some((column, false)) => {
                query.append_pair("sort", column.key());
            }
            Some((column, true)) => {
                query.append_pair("sort", &format!("{}:reversed", column.key()));
            }
            None => {}
        }
        for input in &FLEET_INPUTS {
            if input.key == "price" {
                let text = prices_text(self.capacity.price_per_gpu_hour, &self.gpu_prices);
                if !text.is_empty() {
                    query.append_pair("price", &text);
                }
            } else if let Some(v) = input.get(&self.capacity) {
                query.append_pair(input.key, &url_number(v));
            }
        }
        query.finish()
    }

    /// The limit "Add a limit" proposes: on the first statistic of p99, p95, p90, p50 and then
    /// the rest of `available` (the sweep's statistics; p99 to p50 when it is empty) that is
    /// not the judged statistic and has no limit yet, at three times the target's ms per token
    /// (rounded, at least 1 ms). `None` when every such statistic has a limit or
    /// [`MAX_LIMITS`] are set. A second limit on the same statistic would repeat one in the
    /// link, where a repeat counts once; one on the judged statistic would only restate the
    /// target.
    pub fn next_limit(&self, available: &[Statistic]) -> Option<Limit> {
        if self.limits.len() >= MAX_LIMITS {
            return None;
        }
        let preferred = [
            Statistic::P99,
            Statistic::P95,
            Statistic::P90,
            Statistic::P50,
        ];
        let stat = preferred
            .into_iter()
            .filter(|s| available.is_empty() || available.contains(s))
            .chain(available.iter().copied())
            .find(|s| *s != self.stat && self.limits.iter().all(|l| l.stat != *s))?;
        let max_ms = (self.target.ms_per_token() * 3.0)
            .round()
            .clamp(1.0, MAX_VALUE);
        Some(Limit { stat, max_ms })
    }

    /// Why [`Scenario::next_limit`] has nothing to propose from `available`, as a sentence for
    /// the page; `None` when it has.
    pub fn no_next_limit_reason(&self, available: &[Statistic]) -> Option<String> {
        if self.next_limit(available).is_some() {
            return None;
        }
        let judged = self.stat.short_label();
        Some(if self.limits.len() >= MAX_LIMITS {
            format!("A link holds at most {MAX_LIMITS} limits.")
        } else if !available.is_empty() && available.iter().all(|s| *s == self.stat) {
            format!("No other statistic is reported at a level together with {judged}.")
        } else {
            format!("Each statistic reported together with {judged} has a limit.")
        })
    }

    /// The fleet inputs for a deployment on `gpu`: its own price per GPU-hour where
    /// `gpu_prices` names it, else the price for every type (see [`GpuPrices::for_gpu`]).
    pub fn capacity_for(&self, gpu: &str) -> CapacityInputs {
        self.pricing().for_gpu(gpu)
    }

    /// The fleet inputs and GPU prices, as costing a deployment needs them.
    pub fn pricing(&self) -> Pricing<'_> {
        Pricing {
            capacity: &self.capacity,
            gpu_prices: &self.gpu_prices,
        }
    }

    /// True when a GPU price applies to GPU type `gpu`: its own, or the one for every type.
    pub fn gpu_priced(&self, gpu: &str) -> bool {
        self.capacity_for(gpu).price_per_gpu_hour.is_some()
    }

    /// True when prices are given for other GPU types but none applies to `gpu` (where the
    /// page says "no price given for" it).
    pub fn priced_elsewhere_only(&self, gpu: &str) -> bool {
        !self.gpu_prices.0.is_empty() && !self.gpu_priced(gpu)
    }

    /// True when a price per GPU-hour is given, for every type or for one (so deployments can
    /// be costed, ranked and charted by cost; electricity alone never ranks one as cheap).
    pub fn priced(&self) -> bool {
        self.pricing().priced()
    }

    /// The chart's y axis as drawn: the cost only when a price is given.
    pub fn drawn_chart_y(&self) -> ChartY {
        if self.priced() {
            self.chart_y
        } else {
            ChartY::PerGpu
        }
    }

    /// The SLO this scenario plans for.
    pub fn slo(&self) -> Slo {
        Slo {
            target: self.target,
            stat: self.stat,
            limits: self.limits.clone(),
            attain: self.attain,
        }
    }

    /// Index into `source.sweeps` of the scenario's deployment.
    pub fn sweep_index(&self, source: &Source) -> Option<usize> {
        let model_index = source.model_index(&self.model_id)?;
        (0..source.sweeps.len()).find(|&i| {
            let s = &source.sweeps[i];
            s.model_index == model_index
                && s.deployment.gpu == self.gpu
                && s.deployment.num_gpus == self.num_gpus
                && source.sweep_cfg(i) == self.cfg.as_deref()
        })
    }

    /// The same scenario on another model, keeping the GPU type (and count) when that model has
    /// them; otherwise the defaults for that model.
    pub fn with_model(&self, source: &Source, model_id: &str) -> Scenario {
        let Some(model_index) = source.model_index(model_id) else {
            return self.clone();
        };
        let mut ignored = Vec::new();
        let (gpu, num_gpus) = resolve_deployment(
            source,
            model_index,
            Some(self.gpu.clone()),
            self.num_gpus,
            &mut ignored,
        );
        let cfg = resolve_config(source, model_index, &gpu, num_gpus, None, &mut ignored);
        let moved = Scenario {
            model_id: model_id.to_string(),
            gpu,
            num_gpus,
            cfg,
            ..self.clone()
        };
        moved.keeping_a_reported_stat(source)
    }

    /// The same scenario judged on its statistic where its sweep reports it, else on the
    /// nearest one it reports of the same metric (p90 TPOT -> p95, p99, p50 or mean TPOT), else
    /// on the sweep's default (p50 ITL, else its first per-token statistic): a deployment chosen
    /// in the picker is never judged on a statistic it does not report, and keeps its metric
    /// where it can.
    fn keeping_a_reported_stat(self, source: &Source) -> Scenario {
        let Some(sweep) = self.sweep_index(source).map(|i| &source.sweeps[i]) else {
            return self;
        };
        let has = sweep.statistics();
        if has.contains(&self.stat) {
            return self;
        }
        let same_metric = self
            .stat
            .same_metric_nearest()
            .into_iter()
            .find(|s| has.contains(s));
        Scenario {
            stat: same_metric.unwrap_or_else(|| default_stat(sweep)),
            ..self
        }
    }

    /// The same scenario on another sweep of the same source.
    pub fn with_sweep(&self, source: &Source, sweep_index: usize) -> Scenario {
        let Some(sweep) = source.sweeps.get(sweep_index) else {
            return self.clone();
        };
        Scenario {
            model_id: source.models[sweep.model_index].model_id.clone(),
            gpu: sweep.deployment.gpu.clone(),
            num_gpus: sweep.deployment.num_gpus,
            cfg: source.sweep_cfg(sweep_index).map(str::to_string),
            ..self.clone()
        }
        .keeping_a_reported_stat(source)
    }
}

/// The statistic a sweep is judged on by default: p50 ITL if it reports it, else its first
/// per-token statistic (p50 ITL when it reports none).
fn default_stat(sweep: &Sweep) -> Statistic {
    let has = sweep.statistics();
    if has.contains(&Statistic::P50) {
        return Statistic::P50;
    }
    has.into_iter()
        .find(|s| s.is_per_token())
        .unwrap_or(Statistic::P50)
}

/// Picks the configuration among the sweeps with this model, GPU and count (newest date first):
/// the named one if it exists; else, for a link made before sweeps were told apart by every
/// identity field, the one sweep whose label contains the old label; else the first, with a
/// message. `None` when that sweep is the only one (it needs no `cfg`).
fn resolve_config(
    source: &Source,
    model_index: usize,
    gpu: &str,
    num_gpus: Option<u32>,
    cfg: Option<String>,
    errors: &mut Vec<ParamError>,
) -> Option<String> {
    let candidates: Vec<usize> = source
        .sweeps_of(model_index)
        .into_iter()
        .filter(|&i| {
            let d = &source.sweeps[i].deployment;
            d.gpu == gpu && d.num_gpus == num_gpus
        })
        .collect();
    let first = candidates.first().and_then(|&i| source.sweep_cfg(i));
    let Some(wanted) = cfg else {
        return first.map(str::to_string);
    };
    if candidates
        .iter()
        .any(|&i| source.sweep_cfg(i) == Some(wanted.as_str()))
    {
        return Some(wanted);
    }
    // A link made before: its `cfg` was a label whose parts (comma-separated), e.g.
    // "sglang, 1024/1024" or "PP2", each name one of the sweep's identity fields.
    let parts: Vec<String> = wanted
        .split(", ")
        .map(|p| p.trim().to_ascii_lowercase())
        .filter(|p| !p.is_empty())
        .collect();
    let legacy: Vec<usize> = candidates
        .iter()
        .copied()
        .filter(|&i| {
            let fields = source.sweeps[i].deployment.field_texts();
            let holds = |part: &String| {
                fields.iter().any(|f| {
                    let f = f.to_ascii_lowercase();
                    f == *part || f.split(' ').any(|word| word == part)
                })
            };
            !parts.is_empty() && parts.iter().all(holds)
        })
        .collect();
    match legacy[..] {
        [only] => return source.sweep_cfg(only).map(str::to_string),
        [newest, ..] => {
            let chosen = source.sweep_cfg(newest).unwrap_or_default();
            errors.push(ParamError::new(
                "cfg",
                ParamErrorKind::CfgAmbiguous {
                    value: echo(&wanted),
                    matches: legacy.len(),
                    shown: echo(chosen),
                },
            ));
            return Some(chosen.to_string()).filter(|c| !c.is_empty());
        }
        [] => {}
    }
    errors.push(ParamError::new(
        "cfg",
        ParamErrorKind::CfgUnknown {
            value: echo(&wanted),
            shown: first.map(str::to_string),
        },
    ));
    first.map(str::to_string)
}

/// Adds `error` unless the same message is already there: a link that repeats a mistake is
/// told once.
fn push_once(errors: &mut Vec<ParamError>, error: ParamError) {
    if !errors.contains(&error) {
        errors.push(error);
    }
}

/// Picks the deployment of a model: the named GPU type if the model has it (else H100, else the
/// model's first GPU), then the named GPU count if measured (else the fewest GPUs).
fn resolve_deployment(
    source: &Source,
    model_index: usize,
    gpu: Option<String>,
    num_gpus: Option<u32>,
    errors: &mut Vec<ParamError>,
) -> (String, Option<u32>) {
    let sweeps: Vec<_> = source
        .sweeps_of(model_index)
        .into_iter()
        .map(|i| &source.sweeps[i])
        .collect();
    let known_gpu = |name: &str| {
        sweeps
            .iter()
            .find(|s| s.deployment.gpu.eq_ignore_ascii_case(name))
            .map(|s| s.deployment.gpu.clone())
    };
    let fallback_gpu = known_gpu(DEFAULT_GPU).unwrap_or_else(|| {
        sweeps
            .first()
            .map(|s| s.deployment.gpu.clone())
            .unwrap_or_default()
    });
    let gpu = match gpu.as_deref().map(|name| (name, known_gpu(name))) {
        Some((_, Some(known))) => known,
        Some((name, None)) => {
            errors.push(ParamError::new(
                "gpu",
                ParamErrorKind::GpuNotMeasured {
                    value: echo(name),
                    shown: fallback_gpu.clone(),
                },
            ));
            fallback_gpu
        }
        None => fallback_gpu,
    };
    let counts: Vec<Option<u32>> = sweeps
        .iter()
        .filter(|s| s.deployment.gpu == gpu)
        .map(|s| s.deployment.num_gpus)
        .collect();
    // The fewest stated count; a sweep without a stated count only when there is no other.
    let fewest = counts.iter().flatten().copied().min();
    let num_gpus = match num_gpus {
        Some(n) if counts.contains(&Some(n)) => Some(n),
        Some(n) => {
            errors.push(ParamError::new(
                "gpus",
                ParamErrorKind::GpusNotMeasured {
                    count: n,
                    gpu: gpu.clone(),
                    shown: fewest,
                },
            ));
            fewest
        }
        None => fewest,
    };
    (gpu, num_gpus)
}
