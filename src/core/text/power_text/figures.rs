//! The power panel's figures: each figure of a [`PowerPlan`] with its names in the exports,
//! its label and hook, how it is written and the formula that gives it, this deployment's
//! numbers written in ([`BUDGET_FIGURES`], laid out by the page, the text, the JSON and the CSV).

use super::{share, watts};
use crate::core::model::format::{counted, grouped, significant, trimmed};
use crate::core::plan::planner::Recommendation;
use crate::core::plan::power::{Budgeted, PowerInputs, PowerNeed, PowerPlan};
use crate::core::text::capacity_text::FleetFigure;

/// What a budget's formulas are written with.
struct Known<'a> {
    plan: &'a PowerPlan,
    inputs: &'a PowerInputs,
    num_gpus: u32,
    rec: &'a Recommendation,
    /// The replicas the load's peak needs and that against the budget; `None` without a load.
    need: Option<(u64, PowerNeed)>,
}

impl Known<'_> {
    /// `1 GPU × 1,003.8 W × PUE 1.2`: a replica's facility power, written out.
    fn replica(&self) -> String {
        format!(
            "{} × {} × PUE {}",
            counted(self.num_gpus as usize, "GPU"),
            watts(self.plan.w_per_gpu),
            trimmed(self.inputs.pue, 4)
        )
    }
}

/// One figure of a power budget: its names in the exports, its label and hook on the page, and
/// which figure it is (its value, how it is written and the formula that gives it). The one
/// list ([`BUDGET_FIGURES`]) the page, the text, the JSON (`result.power`) and the CSV
/// (`power_…` columns) lay out.
#[derive(Clone, Copy, Debug)]
pub struct BudgetFigure {
    /// The CSV's column (`power_w_per_gpu`); without `power_`, the JSON's key ([`BudgetFigure::key`]).
    pub column: &'static str,
    /// Label, e.g. "Replicas that fit".
    pub label: &'static str,
    /// `data-testid` of the value.
    pub hook: &'static str,
    /// A whole number (replicas, GPUs): the JSON writes it without a decimal point.
    pub count: bool,
    /// Which figure it is.
    pub figure: Budget,
}

/// Which figure of a budget (a tag, not function pointers: a table of them would weigh on the
/// page's first load).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// W per GPU, all in.
    WPerGpu,
    /// A replica's facility power, W.
    ReplicaW,
    /// Replicas that fit.
    Replicas,
    /// GPUs that fit.
    Gpus,
    /// Users served.
    Users,
    /// Output tok/s.
    OutputTokS,
    /// Requests per second.
    ReqS,
    /// Output tok/s per MW.
    TokSPerMw,
    /// Users per MW.
    UsersPerMw,
    /// Facility J per output token.
    FacilityJ,
    /// The power the load's peak needs, W.
    NeededW,
    /// That ÷ the budget.
    BudgetShare,
}

