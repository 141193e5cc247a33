//! What the page and its tools module (`src/bin/tools.rs`: importers, task-file parser, share
//! links, stored imports) hand each other, as bytes: `postcard`'s compact serde encoding. The
//! page loads the tools module on first use, so its first load carries neither the parsers nor
//! a JSON reader; it only decodes these bytes.
//!
//! Every value is encoded as sent and decoded exactly (f64 bit for bit); decoding untrusted or
//! damaged bytes returns an error, never panics.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::core::import::summary::Shown;
use crate::core::model::source::Source;
use crate::core::plan::compare::Column;
use crate::core::text::error_text;

/// Which file to write (`core::wire::export`); the page's first load carries none of the writers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExportKind {
    /// The scenario and its results at one deployment, as JSON.
    ScenarioJson {
        /// Index into the source's sweeps.
        sweep_index: usize,
    },
    /// The side-by-side table as CSV: the model's family, or every model's meeting deployments,
    /// in the order shown (a column and whether reversed; `None`: by cost when priced).
    CompareCsv {
        /// "All models" is on.
        all_models: bool,
        /// The column the table is sorted by, and whether reversed.
        sort: Option<(Column, bool)>,
    },
    /// The autoscaler at one deployment's recommended level, as a KEDA `ScaledObject` (YAML).
    KedaYaml {
        /// Index into the source's sweeps.
        sweep_index: usize,
    },
    /// The trade-off chart as a standalone SVG file (`chart_text::standalone_svg`): titled and
    /// with a legend, which the page shows outside its SVG.
    ChartSvg {
        /// The chart's `<svg>` element as the page shows it (serialised markup).
        markup: String,
        /// The chart's width and height, px.
        size: (f64, f64),
        /// The sweep of each series drawn, in the chart's order (series colour `i`).
        series: Vec<usize>,
    },
}

/// An export, whole: the source, the scenario as its URL query, the page's URL (written into
/// the file) and which file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExportRequest {
    /// The source shown.
    pub source: Source,
    /// The scenario's query string (`Scenario::to_query`), read back with `Scenario::from_query`.
    pub query: String,
    /// The page's URL.
    pub url: String,
    /// Which file.
    pub kind: ExportKind,
}

/// Why a download could not be written (`core::wire::export`); worded by its `Display` (the
/// sentences are `core::text::error_text`'s).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExportError {
    /// A deployment index that is not in the source.
    NoSuchDeployment,
    /// Chart markup that is not an SVG element.
    NotSvg,
    /// An autoscaler asked of a sweep with no recommended level.
    NoAutoscaler,
    /// The CSV or JSON writer's reason (writing to memory does not fail in practice).
    Writer(String),
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::NoSuchDeployment => f.write_str(error_text::NO_SUCH_DEPLOYMENT),
            ExportError::NotSvg => f.write_str(error_text::NOT_AN_SVG),
            ExportError::NoAutoscaler => f.write_str(error_text::NO_AUTOSCALER),
            ExportError::Writer(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for ExportError {}

/// Bytes that are not the value the other side sent (damaged): postcard's reason; worded by its
/// `Display` (`core::text::error_text::damaged_handoff`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandoffError(pub String);

impl fmt::Display for HandoffError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&error_text::damaged_handoff(&self.0))
    }
}

impl std::error::Error for HandoffError {}

/// Why a call of the tools module that takes handoff bytes failed: the bytes did not decode, or
/// the call's own error `E`. Worded as the error it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CallError<E> {
    /// The bytes handed over are not the value the call takes.
    Damaged(HandoffError),
    /// The call's own error.
    Failed(E),
}

impl<E: fmt::Display> fmt::Display for CallError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallError::Damaged(e) => e.fmt(f),
            CallError::Failed(e) => e.fmt(f),
        }
    }
}

impl<E: fmt::Debug + fmt::Display> std::error::Error for CallError<E> {}

/// The answer to an import: its sweeps, if any row was usable, and what the import panel shows
/// of it, in its words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportReply {
    /// The import's `src` id (see `sources::import_id`).
    pub id: String,
    /// The sweeps read; `None` when no row was usable, or no file was read.
    pub source: Option<Source>,
    /// Its summary, warnings and problems (`import::summary::shown`).
    pub shown: Shown,
    /// Which of the files given were read, in their order (the others were refused for their
    /// size, or the browser could not read them).
    pub read: Vec<bool>,
    /// The size of the files read, in bytes (the page keeps an import in storage up to a size).
    pub bytes_read: usize,
}

/// One import kept in local storage, re-read: its id, its file names and its source.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredSource {
    /// Its `src` id.
    pub id: String,
    /// Its file names.
    pub files: Vec<String>,
    /// The sweeps read from them.
    pub source: Source,
}

/// Encodes a value for the other side.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    // Serialising these types into a growing vector does not fail; an empty result would be
    // refused by `decode` on the other side rather than misread.
    postcard::to_allocvec(value).unwrap_or_default()
}

/// Decodes a value sent by the other side.
///
/// Errors: [`HandoffError`] with postcard's reason, for bytes that are not such a value.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, HandoffError> {
    postcard::from_bytes(bytes).map_err(|e| HandoffError(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::import::bundled::lm_arena_chat;
    use crate::core::import::reference::reference;
    use crate::core::import::{import, InputFile};

    #[test]
    fn sources_round_trip_exactly() {
        for source in [lm_arena_chat(), reference()] {
            let back: Source = decode(&encode(source)).unwrap();
            assert_eq!(&back, source);
            assert_eq!(back.sweeps[0].levels(), source.sweeps[0].levels());
        }
    }

    #[test]
    fn import_replies_round_trip() {
        let files = [InputFile {
            name: "x.csv".into(),
            text: "model,gpu,gpus,concurrency,output_tok_s,p50_itl_ms\nm,H100,1,8,1000,20\nm,H100,1,16,1800,bad\n".into(),
        }];
        let result = import(&files);
        let formats = vec![("x.csv".into(), crate::core::import::detect(&files[0]))];
        let reply = ImportReply {
            id: "imp-1".into(),
            source: result.as_ref().ok().map(|i| i.source.clone()),
            shown: crate::core::import::summary::shown(Vec::new(), Some((&formats, &result))),
            read: vec![true],
            bytes_read: files[0].text.len(),
        };
        let problems = &result.as_ref().unwrap().problems;
        // The unknown column is listed among the warnings, the bad value among the errors.
        let located: Vec<_> = problems
            .iter()
            .filter(|p| p.error.kind().warning_hook().is_none())
            .map(|p| (p.file.clone(), p.located()))
            .collect();
        assert_eq!(reply.shown.problems, located);
        assert_eq!(reply.shown.warnings.len(), 1);
        assert_eq!(decode::<ImportReply>(&encode(&reply)).unwrap(), reply);
    }

    #[test]
    fn damaged_bytes_are_an_error() {
        let bytes = encode(lm_arena_chat());
        for cut in [0, 1, 7, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode::<Source>(&bytes[..cut]).is_err());
        }
        assert!(decode::<ImportReply>(&[0xff; 64]).is_err());
    }
}
