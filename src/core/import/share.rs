//! Sharing an imported source by link: the sweeps (not the raw files) as compact JSON, deflated
//! (`miniz_oxide`) and written URL-safe (`base64`, no padding), for the URL fragment
//! `#sweep=...`: the data never reaches a server. Links stay under [`MAX_LINK_BYTES`].
//!
//! Version 2 carries each sweep's whole identity (every [`Deployment`] field) and each run with
//! its served rate, mean end-to-end latency, completed and failed requests (a run in which none
//! completed has a throughput of 0) and where its J/token and served rate come from; a
//! level's coverage ("p90: 1 of 2 runs") follows from its runs. Links of version 1 (hardware,
//! parallelism, precision and a configuration label per sweep) still decode.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::core::import::MODEL_NOT_STATED;
use crate::core::model::deployment::{Deployment, Disaggregation, LevelKind, Role, Roles};
use crate::core::model::limits::MAX_LINK_BYTES;
use crate::core::model::row::{EnergyBasis, PowerPeak, Row, ServedBasis};
use crate::core::model::signals::{KvPeak, ServerSignals, Signal, SignalSource};
use crate::core::model::source::Source;
use crate::core::model::sweep::{Model, Statistic};

/// Said where a link is made from a source with per-request records: a link carries each
/// level's figures, not its requests.
pub const NO_RECORDS: &str = "It holds no per-request records: attain is not judged from it.";
/// The version this page writes (it reads 1 too).
pub const VERSION: u32 = 2;

/// Why a source cannot be shared by link, or a link's `#sweep=` payload cannot be read; worded
/// by its `Display` (`core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShareError {
    /// The sweeps could not be written as JSON: serde_json's reason (writing these types does
    /// not fail in practice).
    Unwritable(String),
    /// The link would be longer than [`MAX_LINK_BYTES`].
    TooLarge {
        /// The payload, compressed, in KB (rounded up).
        kb: usize,
    },
    /// A payload longer than a link carries ([`MAX_LINK_BYTES`]).
    LinkTooLong {
        /// The link's length in KB (rounded up).
        kb: usize,
    },
    /// A payload that ends before its compressed data does.
    CutShort {
        /// The payload's length in characters.
        chars: usize,
    },
    /// A character that is not URL-safe base64.
    NotBase64 {
        /// Its position, from 1.
        at: usize,
        /// The character.
        character: char,
    },
    /// A payload that unpacks to more than [`MAX_PAYLOAD_BYTES`].
    TooBig,
    /// A payload that is not compressed data.
    NotCompressed,
    /// JSON that is not a shared sweep.
    NotOurs,
    /// A format version this page does not read (it reads 1 and [`VERSION`]).
    Version {
        /// The version the payload states.
        v: u32,
    },
    /// More models, sweeps or rows than this page reads.
    TooMany {
        /// How many the payload holds.
        count: usize,
        /// How many are read.
        limit: usize,
        /// What they are.
        what: Held,
    },
    /// A level or throughput that is not a number from [`MIN_FIGURE`] to [`MAX_FIGURE`].
    NotPositive,
    /// No rows.
    NoRows,
    /// A sweep names a model the payload does not hold.
    UnknownModel,
}

impl std::error::Error for ShareError {}

/// What a payload holds too many of ([`ShareError::TooMany`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Held {
    /// Models.
    Models,
    /// Sweeps.
    Sweeps,
    /// Rows.
    Rows,
}

/// The version, read first to pick the shape of the rest.
#[derive(Deserialize)]
struct Header {
    v: u32,
}

/// How many models, sweeps and rows a link holds, counted without building them.
#[derive(Deserialize)]
struct Shape {
    models: Vec<serde::de::IgnoredAny>,
    sweeps: Vec<SweepShape>,
}

#[derive(Deserialize)]
struct SweepShape {
    rows: Vec<serde::de::IgnoredAny>,
}

#[derive(Serialize, Deserialize)]
struct SharedModel {
    id: String,
    nick: String,
    arch: String,
    total: Option<f64>,
    active: Option<f64>,
}

