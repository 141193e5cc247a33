//! What the power panel shows: each figure of a [`PowerPlan`] with its label, hook, display
//! text and the formula that gives it, this deployment's numbers written in (shown on
//! hover/focus), as the fleet panel's figures (`figures.rs`); the budget's formulas, the basis,
//! whether a load fits and the errors, in words.

mod figures;

pub use figures::{budget_figures, Budget, BudgetFigure, BUDGET_FIGURES};

use crate::core::model::format::{counted, grouped, trimmed};
use crate::core::plan::power::{GpuPower, PowerError, PowerInputs, PowerNeed, PowerPlan};

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
            "measured at the recommended level{}: {} ÷ {} = {} per GPU (the GPUs alone)",
            peak.map(|k| format!(" ({}, the highest the file reports)", k.label()))
                .unwrap_or_default(),
            watts(w * f64::from(num_gpus)),
            counted(num_gpus as usize, "GPU"),
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
    use crate::core::plan::planner::Recommendation;
    use crate::core::plan::power::{Budgeted, TDP};
    use crate::core::text::readme::{assert_states_each, section};

    #[test]
    fn the_readme_states_the_formulas_and_the_rated_powers_with_their_sources() {
        let section = section("## A power budget");
        assert_states_each(&section, &FORMULAS);
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
