//! The import graph between the files of a crate's `src`, read from the source text alone (no
//! dependencies): which file names which through `crate::`, `super::`, `self::` and child-module
//! paths, in `use` declarations and in code alike (tests included, comments and strings not).
//!
//! A path is charged to the file of the deepest module it names: `crate::game::Event` to
//! `game.rs`, even when `game.rs` only re-exports `Event`; `super::Bs` in `variants/bs/view.rs`
//! to `variants/bs/mod.rs`. So a file imports an item from the file that defines it, and a
//! folder's `mod.rs` that re-exports its children never also defines what they import. A
//! `#[macro_export]` macro named from the crate root (`crate::for_each_variant!`) is charged to
//! the file that defines it. Declaring a module (`mod view;`) imports nothing.
//!
//! Shared by the rules crate's `tests/imports.rs` and the server crate's.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its path under `src` and its module path.
struct Source {
    path: String,
    module: Vec<String>,
    tokens: Vec<(Token, usize)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Open,
    Close,
    Semi,
    Comma,
    Star,
    Bang,
    Lt,
    Pound,
    Other,
}

/// One import: the line in the importing file and the path as resolved.
#[derive(Clone, Debug)]
pub struct Import {
    /// The importing file (under `src`).
    pub from: String,
    /// The imported file (under `src`), or, for another crate, `extern:PATH`.
    pub to: String,
    /// The line of the path in `from`.
    pub line: usize,
    /// The path as written, its segments joined by `::`.
    pub text: String,
}

/// The import graph of one crate.
pub struct Graph {
    /// Every import, in file order.
    pub imports: Vec<Import>,
    /// Every file, under `src`.
    pub files: Vec<String>,
}

fn tokenize(text: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let n = chars.len();
    let ident_start = |c: char| c.is_alphabetic() || c == '_';
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    while i < n {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < n && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut depth = 0;
            while i < n {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if c == 'r' && (chars.get(i + 1) == Some(&'#') || chars.get(i + 1) == Some(&'"'))
            || c == 'b'
                && chars.get(i + 1) == Some(&'r')
                && matches!(chars.get(i + 2), Some('#' | '"'))
        {
            // A raw string (`r#"..."#`, `br"..."`), or a raw identifier (`r#type`).
            let mut j = if c == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                let start = j;
                while j < n && ident_char(chars[j]) {
                    j += 1;
                }
                tokens.push((Token::Ident(chars[start..j].iter().collect()), line));
                i = j;
                continue;
            }
            j += 1;
            loop {
                if j >= n {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                if chars[j] == '\n' {
                    line += 1;
                }
                j += 1;
            }
            tokens.push((Token::Other, line));
            i = j;
        } else if c == '"' || (c == 'b' && chars.get(i + 1) == Some(&'"')) {
            let mut j = if c == 'b' { i + 2 } else { i + 1 };
            while j < n && chars[j] != '"' {
                if chars[j] == '\\' {
                    j += 1;
                }
                if j < n && chars[j] == '\n' {
                    line += 1;
                }
                j += 1;
            }
            tokens.push((Token::Other, line));
            i = j + 1;
        } else if c == '\'' || (c == 'b' && chars.get(i + 1) == Some(&'\'')) {
            // A character literal, or a lifetime.
            let j = if c == 'b' { i + 2 } else { i + 1 };
            if chars.get(j) == Some(&'\\') {
                let mut k = j + 1;
                while k < n && chars[k] != '\'' {
                    k += 1;
                }
                i = k + 1;
            } else if chars.get(j + 1) == Some(&'\'') {
                i = j + 2;
            } else {
                // A lifetime: skip the quote, the name follows as an identifier.
                i = j;
            }
            tokens.push((Token::Other, line));
        } else if c == '$' && chars[i + 1..].starts_with(&['c', 'r', 'a', 't', 'e']) {
            tokens.push((Token::Ident("$crate".into()), line));
            i += 6;
        } else if ident_start(c) {
            let start = i;
            while i < n && ident_char(chars[i]) {
                i += 1;
            }
            tokens.push((Token::Ident(chars[start..i].iter().collect()), line));
        } else if c.is_ascii_digit() {
            while i < n && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push((Token::Other, line));
        } else {
            let token = match c {
                ':' if chars.get(i + 1) == Some(&':') => {
                    i += 1;
                    Token::Path
                }
                '{' => Token::Open,
                '}' => Token::Close,
                ';' => Token::Semi,
                ',' => Token::Comma,
                '*' => Token::Star,
                '!' => Token::Bang,
                '<' => Token::Lt,
                '#' => Token::Pound,
                _ => Token::Other,
            };
            tokens.push((token, line));
            i += 1;
        }
    }
    tokens
}

/// The module path of a file under `src` (`variants/bs/mod.rs` is `variants::bs`).
fn module_of(path: &str) -> Vec<String> {
    let path = path.strip_suffix(".rs").expect("a Rust file");
    let mut parts: Vec<String> = path.split('/').map(String::from).collect();
    let last = parts.last().cloned().unwrap_or_default();
    if last == "mod" || (parts.len() == 1 && (last == "lib" || last == "main")) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, under: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, under, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(under).expect("under src");
            out.push(relative.to_string_lossy().replace('\\', "/"));
        }
    }
}

