//! `bluffchess.Belief`: what one seat knows, rebuilt from its view alone.

use crate::convert::{from_json, json_text, refused};
use crate::core::{belief_from_view, BeliefCore, Core};
use crate::py_game::PyGame;
use pyo3::prelude::*;

/// What one seat knows, rebuilt from its view alone: its legal actions, games drawn consistent
/// with it, and the key of its information set.
#[pyclass(module = "bluffchess", name = "Belief")]
pub struct PyBelief {
    core: Box<dyn BeliefCore>,
}

#[pymethods]
impl PyBelief {
    /// Rebuilds a seat's knowledge from its view: a dict (as `Game.view` gives it) or JSON
    /// text (as the arbiter, the server or `Game.view_json` gives it). An impossible or
    /// malformed view raises RulesError.
    #[staticmethod]
    fn from_view(view: &Bound<'_, PyAny>) -> PyResult<PyBelief> {
        let json = json_text(view)?;
        belief_from_view(&json)
            .map(|core| PyBelief { core })
            .map_err(refused)
    }

    /// The variant id.
    #[getter]
    fn variant(&self) -> &'static str {
        self.core.variant()
    }

    /// Whose knowledge it is: `"white"`, `"black"` or `"spectator"`.
    #[getter]
    fn seat(&self) -> &'static str {
        self.core.seat().name()
    }

    /// The key of the information set: equal to `Game.info_key(seat)` of every sample.
    #[getter]
    fn key(&self) -> u64 {
        self.core.key()
    }

    /// Whether a setup is due for the seat.
    #[getter]
    fn setup_due(&self) -> bool {
        self.core.setup_due()
    }

    /// The seat's legal actions when it is to act (else empty).
    fn legal_actions(&self) -> Vec<String> {
        self.core.legal_texts()
    }

    /// A whole game drawn consistent with the view, from a generator seeded by `seed` (the same
    /// view and seed, the same game): its view for the seat equals the given one, commitments
    /// aside. The game keeps its events but no record.
    #[pyo3(signature = (seed=0))]
    fn sample(&self, py: Python<'_>, seed: u64) -> PyGame {
        let core = py.detach(|| self.core.sample(seed));
        PyGame::wrap(core)
    }

    /// `count` games, drawn with seeds `seed`, `seed + 1`, ...
    #[pyo3(signature = (count, seed=0))]
    fn samples(&self, py: Python<'_>, count: usize, seed: u64) -> Vec<PyGame> {
        let cores: Vec<Box<dyn Core>> = py.detach(|| {
            (0..count as u64)
                .map(|i| self.core.sample(seed.wrapping_add(i)))
                .collect()
        });
        cores.into_iter().map(PyGame::wrap).collect()
    }

    /// The view it was built from, as the rules made it (commitments, salts and the players'
    /// meta events removed).
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.core.view())
    }

    /// The seat's information-state string (as `Game.information_state_string` gives it).
    fn information_state_string(&self) -> String {
        self.core.information_state_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<bluffchess.Belief {} for {}>",
            self.core.variant(),
            self.core.seat()
        )
    }
}
