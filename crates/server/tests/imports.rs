//! The server's files import one another one way only: no two files import each other, and no
//! file names a variant's folder of the rules crate (`bluffchess_rules::variants::bs::...`); the
//! variants reach the server through the rules crate's one list. The check is the rules crate's
//! (`crates/rules/tests/imports/check.rs`, docs/architecture.md).

#[path = "../../rules/tests/imports/check.rs"]
mod check;

use std::path::Path;

/// Pairs of files that import each other today. Issue 25 (the server's split of `game.rs`, its
/// typed messages and errors) removes them: the list may only shrink, so a new pair fails, and
/// so does a listed pair once it is gone (strike it from the list).
const KNOWN_PAIRS: &[&str] = &[
    "api.rs <-> openapi.rs",
    "api.rs <-> request.rs",
    "game.rs <-> hub.rs",
    "hub.rs <-> lib.rs",
    "openapi.rs <-> web.rs",
];

fn graph() -> check::Graph {
    check::Graph::of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_two_files_import_each_other() {
    let graph = graph();
    let pairs = graph.pairs();
    let new: Vec<String> = pairs
        .iter()
        .filter(|p| !KNOWN_PAIRS.contains(&p.as_str()))
        .map(|p| graph.explain(p))
        .collect();
    assert!(
        new.is_empty(),
        "files that import each other:\n{}",
        new.join("\n")
    );
    let gone: Vec<&&str> = KNOWN_PAIRS
        .iter()
        .filter(|p| !pairs.iter().any(|q| q == **p))
        .collect();
    assert!(
        gone.is_empty(),
        "no longer import each other (strike them from KNOWN_PAIRS): {gone:?}"
    );
}

#[test]
fn no_file_names_a_variant_folder() {
    let found = graph().variant_folder_imports();
    assert!(
        found.is_empty(),
        "imports of a variant's folder:\n{}",
        found.join("\n")
    );
}