impl Graph {
    /// Reads every file under `src` and resolves its paths.
    pub fn of(src: &Path) -> Graph {
        let mut paths = Vec::new();
        rust_files(src, src, &mut paths);
        let sources: Vec<Source> = paths
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(src.join(path)).expect("readable source");
                Source {
                    path: path.clone(),
                    module: module_of(path),
                    tokens: tokenize(&text),
                }
            })
            .collect();
        // Every module, file or inline, and the file it lives in.
        let mut modules: BTreeMap<Vec<String>, usize> = BTreeMap::new();
        let mut macros: BTreeMap<String, usize> = BTreeMap::new();
        for (index, source) in sources.iter().enumerate() {
            modules.insert(source.module.clone(), index);
            walk(source, |scope, _, event| match event {
                Walk::Module(name) => {
                    let mut module = scope.to_vec();
                    module.push(name.to_string());
                    modules.entry(module).or_insert(index);
                }
                Walk::ExportedMacro(name) => {
                    macros.insert(name.to_string(), index);
                }
                Walk::Path(..) => {}
            });
        }
        let mut imports = Vec::new();
        for source in &sources {
            walk(source, |scope, line, event| {
                let Walk::Path(segments) = event else {
                    return;
                };
                if let Some(to) = resolve(scope, segments, &modules, &macros) {
                    let to = match to {
                        Target::File(i) => sources[i].path.clone(),
                        Target::Extern(path) => format!("extern:{path}"),
                    };
                    if to != source.path {
                        imports.push(Import {
                            from: source.path.clone(),
                            to,
                            line,
                            text: segments.join("::"),
                        });
                    }
                }
            });
        }
        Graph {
            imports,
            files: paths,
        }
    }

    /// The files each file imports.
    pub fn edges(&self) -> BTreeMap<&str, BTreeSet<&str>> {
        let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for import in &self.imports {
            if !import.to.starts_with("extern:") {
                edges.entry(&import.from).or_default().insert(&import.to);
            }
        }
        edges
    }

    /// The first import of `to` by `from`.
    pub fn example(&self, from: &str, to: &str) -> Option<&Import> {
        self.imports.iter().find(|i| i.from == from && i.to == to)
    }

    /// Every pair of files that import each other, as `a <-> b` (`a` first by name).
    pub fn pairs(&self) -> Vec<String> {
        let edges = self.edges();
        let mut found = Vec::new();
        for (a, targets) in &edges {
            for b in targets {
                if a < b && edges.get(b).is_some_and(|back| back.contains(a)) {
                    found.push(format!("{a} <-> {b}"));
                }
            }
        }
        found
    }

    /// A pair of [`Graph::pairs`] with an import of each direction, for messages.
    pub fn explain(&self, pair: &str) -> String {
        let (a, b) = pair.split_once(" <-> ").expect("a pair");
        let line = |from: &str, to: &str| {
            self.example(from, to).map_or("no import".to_string(), |i| {
                format!("{from}:{} names {}", i.line, i.text)
            })
        };
        format!("{pair}: {}; {}", line(a, b), line(b, a))
    }

    /// The files on import cycles, one group (a strongly connected component of more than one
    /// file) a line.
    pub fn cycles(&self) -> Vec<String> {
        let edges = self.edges();
        let files: Vec<&str> = self.files.iter().map(String::as_str).collect();
        // Kosaraju: finishing order on the graph, then components on the reversed graph.
        let mut order = Vec::new();
        let mut seen = BTreeSet::new();
        fn visit<'a>(
            f: &'a str,
            edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
            seen: &mut BTreeSet<&'a str>,
            order: &mut Vec<&'a str>,
        ) {
            if !seen.insert(f) {
                return;
            }
            for &t in edges.get(f).into_iter().flatten() {
                visit(t, edges, seen, order);
            }
            order.push(f);
        }
        for &f in &files {
            visit(f, &edges, &mut seen, &mut order);
        }
        let mut reversed: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (a, targets) in &edges {
            for b in targets {
                reversed.entry(b).or_default().insert(a);
            }
        }
        let mut assigned = BTreeSet::new();
        let mut groups = Vec::new();
        for &f in order.iter().rev() {
            let mut group = Vec::new();
            visit(f, &reversed, &mut assigned, &mut group);
            if group.len() > 1 {
                group.sort();
                groups.push(group.join(", "));
            }
        }
        groups
    }

    /// Every import, by a file outside `variants/`, of a file in a variant's folder
    /// (`variants/NAME/...`), and every path into another crate's variant folder
    /// (`bluffchess_rules::variants::NAME`).
    pub fn variant_folder_imports(&self) -> Vec<String> {
        self.imports
            .iter()
            .filter(|i| {
                let into_folder = i.to.starts_with("variants/")
                    && i.to.matches('/').count() >= 2
                    && !i.from.starts_with("variants/");
                let segments: Vec<&str> = i.text.split("::").collect();
                let into_other = i.to.starts_with("extern:")
                    && segments.len() >= 3
                    && segments[0] == "bluffchess_rules"
                    && segments[1] == "variants"
                    && segments[2].starts_with(|c: char| c.is_lowercase());
                into_folder || into_other
            })
            .map(|i| format!("{}:{} names {}", i.from, i.line, i.text))
            .collect()
    }
}

