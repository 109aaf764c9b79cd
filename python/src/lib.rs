//! The extension module `bluffchess._bluffchess`: every variant's games, beliefs, observation
//! tensors and action indices, a batch of games stepped in Rust, and the project's bots. The
//! Python package `bluffchess` re-exports it and adds the OpenSpiel and PettingZoo adapters.

mod batch;
mod convert;
mod core;
mod encode;
mod error;
mod planes;
mod py_batch;
mod py_belief;
mod py_bot;
mod py_game;
mod table;
mod variant;

use crate::convert::{array_bytes, array_f32, json_text, outcome_dict, refused, RulesError};
use crate::core::{observe_view, unknown_variant};
use crate::py_batch::PyBatch;
use crate::py_belief::PyBelief;
use crate::py_bot::PyBot;
use crate::py_game::{_restore, PyGame};
use crate::variant::{with_variant, Variant, VariantVisitor};
use bluffchess_rules::VARIANTS;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// The module's allocator: glibc's locks an arena for each allocation, and a batch's threads,
/// growing games that another thread allocated, waited on each other's locks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Checks a game record (a dict or JSON text, as `Game.record()` gives it) as `bluffchess verify`
/// does: replays every action, checks every public text, digest and opening against its
/// commitment, the seed and every roll, and the outcome. Returns the outcome (None for a game
/// not over); a record that fails raises RulesError naming the first bad entry.
#[pyfunction]
fn verify<'py>(py: Python<'py>, record: &Bound<'_, PyAny>) -> PyResult<Option<Bound<'py, PyDict>>> {
    let json = json_text(record)?;
    let record: bluffchess_rules::Record =
        serde_json::from_str(&json).map_err(|e| refused(format!("not a record: {e}")))?;
    let outcome = bluffchess_rules::verify(&record)
        .map_err(|e| refused(format!("record rejected ({}): {e}", e.id())))?;
    outcome_dict(py, outcome)
}

/// Every variant: `[{"id", "name", "summary", "hidden", "chance", "premove", "options":
/// [{"name", "values", "default", "description"}]}]` (the facts as `VariantSpec` defines them).
#[pyfunction]
fn variants<'py>(py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    for spec in VARIANTS {
        let dict = PyDict::new(py);
        dict.set_item("id", spec.id)?;
        dict.set_item("name", spec.name)?;
        dict.set_item("summary", spec.summary)?;
        dict.set_item("hidden", spec.hidden)?;
        dict.set_item("chance", spec.chance)?;
        dict.set_item("premove", spec.premove)?;
        let options = PyList::empty(py);
        for option in spec.options {
            let o = PyDict::new(py);
            o.set_item("name", option.name)?;
            o.set_item("values", option.values.to_vec())?;
            o.set_item("default", option.default)?;
            o.set_item("description", option.description)?;
            options.append(o)?;
        }
        dict.set_item("options", options)?;
        list.append(dict)?;
    }
    Ok(list)
}

fn table_of(variant: &str) -> PyResult<&'static table::Table> {
    struct TableOf;
    impl VariantVisitor for TableOf {
        type Output = &'static table::Table;
        fn visit<G: Variant>(self) -> Self::Output {
            G::table()
        }
    }
    with_variant(variant, TableOf).ok_or_else(|| refused(unknown_variant(variant)))
}

fn layout_of(variant: &str) -> PyResult<&'static planes::Layout> {
    struct LayoutOf;
    impl VariantVisitor for LayoutOf {
        type Output = &'static planes::Layout;
        fn visit<G: Variant>(self) -> Self::Output {
            G::layout()
        }
    }
    with_variant(variant, LayoutOf).ok_or_else(|| refused(unknown_variant(variant)))
}

/// Every action of the variant's action space, by index.
#[pyfunction]
fn action_texts(variant: &str) -> PyResult<Vec<String>> {
    Ok(table_of(variant)?.texts.clone())
}

/// Each action's from and to cells on the observation grid (`rank * files + file`; -1 where the
/// action has none): an int32 array of shape (num_actions, 2).
#[pyfunction]
fn action_cells<'py>(py: Python<'py>, variant: &str) -> PyResult<Bound<'py, PyAny>> {
    let cells: Vec<u8> = table_of(variant)?
        .cells
        .iter()
        .flatten()
        .flat_map(|c| c.to_ne_bytes())
        .collect();
    array_bytes(py, &cells, "int32", &[cells.len() / 8, 2])
}

/// The observation of a seat's view (a dict or JSON text), computed from the view alone: equal
/// to `Game.observation(seat)` of the game the view was taken from.
#[pyfunction]
fn observation_from_view<'py>(
    py: Python<'py>,
    view: &Bound<'_, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let json = json_text(view)?;
    let (data, layout) = observe_view(&json).map_err(refused)?;
    array_f32(
        py,
        &data,
        &[layout.planes.len(), layout.height, layout.width],
    )
}

/// The observation planes' names of a variant.
#[pyfunction]
fn observation_planes(variant: &str) -> PyResult<Vec<String>> {
    Ok(layout_of(variant)?.planes.clone())
}

/// The observation's shape of a variant: (planes, ranks, files).
#[pyfunction]
fn observation_shape(variant: &str) -> PyResult<(usize, usize, usize)> {
    let layout = layout_of(variant)?;
    Ok((layout.planes.len(), layout.height, layout.width))
}

/// bluffchess: chess variants with hidden information, for research.
#[pymodule]
fn _bluffchess(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyBelief>()?;
    m.add_class::<PyBatch>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(action_texts, m)?)?;
    m.add_function(wrap_pyfunction!(action_cells, m)?)?;
    m.add_function(wrap_pyfunction!(observation_planes, m)?)?;
    m.add_function(wrap_pyfunction!(observation_from_view, m)?)?;
    m.add_function(wrap_pyfunction!(observation_shape, m)?)?;
    Ok(())
}
