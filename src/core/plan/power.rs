//! A power budget: how many replicas, GPUs and users fit in it at the recommended level, and
//! the output tok/s and users per megawatt drawn, all in.
//!
//! Formulas (all at the recommended level):
//! - W per GPU, all in (before PUE) = the GPU's power + `host_w`; the GPU's power is the level's
//!   measured power ÷ its GPUs (`measured`, ML.ENERGY's GPU power: the GPUs' alone) or the GPU
//!   type's rated board power ([`TDP`], `tdp`).
//! - a replica's facility power = GPUs × W per GPU × PUE.
//! - replicas = floor(budget ÷ a replica's facility power); GPUs = replicas × GPUs per replica;
//!   users = replicas × streams per replica; output tok/s = replicas × throughput; requests per
//!   second = output tok/s ÷ output tokens per request.
//! - output tok/s per MW = throughput ÷ a replica's facility power × 10^6; users per MW =
//!   streams per replica ÷ a replica's facility power × 10^6; facility J per output token = a
//!   replica's facility power ÷ throughput.
//! - with a load: the power its peak needs = the replicas the peak needs × a replica's facility
//!   power; its share of the budget = that ÷ the budget; it fits when the share is at most 1.

pub mod across;

use crate::core::model::sweep::{PowerPeak, Sweep};
use crate::core::plan::capacity::{capacity, CapacityInputs};
use crate::core::plan::period::{period, LoadProfile, Scaling};
use crate::core::plan::planner::{Plan, Recommendation, Slo};

/// What one GPU's power is read from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PowerBasis {
    /// The sweep's measured power at the recommended level ÷ its GPUs (the default).
    #[default]
    Measured,
    /// The GPU type's rated board power ([`TDP`]).
    Tdp,
}

impl PowerBasis {
    /// `measured`, `tdp` (the link's `power_basis`).
    pub fn key(self) -> &'static str {
        match self {
            PowerBasis::Measured => "measured",
            PowerBasis::Tdp => "tdp",
        }
    }

    /// The basis of a link's `power_basis`.
    pub fn from_key(key: &str) -> Option<PowerBasis> {
        [PowerBasis::Measured, PowerBasis::Tdp]
            .into_iter()
            .find(|b| b.key() == key)
    }
}

/// A GPU type's rated board power, with where the figure is stated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tdp {
    /// The GPU type as files name it (matched without case, spaces or dashes).
    pub gpu: &'static str,
    /// Rated board power, W.
    pub w: f64,
    /// Where the figure is stated.
    pub source: &'static str,
}

/// Rated board power per GPU type: the vendors' datasheets (the maximum configurable TDP of the
/// SXM / OAM module). A type not here is named, never guessed.
pub const TDP: [Tdp; 10] = [
    Tdp {
        gpu: "A100",
        w: 400.0,
        source: "NVIDIA A100 Tensor Core GPU datasheet (SXM4: 400 W)",
    },
    Tdp {
        gpu: "H100",
        w: 700.0,
        source: "NVIDIA H100 Tensor Core GPU datasheet (SXM5: up to 700 W)",
    },
    Tdp {
        gpu: "H200",
        w: 700.0,
        source: "NVIDIA H200 Tensor Core GPU datasheet (SXM: up to 700 W)",
    },
    Tdp {
        gpu: "B200",
        w: 1000.0,
        source: "NVIDIA HGX B200 datasheet (1,000 W per GPU)",
    },
    Tdp {
        gpu: "L40S",
        w: 350.0,
        source: "NVIDIA L40S datasheet (350 W)",
    },
    Tdp {
        gpu: "L4",
        w: 72.0,
        source: "NVIDIA L4 datasheet (72 W)",
    },
    Tdp {
        gpu: "MI300X",
        w: 750.0,
        source: "AMD Instinct MI300X data sheet (750 W)",
    },
    Tdp {
        gpu: "MI325X",
        w: 1000.0,
        source: "AMD Instinct MI325X data sheet (1,000 W)",
    },
    Tdp {
        gpu: "MI355X",
        w: 1400.0,
        source: "AMD Instinct MI355X data sheet (1,400 W)",
    },
    Tdp {
        gpu: "Gaudi3",
        w: 900.0,
        source: "Intel Gaudi 3 AI accelerator white paper (HL-325L OAM: 900 W)",
    },
];

