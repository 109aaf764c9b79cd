//! `bluffchess.Batch`: many games of one variant stepped in Rust.

use crate::batch::Batch;

use crate::convert::{array_bytes, array_f32, options_arg, refused, seat_arg};
use crate::py_game::PyGame;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Many games of one variant stepped in Rust, one Python call for all of them.
///
/// `Batch(variant, size, options=None, seed=0, threads=None, max_actions=None)`: `size` bare
/// games (no record, no events), stepped on `threads` threads (default: one per core). A game
/// that ends, or reaches `max_actions` actions, starts again with the next seed.
#[pyclass(module = "bluffchess", name = "Batch")]
pub struct PyBatch {
    batch: Batch,
}

#[pymethods]
impl PyBatch {
    #[new]
    #[pyo3(signature = (variant, size, options=None, seed=0, threads=None, max_actions=None))]
    fn new(
        variant: &str,
        size: usize,
        options: Option<&Bound<'_, PyAny>>,
        seed: u64,
        threads: Option<usize>,
        max_actions: Option<usize>,
    ) -> PyResult<PyBatch> {
        let options = options_arg(options)?;
        let threads = threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        Batch::new(variant, size, &options, seed, threads, max_actions)
            .map(|batch| PyBatch { batch })
            .map_err(refused)
    }

    fn __len__(&self) -> usize {
        self.batch.len()
    }

    /// Plays `steps` random actions in every game (finished games start again); returns how
    /// many actions were played.
    #[pyo3(signature = (steps=1))]
    fn step_random(&mut self, py: Python<'_>, steps: usize) -> u64 {
        let batch = &mut self.batch;
        py.detach(|| batch.step_random(steps))
    }

    /// Plays `games` whole random games from the start; returns
    /// `{"white": wins, "black": wins, "draws": n, "actions": n}`.
    #[pyo3(signature = (games, seed=0))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        games: usize,
        seed: u64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let batch = &self.batch;
        let tally = py.detach(|| batch.playouts(games, seed)).map_err(refused)?;
        let dict = PyDict::new(py);
        dict.set_item("white", tally.white)?;
        dict.set_item("black", tally.black)?;
        dict.set_item("draws", tally.draws)?;
        dict.set_item("actions", tally.actions)?;
        Ok(dict)
    }

    /// Who acts in each game: an int8 array, 0 for White and 1 for Black.
    fn to_act<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let to_act = self.batch.to_act();
        let bytes: Vec<u8> = to_act.iter().map(|&a| a as u8).collect();
        array_bytes(py, &bytes, "int8", &[bytes.len()])
    }

    /// Every game's observation for `seat` (default: the seat to act in that game): a float32
    /// array of shape (size, planes, ranks, files).
    #[pyo3(signature = (seat=None))]
    fn observations<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat.map(seat_arg).transpose()?;
        let Some(first) = self.batch.game(0) else {
            return array_f32(py, &[], &[0]);
        };
        let layout = first.layout();
        let mut data = vec![0.0f32; layout.size() * self.batch.len()];
        let batch = &self.batch;
        py.detach(|| batch.observations(seat, &mut data));
        array_f32(
            py,
            &data,
            &[
                self.batch.len(),
                layout.planes.len(),
                layout.height,
                layout.width,
            ],
        )
    }

    /// Every game's legal mask: a bool array of shape (size, num_actions).
    fn legal_masks<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let Some(first) = self.batch.game(0) else {
            return array_bytes(py, &[], "bool", &[0]);
        };
        let actions = first.table().len();
        let mut mask = vec![0u8; actions * self.batch.len()];
        let batch = &mut self.batch;
        py.detach(|| batch.legal_masks(&mut mask))
            .map_err(refused)?;
        array_bytes(py, &mask, "bool", &[self.batch.len(), actions])
    }

    /// Plays one action index in each game (a sequence of ints), lets Chance act, and starts
    /// finished games again. Returns `(rewards, dones)`: a float32 array (size, 2) of White's
    /// and Black's rewards, and a bool array of the games that finished. An illegal action
    /// raises RulesError before any game is changed.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'_, PyAny>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let actions: Vec<i64> = actions
            .try_iter()?
            .map(|a| a.and_then(|a| a.extract::<i64>()))
            .collect::<PyResult<_>>()?;
        let batch = &mut self.batch;
        let (rewards, dones) = py.detach(|| batch.step(&actions)).map_err(refused)?;
        let flat: Vec<f32> = rewards.iter().flatten().copied().collect();
        let dones: Vec<u8> = dones.into_iter().map(u8::from).collect();
        Ok((
            array_f32(py, &flat, &[rewards.len(), 2])?,
            array_bytes(py, &dones, "bool", &[dones.len()])?,
        ))
    }

    /// A copy of game `i` (bare: no events; its observations and legal actions work).
    fn game(&self, i: usize) -> PyResult<PyGame> {
        self.batch
            .game(i)
            .map(|g| PyGame::wrap(g.boxed_clone()))
            .ok_or_else(|| refused(format!("no game {i}: the batch has {}", self.batch.len())))
    }
}
