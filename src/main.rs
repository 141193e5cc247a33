//! Mounts the app; nothing else.

fn main() {
    llm_slo_planner::install_panic_hook();
    leptos::mount::mount_to_body(llm_slo_planner::App);
}
