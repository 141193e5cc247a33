//! Judgement on a sweep and an SLO, never the URL: the planner, attainment on per-request
//! records, the flags, capacity and cost (with a `Pricing` value), the side-by-side comparison and
//! chart geometry. Imports only `model`.

pub mod ab;
pub mod ab_chart;
pub mod anomalies;
pub mod attain_plot;
pub mod attainment;
pub mod autoscaler;
pub mod bench;
pub mod bottleneck;
pub mod capacity;
pub mod chart;
pub mod compare;
pub mod cost;
pub mod estimate;
pub mod period;
pub mod planner;
pub mod power;
