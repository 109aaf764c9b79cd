//! Python values to the rules' and back: options, seats, outcomes, JSON and arrays, and the
//! `RulesError` every refusal raises.

use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::Color;
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyDict, PyTuple};

create_exception!(
    bluffchess,
    RulesError,
    PyValueError,
    "The rules refused: an unknown variant or option, an illegal or malformed action, an impossible view. The message is the rules' own; the game is unchanged."
);

/// A refusal (the package's [`Refusal`](crate::error::Refusal), or a message of its own) as
/// `RulesError`.
pub fn refused(refusal: impl std::fmt::Display) -> PyErr {
    RulesError::new_err(refusal.to_string())
}

/// A Python callable from a module, imported once.
pub fn callable<'py>(
    py: Python<'py>,
    cell: &'static PyOnceLock<Py<PyAny>>,
    module: &str,
    name: &str,
) -> PyResult<&'py Bound<'py, PyAny>> {
    cell.import(py, module, name)
}

/// Parsed JSON as Python objects.
pub fn from_json<'py>(py: Python<'py>, json: &str) -> PyResult<Bound<'py, PyAny>> {
    static LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    callable(py, &LOADS, "json", "loads")?.call1((json,))
}

/// A view given as a dict or as JSON text.
pub fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = value.extract::<String>() {
        return Ok(text);
    }
    static DUMPS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    callable(value.py(), &DUMPS, "json", "dumps")?
        .call1((value,))?
        .extract::<String>()
}

/// A NumPy array of `data` with `shape`.
pub fn array_f32<'py>(
    py: Python<'py>,
    data: &[f32],
    shape: &[usize],
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: an f32 has four bytes and no padding, and bytes need no alignment.
    let bytes = unsafe { std::slice::from_raw_parts(data.as_ptr().cast::<u8>(), data.len() * 4) };
    array_bytes(py, bytes, "float32", shape)
}

pub fn array_bytes<'py>(
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
pub fn options_arg(options: Option<&Bound<'_, PyAny>>) -> PyResult<Options> {
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

pub fn options_dict<'py>(py: Python<'py>, options: &Options) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, value) in options {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// A seat: `"white"`, `"black"`, `"spectator"`, or a player number (0 White, 1 Black).
pub fn seat_arg(seat: &Bound<'_, PyAny>) -> PyResult<Seat> {
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

pub fn color_arg(seat: &Bound<'_, PyAny>) -> PyResult<Color> {
    seat_arg(seat)?
        .color()
        .ok_or_else(|| refused("a spectator neither resigns nor offers draws"))
}

pub fn actor_name(actor: Option<Actor>) -> Option<&'static str> {
    actor.map(Actor::name)
}

pub fn outcome_dict<'py>(
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
