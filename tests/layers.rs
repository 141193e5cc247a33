//! The core's wings and the way their arrows run (issues 31 and 43). `src/core/` holds six
//! folders, each a layer; a wing's code may use only the wings listed before it in [`WINGS`]:
//!
//! - `model`: what was measured (statistics, deployments, rows, sweeps, per-request records,
//!   limits, formatting);
//! - `plan`: judgement on a sweep and an SLO (planner, attainment, flags, capacity and cost,
//!   comparison, chart geometry), never the URL;
//! - `import`: bytes to a source (every reader, share links, bundled data, stored imports);
//! - `scenario`: the URL (parameters, values, errors, resolution, routing);
//! - `text`: every sentence the fronts show;
//! - `wire`: the page <-> tools module protocol and the downloads.
//!
//! The check parses `src/lib.rs` and every file under `src/core/` with `syn` and resolves every
//! path a wing's code writes to the module it names, from the file's place in the module tree
//! (a wing's `mod.rs` is the wing's root): `use` trees (grouped, nested, renamed, glob, across
//! lines), paths in items, types, expressions and patterns, `crate::`, `self::`, `super::` and
//! `super::super::`, a name a `use` brought in (`use crate::core;` then `core::text::f()`, or
//! `use crate::core as c;` then `c::text::f()`), a name a glob brought in, a re-export (a `pub
//! use` in `core/mod.rs` or in another wing), a `#[macro_export]` macro (it lives at the crate
//! root: `crate::tool_calls!` counts as the wing defining it), and the paths in a macro's tokens
//! and an attribute's arguments (`$crate::core::text::f` in a `macro_rules!`, a `format!`
//! argument). A path that lands in a wing listed after the file's own fails, with the file and
//! the line. Test code is left out by its attribute, not by cutting the text: an item under
//! `#[cfg(test)]` (or `#[cfg(all(test, …))]`; a module, function, impl, `use`, field, …) and a
//! file named `tests.rs`; so that nothing hides there, a `mod tests;` outside `#[cfg(test)]`
//! fails, and so does a `#[path]` module (its place in the tree is not its folder's).
//! Comments and string literals are not code and are not read.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::too_many_lines,
    reason = "the workspace's gates are the shipped code's: a test's helper panics when the test fails"
)]

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use proc_macro2::{Spacing, Span, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, Ident, Meta, Token};

/// The wings, lowest first.
const WINGS: [&str; 6] = ["model", "plan", "import", "scenario", "text", "wire"];

/// How many names a path may go through (a `use` of a `use`, a re-export) before the check
/// gives it up: more than the code has, and an end to a cycle.
const DEPTH: usize = 8;

/// A module's place from the crate root: `["core", "plan", "period"]`.
type Module = Vec<String>;

/// The line `span` starts on (the place a finding names).
fn line(span: Span) -> usize {
    span.start().line
}

/// An identifier's name, without `r#`.
fn name(ident: &Ident) -> String {
    ident.to_string().trim_start_matches("r#").to_string()
}

/// What a path written in the code does.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Brings one name in (`use a::b;`, `use a::b as c;`).
    Use,
    /// Brings every name of a module in (`use a::*;`).
    Glob,
    /// Names something (a type, a function, a macro...).
    Plain,
}

/// A path written in a file's code, with the module it is written in.
struct Written {
    module: Module,
    path: Vec<String>,
    line: usize,
    kind: Kind,
    /// The name a `use` binds (`None` for `as _`, a glob or a plain path).
    binds: Option<String>,
}

/// What a file's code holds, read by [`Walker`]: every path it writes, the modules it
/// declares, its exported macros and what hides code from the check.
#[derive(Default)]
struct Walker {
    module: Module,
    written: Vec<Written>,
    declared: Vec<Module>,
    macros: Vec<String>,
    hidden: Vec<(usize, String)>,
}

