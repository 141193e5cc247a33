//! The scenario: everything a shared link reproduces, read from and written to the URL query.
//!
//! Its parameters are declared once, in [`params::DECLARED`]: each is read into the scenario's
//! groups ([`Picked`], [`Slo`], [`Fleet`], [`View`]) and written back from them.
//! A parameter that is unknown or malformed gives a [`ParamError`] naming it; the
//! others still apply and defaults fill the rest, so parsing never fails as a whole.

mod errors;
pub mod link;
pub mod load_csv;
pub mod load_input;
pub mod params;
mod parts;
mod read;
mod resolve;
pub mod routing;
mod values;
mod versus;

pub use errors::{Front, Needs, ParamError, ParamErrorKind};
pub use params::{
    is_fleet_param, param_keys, FleetInput, Group, JsonEntry, Link, FLEET_INPUTS, PARAMS,
};
pub use parts::{Fleet, NoNextLimit, Picked, PowerParams, StatMoved, View};
pub use values::{
    api_text, load_text, number, parse_api, parse_attain, parse_gpus, parse_host_w, parse_input,
    parse_lag, parse_limit, parse_load, parse_min_replicas, parse_positive, parse_power,
    parse_power_basis, parse_prices, parse_word, power_text, prices_text, Accepts, InputKind,
    PriceError, ValueError, MIN_VALUE,
};
pub use versus::{parse_tol, Versus, Vs};

use crate::core::model::limits::{MAX_LIMITS, MAX_VALUE};
use crate::core::model::source::Source;
use crate::core::model::sweep::{Statistic, Sweep};
use crate::core::plan::autoscaler::{autoscaler, Autoscaler};
use crate::core::plan::capacity::{CapacityInputs, Pricing};
use crate::core::plan::chart::ChartY;
use crate::core::plan::compare::Column;
use crate::core::plan::planner::{Limit, Plan, Slo, Target};
use crate::core::plan::power::{budget_at, Budgeted, PowerError, PowerInputs};
use read::Read;
use resolve::{default_stat, resolve_config, resolve_deployment};
use values::echo;

/// `model_id` used when the URL names none (or an unknown one).
pub use crate::core::model::family::DEFAULT_MODEL;
/// GPU preferred when the URL names none and the model has it.
pub const DEFAULT_GPU: &str = "H100";
/// Target used when the URL gives none: 20 tok/s per user.
pub const DEFAULT_TARGET: Target = Target::TokensPerSecond(20.0);

/// A fully resolved scenario: its deployment always names a sweep of the source. Each part is a
/// group of what belongs together; the link's keys of each field are in
/// [`params::DECLARED`].
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The source id (URL `src`); `None` for the default `lm-arena-chat`.
    pub src: Option<String>,
    /// The deployment picked in the source (URL `model`, `gpu`, `gpus`, `cfg`).
    pub deployment: Picked,
    /// The SLO planned for (URL `tps` or `tpot`, `stat`, `limit`, `attain`).
    pub slo: Slo,
    /// The fleet, cost and energy inputs and the load over time (URL `users`, `rps`, `price`,
    /// `kwh_price`, `co2`, `pue`, `load`, `lag`, `min_replicas`).
    pub fleet: Fleet,
    /// How the answer is shown (URL `y`, `cmp`, `sort`).
    pub view: View,
    /// The comparison with a candidate B (URL `vs`, `tol`).
    pub versus: Versus,
}

/// `requests_at` when `sweep` has per-request records at that level (a level's records are its
/// runs'), else `None` with an error naming the level.
fn measured_requests_at(
    requests_at: Option<f64>,
    sweep: &Sweep,
    errors: &mut Vec<ParamError>,
) -> Option<f64> {
    let level = requests_at?;
    if sweep
        .rows
        .iter()
        .any(|r| r.level == level && r.requests.is_some())
    {
        return Some(level);
    }
    errors.push(ParamError::new(
        "requests_at",
        ParamErrorKind::RequestsAtNotMeasured {
            level: crate::core::model::format::level(level),
        },
    ));
    None
}

impl Scenario {
    /// Reads a query string (with or without the leading `?`), resolving the deployment against
    /// `source`. Returns the scenario and one error per parameter that could not be used.
    /// Each parameter is read by its entry in `params::PARAMS` (or [`FLEET_INPUTS`]); a parameter
    /// other than `limit` is read once, and one that qualifies another only with it.
    pub fn from_query(query: &str, source: &Source) -> (Scenario, Vec<ParamError>) {
        Scenario::from_query_beside(query, source, &[])
    }

