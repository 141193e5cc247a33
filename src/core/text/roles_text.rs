//! A disaggregated deployment's roles in words: which GPUs each per-GPU figure divides by, the
//! role figures at a level, and a stored J per output token that is the decode role's alone.

use crate::core::model::format::{grouped, level as level_text, significant};
use crate::core::model::roles::RolePerGpu;
use crate::core::model::sweep::{Level, Sweep};

/// What is said of a disaggregated sweep's roles at `level`; empty for a colocated one.
///
/// e.g. "Disaggregated: 16 prefill + 8 decode GPUs; tok/s per GPU divides by all 24. At 2,048:
/// 1,186.2 output tok/s per decode GPU, 4,740.1 input tok/s per prefill GPU."
pub fn roles_lines(sweep: &Sweep, level: Option<&Level>) -> Vec<String> {
    let Some(roles) = sweep.deployment.roles() else {
        return Vec::new();
    };
    let count = |n: Option<u32>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
    let mut lines = vec![match roles.total_gpus() {
        Some(all) => format!(
            "Disaggregated: {} prefill + {} decode GPUs; tok/s per GPU divides by all {all}.",
            count(roles.prefill.gpus),
            count(roles.decode.gpus),
        ),
        None => {
            "Disaggregated: the roles' GPUs are not stated, so no figure is divided among them."
                .to_string()
        }
    }];
    let Some(level) = level else {
        return lines;
    };
    let per_role = RolePerGpu::of(roles, level.throughput_tok_s, level.input_tok_s).label();
    if !per_role.is_empty() {
        lines.push(format!("At {}: {per_role}.", level_text(level.level)));
    }
    let power = [
        ("prefill", level.roles.prefill_power_w),
        ("decode", level.roles.decode_power_w),
    ]
    .into_iter()
    .filter_map(|(name, w)| w.map(|w| format!("{name} {} W", grouped(w, 0))))
    .collect::<Vec<_>>();
    if !power.is_empty() {
        lines.push(format!("Power by role: {}.", power.join(", ")));
    }
    if let Some(j) = level.roles.decode_energy_per_token_j {
        lines.push(format!(
            "The file's {} J per output token is the decode role's alone; the whole deployment's is {}.",
            significant(j, 3),
            level.energy_per_token_j.map_or_else(
                || "not reported (no power for the whole deployment)".to_string(),
                |w| format!("{} J (power ÷ output tok/s)", significant(w, 3)),
            ),
        ));
    }
    lines
}
