//! The one reader of an ML.ENERGY leaderboard configuration (one run), for every place that
//! reads that schema: `build.rs` (which compiles the bundled task file into the page), the other
//! workloads' task files and an imported ML.ENERGY file. It has no dependencies, so `build.rs`
//! includes this file as a module of its own (`#[path]`); each side implements [`Fields`] over
//! its JSON values.
//!
//! Schemas read: the task file (`{configurations: [...], task}`, current, or the older preview
//! without `avg_output_len` and with `data_parallel`/`expert_parallel` 0 as "default") and the
//! per-model file (model fields at the top, `parallelization` nested in each configuration).

/// Access to one JSON object's fields.
pub trait Fields {
    /// The error a caller reports.
    type Error;
    /// The text at `key`, if it is a string.
    fn text(&self, key: &str) -> Option<&str>;
    /// The number at `key`; `Ok(None)` when absent or null.
    fn number(&self, key: &str) -> Result<Option<f64>, Self::Error>;
    /// The object nested at `key`.
    fn nested(&self, key: &str) -> Option<&Self>;
    /// The error for a required key that is absent.
    fn missing(&self, key: &'static str) -> Self::Error;
    /// The error for a required count or figure that is not positive.
    fn not_positive(&self, key: &'static str, value: f64) -> Self::Error;
}

/// One ML.ENERGY run as read: what the file states, nothing filled in (optional figures stay
/// `None`). Its `Debug` form is a Rust literal: `build.rs` writes the bundled runs that way.
#[derive(Clone, Debug, PartialEq)]
pub struct Configuration<'a> {
    /// The model it ran.
    pub model: ModelFields<'a>,
    /// GPU type, e.g. `H100`.
    pub gpu_model: &'a str,
    /// GPUs of the deployment.
    pub num_gpus: u32,
    /// Tensor-parallel degree (0 or absent reads as 1).
    pub tensor_parallel: u32,
    /// Expert-parallel degree (0 or absent reads as 1).
    pub expert_parallel: u32,
    /// Data-parallel degree (0 or absent reads as 1).
    pub data_parallel: u32,
    /// Weight precision, e.g. `bfloat16`.
    pub weight_precision: Option<&'a str>,
    /// vLLM `max_num_seqs`: the level.
    pub max_num_seqs: f64,
    /// Requests held on average.
    pub avg_batch_size: Option<f64>,
    /// Output tokens per request.
    pub avg_output_len: Option<f64>,
    /// Median ITL, ms.
    pub median_itl_ms: Option<f64>,
    /// p90 ITL, ms.
    pub p90_itl_ms: Option<f64>,
    /// p95 ITL, ms.
    pub p95_itl_ms: Option<f64>,
    /// p99 ITL, ms.
    pub p99_itl_ms: Option<f64>,
    /// Output tok/s of the whole deployment.
    pub output_throughput_tokens_per_sec: f64,
    /// Average power of the whole deployment, W.
    pub avg_power_watts: Option<f64>,
    /// J per output token.
    pub energy_per_token_joules: Option<f64>,
    /// J per request.
    pub energy_per_request_joules: Option<f64>,
}

/// The model of a run, as the file states it. Its `Debug` form is a Rust literal, like
/// [`Configuration`]'s.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelFields<'a> {
    /// Hugging Face id.
    pub model_id: &'a str,
    /// Display name (the id when absent).
    pub nickname: &'a str,
    /// `Dense Transformer`, `MoE`, ... where stated.
    pub architecture: Option<&'a str>,
    /// Total parameters, billions.
    pub total_params_billions: Option<f64>,
    /// Parameters active per token, billions.
    pub activated_params_billions: Option<f64>,
}

/// A parallel degree: 0 (the preview schema's "default") and absence read as 1.
fn degree<F: Fields>(par: &F, key: &str) -> Result<u32, F::Error> {
    Ok(par
        .number(key)?
        .filter(|d| *d >= 1.0 && d.fract() == 0.0 && *d <= f64::from(u32::MAX))
        .map_or(1, |d| d as u32))
}

/// A required positive figure.
fn required<F: Fields>(c: &F, key: &'static str) -> Result<f64, F::Error> {
    let value = c.number(key)?.ok_or_else(|| c.missing(key))?;
    if value > 0.0 {
        Ok(value)
    } else {
        Err(c.not_positive(key, value))
    }
}

/// Reads one configuration `c` of a file whose top-level object is `top`: model fields from the
/// configuration, else from the top (per-model files); parallelism from its `parallelization`,
/// else from the configuration.
///
/// Errors: the caller's error for a missing `model_id`, `gpu_model`, `num_gpus`, `max_num_seqs`
/// or output throughput, a count or figure that is not positive, or a value that is not a number.
pub fn read<'a, F: Fields>(top: &'a F, c: &'a F) -> Result<Configuration<'a>, F::Error> {
    let model = if c.text("model_id").is_some() { c } else { top };
    let par = c.nested("parallelization").unwrap_or(c);
    let model_id = model
        .text("model_id")
        .ok_or_else(|| c.missing("model_id"))?;
    let gpu_model = c.text("gpu_model").ok_or_else(|| c.missing("gpu_model"))?;
    let num_gpus = required(c, "num_gpus")?;
    if num_gpus.fract() != 0.0 || num_gpus > f64::from(u32::MAX) {
        return Err(c.not_positive("num_gpus", num_gpus));
    }
    Ok(Configuration {
        model: ModelFields {
            model_id,
            nickname: model.text("nickname").unwrap_or(model_id),
            architecture: model.text("architecture"),
            total_params_billions: model.number("total_params_billions")?,
            activated_params_billions: model.number("activated_params_billions")?,
        },
        gpu_model,
        num_gpus: num_gpus as u32,
        tensor_parallel: degree(par, "tensor_parallel")?,
        expert_parallel: degree(par, "expert_parallel")?,
        data_parallel: degree(par, "data_parallel")?,
        weight_precision: c
            .text("weight_precision")
            .or_else(|| top.text("weight_precision")),
        max_num_seqs: required(c, "max_num_seqs")?,
        avg_batch_size: c.number("avg_batch_size")?,
        avg_output_len: c.number("avg_output_len")?,
        median_itl_ms: c.number("median_itl_ms")?,
        p90_itl_ms: c.number("p90_itl_ms")?,
        p95_itl_ms: c.number("p95_itl_ms")?,
        p99_itl_ms: c.number("p99_itl_ms")?,
        output_throughput_tokens_per_sec: required(c, "output_throughput_tokens_per_sec")?,
        avg_power_watts: c.number("avg_power_watts")?,
        energy_per_token_joules: c.number("energy_per_token_joules")?,
        energy_per_request_joules: c.number("energy_per_request_joules")?,
    })
}
