//! The only module that touches the browser, one file for each thing it touches: the URL
//! (`url`), the clipboard, the bug banner, the document's elements (`dom`), downloads, local
//! storage, fetching static files, picked or dropped files (`files`), focus among a chart's marks (`roving`), timers and the clock, and
//! the tools module's Web Worker (`worker`, with its JavaScript in `worker.js`).
//! Each call degrades to a no-op when the browser API is missing, so a missing API never panics.

mod banner;
mod clipboard;
mod dom;
mod download;
mod fetch;
mod files;
mod roving;
mod storage;
mod timers;
mod url;
mod worker;

pub use banner::{on_trap, show_bug_banner};
pub use clipboard::copy_text;
pub use dom::{
    element_xml, focus_after_render, has_focus_within, html_element, near_view, pasted_over,
    remove_element, scroll_to_fragment, set_attribute, set_text, text_area_value, viewport_width,
};
pub use download::download;
pub use fetch::fetch_text;
pub use files::{files_of, picked_files, PageText};
pub use roving::{move_focus, take_tab_stop};
pub use storage::{
    on_storage_change, storage_get_text, storage_keys, storage_remove, storage_set,
    storage_set_text,
};
pub use timers::{after_paint, clock_time, next_task, now_ms};
pub use url::{
    drop_fragment, fragment, href, link_with_query, query, replace_fragment, replace_query,
};
pub use worker::{call_tools, call_tools_text, start_loading_tools, Progress, ToolArg, Unanswered};
