//! What clients send: every request body and socket message, read and checked without a
//! network, so the handlers and the fuzz target (`fuzz/fuzz_targets/requests.rs`) share one path.

use crate::error::ApiError;
use crate::room::SeatCommand;
use crate::wire::{ActionRequest, ClockRequest, CreateRequest, JoinRequest, WsCommand, WsHello};
use bluffchess_rules::board::Color;
use bluffchess_rules::options::Options;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The longest action text a seat may send.
pub const MAX_ACTION_LEN: usize = 1024;

/// A game to create, checked.
#[derive(Debug, PartialEq)]
pub struct Creation {
    /// The variant id (checked against the rules when the game is made).
    pub variant: String,
    /// The options as the rules read them.
    pub options: Options,
    /// The clock in milliseconds: initial and increment.
    pub clock: Option<(i64, i64)>,
    /// The creator's colour; `None` for random.
    pub color: Option<Color>,
    /// `open` or `bot:NAME`.
    pub opponent: String,
    /// Never listed in the lobby.
    pub private: bool,
    /// Rated (against a server bot by its name only).
    pub rated: bool,
}

/// Reads a JSON body exactly as the JSON extractor does, with its refusals (400, 422); a body
/// that is not an object is refused (serde would read a struct from an array too).
pub fn body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if !is_object(bytes) {
        return Err(ApiError::bad("the body must be a JSON object"));
    }
    axum::Json::<T>::from_bytes(bytes)
        .map(|axum::Json(value)| value)
        .map_err(|rejection| ApiError::from_status(rejection.status(), rejection.body_text()))
}

/// Reads and checks the body of `POST /api/games`.
pub fn creation(bytes: &[u8]) -> Result<Creation, ApiError> {
    body::<CreateRequest>(bytes)?.check()
}

impl CreateRequest {
    /// Checks everything but the variant and options, which the rules check.
    pub fn check(self) -> Result<Creation, ApiError> {
        let opponent = self.opponent.unwrap_or_else(|| "open".into());
        if opponent != "open" && !opponent.starts_with("bot:") {
            return Err(ApiError::bad(
                "\"opponent\" must be \"open\" or \"bot:NAME\" (bot:random)",
            ));
        }
        Ok(Creation {
            variant: self.variant,
            options: options_of(self.options)?,
            clock: self.clock.map(ClockRequest::millis).transpose()?,
            color: color_of(self.color.as_deref())?,
            opponent,
            private: self.private.unwrap_or(false),
            rated: self.rated.unwrap_or(false),
        })
    }
}

impl ClockRequest {
    pub fn millis(self) -> Result<(i64, i64), ApiError> {
        let ok = self.initial_s.is_finite()
            && self.increment_s.is_finite()
            && (0.1..=10_800.0).contains(&self.initial_s)
            && (0.0..=600.0).contains(&self.increment_s);
        if !ok {
            return Err(ApiError::bad(
                "\"clock\" needs initial_s from 0.1 to 10800 and increment_s from 0 to 600",
            ));
        }
        Ok((
            (self.initial_s * 1000.0).round() as i64,
            (self.increment_s * 1000.0).round() as i64,
        ))
    }
}

pub fn color_of(color: Option<&str>) -> Result<Option<Color>, ApiError> {
    match color.unwrap_or("random") {
        "white" => Ok(Some(Color::White)),
        "black" => Ok(Some(Color::Black)),
        "random" => Ok(None),
        _ => Err(ApiError::bad(
            "\"color\" must be \"white\", \"black\" or \"random\"",
        )),
    }
}

pub fn options_of(map: Option<serde_json::Map<String, Value>>) -> Result<Options, ApiError> {
    let mut options = Options::new();
    for (name, value) in map.unwrap_or_default() {
        let value = match value {
            Value::String(s) => s,
            Value::Bool(_) | Value::Number(_) => value.to_string(),
            _ => {
                return Err(ApiError::bad(format!(
                    "option {:?} must be a string, number or boolean",
                    name.chars().take(40).collect::<String>()
                )))
            }
        };
        options.insert(name, value);
    }
    Ok(options)
}

/// Reads the optional body of `POST /api/games/{id}/join`: the invitation, if any. An empty
/// body is none.
pub fn join(bytes: &[u8], json: bool) -> Result<Option<String>, ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    if !json {
        return Err(not_json());
    }
    Ok(body::<JoinRequest>(bytes)?.invite)
}

/// Reads and checks the body of `POST /api/games/{id}/action`.
pub fn action(bytes: &[u8]) -> Result<SeatCommand, ApiError> {
    act(body::<ActionRequest>(bytes)?.action)
}

fn act(text: String) -> Result<SeatCommand, ApiError> {
    if text.len() > MAX_ACTION_LEN {
        return Err(ApiError::bad("the action text is too long"));
    }
    Ok(SeatCommand::Act(text))
}

/// Whether a JSON text is an object (its first character past white space is `{`).
fn is_object(bytes: &[u8]) -> bool {
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Reads a socket's first message.
pub fn ws_hello(text: &str) -> Result<WsHello, ApiError> {
    if !is_object(text.as_bytes()) {
        return Err(ApiError::bad(
            "the first message must be a JSON object: {\"token\": TOKEN or null, \"since\": N (optional)}",
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        ApiError::bad(format!(
            "the first message must be {{\"token\": TOKEN or null, \"since\": N (optional)}}: {e}"
        ))
    })
}

/// Reads a socket's ping (`{"ping": N}`), if the message is one.
pub fn ws_ping(text: &str) -> Option<u64> {
    serde_json::from_str::<crate::wire::WsPing>(text)
        .ok()
        .map(|p| p.ping)
}

/// Reads a seat's socket message: an action or a command.
pub fn ws_command(text: &str) -> Result<SeatCommand, ApiError> {
    if !is_object(text.as_bytes()) {
        return Err(ApiError::bad(
            "a message must be a JSON object: {\"action\": TEXT} or {\"command\": NAME}",
        ));
    }
    let command: WsCommand = serde_json::from_str(text).map_err(|e| {
        ApiError::bad(format!(
            "a message must be {{\"action\": TEXT}} or {{\"command\": NAME}}: {e}"
        ))
    })?;
    match (command.action, command.command) {
        (Some(action), None) => act(action),
        (None, Some(name)) => SeatCommand::parse(&name).ok_or_else(|| {
            ApiError::bad("unknown command: the commands are resign, offer_draw, accept_draw, decline_draw, claim_draw, abort, rematch, claim_victory")
        }),
        _ => Err(ApiError::bad("a message has either \"action\" or \"command\"")),
    }
}

/// A refusal of a request for a body it does not have the right type for.
pub fn not_json() -> ApiError {
    ApiError::UnsupportedMediaType(
        "the body must be JSON with Content-Type: application/json".into(),
    )
}
