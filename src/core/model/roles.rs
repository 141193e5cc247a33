//! Prefill/decode disaggregation: a deployment's roles as the file states them, and the figures
//! a run reports per role.
//!
//! A disaggregated deployment is P prefill GPUs and D decode GPUs, each role with its own
//! workers and parallelism. Its per-GPU figures divide by **P + D** (every GPU of a replica);
//! the role figures divide by the role's own GPUs: output tok/s per **decode** GPU, input tok/s
//! per **prefill** GPU.

use serde::{Deserialize, Serialize};

use crate::core::model::format;

/// One role of a disaggregated deployment (prefill or decode); `None` is "not stated".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Role {
    /// Workers (engine instances) of this role.
    pub workers: Option<u32>,
    /// Tensor-parallel degree of a worker.
    pub tp: Option<u32>,
    /// Pipeline-parallel degree of a worker.
    pub pp: Option<u32>,
    /// Expert-parallel degree of a worker.
    pub ep: Option<u32>,
    /// Data-parallel attention.
    pub attention_dp: Option<bool>,
    /// GPUs of this role, all workers together.
    pub gpus: Option<u32>,
}

impl Role {
    /// `TP8 EP8 DP-attention`, `TP1`, or `parallelism not stated`.
    pub fn parallelism_label(&self) -> String {
        parallelism_label(
            &[("TP", self.tp), ("PP", self.pp), ("EP", self.ep)],
            self.attention_dp,
        )
    }

    /// `prefill 1 x TP8 on 8 GPUs` (`?` where a count is not stated); `prefill on 8 GPUs` where
    /// only its GPUs are stated.
    fn label(&self, name: &str) -> String {
        let count = |n: Option<u32>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
        let stated = self.tp.or(self.pp).or(self.ep).is_some() || self.attention_dp.is_some();
        if self.workers.is_none() && !stated {
            // A role stated by its GPUs alone (the CSV template's `prefill_gpus`).
            return format!("{name} on {} GPUs", count(self.gpus));
        }
        format!(
            "{name} {} x {} on {} GPUs",
            count(self.workers),
            self.parallelism_label(),
            count(self.gpus)
        )
    }
}

/// A parallelism label from stated degrees (a degree of 1 is not written) and attention DP:
/// `TP4 PP2`, `TP8 EP8 DP-attention`; `TP1` when every stated degree is 1; `parallelism not
/// stated` when none is stated.
pub fn parallelism_label(degrees: &[(&str, Option<u32>)], attention_dp: Option<bool>) -> String {
    if degrees.iter().all(|(_, d)| d.is_none()) && attention_dp.is_none() {
        return "parallelism not stated".to_string();
    }
    let mut parts: Vec<String> = degrees
        .iter()
        .filter_map(|(name, d)| d.filter(|n| *n > 1).map(|n| format!("{name}{n}")))
        .collect();
    if attention_dp == Some(true) {
        parts.push("DP-attention".to_string());
    }
    if parts.is_empty() {
        "TP1".to_string()
    } else {
        parts.join(" ")
    }
}

/// The two roles of a disaggregated deployment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roles {
    /// The prefill role (P GPUs).
    pub prefill: Role,
    /// The decode role (D GPUs).
    pub decode: Role,
}

impl Roles {
    /// P + D, where both are stated.
    pub fn total_gpus(&self) -> Option<u32> {
        self.prefill.gpus?.checked_add(self.decode.gpus?)
    }

    /// `P:D`, e.g. `16:8`, where both are stated.
    pub fn ratio_label(&self) -> Option<String> {
        Some(format!("{}:{}", self.prefill.gpus?, self.decode.gpus?))
    }
}

/// Whether prefill and decode run on GPUs of their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Disaggregation {
    /// Prefill and decode on the same GPUs (one role).
    Colocated,
    /// Prefill and decode on GPUs of their own, with the roles as stated.
    Disaggregated(Roles),
}

impl Disaggregation {
    /// `not disaggregated`, or `disaggregated: prefill 2 x TP8 EP8 DP-attention on 16 GPUs,
    /// decode 1 x TP8 EP8 DP-attention on 8 GPUs` (`disaggregated` alone where no role is
    /// stated).
    pub fn label(&self) -> String {
        match self {
            Disaggregation::Colocated => "not disaggregated".to_string(),
            Disaggregation::Disaggregated(r) if *r == Roles::default() => {
                "disaggregated".to_string()
            }
            Disaggregation::Disaggregated(r) => format!(
                "disaggregated: {}, {}",
                r.prefill.label("prefill"),
                r.decode.label("decode")
            ),
        }
    }

    /// The roles, where disaggregated.
    pub fn roles(&self) -> Option<&Roles> {
        match self {
            Disaggregation::Colocated => None,
            Disaggregation::Disaggregated(r) => Some(r),
        }
    }
}

