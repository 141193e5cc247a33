//! The pure core: what was measured, the judgement on it, the readers, the URL, every sentence
//! and what leaves for the page and the tools module, in six wings ([`model`], [`plan`],
//! [`import`], [`scenario`], [`text`], [`wire`]), each using only the wings before it
//! (`tests/layers.rs` checks).
//!
//! Nothing here imports the UI framework or the browser bindings, so all of it is tested
//! natively with `cargo test`. How the recommendation is computed lives in [`plan::planner`].

pub mod import;
pub mod model;
pub mod plan;
pub mod scenario;
pub mod text;
pub mod wire;
