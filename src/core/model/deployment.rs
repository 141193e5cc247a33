//! What a sweep measured: one deployment of a model, as the file states it.
//!
//! A sweep groups the runs of one model that agree on **every identity field** of a
//! [`Deployment`]: GPU type and count, parallelism (TP, PP, EP, DP, attention DP), precision, serving engine and
//! its version, speculative decoding, disaggregation, workload (dataset, input and output
//! lengths), arrival shape (burstiness, a finite request rate on a concurrency sweep), a
//! configuration label, the campaign date and what the level is. A field that differs, or is
//! stated in one run and absent in another, makes separate sweeps: runs that measured different
//! things are never pooled. Per-run fields (a run's timestamp, its repeat number) are not here.
//!
//! Labels: [`Deployment::base_label`] (hardware, parallelism, precision) and
//! the other identity fields ([`Deployment::FIELDS`]), each shown by the page only where it tells
//! sweeps apart (see `Source::sweep_label`).

use serde::{Deserialize, Serialize};

use crate::core::model::format;
pub use crate::core::model::roles::{Disaggregation, Role, Roles};

/// The GPU type of a deployment whose file does not state it.
pub const GPU_NOT_STATED: &str = "GPU not stated";
/// The precision of a deployment whose file does not state it.
pub const PRECISION_NOT_STATED: &str = "precision not stated";

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

    /// The level's unit after a number: `max_num_seqs`, `concurrency`, `req/s` ("Run at 4 req/s").
    pub fn unit(self) -> &'static str {
        match self {
            LevelKind::MaxNumSeqs => "max_num_seqs",
            LevelKind::Concurrency => "concurrency",
            LevelKind::RequestRate => "req/s",
        }
    }

    /// The sweep's kind as an identity field: `max_num_seqs sweep`, `concurrency sweep`,
    /// `request-rate sweep`.
    fn sweep_label(self) -> &'static str {
        match self {
            LevelKind::MaxNumSeqs => "max_num_seqs sweep",
            LevelKind::Concurrency => "concurrency sweep",
            LevelKind::RequestRate => "request-rate sweep",
        }
    }
}

/// One deployment's identity: every field a file states that tells what was measured. `None`
/// is "not stated" and never equals a stated value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Deployment {
    /// GPU type as the file names it, e.g. `H100`; [`GPU_NOT_STATED`] when absent.
    pub gpu: String,
    /// GPUs in one replica (all of them: prefill and decode, P + D, when disaggregated).
    pub num_gpus: Option<u32>,
    /// Tensor-parallel degree.
    pub tp: Option<u32>,
    /// Pipeline-parallel degree.
    pub pp: Option<u32>,
    /// Expert-parallel degree (MoE).
    pub ep: Option<u32>,
    /// Data-parallel degree.
    pub dp: Option<u32>,
    /// Data-parallel attention (SGLang / InferenceX `dp_attention`).
    pub attention_dp: Option<bool>,
    /// Weight precision as stored, e.g. `bfloat16`, `fp8`; [`PRECISION_NOT_STATED`] when absent.
    pub precision: String,
    /// Serving engine, e.g. `vllm`, `sglang`, `dynamo-trt`.
    pub engine: Option<String>,
    /// Engine version or container image, e.g. `lmsysorg/sglang:v0.5.12-cu130`.
    pub engine_version: Option<String>,
    /// Speculative decoding method (`none` when the file says none).
    pub spec_decoding: Option<String>,
    /// Prefill/decode disaggregation: colocated, or disaggregated with its roles as stated.
    pub disaggregation: Option<Disaggregation>,
    /// Dataset or workload name, e.g. `sharegpt`, `random`, `lm-arena-chat`.
    pub dataset: Option<String>,
    /// Input length, tokens, where it describes the dataset (`random` lengths, InferenceX `isl`).
    pub isl: Option<f64>,
    /// Output length, tokens, where it describes the dataset.
    pub osl: Option<f64>,
    /// Arrival burstiness (vLLM `burstiness`; 1 is Poisson).
    pub burstiness: Option<f64>,
    /// A finite request rate a concurrency sweep was also held to, req/s.
    pub offered_rate: Option<f64>,
    /// A configuration label the file states (CSV `config`, vLLM `max_num_seqs=8`).
    pub config: Option<String>,
    /// The campaign date (InferenceX API rows: each date is other software).
    pub date: Option<String>,
    /// What the level is.
    pub level_kind: LevelKind,
}

