//! Sweeps, levels and statistics: the measured data the planner reads.
//!
//! A **deployment** is one (`model_id`, `gpu_model`, `num_gpus`) with its parallelism and
//! precision; its rows, sorted by the **level** (here vLLM `max_num_seqs`), are its sweep.
//! Several rows may share a level (repeated runs); [`Sweep::levels`] groups them and takes the
//! **worst of its rows per metric**, so a level meets a target only if every one of its rows does.

use std::fmt;

use serde::{Deserialize, Serialize};

/// What one model is, as the source describes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// True when the model activates fewer parameters per token than it holds (MoE).
    pub fn is_sparse(&self) -> bool {
        matches!((self.activated_params_b, self.total_params_b), (Some(a), Some(t)) if a < t)
    }

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

/// One measured run of a deployment at one level. Fields the source did not report are `None`
/// ("not reported"), never a guess.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The sweep variable: vLLM `max_num_seqs`, client concurrency or request rate (see
    /// [`LevelKind`]).
    pub level: f64,
    /// `avg_batch_size`: requests the run actually held on average, where measured.
    pub avg_batch_size: Option<f64>,
    /// Average output tokens per request.
    pub avg_output_len: Option<f64>,
    /// Output tok/s summed over all GPUs of the deployment.
    pub throughput_tok_s: f64,
    /// Average power, W, summed over all GPUs of the deployment.
    pub power_w: Option<f64>,
    /// J per output token as stored by the source.
    pub energy_per_token_j: Option<f64>,
    /// J per request as stored by the source.
    pub energy_per_request_j: Option<f64>,
    latency_ms: [Option<f64>; Statistic::COUNT],
    /// Latencies of 0 or below given to [`Row::set_latency_ms`], stored as absent (not kept
    /// with the data; an importer reports them).
    #[serde(skip)]
    unusable_latencies: u32,
}

impl Row {
    /// A row with only a level and its aggregate output tok/s; every other field unreported.
    pub fn new(level: f64, throughput_tok_s: f64) -> Row {
        Row {
            level,
            avg_batch_size: None,
            avg_output_len: None,
            throughput_tok_s,
            power_w: None,
            energy_per_token_j: None,
            energy_per_request_j: None,
            latency_ms: [None; Statistic::COUNT],
            unusable_latencies: 0,
        }
    }

    /// Latency in ms at `stat`, or `None` if the row does not report it. For `Rate` this is the
    /// concurrency × 1000 / output throughput the importer stored (see [`Statistic::Rate`]).
    pub fn latency_ms(&self, stat: Statistic) -> Option<f64> {
        self.latency_ms[stat.index()]
    }

    /// Sets (or clears) the latency at `stat`, ms. Non-finite or non-positive values are stored
    /// as absent; those of 0 or below are counted (see [`Row::unusable_latencies`]), a NaN or
    /// infinity being how benchmark tools write "no value".
    pub fn set_latency_ms(&mut self, stat: Statistic, ms: Option<f64>) {
        let usable = ms.filter(|v| v.is_finite() && *v > 0.0);
        if ms.is_some_and(|v| v <= 0.0) {
            self.unusable_latencies += 1;
        }
        self.latency_ms[stat.index()] = usable;
    }

    /// How many latencies given to this row were 0 or below, and so are shown as "not
    /// reported".
    pub fn unusable_latencies(&self) -> u32 {
        self.unusable_latencies
    }

    /// Builder form of [`Row::set_latency_ms`].
    pub fn with(mut self, stat: Statistic, ms: Option<f64>) -> Row {
        self.set_latency_ms(stat, ms);
        self
    }

    /// Rate-based per-user tok/s: `1000 / latency_ms(Rate)` = throughput / concurrency.
    pub fn rate_user_tps(&self) -> Option<f64> {
        self.latency_ms(Statistic::Rate).map(|ms| 1000.0 / ms)
    }
}

/// What the level of a sweep is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum LevelKind {
    /// vLLM `max_num_seqs`: the server's cap on running requests (ML.ENERGY).
    MaxNumSeqs,
    /// Requests the benchmark client keeps in flight (`max_concurrency`, `conc`, batch size).
    Concurrency,
    /// Requests per second offered by the client (a sweep with no concurrency).
    RequestRate,
}

