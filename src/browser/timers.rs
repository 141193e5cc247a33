//! Time: work run after the next paint or in the next task, and the clock.

use wasm_bindgen::JsValue;

/// Runs `f` once the browser has painted the current DOM (the next animation frame, then a
/// task): what the page shows first is on screen before `f`'s work starts. Runs `f` at once
/// when the browser has no animation frames.
pub fn after_paint(f: impl FnOnce() + 'static) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return f();
    };
    let next_task = wasm_bindgen::closure::Closure::once_into_js(move || {
        set_timeout(f, 0);
    });
    let _ = window.request_animation_frame(next_task.unchecked_ref());
}

/// Waits for the next task (`setTimeout` 0): work after it runs in a task of its own, so that
/// long work in steps never holds the page in one.
pub async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let now = resolve.clone();
        if !set_timeout(move || drop(resolve.call0(&JsValue::NULL)), 0) {
            let _ = now.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Runs `f` once, `ms` milliseconds from now (`setTimeout`). False when it could not be
/// scheduled (no window).
pub(super) fn set_timeout(f: impl FnOnce() + 'static, ms: i32) -> bool {
    use wasm_bindgen::JsCast;
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    web_sys::window().is_some_and(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms)
            .is_ok()
    })
}

/// `performance.now()`, ms; 0 when unavailable.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The local time of day, `HH:MM:SS`.
pub fn clock_time() -> String {
    let now = js_sys::Date::new_0();
    format!(
        "{:02}:{:02}:{:02}",
        now.get_hours(),
        now.get_minutes(),
        now.get_seconds()
    )
}
