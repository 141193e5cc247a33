//! Links of version 2, written and read: each sweep's whole identity (every [`Deployment`]
//! field) and each run with its figures, short keys, absent figures left out.

use serde::{Deserialize, Serialize};

use super::{kind_char, kind_of, SharedModel};
use crate::core::model::deployment::{Deployment, Disaggregation, Role, Roles};
use crate::core::model::row::{EnergyBasis, PowerPeak, Row, ServedBasis};
use crate::core::model::signals::{KvPeak, ServerSignals, Signal, SignalSource};
use crate::core::model::sweep::Statistic;

/// Version 2.
#[derive(Serialize, Deserialize)]
pub(super) struct SharedV2 {
    pub(super) v: u32,
    pub(super) name: String,
    pub(super) models: Vec<SharedModel>,
    pub(super) sweeps: Vec<SweepV2>,
}

#[derive(Serialize, Deserialize)]
pub(super) struct SweepV2 {
    pub(super) model: usize,
    pub(super) dep: SharedDeployment,
    pub(super) rows: Vec<RowV2>,
}

/// A [`Deployment`] with short keys; absent fields are left out.
#[derive(Serialize, Deserialize)]
pub(super) struct SharedDeployment {
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
pub(super) struct RowV2 {
    pub(super) l: f64,
    pub(super) t: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) b: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) o: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) p: Option<f64>,
    /// The highest power percentile or maximum, and which (`9`, `5`, `1`, `m`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pk: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) pks: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) j: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) jb: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) jr: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) sb: Option<char>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) e: Option<f64>,
    /// Requests completed and failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) c: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) f: Option<f64>,
    /// Input tokens per request and input tok/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) i: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) it: Option<f64>,
    /// The roles' figures: prefill and decode power, W, and the decode role's J per output token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) ppw: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) dpw: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) dj: Option<f64>,
    pub(super) ms: Vec<(String, f64)>,
    /// The server's signals, where the run has any (links made before they were carried have
    /// none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) sg: Option<SharedSignals>,
}

/// A run's [`ServerSignals`] with short keys; absent figures are left out. `src`: each group's
/// metric (running, waiting, KV use, preemptions), a character of [`SIGNAL_SOURCES`] or `-`.
#[derive(Serialize, Deserialize)]
pub(super) struct SharedSignals {
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
    pub(super) fn signals(self) -> Option<Box<ServerSignals>> {
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

pub(super) const ENERGY_BASES: [(EnergyBasis, char); 3] = [
    (EnergyBasis::Stored, 's'),
    (EnergyBasis::PowerOverThroughput, 'p'),
    (EnergyBasis::PerRequestOverOutputTokens, 'r'),
];

pub(super) const POWER_PEAKS: [(PowerPeak, char); 4] = [
    (PowerPeak::P90, '9'),
    (PowerPeak::P95, '5'),
    (PowerPeak::P99, '1'),
    (PowerPeak::Max, 'm'),
];

pub(super) const SERVED_BASES: [(ServedBasis, char); 4] = [
    (ServedBasis::Stated, 's'),
    (ServedBasis::CompletedOverDrainedDuration, 'd'),
    (ServedBasis::RequestThroughput, 't'),
    (ServedBasis::CompletedOverDuration, 'c'),
];

fn code<T: PartialEq + Copy>(table: &[(T, char)], value: Option<T>) -> Option<char> {
    let value = value?;
    table.iter().find(|(v, _)| *v == value).map(|(_, c)| *c)
}

pub(super) fn basis<T: Copy>(table: &[(T, char)], c: Option<char>) -> Option<T> {
    let c = c?;
    table.iter().find(|(_, k)| *k == c).map(|(v, _)| *v)
}

impl SharedDeployment {
    pub(super) fn of(d: &Deployment) -> SharedDeployment {
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

    pub(super) fn deployment(self) -> Deployment {
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

pub(super) fn shared_row(r: &Row) -> RowV2 {
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