impl LevelKind {
    /// The level's name on the page: `max_num_seqs`, `concurrency`, `request rate (req/s)`.
    pub fn label(self) -> &'static str {
        match self {
            LevelKind::MaxNumSeqs => "max_num_seqs",
            LevelKind::Concurrency => "concurrency",
            LevelKind::RequestRate => "request rate (req/s)",
        }
    }

    /// True when the level counts concurrent requests (so it can stand for streams).
    pub fn is_concurrency(self) -> bool {
        !matches!(self, LevelKind::RequestRate)
    }
}

/// Which latency a statistic reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Inter-token latency: gaps between streamed tokens, pooled over all tokens of the run.
    Itl,
    /// Time per output token: per request, (end-to-end − TTFT) / (output tokens − 1).
    Tpot,
    /// Time to first token, per request.
    Ttft,
    /// Throughput divided by concurrency.
    Rate,
}

/// A statistic a target or limit is judged on. URL values: ITL `p50` `p90` `p95` `p99`
/// `itl_mean`; TPOT `tpot_mean` `tpot_p50` `tpot_p90` `tpot_p95` `tpot_p99`; TTFT `ttft_mean`
/// `ttft_p50` `ttft_p90` `ttft_p95` `ttft_p99` (limits only); and `rate`. ITL and TPOT are never
/// merged: ITL is pooled over tokens, TPOT is per request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Statistic {
    /// Median inter-token latency (ITL), pooled over all tokens of the run.
    P50,
    /// 90th percentile ITL: 90% of token gaps are at most this long.
    P90,
    /// 95th percentile ITL.
    P95,
    /// 99th percentile ITL.
    P99,
    /// Mean ITL.
    ItlMean,
    /// Mean TPOT over requests.
    TpotMean,
    /// Median TPOT over requests.
    TpotP50,
    /// 90th percentile TPOT over requests.
    TpotP90,
    /// 95th percentile TPOT over requests.
    TpotP95,
    /// 99th percentile TPOT over requests.
    TpotP99,
    /// Mean time to first token.
    TtftMean,
    /// Median time to first token.
    TtftP50,
    /// 90th percentile time to first token.
    TtftP90,
    /// 95th percentile time to first token.
    TtftP95,
    /// 99th percentile time to first token.
    TtftP99,
    /// Throughput per request: concurrency × 1000 / output throughput, ms per token (the method
    /// of Databricks' MPT-7B table, seed 000). It includes prefill and queueing, so it is not mean
    /// ITL. ML.ENERGY: `avg_batch_size`; benchmark clients: their concurrency.
    Rate,
}

impl Statistic {
    /// Number of statistics.
    pub const COUNT: usize = 16;

    /// Every statistic, in menu order.
    pub const ALL: [Statistic; Statistic::COUNT] = [
        Statistic::P50,
        Statistic::P90,
        Statistic::P95,
        Statistic::P99,
        Statistic::ItlMean,
        Statistic::TpotMean,
        Statistic::TpotP50,
        Statistic::TpotP90,
        Statistic::TpotP95,
        Statistic::TpotP99,
        Statistic::Rate,
        Statistic::TtftMean,
        Statistic::TtftP50,
        Statistic::TtftP90,
        Statistic::TtftP95,
        Statistic::TtftP99,
    ];

    /// Position in [`Statistic::ALL`].
    pub fn index(self) -> usize {
        Statistic::ALL.iter().position(|s| *s == self).unwrap_or(0)
    }

    /// The latency this statistic reads.
    pub fn metric(self) -> Metric {
        use Statistic::*;
        match self {
            P50 | P90 | P95 | P99 | ItlMean => Metric::Itl,
            TpotMean | TpotP50 | TpotP90 | TpotP95 | TpotP99 => Metric::Tpot,
            TtftMean | TtftP50 | TtftP90 | TtftP95 | TtftP99 => Metric::Ttft,
            Rate => Metric::Rate,
        }
    }

    /// True when the statistic is a time per output token, so a per-user tok/s target can be
    /// judged on it (TTFT is not: it may only be a limit).
    pub fn is_per_token(self) -> bool {
        self.metric() != Metric::Ttft
    }