/// An identity field beyond hardware, parallelism and precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Serving engine.
    Engine,
    /// Engine version or image.
    EngineVersion,
    /// Speculative decoding.
    SpecDecoding,
    /// Disaggregation.
    Disaggregation,
    /// Dataset with its lengths.
    Workload,
    /// Burstiness.
    Burstiness,
    /// Finite request rate on a concurrency sweep.
    OfferedRate,
    /// Configuration label.
    Config,
    /// Campaign date.
    Date,
    /// What the level is.
    LevelKind,
}

impl Deployment {
    /// A deployment of which nothing is stated but what its level is.
    pub fn new(level_kind: LevelKind) -> Deployment {
        Deployment {
            gpu: GPU_NOT_STATED.to_string(),
            num_gpus: None,
            tp: None,
            pp: None,
            ep: None,
            dp: None,
            attention_dp: None,
            precision: PRECISION_NOT_STATED.to_string(),
            engine: None,
            engine_version: None,
            spec_decoding: None,
            disaggregation: None,
            dataset: None,
            isl: None,
            osl: None,
            burstiness: None,
            offered_rate: None,
            config: None,
            date: None,
            level_kind,
        }
    }

    /// A `max_num_seqs` deployment with its hardware, tensor parallelism (EP and DP 1) and
    /// precision stated, nothing else.
    pub fn hardware(gpu: &str, num_gpus: Option<u32>, tp: u32, precision: &str) -> Deployment {
        Deployment {
            gpu: gpu.to_string(),
            num_gpus,
            tp: Some(tp),
            ep: Some(1),
            dp: Some(1),
            precision: precision.to_string(),
            ..Deployment::new(LevelKind::MaxNumSeqs)
        }
    }

    /// The prefill and decode roles, where the deployment is disaggregated and states them.
    pub fn roles(&self) -> Option<&Roles> {
        self.disaggregation.as_ref()?.roles()
    }

    /// `4 x H100`; `H100 (GPU count not stated)`.
    pub fn hardware_label(&self) -> String {
        match self.num_gpus {
            Some(n) => format!("{n} x {}", self.gpu),
            None => format!("{} (GPU count not stated)", self.gpu),
        }
    }

    /// Parallelism label: `TP4`, `EP8`, `TP4 PP2`, `TP8 EP8 DP-attention`; `TP1` when every
    /// stated degree is 1; `parallelism not stated` when the file states none.
    pub fn parallelism_label(&self) -> String {
        crate::core::model::roles::parallelism_label(
            &[
                ("TP", self.tp),
                ("PP", self.pp),
                ("EP", self.ep),
                ("DP", self.dp),
            ],
            self.attention_dp,
        )
    }

    /// Short precision label: `bf16`, `fp16`, or the stored name.
    pub fn precision_label(&self) -> &str {
        match self.precision.as_str() {
            "bfloat16" => "bf16",
            "float16" => "fp16",
            other => other,
        }
    }

    /// e.g. `4 x H100, TP4, bf16`: hardware, parallelism and precision.
    pub fn base_label(&self) -> String {
        format!(
            "{}, {}, {}",
            self.hardware_label(),
            self.parallelism_label(),
            self.precision_label()
        )
    }

    /// The workload as shown: `sharegpt`, `random 1024/1024`, `1024/1024` (lengths only).
    pub fn workload_label(&self) -> String {
        let lengths = match (self.isl, self.osl) {
            (None, None) => None,
            (i, o) => Some(format!(
                "{}/{}",
                i.map_or("?".to_string(), |v| v.to_string()),
                o.map_or("?".to_string(), |v| v.to_string())
            )),
        };
        match (&self.dataset, lengths) {
            (Some(d), Some(l)) => format!("{d} {l}"),
            (Some(d), None) => d.clone(),
            (None, Some(l)) => l,
            (None, None) => "dataset not stated".to_string(),
        }
    }