/// True when the attributes keep an item to tests: `#[cfg(test)]`, `#[cfg(all(test, …))]`.
fn test_only(attrs: &[Attribute]) -> bool {
    fn tests_only(meta: &Meta) -> bool {
        match meta {
            Meta::Path(path) => path.is_ident("test"),
            Meta::List(list) if list.path.is_ident("all") => list
                .parse_args_with(syn::punctuated::Punctuated::<Meta, Token![,]>::parse_terminated)
                .is_ok_and(|all| all.iter().any(tests_only)),
            _ => false,
        }
    }
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && attr.parse_args::<Meta>().is_ok_and(|m| tests_only(&m))
    })
}

/// An item's attributes.
fn item_attrs(item: &syn::Item) -> &[Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

impl Walker {
    /// Keeps `path` (each segment with its line), written in the module walked.
    fn write(&mut self, path: Vec<(String, usize)>, kind: Kind, binds: Option<String>) {
        let Some(&(_, line)) = path.last() else {
            return;
        };
        self.written.push(Written {
            module: self.module.clone(),
            path: path.into_iter().map(|(segment, _)| segment).collect(),
            line,
            kind,
            binds,
        });
    }

    /// A `use` tree's leaf `ident` under `prefix`, binding `binds`.
    fn use_leaf(&mut self, prefix: &[(String, usize)], ident: &Ident, binds: Option<String>) {
        let mut path = prefix.to_vec();
        path.push((name(ident), line(ident.span())));
        self.write(path, Kind::Use, binds);
    }

    /// Every path of a `use` tree under `prefix`.
    fn use_tree(&mut self, tree: &syn::UseTree, prefix: &mut Vec<(String, usize)>) {
        use syn::UseTree;
        match tree {
            UseTree::Path(p) => {
                prefix.push((name(&p.ident), line(p.ident.span())));
                self.use_tree(&p.tree, prefix);
                prefix.pop();
            }
            UseTree::Name(n) if n.ident == "self" => {
                let binds = prefix.last().map(|(segment, _)| segment.clone());
                self.use_leaf(prefix, &n.ident, binds);
            }
            UseTree::Name(n) => self.use_leaf(prefix, &n.ident, Some(name(&n.ident))),
            UseTree::Rename(r) => {
                let binds = (r.rename != "_").then(|| name(&r.rename));
                self.use_leaf(prefix, &r.ident, binds);
            }
            UseTree::Glob(g) => {
                let mut path = prefix.clone();
                if let Some(last) = path.last_mut() {
                    last.1 = line(g.star_token.spans[0]);
                }
                self.write(path, Kind::Glob, None);
            }
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(tree, prefix);
                }
            }
        }
    }

    /// A module: declared, walked with its own place in the tree.
    fn module_item(&mut self, m: &syn::ItemMod) {
        let declared = [self.module.clone(), vec![name(&m.ident)]].concat();
        if m.attrs.iter().any(|a| a.path().is_ident("path")) {
            let what = format!(
                "#[path] mod {} (its place in the tree is not its folder's)",
                m.ident
            );
            self.hidden.push((line(m.ident.span()), what));
        }
        if m.content.is_none() && m.ident == "tests" {
            let what = "mod tests; outside #[cfg(test)] (a tests.rs is read as test code)";
            self.hidden.push((line(m.ident.span()), what.to_string()));
        }
        self.declared.push(declared.clone());
        let outer = std::mem::replace(&mut self.module, declared);
        visit::visit_item_mod(self, m);
        self.module = outer;
    }

    /// Every path in `tokens` (a macro's, an attribute's arguments), a `{…}` after `::` under
    /// its prefix.
    fn tokens(&mut self, tokens: TokenStream, prefix: &[(String, usize)]) {
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let mut i = 0;
        let mut element_start = true;
        while i < trees.len() {
            let at_start = std::mem::replace(&mut element_start, false);
            match &trees[i] {
                TokenTree::Ident(_) => {
                    let path = if at_start {
                        prefix.to_vec()
                    } else {
                        Vec::new()
                    };
                    i = self.token_path(&trees, i, path);
                    continue;
                }
                TokenTree::Punct(p) if p.as_char() == ',' => element_start = true,
                TokenTree::Punct(_) if path_separator(&trees, i) => {
                    // `::name::…`: a path into another crate.
                    i += 2;
                    while matches!(trees.get(i), Some(TokenTree::Ident(_))) {
                        if !path_separator(&trees, i + 1) {
                            i += 1;
                            break;
                        }
                        i += 3;
                    }
                    continue;
                }
                TokenTree::Group(g) => self.tokens(g.stream(), &[]),
                _ => {}
            }
            i += 1;
        }
    }

    /// The path in `trees` from the identifier at `i` on, after `path`; where it ends.
    fn token_path(
        &mut self,
        trees: &[TokenTree],
        mut i: usize,
        mut path: Vec<(String, usize)>,
    ) -> usize {
        loop {
            if let TokenTree::Ident(ident) = &trees[i] {
                path.push((name(ident), line(ident.span())));
            }
            if !path_separator(trees, i + 1) {
                self.write(path, Kind::Plain, None);
                return i + 1;
            }
            match trees.get(i + 3) {
                Some(TokenTree::Ident(_)) => i += 3,
                Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Brace => {
                    self.tokens(g.stream(), &path);
                    return i + 4;
                }
                _ => {
                    self.write(path, Kind::Plain, None);
                    return i + 3;
                }
            }
        }
    }
}