    /// The URL value, e.g. `p90`, `tpot_p99`, `ttft_p90`.
    pub fn key(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50",
            P90 => "p90",
            P95 => "p95",
            P99 => "p99",
            ItlMean => "itl_mean",
            TpotMean => "tpot_mean",
            TpotP50 => "tpot_p50",
            TpotP90 => "tpot_p90",
            TpotP95 => "tpot_p95",
            TpotP99 => "tpot_p99",
            TtftMean => "ttft_mean",
            TtftP50 => "ttft_p50",
            TtftP90 => "ttft_p90",
            TtftP95 => "ttft_p95",
            TtftP99 => "ttft_p99",
            Rate => "rate",
        }
    }

    /// Parses a URL value (`median` is accepted for `p50`); `None` if unknown.
    pub fn from_key(key: &str) -> Option<Statistic> {
        if key == "median" {
            return Some(Statistic::P50);
        }
        Statistic::ALL.into_iter().find(|s| s.key() == key)
    }

    /// Menu label, honest about what a percentile means.
    pub fn label(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50 ITL (median token gap)",
            P90 => "p90 ITL (90% of token gaps at most this)",
            P95 => "p95 ITL (95% of token gaps at most this)",
            P99 => "p99 ITL (99% of token gaps at most this)",
            ItlMean => "mean ITL",
            TpotMean => "mean TPOT (per request)",
            TpotP50 => "p50 TPOT (median request)",
            TpotP90 => "p90 TPOT (90% of requests at most this)",
            TpotP95 => "p95 TPOT (95% of requests at most this)",
            TpotP99 => "p99 TPOT (99% of requests at most this)",
            TtftMean => "mean TTFT",
            TtftP50 => "p50 TTFT",
            TtftP90 => "p90 TTFT",
            TtftP95 => "p95 TTFT",
            TtftP99 => "p99 TTFT",
            Rate => "rate (throughput / concurrency)",
        }
    }

    /// Short column label, e.g. `p90 ITL`.
    pub fn short_label(self) -> &'static str {
        use Statistic::*;
        match self {
            P50 => "p50 ITL",
            P90 => "p90 ITL",
            P95 => "p95 ITL",
            P99 => "p99 ITL",
            ItlMean => "mean ITL",
            TpotMean => "mean TPOT",
            TpotP50 => "p50 TPOT",
            TpotP90 => "p90 TPOT",
            TpotP95 => "p95 TPOT",
            TpotP99 => "p99 TPOT",
            TtftMean => "mean TTFT",
            TtftP50 => "p50 TTFT",
            TtftP90 => "p90 TTFT",
            TtftP95 => "p95 TTFT",
            TtftP99 => "p99 TTFT",
            Rate => "throughput ÷ concurrency",
        }
    }
}

impl fmt::Display for Statistic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// The figures of one level: the worst of its rows per metric (highest latencies, J/token,
/// J/request and power; lowest throughput and `avg_batch_size`). A metric that any row of the
/// level lacks is `None` for the level.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    /// The level (see [`LevelKind`]).
    pub level: f64,
    /// Indices into [`Sweep::rows`] of the rows measured at this level (more than one = duplicate).
    pub row_indices: Vec<usize>,
    /// Worst (lowest) `avg_batch_size`.
    pub avg_batch_size: Option<f64>,
    /// Worst (lowest) aggregate output tok/s.
    pub throughput_tok_s: f64,
    /// Worst (highest) average power, W.
    pub power_w: Option<f64>,
    /// Worst (highest) J/token as stored.
    pub energy_per_token_j: Option<f64>,
    /// Worst (highest) J/request as stored.
    pub energy_per_request_j: Option<f64>,
    latency_ms: [Option<f64>; Statistic::COUNT],
}

impl Level {
    /// Worst (highest) latency at `stat` over the level's rows, ms; `None` if any row lacks it.
    pub fn latency_ms(&self, stat: Statistic) -> Option<f64> {
        self.latency_ms[stat.index()]
    }

    /// Per-user tok/s at `stat`: `1000 / latency_ms(stat)`.
    pub fn user_tps(&self, stat: Statistic) -> Option<f64> {
        self.latency_ms(stat).map(|ms| 1000.0 / ms)
    }

    /// Worst (lowest) rate-based per-user tok/s (throughput / concurrency) over the rows.
    pub fn rate_user_tps(&self) -> Option<f64> {
        self.user_tps(Statistic::Rate)
    }

