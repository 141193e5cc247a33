//! `llm-slo-planner`: the page's planner on the command line. The same importers, scenario
//! reader, planner and writers as the page (`llm_slo_planner::core`); this binary only reads
//! files, collects arguments, and chooses the exit status for CI:
//! 0 `ok` or `all-meet`; 1 `unattainable`, or a `--require-level` / `--fail-on-flag` gate;
//! 3 `no-data`; 2 a bad parameter or no usable row. With several deployments, the worst, in
//! the order 2, 1, 3, 0.

#![deny(
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines
)]
#![cfg_attr(
    test,
    allow(clippy::unwrap_used, clippy::expect_used, clippy::too_many_lines)
)]

mod args;
mod input;
mod report;

use std::process::ExitCode;

use args::{Command, Output, PlanArgs};
use input::Loaded;
use llm_slo_planner::core::import::share;
use llm_slo_planner::core::import::sources::SHARED_SOURCE;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::Sweep;
use llm_slo_planner::core::plan::anomalies::anomalies;
use llm_slo_planner::core::plan::capacity::at_recommendation;
use llm_slo_planner::core::plan::compare::table_rows;
use llm_slo_planner::core::plan::period::{period, LoadKind};
use llm_slo_planner::core::plan::planner::{plan, Plan, Status};
use llm_slo_planner::core::scenario::load_csv::load_from_csv;
use llm_slo_planner::core::scenario::{load_text, Front, Scenario};
use llm_slo_planner::core::wire::export::{compare_csv, scenario_json};

/// A bad parameter or input, or no usable row.
const BAD_INPUT: u8 = 2;
/// The parameters that pick a deployment.
const SELECTORS: [&str; 4] = ["model", "gpu", "gpus", "cfg"];

/// A line on stderr, named after the program (a closed stderr is not an error worth failing on).
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "llm-slo-planner: {}",
        report::clean(line)
    );
}

/// Writes the answer on stdout. A reader that stops early (`| head`) ends the output quietly;
/// any other write error is said, and fails (2).
fn write_out(text: &str) -> Result<(), u8> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => {
            say(&format!("cannot write the answer: {e}"));
            Err(BAD_INPUT)
        }
    }
}

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
            say(&e);
            return ExitCode::from(BAD_INPUT);
        }
    };
    let code = match command {
        Command::Help => write_out(&args::usage()).err().unwrap_or(0),
        Command::Version => write_out(&format!("llm-slo-planner {}\n", env!("CARGO_PKG_VERSION")))
            .err()
            .unwrap_or(0),
        Command::List { paths, src } => match load(&paths, src.as_deref(), false) {
            Ok(loaded) => write_out(&report::list_text(&loaded.source))
                .err()
                .unwrap_or(0),
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
        input::import(paths, |line| say(&line))
    };
    let loaded = loaded.map_err(|problems| {
        for p in problems {
            say(&p);
        }
        BAD_INPUT
    })?;
    let said = if strict { "error" } else { "warning" };
    for p in &loaded.problems {
        say(&format!("{said}: {p}"));
    }
    for n in &loaded.notes {
        say(&format!("note: {n}"));
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
        let (scenario, messages) = Scenario::from_query(q, source);
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
            say(&format!(
                "{name}: the recommended level {level} is below --require-level {need}"
            ));
            code = worst(code, 1);
        }
    }
    if let Some(max) = args.max_gpus {
        code = worst(code, over_max_gpus(sweep, p, &name, max));
    }
    if let Some(level) = recommended {
        let flags = anomalies(sweep, &source.models[sweep.model_index], p.scenario.stat);
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
                code = worst(code, 1);
            }
        }
    }
    code
}

