//! Which deployments a command plans: the scenario of each, read by the page's scenario reader
//! from the parameters given, and each planned.

use llm_slo_planner::core::model::format;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::plan::planner::{plan, Plan};
use llm_slo_planner::core::scenario::{Front, Scenario};

use crate::exit::Exit;
use crate::links::query;
use crate::out::say;

/// The parameters that pick a deployment.
const SELECTORS: [&str; 4] = ["model", "gpu", "gpus", "cfg"];

/// One deployment planned.
pub struct Planned {
    /// The deployment's sweep in the source.
    pub sweep_index: usize,
    /// The scenario read for it.
    pub scenario: Scenario,
    /// Its plan.
    pub plan: Plan,
}

/// Every sweep of a source in the order `list` shows them: models in menu order, each model's
/// sweeps in menu order.
fn menu_order(source: &Source) -> Vec<usize> {
    source
        .models_in_menu_order()
        .into_iter()
        .flat_map(|m| source.sweeps_of(m))
        .collect()
}

/// The scenario of each deployment to plan, read by the page's scenario reader: with a
/// selector (`--model`, `--gpu`, `--gpus`, `--cfg`) or a one-sweep source, the one deployment a
/// link with these parameters opens; else every deployment, each as its own link would read.
/// `beside`: the keys the command gives another way (`power` for `--max-power`), so that what
/// qualifies them is read.
///
/// Errors: every parameter message, named `--key` (the scenario reader's own words).
fn scenarios(
    source: &Source,
    params: &[(String, String)],
    beside: &[&str],
) -> Result<Vec<(usize, Scenario)>, Vec<String>> {
    let selected = params.iter().any(|(k, _)| SELECTORS.contains(&k.as_str()));
    let queries: Vec<String> = if selected || source.sweeps.len() == 1 {
        vec![query(&[], params)]
    } else {
        menu_order(source)
            .into_iter()
            .map(|i| {
                let sweep = &source.sweeps[i];
                let mut pick = vec![
                    ("model", source.models[sweep.model_index].model_id.clone()),
                    ("gpu", sweep.deployment.gpu.clone()),
                ];
                if let Some(n) = sweep.deployment.num_gpus {
                    pick.push(("gpus", n.to_string()));
                }
                if let Some(cfg) = source.sweep_cfg(i) {
                    pick.push(("cfg", cfg.to_string()));
                }
                query(&pick, params)
            })
            .collect()
    };
    let mut errors: Vec<String> = Vec::new();
    let mut out = Vec::new();
    for q in &queries {
        let (scenario, messages) = Scenario::from_query_beside(q, source, beside);
        for m in messages {
            // "--gpus: must be a whole number ...", naming other parameters as options.
            let text = if m.param.is_empty() {
                m.detail(Front::CommandLine)
            } else {
                format!(
                    "--{}: {}",
                    m.param.replace('_', "-"),
                    m.detail(Front::CommandLine)
                )
            };
            if !errors.contains(&text) {
                errors.push(text);
            }
        }
        match scenario.sweep_index(source) {
            Some(i) => out.push((i, scenario)),
            None => errors.push("no deployment in the data matches".to_string()),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Each deployment the scenario parameters select, planned; `beside` as [`scenarios`] reads it.
///
/// Errors: [`Exit::BadInput`], once the parameters that cannot be used (or that nothing is
/// selected) are said.
pub fn planned(
    source: &Source,
    params: &[(String, String)],
    beside: &[&str],
) -> Result<Vec<Planned>, Exit> {
    let planned: Vec<Planned> = match scenarios(source, params, beside) {
        Ok(list) => list
            .into_iter()
            .map(|(sweep_index, scenario)| Planned {
                plan: plan(&source.sweeps[sweep_index], &scenario.slo),
                sweep_index,
                scenario,
            })
            .collect(),
        Err(errors) => {
            for e in errors {
                say(&e);
            }
            say("nothing planned: the command line does not go on with a parameter it cannot use as given (`list` shows what the data has)");
            return Err(Exit::BadInput);
        }
    };
    if planned.is_empty() {
        say("no deployment to plan");
        return Err(Exit::BadInput);
    }
    Ok(planned)
}

/// The note when selectors picked one deployment of a model that has others.
pub fn not_planned_note(source: &Source, planned: &[Planned]) -> Option<String> {
    let [one] = planned else { return None };
    let model = source.sweeps[one.sweep_index].model_index;
    let others = source.sweeps_of(model).len().saturating_sub(1);
    (others > 0).then(|| {
        format!(
            "{} of {} {} not planned: --gpu, --gpus and --cfg pick one (`list` shows them); without --model, --gpu, --gpus and --cfg every deployment is planned",
            format::counted(others, "other deployment"),
            one.scenario.deployment.model_id,
            format::for_count(others, "is", "are"),
        )
    })
}