    /// The display text of one identity field beyond hardware, parallelism and precision, with
    /// "not stated" where the file does not state it.
    pub fn field_label(&self, field: Field) -> String {
        let or = |v: &Option<String>, absent: &str| v.clone().unwrap_or_else(|| absent.into());
        match field {
            Field::Engine => or(&self.engine, "engine not stated"),
            Field::EngineVersion => or(&self.engine_version, "engine version not stated"),
            Field::SpecDecoding => match self.spec_decoding.as_deref() {
                Some("none") => "no speculative decoding".to_string(),
                Some(m) => format!("speculative decoding {m}"),
                None => "speculative decoding not stated".to_string(),
            },
            Field::Disaggregation => self.disaggregation.as_ref().map_or_else(
                || "disaggregation not stated".to_string(),
                Disaggregation::label,
            ),
            Field::Workload => self.workload_label(),
            Field::Burstiness => self.burstiness.map_or_else(
                || "burstiness not stated".to_string(),
                |b| format!("burstiness {}", format::trimmed(b, 4)),
            ),
            Field::OfferedRate => self.offered_rate.map_or_else(
                || "no finite request rate".to_string(),
                |r| format!("at {} req/s", format::trimmed(r, 4)),
            ),
            Field::Config => or(&self.config, "no configuration label"),
            Field::Date => or(&self.date, "date not stated"),
            Field::LevelKind => self.level_kind.sweep_label().to_string(),
        }
    }

    /// Every identity field beyond hardware, parallelism and precision, in display order.
    pub const FIELDS: [Field; 10] = [
        Field::Engine,
        Field::EngineVersion,
        Field::SpecDecoding,
        Field::Disaggregation,
        Field::Workload,
        Field::Burstiness,
        Field::OfferedRate,
        Field::Config,
        Field::Date,
        Field::LevelKind,
    ];

    /// The identity fields the file states beyond hardware, parallelism and precision, as
    /// `(name, value)` for the page's description of the data, e.g. `("Workload", "sharegpt")`.
    pub fn stated(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let mut push = |name: &'static str, stated: bool, field: Field| {
            if stated {
                out.push((name, self.field_label(field)));
            }
        };
        push("Engine", self.engine.is_some(), Field::Engine);
        push(
            "Engine version",
            self.engine_version.is_some(),
            Field::EngineVersion,
        );
        push(
            "Speculative decoding",
            self.spec_decoding.is_some(),
            Field::SpecDecoding,
        );
        push(
            "Disaggregation",
            self.disaggregation.is_some(),
            Field::Disaggregation,
        );
        push(
            "Workload",
            self.dataset.is_some() || self.isl.is_some() || self.osl.is_some(),
            Field::Workload,
        );
        push("Burstiness", self.burstiness.is_some(), Field::Burstiness);
        push(
            "Request rate",
            self.offered_rate.is_some(),
            Field::OfferedRate,
        );
        push("Configuration", self.config.is_some(), Field::Config);
        push("Date", self.date.is_some(), Field::Date);
        out
    }

    /// A text equal for two deployments exactly when they are equal (every field; numbers bit
    /// for bit): the key sweeps are grouped by, in linear time.
    pub fn identity_key(&self) -> String {
        use std::fmt::Write as _;
        // Every field by name, so that a new one cannot be left out of the key.
        let Deployment {
            gpu,
            num_gpus,
            tp,
            pp,
            ep,
            dp,
            attention_dp,
            precision,
            engine,
            engine_version,
            spec_decoding,
            disaggregation,
            dataset,
            isl,
            osl,
            burstiness,
            offered_rate,
            config,
            date,
            level_kind,
        } = self;
        let mut key = String::new();
        // A text after its length, so that no two lists of texts run together alike.
        let texts = [
            Some(gpu),
            Some(precision),
            engine.as_ref(),
            engine_version.as_ref(),
            spec_decoding.as_ref(),
            dataset.as_ref(),
            config.as_ref(),
            date.as_ref(),
        ];
        for text in texts {
            match text {
                Some(t) => {
                    let _ = write!(key, "{}:{t}", t.len());
                }
                None => key.push('-'),
            }
        }
        for n in [num_gpus, tp, pp, ep, dp] {
            match n {
                Some(n) => {
                    let _ = write!(key, "|{n}");
                }
                None => key.push_str("|-"),
            }
        }
        for x in [isl, osl, burstiness, offered_rate] {
            match x {
                Some(x) => {
                    let _ = write!(key, "|{:x}", x.to_bits());
                }
                None => key.push_str("|-"),
            }
        }
        push_disaggregation(&mut key, disaggregation.as_ref());
        key.push(match attention_dp {
            Some(true) => 'T',
            Some(false) => 'F',
            None => '-',
        });
        key.push(match level_kind {
            LevelKind::MaxNumSeqs => 'm',
            LevelKind::Concurrency => 'c',
            LevelKind::RequestRate => 'r',
        });
        key
    }

    /// Every identity field's text: hardware, parallelism, precision, then each field the file
    /// states beyond them (for reading a `cfg` of a link made before sweeps were told apart
    /// by every field).
    pub fn field_texts(&self) -> Vec<String> {
        let mut texts = vec![
            self.hardware_label(),
            self.parallelism_label(),
            self.precision_label().to_string(),
        ];
        texts.extend(self.stated().into_iter().map(|(_, text)| text));
        texts
    }

    /// Orders deployments for the picker: GPU type, then GPU count, then newest date first
    /// (dates read by [`date_key`]; a date it cannot read after those, undated last).
    pub fn picker_order(&self, other: &Deployment) -> std::cmp::Ordering {
        fn rank(d: &Deployment) -> (u8, Option<(u32, u32, u32)>, &str) {
            match d.date.as_deref() {
                Some(text) => match date_key(text) {
                    Some(key) => (0, Some(key), text),
                    None => (1, None, text),
                },
                None => (2, None, ""),
            }
        }
        let (a, b) = (rank(self), rank(other));
        self.gpu
            .cmp(&other.gpu)
            .then(self.num_gpus.cmp(&other.num_gpus))
            .then(a.0.cmp(&b.0))
            .then_with(|| match (a.1, b.1) {
                (Some(x), Some(y)) => y.cmp(&x),
                _ => b.2.cmp(a.2),
            })
    }
}

