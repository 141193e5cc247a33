//! Sweeps and levels: the measured data the planner reads.
//!
//! A **sweep** is the runs of one [`Deployment`] (every identity field equal), sorted by the
//! **level** (vLLM `max_num_seqs`, client concurrency or request rate). Several runs may share a
//! level (repeats); [`Sweep::levels`] groups them and takes, per figure, the **worst of the runs
//! that report it**: a figure is "not reported" only when no run at the level reports it, and
//! [`Level::runs_reporting`] says how many did.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};

pub use crate::core::model::deployment::{Deployment, Field, LevelKind};
pub use crate::core::model::row::{EnergyBasis, Row, RunCounts, ServedBasis};
pub use crate::core::model::statistic::{Aggregate, Metric, Statistic};

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
/// failed requests is highest). A figure no run reports is `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The level (see [`LevelKind`]).
    pub level: f64,
    /// Indices into [`Sweep::rows`] of the runs measured at this level (more than one = repeats).
    pub row_indices: Vec<usize>,
    /// Lowest `avg_batch_size`.
    pub avg_batch_size: Option<f64>,
    /// Highest output tokens per request.
    pub avg_output_len: Option<f64>,
    /// Lowest aggregate output tok/s (every run reports it).
    pub throughput_tok_s: f64,
    /// Highest average power, W.
    pub power_w: Option<f64>,
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
    /// Index into [`Source::models`].
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

/// Which way a figure's worst lies.
#[derive(Clone, Copy)]
enum Worst {
    High,
    Low,
}

fn worse(a: Option<f64>, b: Option<f64>, way: Worst) -> Option<f64> {
    match (a, b, way) {
        (Some(x), Some(y), Worst::High) => Some(x.max(y)),
        (Some(x), Some(y), Worst::Low) => Some(x.min(y)),
        (x, y, _) => x.or(y),
    }
}

fn group_levels(rows: &[Row]) -> Vec<Level> {
    let mut levels: Vec<Level> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match levels.last_mut() {
            Some(level) if level.level == row.level => absorb(level, i, row),
            _ => {
                let mut level = Level {
                    level: row.level,
                    row_indices: Vec::new(),
                    avg_batch_size: None,
                    avg_output_len: None,
                    throughput_tok_s: row.throughput_tok_s,
                    power_w: None,
                    energy_per_token_j: None,
                    energy_basis: None,
                    energy_per_request_j: None,
                    served_req_s: None,
                    requests: None,
                    latency_ms: [None; Statistic::COUNT],
                    runs: [0; Statistic::COUNT + OTHER_FIGURES],
                };
                absorb(&mut level, i, row);
                levels.push(level);
            }
        }
    }
    levels
}

fn absorb(level: &mut Level, index: usize, row: &Row) {
    level.row_indices.push(index);
    level.throughput_tok_s = level.throughput_tok_s.min(row.throughput_tok_s);
    level.avg_batch_size = worse(level.avg_batch_size, row.avg_batch_size, Worst::Low);
    level.avg_output_len = worse(level.avg_output_len, row.avg_output_len, Worst::High);
    level.power_w = worse(level.power_w, row.power_w, Worst::High);
    level.energy_per_request_j = worse(
        level.energy_per_request_j,
        row.energy_per_request_j,
        Worst::High,
    );
    level.served_req_s = worse(level.served_req_s, row.served_req_s, Worst::Low);
    if let Some(share) = row.failed_share() {
        if level.failed_share().is_none_or(|worst| share > worst) {
            level.requests = Some((row.completed_requests, row.failed_requests));
        }
    }
    if let Some(j) = row.energy_per_token_j {
        if level.energy_per_token_j.is_none_or(|worst| j > worst) {
            level.energy_per_token_j = Some(j);
            level.energy_basis = row.energy_basis;
        }
    }
    for stat in Statistic::ALL {
        let i = stat.index();
        level.latency_ms[i] = worse(level.latency_ms[i], row.latency_ms(stat), Worst::High);
    }
    let figures = Statistic::ALL.into_iter().map(Figure::Latency).chain([
        Figure::AvgBatch,
        Figure::OutputLen,
        Figure::Power,
        Figure::EnergyPerToken,
        Figure::EnergyPerRequest,
        Figure::Served,
    ]);
    for figure in figures {
        if figure.of(row).is_some() {
            level.runs[figure.index()] += 1;
        }
    }
}

