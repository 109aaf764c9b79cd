//! The extension module `bluffchess._bluffchess`: every variant's games, beliefs, observation
//! tensors and action indices, a batch of games stepped in Rust, and the project's bots. The
//! Python package `bluffchess` re-exports it and adds the OpenSpiel and PettingZoo adapters.

mod batch;
mod core;
mod encode;
mod table;
mod variant;

use crate::batch::{returns, Batch};

use crate::core::{
    belief_from_view, new_game, observe_view, unknown_variant, BeliefCore, Core, Mode,
};
use crate::variant::{with_variant, Variant, VariantVisitor};
use bluffchess_ai::{Bot as _, BuiltIn, Decision};
use bluffchess_rules::arbiter::MetaKind;
use bluffchess_rules::game::{Actor, Options, Outcome, Seat};
use bluffchess_rules::{Color, VARIANTS};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyList, PyTuple};
use std::sync::Mutex;
use std::time::Duration;

/// The module's allocator: glibc's locks an arena for each allocation, and a batch's threads,
/// growing games that another thread allocated, waited on each other's locks.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    bluffchess,
    RulesError,
    PyValueError,
    "The rules refused: an unknown variant or option, an illegal or malformed action, an impossible view. The message is the rules' own; the game is unchanged."
);

fn refused(message: String) -> PyErr {
    RulesError::new_err(message)
}

/// A Python callable from a module, imported once.
fn callable<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.import(py, module, name)
}

/// Parsed JSON as Python objects.
fn from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    callable(py, &LOADS, "json", "loads")?.call1((json,))
}

/// A view given as a dict or as JSON text.
fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(text);
    }
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    callable(value.py(), &DUMPS, "json", "dumps")?
        .call1((value,))?
        .extract::<String>()
}

/// A NumPy array of `data` with `shape`.
fn array_f32<'py>(py: Python<'py>, data: &[f32], shape: &[usize]) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: an f32 has four bytes and no padding, and bytes need no alignment.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 4) };
    array_bytes(py, bytes, "float32", shape)
}

fn array_bytes<'py>(
    py: Python<'py>,
    bytes: &[u8],
    dtype: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    static FROMBUFFER: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let frombuffer = callable(py, &FROMBUFFER, "numpy", "frombuffer")?;
    let array = frombuffer.call1((PyByteArray::new(py, bytes), dtype))?;
    array.call_method1("reshape", (PyTuple::new(py, shape.iter().copied())?,))
}

/// Rules options from a dict: values may be text, booleans or numbers.
fn options_arg(options: Option<&Bound<'_, PyAny>>) -> PyResult<Options> {
    let mut out = Options::new();
    let Some(options) = options.filter(|o| !o.is_none()) else {
        return Ok(out);
    };
    let dict = options
        .cast::<PyDict>()
        .map_err(|_| PyTypeError::new_err("options must be a dict of option names to values"))?;
    for (name, value) in dict.iter() {
        let name: String = name
            .extract()
            .map_err(|_| PyTypeError::new_err("option names must be str"))?;
        let value = if let Ok(flag) = value.extract::<bool>() {
            flag.to_string()
        } else if let Ok(text) = value.extract::<String>() {
            text
        } else {
            value.str()?.to_string()
        };
        out.insert(name, value);
    }
    Ok(out)
}

fn options_dict<'py>(py: Python<'py>, options: &Options) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in options {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// A seat: `"white"`, `"black"`, `"spectator"`, or a player number (0 White, 1 Black).
fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
    if let Ok(text) = seat.extract::<String>() {
        return Seat::parse(&text.to_ascii_lowercase()).ok_or_else(|| {
            refused(format!(
                "unknown seat {text:?}: the seats are white, black and spectator"
            ))
        });
    }
    match seat.extract::<i64>() {
        Ok(0) => Ok(Seat::White),
        Ok(1) => Ok(Seat::Black),
        Ok(n) => Err(refused(format!(
            "unknown player {n}: the players are 0 (White) and 1 (Black)"
        ))),
        Err(_) => Err(PyTypeError::new_err(
            "a seat is \"white\", \"black\", \"spectator\" or a player number (0 or 1)",
        )),
    }
}

