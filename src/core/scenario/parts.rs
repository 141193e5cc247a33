//! The groups of a [`Scenario`](super::Scenario) other than the SLO and the comparison: the
//! deployment picked ([`Picked`]), the fleet ([`Fleet`], with its power budget) and the view
//! ([`View`]); and what a scenario says of its statistic and limits ([`StatMoved`],
//! [`NoNextLimit`]).

use crate::core::model::source::Source;
use crate::core::model::sweep::Statistic;
use crate::core::plan::capacity::{CapacityInputs, GpuPrices};
use crate::core::plan::chart::ChartY;
use crate::core::plan::compare::Column;
use crate::core::plan::period::{LoadProfile, Scaling};

/// The deployment a scenario picks: model, GPU type and count, and configuration, naming one
/// sweep of its source.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picked {
    /// The model's `model_id`.
    pub model_id: String,
    /// GPU type, e.g. `H100`.
    pub gpu: String,
    /// GPUs per replica (URL `gpus`); `None` for a sweep whose source does not state it.
    pub num_gpus: Option<u32>,
    /// The sweep's `cfg` (`Source::sweep_cfg`: what tells it apart from the model's other sweeps
    /// on that GPU type and count, built from its identity fields; not `Deployment::config`,
    /// the label a file states) when model, GPU and count do not identify one.
    pub cfg: Option<String>,
}

impl Picked {
    /// Index into `source.sweeps` of the sweep this names.
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
}

/// The fleet a scenario sizes: its inputs, prices, and the load over time it follows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fleet {
    /// Optional fleet, cost and energy inputs (`price_per_gpu_hour`: the price for every GPU
    /// type not in `gpu_prices`).
    pub capacity: CapacityInputs,
    /// Prices per GPU-hour of named GPU types (URL `price=H100:2.49,B200:5.99`).
    pub gpu_prices: GpuPrices,
    /// A load that varies over a period (URL `load=KIND:STEP:V1,V2,...`); `None`: none given.
    pub load: Option<LoadProfile>,
    /// How the fleet follows that load: the replicas' lag and floor (URL `lag`, `min_replicas`).
    pub scaling: Scaling,
    /// A power budget and how one GPU's power is read (URL `power`, `power_basis`, `host_w`).
    pub power: PowerParams,
}

/// A power budget and how one GPU's power is read.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PowerParams {
    /// The budget, W (URL `power=1MW`); `None`: none given.
    pub budget_w: Option<f64>,
    /// What one GPU's power is read from (URL `power_basis`).
    pub basis: crate::core::plan::power::PowerBasis,
    /// W per GPU beyond the GPU itself (URL `host_w`); `None`: not given (0 is used, and said).
    pub host_w: Option<f64>,
}

/// How the page shows a scenario's answer.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct View {
    /// What the trade-off chart's y axis shows (URL `y=cost`; the cost only when a price is given).
    pub chart_y: ChartY,
    /// The side-by-side table lists every model's deployments that meet (URL `cmp=all`), not
    /// only this model's family.
    pub compare_all: bool,
    /// The side-by-side table's order: a column, and whether reversed (worst first) (URL
    /// `sort=KEY` or `sort=KEY:reversed`, KEY a [`Column::key`]); `None`: its own order.
    pub compare_sort: Option<(Column, bool)>,
    /// The level the requests panel shows (URL `requests_at`); `None`: the recommended level,
    /// else the first that fails.
    pub requests_at: Option<f64>,
}

impl View {
    /// The view on another sweep: the same but for the requests panel's level, one of the sweep
    /// left (the panel shows the new sweep's own first level).
    pub(super) fn on_another_sweep(self) -> View {
        View {
            requests_at: None,
            ..self
        }
    }
}

/// The judged statistic moved from `before` to `after` (one the deployment shown reports), as
/// choosing a deployment or another source may do; worded by `core::text::scenario_text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatMoved {
    /// The statistic asked for.
    pub before: Statistic,
    /// The statistic judged on instead.
    pub after: Statistic,
}

impl StatMoved {
    /// `Some` when `after` is not `before`.
    pub fn between(before: Statistic, after: Statistic) -> Option<StatMoved> {
        (after != before).then_some(StatMoved { before, after })
    }
}

/// Why [`Scenario::next_limit`] has nothing to propose; worded by `core::text::scenario_text`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoNextLimit {
    /// [`MAX_LIMITS`] limits are set.
    TooMany,
    /// Only the judged statistic is reported at a level.
    OnlyJudged(Statistic),
    /// Each statistic reported with the judged one has a limit.
    EachHasOne(Statistic),
}
