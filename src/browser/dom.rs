//! The document's elements: found by id, removed, focused, serialised, scrolled to; a text
//! area's text and a paste's, up to a length; the viewport's width.

use super::timers::after_paint;
use super::url::fragment;

/// Removes the element with this id (the "loading / needs WebAssembly" message of index.html).
pub fn remove_element(id: &str) {
    if let Some(element) = html_element(id) {
        element.remove();
    }
}

/// The HTML element with this id, if there is one.
pub fn html_element(id: &str) -> Option<web_sys::HtmlElement> {
    use wasm_bindgen::JsCast;
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
}

/// Sets the attribute `name` of the element with this id to `value`; nothing if there is none.
pub fn set_attribute(id: &str, name: &str, value: &str) {
    if let Some(element) = html_element(id) {
        let _ = element.set_attribute(name, value);
    }
}

/// Sets the text of the element with this id; nothing if there is none.
pub fn set_text(id: &str, text: &str) {
    if let Some(element) = html_element(id) {
        element.set_text_content(Some(text));
    }
}

/// Moves keyboard focus to the element with this id once the next frame is drawn (it may be
/// about to be created); nothing if there is none then.
pub fn focus_after_render(id: String) {
    after_paint(move || {
        if let Some(element) = html_element(&id) {
            let _ = element.focus();
        }
    });
}

/// Whether the element with this id starts less than `ahead` CSS px below the bottom of the
/// viewport (in view, above it, or about to be scrolled into it); false when there is none.
pub fn near_view(id: &str, ahead: f64) -> bool {
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    html_element(id).is_some_and(|e| e.get_bounding_client_rect().top() < height + ahead)
}

/// Whether keyboard focus is on the element with this id or inside it.
pub fn has_focus_within(id: &str) -> bool {
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    html_element(id).is_some_and(|e| e.contains(active.as_ref().map(|a| a.as_ref())))
}

/// The viewport width in CSS px (`window.innerWidth`); 1024 when unknown.
pub fn viewport_width() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(1024.0)
}

/// The markup of the first element matching `selector`, serialised as XML (SVG keeps its
/// namespace), or `None`.
pub fn element_xml(selector: &str) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let element = document.query_selector(selector).ok()??;
    web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(&element)
        .ok()
}

/// Scrolls to the element the URL's `#fragment` names, if there is one (the browser's own
/// scroll happens before the page has drawn it). `#sweep=…` names no element.
pub fn scroll_to_fragment() {
    let id = fragment();
    let Some(id) = id
        .strip_prefix('#')
        .filter(|id| !id.is_empty() && !id.contains('='))
    else {
        return;
    };
    if let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
    {
        element.scroll_into_view();
    }
}

/// The text of the text area an input event came from, when it holds at most `max` characters
/// (UTF-16 units); `None` for a longer one, which is not copied.
pub fn text_area_value(ev: &web_sys::Event, max: usize) -> Option<String> {
    use wasm_bindgen::JsCast;
    let area = ev
        .target()?
        .dyn_into::<web_sys::HtmlTextAreaElement>()
        .ok()?;
    (usize::try_from(area.text_length()).ok()? <= max).then(|| area.value())
}

/// Whether the text a paste carries is longer than `max` characters (UTF-16 units), so that it
/// can be refused before the browser inserts it (a paste of a million lines holds a text area
/// for minutes).
pub fn pasted_over(ev: &web_sys::ClipboardEvent, max: usize) -> bool {
    ev.clipboard_data()
        .and_then(|d| d.get_data("text").ok())
        .is_some_and(|t| t.len() > max && t.encode_utf16().count() > max)
}
