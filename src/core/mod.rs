//! The pure core: sweep model, SLO semantics, planning and the URL scenario codec.
//!
//! Nothing here imports the UI framework or the browser bindings, so all of it is tested
//! natively with `cargo test`. How the recommendation is computed lives in [`planner`].

pub mod anomalies;
pub mod attain_plot;
pub mod attainment;
pub mod bench;
pub mod bundled;
pub mod campaigns;
pub mod capacity;
pub mod capacity_text;
pub mod chart;
pub mod chart_text;
pub mod compare;
pub mod deployment;
pub mod explain;
pub mod export;
pub mod family;
pub mod format;
pub mod handoff;
pub mod headline;
pub mod import;
pub mod limits;
pub mod order;
pub mod planner;
pub mod reference;
pub mod requests;
pub mod routing;
pub mod row;
pub mod rules;
pub mod scenario;
pub mod share;
pub mod sources;
pub mod statistic;
pub mod sweep;
