//! `bluffchess.Game`: one game of one variant, and a pickled game replayed.

use crate::batch::returns;

use crate::convert::{
    actor_name, array_bytes, array_f32, color_arg, from_json, options_arg, options_dict,
    outcome_dict, refused, seat_arg,
};
use crate::core::{new_game, Core, Mode};
use bluffchess_rules::options::Options;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::Actor;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

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
    pub(crate) fn wrap(core: Box<dyn Core>) -> PyGame {
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
                bluffchess_rules::error::shorten(text),
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

/// A pickled game, replayed.
#[pyfunction]
pub fn _restore(snapshot: &str) -> PyResult<PyGame> {
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
