//! The calls of the tools module (`src/bin/tools.rs`, run in a Web Worker), declared once in
//! [`tool_calls!`](crate::tool_calls): each call's variant, the name the tools module exports it
//! under, its arguments in the order the worker passes them (each a name and a kind) and its
//! answer's kind. From that one list come [`Call`] and [`Call::name`] here, a typed argument
//! struct per call on the page (`tools_client::args`, named fields, so swapped arguments do not
//! compile), and on the tools module's side a check that each export takes exactly those
//! arguments, in that order, and answers that kind.
//!
//! The kinds, as the page holds them and as the tools module receives them:
//!
//! | kind | page | tools module |
//! |---|---|---|
//! | `Text` | `&str` | `&str` |
//! | `MaybeText` | `Option<&str>` | `Option<String>` |
//! | `Texts` | `&[String]` | `Vec<String>` |
//! | `Bytes` | `&[u8]` | `&[u8]` (an answer: `Vec<u8>`) |
//! | `Page` | a page text (a JS string) | `&str` |
//! | `Pages` | page texts (JS strings, or picked files) | `Vec<JsValue>` |

/// Hands the list of the tools module's calls to the macro `$then`, as items of the form
/// `/// docs` `Variant export_name (arg: Kind, ...) -> AnswerKind;` (see the module's table of
/// kinds). Adding a call is one item here, its export in `src/bin/tools.rs` and its typed
/// function in `tools_client`; a mismatch between the three does not compile.
#[macro_export]
macro_rules! tool_calls {
    ($then:ident) => {
        $then! {
            /// An ML.ENERGY task file -> `Result<Source, String>`.
            ParseTaskFile parse_task_file (text: Text) -> Bytes;
            /// Files (names, and picked files or texts), the dialog's model -> `ImportReply`.
            ImportFiles import_files (names: Texts, texts: Pages, model: MaybeText) -> Bytes;
            /// One stored import's text -> `Result<StoredSource, String>`.
            StoredSource stored_source (text: Page) -> Bytes;
            /// The legacy array of stored imports -> `Result<LegacySplit, String>`.
            SplitLegacyImports split_legacy_imports (text: Page) -> Bytes;
            /// An import (id, files, model) -> the text to store under its own key.
            StoreEntry store_entry (id: Text, names: Texts, texts: Pages, model: MaybeText) -> Text;
            /// A source (handoff bytes) -> `Result<String, String>`: its `#sweep=` payload.
            ShareEncode share_encode (source: Bytes) -> Bytes;
            /// A `#sweep=` payload -> `Result<Source, String>`.
            ShareDecode share_decode (payload: Text) -> Bytes;
            /// A CSV of `timestamp,value` and what bare values count (`rps`, `users`) ->
            /// `Result<String, String>`: the load in the link's form (`core::scenario::load_csv`).
            ReadLoadCsv read_load_csv (text: Text, kind: Text) -> Bytes;
            /// An `ExportRequest` (handoff bytes) -> `Result<String, String>`: the file's text.
            Export write_export (request: Bytes) -> Bytes;
            /// Nothing -> the reference systems' `Source` (`core::import::reference`), off the
            /// first load.
            ReferenceSource reference_source () -> Bytes;
            /// Nothing -> the whole bundled `Source` (`core::import::bundled::lm_arena_chat`): the
            /// page holds only its default model family from the start.
            BundledSource bundled_source () -> Bytes;
        }
    };
}

/// Declares [`Call`] from the list.
macro_rules! declare_calls {
    ($( $(#[$doc:meta])* $variant:ident $name:ident ( $($arg:ident : $kind:ident),* ) -> $answer:ident; )*) => {
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
            // Every `pub fn` of the tools module is an export (its helpers are private).
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
