//! Static files of the page's own origin, fetched.

use std::fmt;

/// Why a file of the page's own origin could not be fetched as text, kept until the page says
/// it (`Display`).
#[derive(Clone, Debug, PartialEq)]
pub enum FetchError {
    /// The page has no window.
    NoWindow,
    /// The request failed (offline, blocked).
    Unreachable {
        /// The file's URL.
        url: String,
    },
    /// The fetch gave something other than a response.
    NotResponse,
    /// The server answered with an HTTP status other than a success.
    Status {
        /// The file's URL.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// The response has no body to read.
    NoBody,
    /// The body could not be read as text.
    NotText {
        /// The file's URL.
        url: String,
    },
}

impl fmt::Display for FetchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FetchError::NoWindow => f.write_str("no window"),
            FetchError::Unreachable { url } => write!(f, "could not fetch {url}"),
            FetchError::NotResponse => f.write_str("not a response"),
            FetchError::Status { url, status } => write!(f, "{url}: HTTP {status}"),
            FetchError::NoBody => f.write_str("no body"),
            FetchError::NotText { url } => write!(f, "{url}: body is not text"),
        }
    }
}

/// Fetches a file of the page's own origin as text.
///
/// Errors: why it could not be fetched, or read as text ([`FetchError`]).
pub async fn fetch_text(url: &str) -> Result<String, FetchError> {
    use wasm_bindgen::JsCast;
    let window = web_sys::window().ok_or(FetchError::NoWindow)?;
    let response = wasm_bindgen_futures::JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| FetchError::Unreachable {
            url: url.to_string(),
        })?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| FetchError::NotResponse)?;
    if !response.ok() {
        return Err(FetchError::Status {
            url: url.to_string(),
            status: response.status(),
        });
    }
    let text = response.text().map_err(|_| FetchError::NoBody)?;
    wasm_bindgen_futures::JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| FetchError::NotText {
            url: url.to_string(),
        })
}
