//! Code the page's first view does not run, loaded the first time it is needed: a WASM module of
//! its own, split off the page's at build (`scripts/page-wasm.mjs`). What crosses to and from the
//! tools module (share links, downloads, stored imports, the whole bundled data) is encoded and
//! decoded there (`tools_client`), and an import is read, summarised and kept there
//! (`ui::import_panel`'s `import_job`).
//!
//! Each function of it is marked `#[wasm_split(on_demand, fallible)]` where it belongs: the page
//! calls it as an async function, and the first call fetches the module (natively it is called
//! directly). What only such functions reach moves with them.

use std::future::Future;
use std::pin::Pin;

use wasm_split_helpers::SplitLoaderError;

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

/// [`finished`] for work that fails with a message (a call of the tools module): what it gives,
/// or its message, or why its code could not be loaded.
pub async fn flattened<T>(
    start: impl Future<Output = Result<Job<Result<T, String>>, Failed>>,
) -> Result<T, String> {
    finished(start).await.unwrap_or_else(|failed| Err(failed.0))
}
