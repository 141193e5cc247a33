//! The page's bug banner: shown once the page's WASM traps, with the current link.

use wasm_bindgen::JsValue;

use super::url::href;

/// Calls `f` once the page's WASM traps (a bug: the browser build aborts on a panic), whether
/// in an event handler or in a task: the trap is an uncaught `WebAssembly.RuntimeError`, in an
/// `error` or an `unhandledrejection` event.
pub fn on_trap(f: fn()) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return;
    };
    let is_trap = |e: &JsValue| e.is_instance_of::<js_sys::WebAssembly::RuntimeError>();
    let on_error = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::ErrorEvent)>::new(
        move |e: web_sys::ErrorEvent| {
            if is_trap(&e.error()) {
                f();
            }
        },
    );
    let on_rejection =
        wasm_bindgen::closure::Closure::<dyn Fn(web_sys::PromiseRejectionEvent)>::new(
            move |e: web_sys::PromiseRejectionEvent| {
                if is_trap(&e.reason()) {
                    f();
                }
            },
        );
    let _ = window.add_event_listener_with_callback("error", on_error.as_ref().unchecked_ref());
    let _ = window.add_event_listener_with_callback(
        "unhandledrejection",
        on_rejection.as_ref().unchecked_ref(),
    );
    // Listening for the page's whole life.
    on_error.forget();
    on_rejection.forget();
}

/// Shows a banner saying the page hit a bug, with the current link (text only, no HTML parsing).
pub fn show_bug_banner() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let (Ok(banner), Ok(link), Some(body)) = (
        document.create_element("div"),
        document.create_element("a"),
        document.body(),
    ) else {
        return;
    };
    let href = href();
    let _ = banner.set_attribute("role", "alert");
    let _ = banner.set_attribute("class", "panic-banner");
    let _ = banner.set_attribute("data-testid", "panic-banner");
    banner.set_text_content(Some(
        "The planner hit a bug and stopped (the browser console has the details). Your scenario is in this link; reload it to continue: ",
    ));
    let _ = link.set_attribute("href", &href);
    link.set_text_content(Some(&href));
    let _ = banner.append_child(&link);
    let _ = body.prepend_with_node_1(&banner);
}
