//! Thin components: each reads signals and core results and draws them; no computation here.

pub mod ab;
pub mod answer;
pub mod attain_input;
pub mod capacity;
pub mod chart;
pub mod chart_svg;
pub mod compare;
pub mod compare_with;
pub mod controls;
pub mod copy_link;
pub mod cost;
pub mod deployment_select;
pub mod download;
pub mod field_error;
pub mod fleet_field;
pub mod fleet_inputs;
pub mod import_panel;
pub mod limits;
pub mod load_inputs;
pub mod lower_evidence;
pub mod message;
pub mod method;
pub mod model_select;
pub mod near_view;
pub mod period;
pub mod plan_shown;
pub mod planner;
pub mod power;
pub mod power_inputs;
pub mod provenance;
pub mod registry;
pub mod requests;
pub mod scenario_errors;
pub mod source_picker;
pub mod sources;
pub mod statistic_select;
pub mod sweep_table;
pub mod target_input;
pub mod upper_evidence;
pub mod why;
pub mod window_events;

pub use crate::core::text::explain::verdict_text;

/// `data-value` text for a number: the unrounded value as Rust's `{}` prints an f64.
pub fn data_value(value: f64) -> String {
    value.to_string()
}

/// Attribute text for an optional value: empty when absent.
pub fn attr<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}