    /// True when more than one row was measured at this level.
    pub fn is_duplicate(&self) -> bool {
        self.row_indices.len() > 1
    }
}

/// One deployment and its measured sweep. Serialised without its levels, which are rebuilt
/// from the rows on reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "SweepParts", into = "SweepParts")]
pub struct Sweep {
    /// Index into [`Source::models`].
    pub model_index: usize,
    /// GPU type as the source names it, e.g. `H100`, `B200`.
    pub gpu_model: String,
    /// GPUs in one replica of the deployment; `None` when the source does not state it.
    pub num_gpus: Option<u32>,
    /// Tensor-parallel degree.
    pub tensor_parallel: u32,
    /// Expert-parallel degree (MoE).
    pub expert_parallel: u32,
    /// Data-parallel degree.
    pub data_parallel: u32,
    /// Weight precision as stored, e.g. `bfloat16`, `fp8`.
    pub weight_precision: String,
    /// What the level is.
    pub level_kind: LevelKind,
    /// A short configuration label that tells apart sweeps with the same model, GPU and count
    /// (URL `cfg`), e.g. `max_num_seqs=8` or `TP4 lmcache`; empty when not needed.
    pub config: String,
    /// Rows sorted by level (stable: rows at one level keep their file order).
    pub rows: Vec<Row>,
    levels: Vec<Level>,
}

/// A [`Sweep`]'s fields without the levels derived from its rows (its serialised form).
#[derive(Serialize, Deserialize)]
struct SweepParts {
    model_index: usize,
    gpu_model: String,
    num_gpus: Option<u32>,
    parallelism: (u32, u32, u32),
    weight_precision: String,
    level_kind: LevelKind,
    config: String,
    rows: Vec<Row>,
}

impl From<SweepParts> for Sweep {
    fn from(p: SweepParts) -> Sweep {
        Sweep::new(
            p.model_index,
            p.gpu_model,
            p.num_gpus,
            p.parallelism,
            p.weight_precision,
            p.rows,
        )
        .with_level_kind(p.level_kind)
        .with_config(p.config)
    }
}

impl From<Sweep> for SweepParts {
    fn from(s: Sweep) -> SweepParts {
        SweepParts {
            model_index: s.model_index,
            gpu_model: s.gpu_model,
            num_gpus: s.num_gpus,
            parallelism: (s.tensor_parallel, s.expert_parallel, s.data_parallel),
            weight_precision: s.weight_precision,
            level_kind: s.level_kind,
            config: s.config,
            rows: s.rows,
        }
    }
}

impl Sweep {
    /// Builds a sweep; sorts `rows` by level and groups them into levels.
    pub fn new(
        model_index: usize,
        gpu_model: String,
        num_gpus: Option<u32>,
        parallelism: (u32, u32, u32),
        weight_precision: String,
        mut rows: Vec<Row>,
    ) -> Sweep {
        rows.sort_by(|a, b| a.level.total_cmp(&b.level));
        let levels = group_levels(&rows);
        let (tensor_parallel, expert_parallel, data_parallel) = parallelism;
        Sweep {
            model_index,
            gpu_model,
            num_gpus,
            tensor_parallel,
            expert_parallel,
            data_parallel,
            weight_precision,
            level_kind: LevelKind::MaxNumSeqs,
            config: String::new(),
            rows,
            levels,
        }
    }

    /// The same sweep with a configuration label.
    pub fn with_config(mut self, config: String) -> Sweep {
        self.config = config;
        self
    }

    /// The same sweep with another level kind.
    pub fn with_level_kind(mut self, kind: LevelKind) -> Sweep {
        self.level_kind = kind;
        self
    }

    /// The distinct levels, ascending, each with its worst-of-rows figures.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// Parallelism label: `TP4`, `EP8`, `TP2 DP2`; `TP1` when every degree is 1;
    /// `parallelism not stated` when the source gives none (degrees 0).
    pub fn parallelism_label(&self) -> String {
        if (
            self.tensor_parallel,
            self.expert_parallel,
            self.data_parallel,
        ) == (0, 0, 0)
        {
            return "parallelism not stated".to_string();
        }
        let parts: Vec<String> = [
            ("TP", self.tensor_parallel),
            ("EP", self.expert_parallel),
            ("DP", self.data_parallel),
        ]
        .iter()
        .filter(|(_, n)| *n > 1)
        .map(|(name, n)| format!("{name}{n}"))
        .collect();
        if parts.is_empty() {
            "TP1".to_string()
        } else {
            parts.join(" ")
        }
    }

