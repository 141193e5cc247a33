//! Sweeps and levels: the measured data the planner reads.
//!
//! A **sweep** is the runs of one [`Deployment`] (every identity field equal), sorted by the
//! **level** (vLLM `max_num_seqs`, client concurrency or request rate). Several runs may share a
//! level (repeats); [`Sweep::levels`] groups them and takes, per figure, the **worst of the runs
//! that report it**: a figure is "not reported" only when no run at the level reports it, and
//! [`Level::runs_reporting`] says how many did.

use serde::{Deserialize, Serialize};

pub use crate::core::model::deployment::{Deployment, Field, LevelKind};
pub use crate::core::model::roles::RoleFigures;
pub use crate::core::model::row::{EnergyBasis, PowerPeak, Row, RunCounts, ServedBasis};
pub use crate::core::model::signals::ServerSignals;
pub use crate::core::model::statistic::{Aggregate, Metric, Statistic};

mod levels;

use levels::group_levels;

/// The model of a run whose file does not state one (and none was given in the import dialog).
pub const MODEL_NOT_STATED: &str = "model not stated";

/// What one model is, as the source describes it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Hugging Face id, e.g. `meta-llama/Llama-3.1-8B-Instruct`; the URL `model` parameter.
    pub model_id: String,
    /// Display name, e.g. `Llama 3.1 8B`.
    pub nickname: String,
    /// e.g. `Dense Transformer`, `MoE`, `Mamba-Transformer Hybrid`.
    pub architecture: String,
    /// Total parameters, billions, where stated.
    pub total_params_b: Option<f64>,
    /// Parameters active per token, billions (differs from the total for MoE), where stated.
    pub activated_params_b: Option<f64>,
}

impl Model {
    /// e.g. `MoE, 235B total, 22B active`, `Dense Transformer, 8B`, or with what is not stated.
    pub fn size_label(&self) -> String {
        match (self.total_params_b, self.activated_params_b) {
            (Some(t), Some(a)) if a < t => {
                format!("{}, {t}B total, {a}B active", self.architecture)
            }
            (Some(t), _) => format!("{}, {t}B", self.architecture),
            (None, _) => format!("{}, parameter count not stated", self.architecture),
        }
    }
}

/// A figure of a level whose coverage over repeated runs is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// A latency statistic.
    Latency(Statistic),
    /// `avg_batch_size`.
    AvgBatch,
    /// Output tokens per request.
    OutputLen,
    /// Average power.
    Power,
    /// J per output token.
    EnergyPerToken,
    /// J per request.
    EnergyPerRequest,
    /// Served request rate.
    Served,
}

/// Figures counted besides the latencies.
const OTHER_FIGURES: usize = 6;

impl Figure {
    fn index(self) -> usize {
        match self {
            Figure::Latency(s) => s.index(),
            Figure::AvgBatch => Statistic::COUNT,
            Figure::OutputLen => Statistic::COUNT + 1,
            Figure::Power => Statistic::COUNT + 2,
            Figure::EnergyPerToken => Statistic::COUNT + 3,
            Figure::EnergyPerRequest => Statistic::COUNT + 4,
            Figure::Served => Statistic::COUNT + 5,
        }
    }

    /// The hook value (`figure-coverage` `data-stat`): a statistic's URL key, or `avg_batch`,
    /// `output_len`, `power`, `energy`, `energy_per_request`, `served`.
    pub fn key(self) -> &'static str {
        match self {
            Figure::Latency(s) => s.key(),
            Figure::AvgBatch => "avg_batch",
            Figure::OutputLen => "output_len",
            Figure::Power => "power",
            Figure::EnergyPerToken => "energy",
            Figure::EnergyPerRequest => "energy_per_request",
            Figure::Served => "served",
        }
    }

    /// Its name in a sentence: `p90 ITL`, `power`, `J/token`.
    pub fn label(self) -> &'static str {
        match self {
            Figure::Latency(s) => s.short_label(),
            Figure::AvgBatch => "avg batch",
            Figure::OutputLen => "output tokens per request",
            Figure::Power => "power",
            Figure::EnergyPerToken => "J/token",
            Figure::EnergyPerRequest => "J/request",
            Figure::Served => "served req/s",
        }
    }

    /// The value of this figure in a row.
    fn of(self, row: &Row) -> Option<f64> {
        match self {
            Figure::Latency(s) => row.latency_ms(s),
            Figure::AvgBatch => row.avg_batch_size,
            Figure::OutputLen => row.avg_output_len,
            Figure::Power => row.power_w,
            Figure::EnergyPerToken => row.energy_per_token_j,
            Figure::EnergyPerRequest => row.energy_per_request_j,
            Figure::Served => row.served_req_s,
        }
    }
}

