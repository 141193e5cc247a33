//! The calls of the tools module (`src/bin/tools.rs`, run in a Web Worker), declared once in
//! [`tool_calls!`](crate::tool_calls): each call's variant, the name the tools module exports it
//! under, its arguments in the order the worker passes them (each a name and a kind) and its
//! answer's kind and Rust type. From that one list come [`Call`] and [`Call::name`] here, the
//! answer's type per call ([`answers`]), a typed argument struct per call on the page
//! (`tools_client::args`, named fields, so swapped arguments do not compile) with the decoding
//! of its answer, and on the tools module's side each export, made from the function of its
//! name: one that takes other arguments or answers another type does not compile.
//!
//! The kinds, as the page holds them and as the tools module receives them:
//!
//! | kind | page | tools module |
//! |---|---|---|
//! | `Text` | `&str` | `&str` |
//! | `MaybeText` | `Option<&str>` | `Option<String>` |
//! | `Texts` | `&[String]` | `Vec<String>` |
//! | `Bytes` | `&[u8]` | `&[u8]` |
//! | `Page` | a page text (a JS string) | `&str` |
//! | `Pages` | page texts (JS strings, or picked files) | `Vec<JsValue>` |
//!
//! An answer is `Bytes(T)`, a `T` as `core::wire::handoff` bytes, or `Text(String)`, a text
//! kept as a page text.

use crate::core::import::bundled::TaskFileError;
use crate::core::import::share::ShareError;
use crate::core::import::sources::{LegacySplit, StoredError};
use crate::core::model::source::Source;
use crate::core::plan::period::LoadProfile;
use crate::core::scenario::load_csv::FieldCsvError;
use crate::core::wire::handoff::{self, CallError, ExportError, ImportReply};

/// Hands the list of the tools module's calls to the macro `$then`, as items of the form
/// `/// docs` `Variant export_name (arg: Kind, ...) -> AnswerKind(AnswerType);` (see the
/// module's table of kinds; the answer's type is named as `core::wire::calls` imports it).
/// Adding a call is one item here, its function in `src/bin/tools.rs` and its typed function in
/// `tools_client`; a mismatch between the three does not compile.
#[macro_export]
macro_rules! tool_calls {
    ($then:ident) => {
        $then! {
            /// An ML.ENERGY task file -> its source, or why it is not one.
            ParseTaskFile parse_task_file (text: Text) -> Bytes(Result<Source, TaskFileError>);
            /// Files (names, and picked files or texts), the dialog's model -> what was imported.
            ImportFiles import_files (names: Texts, texts: Pages, model: MaybeText) -> Bytes(ImportReply);
            /// One stored import's text -> the import re-read, or why it cannot be.
            StoredSource stored_source (text: Page) -> Bytes(Result<handoff::StoredSource, StoredError>);
            /// The legacy array of stored imports -> one entry per import, or why it cannot be read.
            SplitLegacyImports split_legacy_imports (text: Page) -> Bytes(Result<LegacySplit, StoredError>);
            /// An import (id, files, model) -> the text to store under its own key.
            StoreEntry store_entry (id: Text, names: Texts, texts: Pages, model: MaybeText) -> Text(String);
            /// A source (handoff bytes) -> its `#sweep=` payload, or why it cannot be shared.
            ShareEncode share_encode (source: Bytes) -> Bytes(Result<String, CallError<ShareError>>);
            /// A `#sweep=` payload -> the source it holds, or why it cannot be read.
            ShareDecode share_decode (payload: Text) -> Bytes(Result<Source, ShareError>);
            /// A CSV of `timestamp,value` and what bare values count (`rps`, `users`) -> the load
            /// (`core::scenario::load_csv::field_load`), or why it cannot be read.
            ReadLoadCsv read_load_csv (text: Text, kind: Text) -> Bytes(Result<LoadProfile, FieldCsvError>);
            /// An `ExportRequest` (handoff bytes) -> the file's text, or why it was not written.
            Export write_export (request: Bytes) -> Bytes(Result<String, CallError<ExportError>>);
            /// Nothing -> the reference systems' `Source` (`core::import::reference`), off the
            /// first load.
            ReferenceSource reference_source () -> Bytes(Source);
            /// Nothing -> the whole bundled `Source` (`core::import::bundled::lm_arena_chat`): the
            /// page holds only its default model family from the start.
            BundledSource bundled_source () -> Bytes(Source);
        }
    };
}

/// Declares [`Call`] and [`answers`] from the list.
macro_rules! declare_calls {
    ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident ($ty:ty); )*) => {
        /// A call into the tools module: each is a function `src/bin/tools.rs` exports under
        /// [`Call::name`], and one typed function of the page's `tools_client`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Call {
            $( $(#[$doc])* $variant, )*
        }

        impl Call {
            /// Every call.
            pub const ALL: &'static [Call] = &[$(Call::$variant),*];

            /// The name the tools module exports the call under.
            pub fn name(self) -> &'static str {
                match self {
                    $( Call::$variant => stringify!($name), )*
                }
            }
        }

        /// The type of each call's answer, named after its call: what the tools module's
        /// function of the call returns, and what the page decodes.
        pub mod answers {
            use super::*;

            $( $(#[$doc])* pub type $variant = $ty; )*
        }
    };
}

crate::tool_calls!(declare_calls);

#[cfg(test)]
mod tests {
    use super::Call;

    #[test]
    fn the_tools_module_exports_one_function_per_call_and_no_other() {
        let tools = include_str!("../../bin/tools.rs");
        let exported: Vec<&str> = tools
            // Every `pub fn` of the tools module is a call's, exported under its name (its
            // helpers are private).
            .split("\npub fn ")
            .skip(1)
            .filter_map(|rest| rest.split('(').next())
            .collect();
        let mut names: Vec<&str> = Call::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        let mut exported = exported;
        exported.sort_unstable();
        assert_eq!(exported, names);
    }

    #[test]
    fn every_call_has_its_own_name() {
        let mut names: Vec<&str> = Call::ALL.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), Call::ALL.len());
        assert_eq!(Call::Export.name(), "write_export");
    }
}