/// True when `trees[i..]` opens with `::`.
fn path_separator(trees: &[TokenTree], i: usize) -> bool {
    matches!(
        (trees.get(i), trees.get(i + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':'
    )
}

impl<'ast> Visit<'ast> for Walker {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if test_only(item_attrs(item)) {
            return;
        }
        match item {
            syn::Item::Mod(m) => self.module_item(m),
            syn::Item::Use(u) if u.leading_colon.is_some() => {}
            syn::Item::Use(u) => self.use_tree(&u.tree, &mut Vec::new()),
            syn::Item::Macro(m) => {
                if let Some(ident) = &m.ident {
                    if m.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
                        self.macros.push(name(ident));
                    }
                }
                visit::visit_item(self, item);
            }
            _ => visit::visit_item(self, item),
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[Attribute] = match item {
            syn::ImplItem::Const(i) => &i.attrs,
            syn::ImplItem::Fn(i) => &i.attrs,
            syn::ImplItem::Type(i) => &i.attrs,
            syn::ImplItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_trait_item(&mut self, item: &'ast syn::TraitItem) {
        let attrs: &[Attribute] = match item {
            syn::TraitItem::Const(i) => &i.attrs,
            syn::TraitItem::Fn(i) => &i.attrs,
            syn::TraitItem::Type(i) => &i.attrs,
            syn::TraitItem::Macro(i) => &i.attrs,
            _ => &[],
        };
        if !test_only(attrs) {
            visit::visit_trait_item(self, item);
        }
    }

    fn visit_field(&mut self, field: &'ast syn::Field) {
        if !test_only(&field.attrs) {
            visit::visit_field(self, field);
        }
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        if !test_only(&variant.attrs) {
            visit::visit_variant(self, variant);
        }
    }

    fn visit_local(&mut self, local: &'ast syn::Local) {
        if !test_only(&local.attrs) {
            visit::visit_local(self, local);
        }
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            let segments = path
                .segments
                .iter()
                .map(|s| (name(&s.ident), line(s.ident.span())))
                .collect();
            self.write(segments, Kind::Plain, None);
        }
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone(), &[]);
        visit::visit_macro(self, mac);
    }

    fn visit_meta_list(&mut self, list: &'ast syn::MetaList) {
        self.tokens(list.tokens.clone(), &[]);
        visit::visit_meta_list(self, list);
    }
}

/// A `use` (or glob) as the module it is written in sees it.
struct Binding {
    module: Module,
    path: Vec<String>,
}

/// The names of the code read: modules, what each `use` binds, globs, exported macros.
#[derive(Default)]
struct Names {
    modules: HashSet<Module>,
    /// `module + [name]` -> what the name stands for.
    bindings: HashMap<Module, Vec<Binding>>,
    /// A module -> the modules it brings every name of in.
    globs: HashMap<Module, Vec<Binding>>,
    /// A `#[macro_export]` macro's name -> the module defining it.
    macros: HashMap<String, Module>,
}

impl Names {
    /// Adds what `walker` read in the file of `module`.
    fn add(&mut self, walker: &Walker, module: &Module) {
        self.modules.insert(module.clone());
        self.modules.extend(walker.declared.iter().cloned());
        for name in &walker.macros {
            self.macros.insert(name.clone(), module.clone());
        }
        for w in &walker.written {
            let binding = || Binding {
                module: w.module.clone(),
                path: w.path.clone(),
            };
            match (w.kind, &w.binds) {
                (Kind::Use, Some(name)) => {
                    let key = [w.module.clone(), vec![name.clone()]].concat();
                    self.bindings.entry(key).or_default().push(binding());
                }
                (Kind::Glob, _) => self
                    .globs
                    .entry(w.module.clone())
                    .or_default()
                    .push(binding()),
                _ => {}
            }
        }
    }

    /// Every module or item (from the crate root) `path`, written in `module`, may name. A
    /// name a glob brought in counts where `globs` (a path as written in the code, of two
    /// segments or more: a local variable is not a glob's module; a `use`'s own path, read
    /// again for a name it bound, is read without them, so that globs do not chase globs).
    fn resolve(
        &self,
        module: &[String],
        path: &[String],
        globs: bool,
        depth: usize,
    ) -> Vec<Module> {
        let Some((first, rest)) = path.split_first() else {
            return Vec::new();
        };
        if depth > DEPTH {
            return Vec::new();
        }
        let starts = match first.as_str() {
            "crate" => vec![(Vec::new(), rest)],
            "self" | "super" => vec![(module.to_vec(), path)],
            first => self
                .first_name(module, first, globs && !rest.is_empty(), depth)
                .into_iter()
                .map(|start| (start, rest))
                .collect(),
        };
        let mut found = Vec::new();
        for (mut at, rest) in starts {
            let mut climbed_out = false;
            for segment in rest {
                match segment.as_str() {
                    "self" => {}
                    "super" => climbed_out |= at.pop().is_none(),
                    "crate" => climbed_out = true,
                    segment => at.push(segment.to_string()),
                }
            }
            if !climbed_out {
                found.extend(self.through_reexports(at, depth));
            }
        }
        found
    }

    /// What a path's first segment `first`, written in `module`, stands for: a name a `use`
    /// brought in, a child module, or (with `globs`) a name a glob brought in.
    fn first_name(&self, module: &[String], first: &str, globs: bool, depth: usize) -> Vec<Module> {
        let key = [module.to_vec(), vec![first.to_string()]].concat();
        if let Some(bindings) = self.bindings.get(&key) {
            return bindings
                .iter()
                .flat_map(|b| self.resolve(&b.module, &b.path, false, depth + 1))
                .collect();
        }
        if self.modules.contains(&key) {
            return vec![key];
        }
        if !globs {
            return Vec::new();
        }
        self.globs
            .get(module)
            .into_iter()
            .flatten()
            .flat_map(|g| self.resolve(&g.module, &g.path, false, depth + 1))
            .map(|source| [source, vec![first.to_string()]].concat())
            .collect()
    }

    /// `path` with its shortest prefix that a `use` bound (a re-export) replaced by what it
    /// names, again until none is left.
    fn through_reexports(&self, path: Module, depth: usize) -> Vec<Module> {
        for end in 1..=path.len() {
            if let Some(bindings) = self.bindings.get(&path[..end]) {
                return bindings
                    .iter()
                    .flat_map(|b| self.resolve(&b.module, &b.path, false, depth + 1))
                    .flat_map(|to| {
                        self.through_reexports([to, path[end..].to_vec()].concat(), depth + 1)
                    })
                    .collect();
            }
        }
        vec![path]
    }

    /// The wing `path` (from the crate root) is in.
    fn wing(&self, path: &[String]) -> Option<&'static str> {
        let module = match path {
            [only] => self.macros.get(only)?.as_slice(),
            path => path,
        };
        match module {
            [core, wing, ..] if core == "core" => WINGS.iter().copied().find(|w| w == wing),
            _ => None,
        }
    }
}