fn color_arg(seat: &Bound<'_, PyAny>) -> PyResult<Color> {
    seat_arg(seat)?
        .color()
        .ok_or_else(|| refused("a spectator neither resigns nor offers draws".into()))
}

fn actor_name(actor: Option<Actor>) -> Option<&'static str> {
    actor.map(Actor::name)
}

fn outcome_dict<'py>(
    py: Python<'py>,
    outcome: Option<Outcome>,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let Some(outcome) = outcome else {
        return Ok(None);
    };
    let dict = PyDict::new(py);
    dict.set_item("winner", outcome.winner.map(|c| c.name()))?;
    dict.set_item("reason", outcome.reason.id())?;
    dict.set_item("text", outcome.to_string())?;
    Ok(Some(dict))
}

/// A game of one variant: its rules, the actor to act and its legal actions, each seat's view,
/// observation tensors and the action-index space.
///
/// `Game(variant, options=None, seed=None, *, record=True, events=True, scripted=False)`:
/// `seed` drives Chance and `setup random` (random when not given). With `record=True` the game
/// is kept under the arbiter: every hidden choice is committed and the record can be verified.
/// `record=False` keeps the bare game (faster): with `events=True` its views, beliefs and
/// strings still work; with `events=False` only its observations, legal actions and keys do.
/// `scripted=True` lets Chance's outcomes be played as actions (a bare game always does).
#[pyclass(module = "bluffchess", name = "Game")]
pub struct PyGame {
    core: Box<dyn Core>,
    indices: Vec<u32>,
}

impl PyGame {
    fn wrap(core: Box<dyn Core>) -> PyGame {
        PyGame {
            core,
            indices: Vec::new(),
        }
    }

