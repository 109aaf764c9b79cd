//! The engine protocol (DESIGN.md, "The engine protocol"): one JSON object a line in, one out.
//!
//! ```text
//! {"cmd":"act","view":{...},"legal":["e2e4", ...],"setup":false,"movetime_ms":200}  -> {"ok":true,"action":"e2e4"}
//! {"cmd":"quit"}
//! ```
//! Any other line gets `{"ok":false,"error":"..."}` naming the problem, and the engine goes on.

use crate::bot::Bot;
use crate::decision::Decision;
use serde::Deserialize;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::time::Duration;

/// The time kept back from `movetime_ms` for reading the request and writing the answer.
fn margin(movetime: Duration) -> Duration {
    (movetime / 10).max(Duration::from_millis(3))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Act {
    view: Value,
    legal: Vec<String>,
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
            Err(error) => json!({"ok": false, "error": error}),
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}

/// The action for one request line, `None` for `quit`, or what is wrong with the line.
pub fn answer(line: &str, bot: &mut dyn Bot) -> Result<Option<String>, String> {
    let mut request: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let object = request
        .as_object_mut()
        .ok_or("a request is a JSON object with a \"cmd\"")?;
    let cmd = object
        .remove("cmd")
        .ok_or("the request has no \"cmd\": the commands are act and quit")?;
    match cmd.as_str() {
        Some("quit") => Ok(None),
        Some("act") => {
            let act: Act =
                serde_json::from_value(request).map_err(|e| format!("bad act request: {e}"))?;
            let decision =
                Decision::from_json(&act.view, act.legal, act.setup).map_err(|e| e.to_string())?;
            let limit = act.movetime_ms.map(|ms| {
                Duration::from_millis(ms).saturating_sub(margin(Duration::from_millis(ms)))
            });
            Ok(Some(bot.act(&decision, limit).action))
        }
        _ => Err(format!(
            "unknown command {}: the commands are act and quit",
            bluffchess_rules::game::shorten(&cmd.to_string())
        )),
    }
}
