//! What the power panel shows: each figure of a [`PowerPlan`] with its label, hook, display
//! text and the formula that gives it, this deployment's numbers written in (shown on
//! hover/focus), as the fleet panel's figures; the basis in words; the errors' words.

use crate::core::model::format::{counted, grouped, significant, trimmed};
use crate::core::plan::planner::Recommendation;
use crate::core::plan::power::{Budgeted, GpuPower, PowerError, PowerInputs, PowerNeed, PowerPlan};
use crate::core::text::capacity_text::FleetFigure;

/// The budget's formulas, each a sentence, in the order the README states them (word for word,
/// tested).
pub const FORMULAS: [(&str, &str); 5] = [
    (
        "W per GPU, all in",
        "the GPU's power plus `host_w` (before the PUE); the GPU's power is the level's measured power ÷ its GPUs (`measured`: the highest power percentile or maximum the file reports for the level, else its mean power) or the GPU type's rated board power (`tdp`).",
    ),
    (
        "A replica's facility power",
        "GPUs × W per GPU, all in × PUE.",
    ),
    (
        "Under the budget",
        "replicas = floor(budget ÷ a replica's facility power); GPUs = replicas × GPUs per replica; users = replicas × streams per replica; output tok/s = replicas × throughput; requests per second = output tok/s ÷ output tokens per request.",
    ),
    (
        "Per MW",
        "output tok/s per MW = throughput ÷ a replica's facility power × 10^6; users per MW = streams per replica ÷ a replica's facility power × 10^6; facility J per output token = a replica's facility power ÷ throughput.",
    ),
    (
        "With a load",
        "the power its peak needs = the replicas the peak needs × a replica's facility power; its share of the budget = that ÷ the budget; it fits when that is at most the budget.",
    ),
];

/// A power in W as people read it: `850 W`, `1,003.8 W`, `400 kW`, `1 MW`.
pub fn watts(w: f64) -> String {
    if w >= 1e6 {
        format!("{} MW", trimmed(w / 1e6, 4))
    } else if w >= 1e4 {
        format!("{} kW", trimmed(w / 1e3, 4))
    } else {
        format!("{} W", trimmed(w, 5))
    }
}

/// What one GPU's power is read from, in words: `measured at the recommended level: 686.52 W ÷
/// 1 GPU = 686.52 W`, `rated: 700 W (NVIDIA H100 … datasheet)`; then the host's watts (`host
/// 150 W per GPU`, or `host 0 W per GPU: not given`) and the PUE.
pub fn basis_text(plan: &PowerPlan, inputs: &PowerInputs, num_gpus: u32) -> String {
    let gpu = match &plan.gpu {
        GpuPower::Measured { w, peak } => format!(
            "measured at the recommended level{}: {} ÷ {num_gpus} GPU{} = {} per GPU (the GPUs alone)",
            peak.map(|k| format!(" ({}, the highest the file reports)", k.label()))
                .unwrap_or_default(),
            watts(w * f64::from(num_gpus)),
            if num_gpus == 1 { "" } else { "s" },
            watts(*w)
        ),
        GpuPower::Tdp(t) => format!("rated {} per {} ({})", watts(t.w), t.gpu, t.source),
    };
    let host = if inputs.host_w > 0.0 {
        format!("host {} per GPU", watts(inputs.host_w))
    } else {
        "host 0 W per GPU (not given: CPU, memory, network and fans left out)".to_string()
    };
    format!("GPU power {gpu}; {host}; PUE {}", trimmed(inputs.pue, 4))
}

/// What a budget's formulas are written with.
struct Known<'a> {
    plan: &'a PowerPlan,
    inputs: &'a PowerInputs,
    num_gpus: u32,
    rec: &'a Recommendation,
    /// The replicas the load's peak needs and that against the budget; `None` without a load.
    need: Option<(u64, PowerNeed)>,
}

impl Known<'_> {
    /// `1 GPU × 1,003.8 W × PUE 1.2`: a replica's facility power, written out.
    fn replica(&self) -> String {
        format!(
            "{} GPU{} × {} × PUE {}",
            self.num_gpus,
            if self.num_gpus == 1 { "" } else { "s" },
            watts(self.plan.w_per_gpu),
            trimmed(self.inputs.pue, 4)
        )
    }
}

