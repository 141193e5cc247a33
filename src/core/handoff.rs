//! What the page and its tools module (`src/bin/tools.rs`: importers, task-file parser, share
//! links, stored imports) hand each other, as bytes: `postcard`'s compact serde encoding. The
//! page loads the tools module on first use, so its first load carries neither the parsers nor
//! a JSON reader; it only decodes these bytes.
//!
//! Every value is encoded as sent and decoded exactly (f64 bit for bit); decoding untrusted or
//! damaged bytes returns an error, never panics.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::import::{FileFormats, Import, Problem};
use super::sweep::Source;

/// The answer to an import: the format each file was read as, and the import or why none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportReply {
    /// The import's `src` id (see `sources::import_id`).
    pub id: String,
    /// Each file and the format it was read as (`None`: not recognised).
    pub formats: FileFormats,
    /// The import, or the problems that left no usable row.
    pub result: Result<Import, Vec<Problem>>,
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
/// Errors: "damaged data" with postcard's reason, for bytes that are not such a value.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("damaged data from the tools module ({e})"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::bundled::lm_arena_chat;
    use crate::core::import::{import, InputFile};
    use crate::core::reference::reference;

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
        let reply = ImportReply {
            id: "imp-1".into(),
            formats: vec![("x.csv".into(), crate::core::import::detect(&files[0]))],
            result: import(&files),
        };
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
