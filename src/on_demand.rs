//! Code the page's first view does not run, loaded the first time it is needed: a WASM module of
//! its own, split off the page's at build (`scripts/page-wasm.mjs`). What crosses to and from the
//! tools module (share links, downloads, stored imports, the whole bundled data) is encoded and
//! decoded there (`tools_client`), and an import is read, summarised and kept there
//! (`ui::import_panel`'s `import_job`).
//!
//! Each function of it is marked `#[wasm_split(on_demand, fallible)]` where it belongs: the page
//! calls it as an async function, and the first call fetches the module (natively it is called
//! directly). What only such functions reach moves with them.
//!
//! A panel the first view does not show is drawn the same way: the page draws an empty element
//! ([`while_wanted`], [`on_unfold`], or a [`Panel`] of its own), and the panel's function,
//! loaded on demand, draws into it ([`draw_in`]).

use std::any::Any;
use std::future::Future;
use std::pin::Pin;

use leptos::prelude::*;
use wasm_split_helpers::SplitLoaderError;

use crate::browser;

/// Why code loaded on demand did not do its work: its module could not be loaded, or the work
/// failed; the message says which.
#[derive(Clone, Debug, PartialEq)]
pub struct Failed(pub String);

impl From<SplitLoaderError> for Failed {
    fn from(_: SplitLoaderError) -> Failed {
        Failed("this part of the page could not be loaded (are you offline?)".to_string())
    }
}

/// Work loaded on demand that goes on after its function returns (reading through the tools
/// module): the function returns it as a future, whose code moves with the function.
pub type Job<T> = Pin<Box<dyn Future<Output = T>>>;

/// Loads a [`Job`] (`start`: the call of its function) and runs it to its end: what it gives,
/// or why its code could not be loaded.
pub async fn finished<T>(start: impl Future<Output = Result<Job<T>, Failed>>) -> Result<T, Failed> {
    Ok(start.await?.await)
}

/// A panel drawn on demand: dropping it removes the panel and disposes of what it owns.
pub type Drawn = Box<dyn Any>;

/// A panel's function loaded on demand, called: what it drew (`None`: its element is gone), or
/// why its code could not be loaded.
type Drawing = Pin<Box<dyn Future<Output = Result<Option<Drawn>, Failed>>>>;

/// Where a panel loaded on demand is drawn: its element, and what that element says when the
/// panel's code cannot be loaded.
#[derive(Clone, Copy)]
pub struct Holder {
    /// The id of the element the panel is drawn into.
    pub id: &'static str,
    /// What the element says, before why, when the panel's code cannot be loaded ("Nothing can
    /// be imported").
    pub lost: &'static str,
}

/// Where the page keeps a panel whose code is loaded on demand: the panel once drawn, and
/// whether its code is on its way.
#[derive(Clone, Copy)]
pub struct Panel {
    drawn: StoredValue<Option<Drawn>, LocalStorage>,
    loading: StoredValue<bool>,
}

impl Panel {
    /// A panel not drawn yet.
    pub fn new() -> Panel {
        Panel {
            drawn: StoredValue::new_local(None),
            loading: StoredValue::new(false),
        }
    }

    /// Draws the panel unless it is drawn or on its way: `start` calls its function, which draws
    /// into the `holder`'s element with [`draw_in`]. When its code cannot be loaded, the element
    /// says why after [`Holder::lost`], and the next call tries again.
    pub fn draw<F>(self, holder: Holder, start: impl FnOnce() -> F)
    where
        F: Future<Output = Result<Option<Drawn>, Failed>> + 'static,
    {
        self.draw_then(holder, start, || ());
    }

    /// True once the panel is drawn (and until it is cleared).
    pub fn is_drawn(self) -> bool {
        self.drawn.with_value(Option::is_some)
    }

    /// [`Panel::draw`], then `done` once the panel is drawn or has said why it is not (not when
    /// it was drawn or on its way already).
    pub fn draw_then<F>(
        self,
        holder: Holder,
        start: impl FnOnce() -> F,
        done: impl FnOnce() + 'static,
    ) where
        F: Future<Output = Result<Option<Drawn>, Failed>> + 'static,
    {
        if self.is_drawn() || self.loading.get_value() {
            return;
        }
        self.loading.set_value(true);
        self.drawing(holder, Box::pin(start()), Box::new(done));
    }

