//! The engine protocol (DESIGN.md, "The engine protocol"): one JSON object a line in, one out.
//!
//! ```text
//! {"cmd":"act","view":{...},"legal":["e2e4", ...],"legal_actions":[{"text":"e2e4","kind":"move","from":"e2","to":"e4"}, ...],"setup":false,"movetime_ms":200}
//!   -> {"ok":true,"action":"e2e4"}
//! {"cmd":"quit"}
//! ```
//! `legal_actions` (optional) is `legal` with each action's structure beside its text, as the
//! arbiter's `legal` answer and the server's messages give it. Any other line gets
//! `{"ok":false,"error":"..."}` naming the problem, and the engine goes on.

use crate::bot::Bot;
use crate::decision::{Decision, DecisionError};
use bluffchess_rules::LegalAction;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::time::Duration;

/// The time kept back from `movetime_ms` for reading the request and writing the answer.
fn margin(movetime: Duration) -> Duration {
    (movetime / 10).max(Duration::from_millis(3))
}

/// Why a request line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// Not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// JSON, but not an object.
    #[error("a request is a JSON object with a \"cmd\"")]
    NotAnObject,
    /// No `cmd` field.
    #[error("the request has no \"cmd\": the commands are act and quit")]
    NoCommand,
    /// A command other than `act` and `quit` (its JSON, cut to 64 characters).
    #[error("unknown command {0}: the commands are act and quit")]
    UnknownCommand(String),
    /// An `act` request with missing, unknown or mistyped fields.
    #[error("bad act request: {0}")]
    BadAct(String),
    /// The view, legal actions or setup flag make no decision.
    #[error(transparent)]
    Decision(#[from] DecisionError),
}

impl EngineError {
    /// A stable machine id for the kind of refusal.
    pub fn id(&self) -> &'static str {
        match self {
            EngineError::NotJson(_) => "malformed-json",
            EngineError::NotAnObject => "not-an-object",
            EngineError::NoCommand => "no-command",
            EngineError::UnknownCommand(_) => "unknown-command",
            EngineError::BadAct(_) => "bad-request",
            EngineError::Decision(e) => e.id(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    view: Value,
    legal: Vec<String>,
    #[serde(default)]
    legal_actions: Option<Vec<LegalAction>>,
    #[serde(default)]
    setup: bool,
    movetime_ms: Option<u64>,
}

/// Answers requests from `input` on `output` until `quit` or the end of the input.
pub fn run(input: impl BufRead, mut output: impl Write, bot: &mut dyn Bot) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match answer(&line, bot) {
            Ok(Some(action)) => json!({"ok": true, "action": action}),
            Ok(None) => return Ok(()),
            Err(error) => json!({"ok": false, "error": error.to_string(), "kind": error.id()}),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}

/// The action for one request line, `None` for `quit`, or what is wrong with the line.
pub fn answer(line: &str, bot: &mut dyn Bot) -> Result<Option<String>, EngineError> {
    let mut request: Value =
        serde_json::from_str(line).map_err(|e| EngineError::NotJson(e.to_string()))?;
    let object = request.as_object_mut().ok_or(EngineError::NotAnObject)?;
    let cmd = object.remove("cmd").ok_or(EngineError::NoCommand)?;
    match cmd.as_str() {
        Some("quit") => Ok(None),
        Some("act") => {
            let act: Act =
                serde_json::from_value(request).map_err(|e| EngineError::BadAct(e.to_string()))?;
            let mut decision = Decision::from_json(&act.view, act.legal, act.setup)?;
            if let Some(described) = act.legal_actions {
                decision = decision.described(described)?;
            }
            let limit = act.movetime_ms.map(|ms| {
                Duration::from_millis(ms).saturating_sub(margin(Duration::from_millis(ms)))
            });
            Ok(Some(bot.act(&decision, limit).action))
        }
        _ => Err(EngineError::UnknownCommand(
            bluffchess_rules::error::shorten(&cmd.to_string()),
        )),
    }
}
