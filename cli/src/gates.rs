//! The gates of `plan` for CI: each deployment's exit status from its plan's status, made worse
//! by `--require-level`, `--max-gpus`, `--max-power` and `--fail-on-flag` (each failure said on
//! stderr).

use llm_slo_planner::core::model::format::{counted, level as level_text};
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::Sweep;
use llm_slo_planner::core::plan::anomalies::anomalies;
use llm_slo_planner::core::plan::capacity::at_recommendation;
use llm_slo_planner::core::plan::period::period;
use llm_slo_planner::core::text::power_text::{power_error_text, watts};

use crate::args::PlanArgs;
use crate::exit::Exit;
use crate::out::say;
use crate::select::Planned;

/// The exit status of one plan, with the gates: a level below `--require-level`, or a flag of
/// `--fail-on-flag` on a level up to the recommendation, fails ([`Exit::Fail`]). Says why on
/// stderr.
pub fn gated(source: &Source, p: &Planned, args: &PlanArgs) -> Exit {
    let sweep = &source.sweeps[p.sweep_index];
    let name = format!(
        "{} on {}",
        p.scenario.deployment.model_id,
        source.sweep_label(p.sweep_index)
    );
    let mut code = Exit::of_status(&p.plan.status);
    let recommended = p.plan.recommended.map(|i| sweep.levels()[i].level);
    if let (Some(need), Some(level)) = (args.require_level, recommended) {
        if level < need {
            say(&format!(
                "{name}: the recommended level {} is below --require-level {}",
                level_text(level),
                level_text(need)
            ));
            code = code.max(Exit::Fail);
        }
    }
    if let Some(max) = args.max_gpus {
        code = code.max(over_max_gpus(sweep, p, &name, max));
    }
    if let Some(max_w) = args.max_power_w {
        code = code.max(over_max_power(sweep, p, &name, max_w));
    }
    if let Some(level) = recommended {
        let flags = anomalies(
            sweep,
            &source.models[sweep.model_index],
            p.scenario.slo.stat,
        );
        for kind in &args.fail_on_flags {
            if let Some(a) = flags
                .iter()
                .find(|a| a.kind == *kind && sweep.rows[a.row_index].level <= level)
            {
                say(&format!(
                    "{name}: flag {} at {} (--fail-on-flag): {}",
                    kind.key(),
                    sweep.rows[a.row_index].level,
                    a.detail
                ));
                code = code.max(Exit::Fail);
            }
        }
    }
    code
}

/// The `--max-power` gate: [`Exit::Fail`] when the peak of the load (`load`, else `users` or
/// `rps`) needs more facility power than `max_w` at the recommended level (each GPU at the
/// scenario's `power_basis`, plus `host_w`, times `pue`), [`Exit::BadInput`] without a load or
/// when a GPU's power cannot be read, else [`Exit::Ok`]. Says why on stderr.
fn over_max_power(sweep: &Sweep, p: &Planned, name: &str, max_w: f64) -> Exit {
    let s = &p.scenario;
    let fleet = s.capacity_for(&sweep.deployment.gpu);
    if s.fleet.load.is_none() && !fleet.has_load() {
        say(&format!(
            "{name}: --max-power needs a load (--load, --users or --rps)"
        ));
        return Exit::BadInput;
    }
    match s.budget_under(sweep, &p.plan, &s.slo, &s.power_inputs_at(max_w)) {
        // Nothing recommended: the status says so.
        None => Exit::Ok,
        Some(Err(e)) => {
            say(&format!(
                "{name}: --max-power cannot be checked: {}",
                power_error_text(&e)
            ));
            Exit::BadInput
        }
        Some(Ok(b)) => match b.need {
            Some((replicas, need)) if !need.fits => {
                say(&format!(
                    "{name}: the load's peak needs {} ({}), more than --max-power {}",
                    watts(need.needed_w),
                    counted(usize::try_from(replicas).unwrap_or(usize::MAX), "replica"),
                    watts(max_w)
                ));
                Exit::Fail
            }
            Some(_) => Exit::Ok,
            None => {
                say(&format!(
                    "{name}: --max-power cannot be checked: the replicas the load needs are not known"
                ));
                Exit::BadInput
            }
        },
    }
}

/// The `--max-gpus` gate: [`Exit::Fail`] when the peak of the load (`load`, else `users` or
/// `rps`) needs more than `max` GPUs at the recommended level, [`Exit::BadInput`] when there is
/// no load or no GPU count to check it against, else [`Exit::Ok`]. Says why on stderr.
fn over_max_gpus(sweep: &Sweep, p: &Planned, name: &str, max: u64) -> Exit {
    let slo = p.scenario.slo.clone();
    let inputs = p.scenario.capacity_for(&sweep.deployment.gpu);
    let peak = match (&p.scenario.fleet.load, p.plan.recommendation(sweep, &slo)) {
        (Some(load), Some(rec)) => {
            period(
                &rec,
                sweep.deployment.num_gpus,
                load,
                p.scenario.fleet.scaling,
                &inputs,
            )
            .peak_gpus
        }
        (None, Some(_)) if inputs.has_load() => {
            at_recommendation(sweep, &p.plan, &slo, &inputs).and_then(|c| c.gpus)
        }
        (None, Some(_)) => {
            say(&format!(
                "{name}: --max-gpus needs a load (--load, --users or --rps)"
            ));
            return Exit::BadInput;
        }
        // Nothing recommended: the status says so.
        (_, None) => return Exit::Ok,
    };
    match peak {
        Some(gpus) if gpus > max => {
            say(&format!(
                "{name}: the load's peak needs {gpus} GPUs, more than --max-gpus {max}"
            ));
            Exit::Fail
        }
        Some(_) => Exit::Ok,
        None => {
            say(&format!(
                "{name}: --max-gpus cannot be checked: the GPUs the load needs are not known"
            ));
            Exit::BadInput
        }
    }
}