/// The figures of one level: per figure, the worst over the runs that report it (highest
/// latencies, J/token, J/request and power; lowest throughput, `avg_batch_size` and served
/// request rate; the highest output tokens per request; the counts of the run whose share of
/// failed requests is highest). A figure no run reports is `None`; the default is a level 0 at
/// 0 tok/s with nothing else reported, which each level starts from before its runs are taken in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    /// The level (see [`LevelKind`]).
    pub level: f64,
    /// Indices into [`Sweep::rows`] of the runs measured at this level (more than one = repeats).
    pub row_indices: Vec<usize>,
    /// Lowest `avg_batch_size`.
    pub avg_batch_size: Option<f64>,
    /// Highest output tokens per request.
    pub avg_output_len: Option<f64>,
    /// Highest input tokens per request.
    pub avg_input_len: Option<f64>,
    /// Lowest aggregate output tok/s (every run reports it).
    pub throughput_tok_s: f64,
    /// Lowest aggregate input tok/s, where reported.
    pub input_tok_s: Option<f64>,
    /// The roles' figures of a disaggregated deployment: highest power and J per output
    /// token of each, over the runs that report them.
    pub roles: RoleFigures,
    /// Highest average power, W.
    pub power_w: Option<f64>,
    /// Highest power percentile or maximum a run reports, W, with which it is.
    pub power_peak: Option<(f64, PowerPeak)>,
    /// Highest J/token, each run's own (stored, or derived from that run's figures).
    pub energy_per_token_j: Option<f64>,
    /// Where the J/token shown comes from (that of the run it was taken from).
    pub energy_basis: Option<EnergyBasis>,
    /// Highest J/request as stored.
    pub energy_per_request_j: Option<f64>,
    /// Lowest served request rate, req/s.
    pub served_req_s: Option<f64>,
    /// The requests of the run with the highest share of failed requests: (completed,
    /// failed), each `None` where that run does not count it.
    pub requests: Option<(Option<f64>, Option<f64>)>,
    latency_ms: [Option<f64>; Statistic::COUNT],
    runs: [u32; Statistic::COUNT + OTHER_FIGURES],
}

impl Level {
    /// Worst (highest) latency at `stat` over the runs that report it, ms.
    pub fn latency_ms(&self, stat: Statistic) -> Option<f64> {
        self.latency_ms[stat.index()]
    }

    /// Per-user tok/s at `stat`: `1000 / latency_ms(stat)`.
    pub fn user_tps(&self, stat: Statistic) -> Option<f64> {
        self.latency_ms(stat).map(|ms| 1000.0 / ms)
    }

    /// Worst (lowest) rate-based per-user tok/s (throughput / concurrency) over the runs.
    pub fn rate_user_tps(&self) -> Option<f64> {
        self.user_tps(Statistic::Rate)
    }

    /// True when more than one run was measured at this level.
    pub fn is_duplicate(&self) -> bool {
        self.row_indices.len() > 1
    }

    /// Runs measured at this level.
    pub fn runs(&self) -> usize {
        self.row_indices.len()
    }

    /// Runs at this level that report `figure`.
    pub fn runs_reporting(&self, figure: Figure) -> usize {
        self.runs[figure.index()] as usize
    }

    /// The highest share of requests that failed over the runs that count them (1 when no
    /// request of a run completed).
    pub fn failed_share(&self) -> Option<f64> {
        let (completed, failed) = self.requests?;
        crate::core::model::row::failed_share(completed, failed)
    }

