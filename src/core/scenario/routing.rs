//! What a link opens: which source is shown first, what the planner starts from, which
//! entries wait for data read later (a shared sweep, a stored import, the whole of the bundled
//! data), and the messages about the link; and where the page goes when a source it shows
//! cannot be read. Pure: the page's source registry (`ui::registry`) only carries these
//! decisions out.

use crate::core::import::sources::{is_local_import, DEFAULT_SOURCE, SHARED_SOURCE};
use crate::core::model::format::echo;
use crate::core::model::source::Source;
use crate::core::scenario::link::{shared_payload, src_of, without, without_src};
use crate::core::scenario::{Scenario, StatMoved, View};

/// What the page opens with.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    /// The `src` shown first.
    pub current: String,
    /// The query the planner starts from: the link's, with `src` set to [`Opening::current`]
    /// (absent for the default source) and every other parameter kept.
    pub start_query: String,
    /// True when the link's `#sweep=` holds a sweep: its entry waits for it to be decoded.
    pub shared: bool,
    /// The import id the link names, when it names neither a bundled workload, the reference
    /// systems nor a shared sweep: its entry waits for local storage to be read.
    pub linked_import: Option<String>,
    /// Messages about the link, in order.
    pub notices: Vec<String>,
}

impl Opening {
    /// Decides what a link (its query string and whether its fragment holds a shared sweep)
    /// opens: the link's `src` (a bundled workload, the reference systems, the shared sweep, or
    /// else an import, read from storage), except `src=shared` in a link that holds no sweep
    /// (the bundled data, with a message); without `src`, the shared sweep the link holds, else
    /// the bundled data.
    pub fn of_link(query: &str, shared: bool) -> Opening {
        let wanted = src_of(query);
        let linked_import = wanted.clone().filter(|id| is_local_import(Some(id)));
        // Any other id is an import, shown once read from storage (or a message then).
        let mut notices = Vec::new();
        let current = match wanted.as_deref() {
            Some(SHARED_SOURCE) if !shared => {
                notices.push(
                    "`src` \"shared\": this link holds no shared sweep (its `#sweep=` part is missing or empty, perhaps cut off when copied); showing the bundled data."
                        .to_string(),
                );
                DEFAULT_SOURCE.to_string()
            }
            Some(id) => id.to_string(),
            None if shared => SHARED_SOURCE.to_string(),
            None => DEFAULT_SOURCE.to_string(),
        };
        let start_query = if wanted.as_deref() == Some(current.as_str())
            || wanted.is_none() && current == DEFAULT_SOURCE
        {
            query.to_string()
        } else {
            with_src(&current, query)
        };
        Opening {
            current,
            start_query,
            shared,
            linked_import,
            notices,
        }
    }
}

/// The message for a link whose fragment has an empty `#sweep=` (a shared link cut off when
/// copied); `None` otherwise, and for `src=shared` (which [`Opening::of_link`] names itself).
pub fn empty_sweep_notice(query: &str, fragment: &str) -> Option<String> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let empty = fragment.split('&').any(|part| part == "sweep=");
    (empty && shared_payload(fragment).is_none() && src_of(query).as_deref() != Some(SHARED_SOURCE))
        .then(|| {
            "This link's `#sweep=` part is empty (perhaps cut off when copied), so it holds no shared sweep; showing the data it names.".to_string()
        })
}

/// Where the page goes when source `failed`, which it shows, cannot be read: the shared sweep
/// when the link holds one that is still on the page (a link made in another browser names
/// that browser's import id: the fragment stands in for it), else the bundled data. Returns the
/// `src` to show and the planner's start query (the opening link's other parameters kept).
pub fn fallback(failed: &str, shared_on_page: bool, opening_query: &str) -> (String, String) {
    let to = if failed != SHARED_SOURCE && shared_on_page {
        SHARED_SOURCE
    } else {
        DEFAULT_SOURCE
    };
    (to.to_string(), with_src(to, opening_query))
}

/// True when [`fallback`] from `failed` shows the shared sweep, so a message about `failed`
/// would only distract (the link's sweep is shown instead).
pub fn falls_back_to_shared(failed: &str, shared_on_page: bool) -> bool {
    fallback(failed, shared_on_page, "").0 == SHARED_SOURCE
}

/// The planner's start query when the page shows source `id` afresh (the user switched to it):
/// only `src`, nothing for the default source.
pub fn switch_query(id: &str) -> String {
    if id == DEFAULT_SOURCE {
        String::new()
    } else {
        format!("src={id}")
    }
}

