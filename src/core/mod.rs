//! The pure core: sweep model, SLO semantics, planning and the URL scenario codec.
//!
//! Nothing here imports the UI framework or the browser bindings, so all of it is tested
//! natively with `cargo test`. How the recommendation is computed lives in [`planner`].

pub mod import;
pub mod model;
pub mod plan;
pub mod scenario;
pub mod text;
pub mod wire;
