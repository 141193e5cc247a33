//! The sentences about a scenario that the page says beside its controls: a statistic that had
//! to change, and why no other limit can be added.

use crate::core::model::limits::MAX_LIMITS;
use crate::core::model::sweep::Statistic;
use crate::core::scenario::{NoNextLimit, Scenario, StatMoved};

/// "{shown} does not report p90 ITL: judged on p50 ITL instead."
fn moved_text(shown: &str, moved: StatMoved) -> String {
    format!(
        "{shown} does not report {}: judged on {} instead.",
        moved.before.short_label(),
        moved.after.short_label()
    )
}

/// The note when choosing a model or deployment moved the judged statistic from `before` to
/// `after` (one the deployment reports): "This deployment does not report p90 TPOT: judged on
/// p95 TPOT instead."; `None` when it did not move.
pub fn statistic_moved(before: Statistic, after: Statistic) -> Option<String> {
    StatMoved::between(before, after).map(deployment_moved)
}

/// "This deployment does not report p90 TPOT: judged on p95 TPOT instead."
pub fn deployment_moved(moved: StatMoved) -> String {
    moved_text("This deployment", moved)
}

/// The note when another source is shown with the statistic moved: "The data now shown does not
/// report p90 ITL: judged on p50 ITL instead."
pub fn data_moved(moved: StatMoved) -> String {
    moved_text("The data now shown", moved)
}

/// Why "Add a limit" has nothing to propose from `available` (see [`Scenario::next_limit`]), as
/// a sentence for the page; `None` when it has.
pub fn no_next_limit_reason(scenario: &Scenario, available: &[Statistic]) -> Option<String> {
    Some(match scenario.no_next_limit(available)? {
        NoNextLimit::TooMany => format!("A link holds at most {MAX_LIMITS} limits."),
        NoNextLimit::OnlyJudged(judged) => format!(
            "No other statistic is reported at a level together with {}.",
            judged.short_label()
        ),
        NoNextLimit::EachHasOne(judged) => format!(
            "Each statistic reported together with {} has a limit.",
            judged.short_label()
        ),
    })
}

/// What "Copy link" says beside itself on an import kept in this browser (`core::import::sources::is_local_import`).
pub const LOCAL_LINK_NOTE: &str = "A link to imported data opens it only in this browser, unless it carries the data: “Share by link” in the Data menu puts it in the link (#sweep=).";