/// The `--max-gpus` gate: 1 when the peak of the load (`load`, else `users` or `rps`) needs
/// more than `max` GPUs at the recommended level, 2 when there is no load or no GPU count to
/// check it against, else 0. Says why on stderr.
fn over_max_gpus(sweep: &Sweep, p: &Planned, name: &str, max: u64) -> u8 {
    let slo = p.scenario.slo();
    let inputs = p.scenario.capacity_for(&sweep.deployment.gpu);
    let peak = match (&p.scenario.load, p.plan.recommendation(sweep, &slo)) {
        (Some(load), Some(rec)) => {
            period(
                &rec,
                sweep.deployment.num_gpus,
                load,
                p.scenario.scaling,
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
            return 2;
        }
        // Nothing recommended: the status says so.
        (_, None) => return 0,
    };
    match peak {
        Some(gpus) if gpus > max => {
            say(&format!(
                "{name}: the load's peak needs {gpus} GPUs, more than --max-gpus {max}"
            ));
            1
        }
        Some(_) => 0,
        None => {
            say(&format!(
                "{name}: --max-gpus cannot be checked: the GPUs the load needs are not known"
            ));
            2
        }
    }
}

/// A page URL: `BASE?query`, the query written by `query_of` with the `src` naming the data.
/// Imported data travel in `#sweep=` (`src=shared`) when `payload` is given; without a base (no
/// `--link`), the query alone, with the import's id (the page's `src` for the same files
/// imported there).
fn page_url(
    base: Option<&str>,
    loaded: &Loaded,
    payload: Option<&str>,
    query_of: impl FnOnce(Option<String>) -> String,
) -> String {
    let src = match payload {
        Some(_) => Some(SHARED_SOURCE.to_string()),
        None => loaded.src.clone(),
    };
    let fragment = payload.map(|p| format!("#sweep={p}")).unwrap_or_default();
    format!("{}?{}{fragment}", base.unwrap_or(""), query_of(src))
}

/// The page link of one scenario.
fn link(base: Option<&str>, scenario: &Scenario, loaded: &Loaded, payload: Option<&str>) -> String {
    page_url(base, loaded, payload, |src| {
        Scenario {
            src,
            ..scenario.clone()
        }
        .to_query()
    })
}

/// Several deployments' common link, for the side-by-side table's `# scenario:` line: the
/// parameters given, without a deployment.
fn common_link(
    base: Option<&str>,
    params: &[(String, String)],
    loaded: &Loaded,
    payload: Option<&str>,
) -> String {
    page_url(base, loaded, payload, |src| {
        let src: Vec<(&str, String)> = src.map(|s| ("src", s)).into_iter().collect();
        query(&src, params)
    })
}

/// A deployment's sweep as a source of its own (its model, its rows, the source's provenance),
/// and its scenario there: what a link carries when the whole import is too large for one.
fn alone(source: &Source, p: &Planned) -> (Source, Scenario) {
    let sweep = &source.sweeps[p.sweep_index];
    let one = Source::new(
        source.task.clone(),
        source.task_display_name.clone(),
        vec![source.models[sweep.model_index].clone()],
        vec![Sweep::new(0, sweep.deployment.clone(), sweep.rows.clone())],
        source.provenance.clone(),
    );
    let scenario = p.scenario.with_sweep(&one, 0);
    (one, scenario)
}

/// Said when selectors picked one deployment of a model that has others.
fn not_planned_note(source: &Source, planned: &[Planned]) -> Option<String> {
    let [one] = planned else { return None };
    let model = source.sweeps[one.sweep_index].model_index;
    let others = source.sweeps_of(model).len().saturating_sub(1);
    (others > 0).then(|| {
        format!(
            "note: {others} other deployment{} of {} {} not planned: --gpu, --gpus and --cfg pick one (`list` shows them); without --model, --gpu, --gpus and --cfg every deployment is planned",
            if others == 1 { "" } else { "s" },
            one.scenario.model_id,
            if others == 1 { "is" } else { "are" },
        )
    })
}

/// Adds the load of `--load-profile [KIND:]FILE.csv` to `params` as the link's `load`.
///
/// Errors: `--load` is given too, the file cannot be read, or its rows cannot
/// (`core::scenario::load_csv`).
fn with_load_profile(params: &mut Vec<(String, String)>, spec: &str) -> Result<(), String> {
    if params.iter().any(|(k, _)| k == "load") {
        return Err("give one of --load and --load-profile".to_string());
    }
    let (kind, path) = match spec.split_once(':') {
        Some(("rps", path)) => (Some(LoadKind::Rps), path),
        Some(("users", path)) => (Some(LoadKind::Users), path),
        _ => (None, spec),
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let load = load_from_csv(&text, kind).map_err(|e| format!("{path}: {e}"))?;
    params.push(("load".to_string(), load_text(&load)));
    Ok(())
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
    let mut params: Vec<(String, String)> = args
        .params
        .iter()
        .filter(|(k, _)| k != "src")
        .cloned()
        .collect();
    if let Some(spec) = &args.load_profile {
        if let Err(e) = with_load_profile(&mut params, spec) {
            say(&format!("--load-profile: {e}"));
            return BAD_INPUT;
        }
    }
    let planned = match planned(source, &params) {
        Ok(planned) => planned,
        Err(code) => return code,
    };
    if let Some(note) = not_planned_note(source, &planned) {
        say(&note);
    }
    let base = args.link.as_deref();
    // Imported data travel in the link: the whole import when it fits (as the page's "Share by
    // link"), else each deployment's own sweep in its own link.
    let whole = (base.is_some() && loaded.imported).then(|| share::encode(source));
    let payload = whole.as_ref().and_then(|w| w.as_ref().ok()).cloned();
    if whole.is_some() && source.sweeps.iter().any(|s| s.has_request_records()) {
        say(&format!("note: the link: {}", share::NO_RECORDS));
    }
    let whole_too_large = matches!(whole, Some(Err(_)));
    let links = links(&planned, base, &loaded, payload.as_deref(), whole_too_large);
    // What the JSON and CSV write as the scenario's URL: the link, else the query alone.
    let urls: Vec<String> = planned
        .iter()
        .zip(&links)
        .map(|(p, l)| {
            l.clone()
                .unwrap_or_else(|_| link(None, &p.scenario, &loaded, None))
        })
        .collect();
    let written = match args.output {
        Output::Text => Ok(text_answer(source, &planned, &links, base.is_some())),
        Output::Json => json_answer(source, &planned, &urls),
        Output::Csv => csv_answer(&planned, &urls, &params, base, &loaded, payload.as_deref()),
    };
    let written = written.map_err(|e| {
        say(&e);
        BAD_INPUT
    });
    if let Err(code) = written.and_then(|text| write_out(&text)) {
        return code;
    }
    let code = said_links(source, &planned, &links, args);
    planned
        .iter()
        .map(|p| gated(source, p, args))
        .fold(code, worst)
}

/// Each deployment the scenario parameters select, planned.
///
/// Errors: [`BAD_INPUT`], once the parameters that cannot be used (or that nothing is selected)
/// are said.
fn planned(source: &Source, params: &[(String, String)]) -> Result<Vec<Planned>, u8> {
    let planned: Vec<Planned> = match scenarios(source, params) {
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
                say(&e);
            }
            say("nothing planned: the command line does not go on with a parameter it cannot use as given (`list` shows what the data has)");
            return Err(BAD_INPUT);
        }
    };
    if planned.is_empty() {
        say("no deployment to plan");
        return Err(BAD_INPUT);
    }
    Ok(planned)
}

