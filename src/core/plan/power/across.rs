//! The budget across deployments: each deployment of the side-by-side table planned under the
//! same budget at its own recommended level, sorted by users or output tok/s per MW
//! ([`PerMw`]), and the one that serves the most users.

use crate::core::model::source::Source;
use crate::core::plan::compare::CompareRow;
use crate::core::plan::power::{power_plan, PowerInputs, PowerPlan};

/// A row's power budget at its own recommended level (`inputs`' basis); `None` without a
/// recommendation or where its power cannot be read (under `measured`, a deployment whose
/// power is not reported).
pub fn row_budget(source: &Source, row: &CompareRow, inputs: &PowerInputs) -> Option<PowerPlan> {
    let sweep = source.sweeps.get(row.sweep_index)?;
    let d = &sweep.deployment;
    let peak = row
        .plan
        .recommended
        .and_then(|i| sweep.levels().get(i))
        .and_then(|l| l.power_peak);
    power_plan(
        row.recommendation.as_ref()?,
        &d.gpu,
        d.num_gpus,
        peak,
        inputs,
    )
    .ok()
}

/// The row that meets the SLO and serves the most users under the budget `inputs`, each at
/// its own recommended level, with its budget; ties keep the first. A row whose power cannot
/// be read, or whose users are not known, is never named.
pub fn most_users<'a>(
    source: &Source,
    rows: &'a [CompareRow],
    inputs: &PowerInputs,
) -> Option<(&'a CompareRow, PowerPlan)> {
    rows.iter()
        .filter(|r| r.meets())
        .filter_map(|r| {
            let plan = row_budget(source, r, inputs)?;
            Some((r, plan.users?, plan))
        })
        .fold(
            None,
            |best: Option<(&CompareRow, f64, PowerPlan)>, (r, users, plan)| match best {
                Some(b) if b.1 >= users => Some(b),
                _ => Some((r, users, plan)),
            },
        )
        .map(|(r, _, plan)| (r, plan))
}

/// What the budget's table across deployments sorts by: a figure per MW, highest first.
///
/// Its own enum rather than two more `plan::compare::Column`s: the side-by-side table's columns
/// are on the page's first load, which their arms changed (measured: 171,436 bytes with them,
/// 171,283 with this), for a table whose code loads on demand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerMw {
    /// Users per MW.
    Users,
    /// Output tok/s per MW.
    TokS,
}

impl PerMw {
    /// The column's header: `users per MW`, `tok/s per MW`.
    pub fn label(self) -> &'static str {
        match self {
            PerMw::Users => "users per MW",
            PerMw::TokS => "tok/s per MW",
        }
    }

    /// The figure in a budget; `None` where it is not known (users without streams).
    pub fn of(self, plan: &PowerPlan) -> Option<f64> {
        match self {
            PerMw::Users => plan.users_per_mw,
            PerMw::TokS => Some(plan.tok_s_per_mw),
        }
    }
}

/// Each row with its budget under `inputs`, at its own recommended level ([`row_budget`]),
/// sorted by `by`, highest first; rows without the figure go last, in their order.
pub fn per_mw_rows<'a>(
    source: &Source,
    rows: &'a [CompareRow],
    inputs: &PowerInputs,
    by: PerMw,
) -> Vec<(&'a CompareRow, Option<PowerPlan>)> {
    let mut out: Vec<(&CompareRow, Option<PowerPlan>)> = rows
        .iter()
        .map(|r| (r, row_budget(source, r, inputs)))
        .collect();
    let key = |p: &Option<PowerPlan>| p.as_ref().and_then(|p| by.of(p));
    crate::core::model::order::sort_by(&mut out, |a, b| match (key(&a.1), key(&b.1)) {
        (Some(x), Some(y)) => y.total_cmp(&x),
        (Some(_), None) => std::cmp::Ordering::Less,
        (None, Some(_)) => std::cmp::Ordering::Greater,
        (None, None) => std::cmp::Ordering::Equal,
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::plan::compare::family_rows;
    use crate::core::plan::power::PowerBasis;
    use crate::core::scenario::Scenario;

    /// Issue 45: with a budget, each deployment's users and tok/s per MW at its own level; the
    /// one serving the most users is named; one without measured power is last, never named.
    #[test]
    fn with_a_power_budget_rows_carry_per_mw_figures_and_the_most_users_is_named() {
        let source = lm_arena_chat();
        let query = "model=meta-llama%2FLlama-3.1-8B-Instruct&tps=25&pue=1.2&power=1MW&host_w=150";
        let (scenario, errors) = Scenario::from_query(query, source);
        assert!(errors.is_empty(), "{errors:?}");
        let model = source.model_index(&scenario.deployment.model_id).unwrap();
        let mut rows = family_rows(source, model, &scenario.slo);
        let inputs = scenario.power_inputs().unwrap();
        let gpu = |r: &CompareRow| source.sweeps[r.sweep_index].deployment.gpu.clone();
        for by in [PerMw::Users, PerMw::TokS] {
            let sorted = per_mw_rows(source, &rows, &inputs, by);
            assert_eq!(sorted.len(), rows.len());
            let known: Vec<f64> = sorted
                .iter()
                .filter_map(|(_, p)| p.as_ref())
                .map(|p| by.of(p).unwrap())
                .collect();
            assert!(known.len() >= 2, "{known:?}");
            assert!(known.windows(2).all(|w| w[0] >= w[1]), "{known:?}");
        }
        let (best, plan) = most_users(source, &rows, &inputs).unwrap();
        assert_eq!(gpu(best), "H100");
        assert_eq!(plan.replicas, 996);
        assert!((plan.users.unwrap() - 381_482.23).abs() < 0.01);
        assert!((plan.tok_s_per_mw - 9_212_797.69).abs() < 0.01);
        // Without its measured power, H100 has no figure under `measured`: last, never named.
        let h100 = rows.iter().position(|r| gpu(r) == "H100").unwrap();
        if let Some(r) = rows[h100].recommendation.as_mut() {
            r.power_w = None;
        }
        assert_ne!(gpu(most_users(source, &rows, &inputs).unwrap().0), "H100");
        let sorted = per_mw_rows(source, &rows, &inputs, PerMw::Users);
        let (last, plan) = sorted.last().unwrap();
        assert_eq!((gpu(last), plan), ("H100".to_string(), &None));
        // Under `tdp` it answers again, from its rated 700 W.
        let tdp = PowerInputs {
            basis: PowerBasis::Tdp,
            ..inputs
        };
        let (best, plan) = most_users(source, &rows, &tdp).unwrap();
        assert_eq!(gpu(best), "H100");
        assert_eq!(plan.replicas, 980);
        let label = source.sweep_label(best.sweep_index).to_string();
        let text = crate::core::text::power_text::most_users_text(&label, &plan).unwrap();
        assert!(text.starts_with("In the 1 MW budget, "), "{text}");
        assert!(text.contains("serves the most users: 375,354 "), "{text}");
        assert!(text.contains("980 replicas"), "{text}");
    }
}