    /// Served request rate / offered rate, on a request-rate sweep where the served rate is
    /// known; `None` otherwise.
    pub fn served_ratio(&self, kind: LevelKind) -> Option<f64> {
        (kind == LevelKind::RequestRate).then_some(self.served_req_s? / self.level)
    }
}

/// One deployment and its measured sweep. Serialised without its levels, which are rebuilt
/// from the rows on reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SweepParts", into = "SweepParts")]
pub struct Sweep {
    /// Index into [`Source::models`](crate::core::model::source::Source::models).
    pub model_index: usize,
    /// What was measured.
    pub deployment: Deployment,
    /// Rows sorted by level (stable: rows at one level keep their file order).
    pub rows: Vec<Row>,
    levels: Vec<Level>,
}

/// A [`Sweep`]'s fields without the levels derived from its rows (its serialised form).
#[derive(Serialize, Deserialize)]
struct SweepParts {
    model_index: usize,
    deployment: Deployment,
    rows: Vec<Row>,
}

impl From<SweepParts> for Sweep {
    fn from(p: SweepParts) -> Sweep {
        Sweep::new(p.model_index, p.deployment, p.rows)
    }
}

impl From<Sweep> for SweepParts {
    fn from(s: Sweep) -> SweepParts {
        SweepParts {
            model_index: s.model_index,
            deployment: s.deployment,
            rows: s.rows,
        }
    }
}

impl Sweep {
    /// Builds a sweep; sorts `rows` by level and groups them into levels.
    pub fn new(model_index: usize, deployment: Deployment, mut rows: Vec<Row>) -> Sweep {
        crate::core::model::order::sort_by(&mut rows, |a, b| a.level.total_cmp(&b.level));
        let levels = group_levels(&rows);
        Sweep {
            model_index,
            deployment,
            rows,
            levels,
        }
    }

    /// True when a run of the sweep has per-request records (attainment can be judged).
    pub fn has_request_records(&self) -> bool {
        self.rows.iter().any(|r| r.requests.is_some())
    }

    /// The distinct levels, ascending, each with its worst-of-runs figures.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// The server's signals at the level of index `li` (of [`Sweep::levels`]): per figure, the
    /// worst over its runs that report it ([`ServerSignals::worst`]); `None` when none reports
    /// any. Computed when asked (the verdicts, the autoscaler, the downloads), not with the
    /// levels.
    pub fn level_signals(&self, li: usize) -> Option<ServerSignals> {
        let level = self.levels.get(li)?;
        let mut runs = level
            .row_indices
            .iter()
            .filter_map(|&i| self.rows.get(i)?.signals.as_deref());
        let mut worst = runs.next()?.clone();
        for signals in runs {
            worst.worst(signals);
        }
        Some(worst)
    }

    /// What the level is.
    pub fn level_kind(&self) -> LevelKind {
        self.deployment.level_kind
    }

    /// Aggregate output tok/s divided by the GPU count; `None` when the count is not stated.
    pub fn per_gpu(&self, throughput_tok_s: f64) -> Option<f64> {
        self.deployment
            .num_gpus
            .map(|n| throughput_tok_s / f64::from(n))
    }

    /// The statistics some level reports (the ones the planner can judge and the menu offers).
    pub fn statistics(&self) -> Vec<Statistic> {
        Statistic::ALL
            .into_iter()
            .filter(|s| self.levels.iter().any(|l| l.latency_ms(*s).is_some()))
            .collect()
    }

    /// The statistics a limit can be judged on together with the judged statistic `stat`: those
    /// reported at some level that also reports it. All of [`Sweep::statistics`] when no level
    /// reports `stat` (nothing can be judged then, whatever the limits).
    pub fn statistics_for_limits(&self, stat: Statistic) -> Vec<Statistic> {
        let with: Vec<Statistic> = Statistic::ALL
            .into_iter()
            .filter(|s| {
                self.levels
                    .iter()
                    .any(|l| l.latency_ms(stat).is_some() && l.latency_ms(*s).is_some())
            })
            .collect();
        if with.is_empty() {
            self.statistics()
        } else {
            with
        }
    }
}

#[cfg(test)]
mod tests;