    /// Waits for the panel's function `started` (its code loaded on demand) and keeps what it
    /// drew, or says why it could not in the `holder`'s element; then calls `done`. Not generic:
    /// every panel's wait is the page's one piece of code.
    fn drawing(self, holder: Holder, started: Drawing, done: Box<dyn FnOnce()>) {
        leptos::task::spawn_local(async move {
            let drawn = started.await;
            self.loading.try_set_value(false);
            match drawn {
                Ok(drawn) => {
                    self.drawn.try_set_value(drawn);
                }
                Err(Failed(e)) => {
                    if let Some(element) = browser::html_element(holder.id) {
                        element.set_text_content(Some(&format!("{}: {e}.", holder.lost)));
                    }
                }
            }
            done();
        });
    }

    /// Removes the panel (its element is gone).
    pub fn clear(self) {
        self.drawn.set_value(None);
    }
}

/// A panel drawn on demand while `wanted` holds: the `holder`'s element saying `loading` until
/// the panel's code, loaded on demand, draws into it (`start`, given the owner of this view,
/// calls the panel's function); removed when `wanted` no longer holds. When its code cannot be
/// loaded, the element says why after [`Holder::lost`].
pub fn while_wanted<F>(
    wanted: Memo<bool>,
    holder: Holder,
    loading: &'static str,
    start: impl Fn(Option<Owner>) -> F + Send + Sync + 'static,
) -> impl IntoView
where
    F: Future<Output = Result<Option<Drawn>, Failed>> + 'static,
{
    let panel = Panel::new();
    move || {
        if !wanted.get() {
            panel.clear();
            return None;
        }
        let owner = Owner::current();
        panel.draw(holder, || start(owner));
        Some(view! { <div id=holder.id>{loading}</div> })
    }
}

/// A folded panel (a `<details>` holding the `holder`'s element) drawn on demand the first time
/// it is unfolded, or at once when `open`: returns what its toggle calls. `start`, given the
/// owner of the view that calls this, calls the panel's function.
pub fn on_unfold<F>(
    open: bool,
    holder: Holder,
    start: impl Fn(Option<Owner>) -> F + 'static,
) -> impl Fn() + 'static
where
    F: Future<Output = Result<Option<Drawn>, Failed>> + 'static,
{
    let panel = Panel::new();
    let owner = Owner::current();
    let draw = move || panel.draw(holder, || start(owner.clone()));
    if open {
        // Drawn once this view is in place: the code is awaited first.
        draw();
    }
    draw
}

/// Runs `f` under `owner` (the page's part that asked for a panel, taken with
/// `Owner::current()`), so that what it creates is disposed of with that part.
pub fn under<R>(owner: Option<Owner>, f: impl FnOnce() -> R) -> R {
    match owner {
        Some(owner) => owner.with(f),
        None => f(),
    }
}

/// What a panel's function loaded on demand does: draws `view` into the element with the id
/// `holder` ([`mount_in`]) under `owner` ([`under`]), the part of the page that asked for it.
/// `None` when there is no such element (the page moved on while the code loaded).
pub fn draw_in<V: IntoView + 'static>(
    owner: Option<Owner>,
    holder: &str,
    view: impl FnOnce() -> V + 'static,
) -> Option<Drawn> {
    under(owner, || mount_in(holder, view))
}

/// Draws `view` into the element with the id `holder` (emptied first), its reactive owner a child
/// of the current one (see [`under`]). `None` when there is no such element (the page moved on
/// while the code loaded).
pub fn mount_in<V: IntoView + 'static>(
    holder: &str,
    view: impl FnOnce() -> V + 'static,
) -> Option<Drawn> {
    let parent = browser::html_element(holder)?;
    parent.set_text_content(None);
    Some(Box::new(leptos::mount::mount_to(parent, view)))
}
