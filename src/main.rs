//! Mounts the app; nothing else.

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

fn main() {
    llm_slo_planner::install_bug_banner();
    leptos::mount::mount_to_body(llm_slo_planner::App);
}