enum Walk<'a> {
    /// An inline `mod NAME {`.
    Module(&'a str),
    /// `#[macro_export] macro_rules! NAME`.
    ExportedMacro(&'a str),
    /// A path of two segments or more, groups expanded (`use a::{b, c::d}` gives `a::b` and
    /// `a::c::d`); a glob gives its prefix.
    Path(&'a [String]),
}

/// Walks a file's tokens, calling `f` with the module scope (the file's module and the inline
/// modules around the token), the line, and what was found.
fn walk(source: &Source, mut f: impl FnMut(&[String], usize, Walk<'_>)) {
    let tokens = &source.tokens;
    let mut scope = source.module.clone();
    // The brace depth at which each inline module closes.
    let mut closes: Vec<usize> = Vec::new();
    let mut depth = 0;
    let mut exported = false;
    let mut i = 0;
    let ident = |k: usize| match tokens.get(k) {
        Some((Token::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        match token {
            Token::Open => {
                depth += 1;
                i += 1;
            }
            Token::Close => {
                if closes.last() == Some(&depth) {
                    closes.pop();
                    scope.pop();
                }
                depth -= 1;
                i += 1;
            }
            Token::Pound => {
                // `#[macro_export]`
                if ident(i + 2) == Some("macro_export") {
                    exported = true;
                }
                i += 1;
            }
            Token::Ident(word) if word == "macro_rules" => {
                if exported {
                    if let Some(name) = ident(i + 2) {
                        f(&scope, *line, Walk::ExportedMacro(name));
                    }
                }
                exported = false;
                i += 1;
            }
            Token::Ident(word)
                if word == "mod"
                    && ident(i + 1).is_some()
                    && matches!(tokens.get(i + 2), Some((Token::Open, _))) =>
            {
                let name = ident(i + 1).expect("a name").to_string();
                f(&scope, *line, Walk::Module(&name));
                scope.push(name);
                depth += 1;
                closes.push(depth);
                i += 3;
            }
            Token::Ident(_)
                if !matches!(tokens.get(i.wrapping_sub(1)), Some((Token::Path, _))) || i == 0 =>
            {
                let mut paths = Vec::new();
                let end = read_path(tokens, i, Vec::new(), &mut paths);
                for (segments, line) in &paths {
                    if segments.len() >= 2 {
                        f(&scope, *line, Walk::Path(segments));
                    }
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
}

/// Reads a path from token `i` (groups expanded, each full path pushed with its line); returns
/// the index after it.
fn read_path(
    tokens: &[(Token, usize)],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let line = tokens[i].1;
    while let Some((Token::Ident(s), _)) = tokens.get(i) {
        prefix.push(s.clone());
        i += 1;
        match tokens.get(i) {
            Some((Token::Path, _)) => i += 1,
            _ => {
                out.push((prefix, line));
                return i;
            }
        }
        match tokens.get(i) {
            Some((Token::Open, _)) => {
                // A group: items separated by commas, each a path, `self` or `*`.
                i += 1;
                loop {
                    match tokens.get(i) {
                        Some((Token::Close, _)) => return i + 1,
                        Some((Token::Comma, _)) => i += 1,
                        Some((Token::Star, _)) => {
                            out.push((prefix.clone(), line));
                            i += 1;
                        }
                        Some((Token::Ident(s), _)) if s == "self" => {
                            out.push((prefix.clone(), line));
                            i += 1;
                        }
                        Some((Token::Ident(s), _)) if s == "as" => i += 2,
                        Some((Token::Ident(_), _)) => i = read_path(tokens, i, prefix.clone(), out),
                        Some(_) => i += 1,
                        None => return i,
                    }
                }
            }
            Some((Token::Star, _)) | Some((Token::Lt, _)) => {
                out.push((prefix, line));
                return i + 1;
            }
            _ => {}
        }
    }
    out.push((prefix, line));
    i
}

enum Target {
    File(usize),
    Extern(String),
}

/// The file a path names, if it names one of this crate's (or another crate's).
fn resolve(
    scope: &[String],
    segments: &[String],
    modules: &BTreeMap<Vec<String>, usize>,
    macros: &BTreeMap<String, usize>,
) -> Option<Target> {
    let mut module: Vec<String>;
    let mut rest = segments;
    match segments[0].as_str() {
        "crate" | "$crate" => {
            module = Vec::new();
            rest = &segments[1..];
        }
        "self" => {
            module = scope.to_vec();
            rest = &segments[1..];
        }
        "super" => {
            module = scope.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                module.pop()?;
                rest = &rest[1..];
            }
        }
        "bluffchess_rules" | "bluffchess_ai" | "bluffchess_server" => {
            return Some(Target::Extern(segments.join("::")));
        }
        first => {
            let mut child = scope.to_vec();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
            module = scope.to_vec();
        }
    }
    for segment in rest {
        let mut child = module.clone();
        child.push(segment.clone());
        if modules.contains_key(&child) {
            module = child;
        } else {
            if module.is_empty() {
                if let Some(&file) = macros.get(segment) {
                    return Some(Target::File(file));
                }
            }
            break;
        }
    }
    // The file an inline module lives in is the file of its nearest module with a file.
    loop {
        if let Some(&file) = modules.get(&module) {
            return Some(Target::File(file));
        }
        module.pop()?;
    }
}
