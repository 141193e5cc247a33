//! `compare`: the candidate B against the baseline A at the scenario's target, beyond the noise
//! of repeated runs (`core::plan::ab`). Exit 0 better or no difference, 1 worse (the CI gate),
//! 3 cannot judge, 2 bad input.

use llm_slo_planner::core::model::format;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::plan::ab::{AbError, AbVerdict, Arm, Arms, Comparison};
use llm_slo_planner::core::plan::compare::{recommended, CompareRow};
use llm_slo_planner::core::scenario::Vs;
use llm_slo_planner::core::text::ab_text::{error_text, ratio_text, verdict_text, warning_text};
use llm_slo_planner::core::text::arm_figures::{arm_rows, plain_text};
use llm_slo_planner::core::wire::export::comparison::{
    comparison_csv, notes, with_comparison, ArmLabel, ArmLabels,
};
use llm_slo_planner::core::wire::export::scenario_json_with;

use crate::answer::said_json;
use crate::args::{CompareArgs, ComparisonOutput};
use crate::exit::Exit;
use crate::input::Loaded;
use crate::links;
use crate::load;
use crate::out::{say, write_out};
use crate::report::line;
use crate::said::Said;
use crate::select;

/// B's sweep in its source: the sweep `vs` names on A's model (resolved as the link's `vs`),
/// else the one sweep of A's model the source holds.
///
/// Errors: the message naming why B cannot be picked.
fn pick_b(source: &Source, model_id: &str, vs: Option<&Vs>) -> Result<usize, String> {
    let Some(m) = source.model_index(model_id) else {
        return Err(match source.models.as_slice() {
            // B's data are one other model: the arms are different models.
            [b] => format!(
                "--vs: {}",
                error_text(&AbError::DifferentModels {
                    a: model_id.to_string(),
                    b: b.model_id.clone(),
                })
            ),
            held => format!(
                "--vs: B's data hold no deployment of {model_id} (they hold {}: `list` shows them)",
                format::counted(held.len(), "other model")
            ),
        });
    };
    if let Some(vs) = vs.filter(|v| v.gpu.is_some() || v.gpus.is_some() || v.cfg.is_some()) {
        return vs.resolve(source, model_id).ok_or_else(|| {
            format!(
                "--vs \"{}\": no deployment of {model_id} in B's data matches (`list` shows them)",
                vs.write()
            )
        });
    }
    match source.sweeps_of(m).as_slice() {
        [one] => Ok(*one),
        many => Err(format!(
            "--vs: B's data hold {} deployments of {model_id}: pick one with --vs 'cfg=…' (or gpu=, gpus=; `list` shows them)",
            many.len()
        )),
    }
}

/// The text answer: the arms, the warnings, the verdict, the notes, each arm at its own
/// recommended level with B/A.
fn text_answer(c: &Comparison, labels: &ArmLabels) -> String {
    let (a, b) = (&labels.a, &labels.b);
    let mut out = if a.source == b.source {
        [
            format!("Data: {}", a.source),
            format!("A: {}", a.deployment),
            format!("B: {}", b.deployment),
        ]
        .map(|l| line(&l))
        .concat()
    } else {
        [
            format!("A: {} · {}", a.source, a.deployment),
            format!("B: {} · {}", b.source, b.deployment),
        ]
        .map(|l| line(&l))
        .concat()
    };
    for w in &c.warnings {
        out.push_str(&line(&format!("warning: {}", warning_text(w))));
    }
    out.push('\n');
    out.push_str(&line(&verdict_text(c)));
    out.push('\n');
    for n in notes(c) {
        out.push_str(&line(&format!("  {n}")));
    }
    out.push('\n');
    out.push_str(&line("At each arm's recommended level:"));
    // An arm without a recommended level has no figures there: "none", not "not reported".
    let meets = |arm: Option<&CompareRow>| arm.is_some_and(|r| r.recommendation.is_some());
    let cell = |meets: bool, v: Option<f64>| {
        if meets {
            plain_text(v)
        } else {
            "none".to_string()
        }
    };
    let (a_meets, b_meets) = (meets(a.recommended), meets(b.recommended));
    for row in arm_rows(a.recommended, b.recommended) {
        // A fleet's figure needs a load or a price: its row only when given.
        if row.a.is_none() && row.b.is_none() && row.figure.needs_input {
            continue;
        }
        // B/A as the page and the headline write it (`1.07×`).
        let ratio = row.ratio().map_or("-".to_string(), ratio_text);
        out.push_str(&line(&format!(
            "  {:<22} A {:<14} B {:<14} B/A {ratio}",
            row.figure.short,
            cell(a_meets, row.a),
            cell(b_meets, row.b)
        )));
    }
    out
}

/// The exit status of a verdict.
fn exit_of(verdict: AbVerdict) -> Exit {
    match verdict {
        AbVerdict::Better | AbVerdict::NoDifference => Exit::Ok,
        AbVerdict::Worse => Exit::Fail,
        AbVerdict::CannotJudge => Exit::NoData,
    }
}

