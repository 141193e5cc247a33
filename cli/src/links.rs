//! The page links of `plan --link`: each deployment's, the side-by-side table's common one, the
//! imported data carried in `#sweep=`, and what is said when a link cannot be made.

use llm_slo_planner::core::import::share;
use llm_slo_planner::core::import::sources::SHARED_SOURCE;
use llm_slo_planner::core::model::source::Source;
use llm_slo_planner::core::model::sweep::Sweep;
use llm_slo_planner::core::scenario::Scenario;

use crate::args::{Output, PlanArgs};
use crate::exit::Exit;
use crate::input::Loaded;
use crate::out::say;
use crate::select::Planned;

/// The query of `params` (URL keys and values) with `extra` pairs first.
pub fn query(extra: &[(&str, String)], params: &[(String, String)]) -> String {
    let mut q = form_urlencoded::Serializer::new(String::new());
    for (k, v) in extra {
        q.append_pair(k, v);
    }
    for (k, v) in params {
        q.append_pair(k, v);
    }
    q.finish()
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
pub fn link(
    base: Option<&str>,
    scenario: &Scenario,
    loaded: &Loaded,
    payload: Option<&str>,
) -> String {
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
pub fn common_link(
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

/// The note when the whole import is too large for one link (the command says it, and its
/// JSON carries it).
pub const WHOLE_TOO_LARGE: &str = "the whole import is too large for one link (8 KB), so each link carries only its own deployment's sweep";

/// Each deployment's link on `base`, or why it cannot be made (the answer is given all the
/// same: the exit status is the SLO's; `--strict` makes a missing link fail). `payload` is the
/// whole import shared; when it is too large for one link (`whole_too_large`, [`WHOLE_TOO_LARGE`]), each
/// link carries only its own deployment's sweep.
pub fn links(
    planned: &[Planned],
    base: Option<&str>,
    loaded: &Loaded,
    payload: Option<&str>,
    whole_too_large: bool,
) -> Vec<Result<String, String>> {
    let source = &loaded.source;
    if whole_too_large {
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

/// Says each link on stderr where the answer is JSON or CSV (which carry it inside, out of the
/// data), and why a link could not be made. Returns the exit status so far:
/// [`Exit::BadInput`] when a link is missing under `--strict`, else [`Exit::Ok`].
pub fn said_links(
    source: &Source,
    planned: &[Planned],
    links: &[Result<String, String>],
    args: &PlanArgs,
) -> Exit {
    let base = args.link.as_deref();
    let mut code = Exit::Ok;
    for (p, l) in planned.iter().zip(links) {
        match l {
            Ok(url) if args.output != Output::Text && base.is_some() => {
                say(&format!("link: {url}"))
            }
            Ok(_) => {}
            Err(e) => {
                let name = source.sweep_label(p.sweep_index);
                say(&format!(
                    "--link: {} on {name}: {e}",
                    p.scenario.deployment.model_id
                ));
                if args.strict {
                    code = Exit::BadInput;
                }
            }
        }
    }
    code
}
