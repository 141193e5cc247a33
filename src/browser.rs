//! The only module that touches the browser: the URL, the clipboard, downloads, local storage,
//! fetching static files, reading picked or dropped files, and the start-up message.
//! Each call degrades to a no-op when the browser API is missing, so a missing API never panics.

use std::cell::RefCell;

use wasm_bindgen::JsValue;

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

/// Moves keyboard focus to the element with this id once the next frame is drawn (it may be
/// about to be created); nothing if there is none then.
pub fn focus_after_render(id: String) {
    after_paint(move || {
        if let Some(element) = html_element(&id) {
            let _ = element.focus();
        }
    });
}

/// The viewport width in CSS px (`window.innerWidth`); 1024 when unknown.
pub fn viewport_width() -> f64 {
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|v| v.as_f64())
        .unwrap_or(1024.0)
}

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

/// The files of a (live) file list, taken now: clearing the input afterwards empties the list.
pub fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect())
        .unwrap_or_default()
}

/// A file's text kept on the JS side, as the `File` itself or a JS string: it goes to the
/// tools module's worker (which reads a file there) and to storage without ever being copied
/// into the page's WASM, so a large file never blocks the page. Even its size is asked in the
/// worker: a picked file asks the file system each time (3,000 files held the page 2.7 s).
#[derive(Clone, Debug)]
pub struct PageText {
    value: JsValue,
}

impl PageText {
    /// Text the page holds as Rust (a pasted text), handed over as a JS string.
    pub fn of(text: &str) -> PageText {
        PageText {
            value: JsValue::from_str(text),
        }
    }

    /// A picked file, read later by the worker.
    fn file(file: web_sys::File) -> PageText {
        PageText { value: file.into() }
    }

    /// A JS string.
    fn string(value: JsValue) -> PageText {
        PageText { value }
    }

    /// True for an empty string.
    pub fn is_empty(&self) -> bool {
        use wasm_bindgen::JsCast;
        self.value
            .dyn_ref::<js_sys::JsString>()
            .is_some_and(|t| t.length() == 0)
    }
}

/// An array of page texts, for a tools-module call.
pub fn page_texts(texts: &[PageText]) -> js_sys::Array {
    texts.iter().map(|t| t.value.clone()).collect()
}

/// The files of a file input or a drop, with their names (the folder kept where a folder was
/// picked, so companion files such as EvalScope's summary and percentiles can be paired). The
/// worker reads their text.
pub fn picked_files(files: Vec<web_sys::File>) -> Vec<(String, PageText)> {
    files
        .into_iter()
        .map(|file| {
            let relative = js_sys::Reflect::get(&file, &JsValue::from_str("webkitRelativePath"))
                .ok()
                .and_then(|p| p.as_string())
                .filter(|p| !p.is_empty());
            (
                relative.unwrap_or_else(|| file.name()),
                PageText::file(file),
            )
        })
        .collect()
}

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
fn set_timeout(f: impl FnOnce() + 'static, ms: i32) -> bool {
    use wasm_bindgen::JsCast;
    let callback = wasm_bindgen::closure::Closure::once_into_js(f);
    web_sys::window().is_some_and(|w| {
        w.set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), ms)
            .is_ok()
    })
}

