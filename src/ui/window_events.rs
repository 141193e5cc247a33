//! The window's events for parts of the page drawn again and again (the planner is drawn anew
//! for each source): one listener per kind of event for the page's life, calling the handlers
//! of the parts drawn now. A listener of its own per part drawn leaves its closure behind
//! (`window_event_listener` never frees it): small blocks in the WASM memory that a removed
//! import's memory can then no longer be reclaimed around.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use leptos::prelude::*;

/// What a part does on an event.
type OnEvent = Rc<dyn Fn(&web_sys::Event)>;

/// A handler, with its number and the kind of event it is for.
type Handler = (u64, &'static str, OnEvent);

thread_local! {
    /// The handlers of the parts drawn now.
    static HANDLERS: RefCell<Vec<Handler>> = const { RefCell::new(Vec::new()) };
    /// The kinds of events listened to (one listener each, for the page's life).
    static LISTENED: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) };
    /// The number of the last handler.
    static NUMBER: Cell<u64> = const { Cell::new(0) };
}

/// Calls `f` on each window event of this kind (`"scroll"`, `"resize"`, `"keydown"`) for as
/// long as the current owner lives.
pub fn on_window(kind: &'static str, f: impl Fn(&web_sys::Event) + 'static) {
    let number = NUMBER.with(|n| {
        n.set(n.get() + 1);
        n.get()
    });
    HANDLERS.with(|h| h.borrow_mut().push((number, kind, Rc::new(f))));
    on_cleanup(move || HANDLERS.with(|h| h.borrow_mut().retain(|(n, _, _)| *n != number)));
    let new_kind = LISTENED.with(|l| {
        let mut l = l.borrow_mut();
        let new = !l.contains(&kind);
        if new {
            l.push(kind);
        }
        new
    });
    if new_kind {
        std::mem::forget(window_event_listener_untyped(kind, move |e| {
            dispatch(kind, &e)
        }));
    }
}

/// Calls the handlers of `kind` (taken first: a handler may add or remove handlers).
fn dispatch(kind: &'static str, event: &web_sys::Event) {
    let handlers: Vec<OnEvent> = HANDLERS.with(|h| {
        h.borrow()
            .iter()
            .filter(|(_, k, _)| *k == kind)
            .map(|(_, _, f)| Rc::clone(f))
            .collect()
    });
    for f in handlers {
        f(event);
    }
}
