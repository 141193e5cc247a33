//! LLM SLO Planner: the highest vLLM `max_num_seqs` that still gives every user the promised
//! token speed, with throughput and energy there, on measured ML.ENERGY sweeps.
//!
//! [`core`] holds all the computation (pure Rust, tested natively); [`ui`] only wires signals to
//! it; [`browser`] is the one place that touches browser APIs. The page's modules are built with
//! the `page` feature (on by default); the tools module and the command line use the core alone.

pub mod core;

#[cfg(feature = "page")]
mod browser;
#[cfg(feature = "page")]
mod on_demand;
#[cfg(feature = "page")]
mod tools_client;
#[cfg(feature = "page")]
mod ui;

#[cfg(feature = "page")]
use leptos::prelude::*;

#[cfg(feature = "page")]
use crate::ui::registry::{Registry, State};
#[cfg(feature = "page")]
use crate::ui::sources::SourcePanel;

/// Benchmark hook (used by `scripts/bench.mjs`, harmless otherwise): plans a synthetic sweep of
/// `levels` levels in this WASM and returns the time the planning took, ms (performance.now),
/// building the sweep excluded.
#[cfg(feature = "page")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_planning_ms(levels: u32) -> f64 {
    let sweep = crate::core::plan::bench::synthetic_sweep(levels);
    let slo = crate::core::plan::planner::Slo::new(
        crate::core::plan::planner::Target::TokensPerSecond(25.0),
        crate::core::model::sweep::Statistic::P50,
    );
    let start = browser::now_ms();
    let plan = crate::core::plan::planner::plan(&sweep, &slo);
    let elapsed = browser::now_ms() - start;
    // Keep the result observable so the planning is not optimised away.
    if plan.recommended.is_none() {
        return f64::NAN;
    }
    elapsed
}

/// Benchmark hook (used by `scripts/bench-ab.mjs`, harmless otherwise): compares two synthetic
/// arms of `repeats` runs × `levels` levels × `requests` per-request records at `changes` targets
/// in turn, in this WASM (the comparison's code, loaded on demand); each change's time, ms (empty
/// when that code cannot be loaded). Built only with the feature `bench-ab`.
#[cfg(feature = "bench-ab")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub async fn bench_ab_ms(
    repeats: u32,
    levels: u32,
    requests: u32,
    changes: u32,
    attain: bool,
) -> Vec<f64> {
    crate::ui::ab::bench_compare(repeats, levels, requests, changes, attain)
        .await
        .unwrap_or_default()
}

/// Benchmark hook: the size of this WASM instance's linear memory, bytes.
#[cfg(feature = "page")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .ok()
        .and_then(|m| m.buffer().dyn_into::<js_sys::ArrayBuffer>().ok())
        .map_or(0.0, |b| f64::from(b.byte_length()))
}

/// Shows a banner with the current link when the page's code stops on a bug, so a bug never
/// leaves a blank or silently frozen page. In the browser build a panic aborts at once (no
/// message is formatted: `.cargo/config.toml`), so the WASM traps, the browser logs the trap
/// with its stack, and the trap reaches the window as an error event.
#[cfg(feature = "page")]
pub fn install_bug_banner() {
    browser::on_trap(browser::show_bug_banner);
}

/// The whole page: the source picker and, for the source shown, the planner.
#[cfg(feature = "page")]
#[component]
pub fn App() -> impl IntoView {
    Effect::new(move |_| browser::remove_element("boot"));
    let registry = Registry::load(&browser::query(), &browser::fragment());
    // The model menu and the side-by-side table ask it for the whole bundled data.
    provide_context(registry);
    // The answer is painted first (`painted`); then the inputs beside it are drawn; a frame
    // later the evidence beneath the answer (`evidence`, see `Planner`).
    let painted = RwSignal::new(false);
    let evidence = RwSignal::new(false);
    browser::after_paint(move || {
        painted.set(true);
        browser::after_paint(move || {
            evidence.set(true);
            // A link to a part of the page (`#sweep-title`) lands there once it is drawn.
            browser::after_paint(browser::scroll_to_fragment);
        });
    });

    view! {
        <header class="masthead">
            <h1>"LLM SLO Planner"</h1>
            <p class="tagline">
                "The highest concurrency that still gives every user the token speed you promised, on measured sweeps: "
                <a href="https://ml.energy/leaderboard">"ML.ENERGY"</a>
                " vLLM runs, or your own benchmark files."
            </p>
        </header>
        {move || {
            let notices = registry.notices.get();
            (!notices.is_empty()).then(|| view! {
                <div class="notice warn" role="status">
                    <ul>
                        {notices.into_iter().map(|n| view! {
                            <li data-testid="scenario-error" data-param="src">{ui::message::message(&n)}</li>
                        }).collect_view()}
                    </ul>
                </div>
            })
        }}
        <SourcePanel registry=registry />
        {move || {
            // Re-mount the planner only when the shown source or its readiness changes.
            let shown = Memo::new(move |_| {
                let id = registry.current.get();
                let state = registry.state_of(&id);
                (id, state)
            });
            move || match shown.get().1 {
                Some(State::Ready(source)) => {
                    let query = registry.planner_query(&source);
                    // Mounted again on the whole bundled data: the note and focus carry over.
                    let (note, refocus) = registry.take_carried();
                    if let Some(id) = refocus {
                        browser::focus_after_render(id.to_string());
                    }
                    let refocus = refocus.map(|id| id.to_string());
                    view! { <ui::planner::Planner source=source query=query note=note painted=painted.into() evidence=evidence.into() refocus=refocus /> }.into_any()
                }
                Some(State::Failed(e)) => view! {
                    <p class="notice warn" data-testid="rec-status" data-value="no-data">
                        {ui::message::message(&format!("This source could not be loaded: {e}"))}
                    </p>
                }.into_any(),
                _ => view! { <p class="hint" data-testid="source-loading">"Loading the data…"</p> }.into_any(),
            }
        }}
    }
}
