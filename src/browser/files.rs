//! Files picked or dropped, and texts kept on the JS side ([`PageText`]) for the tools
//! module's worker and for storage.

use wasm_bindgen::JsValue;

use crate::core::import::hidden_in_folder;

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
    /// The `File` or the JS string.
    pub(super) value: JsValue,
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
    pub(super) fn string(value: JsValue) -> PageText {
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
/// picked, so companion files such as EvalScope's summary and percentiles can be paired). A
/// picked folder's hidden files are left out, as the command line leaves them
/// ([`hidden_in_folder`]). The worker reads their text.
pub fn picked_files(files: Vec<web_sys::File>) -> Vec<(String, PageText)> {
    files
        .into_iter()
        .filter_map(|file| {
            let relative = js_sys::Reflect::get(&file, &JsValue::from_str("webkitRelativePath"))
                .ok()
                .and_then(|p| p.as_string())
                .filter(|p| !p.is_empty());
            match relative {
                Some(path) if hidden_in_folder(&path) => None,
                Some(path) => Some((path, PageText::file(file))),
                None => Some((file.name(), PageText::file(file))),
            }
        })
        .collect()
}
