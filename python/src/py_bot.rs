//! `bluffchess.Bot`: one of the project's bots.

use crate::convert::{json_text, refused};
use bluffchess_ai::{Bot as _, BuiltIn, Decision};
use pyo3::prelude::*;
use std::sync::Mutex;
use std::time::Duration;

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