/// A file's module from its path under `src/` (`None` for a `tests.rs`, test code).
fn module_of(file: &str) -> Option<Module> {
    let mut module: Module = file
        .strip_prefix("src/")?
        .strip_suffix(".rs")?
        .split('/')
        .map(str::to_string)
        .collect();
    match module.last().map(String::as_str) {
        Some("tests") => return None,
        Some("mod") => {
            module.pop();
        }
        Some("lib") if module.len() == 1 => {
            module.pop();
        }
        _ => {}
    }
    Some(module)
}

/// What the check finds in `files` (each a path under `src/` and its text).
struct Checked {
    /// Every path out of a wing into one listed after it, and what hides code from the check,
    /// as `file:line: from -> to (path)`.
    found: Vec<String>,
    /// How many paths run from a wing into one listed before it (the arrows the check resolved).
    downward: usize,
}

/// What the check finds in `files` (each a path under `src/` and its text).
fn check(files: &[(String, String)]) -> Checked {
    let mut names = Names::default();
    let mut read = Vec::new();
    for (file, text) in files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let parsed = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut walker = Walker {
            module: module.clone(),
            ..Walker::default()
        };
        if !test_only(&parsed.attrs) {
            walker.visit_file(&parsed);
        }
        names.add(&walker, &module);
        read.push((file, module, walker));
    }
    let mut found = Vec::new();
    let mut downward = 0;
    for (file, module, walker) in &read {
        let Some(own) = names.wing(module) else {
            continue;
        };
        let rank = |wing| WINGS.iter().position(|w| *w == wing);
        for (line, what) in &walker.hidden {
            found.push(format!("{file}:{line}: {what}"));
        }
        for w in &walker.written {
            for to in names.resolve(&w.module, &w.path, true, 0) {
                match names.wing(&to) {
                    Some(wing) if rank(wing) > rank(own) => {
                        let star = if w.kind == Kind::Glob { "::*" } else { "" };
                        let path = w.path.join("::");
                        found.push(format!("{file}:{}: {own} -> {wing} ({path}{star})", w.line));
                    }
                    Some(wing) if rank(wing) < rank(own) => downward += 1,
                    _ => {}
                }
            }
        }
    }
    found.sort();
    found.dedup();
    Checked { found, downward }
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