    fn play_meta(&mut self, seat: &Bound<'_, PyAny>, kind: MetaKind) -> PyResult<()> {
        let color = color_arg(seat)?;
        self.core.meta(color, kind).map_err(refused)
    }
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (variant, options=None, seed=None, *, record=true, events=true, scripted=false))]
    fn new(
        variant: &str,
        options: Option<&Bound<'_, PyAny>>,
        seed: Option<u64>,
        record: bool,
        events: bool,
        scripted: bool,
    ) -> PyResult<PyGame> {
        let mode = match (record, events) {
            (true, true) => Mode::Record { scripted },
            (true, false) => {
                return Err(PyValueError::new_err(
                    "a recorded game keeps its events: events=False needs record=False",
                ))
            }
            (false, true) => Mode::Events,
            (false, false) => Mode::Keys,
        };
        let options = options_arg(options)?;
        let seed = seed.unwrap_or_else(rand::random);
        new_game(variant, &options, seed, mode)
            .map(PyGame::wrap)
            .map_err(refused)
    }

    /// The variant id.
    #[getter]
    fn variant(&self) -> &'static str {
        self.core.variant()
    }

    /// The rules options in force, defaults included.
    #[getter]
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        options_dict(py, &self.core.options())
    }

    /// Who acts next: `"white"`, `"black"`, `"chance"`, or None when the game is over.
    #[getter]
    fn to_act(&self) -> Option<&'static str> {
        actor_name(self.core.to_act())
    }

    /// Whether the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.core.to_act().is_none()
    }

    /// Whether a setup is due: `legal_actions()` lists the shortcuts and any valid `setup ...`
    /// text is accepted.
    #[getter]
    fn setup_due(&self) -> bool {
        self.core.setup_due()
    }

    /// How many actions have been played.
    #[getter]
    fn action_count(&self) -> usize {
        self.core.action_count()
    }

    /// Whether the game keeps a record (`record=True`), and whether it keeps views.
    #[getter]
    fn recorded(&self) -> bool {
        matches!(self.core.mode(), Mode::Record { .. })
    }

    /// How the game ended: `{"winner": "white" | "black" | None, "reason": ..., "text": ...}`,
    /// or None while it goes on.
    #[getter]
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        outcome_dict(py, self.core.outcome())
    }

    /// Each player's return, White's then Black's: 1 for a win, -1 for a loss, 0 for a draw or
    /// a game not over.
    fn returns(&self) -> (f32, f32) {
        let [w, b] = returns(self.core.outcome());
        (w, b)
    }

    /// What the actor to act may do, in canonical text: Chance's outcomes when Chance acts, the
    /// setup shortcuts when a setup is due.
    fn legal_actions(&self) -> Vec<String> {
        self.core.legal_texts()
    }

    /// The same actions, in the same order, each a dict with its structure beside its text:
    /// `{"text": "e7e8q", "kind": "move", "from": "e7", "to": "e8", "promotion": "queen"}` (the
    /// kinds are in docs/arbiter.md, "Legal actions and their structure").
    fn legal_actions_described<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json(py, &self.core.legal_described())
    }

    /// Chance's outcomes with their probabilities, when Chance acts (else empty).
    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        self.core.chance_outcomes()
    }

    /// The legal actions' indices in the variant's action space.
    fn legal_indices(&mut self) -> PyResult<Vec<u32>> {
        self.core
            .legal_indices(&mut self.indices)
            .map_err(refused)?;
        Ok(self.indices.clone())
    }

    /// A NumPy array of `num_actions` booleans: which actions are legal now.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.core
            .legal_indices(&mut self.indices)
            .map_err(refused)?;
        let mut mask = vec![0u8; self.core.table().len()];
        for &i in &self.indices {
            mask[i as usize] = 1;
        }
        array_bytes(py, &mask, "bool", &[mask.len()])
    }

    /// Plays an action: its text (`"e2e4"`, `"transfer d1"`, `"setup random"`) or its index.
    /// A refused action raises RulesError and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if let Ok(text) = action.extract::<String>() {
            return self.core.apply_text(&text).map_err(refused);
        }
        match action.extract::<i64>() {
            Ok(index) if index >= 0 => self.core.apply_index(index as usize).map_err(refused),
            Ok(index) => Err(refused(format!(
                "action index {index} is out of range: {}'s actions are 0 to {}",
                self.core.variant(),
                self.core.table().len() - 1
            ))),
            Err(_) => Err(PyTypeError::new_err(
                "an action is its text (str) or its index (int)",
            )),
        }
    }

    /// Lets Chance act, its outcome drawn from the game's seed.
    fn roll(&mut self) -> PyResult<()> {
        self.core.roll().map_err(refused)
    }

    /// Plays one random legal action (Chance rolls, a due setup is `setup random`); False when
    /// the game is over.
    fn play_random(&mut self) -> bool {
        self.core.play_random()
    }

    /// The seat's view as a dict: exactly what the arbiter's `view` command gives.
    fn view<'py>(&self, py: Python<'py>, seat: &Bound<'_, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let json = self.core.view(seat_arg(seat)?).map_err(refused)?;
        from_json(py, &json)
    }

    /// The seat's view as JSON text.
    fn view_json(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        self.core.view(seat_arg(seat)?).map_err(refused)
    }

    /// The seat's observation: a float32 array of `observation_shape` (planes, ranks, files),
    /// written from what the seat knows (`observation_planes` names the planes).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &Bound<'_, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat_arg(seat)?;
        let layout = self.core.layout();
        let mut data = vec![0.0f32; layout.size()];
        self.core.observe(seat, &mut data);
        array_f32(
            py,
            &data,
            &[layout.planes.len(), layout.height, layout.width],
        )
    }

    /// The position the seat knows, as JSON text.
    fn observation_string(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        Ok(self.core.observation_string(seat_arg(seat)?))
    }

    /// Everything the seat has seen, one event a line (commitments left out): equal for every
    /// game the seat cannot tell apart.
    fn information_state_string(&self, seat: &Bound<'_, PyAny>) -> PyResult<String> {
        self.core
            .information_state_string(seat_arg(seat)?)
            .map_err(refused)
    }

    /// The key of the seat's information set (a 64-bit hash of what it has seen).
    fn info_key(&self, seat: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.core.info_key(seat_arg(seat)?))
    }

    /// The game record as a dict (a recorded game only): `bluffchess verify` accepts it once
    /// the game is over.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let json = self.core.record().map_err(refused)?;
        from_json(py, &json)
    }

    /// Every action played, in canonical text: the truth, hidden actions included.
    fn history(&self) -> Vec<String> {
        self.core.history()
    }

    /// The seat resigns (a recorded game only).
    fn resign(&mut self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play_meta(seat, MetaKind::Resign)
    }

    /// The seat offers a draw.
    fn offer_draw(&mut self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play_meta(seat, MetaKind::OfferDraw)
    }

    /// The seat accepts the other seat's draw offer.
    fn accept_draw(&mut self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play_meta(seat, MetaKind::AcceptDraw)
    }

    /// The seat claims a draw the rules allow now.
    fn claim_draw(&mut self, seat: &Bound<'_, PyAny>) -> PyResult<()> {
        self.play_meta(seat, MetaKind::ClaimDraw)
    }

    /// How many actions the variant's action space has.
    #[getter]
    fn num_actions(&self) -> usize {
        self.core.table().len()
    }

    /// The index of an action's canonical text.
    fn action_index(&self, text: &str) -> PyResult<u32> {
        self.core.table().index(text.trim()).ok_or_else(|| {
            refused(format!(
                "action {:?} has no index in {}'s action space (a setup other than the \
                 shortcuts is played by its text)",
                bluffchess_rules::game::shorten(text),
                self.core.variant()
            ))
        })
    }

    /// The canonical text of an action index.
    fn action_text(&self, index: i64) -> PyResult<String> {
        let table = self.core.table();
        usize::try_from(index)
            .ok()
            .and_then(|i| table.texts.get(i))
            .cloned()
            .ok_or_else(|| {
                refused(format!(
                    "action index {index} is out of range: {}'s actions are 0 to {}",
                    self.core.variant(),
                    table.len() - 1
                ))
            })
    }

    /// The observation's shape: (planes, ranks, files).
    #[getter]
    fn observation_shape(&self) -> (usize, usize, usize) {
        let layout = self.core.layout();
        (layout.planes.len(), layout.height, layout.width)
    }

    /// The observation planes' names, in order.
    #[getter]
    fn observation_planes(&self) -> Vec<String> {
        self.core.layout().planes.clone()
    }

    /// An independent copy.
    fn clone(&self) -> PyGame {
        PyGame::wrap(self.core.boxed_clone())
    }

    /// Pickling keeps the variant, options, seed and every action; the game is replayed on
    /// loading (a recorded game gets new commitments: its salts are secret).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let restore = py.import("bluffchess._bluffchess")?.getattr("_restore")?;
        let (mode, scripted) = match self.core.mode() {
            Mode::Record { scripted } => ("record", scripted),
            Mode::Events => ("events", false),
            Mode::Keys => ("keys", false),
            Mode::Nothing => ("nothing", false),
        };
        let snapshot = serde_json::json!({
            "variant": self.core.variant(),
            "options": self.core.options(),
            "seed": self.core.seed(),
            "mode": mode,
            "scripted": scripted,
            "actions": self.core.history(),
        });
        Ok((restore, (snapshot.to_string(),)))
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let state = match (self.core.to_act(), self.core.outcome()) {
            (_, Some(outcome)) => outcome.to_string(),
            (Some(actor), None) => format!("{actor} to act"),
            (None, None) => "over".to_string(),
        };
        format!(
            "<bluffchess.Game {} after {} actions: {state}>",
            self.core.variant(),
            self.core.action_count()
        )
    }
}

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