/// True when the planner of `query` on `source`, a part of the bundled data
/// ([`Source::whole`]), needs the whole first: the link shows every model (`cmp=all`) or names a
/// model the part lists without its sweeps. Never for a whole source.
pub fn needs_whole(query: &str, source: &Source) -> bool {
    if source.whole.is_none() {
        return false;
    }
    let (scenario, _) = Scenario::from_query(query, source);
    scenario.view.compare_all
        || source
            .model_index(&scenario.deployment.model_id)
            .is_some_and(|m| !source.holds_model(m))
}

/// `query` without what only the whole bundled data can show (`model` and the deployment it
/// picks, `cmp`, `sort`): where a link goes when the whole cannot be read.
pub fn on_part(query: &str) -> String {
    without(query, &["model", "gpu", "gpus", "cfg", "cmp", "sort"])
}

/// A change the reader made that the part of the bundled data cannot show: it is made once the
/// whole is read.
#[derive(Clone, Debug, PartialEq)]
pub enum Widening {
    /// Another model, chosen in the model menu (`Scenario::with_model`).
    Model(String),
    /// Every model's deployments in the side-by-side table (its order reset, as the switch
    /// does).
    AllModels,
}

impl Widening {
    /// The scenario of `query` (the page's, now) with this change made, on `whole`: its query,
    /// and the statistic's move when it had to change (the model menu says it).
    pub fn apply(&self, query: &str, whole: &Source) -> (String, Option<StatMoved>) {
        let (scenario, _) = Scenario::from_query(query, whole);
        match self {
            Widening::Model(id) => {
                let changed = scenario.with_model(whole, id);
                let note = StatMoved::between(scenario.slo.stat, changed.slo.stat);
                (changed.to_query(), note)
            }
            Widening::AllModels => {
                let changed = Scenario {
                    view: View {
                        compare_all: true,
                        compare_sort: None,
                        ..scenario.view
                    },
                    ..scenario
                };
                (changed.to_query(), None)
            }
        }
    }
}

/// "`src` \"…\" is not a source on this page{why}; showing the bundled data."
pub fn not_a_source(id: &str, why: &str) -> String {
    let shown = echo(id);
    format!("`src` \"{shown}\" is not a source on this page{why}; showing the bundled data.")
}

/// `query` with `src` set to `id` (no `src` for the default source), its other parameters kept.
fn with_src(id: &str, query: &str) -> String {
    let rest = without_src(query);
    if id == DEFAULT_SOURCE {
        rest
    } else {
        format!("src={id}&{rest}")
    }
}

#[cfg(test)]
mod empty_sweep_tests {
    use super::*;

