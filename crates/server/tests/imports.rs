//! The server's files import one another one way only: no two files import each other, no file
//! is on an import cycle, and no file names a variant's folder of the rules crate
//! (`bluffchess_rules::variants::bs::...`); the variants reach the server through the rules
//! crate's one list. The check is the rules crate's (`crates/rules/tests/imports/check.rs`,
//! docs/architecture.md).

#[path = "../../rules/tests/imports/check.rs"]
mod check;

use std::path::Path;

fn graph() -> check::Graph {
    check::Graph::of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_two_files_import_each_other() {
    let graph = graph();
    let pairs: Vec<String> = graph.pairs().iter().map(|p| graph.explain(p)).collect();
    assert!(
        pairs.is_empty(),
        "files that import each other:\n{}",
        pairs.join("\n")
    );
}

#[test]
fn no_file_is_on_an_import_cycle() {
    let cycles = graph().cycles();
    assert!(
        cycles.is_empty(),
        "files on import cycles:\n{}",
        cycles.join("\n")
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
