//! A part of the evidence drawn by code loaded on demand once its place comes near the viewport
//! (scrolled, resized), when the keyboard reaches it (its place holds a button), or at once when
//! the link asks for it: a first visit that does not reach it does not fetch its code.

use std::future::Future;

use leptos::prelude::*;

use crate::browser;
use crate::on_demand::{self, Drawn, Failed, Holder, Panel};

/// A part's place: the id and test id of the element it is drawn into, how far below the viewport
/// (CSS px) its place starts loading it, the text of its button, and the words its place says
/// when its code cannot be loaded ("The tables below the chart cannot be drawn").
pub struct Place {
    /// The element's id, which the part's code draws into.
    pub holder: &'static str,
    /// Its `data-testid`.
    pub testid: &'static str,
    /// How far below the viewport its place starts loading it, CSS px.
    pub ahead_px: f64,
    /// What its button says.
    pub button: &'static str,
    /// What its place says when its code cannot be loaded, before why.
    pub lost: &'static str,
}

/// The part's place, and once it is wanted the part, drawn by `draw` (given this view's owner:
/// it calls the part's function, loaded on demand, which draws into [`Place::holder`]). Wanted
/// once its place is near the viewport, when its button gets focus or is pressed, or a frame
/// after it is placed when `at_once`. `pending` is true until it is drawn (or said not to be)
/// or its place is found far from the viewport: the page's evidence is not `ready` before.
pub fn near_view<F>(
    place: Place,
    at_once: bool,
    pending: RwSignal<bool>,
    draw: impl Fn(Option<Owner>) -> F + 'static,
) -> impl IntoView
where
    F: Future<Output = Result<Option<Drawn>, Failed>> + 'static,
{
    let Place {
        holder,
        testid,
        ahead_px,
        button,
        lost,
    } = place;
    let wanted = RwSignal::new(false);
    let check = move || {
        if wanted.try_get_untracked() == Some(false) {
            if browser::near_view(holder, ahead_px) {
                wanted.try_set(true);
            } else {
                pending.try_set(false);
            }
        }
    };
    super::window_events::on_window("scroll", move |_| check());
    super::window_events::on_window("resize", move |_| check());
    browser::after_paint(move || {
        if at_once {
            wanted.try_set(true);
        } else {
            check();
        }
    });
    let panel = Panel::new();
    let owner = Owner::current();
    Effect::new(move |_| {
        if wanted.get() {
            let owner = owner.clone();
            panel.draw_then(
                Holder { id: holder, lost },
                || draw(owner),
                move || {
                    pending.try_set(false);
                },
            );
        }
    });
    // Reached by the keyboard before it is scrolled near: drawn as its button gets focus.
    view! {
        <div id=holder tabindex="-1" data-testid=testid>
            <button type="button" class="link" on:focus=move |_| wanted.set(true) on:click=move |_| wanted.set(true)>
                {button}
            </button>
        </div>
    }
}

/// True when the link names a part of the page (`#chart-title`, not a shared sweep's
/// `#sweep=…`): the parts below the answer are drawn at once, to scroll there.
pub fn linked_to_a_part() -> bool {
    let fragment = browser::fragment();
    fragment.len() > 1 && !fragment.contains('=')
}

/// What is done once a part is drawn: scroll to the part the link's `#fragment` names (what is
/// drawn above it has moved it), and which element to focus.
pub struct Settle {
    /// Scroll to the part the link's `#fragment` names.
    pub scroll: bool,
    /// The id of the element to focus; `None`: the part's own, when the focus was on its place.
    pub refocus: Option<String>,
}

/// What a part's function loaded on demand does: draws `view` into the `holder` element under
/// `owner` ([`on_demand::draw_in`]), then settles as `settle` says.
pub fn draw_evidence<V: IntoView + 'static>(
    owner: Option<Owner>,
    holder: &'static str,
    settle: Settle,
    view: impl FnOnce() -> V + 'static,
) -> Option<Drawn> {
    let had_focus = browser::has_focus_within(holder);
    let drawn = on_demand::draw_in(owner, holder, view);
    if settle.scroll {
        browser::after_paint(browser::scroll_to_fragment);
    }
    if let Some(id) = settle.refocus {
        browser::focus_after_render(id);
    } else if had_focus {
        browser::focus_after_render(holder.to_string());
    }
    drawn
}