/// Each deployment's link on `base`, or why it cannot be made (the answer is given all the
/// same: the exit status is the SLO's; `--strict` makes a missing link fail). `payload` is the
/// whole import shared; when it is too large for one link (`whole_too_large`, said here), each
/// link carries only its own deployment's sweep.
fn links(
    planned: &[Planned],
    base: Option<&str>,
    loaded: &Loaded,
    payload: Option<&str>,
    whole_too_large: bool,
) -> Vec<Result<String, String>> {
    let source = &loaded.source;
    if whole_too_large {
        say("note: the whole import is too large for one link (8 KB), so each link carries only its own deployment's sweep");
        planned
            .iter()
            .map(|p| {
                let (one, scenario) = alone(source, p);
                share::encode(&one)
                    .map(|own| link(base, &scenario, loaded, Some(&own)))
                    .map_err(|e| format!("not shared: {e}"))
            })
            .collect()
    } else {
        planned
            .iter()
            .map(|p| Ok(link(base, &p.scenario, loaded, payload)))
            .collect()
    }
}

/// The text answer: each deployment's, with its link when `with_links` (or why it has none),
/// then a summary when there are several.
fn text_answer(
    source: &Source,
    planned: &[Planned],
    links: &[Result<String, String>],
    with_links: bool,
) -> String {
    let mut text: Vec<String> = planned
        .iter()
        .zip(links)
        .map(|(p, url)| {
            let mut text = report::plan_text(source, p.sweep_index, &p.scenario, &p.plan);
            if with_links {
                let url = url.as_ref().unwrap_or_else(|e| e);
                text.push_str(&format!("  Link: {url}\n"));
            }
            text
        })
        .collect();
    if planned.len() > 1 {
        let rows: Vec<(usize, &Scenario, &Plan)> = planned
            .iter()
            .map(|p| (p.sweep_index, &p.scenario, &p.plan))
            .collect();
        text.push(report::summary_text(source, &rows));
    }
    text.join("\n")
}

