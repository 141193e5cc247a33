//! Links of version 1, still read: hardware, parallelism, precision and a configuration label per
//! sweep, rows as tuples.

use serde::Deserialize;

use super::read::{figure, latencies, positive, ReadSweep};
use super::{kind_of, ShareError, SharedModel};
use crate::core::model::deployment::Deployment;
use crate::core::model::row::Row;

/// Version 1: a sweep's hardware, parallelism (TP, EP, DP; 0 = not stated), precision, level
/// kind and configuration label; rows as tuples.
#[derive(Deserialize)]
pub(super) struct SharedV1 {
    pub(super) name: String,
    pub(super) models: Vec<SharedModel>,
    pub(super) sweeps: Vec<SweepV1>,
}

/// A version 1 sweep.
#[derive(Deserialize)]
pub(super) struct SweepV1 {
    model: usize,
    gpu: String,
    gpus: Option<u32>,
    par: (u32, u32, u32),
    prec: String,
    kind: char,
    cfg: String,
    rows: Vec<RowV1>,
}

/// Level, throughput, avg batch, avg output len, power, J/token, J/request, (statistic, ms).
#[derive(Deserialize)]
pub(super) struct RowV1(
    f64,
    f64,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Option<f64>,
    Vec<(String, f64)>,
);

/// A v1 sweep as read today: degrees of 0 were "not stated".
pub(super) fn sweep_v1(s: SweepV1) -> Result<ReadSweep, ShareError> {
    let (tp, ep, dp) = s.par;
    let stated = (tp, ep, dp) != (0, 0, 0);
    let degree = |d: u32| stated.then_some(d.max(1));
    let deployment = Deployment {
        gpu: s.gpu,
        num_gpus: s.gpus.filter(|n| *n > 0),
        tp: degree(tp),
        ep: degree(ep),
        dp: degree(dp),
        precision: s.prec,
        config: Some(s.cfg).filter(|c| !c.is_empty()),
        ..Deployment::new(kind_of(s.kind))
    };
    let rows = s
        .rows
        .into_iter()
        .map(|r| {
            let mut row = Row::new(positive(r.0)?, positive(r.1)?);
            row.avg_batch_size = figure(r.2);
            row.avg_output_len = figure(r.3);
            row.power_w = figure(r.4);
            row.set_energy_per_token_j(figure(r.5));
            row.energy_per_request_j = figure(r.6);
            Ok(latencies(row, r.7))
        })
        .collect::<Result<_, ShareError>>()?;
    Ok((s.model, deployment, rows))
}