/// B's source: its files, else the bundled source its selectors name, else A's.
fn load_b(args: &CompareArgs, b_src: Option<&str>) -> Result<Option<Loaded>, Exit> {
    if args.b_paths.is_empty() && b_src.is_none() {
        return Ok(None);
    }
    load::load(&args.b_paths, b_src, args.strict).map(Some)
}

/// A picked in its data, and B's data (`None`: B is in A's) and sweep.
struct Picked {
    loaded_a: Loaded,
    a: select::Planned,
    loaded_b: Option<Loaded>,
    b_index: usize,
}

/// Reads both arms' data and picks A and B.
///
/// Errors: [`Exit::BadInput`] once the reason is said.
fn pick(args: &CompareArgs) -> Result<Picked, Exit> {
    let src = args
        .params
        .iter()
        .find(|(k, _)| k == "src")
        .map(|(_, v)| v.as_str());
    let loaded_a = load::load(&args.a_paths, src, args.strict)?;
    let params: Vec<(String, String)> = args
        .params
        .iter()
        .filter(|(k, _)| k != "src")
        .cloned()
        .collect();
    // `tol` qualifies `vs`, which `--vs` gives as files or selectors.
    let mut planned = select::planned(&loaded_a.source, &params, &["vs"])?;
    if planned.len() != 1 {
        say(&format!(
            "A's data hold {} deployments: pick A with --model, --gpu, --gpus and --cfg (`list` shows them)",
            planned.len()
        ));
        return Err(Exit::BadInput);
    }
    let mut a = planned.remove(0);
    let vs = a.scenario.versus.vs.clone();
    let b_src = vs.as_ref().and_then(|v| v.src.clone());
    if args.b_paths.is_empty() && vs.is_none() {
        say("--vs: give B's files or folders, or its selectors (e.g. --vs 'gpu=B200&gpus=1' or --vs 'cfg=…')");
        return Err(Exit::BadInput);
    }
    // The comparison as a link names it, for the JSON's scenario (files of B have no link).
    if !args.b_paths.is_empty() {
        a.scenario.versus.vs = None;
    }
    let loaded_b = load_b(args, b_src.as_deref())?;
    let source_b = loaded_b.as_ref().map_or(&loaded_a.source, |l| &l.source);
    let b_index = pick_b(source_b, &a.scenario.deployment.model_id, vs.as_ref()).map_err(|e| {
        say(&e);
        Exit::BadInput
    })?;
    Ok(Picked {
        loaded_a,
        a,
        loaded_b,
        b_index,
    })
}

/// `compare`: reads both arms, compares them, writes the answer, returns the exit status.
pub fn run_compare(args: &CompareArgs) -> Exit {
    let p = match pick(args) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let (loaded_a, a) = (&p.loaded_a, &p.a);
    let source_b = p.loaded_b.as_ref().map_or(&loaded_a.source, |l| &l.source);
    let arm_a = Arm {
        source: &loaded_a.source,
        sweep_index: a.sweep_index,
    };
    let arm_b = Arm {
        source: source_b,
        sweep_index: p.b_index,
    };
    let tol = a.scenario.versus.tol_pct;
    let compared = Arms::new(arm_a, arm_b).and_then(|arms| arms.compare(&a.scenario.slo, tol));
    let c = match compared {
        Ok(c) => c,
        Err(e) => {
            say(&error_text(&e));
            return Exit::BadInput;
        }
    };
    let slo = &a.scenario.slo;
    let pricing = a.scenario.pricing();
    let (rec_a, rec_b) = (
        recommended(arm_a, slo, pricing),
        recommended(arm_b, slo, pricing),
    );
    let labels = ArmLabels {
        a: ArmLabel {
            source: &loaded_a.source.task_display_name,
            deployment: loaded_a.source.sweep_label(a.sweep_index),
            recommended: rec_a.as_ref(),
        },
        b: ArmLabel {
            source: &source_b.task_display_name,
            deployment: source_b.sweep_label(p.b_index),
            recommended: rec_b.as_ref(),
        },
    };
    let written = match args.output {
        ComparisonOutput::Text => Ok(text_answer(&c, &labels)),
        ComparisonOutput::Json => {
            let url = links::link(None, &a.scenario, loaded_a, None);
            let arms = [Some(loaded_a), p.loaded_b.as_ref()];
            let warnings: Vec<Said> = arms
                .iter()
                .flatten()
                .flat_map(|l| l.problems.clone())
                .collect();
            let notes: Vec<Said> = arms
                .iter()
                .flatten()
                .flat_map(|l| l.notes.clone())
                .collect();
            let extra = said_json(&warnings, &notes);
            scenario_json_with(
                &loaded_a.source,
                &a.scenario,
                a.sweep_index,
                &a.plan,
                &url,
                &extra,
            )
            .and_then(|doc| with_comparison(&doc, &c, &labels))
            .map(|doc| format!("{doc}\n"))
            .map_err(|e| e.to_string())
        }
        ComparisonOutput::Csv => comparison_csv(&c, &labels).map_err(|e| e.to_string()),
    };
    match written.map_err(|e| say(&e)) {
        Ok(text) => {
            write_out(&text, args.output.into()).map_or_else(|code| code, |()| exit_of(c.verdict))
        }
        Err(()) => Exit::BadInput,
    }
}
