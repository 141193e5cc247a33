//! Mounts the app; nothing else.

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(llm_slo_planner::App);
}
