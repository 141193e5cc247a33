//! The scenario: everything a shared link reproduces, read from and written to the URL query.
//!
//! Parameters (`params::PARAMS` and [`FLEET_INPUTS`], the one list of them): `src` (the source:
//! `lm-arena-chat` when absent, another bundled workload, or an imported sweep set), `model` (a
//! `model_id`), `gpu` (e.g. `H100`), `gpus` (GPU count), `cfg` (the sweep's configuration label
//! where model, GPU and count leave a choice), exactly one of `tps` (per-user tok/s) or `tpot`
//! (ms per output token), `stat` (a per-token statistic's key, e.g. `p50`, `tpot_p90`, `rate`),
//! any number of tail limits `limit=STAT:MS` (e.g. `limit=p99:150`), and the optional fleet
//! inputs `users` (or `rps`, requests per second), `price` ($/GPU-hour), `kwh_price` ($/kWh),
//! `co2` (g/kWh) and `pue`; a load over time `load=KIND:STEP:V1,...` with `lag` and
//! `min_replicas` (read from a monitoring tool's CSV by [`load_csv`]); and how the side-by-side
//! table is shown: `cmp=all` (every model's deployments that meet) and `sort=KEY` (a column, best
//! first; `KEY:reversed` worst first).
//! A parameter that is unknown or malformed gives a [`ParamError`] naming it; the
//! others still apply and defaults fill the rest, so parsing never fails as a whole.

mod errors;
pub mod load_csv;
pub mod load_input;
mod params;
mod resolve;
pub mod routing;
mod values;

pub use errors::{Front, Needs, ParamError, ParamErrorKind};
pub use params::{is_fleet_param, param_keys, FleetInput, FLEET_INPUTS};
pub use values::{
    load_text, number, parse_attain, parse_input, parse_lag, parse_limit, parse_load,
    parse_min_replicas, parse_positive, parse_prices, Accepts, InputKind, PriceError, ValueError,
    MIN_VALUE,
};

use crate::core::model::format::url_number;
use crate::core::model::limits::{MAX_LIMITS, MAX_VALUE};
use crate::core::model::source::Source;
use crate::core::model::sweep::Statistic;
use crate::core::plan::capacity::{prices_text, CapacityInputs, GpuPrices, Pricing};
use crate::core::plan::chart::ChartY;
use crate::core::plan::compare::Column;
use crate::core::plan::period::{LoadProfile, Scaling};
use crate::core::plan::planner::{Limit, Slo, Target};
use params::Read;
use resolve::{default_stat, resolve_config, resolve_deployment};
use values::echo;

/// `model_id` used when the URL names none (or an unknown one).
pub use crate::core::model::family::DEFAULT_MODEL;
/// GPU preferred when the URL names none and the model has it.
pub const DEFAULT_GPU: &str = "H100";
/// Target used when the URL gives none: 20 tok/s per user.
pub const DEFAULT_TARGET: Target = Target::TokensPerSecond(20.0);

/// A fully resolved scenario: `model_id`, `gpu`, `num_gpus` and `cfg` always name a sweep of the
/// source. Fields use the field's terms; their URL keys are in `params::PARAMS` (`gpus` for
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
    /// A load that varies over a period (URL `load=KIND:STEP:V1,V2,...`); `None`: none given.
    pub load: Option<LoadProfile>,
    /// How the fleet follows that load: the replicas' lag and floor (URL `lag`, `min_replicas`).
    pub scaling: Scaling,
}

/// The note when choosing a model or deployment moved the judged statistic from `before` to
/// `after` (one the deployment reports): "This deployment does not report p90 TPOT: judged on
/// p95 TPOT instead."; `None` when it did not move.
pub fn statistic_moved(before: Statistic, after: Statistic) -> Option<String> {
    moved("This deployment", before, after)
}

/// "{what} does not report p90 ITL: judged on p50 ITL instead.", when the statistic changed.
fn moved(what: &str, before: Statistic, after: Statistic) -> Option<String> {
    (after != before).then(|| {
        format!(
            "{what} does not report {}: judged on {} instead.",
            before.short_label(),
            after.short_label()
        )
    })
}

impl Scenario {
    /// Reads a query string (with or without the leading `?`), resolving the deployment against
    /// `source`. Returns the scenario and one error per parameter that could not be used.
    /// Each parameter is read by its entry in `params::PARAMS` (or [`FLEET_INPUTS`]); a parameter
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
            load,
            scaling,
        } = read;
        let chart_y = if chart_y == ChartY::Cost && !priced {
            errors.push(ParamError::new("y", ParamErrorKind::CostNeedsPrice));
            ChartY::PerGpu
        } else {
            chart_y
        };

        let compare_sort = checked_sort(compare_sort, priced, capacity.has_load(), &mut errors);
        let model_index = model_index(source, model, &mut errors);
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
            load,
            scaling,
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
    /// page switches source, so the user's SLO survives the switch; with it, the sentence that
    /// says the statistic changed, when it did.
    pub fn with_slo_of(start: &str, previous: &str, source: &Source) -> (Scenario, Option<String>) {
        let (scenario, _) = Scenario::from_query(start, source);
        let (previous, _) = Scenario::from_query(previous, source);
        let reported = scenario
            .sweep_index(source)
            .is_some_and(|i| source.sweeps[i].statistics().contains(&previous.stat));
        let moved = (!reported)
            .then(|| moved("The data now shown", previous.stat, scenario.stat))
            .flatten();
        let carried = Scenario {
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
            load: previous.load,
            scaling: previous.scaling,
            ..scenario
        };
        (carried, moved)
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
        if let Some(load) = &self.load {
            query.append_pair("load", &load_text(load));
        }
        if self.scaling.lag_min != Scaling::default().lag_min {
            query.append_pair("lag", &url_number(self.scaling.lag_min));
        }
        if self.scaling.min_replicas != Scaling::default().min_replicas {
            query.append_pair("min_replicas", &self.scaling.min_replicas.to_string());
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

/// The side-by-side table's order where the inputs let it sort: a cost column sorts nothing
/// without a price (and fleet $/hour without a load), so it is dropped (`None`, the table's own
/// order) with an error saying what it needs.
fn checked_sort(
    compare_sort: Option<(Column, bool)>,
    priced: bool,
    has_load: bool,
    errors: &mut Vec<ParamError>,
) -> Option<(Column, bool)> {
    match compare_sort {
        Some((column, _)) if !column.sortable(priced, has_load) => {
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
    }
}

/// The index in `source.models` of the URL's `model` (its `model_id`, else the same id in
/// another case); the default model's (else the first) when the URL names none, or one not in
/// the data, with an error naming the model shown.
fn model_index(source: &Source, model: Option<String>, errors: &mut Vec<ParamError>) -> usize {
    let default_model = source.model_index(DEFAULT_MODEL).unwrap_or(0);
    match model {
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
    }
}
