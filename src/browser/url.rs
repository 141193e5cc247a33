//! The address bar: the query (written at most once per interval) and the fragment, read and
//! replaced without a reload or a history entry.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

use super::timers::set_timeout;

/// How long a query change waits before it is written to the address bar, ms. Writes are
/// coalesced: typing in a field updates the result at once and the link once per this interval,
/// which keeps `history.replaceState` (slow, and throttled by Chromium past ~100 calls in 10 s)
/// off the input-to-result path.
const URL_WRITE_DELAY_MS: i32 = 120;

thread_local! {
    /// The query waiting to be written to the URL, if any.
    static PENDING_QUERY: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// The current query string, with its leading `?` (empty when there is none).
pub fn query() -> String {
    flush_query();
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// Replaces the query string (no reload, no history entry), keeping the path and any
/// `#fragment`, within [`URL_WRITE_DELAY_MS`]. Every reader of the URL in this module ([`query`],
/// [`href`], [`fragment`]) writes a pending query first, so they always see the latest one.
pub fn replace_query(query: &str) {
    let unchanged = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .is_some_and(|search| search.strip_prefix('?').unwrap_or(&search) == query);
    if unchanged && PENDING_QUERY.with(|p| p.borrow().is_none()) {
        return;
    }
    let was_pending = PENDING_QUERY.with(|p| p.replace(Some(query.to_string())).is_some());
    if was_pending {
        return;
    }
    if !set_timeout(flush_query, URL_WRITE_DELAY_MS) {
        flush_query();
    }
}

/// Writes the pending query, if any, to the URL.
fn flush_query() {
    if let Some(query) = PENDING_QUERY.with(RefCell::take) {
        let hash = web_sys::window()
            .and_then(|w| w.location().hash().ok())
            .unwrap_or_default();
        replace_url(&format!("?{query}"), &hash);
    }
}

/// Removes the URL's `#fragment` (a shared sweep's `#sweep=`, once the page shows other data),
/// keeping the path and the query.
pub fn drop_fragment() {
    flush_query();
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    replace_url(&search, "");
}

/// Replaces the search (`?...`) and fragment (`#...`) of the URL, keeping the path.
fn replace_url(search: &str, hash: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let path = window.location().pathname().unwrap_or_default();
    if let Ok(history) = window.history() {
        // A refused replaceState leaves the old URL in place; the page itself is unaffected.
        let _ = history.replace_state_with_url(
            &JsValue::NULL,
            "",
            Some(&format!("{path}{search}{hash}")),
        );
    }
}

/// The page's full URL.
pub fn href() -> String {
    flush_query();
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default()
}

/// The page's URL with this query string (no `?`) in place of its own, fragment kept; nothing
/// is written.
pub fn link_with_query(query: &str) -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let origin = location.origin().unwrap_or_default();
    let path = location.pathname().unwrap_or_default();
    format!("{origin}{path}?{query}{}", fragment())
}

/// The current fragment, with its leading `#` (empty when there is none).
pub fn fragment() -> String {
    flush_query();
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces the fragment (no reload, no history entry), keeping the path and query.
pub fn replace_fragment(fragment: &str) {
    replace_url(&query(), fragment);
}