#[test]
fn every_arrow_between_the_core_wings_runs_downward() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = rust_files(&root.join("src/core"));
    paths.push(root.join("src/lib.rs"));
    let files: Vec<(String, String)> = paths
        .iter()
        .map(|path| {
            let file = path.strip_prefix(root).expect("under the crate");
            let file = file.to_string_lossy().replace('\\', "/");
            (file, fs::read_to_string(path).expect("a source file"))
        })
        .collect();
    assert!(files.len() > 80, "{} files", files.len());
    let checked = check(&files);
    assert!(checked.found.is_empty(), "{:#?}", checked.found);
    assert!(checked.downward > 500, "{} arrows down", checked.downward);
}

#[test]
fn the_core_is_its_wings_and_nothing_else() {
    let core = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut entries: Vec<String> = fs::read_dir(&core)
        .expect("src/core")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    entries.sort();
    let mut expected: Vec<String> = WINGS.iter().map(|w| w.to_string()).collect();
    expected.push("mod.rs".to_string());
    expected.sort();
    assert_eq!(entries, expected);
}

/// What the check finds in one file `file` (under `src/`) holding `text`, beside a
/// `src/core/mod.rs` declaring the wings.
fn check_one(file: &str, text: &str) -> Vec<String> {
    let core = WINGS.map(|w| format!("pub mod {w};\n")).concat();
    check(&[
        ("src/core/mod.rs".to_string(), core),
        (file.to_string(), text.to_string()),
    ])
    .found
}