impl SharedModel {
    fn of(m: &Model) -> SharedModel {
        SharedModel {
            id: m.model_id.clone(),
            nick: m.nickname.clone(),
            arch: m.architecture.clone(),
            total: m.total_params_b,
            active: m.activated_params_b,
        }
    }

    fn model(self) -> Model {
        let id = if self.id.trim().is_empty() {
            MODEL_NOT_STATED.to_string()
        } else {
            self.id
        };
        Model {
            nickname: if self.nick.trim().is_empty() {
                id.clone()
            } else {
                self.nick
            },
            model_id: id,
            architecture: self.arch,
            total_params_b: self.total.filter(|v| v.is_finite() && *v > 0.0),
            activated_params_b: self.active.filter(|v| v.is_finite() && *v > 0.0),
        }
    }
}

/// Version 2.
#[derive(Serialize, Deserialize)]
struct SharedV2 {
    v: u32,
    name: String,
    models: Vec<SharedModel>,
    sweeps: Vec<SweepV2>,
}

#[derive(Serialize, Deserialize)]
struct SweepV2 {
    model: usize,
    dep: SharedDeployment,
    rows: Vec<RowV2>,
}

/// A [`Deployment`] with short keys; absent fields are left out.
#[derive(Serialize, Deserialize)]
struct SharedDeployment {
    gpu: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    n: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tp: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pp: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ep: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dp: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    adp: Option<bool>,
    prec: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    eng: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ver: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    spec: Option<String>,
    /// `not disaggregated` or `disaggregated` (links of before the roles held the whole label).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dis: Option<String>,
    /// The roles of a disaggregated deployment, where any is stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ro: Option<Roles>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ds: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    isl: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    osl: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    burst: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cfg: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date: Option<String>,
    kind: char,
}

/// One run; absent figures are left out. `jb`/`sb`: where J/token and the served rate come from.
#[derive(Serialize, Deserialize)]
struct RowV2 {
    l: f64,
    t: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    b: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    o: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p: Option<f64>,
    /// The highest power percentile or maximum, and which (`9`, `5`, `1`, `m`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pk: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pks: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    j: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    jb: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    jr: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sb: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    e: Option<f64>,
    /// Requests completed and failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    c: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    f: Option<f64>,
    /// Input tokens per request and input tok/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    i: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    it: Option<f64>,
    /// The roles' figures: prefill and decode power, W, and the decode role's J per output token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    ppw: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dpw: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dj: Option<f64>,
    ms: Vec<(String, f64)>,
    /// The server's signals, where the run has any (links made before they were carried have
    /// none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sg: Option<SharedSignals>,
}

/// A run's [`ServerSignals`] with short keys; absent figures are left out. `src`: each group's
/// metric (running, waiting, KV use, preemptions), a character of [`SIGNAL_SOURCES`] or `-`.
#[derive(Serialize, Deserialize)]
struct SharedSignals {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rm: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rx: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wm: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wx: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    km: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kx: Option<f64>,
    /// `kx` is a p99 (`9`), not a maximum.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kp: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pr: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cap: Option<f64>,
    src: String,
}

const SIGNAL_SOURCES: [(SignalSource, char); 6] = [
    (SignalSource::Vllm, 'v'),
    (SignalSource::VllmGpuCache, 'g'),
    (SignalSource::Sglang, 's'),
    (SignalSource::InferencePerf, 'i'),
    (SignalSource::InferenceXDigest, 'x'),
    (SignalSource::Csv, 'c'),
];

impl SharedSignals {
    fn of(s: &ServerSignals) -> SharedSignals {
        SharedSignals {
            rm: s.running_mean,
            rx: s.running_max,
            wm: s.waiting_mean,
            wx: s.waiting_max,
            km: s.kv_use_mean,
            kx: s.kv_use_max,
            kp: (s.kv_peak == KvPeak::P99).then_some('9'),
            pr: s.preemptions,
            cap: s.max_num_seqs,
            src: Signal::ALL
                .iter()
                .map(|g| code(&SIGNAL_SOURCES, s.source(*g)).unwrap_or('-'))
                .collect(),
        }
    }

