//! The JSON's `result.power`: a power budget at the recommended level (`plan::power`).

use serde::Serialize;

use crate::core::plan::power::{Budgeted, PowerError};
use crate::core::text::power_text::power_error_text;

/// `result.power`: every figure of the budget, or why it cannot be planned (`error`).
#[derive(Serialize, Default)]
pub(super) struct JsonPower {
    budget_w: Option<f64>,
    basis: &'static str,
    w_per_gpu: Option<f64>,
    replica_w: Option<f64>,
    replicas: Option<u64>,
    gpus: Option<u64>,
    users: Option<f64>,
    output_tok_s: Option<f64>,
    req_s: Option<f64>,
    tok_s_per_mw: Option<f64>,
    users_per_mw: Option<f64>,
    facility_j_per_token: Option<f64>,
    needed_w: Option<f64>,
    budget_share: Option<f64>,
    fits: Option<bool>,
    error: Option<String>,
}

impl JsonPower {
    /// The budget as written, under `basis` (its key), for `budget_w`.
    pub(super) fn of(
        budgeted: Result<Budgeted, PowerError>,
        basis: &'static str,
        budget_w: f64,
    ) -> JsonPower {
        match budgeted {
            Err(e) => JsonPower {
                budget_w: Some(budget_w),
                basis,
                error: Some(power_error_text(&e)),
                ..JsonPower::default()
            },
            Ok(Budgeted { plan: p, need }) => JsonPower {
                budget_w: Some(p.budget_w),
                basis,
                w_per_gpu: Some(p.w_per_gpu),
                replica_w: Some(p.replica_w),
                replicas: Some(p.replicas),
                gpus: Some(p.gpus),
                users: p.users,
                output_tok_s: Some(p.output_tok_s),
                req_s: p.req_s,
                tok_s_per_mw: Some(p.tok_s_per_mw),
                users_per_mw: p.users_per_mw,
                facility_j_per_token: Some(p.facility_j_per_token),
                needed_w: need.map(|(_, n)| n.needed_w),
                budget_share: need.map(|(_, n)| n.budget_share),
                fits: need.map(|(_, n)| n.fits),
                error: None,
            },
        }
    }
}
