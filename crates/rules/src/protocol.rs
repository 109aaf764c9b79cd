//! The arbiter protocol (`bluffchess arbiter`, docs/arbiter.md): one JSON command a line in, one
//! JSON answer a line out. [`Session::answer`] answers one line; the `bluffchess` binary reads
//! the lines from standard input and writes the answers (this crate does no I/O).
//!
//! A refused command changes nothing and is answered `{"ok": false, "error": TEXT, "kind": ID}`:
//! the text for people, the stable id of the kind of refusal ([`ProtocolError::id`]) for
//! programs.

use crate::any::{AnyGame, NewGameError};
use crate::arbiter::ArbiterError;
use crate::commitment::SaltSource;
use crate::error::shorten;
use crate::options::Options;
use crate::record::MetaKind;
use crate::seat::Seat;
use serde_json::{json, Map, Value};

/// The longest command line read; longer ones are refused whole.
pub const MAX_LINE: usize = 64 * 1024;

const COMMANDS: &str =
    "new, legal, play, roll, view, outcome, record, resign, offer_draw, accept_draw, decline_draw, claim_draw, timeout";

/// Why a command line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// An empty line.
    #[error("empty line: send one JSON command a line")]
    EmptyLine,
    /// A line longer than [`MAX_LINE`] bytes.
    #[error("input line too long: the limit is {MAX_LINE} bytes")]
    LineTooLong,
    /// A line that is not UTF-8.
    #[error("input line is not UTF-8")]
    NotUtf8,
    /// Not JSON.
    #[error("malformed JSON: {0}")]
    MalformedJson(String),
    /// JSON, but not an object.
    #[error("a command must be a JSON object such as {{\"cmd\":\"legal\"}}")]
    NotAnObject,
    /// No `cmd` field.
    #[error("the command has no \"cmd\" field")]
    NoCommand,
    /// A `cmd` that is not a string.
    #[error("\"cmd\" must be a string")]
    CommandNotText,
    /// A command the protocol does not have.
    #[error("unknown command {0:?}: the commands are new, {COMMANDS}")]
    UnknownCommand(String),
    /// A field the command does not take.
    #[error("unknown field {field:?} in {command}: its fields are {fields}")]
    UnknownField {
        /// The field (cut to 64 characters).
        field: String,
        /// The command.
        command: String,
        /// The fields the command takes, comma-separated.
        fields: String,
    },
    /// A command other than `new` before any game.
    #[error("no game: start one with {{\"cmd\":\"new\",\"variant\":\"chess\"}}")]
    NoGame,
    /// A field the command needs is missing.
    #[error("the command needs a {0:?} field")]
    MissingField(&'static str),
    /// A field of the wrong type or value; the text says what it must be.
    #[error("{0}")]
    BadField(String),
    /// A seat that is not `white`, `black` or `spectator`.
    #[error("unknown seat {0:?}: the seats are white, black and spectator")]
    UnknownSeat(String),
    /// A spectator resigning, offering, claiming or running out of time.
    #[error("a spectator cannot resign, offer, claim or run out of time")]
    Spectator,
    /// The game could not be made (variant or options).
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// The arbiter refused the command (the rules, or the draw offers).
    #[error(transparent)]
    Refused(#[from] ArbiterError),
}

impl ProtocolError {
    /// A stable machine id for the kind of refusal (`malformed-json`, `illegal-action`, ...).
    pub fn id(&self) -> &'static str {
        match self {
            ProtocolError::EmptyLine => "empty-line",
            ProtocolError::LineTooLong => "line-too-long",
            ProtocolError::NotUtf8 => "not-utf8",
            ProtocolError::MalformedJson(_) => "malformed-json",
            ProtocolError::NotAnObject => "not-an-object",
            ProtocolError::NoCommand => "no-command",
            ProtocolError::CommandNotText => "bad-command",
            ProtocolError::UnknownCommand(_) => "unknown-command",
            ProtocolError::UnknownField { .. } => "unknown-field",
            ProtocolError::NoGame => "no-game",
            ProtocolError::MissingField(_) => "missing-field",
            ProtocolError::BadField(_) => "bad-field",
            ProtocolError::UnknownSeat(_) => "unknown-seat",
            ProtocolError::Spectator => "spectator",
            ProtocolError::NewGame(e) => e.id(),
            ProtocolError::Refused(e) => e.id(),
        }
    }

    /// The answer that refuses a line: `{"ok": false, "error": TEXT, "kind": ID}`.
    pub fn answer(&self) -> Value {
        json!({"ok": false, "error": self.to_string(), "kind": self.id()})
    }
}

/// The arbiter's state between commands.
#[derive(Default)]
pub struct Session {
    game: Option<AnyGame>,
}

type Answer = Result<Value, ProtocolError>;

impl Session {
    /// Answers one line.
    pub fn answer(&mut self, line: &str) -> Value {
        let result = serde_json::from_str::<Value>(line)
            .map_err(|e| ProtocolError::MalformedJson(e.to_string()))
            .and_then(|command| self.command(&command));
        match result {
            Ok(Value::Object(fields)) => {
                let mut answer = Map::new();
                answer.insert("ok".into(), Value::Bool(true));
                answer.extend(fields);
                Value::Object(answer)
            }
            Ok(other) => json!({"ok": true, "value": other}),
            Err(error) => error.answer(),
        }
    }