/// A set of sweeps from one publication, e.g. the ML.ENERGY `lm-arena-chat` task. Built with
/// [`Source::new`], which names each sweep (label and `cfg`) once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SourceParts", into = "SourceParts")]
pub struct Source {
    /// Task id, e.g. `lm-arena-chat`.
    pub task: String,
    /// Task display name, e.g. `LLM Chat (LM Arena)`.
    pub task_display_name: String,
    /// Models, in first-seen order.
    pub models: Vec<Model>,
    /// Sweeps, in first-seen order.
    pub sweeps: Vec<Sweep>,
    /// Where the data comes from and what it does not state.
    pub provenance: Provenance,
    /// For a source held in part (the bundled data's default model family, which the page
    /// carries from the start): what the whole holds. Its other models are listed in `models`
    /// with no sweeps here; the page reads the whole before showing one of them. `None`: the
    /// source is whole. Not part of the serialised form (what crosses is always a whole source).
    pub whole: Option<Whole>,
    names: Vec<SweepNames>,
    /// Each model's sweeps in menu order ([`Source::sweeps_of`]), sorted once here.
    menus: Vec<Vec<usize>>,
    /// Each sweep's configuration ([`Source::configuration_of`]), found once here.
    configurations: Vec<usize>,
}

/// What a whole source holds, said by a part of it (see [`Source::whole`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Whole {
    /// Its runs.
    pub rows: usize,
    /// Its sweeps.
    pub sweeps: usize,
    /// Its GPU types, each once, in the order first met (as [`Source::gpu_types`]).
    pub gpu_types: Vec<&'static str>,
}

/// What the page calls a sweep.
#[derive(Clone, Debug, Default, PartialEq)]
struct SweepNames {
    label: String,
    cfg: Option<String>,
}

/// A [`Source`] without its derived names (its serialised form).
#[derive(Serialize, Deserialize)]
struct SourceParts {
    task: String,
    task_display_name: String,
    models: Vec<Model>,
    sweeps: Vec<Sweep>,
    provenance: Provenance,
}

impl From<SourceParts> for Source {
    fn from(p: SourceParts) -> Source {
        Source::new(
            p.task,
            p.task_display_name,
            p.models,
            p.sweeps,
            p.provenance,
        )
    }
}

impl From<Source> for SourceParts {
    fn from(s: Source) -> SourceParts {
        SourceParts {
            task: s.task,
            task_display_name: s.task_display_name,
            models: s.models,
            sweeps: s.sweeps,
            provenance: s.provenance,
        }
    }
}

/// The identity fields beyond hardware that differ among `group`, and (for `cfg`) parallelism
/// and precision: the texts that tell the group's sweeps apart.
fn telling_apart(sweeps: &[Sweep], group: &[usize], with_base: bool) -> Vec<Vec<String>> {
    let mut parts: Vec<Vec<String>> = vec![Vec::new(); group.len()];
    let mut column = |text: &dyn Fn(&Deployment) -> String| {
        let texts: Vec<String> = group.iter().map(|&i| text(&sweeps[i].deployment)).collect();
        if texts.iter().any(|t| *t != texts[0]) {
            for (p, t) in parts.iter_mut().zip(texts) {
                p.push(t);
            }
        }
    };
    if with_base {
        column(&|d| d.parallelism_label());
        column(&|d| d.precision_label().to_string());
    }
    for field in Deployment::FIELDS {
        column(&|d| d.field_label(field));
    }
    parts
}