    /// The signals, each checked as an import's are (out of range: not kept); `None` when none
    /// is left.
    fn signals(self) -> Option<Box<ServerSignals>> {
        let mut s = ServerSignals::new();
        (s.running_mean, s.running_max) = (self.rm, self.rx);
        (s.waiting_mean, s.waiting_max) = (self.wm, self.wx);
        (s.kv_use_mean, s.kv_use_max) = (self.km, self.kx);
        s.kv_peak = if self.kp == Some('9') {
            KvPeak::P99
        } else {
            KvPeak::Max
        };
        s.preemptions = self.pr;
        s.max_num_seqs = self.cap;
        for (group, c) in Signal::ALL.into_iter().zip(self.src.chars()) {
            if let Some(source) = basis(&SIGNAL_SOURCES, Some(c)) {
                s.set_source(group, source);
            }
        }
        let (s, _) = s.checked();
        (!s.is_empty()).then(|| Box::new(s))
    }
}

fn kind_char(kind: LevelKind) -> char {
    match kind {
        LevelKind::MaxNumSeqs => 'm',
        LevelKind::Concurrency => 'c',
        LevelKind::RequestRate => 'r',
    }
}

fn kind_of(c: char) -> LevelKind {
    match c {
        'm' => LevelKind::MaxNumSeqs,
        'c' => LevelKind::Concurrency,
        _ => LevelKind::RequestRate,
    }
}

const ENERGY_BASES: [(EnergyBasis, char); 3] = [
    (EnergyBasis::Stored, 's'),
    (EnergyBasis::PowerOverThroughput, 'p'),
    (EnergyBasis::PerRequestOverOutputTokens, 'r'),
];

const POWER_PEAKS: [(PowerPeak, char); 4] = [
    (PowerPeak::P90, '9'),
    (PowerPeak::P95, '5'),
    (PowerPeak::P99, '1'),
    (PowerPeak::Max, 'm'),
];

const SERVED_BASES: [(ServedBasis, char); 4] = [
    (ServedBasis::Stated, 's'),
    (ServedBasis::CompletedOverDrainedDuration, 'd'),
    (ServedBasis::RequestThroughput, 't'),
    (ServedBasis::CompletedOverDuration, 'c'),
];

fn code<T: PartialEq + Copy>(table: &[(T, char)], value: Option<T>) -> Option<char> {
    let value = value?;
    table.iter().find(|(v, _)| *v == value).map(|(_, c)| *c)
}

fn basis<T: Copy>(table: &[(T, char)], c: Option<char>) -> Option<T> {
    let c = c?;
    table.iter().find(|(_, k)| *k == c).map(|(v, _)| *v)
}

impl SharedDeployment {
    fn of(d: &Deployment) -> SharedDeployment {
        SharedDeployment {
            gpu: d.gpu.clone(),
            n: d.num_gpus,
            tp: d.tp,
            pp: d.pp,
            ep: d.ep,
            dp: d.dp,
            adp: d.attention_dp,
            prec: d.precision.clone(),
            eng: d.engine.clone(),
            ver: d.engine_version.clone(),
            spec: d.spec_decoding.clone(),
            dis: d.disaggregation.map(|d| match d {
                Disaggregation::Colocated => "not disaggregated".to_string(),
                Disaggregation::Disaggregated(_) => "disaggregated".to_string(),
            }),
            ro: d
                .disaggregation
                .as_ref()
                .and_then(Disaggregation::roles)
                .copied()
                .filter(|r| *r != Roles::default()),
            ds: d.dataset.clone(),
            isl: d.isl,
            osl: d.osl,
            burst: d.burstiness,
            rate: d.offered_rate,
            cfg: d.config.clone(),
            date: d.date.clone(),
            kind: kind_char(d.level_kind),
        }
    }

