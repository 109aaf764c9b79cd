//! The files of the rules crate import one another one way only (docs/architecture.md): no two
//! files import each other, no file is on an import cycle, and no file outside `variants/` names
//! a variant's folder: the crate reaches the variants through the one list of them,
//! `for_each_variant!` in `variants/mod.rs`. A path is charged to the file that defines the module
//! it names (see `imports/check.rs`), so a folder's `mod.rs` re-exports its files but defines
//! nothing they import.

#[path = "imports/check.rs"]
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
fn only_the_variants_folder_names_a_variant() {
    let found = graph().variant_folder_imports();
    assert!(
        found.is_empty(),
        "imports of a variant's folder:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_what_it_checks() {
    let graph = graph();
    let imports = |from: &str, to: &str| graph.example(from, to).is_some();
    // A `use` with a group, a path in code, a `super::` path and the list's macro.
    assert!(imports("game.rs", "seat.rs"));
    assert!(imports("any.rs", "variants/mod.rs"));
    assert!(imports("variants/bs/view.rs", "variants/bs/state.rs"));
    assert!(imports(
        "variants/chess/mod.rs",
        "variants/chess/actions.rs"
    ));
    assert!(imports("arbiter.rs", "commitment.rs"));
    // Declaring a module is not importing it.
    assert!(!imports("lib.rs", "playout.rs"));
    assert!(graph.files.len() > 80, "{}", graph.files.len());
}

#[test]
fn the_check_finds_pairs_cycles_and_variant_folders() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("imports-check");
    let _ = std::fs::remove_dir_all(&dir);
    let files = [
        (
            "lib.rs",
            "mod a;\nmod b;\nmod c;\nmod variants;\npub use a::A;\n",
        ),
        // A pair: a names b in a group, b names a in code; strings and comments do not count.
        (
            "a.rs",
            "use crate::{b::B, c};\npub struct A; // crate::c::C\n",
        ),
        (
            "b.rs",
            "pub struct B;\nfn f() { let _ = crate::a::A; let _ = \"crate::c\"; }\n",
        ),
        // A longer cycle through a macro: c uses the list, which names d, which names x, which names c.
        ("c.rs", "crate::list!();\n"),
        (
            "variants/mod.rs",
            "pub mod x;\n#[macro_export]\nmacro_rules! list { () => { $crate::d::D } }\n",
        ),
        (
            "variants/x/mod.rs",
            "mod inner { use super::super::super::c; }\n",
        ),
        ("d.rs", "use crate::variants::x::Y;\n"),
    ];
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let graph = check::Graph::of(&dir);
    assert_eq!(graph.pairs(), ["a.rs <-> b.rs"]);
    assert_eq!(
        graph.cycles(),
        [
            "a.rs, b.rs",
            "c.rs, d.rs, variants/mod.rs, variants/x/mod.rs"
        ]
    );
    assert_eq!(
        graph.variant_folder_imports(),
        ["d.rs:1 names crate::variants::x::Y"]
    );
    assert!(graph.example("c.rs", "b.rs").is_none());
}
