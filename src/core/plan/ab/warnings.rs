//! What makes a comparison less than like for like, said above its result: workloads that
//! differ, levels left out, level kinds, GPU counts and disaggregation.

use crate::core::model::deployment::{Deployment, LevelKind};
use crate::core::model::sweep::Sweep;

use super::{median_min_max, LENGTH_DIFFERS_ABOVE};

/// Something that makes the comparison less than like for like, said above the result.
#[derive(Clone, Debug, PartialEq)]
pub enum AbWarning {
    /// The datasets differ.
    Dataset {
        /// A's dataset (`None`: not stated).
        a: Option<String>,
        /// B's dataset.
        b: Option<String>,
    },
    /// Input or output lengths differ by more than 10%.
    Length {
        /// `input` or `output`.
        which: &'static str,
        /// A's length, tokens.
        a: f64,
        /// B's length, tokens.
        b: f64,
    },
    /// Levels with more than 1% failed requests, not used.
    Failed {
        /// `A` or `B`.
        arm: char,
        /// (level, share failed).
        levels: Vec<(f64, f64)>,
    },
    /// The arms' levels are of different kinds.
    LevelKinds {
        /// A's kind.
        a: LevelKind,
        /// B's kind.
        b: LevelKind,
    },
    /// A GPU count is not stated: throughput compared per replica.
    PerReplica,
    /// The arms' replicas have different GPU counts (per GPU, the comparison is still like for
    /// like; a replica of each is not).
    GpusPerReplica {
        /// A's GPUs per replica.
        a: u32,
        /// B's GPUs per replica.
        b: u32,
    },
    /// An arm is disaggregated: its throughput per GPU divides by every GPU of a replica,
    /// prefill and decode (P + D).
    AllGpus {
        /// The disaggregated arms, each with (P, D) where both are stated.
        arms: Vec<(char, Option<(u32, u32)>)>,
    },
}

/// What a comparison says of the arms' GPUs: replicas of different GPU counts, and the arms
/// whose throughput per GPU counts prefill and decode GPUs together.
pub(super) fn gpu_warnings(a: &Deployment, b: &Deployment) -> Vec<AbWarning> {
    let mut out = Vec::new();
    if let (Some(x), Some(y)) = (a.num_gpus, b.num_gpus) {
        if x != y {
            out.push(AbWarning::GpusPerReplica { a: x, b: y });
        }
    }
    let arms: Vec<(char, Option<(u32, u32)>)> = [('A', a), ('B', b)]
        .into_iter()
        .filter_map(|(name, d)| {
            let roles = d.roles()?;
            Some((name, roles.prefill.gpus.zip(roles.decode.gpus)))
        })
        .collect();
    if !arms.is_empty() {
        out.push(AbWarning::AllGpus { arms });
    }
    out
}

/// The workload warnings: datasets that differ, and input or output lengths (stated, else the
/// median of the levels' output tokens per request) more than 10% apart.
pub(super) fn workload_warnings(a: &Sweep, b: &Sweep) -> Vec<AbWarning> {
    let (da, db) = (&a.deployment, &b.deployment);
    let mut out = Vec::new();
    if da.dataset != db.dataset {
        out.push(AbWarning::Dataset {
            a: da.dataset.clone(),
            b: db.dataset.clone(),
        });
    }
    let output_len = |s: &Sweep| {
        s.deployment.osl.or_else(|| {
            let v: Vec<f64> = s.levels().iter().filter_map(|l| l.avg_output_len).collect();
            median_min_max(&v).map(|r| r.ratio)
        })
    };
    let lengths = [
        ("input", da.isl, db.isl),
        ("output", output_len(a), output_len(b)),
    ];
    for (which, x, y) in lengths {
        if let (Some(x), Some(y)) = (x, y) {
            if (x - y).abs() > LENGTH_DIFFERS_ABOVE * x.min(y) {
                out.push(AbWarning::Length { which, a: x, b: y });
            }
        }
    }
    out
}
