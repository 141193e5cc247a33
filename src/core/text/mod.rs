//! Every sentence the fronts show: the answer's headline and explanations, the rules, the fleet
//! panel's figures, the chart's words and the errors' words. Imports `model`, `plan`, `import` and `scenario`.

pub mod ab_text;
pub mod arm_figures;
pub mod attainment_text;
pub mod capacity_text;
pub mod chart_file;
pub mod chart_text;
pub mod code_spans;
pub mod cost_text;
pub mod download_name;
pub mod error_text;
pub mod explain;
pub mod headline;
pub mod period_text;
pub mod power_text;
pub mod roles_text;
pub mod rules;
pub mod scenario_text;
pub mod why_text;