/// What a run reports of each role of a disaggregated deployment; `None` is "not reported".
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RoleFigures {
    /// The prefill role's average power, W, summed over its GPUs.
    pub prefill_power_w: Option<f64>,
    /// The decode role's average power, W, summed over its GPUs.
    pub decode_power_w: Option<f64>,
    /// J per output token of the decode role alone, as the file stores it (InferenceX's
    /// `joules_per_output_token` before `power_metric_schema_version` 2); never the whole
    /// deployment's.
    pub decode_energy_per_token_j: Option<f64>,
}

impl RoleFigures {
    /// True when the run reports no role figure.
    pub fn is_empty(&self) -> bool {
        *self == RoleFigures::default()
    }
}

/// The per-GPU figures of a disaggregated level: each throughput over the GPUs that produce
/// it. `None` where a count or a throughput is not stated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RolePerGpu {
    /// Output tok/s ÷ decode GPUs (D).
    pub output_tok_s_per_decode_gpu: Option<f64>,
    /// Input tok/s ÷ prefill GPUs (P).
    pub input_tok_s_per_prefill_gpu: Option<f64>,
}

impl RolePerGpu {
    /// The role figures of a level with `output_tok_s` and `input_tok_s` (all GPUs) on `roles`.
    pub fn of(roles: &Roles, output_tok_s: f64, input_tok_s: Option<f64>) -> RolePerGpu {
        RolePerGpu {
            output_tok_s_per_decode_gpu: roles
                .decode
                .gpus
                .filter(|d| *d > 0)
                .map(|d| output_tok_s / f64::from(d)),
            input_tok_s_per_prefill_gpu: input_tok_s
                .zip(roles.prefill.gpus.filter(|p| *p > 0))
                .map(|(i, p)| i / f64::from(p)),
        }
    }

    /// `1,186.2 output tok/s per decode GPU, 4,740.1 input tok/s per prefill GPU` (what is
    /// reported of the two).
    pub fn label(&self) -> String {
        [
            self.output_tok_s_per_decode_gpu
                .map(|v| format!("{} output tok/s per decode GPU", format::grouped(v, 1))),
            self.input_tok_s_per_prefill_gpu
                .map(|v| format!("{} input tok/s per prefill GPU", format::grouped(v, 1))),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roles(p: u32, d: u32) -> Roles {
        Roles {
            prefill: Role {
                workers: Some(2),
                tp: Some(8),
                ep: Some(8),
                attention_dp: Some(true),
                gpus: Some(p),
                ..Role::default()
            },
            decode: Role {
                workers: Some(1),
                tp: Some(8),
                ep: Some(8),
                attention_dp: Some(true),
                gpus: Some(d),
                ..Role::default()
            },
        }
    }

    #[test]
    fn a_disaggregated_deployment_is_labelled_by_its_roles() {
        assert_eq!(Disaggregation::Colocated.label(), "not disaggregated");
        assert_eq!(
            Disaggregation::Disaggregated(Roles::default()).label(),
            "disaggregated"
        );
        assert_eq!(
            Disaggregation::Disaggregated(roles(16, 8)).label(),
            "disaggregated: prefill 2 x TP8 EP8 DP-attention on 16 GPUs, \
             decode 1 x TP8 EP8 DP-attention on 8 GPUs"
        );
        let mut half = roles(16, 8);
        half.prefill.workers = None;
        half.decode.gpus = None;
        assert_eq!(
            Disaggregation::Disaggregated(half).label(),
            "disaggregated: prefill ? x TP8 EP8 DP-attention on 16 GPUs, \
             decode 1 x TP8 EP8 DP-attention on ? GPUs"
        );
        assert_eq!(roles(16, 8).total_gpus(), Some(24));
        assert_eq!(half.total_gpus(), None);
        assert_eq!(roles(4, 8).ratio_label().as_deref(), Some("4:8"));
        let gpus_only = Roles {
            prefill: Role {
                gpus: Some(2),
                ..Role::default()
            },
            decode: Role {
                gpus: Some(6),
                ..Role::default()
            },
        };
        assert_eq!(
            Disaggregation::Disaggregated(gpus_only).label(),
            "disaggregated: prefill on 2 GPUs, decode on 6 GPUs"
        );
    }

    #[test]
    fn role_figures_divide_by_the_role_gpus() {
        // InferenceX mori-sglang, 16 P + 8 D, conc 2048: 1,186.2473 output tok/s per decode GPU.
        let output = 1_186.247_252_992_547_8 * 8.0;
        let input = 4_740.144_290_655_592 * 16.0;
        let r = RolePerGpu::of(&roles(16, 8), output, Some(input));
        assert_eq!(r.output_tok_s_per_decode_gpu, Some(output / 8.0));
        assert_eq!(r.input_tok_s_per_prefill_gpu, Some(input / 16.0));
        assert_eq!(
            r.label(),
            "1,186.2 output tok/s per decode GPU, 4,740.1 input tok/s per prefill GPU"
        );
        let none = RolePerGpu::of(&Roles::default(), output, None);
        assert_eq!(none, RolePerGpu::default());
        assert_eq!(none.label(), "");
    }
}
