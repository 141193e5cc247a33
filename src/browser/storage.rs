//! Local storage: texts kept for the next visit, and other tabs' changes to them.

use wasm_bindgen::JsValue;

use super::files::PageText;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Stores `value` at `key`; false when storage is off, blocked or full.
pub fn storage_set(key: &str, value: &str) -> bool {
    storage().is_some_and(|s| s.set_item(key, value).is_ok())
}

/// The storage's method `name` (`getItem`, `setItem`), to call with JS values: a page text
/// then never passes through the page's WASM.
fn storage_method(name: &str) -> Option<(web_sys::Storage, js_sys::Function)> {
    use wasm_bindgen::JsCast;
    let s = storage()?;
    let f = js_sys::Reflect::get(&s, &JsValue::from_str(name))
        .ok()?
        .dyn_into()
        .ok()?;
    Some((s, f))
}

/// The local-storage value at `key` as a page text (not copied into the page's WASM).
pub fn storage_get_text(key: &str) -> Option<PageText> {
    let (s, get) = storage_method("getItem")?;
    get.call1(&s, &JsValue::from_str(key))
        .ok()
        .filter(JsValue::is_string)
        .map(PageText::string)
}

/// Stores a page text at `key`; false when storage is off, blocked or full.
pub fn storage_set_text(key: &str, value: &PageText) -> bool {
    storage_method("setItem")
        .is_some_and(|(s, set)| set.call2(&s, &JsValue::from_str(key), &value.value).is_ok())
}

/// Removes `key` from local storage (nothing when storage is off).
pub fn storage_remove(key: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(key);
    }
}

/// The local-storage keys that start with `prefix`.
pub fn storage_keys(prefix: &str) -> Vec<String> {
    let Some(s) = storage() else {
        return Vec::new();
    };
    (0..s.length().unwrap_or(0))
        .filter_map(|i| s.key(i).ok().flatten())
        .filter(|k| k.starts_with(prefix))
        .collect()
}

/// Calls `f(key, new value)` whenever another tab changes a local-storage key that starts with
/// `prefix` (the `storage` event; `None`: removed), for the life of the page.
pub fn on_storage_change(prefix: &'static str, f: impl Fn(String, Option<PageText>) + 'static) {
    use wasm_bindgen::JsCast;
    let Some(window) = web_sys::window() else {
        return;
    };
    let listener = wasm_bindgen::closure::Closure::<dyn Fn(web_sys::StorageEvent)>::new(
        move |event: web_sys::StorageEvent| {
            if let Some(key) = event.key().filter(|k| k.starts_with(prefix)) {
                let value = js_sys::Reflect::get(&event, &JsValue::from_str("newValue"))
                    .ok()
                    .filter(JsValue::is_string)
                    .map(PageText::string);
                f(key, value);
            }
        },
    );
    let _ = window.add_event_listener_with_callback("storage", listener.as_ref().unchecked_ref());
    listener.forget();
}
