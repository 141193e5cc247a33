//! `llm-slo-planner`: the page's planner on the command line. The same importers, scenario
//! reader, planner and writers as the page (`llm_slo_planner::core`); this binary only reads
//! files, collects arguments, and chooses the exit status for CI:
//! 0 `ok` or `all-meet`; 1 `unattainable`, or a `--require-level` / `--fail-on-flag` gate;
//! 3 `no-data`; 2 a bad parameter or no usable row. With several deployments, the worst, in
//! the order 2, 1, 3, 0 ([`exit::Exit`]). `compare`: 0 better or no difference, 1 worse beyond
//! the noise and the tolerance, 3 cannot judge, 2 bad input.

mod answer;
mod args;
mod compare;
mod exit;
mod files;
mod gates;
mod input;
mod links;
mod list;
mod load;
mod out;
mod reading;
mod report;
mod said;
mod select;

use std::process::ExitCode;

use args::{Command, Output, PlanArgs};
use exit::Exit;
use llm_slo_planner::core::import::share;
use out::{say, write_out};
use said::Said;

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            say(&e);
            return Exit::BadInput.into();
        }
    };
    let code = match command {
        Command::Help => write_out(&args::usage(), Output::Text)
            .err()
            .unwrap_or(Exit::Ok),
        Command::Version => write_out(
            &format!("llm-slo-planner {}\n", env!("CARGO_PKG_VERSION")),
            Output::Text,
        )
        .err()
        .unwrap_or(Exit::Ok),
        Command::List { paths, src } => match load::load(&paths, src.as_deref(), false) {
            Ok(loaded) => write_out(&list::list_text(&loaded.source), Output::Text)
                .err()
                .unwrap_or(Exit::Ok),
            Err(code) => code,
        },
        Command::Plan(args) => run_plan(&args),
        Command::Compare(args) => compare::run_compare(&args),
    };
    code.into()
}

/// The link parameters `plan` reads: its own but `src` (the source is loaded by then), with the
/// `--load-profile` file's load; an unreadable file is said, `Err` then.
fn link_params(args: &PlanArgs) -> Result<Vec<(String, String)>, ()> {
    let mut params: Vec<(String, String)> = args
        .params
        .iter()
        .filter(|(k, _)| k != "src")
        .cloned()
        .collect();
    if let Some(spec) = &args.load_profile {
        load::with_load_profile(&mut params, spec)
            .map_err(|e| say(&format!("--load-profile: {e}")))?;
    }
    Ok(params)
}

/// `plan`: reads the source, plans each deployment, writes the answer, returns the exit status.
fn run_plan(args: &PlanArgs) -> Exit {
    let src = args
        .params
        .iter()
        .find(|(k, _)| k == "src")
        .map(|(_, v)| v.as_str());
    let Ok(loaded) = load::load(&args.paths, src, args.strict) else {
        return Exit::BadInput;
    };
    let source = &loaded.source;
    let Ok(params) = link_params(args) else {
        return Exit::BadInput;
    };
    // `--max-power` is a budget: what qualifies one (`--power-basis`, `--host-w`) is read.
    let beside: &[&str] = if args.max_power_w.is_some() {
        &["power"]
    } else {
        &[]
    };
    let planned = match select::planned(source, &params, beside) {
        Ok(planned) => planned,
        Err(code) => return code,
    };
    let mut notes = loaded.notes.clone();
    // The command's own notes, said once the link's are known.
    if let Some(note) = select::not_planned_note(source, &planned) {
        notes.push(Said::command(note));
    }
    let base = args.link.as_deref();
    // Imported data travel in the link: the whole import when it fits (as the page's "Share by
    // link"), else each deployment's own sweep in its own link.
    let whole = (base.is_some() && loaded.imported).then(|| share::encode(source));
    let payload = whole.as_ref().and_then(|w| w.as_ref().ok()).cloned();
    if whole.is_some() && source.sweeps.iter().any(|s| s.has_request_records()) {
        notes.push(Said::command(format!("the link: {}", share::NO_RECORDS)));
    }
    let whole_too_large = matches!(whole, Some(Err(_)));
    if whole_too_large {
        notes.push(Said::command(links::WHOLE_TOO_LARGE.to_string()));
    }
    for note in &notes[loaded.notes.len()..] {
        say(&format!("note: {}", note.text));
    }
    let links = links::links(&planned, base, &loaded, payload.as_deref(), whole_too_large);
    // What the JSON and CSV write as the scenario's URL: the link, else the query alone.
    let urls: Vec<String> = planned
        .iter()
        .zip(&links)
        .map(|(p, l)| {
            l.clone()
                .unwrap_or_else(|_| links::link(None, &p.scenario, &loaded, None))
        })
        .collect();
    let written = match args.output {
        Output::Text => Ok(answer::text_answer(
            source,
            &planned,
            &links,
            base.is_some(),
        )),
        Output::Json => answer::json_answer(source, &planned, &urls, &loaded.problems, &notes),
        Output::Keda => answer::keda_answer(source, &planned, &urls),
        Output::Csv => {
            answer::csv_answer(&planned, &urls, &params, base, &loaded, payload.as_deref())
        }
    };
    let written = written.map_err(|e| {
        say(&e);
        match args.output {
            // No deployment has an autoscaler only when none has a recommended level: the exit
            // status is its plan's (1 unattainable, 3 no data), as the JSON's run gives.
            Output::Keda => planned
                .iter()
                .map(|p| Exit::of_status(&p.plan.status))
                .fold(Exit::Ok, Exit::max),
            _ => Exit::BadInput,
        }
    });
    if let Err(code) = written.and_then(|text| write_out(&text, args.output)) {
        return code;
    }
    let code = links::said_links(source, &planned, &links, args);
    planned
        .iter()
        .map(|p| gates::gated(source, p, args))
        .fold(code, Exit::max)
}
