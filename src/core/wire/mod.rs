//! What crosses a boundary: the page <-> tools module protocol (`calls`, `handoff`) and the
//! downloads (`export`). May import every other wing.

pub mod calls;
pub mod export;
pub mod handoff;
pub mod scenario_json;