/// One of the project's bots (`random`, `greedy`, `alphabeta`, `ismcts`, `default`, with
/// parameters after colons: `ismcts:iterations=2000`). It decides from a seat's view and legal
/// actions only.
#[pyclass(module = "bluffchess", name = "Bot")]
pub struct PyBot {
    bot: Mutex<BuiltIn>,
    name: String,
}

#[pymethods]
impl PyBot {
    #[new]
    #[pyo3(signature = (name="default", seed=None))]
    fn new(name: &str, seed: Option<u64>) -> PyResult<PyBot> {
        let spec = match seed {
            Some(seed) => format!("{name}:seed={seed}"),
            None => name.to_string(),
        };
        let bot = BuiltIn::parse(&spec).map_err(|e| refused(e.to_string()))?;
        Ok(PyBot {
            name: bluffchess_ai::Bot::name(&bot),
            bot: Mutex::new(bot),
        })
    }

    /// The bot's name with its parameters.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// Chooses one of `legal` for the seat of `view` (a dict or JSON text), thinking at most
    /// `movetime_ms` when given; `setup` says a setup is due.
    #[pyo3(signature = (view, legal, setup=false, movetime_ms=None))]
    fn act(
        &self,
        py: Python<'_>,
        view: &Bound<'_, PyAny>,
        legal: Vec<String>,
        setup: bool,
        movetime_ms: Option<u64>,
    ) -> PyResult<String> {
        let json = json_text(view)?;
        let value: serde_json::Value =
            serde_json::from_str(&json).map_err(|e| refused(format!("not a view: {e}")))?;
        let decision =
            Decision::from_json(&value, legal, setup).map_err(|e| refused(e.to_string()))?;
        let limit = movetime_ms.map(Duration::from_millis);
        let answer = py.detach(|| {
            let mut bot = self.bot.lock().unwrap_or_else(|e| e.into_inner());
            bot.act(&decision, limit)
        });
        match answer.failure {
            Some(failure) => Err(refused(failure)),
            None => Ok(answer.action),
        }
    }