    /// Short precision label: `bf16`, `fp8`, or the stored name.
    pub fn precision_label(&self) -> &str {
        match self.weight_precision.as_str() {
            "bfloat16" => "bf16",
            "float16" => "fp16",
            other => other,
        }
    }

    /// e.g. `4 x H100, TP4, bf16`; `H100 (GPU count not stated), TP1, bf16`.
    pub fn label(&self) -> String {
        let hardware = match self.num_gpus {
            Some(n) => format!("{n} x {}", self.gpu_model),
            None => format!("{} (GPU count not stated)", self.gpu_model),
        };
        let mut label = format!(
            "{hardware}, {}, {}",
            self.parallelism_label(),
            self.precision_label()
        );
        if !self.config.is_empty() {
            label.push_str(", ");
            label.push_str(&self.config);
        }
        label
    }

    /// Aggregate output tok/s divided by the GPU count; `None` when the count is not stated.
    pub fn per_gpu(&self, throughput_tok_s: f64) -> Option<f64> {
        self.num_gpus.map(|n| throughput_tok_s / f64::from(n))
    }

    /// The statistics for which at least one row has a value.
    pub fn statistics(&self) -> Vec<Statistic> {
        Statistic::ALL
            .into_iter()
            .filter(|s| self.rows.iter().any(|r| r.latency_ms(*s).is_some()))
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

fn group_levels(rows: &[Row]) -> Vec<Level> {
    let mut levels: Vec<Level> = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        match levels.last_mut() {
            Some(level) if level.level == row.level => absorb(level, i, row),
            _ => levels.push(Level {
                level: row.level,
                row_indices: vec![i],
                avg_batch_size: row.avg_batch_size,
                throughput_tok_s: row.throughput_tok_s,
                power_w: row.power_w,
                energy_per_token_j: row.energy_per_token_j,
                energy_per_request_j: row.energy_per_request_j,
                latency_ms: row.latency_ms,
            }),
        }
    }
    levels
}

fn absorb(level: &mut Level, index: usize, row: &Row) {
    level.row_indices.push(index);
    level.avg_batch_size = level
        .avg_batch_size
        .zip(row.avg_batch_size)
        .map(|(a, b)| a.min(b));
    level.throughput_tok_s = level.throughput_tok_s.min(row.throughput_tok_s);
    level.power_w = worst_high(level.power_w, row.power_w);
    level.energy_per_token_j = worst_high(level.energy_per_token_j, row.energy_per_token_j);
    level.energy_per_request_j = worst_high(level.energy_per_request_j, row.energy_per_request_j);
    for (mine, theirs) in level.latency_ms.iter_mut().zip(row.latency_ms) {
        *mine = worst_high(*mine, theirs);
    }
}

/// The higher of two values, `None` if either is absent (an unreported row makes the level's
/// worst unknown).
fn worst_high(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    Some(a?.max(b?))
}

/// A set of sweeps from one publication, e.g. the ML.ENERGY `lm-arena-chat` task.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

impl Source {
    /// Index of the model with this `model_id`.
    pub fn model_index(&self, model_id: &str) -> Option<usize> {
        self.models.iter().position(|m| m.model_id == model_id)
    }

    /// Indices into `sweeps` of the model's deployments, fewest GPUs first, then GPU name.
    pub fn sweeps_of(&self, model_index: usize) -> Vec<usize> {
        let mut found: Vec<usize> = (0..self.sweeps.len())
            .filter(|&i| self.sweeps[i].model_index == model_index)
            .collect();
        found.sort_by(|&a, &b| {
            let (sa, sb) = (&self.sweeps[a], &self.sweeps[b]);
            sa.gpu_model
                .cmp(&sb.gpu_model)
                .then(sa.num_gpus.cmp(&sb.num_gpus))
        });
        found
    }

