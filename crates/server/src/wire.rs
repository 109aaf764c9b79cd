//! Everything that crosses the wire, as types: the bodies clients send, and the messages and
//! answers the server sends. The feeds, the handlers, the OpenAPI document, the tests and any
//! Rust client all use these, so the documented shapes cannot drift (`docs/api.md`).
//!
//! Fields are declared in alphabetical order: a message's JSON keeps its keys sorted, as it
//! always has.

use bluffchess_rules::arbiter::Record;
use bluffchess_rules::game::{Actor, Event, Options, Outcome};
use bluffchess_rules::registry::VariantSpec;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoResponses, ToSchema};

/// The body of `POST /api/games`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateRequest {
    /// The variant id: `chess`, `alter-ego`, `ambiguous`, `bluff-move`, `reality-check`, `bs`.
    #[schema(example = "chess")]
    pub variant: String,
    /// The variant's rules options; values are strings, numbers or booleans.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Map<String, Value>>,
    /// A Fischer clock, or none.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// `white`, `black` or `random` (the default).
    #[serde(default)]
    pub color: Option<String>,
    /// `open` (the default) or `bot:NAME`.
    #[serde(default)]
    pub opponent: Option<String>,
    /// Never listed in the lobby; an open seat is taken only with the invitation (default
    /// false).
    #[serde(default)]
    pub private: Option<bool>,
}

/// A Fischer clock.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    /// Each side's time at the start, 0.1 to 10800 seconds.
    pub initial_s: f64,
    /// The time added after each action, 0 to 600 seconds.
    pub increment_s: f64,
}

/// The body of `POST /api/games/{id}/action`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The action in the variant's notation (`e2e4`, `stay`, `setup random`, ...).
    #[schema(example = "e2e4")]
    pub action: String,
}

/// The body of `POST /api/games/{id}/join` (optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinRequest {
    /// A private game's invitation (the `invite` its creation answered).
    #[serde(default)]
    pub invite: Option<String>,
}

/// A socket's first message.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WsHello {
    /// A seat's token, or `null` to watch.
    #[serde(default)]
    pub token: Option<String>,
    /// Resume after this message number.
    #[serde(default)]
    pub since: Option<usize>,
}

/// A socket's ping: answered at once with `{"type": "pong", "ping": N}`, for the client to
/// measure the round trip.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WsPing {
    /// Any number, sent back.
    pub ping: u64,
}

/// A seat's socket message: an action or a command.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WsCommand {
    /// An action, as in `POST /action`.
    #[serde(default)]
    pub action: Option<String>,
    /// A command: `resign`, `offer_draw`, `accept_draw`, `decline_draw`, `claim_draw`, `abort`,
    /// `rematch`, `claim_victory`.
    #[serde(default)]
    pub command: Option<String>,
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Waiting for an opponent to take the open seat.
    Open,
    /// Being played.
    Live,
    /// Ended by the rules, the players or the clock.
    Over,
    /// Called off before both sides had acted: no result, nothing revealed.
    Aborted,
}

impl Status {
    /// Its name in messages and the database.
    pub fn name(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Live => "live",
            Status::Over => "over",
            Status::Aborted => "aborted",
        }
    }

    /// Reads a name.
    pub fn parse(name: &str) -> Option<Status> {
        [Status::Open, Status::Live, Status::Over, Status::Aborted]
            .into_iter()
            .find(|s| s.name() == name)
    }

    /// Over or aborted.
    pub fn ended(self) -> bool {
        matches!(self, Status::Over | Status::Aborted)
    }
}

/// A message's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MessageKind {
    /// The seat's whole view.
    View,
    /// What changed: new events, and the view's other fields.
    Update,
    /// The whole view once the game is over, with the record.
    End,
}

/// The clocks as the server had them when a message was sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockState {
    /// Black's time left, in ms.
    pub black_ms: i64,
    /// The increment, in ms.
    pub increment_ms: i64,
    /// Each side's time at the start, in ms.
    pub initial_ms: i64,
    /// Whose clock runs: `white`, `black` or none.
    pub running: Option<String>,
    /// White's time left, in ms.
    pub white_ms: i64,
}

impl ClockState {
    /// The clocks at server time `now`, given them at `at`: the running one has run since.
    pub fn at(&self, at: i64, now: i64) -> ClockState {
        let run = (now - at).max(0);
        let mut state = self.clone();
        match self.running.as_deref() {
            Some("white") => state.white_ms = (state.white_ms - run).max(0),
            Some("black") => state.black_ms = (state.black_ms - run).max(0),
            _ => {}
        }
        state
    }
}

/// The commitment to the game's seed, which the record opens at the end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeedCommitment {
    /// SHA-256 of the game id, the seed and a salt (hex).
    pub commitment: String,
}

/// The rematch as a `view` answer tells it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RematchState {
    /// Who has asked for one.
    pub asked: BySeat<bool>,
    /// The rematch's id, once both asked.
    pub id: Option<String>,
}

/// One value for each seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BySeat<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