/// One figure of a power budget: its names in the exports, its label and hook on the page, and
/// which figure it is (its value, how it is written and the formula that gives it). The one
/// list ([`BUDGET_FIGURES`]) the page, the text, the JSON (`result.power`) and the CSV
/// (`power_…` columns) lay out.
#[derive(Clone, Copy, Debug)]
pub struct BudgetFigure {
    /// The CSV's column (`power_w_per_gpu`); without `power_`, the JSON's key ([`BudgetFigure::key`]).
    pub column: &'static str,
    /// Label, e.g. "Replicas that fit".
    pub label: &'static str,
    /// `data-testid` of the value.
    pub hook: &'static str,
    /// A whole number (replicas, GPUs): the JSON writes it without a decimal point.
    pub count: bool,
    /// Which figure it is.
    pub figure: Budget,
}

/// Which figure of a budget (a tag, not function pointers: a table of them would weigh on the
/// page's first load).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// W per GPU, all in.
    WPerGpu,
    /// A replica's facility power, W.
    ReplicaW,
    /// Replicas that fit.
    Replicas,
    /// GPUs that fit.
    Gpus,
    /// Users served.
    Users,
    /// Output tok/s.
    OutputTokS,
    /// Requests per second.
    ReqS,
    /// Output tok/s per MW.
    TokSPerMw,
    /// Users per MW.
    UsersPerMw,
    /// Facility J per output token.
    FacilityJ,
    /// The power the load's peak needs, W.
    NeededW,
    /// That ÷ the budget.
    BudgetShare,
}

