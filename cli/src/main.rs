//! `llm-slo-planner`: the page's planner on the command line. The same importers, scenario
//! reader, planner and writers as the page (`llm_slo_planner::core`); this binary only reads
//! files, collects arguments, and chooses the exit status for CI:
//! 0 `ok` or `all-meet`; 1 `unattainable`, or a `--require-level` / `--fail-on-flag` gate;
//! 3 `no-data`; 2 a bad parameter or no usable row. With several deployments, the worst, in
//! the order 2, 1, 3, 0.

mod args;
mod input;
mod report;

use std::process::ExitCode;

use args::{Command, Output, PlanArgs};
use input::Loaded;
use llm_slo_planner::core::anomalies::anomalies;
use llm_slo_planner::core::compare::table_rows;
use llm_slo_planner::core::export::{compare_csv, scenario_json};
use llm_slo_planner::core::planner::{plan, Plan, Status};
use llm_slo_planner::core::scenario::Scenario;
use llm_slo_planner::core::share;
use llm_slo_planner::core::sources::SHARED_SOURCE;
use llm_slo_planner::core::sweep::Source;

/// A bad parameter or input, or no usable row.
const BAD_INPUT: u8 = 2;
/// The parameters that pick a deployment.
const SELECTORS: [&str; 4] = ["model", "gpu", "gpus", "cfg"];

/// An exit status, ranked: 2, then 1, then 3, then 0.
fn worst(a: u8, b: u8) -> u8 {
    let rank = |code: u8| match code {
        2 => 3,
        1 => 2,
        3 => 1,
        _ => 0,
    };
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// The exit status of a plan's status.
fn status_code(status: &Status) -> u8 {
    match status {
        Status::Ok | Status::AllMeet => 0,
        Status::Unattainable => 1,
        Status::NoData { .. } => 3,
    }
}

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("llm-slo-planner: {e}");
            return ExitCode::from(BAD_INPUT);
        }
    };
    let code = match command {
        Command::Help => {
            print!("{}", args::usage());
            0
        }
        Command::Version => {
            println!("llm-slo-planner {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Command::List { paths, src } => match load(&paths, src.as_deref(), false) {
            Ok(loaded) => {
                print!("{}", report::list_text(&loaded.source));
                0
            }
            Err(code) => code,
        },
        Command::Plan(args) => run_plan(&args),
    };
    ExitCode::from(code)
}

/// The source of the command: files and folders, or a bundled source. Problems and notes go to
/// stderr; with `strict`, a problem beside usable rows fails.
fn load(paths: &[std::path::PathBuf], src: Option<&str>, strict: bool) -> Result<Loaded, u8> {
    let loaded = if paths.is_empty() {
        input::bundled(src).map_err(|e| vec![e])
    } else if src.is_some() {
        Err(vec![
            "give files and folders, or --src for a bundled source, not both".to_string(),
        ])
    } else {
        input::import(paths, |line| eprintln!("llm-slo-planner: {line}"))
    };
    let loaded = loaded.map_err(|problems| {
        for p in problems {
            eprintln!("llm-slo-planner: {p}");
        }
        BAD_INPUT
    })?;
    let said = if strict { "error" } else { "warning" };
    for p in &loaded.problems {
        eprintln!("llm-slo-planner: {said}: {p}");
    }
    for n in &loaded.notes {
        eprintln!("llm-slo-planner: note: {n}");
    }
    if strict && !loaded.problems.is_empty() {
        return Err(BAD_INPUT);
    }
    Ok(loaded)
}

/// One deployment planned.
struct Planned {
    sweep_index: usize,
    scenario: Scenario,
    plan: Plan,
}

/// The query of `params` (URL keys and values) with `extra` pairs first.
fn query(extra: &[(&str, String)], params: &[(String, String)]) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in extra {
        q.append_pair(k, v);
    }
    for (k, v) in params {
        q.append_pair(k, v);
    }
    q.finish()
}