/// A message of a seat's feed: its stream, socket and `view` answer carry the same ones, built
/// from that seat's view and nothing else.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Message {
    /// The clocks, if the game has them, as they stood when the message was sent.
    pub clock: Option<ClockState>,
    /// When the message was sent, ms since the Unix epoch (the time of `clock`). It comes
    /// second (the fields are otherwise in alphabetical order): the server stamps each message
    /// with these two as it sends it.
    pub server_time: i64,
    /// `update` only: the events to append to the view's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub events: Option<Vec<Event>>,
    /// The game id.
    pub game: String,
    /// The seat's legal actions when it is to act (spectators: none).
    pub legal: Vec<String>,
    /// `view` and `end` only: the names of the accounts that hold the seats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<BySeat<Option<String>>>,
    /// How the game ended, if it has.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Outcome>,
    /// `view` and `end` only: who holds each seat: `player`, `open` or `bot:NAME`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<BySeat<String>>,
    /// The `view` answer only: whether each seat is connected, and whether its opponent may
    /// claim the win now because it has been away past the grace period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub presence: Option<BySeat<SeatPresence>>,
    /// `end` of a rated game: each player's rating change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<BySeat<RatingDiff>>,
    /// `end` only: the record (`null` for an aborted game).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "present")]
    #[schema(value_type = Option<Object>)]
    pub record: Option<Option<Record>>,
    /// The `view` answer only: the rematch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<RematchState>,
    /// `view` and `end` only: the commitment to the game's seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<SeedCommitment>,
    /// The message's number in this seat's sequence.
    pub seq: u64,
    /// A setup is due: `legal` lists its shortcuts and any valid `setup ...` is accepted.
    pub setup: bool,
    /// Where the game is.
    pub status: Status,
    /// The message's type.
    #[serde(rename = "type")]
    pub kind: MessageKind,
    /// `view`/`end`: the seat's whole view (`docs/arbiter.md`); `update`: its fields but
    /// `events`.
    #[schema(value_type = Object)]
    pub view: Value,
}

/// Whether a seat is at the board (the `view` answer's `presence`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeatPresence {
    /// A stream or socket of the seat is open (a server bot is always there).
    pub connected: bool,
    /// Away past the grace period: the opponent may claim the win now.
    pub claimable: bool,
}

/// One level of the server's bots (`GET /api/bots`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotLevel {
    /// The level, from 1 (the weakest).
    pub level: u32,
    /// The opponent to create a game with (`bot:NAME`).
    pub opponent: String,
    /// Its name for people: `Level N`.
    pub name: String,
    /// What it is.
    pub about: String,
}

/// The server's bots, by level.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BotLevels {
    /// Each level, weakest first.
    pub bots: Vec<BotLevel>,
}

/// A field that is absent, `null`, or a value: `None`, `Some(None)`, `Some(Some(value))`.
mod present {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<T: Serialize, S: Serializer>(
        value: &Option<Option<T>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value
            .as_ref()
            .and_then(Option::as_ref)
            .serialize(serializer)
    }

    pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(deserializer).map(Some)
    }
}

/// A seat taken: by creating a game or joining one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Seated {
    /// The game id.
    pub id: String,
    /// A private game's invitation to its open seat (creation only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The page that takes that seat, the invitation in the fragment (creation only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
    /// `white` or `black`.
    pub seat: String,
    /// The seat's token: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// The game's private page, the token in the fragment.
    pub url: String,
}

/// A game's clock terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClockTerms {
    /// The increment, in ms.
    pub increment_ms: i64,
    /// Each side's time at the start, in ms.
    pub initial_ms: i64,
}

/// A game in the lobby: public facts only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LobbyGame {
    /// The clock, if any.
    pub clock: Option<ClockTerms>,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// The game id.
    pub id: String,
    /// The names of the accounts that hold the seats.
    pub names: BySeat<Option<String>>,
    /// The rules options.
    pub options: Options,
    /// Who plays: `player`, `open` or `bot:NAME`.
    pub players: BySeat<String>,
    /// Rated: its end changes both players' ratings.
    pub rated: bool,
    /// The game it is the rematch of.
    pub rematch_of: Option<String>,
    /// `open` or `live`.
    pub status: Status,
    /// The variant id.
    pub variant: String,
}

/// The lobby: open seats and live games, newest first, at most 500 each.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Lobby {
    /// Games being played.
    pub live: Vec<LobbyGame>,
    /// Games with a seat open.
    pub open: Vec<LobbyGame>,
}

/// What a seat's request did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Done {
    /// The length of the game's log, the request's entry included.
    pub entries: i64,
    /// An action only: the new events the seat may see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<Object>>)]
    pub events: Option<Vec<Event>>,
    /// Always true.
    pub ok: bool,
    /// How the game ended, if it has.
    #[schema(value_type = Option<Object>)]
    pub outcome: Option<Outcome>,
    /// Where the game is.
    pub status: Status,
    /// Who acts next.
    #[schema(value_type = Option<String>)]
    pub to_act: Option<Actor>,
}

/// The answer to a rematch request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RematchAnswer {
    /// Set when only this seat has asked so far.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asked: Option<bool>,
    /// Always true.
    pub ok: bool,
    /// The rematch's id, once both have asked.
    pub rematch: Option<String>,
    /// This seat's colour in the rematch, once it exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<String>,
}

