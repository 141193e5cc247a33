//! The clipboard.

use wasm_bindgen::JsValue;

/// Copies `text` to the clipboard. False when the browser offers no clipboard (plain-http
/// pages other than localhost) or refuses the write (permission denied).
pub async fn copy_text(text: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let navigator = window.navigator();
    let has_clipboard = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .is_ok_and(|c| !c.is_undefined() && !c.is_null());
    if !has_clipboard {
        return false;
    }
    let promise = navigator.clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}
