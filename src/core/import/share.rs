//! Sharing an imported source by link: the sweeps (not the raw files) as compact JSON, deflated
//! (`miniz_oxide`) and written URL-safe (`base64`, no padding), for the URL fragment
//! `#sweep=...`: the data never reaches a server. Links stay under [`MAX_LINK_BYTES`].
//!
//! Version 2 (`share/v2.rs`) carries each sweep's whole identity (every `Deployment` field) and
//! each run with its served rate, mean end-to-end latency, completed and failed requests (a run
//! in which none completed has a throughput of 0) and where its J/token and served rate come
//! from; a level's coverage ("p90: 1 of 2 runs") follows from its runs. Links of version 1
//! (hardware, parallelism, precision and a configuration label per sweep, `share/v1.rs`) still
//! decode (`share/read.rs`).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::core::import::MODEL_NOT_STATED;
use crate::core::model::deployment::LevelKind;
use crate::core::model::limits::MAX_LINK_BYTES;
use crate::core::model::source::Source;
use crate::core::model::sweep::Model;
use v2::{shared_row, SharedDeployment, SharedV2, SweepV2};

/// Said where a link is made from a source with per-request records: a link carries each
/// level's figures, not its requests.
pub const NO_RECORDS: &str = "It holds no per-request records: attain is not judged from it.";
/// The version this page writes (it reads 1 too).
pub const VERSION: u32 = 2;

/// Why a source cannot be shared by link, or a link's `#sweep=` payload cannot be read; worded
/// by its `Display` (`core::text::error_text`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShareError {
    /// The sweeps could not be written as JSON: serde_json's reason (writing these types does
    /// not fail in practice).
    Unwritable(String),
    /// The link would be longer than [`MAX_LINK_BYTES`].
    TooLarge {
        /// The payload, compressed, in KB (rounded up).
        kb: usize,
    },
    /// A payload longer than a link carries ([`MAX_LINK_BYTES`]).
    LinkTooLong {
        /// The link's length in KB (rounded up).
        kb: usize,
    },
    /// A payload that ends before its compressed data does.
    CutShort {
        /// The payload's length in characters.
        chars: usize,
    },
    /// A character that is not URL-safe base64.
    NotBase64 {
        /// Its position, from 1.
        at: usize,
        /// The character.
        character: char,
    },
    /// A payload that unpacks to more than [`MAX_PAYLOAD_BYTES`].
    TooBig,
    /// A payload that is not compressed data.
    NotCompressed,
    /// JSON that is not a shared sweep.
    NotOurs,
    /// A format version this page does not read (it reads 1 and [`VERSION`]).
    Version {
        /// The version the payload states.
        v: u32,
    },
    /// More models, sweeps or rows than this page reads.
    TooMany {
        /// How many the payload holds.
        count: usize,
        /// How many are read.
        limit: usize,
        /// What they are.
        what: Held,
    },
    /// A level or throughput that is not a number from [`MIN_FIGURE`] to [`MAX_FIGURE`].
    NotPositive,
    /// No rows.
    NoRows,
    /// A sweep names a model the payload does not hold.
    UnknownModel,
}

impl std::error::Error for ShareError {}

/// What a payload holds too many of ([`ShareError::TooMany`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Held {
    /// Models.
    Models,
    /// Sweeps.
    Sweeps,
    /// Rows.
    Rows,
}

/// The version, read first to pick the shape of the rest.
#[derive(Deserialize)]
struct Header {
    v: u32,
}

/// How many models, sweeps and rows a link holds, counted without building them.
#[derive(Deserialize)]
struct Shape {
    models: Vec<serde::de::IgnoredAny>,
    sweeps: Vec<SweepShape>,
}

#[derive(Deserialize)]
struct SweepShape {
    rows: Vec<serde::de::IgnoredAny>,
}

#[derive(Serialize, Deserialize)]
struct SharedModel {
    id: String,
    nick: String,
    arch: String,
    total: Option<f64>,
    active: Option<f64>,
}

impl SharedModel {
    fn of(m: &Model) -> SharedModel {
        SharedModel {
            id: m.model_id.clone(),
            nick: m.nickname.clone(),
            arch: m.architecture.clone(),
            total: m.total_params_b,
            active: m.activated_params_b,
        }
    }

    fn model(self) -> Model {
        let id = if self.id.trim().is_empty() {
            MODEL_NOT_STATED.to_string()
        } else {
            self.id
        };
        Model {
            nickname: if self.nick.trim().is_empty() {
                id.clone()
            } else {
                self.nick
            },
            model_id: id,
            architecture: self.arch,
            total_params_b: self.total.filter(|v| v.is_finite() && *v > 0.0),
            activated_params_b: self.active.filter(|v| v.is_finite() && *v > 0.0),
        }
    }
}

fn kind_char(kind: LevelKind) -> char {
    match kind {
        LevelKind::MaxNumSeqs => 'm',
        LevelKind::Concurrency => 'c',
        LevelKind::RequestRate => 'r',
    }
}

fn kind_of(c: char) -> LevelKind {
    match c {
        'm' => LevelKind::MaxNumSeqs,
        'c' => LevelKind::Concurrency,
        _ => LevelKind::RequestRate,
    }
}

/// The fragment value (after `#sweep=`) for a source.
///
/// Errors: [`ShareError::TooLarge`] when the link would be longer than [`MAX_LINK_BYTES`].
pub fn encode(source: &Source) -> Result<String, ShareError> {
    let shared = SharedV2 {
        v: VERSION,
        name: source.task_display_name.clone(),
        models: source.models.iter().map(SharedModel::of).collect(),
        sweeps: source
            .sweeps
            .iter()
            .map(|s| SweepV2 {
                model: s.model_index,
                dep: SharedDeployment::of(&s.deployment),
                rows: s.rows.iter().map(shared_row).collect(),
            })
            .collect(),
    };
    let json = serde_json::to_vec(&shared).map_err(|e| ShareError::Unwritable(e.to_string()))?;
    let packed = URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9));
    if packed.len() + "#sweep=".len() > MAX_LINK_BYTES {
        return Err(ShareError::TooLarge {
            kb: packed.len().div_ceil(1024),
        });
    }
    Ok(packed)
}

mod read;
#[cfg(test)]
mod tests;
mod v1;
mod v2;

pub use read::decode;
