//! Thin components: each reads signals and core results and draws them; no computation here.

pub mod answer;
pub mod capacity;
pub mod chart;
pub mod compare;
pub mod controls;
pub mod method;
pub mod planner;
pub mod provenance;
pub mod scenario_errors;
pub mod sources;
pub mod sweep_table;

use crate::core::planner::{Condition, Slo, Verdict};

/// "meets", or "fails: target" / "fails: p99 ITL ≤ 150 ms" naming each broken condition.
pub fn verdict_text(slo: &Slo, verdict: &Verdict) -> String {
    if verdict.meets {
        return "meets".into();
    }
    let names: Vec<String> = verdict
        .broken
        .iter()
        .map(|c| match c {
            Condition::Target => "target".to_string(),
            Condition::Limit(i) => slo.limits.get(*i).map_or_else(String::new, |l| {
                format!("{} ≤ {} ms", l.stat.short_label(), l.max_ms)
            }),
        })
        .collect();
    if verdict.unreported {
        format!("not reported: {}", names.join(", "))
    } else {
        format!("fails: {}", names.join(", "))
    }
}

/// `data-value` text for a number: the unrounded value as Rust's `{}` prints an f64.
pub fn data_value(value: f64) -> String {
    value.to_string()
}

/// Attribute text for an optional value: empty when absent.
pub fn attr<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