    #[test]
    fn an_empty_sweep_fragment_is_named_once() {
        assert!(empty_sweep_notice("tps=25", "#sweep=").is_some());
        assert!(empty_sweep_notice("tps=25", "#other=1&sweep=").is_some());
        assert_eq!(empty_sweep_notice("tps=25", "#sweep=abc"), None);
        assert_eq!(empty_sweep_notice("tps=25", ""), None);
        // src=shared says it already.
        assert_eq!(empty_sweep_notice("src=shared&tps=25", "#sweep="), None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::{lm_arena_chat, lm_arena_chat_part};

    #[test]
    fn the_part_serves_the_default_family_and_the_whole_is_read_for_the_rest() {
        let part = lm_arena_chat_part();
        for query in [
            "",
            "tps=25",
            "gpu=B200&tps=10",
            "model=meta-llama%2FLlama-3.1-8B-Instruct",
            "model=nonsense",
        ] {
            assert!(!needs_whole(query, &part), "{query}");
        }
        for query in [
            "model=Qwen%2FQwen3-8B",
            "model=qwen%2Fqwen3-8b&tps=10",
            "cmp=all",
            "tps=25&cmp=all",
        ] {
            assert!(needs_whole(query, &part), "{query}");
        }
        assert!(!needs_whole(
            "model=Qwen%2FQwen3-8B&cmp=all",
            lm_arena_chat()
        ));
    }

    #[test]
    fn without_the_whole_a_link_keeps_what_the_part_can_show() {
        let query = "src=lm-arena-chat&model=Qwen%2FQwen3-8B&gpu=B200&gpus=1&cfg=x&tps=25&stat=p90&cmp=all&sort=energy_j_per_token&users=10";
        assert_eq!(on_part(query), "src=lm-arena-chat&tps=25&stat=p90&users=10");
        assert!(!needs_whole(&on_part(query), &lm_arena_chat_part()));
    }

    #[test]
    fn a_widening_is_made_on_the_whole_keeping_the_rest_of_the_scenario() {
        let whole = lm_arena_chat();
        let (query, note) =
            Widening::Model("Qwen/Qwen3-8B".into()).apply("gpu=B200&tps=25&stat=p90", whole);
        let (s, errors) = Scenario::from_query(&query, whole);
        assert!(errors.is_empty());
        assert_eq!(
            (s.deployment.model_id.as_str(), s.deployment.gpu.as_str()),
            ("Qwen/Qwen3-8B", "B200")
        );
        assert_eq!((s.slo.stat.key(), note), ("p90", None));
        let (query, _) = Widening::AllModels.apply("tps=25&sort=energy_j_per_token", whole);
        let (s, _) = Scenario::from_query(&query, whole);
        assert!(s.view.compare_all && s.view.compare_sort.is_none());
    }

    #[test]
    fn a_plain_link_opens_the_bundled_data_with_its_query() {
        let o = Opening::of_link("tps=30&stat=p90", false);
        assert_eq!(o.current, DEFAULT_SOURCE);
        assert_eq!(o.start_query, "tps=30&stat=p90");
        assert!(o.notices.is_empty());
        assert_eq!(o.linked_import, None);
    }

    #[test]
    fn a_bundled_workload_or_the_reference_systems_open_as_named() {
        let o = Opening::of_link("src=gpqa&tps=30", false);
        assert_eq!(
            (o.current.as_str(), o.start_query.as_str()),
            ("gpqa", "src=gpqa&tps=30")
        );
        assert_eq!(
            Opening::of_link("src=reference", false).current,
            "reference"
        );
    }

    #[test]
    fn a_shared_sweep_opens_with_or_without_src_and_stands_in_for_an_unknown_one() {
        let o = Opening::of_link("tps=30", true);
        assert_eq!(
            (o.current.as_str(), o.start_query.as_str()),
            ("shared", "src=shared&tps=30")
        );
        let o = Opening::of_link("src=shared&tps=30", true);
        assert_eq!(o.start_query, "src=shared&tps=30");
        // A link to an import of another browser: the import waits for storage, and is shown.
        let o = Opening::of_link("src=imp-1a2b&tps=30", true);
        assert_eq!(o.current, "imp-1a2b");
        assert_eq!(o.linked_import.as_deref(), Some("imp-1a2b"));
    }

    #[test]
    fn src_shared_without_a_sweep_says_so_and_keeps_the_rest_of_the_link() {
        let o = Opening::of_link("src=shared&tps=30", false);
        assert_eq!(o.current, DEFAULT_SOURCE);
        assert_eq!(o.start_query, "tps=30");
        assert_eq!(o.notices.len(), 1);
        assert!(o.notices[0].contains("holds no shared sweep"));
    }

    #[test]
    fn a_failed_import_falls_back_to_the_shared_sweep_else_the_bundled_data() {
        assert_eq!(
            fallback("imp-1", true, "src=imp-1&tps=30"),
            ("shared".to_string(), "src=shared&tps=30".to_string())
        );
        assert_eq!(
            fallback("imp-1", false, "src=imp-1&tps=30"),
            (DEFAULT_SOURCE.to_string(), "tps=30".to_string())
        );
        assert_eq!(
            fallback("shared", true, "src=shared&tps=30"),
            (DEFAULT_SOURCE.to_string(), "tps=30".to_string())
        );
        assert!(falls_back_to_shared("imp-1", true));
        assert!(!falls_back_to_shared("shared", true));
        assert_eq!(switch_query(DEFAULT_SOURCE), "");
        assert_eq!(switch_query("gpqa"), "src=gpqa");
    }

    #[test]
    fn an_unknown_src_is_named_shortened() {
        let long = "x".repeat(60);
        let o = Opening::of_link(&format!("src={long}"), false);
        assert_eq!(
            o.current,
            "x".repeat(60),
            "an unknown id is read as an import id"
        );
        assert_eq!(
            not_a_source(&long, " (an import from another browser?)"),
            format!(
                "`src` \"{}…\" is not a source on this page (an import from another browser?); showing the bundled data.",
                "x".repeat(40)
            )
        );
    }
}
