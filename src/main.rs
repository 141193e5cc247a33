//! Mounts the app; nothing else.

fn main() {
    llm_slo_planner::install_bug_banner();
    leptos::mount::mount_to_body(llm_slo_planner::App);
}