/// The rated board power of `gpu`, matched without case, spaces, dashes or underscores; `None`
/// for a type not in [`TDP`].
///
/// The table's rows are the SXM / OAM modules: a type named with its vendor (`NVIDIA H100`,
/// `AMD Instinct MI300X`) or that form is the same row, and with the form named its memory may
/// be too (`A100-SXM4-40GB`, as ML.ENERGY names it; `H100-SXM5-80GB`); any other form (PCIe,
/// NVL) is not, nor a memory without the form (`H100 80GB HBM3`: which module is not said).
pub fn tdp_of(gpu: &str) -> Option<Tdp> {
    let plain = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, ' ' | '-' | '_'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let lower = gpu.to_lowercase();
    let words: Vec<&str> = lower
        .split([' ', '-', '_'])
        .filter(|w| !w.is_empty() && !matches!(*w, "nvidia" | "amd" | "intel" | "instinct"))
        .collect();
    let form = |w: &str| matches!(w, "sxm" | "sxm4" | "sxm5" | "oam");
    let memory = |w: &str| {
        w.strip_suffix("gb")
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            || w.starts_with("hbm")
    };
    let formed = words.iter().any(|w| form(w));
    let wanted: String = words
        .into_iter()
        .filter(|w| !(form(w) || (formed && memory(w))))
        .collect();
    // A form written onto the type (`H100SXM5`).
    let wanted = ["sxm5", "sxm4", "sxm", "oam"]
        .into_iter()
        .find_map(|f| wanted.strip_suffix(f))
        .unwrap_or(&wanted);
    TDP.into_iter().find(|t| plain(t.gpu) == wanted)
}

/// The inputs of a power budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerInputs {
    /// The budget, W (the facility's, all in).
    pub budget_w: f64,
    /// What one GPU's power is read from.
    pub basis: PowerBasis,
    /// W per GPU beyond the GPU itself (CPU, memory, network, fans); 0 when not given.
    pub host_w: f64,
    /// Power usage effectiveness of the facility, applied on the whole.
    pub pue: f64,
}

/// Why a budget cannot be planned.
#[derive(Clone, Debug, PartialEq)]
pub enum PowerError {
    /// Under `measured`, the level's power is not reported.
    NoMeasuredPower,
    /// Under `tdp`, the GPU type is not in the table.
    NoTdp {
        /// The GPU type.
        gpu: String,
    },
    /// The deployment's GPU count is not stated.
    NoGpuCount,
    /// The file's power percentile or maximum at the level is below its mean power: the two
    /// cannot both be true (a per-GPU figure beside a total, say), so neither is used.
    PeakBelowMean {
        /// Which figure.
        kind: PowerPeak,
        /// Its value, W (the deployment's).
        peak_w: f64,
        /// The mean, W (the deployment's).
        mean_w: f64,
    },
}

/// One GPU's power as the budget reads it.
#[derive(Clone, Debug, PartialEq)]
pub enum GpuPower {
    /// The level's measured power ÷ its GPUs, W: its mean, or the highest percentile or maximum
    /// the file reports (`peak`).
    Measured {
        /// W per GPU.
        w: f64,
        /// Which power above the mean it is; `None`: the mean.
        peak: Option<PowerPeak>,
    },
    /// The type's rated board power.
    Tdp(Tdp),
}

impl GpuPower {
    /// W per GPU.
    pub fn w(&self) -> f64 {
        match self {
            GpuPower::Measured { w, .. } => *w,
            GpuPower::Tdp(t) => t.w,
        }
    }
}

/// A power budget planned at the recommended level.
#[derive(Clone, Debug, PartialEq)]
pub struct PowerPlan {
    /// The budget, W.
    pub budget_w: f64,
    /// The GPU's power read.
    pub gpu: GpuPower,
    /// W per GPU all in, before PUE: the GPU's + `host_w`.
    pub w_per_gpu: f64,
    /// A replica's facility power: GPUs × W per GPU × PUE, W.
    pub replica_w: f64,
    /// Whole replicas that fit: floor(budget ÷ a replica's facility power).
    pub replicas: u64,
    /// replicas × GPUs per replica.
    pub gpus: u64,
    /// replicas × streams per replica; `None` where the streams are not known.
    pub users: Option<f64>,
    /// replicas × throughput, output tok/s.
    pub output_tok_s: f64,
    /// output tok/s ÷ output tokens per request; `None` where that length is not known.
    pub req_s: Option<f64>,
    /// throughput ÷ a replica's facility power × 10^6.
    pub tok_s_per_mw: f64,
    /// streams per replica ÷ a replica's facility power × 10^6.
    pub users_per_mw: Option<f64>,
    /// a replica's facility power ÷ throughput, J per output token.
    pub facility_j_per_token: f64,
}