    /// [`Scenario::from_query`] for a front that gives the parameters `beside` another way (the
    /// command line's `--max-power` is a budget, as `power`): what qualifies them is read.
    pub fn from_query_beside(
        query: &str,
        source: &Source,
        beside: &[&str],
    ) -> (Scenario, Vec<ParamError>) {
        let (read, mut errors) = Read::query(query, beside);
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
            fleet,
            mut view,
            versus,
        } = read;
        if fleet.capacity.users.is_some() && fleet.capacity.rps.is_some() {
            errors.push(ParamError::new("rps", ParamErrorKind::UsersAndRps));
        }
        let priced = Pricing {
            capacity: &fleet.capacity,
            gpu_prices: &fleet.gpu_prices,
        }
        .priced();
        if view.chart_y == ChartY::Cost && !priced {
            errors.push(ParamError::new("y", ParamErrorKind::CostNeedsPrice));
            view.chart_y = ChartY::PerGpu;
        }
        let costed = Costed {
            priced,
            has_load: fleet.capacity.has_load(),
            has_api: fleet.capacity.api.is_some(),
        };
        view.compare_sort = checked_sort(view.compare_sort, costed, &mut errors);
        let model_index = model_index(source, model, &mut errors);
        let (gpu, num_gpus) = resolve_deployment(source, model_index, gpu, num_gpus, &mut errors);
        let cfg = resolve_config(source, model_index, &gpu, num_gpus, cfg, &mut errors);
        let mut scenario = Scenario {
            src,
            deployment: Picked {
                model_id: source
                    .models
                    .get(model_index)
                    .map(|m| m.model_id.clone())
                    .unwrap_or_default(),
                gpu,
                num_gpus,
                cfg,
            },
            slo: Slo::new(
                target.unwrap_or(DEFAULT_TARGET),
                stat.unwrap_or(Statistic::P50),
            )
            .with_limits(limits)
            .with_attain(attain),
            fleet,
            view,
            versus,
        };
        let sweep = scenario.sweep_index(source).map(|i| &source.sweeps[i]);
        // Without a `stat`, judge on p50 ITL if the sweep has it, else its first per-token one.
        if let (None, Some(sweep)) = (stat, sweep) {
            scenario.slo.stat = default_stat(sweep);
        }
        if let Some(sweep) = sweep {
            scenario.view.requests_at =
                measured_requests_at(scenario.view.requests_at, sweep, &mut errors);
        }
        (scenario, errors)
    }

    /// The link's `stat` when the deployment shown does not report it ([`ParamErrorKind::StatNotReported`]);
    /// `None` when it does, or the scenario names no sweep of `source`.
    pub fn unreported_stat(&self, source: &Source) -> Option<ParamError> {
        let sweep = &source.sweeps[self.sweep_index(source)?];
        (!sweep.statistics().contains(&self.slo.stat)).then(|| {
            ParamError::new(
                "stat",
                ParamErrorKind::StatNotReported {
                    stat: self.slo.stat,
                },
            )
        })
    }

    /// The scenario of `start` (a source's opening query, e.g. `src=gpqa`) on `source`, planning
    /// for the SLO of the `previous` query: its target, limits and fleet inputs, and its
    /// statistic when the deployment of `start` reports it (else that deployment's default).
    /// The deployment is `start`'s: another source need not have the previous one. Used when the
    /// page switches source, so the user's SLO survives the switch; with it, the statistic's
    /// move, when it did.
    pub fn with_slo_of(
        start: &str,
        previous: &str,
        source: &Source,
    ) -> (Scenario, Option<StatMoved>) {
        Scenario::with_slo_asked(start, previous, source, None)
    }

    /// [`Scenario::with_slo_of`], after an `earlier` switch moved the statistic: while the
    /// `previous` scenario still judges on the statistic it moved to, the one asked before it
    /// comes back where the new deployment reports it (else the move is said from it).
    pub fn with_slo_asked(
        start: &str,
        previous: &str,
        source: &Source,
        earlier: Option<StatMoved>,
    ) -> (Scenario, Option<StatMoved>) {
        let (scenario, _) = Scenario::from_query(start, source);
        let (mut previous, _) = Scenario::from_query(previous, source);
        if let Some(earlier) = earlier.filter(|m| m.after == previous.slo.stat) {
            previous.slo.stat = earlier.before;
        }
        let reported = scenario
            .sweep_index(source)
            .is_some_and(|i| source.sweeps[i].statistics().contains(&previous.slo.stat));
        let moved = (!reported)
            .then(|| StatMoved::between(previous.slo.stat, scenario.slo.stat))
            .flatten();
        // The deployment is `start`'s; every other group is carried.
        let stat = if reported {
            previous.slo.stat
        } else {
            scenario.slo.stat
        };
        let carried = Scenario {
            slo: Slo {
                stat,
                ..previous.slo
            },
            fleet: previous.fleet,
            view: previous.view,
            ..scenario
        };
        (carried, moved)
    }

    /// The query string for this scenario, without the leading `?`, e.g.
    /// `model=meta-llama%2FLlama-3.1-8B-Instruct&gpu=H100&gpus=1&tps=20&stat=p50`.
    pub fn to_query(&self) -> String {
        params::query_of(self)
    }

    /// The limit "Add a limit" proposes: on the first statistic of p99, p95, p90, p50 and then
    /// the rest of `available` (the sweep's statistics; p99 to p50 when it is empty) that is
    /// not the judged statistic and has no limit yet, at three times the target's ms per token
    /// (rounded, at least 1 ms). `None` when every such statistic has a limit or
    /// [`MAX_LIMITS`] are set. A second limit on the same statistic would repeat one in the
    /// link, where a repeat counts once; one on the judged statistic would only restate the
    /// target.
    pub fn next_limit(&self, available: &[Statistic]) -> Option<Limit> {
        if self.slo.limits.len() >= MAX_LIMITS {
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
            .find(|s| *s != self.slo.stat && self.slo.limits.iter().all(|l| l.stat != *s))?;
        let max_ms = (self.slo.target.ms_per_token() * 3.0)
            .round()
            .clamp(1.0, MAX_VALUE);
        Some(Limit { stat, max_ms })
    }

    /// Why [`Scenario::next_limit`] has nothing to propose from `available`; `None` when it
    /// has.
    pub fn no_next_limit(&self, available: &[Statistic]) -> Option<NoNextLimit> {
        if self.next_limit(available).is_some() {
            return None;
        }
        Some(if self.slo.limits.len() >= MAX_LIMITS {
            NoNextLimit::TooMany
        } else if !available.is_empty() && available.iter().all(|s| *s == self.slo.stat) {
            NoNextLimit::OnlyJudged(self.slo.stat)
        } else {
            NoNextLimit::EachHasOne(self.slo.stat)
        })
    }

    /// The fleet inputs for a deployment on `gpu`: its own price per GPU-hour where
    /// `gpu_prices` names it, else the price for every type (see [`GpuPrices::for_gpu`]).
    pub fn capacity_for(&self, gpu: &str) -> CapacityInputs {
        self.pricing().for_gpu(gpu)
    }

    /// The power budget's inputs, where a budget is given (see [`Scenario::power_inputs_at`]).
    pub fn power_inputs(&self) -> Option<PowerInputs> {
        Some(self.power_inputs_at(self.fleet.power.budget_w?))
    }

    /// The power inputs under a budget of `budget_w` W (the link's, or the command line's
    /// `--max-power`): the scenario's basis, `host_w` (0 when not given) and PUE (1 when not
    /// given).
    pub fn power_inputs_at(&self, budget_w: f64) -> PowerInputs {
        let p = &self.fleet.power;
        PowerInputs {
            budget_w,
            basis: p.basis,
            host_w: p.host_w.unwrap_or(0.0),
            pue: self.fleet.capacity.pue_or_default(),
        }
    }

    /// The power budget on `sweep` at `slo`'s recommended level under `plan`, with the load's
    /// peak against it (the load over time, else `users` or `rps`), as every front answers it:
    /// `None` without a budget; with one, its inputs and [`Scenario::budget_under`]'s answer.
    pub fn power_budget(
        &self,
        sweep: &Sweep,
        plan: &Plan,
        slo: &Slo,
    ) -> Option<(PowerInputs, Option<Result<Budgeted, PowerError>>)> {
        let inputs = self.power_inputs()?;
        Some((inputs, self.budget_under(sweep, plan, slo, &inputs)))
    }

    /// [`budget_at`] of `inputs` on `sweep`, with this scenario's fleet inputs for its GPU type
    /// and its load: `None` without a recommendation, an error when the power per GPU cannot be
    /// read.
    pub fn budget_under(
        &self,
        sweep: &Sweep,
        plan: &Plan,
        slo: &Slo,
        inputs: &PowerInputs,
    ) -> Option<Result<Budgeted, PowerError>> {
        let fleet = self.capacity_for(&sweep.deployment.gpu);
        let load = self.fleet.load.as_ref().map(|l| (l, self.fleet.scaling));
        budget_at(sweep, plan, slo, inputs, &fleet, load)
    }

    /// The autoscaler at `slo`'s recommended level of `sweep` under `plan` (the model of this
    /// scenario, its fleet inputs for the GPU type and its load), as every front writes it;
    /// `None` without a recommendation.
    pub fn autoscaler(&self, sweep: &Sweep, plan: &Plan, slo: &Slo) -> Option<Autoscaler> {
        let fleet = self.capacity_for(&sweep.deployment.gpu);
        let load = self.fleet.load.as_ref().map(|l| (l, self.fleet.scaling));
        autoscaler(sweep, plan, slo, &self.deployment.model_id, &fleet, load)
    }

    /// The fleet inputs and GPU prices, as costing a deployment needs them.
    pub fn pricing(&self) -> Pricing<'_> {
        Pricing {
            capacity: &self.fleet.capacity,
            gpu_prices: &self.fleet.gpu_prices,
        }
    }

    /// True when a GPU price applies to GPU type `gpu`: its own, or the one for every type.
    pub fn gpu_priced(&self, gpu: &str) -> bool {
        self.capacity_for(gpu).price_per_gpu_hour.is_some()
    }

    /// True when prices are given for other GPU types but none applies to `gpu` (where the
    /// page says "no price given for" it).
    pub fn priced_elsewhere_only(&self, gpu: &str) -> bool {
        !self.fleet.gpu_prices.0.is_empty() && !self.gpu_priced(gpu)
    }

    /// True when a price per GPU-hour is given, for every type or for one (so deployments can
    /// be costed, ranked and charted by cost; electricity alone never ranks one as cheap).
    pub fn priced(&self) -> bool {
        self.pricing().priced()
    }

    /// The chart's y axis as drawn: the cost only when a price is given.
    pub fn drawn_chart_y(&self) -> ChartY {
        if self.priced() {
            self.view.chart_y
        } else {
            ChartY::PerGpu
        }
    }

    /// Index into `source.sweeps` of the scenario's deployment.
    pub fn sweep_index(&self, source: &Source) -> Option<usize> {
        self.deployment.sweep_index(source)
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
            Some(self.deployment.gpu.clone()),
            self.deployment.num_gpus,
            &mut ignored,
        );
        let cfg = resolve_config(source, model_index, &gpu, num_gpus, None, &mut ignored);
        let moved = Scenario {
            deployment: Picked {
                model_id: model_id.to_string(),
                gpu,
                num_gpus,
                cfg,
            },
            view: self.view.on_another_sweep(),
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
        if has.contains(&self.slo.stat) {
            return self;
        }
        let same_metric = self
            .slo
            .stat
            .same_metric_nearest()
            .into_iter()
            .find(|s| has.contains(s));
        let stat = same_metric.unwrap_or_else(|| default_stat(sweep));
        let mut scenario = self;
        scenario.slo.stat = stat;
        scenario
    }

    /// The same scenario on another sweep of the same source.
    pub fn with_sweep(&self, source: &Source, sweep_index: usize) -> Scenario {
        let Some(sweep) = source.sweeps.get(sweep_index) else {
            return self.clone();
        };
        Scenario {
            deployment: Picked {
                model_id: source.models[sweep.model_index].model_id.clone(),
                gpu: sweep.deployment.gpu.clone(),
                num_gpus: sweep.deployment.num_gpus,
                cfg: source.sweep_cfg(sweep_index).map(str::to_string),
            },
            view: self.view.on_another_sweep(),
            ..self.clone()
        }
        .keeping_a_reported_stat(source)
    }
}

/// What a scenario gives the side-by-side table's cost columns: a price, a load, an API's price.
struct Costed {
    priced: bool,
    has_load: bool,
    has_api: bool,
}

/// The side-by-side table's order where the inputs let it sort: a cost column sorts nothing
/// without a price (and fleet $/hour without a load), so it is dropped (`None`, the table's own
/// order) with an error saying what it needs.
fn checked_sort(
    compare_sort: Option<(Column, bool)>,
    costed: Costed,
    errors: &mut Vec<ParamError>,
) -> Option<(Column, bool)> {
    let Costed {
        priced,
        has_load,
        has_api,
    } = costed;
    match compare_sort {
        Some((column, _)) if !column.sortable(priced, has_load, has_api) => {
            let needs = match (column, priced) {
                (Column::VsApi, true) => Needs::Api,
                (Column::VsApi, false) if has_api => Needs::Price,
                (Column::VsApi, false) => Needs::PriceAndApi,
                (_, true) => Needs::Load,
                (Column::FleetCostPerHour, false) => Needs::LoadAndPrice,
                (_, false) => Needs::Price,
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