impl BudgetFigure {
    /// Its key in the JSON's `result.power`: the column without `power_`.
    pub fn key(&self) -> &'static str {
        self.column.strip_prefix("power_").unwrap_or(self.column)
    }

    /// Its value in budget `p`, with the load's peak against it (`need`) where a load is given;
    /// `None` where an input it needs is absent.
    pub fn value(&self, p: &PowerPlan, need: Option<&PowerNeed>) -> Option<f64> {
        match self.figure {
            Budget::WPerGpu => Some(p.w_per_gpu),
            Budget::ReplicaW => Some(p.replica_w),
            Budget::Replicas => Some(p.replicas as f64),
            Budget::Gpus => Some(p.gpus as f64),
            Budget::Users => p.users,
            Budget::OutputTokS => Some(p.output_tok_s),
            Budget::ReqS => p.req_s,
            Budget::TokSPerMw => Some(p.tok_s_per_mw),
            Budget::UsersPerMw => p.users_per_mw,
            Budget::FacilityJ => Some(p.facility_j_per_token),
            Budget::NeededW => Some(need?.needed_w),
            Budget::BudgetShare => Some(need?.budget_share),
        }
    }

    /// The value as shown, with its unit.
    fn text(&self, v: f64) -> String {
        match self.figure {
            Budget::WPerGpu | Budget::ReplicaW | Budget::NeededW => watts(v),
            Budget::ReqS => significant(v, 4),
            Budget::FacilityJ => format!("{} J", significant(v, 3)),
            Budget::BudgetShare => share(v),
            Budget::Replicas
            | Budget::Gpus
            | Budget::Users
            | Budget::OutputTokS
            | Budget::TokSPerMw
            | Budget::UsersPerMw => count(v),
        }
    }

    /// "name = formula = numbers = result", with `k`'s numbers written in.
    fn formula(&self, k: &Known, v: f64) -> String {
        let (plan, rec) = (k.plan, k.rec);
        let replicas = count(plan.replicas as f64);
        match self.figure {
            Budget::WPerGpu => format!(
                "W per GPU = GPU + host = {} + {} = {}",
                watts(plan.gpu.w()),
                watts(k.inputs.host_w),
                watts(v)
            ),
            Budget::ReplicaW => format!("replica = {} = {}", k.replica(), watts(v)),
            Budget::Replicas => format!(
                "replicas = floor(budget ÷ replica) = floor({} ÷ {}) = {}",
                watts(plan.budget_w),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::Gpus => format!(
                "GPUs = replicas × GPUs per replica = {replicas} × {} = {}",
                k.num_gpus,
                count(v)
            ),
            Budget::Users => format!(
                "users = replicas × streams per replica = {replicas} × {} = {}",
                significant(rec.streams.unwrap_or(0.0), 4),
                count(v)
            ),
            Budget::OutputTokS => format!(
                "output = replicas × throughput = {replicas} × {} tok/s = {} tok/s",
                grouped(rec.throughput_tok_s, 1),
                count(v)
            ),
            Budget::ReqS => format!(
                "req/s = output ÷ output tokens per request = {} ÷ {} = {}",
                count(plan.output_tok_s),
                significant(rec.output_tokens_per_request.unwrap_or(0.0), 4),
                significant(v, 4)
            ),
            Budget::TokSPerMw => format!(
                "tok/s per MW = throughput ÷ replica × 10^6 = {} ÷ {} × 10^6 = {}",
                grouped(rec.throughput_tok_s, 1),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::UsersPerMw => format!(
                "users per MW = streams per replica ÷ replica × 10^6 = {} ÷ {} × 10^6 = {}",
                significant(rec.streams.unwrap_or(0.0), 4),
                watts(plan.replica_w),
                count(v)
            ),
            Budget::FacilityJ => format!(
                "J per token = replica ÷ throughput = {} ÷ {} tok/s = {} J",
                watts(plan.replica_w),
                grouped(rec.throughput_tok_s, 1),
                significant(v, 3)
            ),
            Budget::NeededW => format!(
                "needed = replicas at the peak × replica = {} × {} = {}",
                grouped(k.need.map_or(0, |(r, _)| r) as f64, 0),
                watts(plan.replica_w),
                watts(v)
            ),
            Budget::BudgetShare => format!(
                "share = needed ÷ budget = {} ÷ {} = {}",
                watts(k.need.map_or(0.0, |(_, n)| n.needed_w)),
                watts(plan.budget_w),
                share(v)
            ),
        }
    }
}

/// A count as the budget writes it: `9,212,798`.
fn count(v: f64) -> String {
    grouped(v, 0)
}

/// Every figure of a budget, in order: what fits (W per GPU, a replica's power, replicas, GPUs,
/// users), what it serves (output, requests, per MW, J per token), and the load's peak against
/// the budget.
pub const BUDGET_FIGURES: [BudgetFigure; 12] = [
    BudgetFigure {
        column: "power_w_per_gpu",
        label: "W per GPU, all in",
        hook: "power-w-per-gpu",
        count: false,
        figure: Budget::WPerGpu,
    },
    BudgetFigure {
        column: "power_replica_w",
        label: "A replica draws",
        hook: "power-replica",
        count: false,
        figure: Budget::ReplicaW,
    },
    BudgetFigure {
        column: "power_replicas",
        label: "Replicas that fit",
        hook: "power-replicas",
        count: true,
        figure: Budget::Replicas,
    },
    BudgetFigure {
        column: "power_gpus",
        label: "GPUs",
        hook: "power-gpus",
        count: true,
        figure: Budget::Gpus,
    },
    BudgetFigure {
        column: "power_users",
        label: "Users served",
        hook: "power-users",
        count: false,
        figure: Budget::Users,
    },
    BudgetFigure {
        column: "power_output_tok_s",
        label: "Output tok/s",
        hook: "power-output",
        count: false,
        figure: Budget::OutputTokS,
    },
    BudgetFigure {
        column: "power_req_s",
        label: "Requests per second",
        hook: "power-req-s",
        count: false,
        figure: Budget::ReqS,
    },
    BudgetFigure {
        column: "power_tok_s_per_mw",
        label: "Output tok/s per MW",
        hook: "power-tok-s-per-mw",
        count: false,
        figure: Budget::TokSPerMw,
    },
    BudgetFigure {
        column: "power_users_per_mw",
        label: "Users per MW",
        hook: "power-users-per-mw",
        count: false,
        figure: Budget::UsersPerMw,
    },
    BudgetFigure {
        column: "power_facility_j_per_token",
        label: "Facility J per output token",
        hook: "power-facility-j",
        count: false,
        figure: Budget::FacilityJ,
    },
    BudgetFigure {
        column: "power_needed_w",
        label: "The peak needs",
        hook: "power-needed",
        count: false,
        figure: Budget::NeededW,
    },
    BudgetFigure {
        column: "power_budget_share",
        label: "Share of the budget",
        hook: "power-share",
        count: false,
        figure: Budget::BudgetShare,
    },
];

/// The figures of the power panel for budget `b` at `rec` (of a deployment of `num_gpus` GPUs),
/// in [`BUDGET_FIGURES`]' order; those whose inputs are absent (a load, streams, an output
/// length) are left out.
pub fn budget_figures(
    b: &Budgeted,
    inputs: &PowerInputs,
    num_gpus: u32,
    rec: &Recommendation,
) -> Vec<FleetFigure> {
    let known = Known {
        plan: &b.plan,
        inputs,
        num_gpus,
        rec,
        need: b.need,
    };
    let need = b.need.as_ref().map(|(_, n)| n);
    BUDGET_FIGURES
        .iter()
        .filter_map(|f| {
            FleetFigure::of(
                f.label,
                f.hook,
                f.value(&b.plan, need),
                |v| f.text(v),
                |v| f.formula(&known, v),
            )
        })
        .collect()
}
