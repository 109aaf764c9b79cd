//! `bluffchess arbiter`: one JSON command a line on standard input, one JSON answer a line on
//! standard output. See `docs/arbiter.md`.

use crate::any::AnyGame;
use crate::arbiter::MetaKind;
use crate::commitment::SaltSource;
use crate::game::{shorten, Options, Seat};
use serde_json::{json, Map, Value};
use std::io::{BufRead, Write};

/// The longest command line read; longer ones are refused whole.
pub const MAX_LINE: usize = 64 * 1024;

const COMMANDS: &str =
    "new, legal, play, roll, view, outcome, record, resign, offer_draw, accept_draw, decline_draw, claim_draw, timeout";

/// The arbiter's state between commands.
#[derive(Default)]
pub struct Session {
    game: Option<AnyGame>,
}

type Answer = Result<Value, String>;

impl Session {
    /// Answers one line.
    pub fn answer(&mut self, line: &str) -> Value {
        let result = serde_json::from_str::<Value>(line)
            .map_err(|e| format!("malformed JSON: {e}"))
            .and_then(|command| self.command(&command));
        match result {
            Ok(Value::Object(fields)) => {
                let mut answer = Map::new();
                answer.insert("ok".into(), Value::Bool(true));
                answer.extend(fields);
                Value::Object(answer)
            }
            Ok(other) => json!({"ok": true, "value": other}),
            Err(error) => json!({"ok": false, "error": error}),
        }
    }

    fn command(&mut self, command: &Value) -> Answer {
        let fields = command
            .as_object()
            .ok_or("a command must be a JSON object such as {\"cmd\":\"legal\"}")?;
        let name = fields
            .get("cmd")
            .ok_or("the command has no \"cmd\" field")?
            .as_str()
            .ok_or("\"cmd\" must be a string")?;
        let known = name == "new" || COMMANDS.split(", ").any(|c| c == name);
        if !known {
            return Err(format!(
                "unknown command {:?}: the commands are new, {COMMANDS}",
                shorten(name)
            ));
        }
        check_fields(name, fields)?;
        if name == "new" {
            return self.new_game(fields);
        }
        let game = self
            .game
            .as_mut()
            .ok_or("no game: start one with {\"cmd\":\"new\",\"variant\":\"chess\"}")?;
        match name {
            "legal" => legal(game),
            "play" => {
                let action = string_field(fields, "action")?;
                let events = game.play(action).map_err(|e| e.to_string())?;
                Ok(json!({"to_act": game.to_act(), "events": events, "outcome": game.outcome()}))
            }
            "roll" => {
                let events = game.roll().map_err(|e| e.to_string())?;
                Ok(json!({"to_act": game.to_act(), "events": events, "outcome": game.outcome()}))
            }
            "view" => {
                let seat = seat_field(fields)?;
                Ok(json!({"view": game.view(seat)}))
            }
            "outcome" => Ok(json!({"outcome": game.outcome()})),
            "record" => Ok(json!({"record": game.record()})),
            meta => {
                let kind = MetaKind::parse(meta).expect("the remaining commands are meta");
                let color = seat_field(fields)?
                    .color()
                    .ok_or("a spectator cannot resign, offer, claim or run out of time")?;
                let events = game.meta(color, kind).map_err(|e| e.to_string())?;
                Ok(json!({"to_act": game.to_act(), "events": events, "outcome": game.outcome()}))
            }
        }
    }

    fn new_game(&mut self, fields: &Map<String, Value>) -> Answer {
        let variant = string_field(fields, "variant")?;
        let options = options_field(fields)?;
        let seed = match fields.get("seed") {
            None | Some(Value::Null) => rand::random(),
            Some(v) => v
                .as_u64()
                .ok_or("\"seed\" must be a whole number from 0 to 2^64-1")?,
        };
        let salts = match fields.get("deterministic") {
            None | Some(Value::Bool(false)) => SaltSource::Os,
            Some(Value::Bool(true)) => SaltSource::Seeded(seed),
            Some(_) => return Err("\"deterministic\" must be true or false".into()),
        };
        let scripted = match fields.get("scripted") {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => return Err("\"scripted\" must be true or false".into()),
        };
        let mut game = AnyGame::new(variant, &options, seed, salts).map_err(|e| e.to_string())?;
        if scripted {
            game = game.scripted();
        }
        // The seed stays secret until the end: only its commitment is answered.
        let answer = json!({
            "to_act": game.to_act(),
            "variant": game.variant(),
            "game_id": game.record().game_id,
            "seed_commitment": game.seed_commitment(),
            "scripted": scripted,
        });
        self.game = Some(game);
        Ok(answer)
    }
}