    /// Total number of rows over all sweeps.
    pub fn row_count(&self) -> usize {
        self.sweeps.iter().map(|s| s.rows.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(level: f64, p50: f64, throughput: f64, batch: f64) -> Row {
        let mut r = Row::new(level, throughput)
            .with(Statistic::P50, Some(p50))
            .with(Statistic::P90, Some(p50 * 2.0))
            .with(Statistic::P95, Some(p50 * 3.0))
            .with(Statistic::P99, Some(p50 * 4.0))
            .with(Statistic::Rate, Some(batch * 1000.0 / throughput));
        r.avg_batch_size = Some(batch);
        r.power_w = Some(throughput * 0.1);
        r.energy_per_token_j = Some(0.1);
        r.energy_per_request_j = Some(50.0);
        r
    }

    #[test]
    fn duplicate_level_takes_worst_per_metric() {
        let mut a = row(256.0, 30.0, 7000.0, 250.0);
        a.power_w = Some(900.0);
        let mut b = row(256.0, 34.0, 7200.0, 240.0);
        b.power_w = Some(800.0);
        b.energy_per_token_j = Some(0.2);
        let sweep = Sweep::new(
            0,
            "H100".into(),
            Some(2),
            (1, 2, 1),
            "bfloat16".into(),
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
        assert_eq!(sweep.parallelism_label(), "EP2");
        assert_eq!(sweep.label(), "2 x H100, EP2, bf16");
    }

    #[test]
    fn missing_value_in_one_row_makes_level_value_absent() {
        let a = row(16.0, 10.0, 1000.0, 16.0).with(Statistic::P99, None);
        let mut b = row(16.0, 11.0, 1000.0, 16.0);
        b.avg_batch_size = None;
        let sweep = Sweep::new(
            0,
            "B200".into(),
            Some(1),
            (1, 1, 1),
            "fp8".into(),
            vec![a, b],
        );
        let l = &sweep.levels()[0];
        assert_eq!(l.latency_ms(Statistic::P99), None);
        assert_eq!(l.latency_ms(Statistic::P50), Some(11.0));
        assert_eq!(l.avg_batch_size, None);
        assert_eq!(sweep.statistics().len(), 5);
        assert_eq!(sweep.label(), "1 x B200, TP1, fp8");
    }

    #[test]
    fn non_finite_or_non_positive_latencies_are_stored_as_absent() {
        let r = Row::new(1.0, 10.0)
            .with(Statistic::P50, Some(f64::NAN))
            .with(Statistic::P90, Some(f64::INFINITY))
            .with(Statistic::P95, Some(0.0))
            .with(Statistic::P99, Some(-3.0))
            .with(Statistic::TpotMean, Some(12.5));
        assert_eq!(r.latency_ms(Statistic::P50), None);
        assert_eq!(r.latency_ms(Statistic::P90), None);
        assert_eq!(r.latency_ms(Statistic::P95), None);
        assert_eq!(r.latency_ms(Statistic::P99), None);
        assert_eq!(r.latency_ms(Statistic::TpotMean), Some(12.5));
        // The 0 and the -3 are counted; NaN and infinity mean "no value".
        assert_eq!(r.unusable_latencies(), 2);
        assert_eq!(Row::new(1.0, 10.0).with(Statistic::P50, None).unusable_latencies(), 0);
    }

    #[test]
    fn statistics_for_limits_share_a_level_with_the_judged_one() {
        // Level 1 reports mean TPOT only; level 64 reports p50 and rate only.
        let a = Row::new(1.0, 100.0).with(Statistic::TpotMean, Some(10.0));
        let b = Row::new(64.0, 800.0)
            .with(Statistic::P50, Some(80.0))
            .with(Statistic::Rate, Some(80.0));
        let sweep = Sweep::new(
            0,
            "A100".into(),
            Some(1),
            (1, 1, 1),
            "fp16".into(),
            vec![a, b],
        );
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
    fn statistic_keys_round_trip_and_classify() {
        for (i, s) in Statistic::ALL.into_iter().enumerate() {
            assert_eq!(Statistic::from_key(s.key()), Some(s));
            assert_eq!(s.index(), i);
        }
        assert_eq!(Statistic::from_key("median"), Some(Statistic::P50));
        assert_eq!(Statistic::from_key("P50"), None);
        assert!(Statistic::TpotP99.is_per_token());
        assert!(!Statistic::TtftP90.is_per_token());
        assert_eq!(Statistic::TpotMean.metric(), Metric::Tpot);
        assert_eq!(LevelKind::RequestRate.label(), "request rate (req/s)");
    }
}