impl BudgetFigure {
    /// Its key in the JSON's `result.power`: the column without `power_`.
    pub fn key(&self) -> &'static str {
        self.column.strip_prefix("power_").unwrap_or(self.column)
    }

    /// Its value in budget `p`, with the load's peak against it (`need`) where a load is given;
    /// `None` where an input it needs is absent.
    pub fn value(&self, p: &PowerPlan, need: Option<&PowerNeed>) -> Option<f64> {
        match self.figure {
            Budget::WPerGpu => Some(p.w_per_gpu),
            Budget::ReplicaW => Some(p.replica_w),
            Budget::Replicas => Some(p.replicas as f64),
            Budget::Gpus => Some(p.gpus as f64),
            Budget::Users => p.users,
            Budget::OutputTokS => Some(p.output_tok_s),
            Budget::ReqS => p.req_s,
            Budget::TokSPerMw => Some(p.tok_s_per_mw),
            Budget::UsersPerMw => p.users_per_mw,
            Budget::FacilityJ => Some(p.facility_j_per_token),
            Budget::NeededW => Some(need?.needed_w),
            Budget::BudgetShare => Some(need?.budget_share),
        }
    }

    /// The value as shown, with its unit.
    fn text(&self, v: f64) -> String {
        match self.figure {
            Budget::WPerGpu | Budget::ReplicaW | Budget::NeededW => watts(v),
            Budget::ReqS => significant(v, 4),
            Budget::FacilityJ => format!("{} J", significant(v, 3)),
            Budget::BudgetShare => share(v),
            Budget::Replicas
            | Budget::Gpus
            | Budget::Users
            | Budget::OutputTokS
            | Budget::TokSPerMw
            | Budget::UsersPerMw => count(v),
        }
    }

    /// "name = formula = numbers = result", with `k`'s numbers written in.
    fn formula(&self, k: &Known, v: f64) -> String {
        let (plan, rec) = (k.plan, k.rec);
        let replicas = count(plan.replicas as f64);
        match self.figure {
            Budget::WPerGpu => format!(
                "W per GPU = GPU + host = {} + {} = {}",
                watts(plan.gpu.w()),
                watts(k.inputs.host_w),
                watts(v)
            ),
            Budget::ReplicaW => format!("replica = {} = {}", k.replica(), watts(v)),
            Budget::Replicas => format!(
                "replicas = floor(budget ÷ replica) = floor({} ÷ {}) = {}",
                watts(plan.budget_w),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::Gpus => format!(
                "GPUs = replicas × GPUs per replica = {replicas} × {} = {}",
                k.num_gpus,
                count(v)
            ),
            Budget::Users => format!(
                "users = replicas × streams per replica = {replicas} × {} = {}",
                significant(rec.streams.unwrap_or(0.0), 4),
                count(v)
            ),
            Budget::OutputTokS => format!(
                "output = replicas × throughput = {replicas} × {} tok/s = {} tok/s",
                grouped(rec.throughput_tok_s, 1),
                count(v)
            ),
            Budget::ReqS => format!(
                "req/s = output ÷ output tokens per request = {} ÷ {} = {}",
                count(plan.output_tok_s),
                significant(rec.output_tokens_per_request.unwrap_or(0.0), 4),
                significant(v, 4)
            ),
            Budget::TokSPerMw => format!(
                "tok/s per MW = throughput ÷ replica × 10^6 = {} ÷ {} × 10^6 = {}",
                grouped(rec.throughput_tok_s, 1),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::UsersPerMw => format!(
                "users per MW = streams per replica ÷ replica × 10^6 = {} ÷ {} × 10^6 = {}",
                significant(rec.streams.unwrap_or(0.0), 4),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::FacilityJ => format!(
                "J per token = replica ÷ throughput = {} ÷ {} tok/s = {} J",
                watts(plan.replica_w),
                grouped(rec.throughput_tok_s, 1),
                significant(v, 3)
            ),
            Budget::NeededW => format!(
                "needed = replicas at the peak × replica = {} × {} = {}",
                grouped(k.need.map_or(0, |(r, _)| r) as f64, 0),
                watts(plan.replica_w),
                watts(v)
            ),
            Budget::BudgetShare => format!(
                "share = needed ÷ budget = {} ÷ {} = {}",
                watts(k.need.map_or(0.0, |(_, n)| n.needed_w)),
                watts(plan.budget_w),
                share(v)
            ),
        }
    }
}

/// A count as the budget writes it: `9,212,798`.
fn count(v: f64) -> String {
    grouped(v, 0)
}

/// Every figure of a budget, in order: what fits (W per GPU, a replica's power, replicas, GPUs,
/// users), what it serves (output, requests, per MW, J per token), and the load's peak against
/// the budget.
pub const BUDGET_FIGURES: [BudgetFigure; 12] = [
    BudgetFigure {
        column: "power_w_per_gpu",
        label: "W per GPU, all in",
        hook: "power-w-per-gpu",
        count: false,
        figure: Budget::WPerGpu,
    },
    BudgetFigure {
        column: "power_replica_w",
        label: "A replica draws",
        hook: "power-replica",
        count: false,
        figure: Budget::ReplicaW,
    },
    BudgetFigure {
        column: "power_replicas",
        label: "Replicas that fit",
        hook: "power-replicas",
        count: true,
        figure: Budget::Replicas,
    },
    BudgetFigure {
        column: "power_gpus",
        label: "GPUs",
        hook: "power-gpus",
        count: true,
        figure: Budget::Gpus,
    },
    BudgetFigure {
        column: "power_users",
        label: "Users served",
        hook: "power-users",
        count: false,
        figure: Budget::Users,
    },
    BudgetFigure {
        column: "power_output_tok_s",
        label: "Output tok/s",
        hook: "power-output",
        count: false,
        figure: Budget::OutputTokS,
    },
    BudgetFigure {
        column: "power_req_s",
        label: "Requests per second",
        hook: "power-req-s",
        count: false,
        figure: Budget::ReqS,
    },
    BudgetFigure {
        column: "power_tok_s_per_mw",
        label: "Output tok/s per MW",
        hook: "power-tok-s-per-mw",
        count: false,
        figure: Budget::TokSPerMw,
    },
    BudgetFigure {
        column: "power_users_per_mw",
        label: "Users per MW",
        hook: "power-users-per-mw",
        count: false,
        figure: Budget::UsersPerMw,
    },
    BudgetFigure {
        column: "power_facility_j_per_token",
        label: "Facility J per output token",
        hook: "power-facility-j",
        count: false,
        figure: Budget::FacilityJ,
    },
    BudgetFigure {
        column: "power_needed_w",
        label: "The peak needs",
        hook: "power-needed",
        count: false,
        figure: Budget::NeededW,
    },
    BudgetFigure {
        column: "power_budget_share",
        label: "Share of the budget",
        hook: "power-share",
        count: false,
        figure: Budget::BudgetShare,
    },
];

/// The figures of the power panel for budget `b` at `rec` (of a deployment of `num_gpus` GPUs),
/// in [`BUDGET_FIGURES`]' order; those whose inputs are absent (a load, streams, an output
/// length) are left out.
pub fn budget_figures(
    b: &Budgeted,
    inputs: &PowerInputs,
    num_gpus: u32,
    rec: &Recommendation,
) -> Vec<FleetFigure> {
    let known = Known {
        plan: &b.plan,
        inputs,
        num_gpus,
        rec,
        need: b.need,
    };
    let need = b.need.as_ref().map(|(_, n)| n);
    BUDGET_FIGURES
        .iter()
        .filter_map(|f| {
            FleetFigure::of(
                f.label,
                f.hook,
                f.value(&b.plan, need),
                |v| f.text(v),
                |v| f.formula(&known, v),
            )
        })
        .collect()
}

/// Whether the peak fits, in words: `The load's peak fits in the budget (62%)`, `The load's peak
/// needs 1.3 MW: over the 1 MW budget`.
pub fn fits_text(need: &PowerNeed, plan: &PowerPlan) -> String {
    if need.fits {
        format!(
            "The load's peak fits in the budget ({}).",
            share(need.budget_share)
        )
    } else {
        format!(
            "The load's peak needs {}: over the {} budget.",
            watts(need.needed_w),
            watts(plan.budget_w)
        )
    }
}

/// The deployment (`label`) that serves the most users under the budget, in words: `In the 1
/// MW budget, Llama … on 1 × H100 serves the most users: 381,482 (996 replicas at its
/// recommended level, 380,033 users per MW).`; `None` where its users are not known.
pub fn most_users_text(label: &str, plan: &PowerPlan) -> Option<String> {
    Some(format!(
        "In the {} budget, {label} serves the most users: {} ({} at its recommended level, {} users per MW).",
        watts(plan.budget_w),
        grouped(plan.users?, 0),
        counted(usize::try_from(plan.replicas).unwrap_or(usize::MAX), "replica"),
        grouped(plan.users_per_mw?, 0),
    ))
}

/// A share as people read it: `62%`, `131.2%` (no sign: it is not a change).
fn share(v: f64) -> String {
    format!("{}%", trimmed(v * 100.0, 4))
}

/// An error in words.
pub fn power_error_text(e: &PowerError) -> String {
    match e {
        PowerError::NoMeasuredPower => "the power at the recommended level is not reported; power_basis=tdp reads the GPU type's rated power instead".to_string(),
        PowerError::NoTdp { gpu } => format!(
            "{gpu} is not in the table of rated powers (README): nothing is guessed; use power_basis=measured where the files report power"
        ),
        PowerError::NoGpuCount => "the deployment's GPU count is not stated: a power per GPU cannot be read".to_string(),
        PowerError::PeakBelowMean { kind, peak_w, mean_w } => format!(
            "the file's {} at the recommended level, {}, is below its mean power, {}: the two cannot both be true (a per-GPU figure beside a total?), so neither is used",
            kind.label(),
            watts(*peak_w),
            watts(*mean_w)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::plan::power::TDP;

    fn flat(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_readme_states_the_formulas_and_the_rated_powers_with_their_sources() {
        let readme = include_str!("../../../README.md");
        let start = readme
            .find("## A power budget")
            .expect("the README has its power section");
        let section = &readme[start..];
        let section = flat(&section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)]);
        for (name, text) in FORMULAS {
            let stated = flat(&format!("- **{name}**: {text}"));
            assert!(
                section.contains(&stated),
                "README should state, word for word:\n{stated}"
            );
        }
        for t in TDP {
            let row = format!("| {} | {} W | {} |", t.gpu, t.w, t.source);
            assert!(section.contains(&row), "README should list:\n{row}");
        }
    }
    use crate::core::plan::power::{power_plan, PowerBasis};

    #[test]
    fn each_figure_carries_its_formula_with_the_numbers() {
        let rec = Recommendation {
            level: 384.0,
            avg_batch_size: Some(383.01428571428573),
            streams: Some(383.01428571428573),
            throughput_tok_s: 9248.01198181863,
            throughput_per_gpu_tok_s: Some(9248.01198181863),
            energy_per_token_j: None,
            power_w: Some(686.5186027909551),
            user_tps: 25.0,
            latency_ms: 40.0,
            headroom: 0.0,
            output_tokens_per_request: None,
            rate_user_tps: None,
        };
        let inputs = PowerInputs {
            budget_w: 1e6,
            basis: PowerBasis::Measured,
            host_w: 150.0,
            pue: 1.2,
        };
        let plan = power_plan(&rec, "H100", Some(1), None, &inputs).expect("a plan");
        let budgeted = Budgeted {
            plan: plan.clone(),
            need: None,
        };
        let figures = budget_figures(&budgeted, &inputs, 1, &rec);
        let by = |hook: &str| figures.iter().find(|f| f.hook == hook).expect(hook).clone();
        assert_eq!(
            by("power-replicas").formula,
            "replicas = floor(budget ÷ replica) = floor(1 MW ÷ 1,003.8 W) = 996"
        );
        assert_eq!(by("power-users").text, "381,482");
        assert_eq!(by("power-tok-s-per-mw").text, "9,212,798");
        // No output length: no requests per second.
        assert!(figures.iter().all(|f| f.hook != "power-req-s"));
        assert_eq!(
            basis_text(&plan, &inputs, 1),
            "GPU power measured at the recommended level: 686.52 W ÷ 1 GPU = 686.52 W per GPU (the GPUs alone); host 150 W per GPU; PUE 1.2"
        );
        assert_eq!(watts(400_000.0), "400 kW");
    }
}
