//! What was measured: statistics (one table of metric x aggregate), deployments (every identity
//! field), rows, sweeps and sources, per-request records, every size limit, and how numbers are
//! written. Imports nothing else of the core.

pub mod campaigns;
pub mod deployment;
pub mod differs;
pub mod family;
pub mod format;
pub mod limits;
pub mod order;
pub mod requests;
pub mod roles;
pub mod row;
pub mod signals;
pub mod source;
pub mod statistic;
pub mod sweep;