impl Source {
    /// A source; names each sweep: its label (hardware, parallelism, precision, and the other
    /// identity fields that differ among the model's sweeps) and its `cfg` (what tells it apart
    /// from the sweeps of the same model, GPU type and count; `None` when it is the only one).
    pub fn new(
        task: String,
        task_display_name: String,
        models: Vec<Model>,
        sweeps: Vec<Sweep>,
        provenance: Provenance,
    ) -> Source {
        let mut names = vec![SweepNames::default(); sweeps.len()];
        let mut by_model: Vec<Vec<usize>> = vec![Vec::new(); models.len()];
        for (i, s) in sweeps.iter().enumerate() {
            if let Some(of_model) = by_model.get_mut(s.model_index) {
                of_model.push(i);
            }
        }
        for of_model in &by_model {
            // What tells the sweep apart comes first: a closed menu shows the start of a label.
            for (&i, extras) in of_model.iter().zip(telling_apart(&sweeps, of_model, false)) {
                let base = sweeps[i].deployment.base_label();
                names[i].label = if extras.is_empty() {
                    base
                } else {
                    format!("{} · {base}", extras.join(", "))
                };
            }
            // The sweeps of one GPU type and count, in first-seen order.
            let mut groups: Vec<Vec<usize>> = Vec::new();
            let mut group_of: HashMap<(&str, Option<u32>), usize> = HashMap::new();
            for &i in of_model {
                let d = &sweeps[i].deployment;
                let at = *group_of
                    .entry((d.gpu.as_str(), d.num_gpus))
                    .or_insert_with(|| {
                        groups.push(Vec::new());
                        groups.len() - 1
                    });
                groups[at].push(i);
            }
            for group in groups.iter().filter(|g| g.len() > 1) {
                let mut seen: HashSet<String> = HashSet::new();
                for (&j, parts) in group.iter().zip(telling_apart(&sweeps, group, true)) {
                    let mut cfg = parts.join(", ");
                    let base = cfg.clone();
                    let mut n = 1;
                    while seen.contains(&cfg) {
                        n += 1;
                        cfg = format!("{base} #{n}");
                    }
                    seen.insert(cfg.clone());
                    names[j].cfg = Some(cfg);
                }
            }
        }
        // A configuration: every identity field but the date (campaigns of one setup).
        let mut configuration_ids: HashMap<String, usize> = HashMap::new();
        let configurations = sweeps
            .iter()
            .map(|s| {
                let mut undated = s.deployment.clone();
                undated.date = None;
                let key = format!("{}\u{0}{}", s.model_index, undated.identity_key());
                let next = configuration_ids.len();
                *configuration_ids.entry(key).or_insert(next)
            })
            .collect();
        let menus = by_model
            .into_iter()
            .map(|mut of_model| {
                crate::core::model::order::sort_by(&mut of_model, |&a, &b| {
                    sweeps[a].deployment.picker_order(&sweeps[b].deployment)
                });
                of_model
            })
            .collect();
        Source {
            task,
            task_display_name,
            models,
            sweeps,
            provenance,
            whole: None,
            names,
            menus,
            configurations,
        }
    }

    /// True when the model has sweeps here; false for a model of the whole not held by this
    /// part (see [`Source::whole`]).
    pub fn holds_model(&self, model_index: usize) -> bool {
        self.menus.get(model_index).is_some_and(|m| !m.is_empty())
    }

    /// Runs and sweeps of the whole source (this one's own when it is whole).
    pub fn whole_counts(&self) -> (usize, usize) {
        self.whole
            .as_ref()
            .map_or((self.row_count(), self.sweeps.len()), |w| {
                (w.rows, w.sweeps)
            })
    }

    /// Indexes of the models in menu order: by organisation (the `model_id` before its `/`, case
    /// ignored), then total parameters (so 8B comes before 70B), then `model_id`.
    pub fn models_in_menu_order(&self) -> Vec<usize> {
        let mut models: Vec<usize> = (0..self.models.len()).collect();
        let org = |id: &str| {
            id.split('/')
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase()
        };
        crate::core::model::order::sort_by(&mut models, |&a, &b| {
            let (ma, mb) = (&self.models[a], &self.models[b]);
            org(&ma.model_id)
                .cmp(&org(&mb.model_id))
                .then(
                    ma.total_params_b
                        .partial_cmp(&mb.total_params_b)
                        .unwrap_or(std::cmp::Ordering::Equal),
                )
                .then(ma.model_id.cmp(&mb.model_id))
        });
        models
    }

    /// The GPU types of the source's sweeps (of the whole, for a part), each once, in the order
    /// first met ("GPU not stated" left out: it takes only the price for every type).
    pub fn gpu_types(&self) -> Vec<&str> {
        if let Some(whole) = &self.whole {
            return whole.gpu_types.clone();
        }
        let mut types: Vec<&str> = Vec::new();
        for sweep in &self.sweeps {
            let gpu = sweep.deployment.gpu.as_str();
            if gpu != crate::core::model::deployment::GPU_NOT_STATED && !types.contains(&gpu) {
                types.push(gpu);
            }
        }
        types
    }

    /// Index of the model with this `model_id`.
    pub fn model_index(&self, model_id: &str) -> Option<usize> {
        self.models.iter().position(|m| m.model_id == model_id)
    }

    /// The sweep's label in the picker: whatever beyond hardware, parallelism and precision tells
    /// it apart from the model's other sweeps, then those, e.g. `2026-03-25 · 8 x h200, TP8, fp8`.
    pub fn sweep_label(&self, sweep_index: usize) -> &str {
        self.names.get(sweep_index).map_or("", |n| n.label.as_str())
    }