/// The fields each command takes: any other is refused by name (a typo must not pass unseen).
fn allowed_fields(command: &str) -> &'static [&'static str] {
    match command {
        "new" => &[
            "cmd",
            "variant",
            "options",
            "seed",
            "deterministic",
            "scripted",
        ],
        "play" => &["cmd", "action"],
        "view" | "resign" | "offer_draw" | "accept_draw" | "decline_draw" | "claim_draw" => {
            &["cmd", "seat"]
        }
        _ => &["cmd"],
    }
}

fn check_fields(command: &str, fields: &Map<String, Value>) -> Result<(), String> {
    let allowed = allowed_fields(command);
    match fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(field) => Err(format!(
            "unknown field {:?} in {command}: its fields are {}",
            shorten(field),
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

fn legal(game: &AnyGame) -> Answer {
    match game.legal() {
        None => Ok(json!({"to_act": null, "actions": [], "outcome": game.outcome()})),
        Some(legal) => serde_json::to_value(legal).map_err(|e| e.to_string()),
    }
}

fn string_field<'a>(fields: &'a Map<String, Value>, name: &str) -> Result<&'a str, String> {
    fields
        .get(name)
        .ok_or_else(|| format!("the command needs a {name:?} field"))?
        .as_str()
        .ok_or_else(|| format!("{name:?} must be a string"))
}

fn seat_field(fields: &Map<String, Value>) -> Result<Seat, String> {
    let text = string_field(fields, "seat")?;
    Seat::parse(text).ok_or_else(|| {
        format!(
            "unknown seat {:?}: the seats are white, black and spectator",
            shorten(text)
        )
    })
}

fn options_field(fields: &Map<String, Value>) -> Result<Options, String> {
    let mut options = Options::new();
    match fields.get("options") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, value) in map {
                let value = match value {
                    Value::String(s) => s.clone(),
                    Value::Bool(_) | Value::Number(_) => value.to_string(),
                    _ => {
                        return Err(format!(
                            "option {name:?} must be a string, number or boolean"
                        ))
                    }
                };
                options.insert(name.clone(), value);
            }
        }
        Some(_) => {
            return Err("\"options\" must be an object such as {\"checkmate\":\"true\"}".into())
        }
    }
    Ok(options)
}

/// Reads a line of at most [`MAX_LINE`] bytes; a longer one is consumed and reported as `Err`.
pub fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Result<String, String>>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            break;
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => (&buffer[..i], Some(i + 1)),
            None => (buffer, None),
        };
        if bytes.len() + chunk.len() > MAX_LINE {
            too_long = true;
        } else {
            bytes.extend_from_slice(chunk);
        }
        let consumed = done.unwrap_or(buffer.len());
        input.consume(consumed);
        if done.is_some() {
            return Ok(Some(finish(bytes, too_long)));
        }
    }
    if bytes.is_empty() && !too_long {
        return Ok(None);
    }
    Ok(Some(finish(bytes, too_long)))
}

fn finish(bytes: Vec<u8>, too_long: bool) -> Result<String, String> {
    if too_long {
        return Err(format!(
            "input line too long: the limit is {MAX_LINE} bytes"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "input line is not UTF-8".to_string())
}

/// Runs the protocol until end of input.
pub fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    let mut session = Session::default();
    while let Some(line) = read_line(&mut input).map_err(|e| e.to_string())? {
        let answer = match line {
            Ok(line) if line.trim().is_empty() => {
                json!({"ok": false, "error": "empty line: send one JSON command a line"})
            }
            Ok(line) => session.answer(&line),
            Err(error) => json!({"ok": false, "error": error}),
        };
        writeln!(output, "{answer}").map_err(|e| e.to_string())?;
        output.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn over_long_lines_are_refused_and_the_next_is_read() {
        let long = "x".repeat(MAX_LINE + 10);
        let text = format!("{long}\n{{\"cmd\":\"legal\"}}\n");
        let mut input = std::io::Cursor::new(text.into_bytes());
        assert!(read_line(&mut input).unwrap().unwrap().is_err());
        assert_eq!(
            read_line(&mut input).unwrap().unwrap().unwrap(),
            "{\"cmd\":\"legal\"}"
        );
        assert!(read_line(&mut input).unwrap().is_none());
    }

    #[test]
    fn a_seat_colour_is_needed_for_meta_commands() {
        let mut session = Session::default();
        session.answer(r#"{"cmd":"new","variant":"chess","seed":1}"#);
        let answer = session.answer(r#"{"cmd":"resign","seat":"spectator"}"#);
        assert_eq!(answer["ok"], false);
        assert!(answer["error"].as_str().unwrap().contains("spectator"));
    }
}
