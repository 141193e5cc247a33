//! A file offered for download.

use wasm_bindgen::JsValue;

/// Offers `content` as a file download named `filename`. False when the browser refused.
pub fn download(filename: &str, mime: &str, content: &str) -> bool {
    use wasm_bindgen::JsCast;
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let parts = js_sys::Array::of1(&JsValue::from_str(content));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return false;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return false;
    };
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
    let done = anchor.is_some_and(|a| {
        a.set_href(&url);
        a.set_download(filename);
        a.click();
        true
    });
    // The click has started the download; the object URL is no longer needed.
    let _ = web_sys::Url::revoke_object_url(&url);
    done
}