    fn command(&mut self, command: &Value) -> Answer {
        let fields = command.as_object().ok_or(ProtocolError::NotAnObject)?;
        let name = fields
            .get("cmd")
            .ok_or(ProtocolError::NoCommand)?
            .as_str()
            .ok_or(ProtocolError::CommandNotText)?;
        let known = name == "new" || COMMANDS.split(", ").any(|c| c == name);
        if !known {
            return Err(ProtocolError::UnknownCommand(shorten(name)));
        }
        check_fields(name, fields)?;
        if name == "new" {
            return self.new_game(fields);
        }
        let game = self.game.as_mut().ok_or(ProtocolError::NoGame)?;
        match name {
            "legal" => legal(game),
            "play" => {
                let action = string_field(fields, "action")?;
                let events = game.play(action)?.events;
                Ok(json!({"to_act": game.to_act(), "events": events, "outcome": game.outcome()}))
            }
            "roll" => {
                let events = game.roll()?.events;
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
                    .ok_or(ProtocolError::Spectator)?;
                let events = game.meta(color, kind)?;
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
                .ok_or_else(|| bad("\"seed\" must be a whole number from 0 to 2^64-1"))?,
        };
        let salts = match fields.get("deterministic") {
            None | Some(Value::Bool(false)) => SaltSource::Os,
            Some(Value::Bool(true)) => SaltSource::Seeded(seed),
            Some(_) => return Err(bad("\"deterministic\" must be true or false")),
        };
        let scripted = match fields.get("scripted") {
            None | Some(Value::Bool(false)) => false,
            Some(Value::Bool(true)) => true,
            Some(_) => return Err(bad("\"scripted\" must be true or false")),
        };
        let mut game = AnyGame::new(variant, &options, seed, salts)?;
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

fn check_fields(command: &str, fields: &Map<String, Value>) -> Result<(), ProtocolError> {
    let allowed = allowed_fields(command);
    match fields.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(field) => Err(ProtocolError::UnknownField {
            field: shorten(field),
            command: command.to_string(),
            fields: allowed.join(", "),
        }),
        None => Ok(()),
    }
}

/// A field of the wrong type or value.
fn bad(what: impl Into<String>) -> ProtocolError {
    ProtocolError::BadField(what.into())
}

fn legal(game: &AnyGame) -> Answer {
    match game.legal_described() {
        None => Ok(
            json!({"to_act": null, "actions": [], "legal_actions": [], "outcome": game.outcome()}),
        ),
        Some(legal) => Ok(serde_json::to_value(legal).expect("legal actions serialise")),
    }
}

fn string_field<'a>(
    fields: &'a Map<String, Value>,
    name: &'static str,
) -> Result<&'a str, ProtocolError> {
    fields
        .get(name)
        .ok_or(ProtocolError::MissingField(name))?
        .as_str()
        .ok_or_else(|| bad(format!("{name:?} must be a string")))
}

fn seat_field(fields: &Map<String, Value>) -> Result<Seat, ProtocolError> {
    let text = string_field(fields, "seat")?;
    Seat::parse(text).ok_or_else(|| ProtocolError::UnknownSeat(shorten(text)))
}

fn options_field(fields: &Map<String, Value>) -> Result<Options, ProtocolError> {
    let mut options = Options::new();
    match fields.get("options") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, value) in map {
                let value = match value {
                    Value::String(s) => s.clone(),
                    Value::Bool(_) | Value::Number(_) => value.to_string(),
                    _ => {
                        return Err(bad(format!(
                            "option {name:?} must be a string, number or boolean"
                        )))
                    }
                };
                options.insert(name.clone(), value);
            }
        }
        Some(_) => {
            return Err(bad(
                "\"options\" must be an object such as {\"checkmate\":\"true\"}",
            ))
        }
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_colour_is_needed_for_meta_commands() {
        let mut session = Session::default();
        session.answer(r#"{"cmd":"new","variant":"chess","seed":1}"#);
        let answer = session.answer(r#"{"cmd":"resign","seat":"spectator"}"#);
        assert_eq!(answer["ok"], false);
        assert!(answer["error"].as_str().unwrap().contains("spectator"));
        assert_eq!(answer["kind"], "spectator");
    }

    #[test]
    fn refusals_carry_their_kind_beside_their_text() {
        let mut session = Session::default();
        let cases = [
            ("{", "malformed-json"),
            ("[1]", "not-an-object"),
            ("{}", "no-command"),
            (r#"{"cmd":7}"#, "bad-command"),
            (r#"{"cmd":"fly"}"#, "unknown-command"),
            (r#"{"cmd":"legal"}"#, "no-game"),
            (r#"{"cmd":"new"}"#, "missing-field"),
            (r#"{"cmd":"new","variant":"fog"}"#, "unknown-variant"),
            (
                r#"{"cmd":"new","variant":"chess","options":{"spy":"true"}}"#,
                "bad-options",
            ),
            (r#"{"cmd":"new","variant":"chess","seed":-1}"#, "bad-field"),
            (
                r#"{"cmd":"new","variant":"chess","sed":1}"#,
                "unknown-field",
            ),
            (r#"{"cmd":"new","variant":"chess","seed":1}"#, "ok"),
            (r#"{"cmd":"view","seat":"north"}"#, "unknown-seat"),
            (r#"{"cmd":"play","action":"e2e5"}"#, "illegal-action"),
            (r#"{"cmd":"play","action":"castle"}"#, "malformed-action"),
            (r#"{"cmd":"accept_draw","seat":"white"}"#, "no-offer"),
            (r#"{"cmd":"roll"}"#, "not-chance"),
        ];
        for (line, kind) in cases {
            let answer = session.answer(line);
            if kind == "ok" {
                assert_eq!(answer["ok"], true, "{line}: {answer}");
                continue;
            }
            assert_eq!(answer["ok"], false, "{line}: {answer}");
            assert_eq!(answer["kind"], kind, "{line}: {answer}");
            assert!(answer["error"].as_str().is_some_and(|e| !e.is_empty()));
        }
    }
}