#[test]
fn the_check_sees_a_plain_upward_use() {
    let text = "use crate::core::model::Row;\nuse crate::core::text::Sentence;\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", text),
        ["src/core/plan/chart.rs:2: plan -> text (crate::core::text::Sentence)"]
    );
    assert!(check_one("src/core/wire/export.rs", text).is_empty());
}

#[test]
fn the_check_sees_a_grouped_use_on_one_line_or_across_lines() {
    let grouped = "use crate::core::{model::Row, text::{self, Sentence}};\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", grouped),
        [
            "src/core/plan/chart.rs:1: plan -> text (crate::core::text::Sentence)",
            "src/core/plan/chart.rs:1: plan -> text (crate::core::text::self)",
        ]
    );
    let split = "use crate::{\n    core::model::Row,\n    core::text::X,\n};\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", split),
        ["src/core/plan/chart.rs:3: plan -> text (crate::core::text::X)"]
    );
}

#[test]
fn the_check_sees_a_path_through_a_name_a_use_brought_in() {
    let text = "use crate::core;\n\npub fn f() -> String {\n    core::text::f()\n}\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", text),
        ["src/core/plan/chart.rs:4: plan -> text (core::text::f)"]
    );
    let renamed =
        "use crate::core as c;\nuse c::model;\n\nfn f() {\n    c::wire::g(model::x());\n}\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", renamed),
        ["src/core/plan/chart.rs:5: plan -> wire (c::wire::g)"]
    );
    let glob = "use crate::core::*;\n\nfn f() {\n    let text = 1;\n    text::g(text);\n}\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", glob),
        ["src/core/plan/chart.rs:5: plan -> text (text::g)"]
    );
    assert!(check_one("src/core/plan/chart.rs", "fn f() { core::mem::swap(a, b) }").is_empty());
}

#[test]
fn the_check_sees_super_and_self_from_the_files_place() {
    let up = "pub fn f() {\n    super::text::g();\n}\n";
    assert_eq!(
        check_one("src/core/plan/mod.rs", up),
        ["src/core/plan/mod.rs:2: plan -> text (super::text::g)"]
    );
    assert!(check_one("src/core/plan/chart.rs", up).is_empty());
    let twice = "use super::super::text::Sentence;\nuse super::super::model::Row;\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", twice),
        ["src/core/plan/chart.rs:1: plan -> text (super::super::text::Sentence)"]
    );
    let nested =
        "mod inner {\n    pub fn f() {\n        super::super::super::wire::g();\n    }\n}\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", nested),
        ["src/core/plan/chart.rs:3: plan -> wire (super::super::super::wire::g)"]
    );
    let through_self = "use super::text as words;\n\nfn f() {\n    self::words::g();\n}\n";
    assert_eq!(
        check_one("src/core/plan/mod.rs", through_self),
        [
            "src/core/plan/mod.rs:1: plan -> text (super::text)",
            "src/core/plan/mod.rs:4: plan -> text (self::words::g)",
        ]
    );
}

