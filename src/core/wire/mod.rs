//! What crosses a boundary: the page <-> tools module protocol (`handoff`) and the downloads
//! (`export`). May import every other wing.

pub mod export;
pub mod handoff;