    fn deployment(self) -> Deployment {
        let finite = |v: Option<f64>| v.filter(|x| x.is_finite());
        Deployment {
            gpu: self.gpu,
            num_gpus: self.n.filter(|n| *n > 0),
            tp: self.tp,
            pp: self.pp,
            ep: self.ep,
            dp: self.dp,
            attention_dp: self.adp,
            precision: self.prec,
            engine: self.eng,
            engine_version: self.ver,
            spec_decoding: self.spec,
            disaggregation: disaggregation_of(self.dis.as_deref(), self.ro),
            dataset: self.ds,
            isl: finite(self.isl),
            osl: finite(self.osl),
            burstiness: finite(self.burst),
            offered_rate: finite(self.rate),
            config: self.cfg,
            date: self.date,
            level_kind: kind_of(self.kind),
        }
    }
}

/// A link's disaggregation: `not disaggregated`, or any text starting `disaggregated` with the
/// roles it carries (a role count of 0 is not stated); `None` for anything else.
fn disaggregation_of(text: Option<&str>, roles: Option<Roles>) -> Option<Disaggregation> {
    let positive = |role: Role| Role {
        gpus: role.gpus.filter(|n| *n > 0),
        workers: role.workers.filter(|n| *n > 0),
        tp: role.tp.filter(|n| *n > 0),
        pp: role.pp.filter(|n| *n > 0),
        ep: role.ep.filter(|n| *n > 0),
        ..role
    };
    match text? {
        "not disaggregated" => Some(Disaggregation::Colocated),
        t if t.starts_with("disaggregated") => {
            let roles = roles.unwrap_or_default();
            Some(Disaggregation::Disaggregated(Roles {
                prefill: positive(roles.prefill),
                decode: positive(roles.decode),
            }))
        }
        _ => None,
    }
}

fn shared_row(r: &Row) -> RowV2 {
    RowV2 {
        l: r.level,
        t: r.throughput_tok_s,
        b: r.avg_batch_size,
        o: r.avg_output_len,
        p: r.power_w,
        pk: r.power_peak.map(|(w, _)| w),
        pks: code(&POWER_PEAKS, r.power_peak.map(|(_, k)| k)),
        j: r.energy_per_token_j,
        jb: code(&ENERGY_BASES, r.energy_basis),
        jr: r.energy_per_request_j,
        s: r.served_req_s,
        sb: code(&SERVED_BASES, r.served_basis),
        e: r.e2e_mean_ms,
        c: r.completed_requests,
        f: r.failed_requests,
        i: r.avg_input_len,
        it: r.input_tok_s,
        ppw: r.roles.prefill_power_w,
        dpw: r.roles.decode_power_w,
        dj: r.roles.decode_energy_per_token_j,
        // The mean end-to-end latency travels as `e`.
        ms: Statistic::ALL
            .into_iter()
            .filter(|st| *st != Statistic::E2eMean)
            .filter_map(|st| Some((st.key().to_string(), r.latency_ms(st)?)))
            .collect(),
        sg: r.signals.as_deref().map(SharedSignals::of),
    }
}

/// The fragment value (after `#sweep=`) for a source.
///
/// Errors: [`ShareError::TooLarge`] when the link would be longer than [`MAX_LINK_BYTES`].
pub fn encode(source: &Source) -> Result<String, ShareError> {
    let shared = SharedV2 {
        v: VERSION,
        name: source.task_display_name.clone(),
        models: source.models.iter().map(SharedModel::of).collect(),
        sweeps: source
            .sweeps
            .iter()
            .map(|s| SweepV2 {
                model: s.model_index,
                dep: SharedDeployment::of(&s.deployment),
                rows: s.rows.iter().map(shared_row).collect(),
            })
            .collect(),
    };
    let json = serde_json::to_vec(&shared).map_err(|e| ShareError::Unwritable(e.to_string()))?;
    let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9));
    if packed.len() + "#sweep=".len() > MAX_LINK_BYTES {
        return Err(ShareError::TooLarge {
            kb: packed.len().div_ceil(1024),
        });
    }
    Ok(packed)
}

mod read;
#[cfg(test)]
mod tests;
mod v1;

pub use read::decode;