/// The JSON answer: the page's document for one deployment, an array of them for several, each
/// with its scenario's URL.
///
/// Errors: the writer's message.
fn json_answer(source: &Source, planned: &[Planned], urls: &[String]) -> Result<String, String> {
    planned
        .iter()
        .zip(urls)
        .map(|(p, url)| scenario_json(source, &p.scenario, p.sweep_index, &p.plan, url))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
        .map(|docs| match docs.as_slice() {
            [one] => format!("{one}\n"),
            _ => format!("[\n{}\n]\n", docs.join(",\n")),
        })
}

/// The CSV answer: the page's side-by-side table of the first scenario, every model's when the
/// deployments are of several (or `cmp=all`), under the one deployment's URL or, for several,
/// the parameters' common link on `base` (carrying the shared import, `payload`).
///
/// Errors: the writer's message.
fn csv_answer(
    planned: &[Planned],
    urls: &[String],
    params: &[(String, String)],
    base: Option<&str>,
    loaded: &Loaded,
    payload: Option<&str>,
) -> Result<String, String> {
    let source = &loaded.source;
    let models: Vec<usize> = planned
        .iter()
        .map(|p| source.sweeps[p.sweep_index].model_index)
        .collect();
    let first = &planned[0].scenario;
    let all_models = first.compare_all || models.iter().any(|m| *m != models[0]);
    let url = match planned {
        [_] => urls[0].clone(),
        _ => {
            // Several models: the page's table with the "All models" switch on.
            let mut params = params.to_vec();
            if all_models && !params.iter().any(|(k, _)| k == "cmp") {
                params.push(("cmp".to_string(), "all".to_string()));
            }
            common_link(base, &params, loaded, payload)
        }
    };
    let (rows, _) = table_rows(
        source,
        (&first.slo(), &first.model_id),
        first.pricing(),
        (all_models, first.compare_sort),
    );
    compare_csv(source, &rows, first, &url).map_err(|e| e.to_string())
}

/// Says each link on stderr where the answer is JSON or CSV (which carry it inside, out of the
/// data), and why a link could not be made. Returns the exit status so far: [`BAD_INPUT`] when
/// a link is missing under `--strict`, else 0.
fn said_links(
    source: &Source,
    planned: &[Planned],
    links: &[Result<String, String>],
    args: &PlanArgs,
) -> u8 {
    let base = args.link.as_deref();
    let mut code = 0;
    for (p, l) in planned.iter().zip(links) {
        match l {
            Ok(url) if args.output != Output::Text && base.is_some() => {
                say(&format!("link: {url}"))
            }
            Ok(_) => {}
            Err(e) => {
                let name = source.sweep_label(p.sweep_index);
                say(&format!("--link: {} on {name}: {e}", p.scenario.model_id));
                if args.strict {
                    code = BAD_INPUT;
                }
            }
        }
    }
    code
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
