//! The tools module's Web Worker: started on first use, each call posted to it with its
//! arguments and its answer awaited. The JavaScript that holds the worker is `worker.js` beside
//! this file (a wasm-bindgen snippet, bundled into the page's loader by `scripts/page-wasm.mjs`).

use std::fmt;

use wasm_bindgen::JsValue;

use super::files::{page_texts, PageText};

#[wasm_bindgen::prelude::wasm_bindgen(module = "/src/browser/worker.js")]
extern "C" {
    /// Starts the tools module's Web Worker (`tools-worker.js?v=<tools-version>`, next to the
    /// page) unless it runs already; a worker whose module failed to load is replaced on the
    /// next call.
    fn start_tools();
    /// Posts a call of `name` with `args` to the worker; resolves to its answer (text or a
    /// `Uint8Array`), rejects with a message. The call's progress reports go to `on_progress`
    /// (a function of their text, or `undefined`).
    fn tools_call(name: &str, args: js_sys::Array, on_progress: &JsValue) -> js_sys::Promise;
}

/// A value for a tools-module argument: text, optional text, a list of texts, or bytes.
pub enum ToolArg<'a> {
    /// A string.
    Text(&'a str),
    /// A string or `undefined`.
    MaybeText(Option<&'a str>),
    /// An array of strings.
    Texts(&'a [String]),
    /// A `Uint8Array`.
    Bytes(&'a [u8]),
    /// A page text (a JS string).
    Page(&'a PageText),
    /// An array of page texts.
    Pages(&'a [PageText]),
}

impl ToolArg<'_> {
    fn to_js(&self) -> JsValue {
        match self {
            ToolArg::Text(t) => JsValue::from_str(t),
            ToolArg::MaybeText(t) => t.map_or(JsValue::UNDEFINED, JsValue::from_str),
            ToolArg::Texts(list) => list
                .iter()
                .map(|t| JsValue::from_str(t))
                .collect::<js_sys::Array>()
                .into(),
            ToolArg::Bytes(b) => js_sys::Uint8Array::from(*b).into(),
            ToolArg::Page(t) => t.value.clone(),
            ToolArg::Pages(list) => page_texts(list).into(),
        }
    }
}

/// Starts the tools module (in its worker) if it is not running (for a caller that will need
/// it after another fetch).
pub fn start_loading_tools() {
    start_tools();
}

/// What a tools-module call reports of its progress goes to this function, as text (e.g. "120.0
/// MB of 516.5 MB read"), while the call runs.
pub struct Progress(wasm_bindgen::closure::Closure<dyn FnMut(String)>);

impl Progress {
    /// Reports to `f`.
    pub fn new(f: impl FnMut(String) + 'static) -> Progress {
        Progress(wasm_bindgen::closure::Closure::new(f))
    }
}

/// Why the tools module gave no answer to a call, kept until the page says it (`Display`).
#[derive(Clone, Debug, PartialEq)]
pub enum Unanswered {
    /// The call failed in the worker, or the module could not be loaded (offline before first
    /// use, blocked): the worker's message, when it gave one as text.
    Failed {
        /// The call's name.
        call: &'static str,
        /// The worker's message.
        message: Option<String>,
    },
    /// A call answering text answered something else.
    NoText {
        /// The call's name.
        call: &'static str,
    },
    /// A call answering bytes answered neither text nor bytes.
    NeitherTextNorBytes {
        /// The call's name.
        call: &'static str,
    },
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unanswered::Failed {
                message: Some(message),
                ..
            } => f.write_str(message),
            Unanswered::Failed {
                call,
                message: None,
            } => write!(f, "the tools module failed in {call}"),
            Unanswered::NoText { call } => {
                write!(f, "the tools module answered {call} with no text")
            }
            Unanswered::NeitherTextNorBytes { call } => {
                write!(
                    f,
                    "the tools module answered {call} with neither text nor bytes"
                )
            }
        }
    }
}

/// Calls `name` in the tools module and waits for its answer, as the worker posted it; its
/// progress reports go to `progress`.
async fn tools_answer(
    name: &'static str,
    args: &[ToolArg<'_>],
    progress: Option<&Progress>,
) -> Result<JsValue, Unanswered> {
    use wasm_bindgen::JsCast;
    let args: js_sys::Array = args.iter().map(ToolArg::to_js).collect();
    let none = JsValue::UNDEFINED;
    let on_progress = progress.map_or(&none, |p| p.0.as_ref().unchecked_ref());
    wasm_bindgen_futures::JsFuture::from(tools_call(name, args, on_progress))
        .await
        .map_err(|e| Unanswered::Failed {
            call: name,
            message: e.as_string(),
        })
}

/// Calls `name` in the tools module for a text answer kept as a page text (not copied into the
/// page's WASM).
///
/// Errors: as [`call_tools`], or when the answer is not text.
pub async fn call_tools_text(
    name: &'static str,
    args: &[ToolArg<'_>],
) -> Result<PageText, Unanswered> {
    let answer = tools_answer(name, args, None).await?;
    if answer.is_string() {
        Ok(PageText::string(answer))
    } else {
        Err(Unanswered::NoText { call: name })
    }
}

/// Calls `name` in the tools module, in its Web Worker (started first if need be), and returns
/// its answer: the bytes of a `Uint8Array`, or the UTF-8 bytes of a string. The page's thread
/// only posts the arguments and reads the answer; progress reports go to `progress`.
///
/// Errors: when the module cannot be loaded (offline before first use, blocked) or fails
/// ([`Unanswered`]); a failed load is retried on the next call.
pub async fn call_tools(
    name: &'static str,
    args: &[ToolArg<'_>],
    progress: Option<&Progress>,
) -> Result<Vec<u8>, Unanswered> {
    use wasm_bindgen::JsCast;
    let answer = tools_answer(name, args, progress).await?;
    if let Some(text) = answer.as_string() {
        return Ok(text.into_bytes());
    }
    answer
        .dyn_into::<js_sys::Uint8Array>()
        .map(|bytes| bytes.to_vec())
        .map_err(|_| Unanswered::NeitherTextNorBytes { call: name })
}