#[test]
fn the_check_reads_past_test_code_in_the_middle_of_a_file() {
    let text = "\
fn a() {}
#[cfg(test)]
mod tests {
    use crate::core::text::T;
}
#[cfg(test)]
fn helper() { crate::core::text::f() }
#[cfg(all(test, feature = \"page\"))]
use crate::core::wire::W;
struct S {
    #[cfg(test)]
    t: crate::core::text::T,
}
fn b() {
    crate::core::text::f();
}
#[cfg(any(test, feature = \"page\"))]
use crate::core::wire::W;
#[cfg(test)]
impl S {
    fn t() -> crate::core::text::T { crate::core::text::f() }
}
impl S {
    #[cfg(test)]
    fn u() { crate::core::wire::g() }
    fn v() { crate::core::wire::g() }
}
";
    assert_eq!(
        check_one("src/core/plan/chart.rs", text),
        [
            "src/core/plan/chart.rs:15: plan -> text (crate::core::text::f)",
            "src/core/plan/chart.rs:18: plan -> wire (crate::core::wire::W)",
            "src/core/plan/chart.rs:26: plan -> wire (crate::core::wire::g)",
        ]
    );
    let tests_file = "use crate::core::wire::W;\n";
    assert!(check_one("src/core/plan/chart/tests.rs", tests_file).is_empty());
}

#[test]
fn the_check_reads_the_paths_in_macros_and_attributes() {
    let text = "\
fn f() -> String {
    format!(\"{}\", crate::core::text::f())
}
macro_rules! m {
    () => { $crate::core::wire::Call };
}
m! { use crate::core::{model::A, scenario::B}; }
#[derive(crate::core::text::Derived)]
struct S;
fn g() {
    crate::tool_calls!(declare);
}
";
    let calls = "#[macro_export]\nmacro_rules! tool_calls { ($then:ident) => {}; }\n";
    let files = [
        ("src/core/mod.rs", "pub mod plan;\npub mod wire;\n"),
        ("src/core/plan/chart.rs", text),
        ("src/core/wire/calls.rs", calls),
    ];
    let files = files.map(|(file, text)| (file.to_string(), text.to_string()));
    assert_eq!(
        check(&files).found,
        [
            "src/core/plan/chart.rs:11: plan -> wire (crate::tool_calls)",
            "src/core/plan/chart.rs:2: plan -> text (crate::core::text::f)",
            "src/core/plan/chart.rs:5: plan -> wire (crate::core::wire::Call)",
            "src/core/plan/chart.rs:7: plan -> scenario (crate::core::scenario::B)",
            "src/core/plan/chart.rs:8: plan -> text (crate::core::text::Derived)",
        ]
    );
}

#[test]
fn the_check_sees_a_path_through_a_reexport() {
    let files = [
        (
            "src/core/mod.rs",
            "pub mod plan;\npub mod text;\npub use text::Sentence;\n",
        ),
        (
            "src/core/plan/mod.rs",
            "pub mod chart;\nuse crate::core::text as t;\n",
        ),
        (
            "src/core/plan/chart.rs",
            "use crate::core::Sentence;\nfn f() { super::t::g() }\n",
        ),
    ];
    let files = files.map(|(file, text)| (file.to_string(), text.to_string()));
    assert_eq!(
        check(&files).found,
        [
            "src/core/plan/chart.rs:1: plan -> text (crate::core::Sentence)",
            "src/core/plan/chart.rs:2: plan -> text (super::t::g)",
            "src/core/plan/mod.rs:2: plan -> text (crate::core::text)",
        ]
    );
}

#[test]
fn the_check_fails_on_code_it_would_not_read() {
    let text = "mod tests;\n#[path = \"elsewhere.rs\"]\nmod moved;\n#[cfg(test)]\nmod tests;\n";
    assert_eq!(
        check_one("src/core/plan/chart.rs", text),
        [
            "src/core/plan/chart.rs:1: mod tests; outside #[cfg(test)] (a tests.rs is read as test code)",
            "src/core/plan/chart.rs:3: #[path] mod moved (its place in the tree is not its folder's)",
        ]
    );
}