    /// The sweep's URL `cfg`: what tells it apart from the sweeps of the same model, GPU type
    /// and count; `None` when it is the only one.
    pub fn sweep_cfg(&self, sweep_index: usize) -> Option<&str> {
        self.names.get(sweep_index)?.cfg.as_deref()
    }

    /// Indices into `sweeps` of the model's deployments: GPU type, then fewest GPUs, then newest
    /// date first (sorted once, when the source is built).
    pub fn sweeps_of(&self, model_index: usize) -> Vec<usize> {
        self.menus.get(model_index).cloned().unwrap_or_default()
    }

    /// The configuration of a sweep: equal for two sweeps of one model whose identity differs
    /// in the date alone (campaigns of one setup), an index into no list.
    pub fn configuration_of(&self, sweep_index: usize) -> usize {
        self.configurations
            .get(sweep_index)
            .copied()
            .unwrap_or(sweep_index)
    }

    /// Total number of rows over all sweeps.
    pub fn row_count(&self) -> usize {
        self.sweeps.iter().map(|s| s.rows.len()).sum()
    }
}

/// Where a source's numbers come from. `None` fields are "not stated" by the source and are
/// shown as such, never filled in.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Who published or measured the data, e.g. `ML.ENERGY leaderboard`.
    pub publisher: String,
    /// When the data was taken or published, where known.
    pub date: Option<String>,
    /// Serving engine and version, where stated.
    pub engine: Option<String>,
    /// Input (prompt) length distribution, where stated.
    pub input_lengths: Option<String>,
    /// Warm-up before measuring, where stated.
    pub warmup: Option<String>,
    /// Further notes (caveats, derivations), each a sentence.
    pub notes: Vec<String>,
    /// Reference systems: shown for reading, kept out of rankings and cost comparisons.
    pub reference: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deployment(
        gpu: &str,
        gpus: u32,
        parallelism: (u32, u32, u32),
        precision: &str,
    ) -> Deployment {
        Deployment::hardware(gpu, Some(gpus), parallelism, precision)
    }

    fn row(level: f64, p50: f64, throughput: f64, batch: f64) -> Row {
        let mut r = Row::new(level, throughput)
            .with(Statistic::P50, Some(p50))
            .with(Statistic::P90, Some(p50 * 2.0))
            .with(Statistic::P95, Some(p50 * 3.0))
            .with(Statistic::P99, Some(p50 * 4.0))
            .with(Statistic::Rate, Some(batch * 1000.0 / throughput));
        r.avg_batch_size = Some(batch);
        r.power_w = Some(throughput * 0.1);
        r.set_energy_per_token_j(Some(0.1));
        r.energy_per_request_j = Some(50.0);
        r
    }

    #[test]
    fn duplicate_level_takes_worst_per_metric() {
        let mut a = row(256.0, 30.0, 7000.0, 250.0);
        a.power_w = Some(900.0);
        let mut b = row(256.0, 34.0, 7200.0, 240.0);
        b.power_w = Some(800.0);
        b.set_energy_per_token_j(Some(0.2));
        let sweep = Sweep::new(
            0,
            deployment("H100", 2, (1, 2, 1), "bfloat16"),
            vec![b, row(8.0, 10.0, 800.0, 8.0), a],
        );
        assert_eq!(sweep.levels().len(), 2);
        let l = &sweep.levels()[1];
        assert!(l.is_duplicate());
        assert_eq!(l.row_indices, vec![1, 2]);
        assert_eq!(l.latency_ms(Statistic::P50), Some(34.0));
        assert_eq!(l.throughput_tok_s, 7000.0);
        assert_eq!(l.avg_batch_size, Some(240.0));
        assert_eq!(l.power_w, Some(900.0));
        assert_eq!(l.energy_per_token_j, Some(0.2));
        // rate: row a 250*1000/7000 = 35.714..., row b 240*1000/7200 = 33.33...; worst is a's.
        assert_eq!(l.latency_ms(Statistic::Rate), Some(250.0 * 1000.0 / 7000.0));
        assert_eq!(l.rate_user_tps(), Some(1000.0 / (250.0 * 1000.0 / 7000.0)));
        assert_eq!(sweep.deployment.parallelism_label(), "EP2");
        assert_eq!(sweep.deployment.base_label(), "2 x H100, EP2, bf16");
        assert_eq!((l.runs(), l.runs_reporting(Figure::Power)), (2, 2));
    }

    #[test]
    fn a_figure_some_runs_report_is_the_worst_of_those_runs() {
        // cases/partial-reports at 16: p90 and power reported by 1 of 2 runs.
        let mut a = Row::new(16.0, 1012.9)
            .with(Statistic::P50, Some(15.4))
            .with(Statistic::P90, Some(18.2));
        a.power_w = Some(5756.0);
        let a = a.finish(LevelKind::Concurrency, RunCounts::default());
        let b = Row::new(16.0, 795.8)
            .with(Statistic::P50, Some(19.5))
            .finish(LevelKind::Concurrency, RunCounts::default());
        let sweep = Sweep::new(0, Deployment::new(LevelKind::Concurrency), vec![a, b]);
        let l = &sweep.levels()[0];
        assert_eq!(l.latency_ms(Statistic::P90), Some(18.2));
        assert_eq!(l.latency_ms(Statistic::P50), Some(19.5));
        assert_eq!(l.throughput_tok_s, 795.8);
        assert_eq!(l.power_w, Some(5756.0));
        // J/token from the run that reports power: 5756 / 1012.9, not 5756 / 795.8.
        assert_eq!(l.energy_per_token_j, Some(5756.0 / 1012.9));
        assert_eq!(l.energy_basis, Some(EnergyBasis::PowerOverThroughput));
        assert_eq!(l.runs_reporting(Figure::Latency(Statistic::P90)), 1);
        assert_eq!(l.runs_reporting(Figure::Latency(Statistic::P50)), 2);
        assert_eq!(l.runs_reporting(Figure::Power), 1);
        assert_eq!(l.runs_reporting(Figure::EnergyPerToken), 1);
        assert_eq!(l.runs_reporting(Figure::AvgBatch), 0);
        assert_eq!(l.avg_batch_size, None);
        assert!(sweep.statistics().contains(&Statistic::P90));
    }

    #[test]
    fn statistics_for_limits_share_a_level_with_the_judged_one() {
        // Level 1 reports mean TPOT only; level 64 reports p50 and rate only.
        let a = Row::new(1.0, 100.0).with(Statistic::TpotMean, Some(10.0));
        let b = Row::new(64.0, 800.0)
            .with(Statistic::P50, Some(80.0))
            .with(Statistic::Rate, Some(80.0));
        let sweep = Sweep::new(0, deployment("A100", 1, (1, 1, 1), "fp16"), vec![a, b]);
        assert_eq!(
            sweep.statistics(),
            vec![Statistic::P50, Statistic::TpotMean, Statistic::Rate]
        );
        assert_eq!(
            sweep.statistics_for_limits(Statistic::TpotMean),
            vec![Statistic::TpotMean]
        );
        assert_eq!(
            sweep.statistics_for_limits(Statistic::Rate),
            vec![Statistic::P50, Statistic::Rate]
        );
        assert_eq!(
            sweep.statistics_for_limits(Statistic::P99),
            sweep.statistics()
        );
    }

    #[test]
    fn labels_show_what_tells_sweeps_apart_and_cfg_selects_one() {
        let model = Model {
            model_id: "m".into(),
            nickname: "m".into(),
            architecture: "MoE".into(),
            total_params_b: None,
            activated_params_b: None,
        };
        let dated = |date: &str| Deployment {
            date: Some(date.into()),
            ..deployment("h200", 8, (8, 1, 1), "fp8")
        };
        let rows = || vec![Row::new(4.0, 300.0)];
        let sweeps = vec![
            Sweep::new(0, dated("2025-12-13"), rows()),
            Sweep::new(0, dated("2026-03-25"), rows()),
            Sweep::new(0, deployment("b200", 8, (8, 1, 1), "fp8"), rows()),
        ];
        let source = Source::new(
            "t".into(),
            "t".into(),
            vec![model],
            sweeps,
            Provenance::default(),
        );
        assert_eq!(source.sweep_label(0), "2025-12-13 · 8 x h200, TP8, fp8");
        assert_eq!(
            source.sweep_label(2),
            "date not stated · 8 x b200, TP8, fp8"
        );
        assert_eq!(source.sweep_cfg(0), Some("2025-12-13"));
        assert_eq!(source.sweep_cfg(1), Some("2026-03-25"));
        assert_eq!(source.sweep_cfg(2), None);
        // Newest date first within one GPU type and count.
        assert_eq!(source.sweeps_of(0), vec![2, 1, 0]);
    }
}