/// The scenario of each deployment to plan, read by the page's scenario reader: with a
/// selector (`--model`, `--gpu`, `--gpus`, `--cfg`) or a one-sweep source, the one deployment a
/// link with these parameters opens; else every deployment, each as its own link would read.
///
/// Errors: every parameter message, named `--key` (the scenario reader's own words).
fn scenarios(
    source: &Source,
    params: &[(String, String)],
) -> Result<Vec<(usize, Scenario)>, Vec<String>> {
    let selected = params.iter().any(|(k, _)| SELECTORS.contains(&k.as_str()));
    let queries: Vec<String> = if selected || source.sweeps.len() == 1 {
        vec![query(&[], params)]
    } else {
        (0..source.sweeps.len())
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
        let (scenario, messages) = Scenario::from_query(q, source);
        for m in messages {
            let text = if m.param.is_empty() {
                m.message
            } else {
                format!("--{}: {}", m.param.replace('_', "-"), m.message)
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

/// The exit status of one plan, with the gates: a level below `--require-level`, or a flag of
/// `--fail-on-flag` on a level up to the recommendation, fails (1). Says why on stderr.
fn gated(source: &Source, p: &Planned, args: &PlanArgs) -> u8 {
    let sweep = &source.sweeps[p.sweep_index];
    let name = format!(
        "{} on {}",
        p.scenario.model_id,
        source.sweep_label(p.sweep_index)
    );
    let mut code = status_code(&p.plan.status);
    let recommended = p.plan.recommended.map(|i| sweep.levels()[i].level);
    if let (Some(need), Some(level)) = (args.require_level, recommended) {
        if level < need {
            eprintln!("llm-slo-planner: {name}: the recommended level {level} is below --require-level {need}");
            code = worst(code, 1);
        }
    }
    if let Some(level) = recommended {
        let flags = anomalies(sweep, &source.models[sweep.model_index], p.scenario.stat);
        for kind in &args.fail_on_flags {
            if let Some(a) = flags
                .iter()
                .find(|a| a.kind == *kind && sweep.rows[a.row_index].level <= level)
            {
                eprintln!(
                    "llm-slo-planner: {name}: flag {} at {} (--fail-on-flag): {}",
                    kind.key(),
                    sweep.rows[a.row_index].level,
                    a.detail
                );
                code = worst(code, 1);
            }
        }
    }
    code
}

/// The page link of a scenario: its query, and for imported data the sweeps in `#sweep=`.
fn link(base: &str, scenario: &Scenario, loaded: &Loaded, payload: Option<&str>) -> String {
    let src = if loaded.imported {
        Some(SHARED_SOURCE.to_string())
    } else {
        loaded.src.clone()
    };
    let query = Scenario {
        src,
        ..scenario.clone()
    }
    .to_query();
    match payload {
        Some(p) => format!("{base}?{query}#sweep={p}"),
        None => format!("{base}?{query}"),
    }
}

/// `plan`: reads the source, plans each deployment, writes the answer, returns the exit status.
fn run_plan(args: &PlanArgs) -> u8 {
    let src = args
        .params
        .iter()
        .find(|(k, _)| k == "src")
        .map(|(_, v)| v.as_str());
    let Ok(loaded) = load(&args.paths, src, args.strict) else {
        return BAD_INPUT;
    };
    let source = &loaded.source;
    let params: Vec<(String, String)> = args
        .params
        .iter()
        .filter(|(k, _)| k != "src")
        .cloned()
        .collect();
    let planned: Vec<Planned> = match scenarios(source, &params) {
        Ok(list) => list
            .into_iter()
            .map(|(sweep_index, scenario)| Planned {
                plan: plan(&source.sweeps[sweep_index], &scenario.slo()),
                sweep_index,
                scenario,
            })
            .collect(),
        Err(errors) => {
            for e in errors {
                eprintln!("llm-slo-planner: {e}");
            }
            return BAD_INPUT;
        }
    };
    let payload = match (&args.link, loaded.imported) {
        (Some(_), true) => match share::encode(source) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("llm-slo-planner: --link: not shared: {e}");
                return BAD_INPUT;
            }
        },
        _ => None,
    };
    let links: Vec<String> = planned
        .iter()
        .map(|p| match &args.link {
            Some(base) => link(base, &p.scenario, &loaded, payload.as_deref()),
            None => format!("?{}", p.scenario.to_query()),
        })
        .collect();
    let written = match args.output {
        Output::Text => Ok(planned
            .iter()
            .zip(&links)
            .map(|(p, url)| {
                let mut text = report::plan_text(source, p.sweep_index, &p.scenario, &p.plan);
                if args.link.is_some() {
                    text.push_str(&format!("  Link: {url}\n"));
                }
                text
            })
            .collect::<Vec<_>>()
            .join("\n")),
        Output::Json => planned
            .iter()
            .zip(&links)
            .map(|(p, url)| scenario_json(source, &p.scenario, p.sweep_index, &p.plan, url))
            .collect::<Result<Vec<_>, _>>()
            .map(|docs| match docs.as_slice() {
                [one] => format!("{one}\n"),
                _ => format!("[\n{}\n]\n", docs.join(",\n")),
            }),
        Output::Csv => {
            let models: Vec<usize> = planned
                .iter()
                .map(|p| source.sweeps[p.sweep_index].model_index)
                .collect();
            let all_models = models.iter().any(|m| *m != models[0]);
            let (rows, _) = table_rows(source, &planned[0].scenario, all_models, None);
            compare_csv(source, &rows, &planned[0].scenario, &links[0])
        }
    };
    match written {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("llm-slo-planner: {e}");
            return BAD_INPUT;
        }
    }
    // The JSON and CSV carry the link inside; it is also said on stderr, out of the data.
    if args.output != Output::Text && args.link.is_some() {
        for url in &links {
            eprintln!("llm-slo-planner: link: {url}");
        }
    }
    planned
        .iter()
        .map(|p| gated(source, p, args))
        .fold(0, worst)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_status_ranks_bad_input_then_unattainable_then_no_data() {
        assert_eq!([0, 3, 1, 0].into_iter().fold(0, worst), 1);
        assert_eq!([0, 3, 0].into_iter().fold(0, worst), 3);
        assert_eq!([1, 2, 3].into_iter().fold(0, worst), 2);
        assert_eq!([0, 0].into_iter().fold(0, worst), 0);
    }
}