/// Writes a deployment's disaggregation into its identity key: `-` not stated, `c` colocated,
/// `d` and every role count (`-` where not stated).
fn push_disaggregation(key: &mut String, d: Option<&Disaggregation>) {
    use std::fmt::Write as _;
    match d {
        None => key.push('-'),
        Some(Disaggregation::Colocated) => key.push('c'),
        Some(Disaggregation::Disaggregated(roles)) => {
            key.push('d');
            for role in [&roles.prefill, &roles.decode] {
                for n in [role.workers, role.tp, role.pp, role.ep, role.gpus] {
                    match n {
                        Some(n) => {
                            let _ = write!(key, "|{n}");
                        }
                        None => key.push_str("|-"),
                    }
                }
                key.push(match role.attention_dp {
                    Some(true) => 'T',
                    Some(false) => 'F',
                    None => '-',
                });
            }
        }
    }
}

/// A date as (year, month, day), for ordering campaigns: `2026-03-25` (and `2026-3-5`,
/// `2026/03/25`, with a time after it), `20260325` (vLLM's `20260325-120000`), and `03/25/2026`
/// or `25/03/2026` (day first when the first number cannot be a month); `None` otherwise.
pub fn date_key(text: &str) -> Option<(u32, u32, u32)> {
    let text = text.trim();
    let valid = |y: u32, m: u32, d: u32| {
        ((1900..=2999).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
            .then_some((y, m, d))
    };
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    if digits.len() == 8 {
        let n = |r: std::ops::Range<usize>| digits[r].parse::<u32>().ok();
        return valid(n(0..4)?, n(4..6)?, n(6..8)?);
    }
    let head = text.split(['T', ' ', '_']).next()?;
    let parts: Vec<u32> = head
        .split(['-', '/', '.'])
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    match parts[..] {
        [y, m, d] if y >= 1900 => valid(y, m, d),
        [a, b, y] if y >= 1900 && a > 12 => valid(y, b, a),
        [a, b, y] if y >= 1900 => valid(y, a, b),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