#[wasm_bindgen::prelude::wasm_bindgen(inline_js = "
let worker = null;
let next = 0;
const pending = new Map();
function failAll(message) {
    for (const p of pending.values()) p.reject(message);
    pending.clear();
}
export function start_tools() {
    if (worker) return;
    const version = document.querySelector('meta[name=\"tools-version\"]')?.content;
    const url = new URL('tools-worker.js', document.baseURI);
    if (version) url.searchParams.set('v', version);
    worker = new Worker(url.href, { type: 'module' });
    worker.onmessage = (event) => {
        const { id, answer, error, fatal, closing, progress } = event.data;
        const p = pending.get(id);
        if (progress !== undefined) { p?.onProgress?.(progress); return; }
        if (fatal || closing) { worker.terminate(); worker = null; }
        if (p) {
            pending.delete(id);
            if (error === undefined) p.resolve(answer); else p.reject(error);
        }
        // A worker that closed to give its memory back: the calls it had not answered go to a new one.
        if (closing && pending.size) {
            start_tools();
            for (const [i, q] of pending) send(i, q.name, q.args);
        }
    };
    worker.onerror = () => {
        worker.terminate();
        worker = null;
        failAll(\"the page's file tools (imports, downloads, share links) could not be loaded (are you offline?)\");
    };
}
// Posting a picked file costs the page a file-system call (the browser takes its snapshot): a list
// of files goes one by one before its call, yielding every 20 ms, so thousands never hold the page.
// Calls are sent one after another, in the order made. A send cut short by a worker that closed is
// made again, whole, to the next one.
let sending = Promise.resolve();
function send(id, name, args) {
    sending = sending.then(() => sendNow(id, name, args)).catch(() => {});
}
async function sendNow(id, name, args) {
    const w = worker;
    // A call the page no longer waits for (its worker failed) is not sent.
    if (!w || !pending.has(id)) return;
    let since = performance.now();
    for (const [arg, list] of args.entries()) {
        if (!Array.isArray(list) || !list.some((x) => x instanceof Blob)) continue;
        for (const item of list) {
            w.postMessage({ id, arg, item });
            if (performance.now() - since > 20) {
                await new Promise((r) => setTimeout(r));
                if (w !== worker) return;
                since = performance.now();
            }
        }
    }
    w.postMessage({ id, name, args: args.map((a) => (Array.isArray(a) && a.some((x) => x instanceof Blob) ? [] : a)) });
}
export function tools_call(name, args, onProgress) {
    start_tools();
    return new Promise((resolve, reject) => {
        const id = next++;
        pending.set(id, { resolve, reject, name, args, onProgress });
        send(id, name, args);
    });
}")]
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

/// Calls `name` in the tools module and waits for its answer, as the worker posted it; its
/// progress reports go to `progress`.
async fn tools_answer(
    name: &str,
    args: &[ToolArg<'_>],
    progress: Option<&Progress>,
) -> Result<JsValue, String> {
    use wasm_bindgen::JsCast;
    let args: js_sys::Array = args.iter().map(ToolArg::to_js).collect();
    let none = JsValue::UNDEFINED;
    let on_progress = progress.map_or(&none, |p| p.0.as_ref().unchecked_ref());
    wasm_bindgen_futures::JsFuture::from(tools_call(name, args, on_progress))
        .await
        .map_err(|e| {
            e.as_string()
                .unwrap_or_else(|| format!("the tools module failed in {name}"))
        })
}

/// Calls `name` in the tools module for a text answer kept as a page text (not copied into the
/// page's WASM).
///
/// Errors: as [`call_tools`], or when the answer is not text.
pub async fn call_tools_text(name: &str, args: &[ToolArg<'_>]) -> Result<PageText, String> {
    let answer = tools_answer(name, args, None).await?;
    if answer.is_string() {
        Ok(PageText::string(answer))
    } else {
        Err(format!("the tools module answered {name} with no text"))
    }
}

/// Calls `name` in the tools module, in its Web Worker (started first if need be), and returns
/// its answer: the bytes of a `Uint8Array`, or the UTF-8 bytes of a string. The page's thread
/// only posts the arguments and reads the answer; progress reports go to `progress`.
///
/// Errors: a message when the module cannot be loaded (offline before first use, blocked) or
/// fails; a failed load is retried on the next call.
pub async fn call_tools(
    name: &str,
    args: &[ToolArg<'_>],
    progress: Option<&Progress>,
) -> Result<Vec<u8>, String> {
    use wasm_bindgen::JsCast;
    let answer = tools_answer(name, args, progress).await?;
    if let Some(text) = answer.as_string() {
        return Ok(text.into_bytes());
    }
    answer
        .dyn_into::<js_sys::Uint8Array>()
        .map(|bytes| bytes.to_vec())
        .map_err(|_| format!("the tools module answered {name} with neither text nor bytes"))
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