/// The answer to any seat command.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum Answer {
    /// An action, a resignation, an offer...
    Done(Done),
    /// A rematch request.
    Rematch(RematchAnswer),
}

/// A socket's answer to a seat's message (not numbered).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum WsReply {
    /// Done.
    Ack {
        /// What the request did.
        result: Answer,
    },
    /// The answer to a ping.
    Pong {
        /// The ping's number.
        ping: u64,
    },
    /// Refused: nothing changed.
    Error {
        /// The HTTP status it would have had.
        status: u16,
        /// What is wrong.
        error: String,
        /// A stable id of the refusal.
        kind: String,
    },
}

/// A refusal: nothing was changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Refusal {
    /// What is wrong, in words.
    pub error: String,
    /// A stable id of the refusal (`malformed`, `not-your-turn`, `illegal-action`, ...).
    pub kind: String,
}

/// Every refusal: a status and `{"error": "...", "kind": "..."}`.
#[derive(IntoResponses)]
pub enum Refusals {
    /// The request is refused (bad input, no such game, not your turn, too many requests).
    #[response(status = "4XX")]
    Client(#[to_schema] Refusal),
    /// The server is shutting down.
    #[response(status = 503)]
    Unavailable(#[to_schema] Refusal),
}

/// A game's record (see `docs/arbiter.md`), checked by `bluffchess verify`.
#[derive(ToSchema)]
#[schema(value_type = Object)]
pub struct GameRecord(pub Value);

/// A finished game's replay: the record and every position with everything revealed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Replay {
    /// The position at the start and after each action.
    #[schema(value_type = Vec<Object>)]
    pub positions: Vec<Value>,
    /// The record.
    #[schema(value_type = Object)]
    pub record: Record,
    /// Each seat's position at the same moments, as that seat saw it (the last revealed).
    #[schema(value_type = Object)]
    pub seen: BySeat<Vec<Value>>,
}

/// A seat's positions during a game (`GET /api/games/{id}/positions`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Positions {
    /// The start (`after` 0), then the position after each action the seat has an event of.
    pub positions: Vec<SeenPosition>,
}

/// One position as a seat saw it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeenPosition {
    /// How many actions had been taken: the position after action `after - 1`.
    pub after: usize,
    /// The view's `position` then.
    #[schema(value_type = Object)]
    pub position: Value,
}

/// The variants and their rules options.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Variants {
    /// Each variant.
    #[schema(value_type = Vec<Object>)]
    pub variants: &'static [&'static VariantSpec],
}

/// The body of sign-up and log-in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    /// 2 to 20 letters, digits, `_` and `-`.
    pub username: String,
    /// At least 8 characters.
    pub password: String,
}

/// The body of a password change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    /// The password now.
    pub current: String,
    /// The new one (at least 8 characters).
    pub new: String,
}

/// The body of a new API token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenRequest {
    /// `["play"]` or `["play", "bot"]`.
    pub scopes: Vec<String>,
}

/// An account signed in: sign-up's and log-in's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignedIn {
    /// The account's name.
    pub username: String,
}

/// A rating in one variant (Glicko-2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Rating {
    /// Rated games played.
    pub games: i64,
    /// Whether it is provisional (deviation above 110): shown with a `?`.
    pub provisional: bool,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
}

/// An account as anyone may see it: `GET /api/user/{name}`, and (its owner) `GET /api/account`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct User {
    /// A bot account.
    pub bot: bool,
    /// Its rating in each variant it has played rated games of.
    pub ratings: std::collections::BTreeMap<String, Rating>,
    /// Its name.
    pub username: String,
}

/// A personal API token just made: shown this once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenCreated {
    /// Its public id (to revoke it).
    pub id: String,
    /// The token: send it as `Authorization: Bearer TOKEN`. Only its hash is kept.
    pub token: String,
}

/// A personal API token, as its account's list shows it (never the token).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenInfo {
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// Its public id.
    pub id: String,
    /// `play`, and `bot` if it has it.
    pub scopes: Vec<String>,
    /// When it was last used (to the nearest few minutes), if ever.
    pub used_ms: Option<i64>,
}

/// A session of an account.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SessionInfo {
    /// The browser's description of itself.
    pub agent: String,
    /// When it started.
    pub created_ms: i64,
    /// Whether it is the session of this request.
    pub current: bool,
    /// Its public id (to end it).
    pub id: String,
    /// When it was last used (to the nearest few minutes).
    pub seen_ms: i64,
}

/// A game of an account, for its list of games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AccountGame {
    /// The account's colour.
    pub color: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// The game id.
    pub id: String,
    /// The opponent: an account's name, `bot:NAME`, `player` (a guest) or `open`.
    pub opponent: String,
    /// Where it is.
    pub status: Status,
    /// The variant id.
    pub variant: String,
}

/// A rated game's change to one player's rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingDiff {
    /// The rating after the game.
    pub after: f64,
    /// The rating before it.
    pub before: f64,
    /// The change, rounded: `+12`, `-12`.
    pub diff: i64,
    /// Whether the rating after is provisional.
    pub provisional: bool,
}
