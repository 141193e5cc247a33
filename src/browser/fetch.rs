//! Static files of the page's own origin, fetched.

/// Fetches a file of the page's own origin as text.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().ok_or("no window")?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| format!("could not fetch {url}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "no body")?;
    wasm_bindgen_futures::JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{url}: body is not text"))
}