/// The budget planned at `rec` (of a deployment of `num_gpus` GPUs on GPU type `gpu`), with
/// the level's measured mean power (`rec.power_w`) or, where the file reports one, its highest
/// power percentile or maximum (`peak`, the whole deployment's, W): provisioning reads the
/// highest.
///
/// Errors: [`PowerError`] when the power per GPU cannot be read.
pub fn power_plan(
    rec: &Recommendation,
    gpu: &str,
    num_gpus: Option<u32>,
    peak: Option<(f64, PowerPeak)>,
    inputs: &PowerInputs,
) -> Result<PowerPlan, PowerError> {
    let n = num_gpus.ok_or(PowerError::NoGpuCount)?;
    let gpu_power = match (inputs.basis, peak) {
        (PowerBasis::Measured, Some((w, kind))) => match rec.power_w {
            Some(mean) if mean > w => {
                return Err(PowerError::PeakBelowMean {
                    kind,
                    peak_w: w,
                    mean_w: mean,
                })
            }
            _ => GpuPower::Measured {
                w: w / f64::from(n),
                peak: Some(kind),
            },
        },
        (PowerBasis::Measured, None) => GpuPower::Measured {
            w: rec.power_w.ok_or(PowerError::NoMeasuredPower)? / f64::from(n),
            peak: None,
        },
        (PowerBasis::Tdp, _) => GpuPower::Tdp(tdp_of(gpu).ok_or_else(|| PowerError::NoTdp {
            gpu: gpu.to_string(),
        })?),
    };
    let w_per_gpu = gpu_power.w() + inputs.host_w;
    let replica_w = f64::from(n) * w_per_gpu * inputs.pue;
    let replicas = (inputs.budget_w / replica_w).floor().max(0.0) as u64;
    let output_tok_s = replicas as f64 * rec.throughput_tok_s;
    let streams = rec.streams.filter(|s| *s > 0.0);
    Ok(PowerPlan {
        budget_w: inputs.budget_w,
        gpu: gpu_power,
        w_per_gpu,
        replica_w,
        replicas,
        gpus: replicas * u64::from(n),
        users: streams.map(|s| replicas as f64 * s),
        output_tok_s,
        req_s: rec
            .output_tokens_per_request
            .filter(|t| *t > 0.0)
            .map(|t| output_tok_s / t),
        tok_s_per_mw: rec.throughput_tok_s / replica_w * 1e6,
        users_per_mw: streams.map(|s| s / replica_w * 1e6),
        facility_j_per_token: replica_w / rec.throughput_tok_s,
    })
}

/// A load's peak against the budget.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PowerNeed {
    /// The replicas the peak needs × a replica's facility power, W.
    pub needed_w: f64,
    /// needed ÷ budget.
    pub budget_share: f64,
    /// needed ≤ budget.
    pub fits: bool,
}

/// The power the peak of a load needs (`replicas` the peak needs) against the budget.
pub fn power_need(plan: &PowerPlan, replicas: u64) -> PowerNeed {
    let needed_w = replicas as f64 * plan.replica_w;
    PowerNeed {
        needed_w,
        budget_share: needed_w / plan.budget_w,
        fits: needed_w <= plan.budget_w,
    }
}

/// A budget planned for a deployment, with its load's peak where a load is given.
#[derive(Clone, Debug, PartialEq)]
pub struct Budgeted {
    /// The budget at the recommended level.
    pub plan: PowerPlan,
    /// The replicas the load's peak needs, and that against the budget; `None` without a load.
    pub need: Option<(u64, PowerNeed)>,
}

/// The budget `inputs` on `sweep` at `slo`'s recommended level, with the peak of the load
/// (`load` over time, else the `users` or `rps` of `capacity`); `None` without a
/// recommendation.
///
/// Errors: [`PowerError`] when the power per GPU cannot be read.
pub fn budget_at(
    sweep: &Sweep,
    plan: &Plan,
    slo: &Slo,
    inputs: &PowerInputs,
    fleet: &CapacityInputs,
    load: Option<(&LoadProfile, Scaling)>,
) -> Option<Result<Budgeted, PowerError>> {
    let rec = plan.recommendation(sweep, slo)?;
    let gpus = sweep.deployment.num_gpus;
    let peak = plan
        .recommended
        .and_then(|i| sweep.levels().get(i))
        .and_then(|l| l.power_peak);
    let budget = match power_plan(&rec, &sweep.deployment.gpu, gpus, peak, inputs) {
        Ok(b) => b,
        Err(e) => return Some(Err(e)),
    };
    let peak = match load {
        Some((profile, scaling)) => period(&rec, gpus, profile, scaling, fleet).peak_replicas,
        None => capacity(&rec, gpus, None, fleet).replicas,
    };
    Some(Ok(Budgeted {
        need: peak.map(|r| (r, power_need(&budget, r))),
        plan: budget,
    }))
}

#[cfg(test)]
mod tests;