    fn __repr__(&self) -> String {
        format!("<bluffchess.Bot {}>", self.name)
    }
}

/// A pickled game, replayed.
#[pyfunction]
fn _restore(snapshot: &str) -> PyResult<PyGame> {
    #[derive(serde::Deserialize)]
    struct Snapshot {
        variant: String,
        options: Options,
        seed: u64,
        mode: String,
        scripted: bool,
        actions: Vec<String>,
    }
    let s: Snapshot =
        serde_json::from_str(snapshot).map_err(|e| refused(format!("not a pickled game: {e}")))?;
    let mode = match s.mode.as_str() {
        "record" => Mode::Record {
            scripted: s.scripted,
        },
        "events" => Mode::Events,
        "keys" => Mode::Keys,
        _ => Mode::Nothing,
    };
    let mut core = new_game(&s.variant, &s.options, s.seed, mode).map_err(refused)?;
    for text in &s.actions {
        let seeded_roll =
            core.to_act() == Some(Actor::Chance) && mode == Mode::Record { scripted: false };
        let played = if seeded_roll {
            core.roll()
        } else {
            core.apply_text(text)
        };
        played.map_err(|e| refused(format!("cannot replay {text:?}: {e}")))?;
    }
    Ok(PyGame::wrap(core))
}

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

fn layout_of(variant: &str) -> PyResult<&'static variant::Layout> {
    struct LayoutOf;
    impl VariantVisitor for LayoutOf {
        type Output = &'static variant::Layout;
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
