//! Everything that crosses the wire, as types: the bodies clients send, and the messages and
//! answers the server sends. The feeds, the handlers, the OpenAPI document, the tests and any
//! Rust client all use these, so the documented shapes cannot drift (`docs/api.md`).
//!
//! Fields are declared in alphabetical order: a message's JSON keeps its keys sorted, as it
//! always has.

use bluffchess_rules::event::Event;
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::record::Record;
use bluffchess_rules::seat::Actor;
use bluffchess_rules::spec::VariantSpec;
use bluffchess_rules::LegalAction;
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
    /// Rated (default false): only against a server bot by its name, by an account (an open
    /// rated game is a seek, `POST /api/seek`).
    #[serde(default)]
    pub rated: Option<bool>,
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
    /// The same actions in the same order, each with its structure beside its text:
    /// `{"text": "e7e8q", "kind": "move", "from": "e7", "to": "e8", "promotion": "queen"}`
    /// (`docs/arbiter.md`, "Legal actions and their structure").
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    pub legal_actions: Vec<LegalAction>,
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
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
    /// Its account's rating in each variant it has played rated games of.
    #[serde(default)]
    pub ratings: std::collections::BTreeMap<String, Rating>,
}

/// The server's bots, by level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Lobby {
    /// Games being played.
    pub live: Vec<LobbyGame>,
    /// Games with a seat open.
    pub open: Vec<LobbyGame>,
    /// Open seeks, newest first.
    #[serde(default)]
    pub seeks: Vec<OpenSeek>,
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

/// The variants, their facts and their rules options.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Variants {
    /// Each variant, as its `VariantSpec` states it: `id`, `name`, `summary`, `options`
    /// (`name`, `kind`, `values`, `default`, `description`), `actions` (`example`, `meaning`)
    /// and its facts: `hidden` (a seat may be kept from seeing something), `chance` (Chance
    /// rolls, or a hidden setup is drawn at random, under some option) and `premove` (a seat may
    /// choose its next move before its turn: every turn offers moves on the 8x8 board).
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

/// The terms of a seek or a challenge: the body of `POST /api/seek` and of
/// `POST /api/challenge/{name}`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TermsRequest {
    /// The variant id.
    #[schema(example = "chess")]
    pub variant: String,
    /// The variant's rules options.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub options: Option<serde_json::Map<String, Value>>,
    /// A Fischer clock, or none.
    #[serde(default)]
    pub clock: Option<ClockRequest>,
    /// The asker's colour: `white`, `black` or `random` (the default).
    #[serde(default)]
    pub color: Option<String>,
    /// Rated (default false): between two accounts only.
    #[serde(default)]
    pub rated: Option<bool>,
    /// A seek only: the opponent's rating, `"1400-1800"` (lichess's form).
    #[serde(default, rename = "ratingRange")]
    pub rating_range: Option<String>,
}

/// The body of `POST /api/challenge/{id}/decline` (optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DeclineRequest {
    /// Why: `generic` (the default), `later`, `tooFast`, `tooSlow`, `timeControl`, `rated`,
    /// `casual`, `variant`, `noBot`, `onlyBot`.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A player as pairing shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerRef {
    /// Its name folded to lower case (lichess's `id`).
    pub id: String,
    /// Its name; `guest` for a guest.
    pub name: String,
    /// Whether its rating is provisional.
    pub provisional: bool,
    /// Its rating in the variant at hand (1500 before any rated game).
    pub rating: f64,
    /// `BOT` for a bot account.
    pub title: Option<String>,
}

/// A variant named as lichess names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VariantRef {
    /// The variant id.
    pub key: String,
}

/// A game's time control, as lichess writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    /// Seconds added after each action.
    pub increment: Option<i64>,
    /// Each side's seconds at the start.
    pub limit: Option<i64>,
    /// `5+2`, or `∞`.
    pub show: String,
    /// `clock` or `unlimited`.
    #[serde(rename = "type")]
    pub kind: String,
}

/// An open seek, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenSeek {
    /// The seeker's colour: `white`, `black` or `random`.
    pub color: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// The seek's id (`POST /api/seek/{id}/accept` takes it).
    pub id: String,
    /// The rules options.
    pub options: Options,
    /// Rated or casual.
    pub rated: bool,
    /// The opponent's rating it accepts, if limited: `[low, high]`.
    #[serde(rename = "ratingRange")]
    pub rating_range: Option<[i64; 2]>,
    /// Who seeks.
    pub seeker: PlayerRef,
    /// The clock.
    #[serde(rename = "timeControl")]
    pub time_control: TimeControl,
    /// The variant.
    pub variant: VariantRef,
}

/// A seek made: paired at once (`game`), or waiting in the lobby (`id`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SeekAnswer {
    /// The game it paired into at once, if any (the seeker's seat is its account's or guest
    /// session's).
    pub game: Option<String>,
    /// The waiting seek's id, if it waits.
    pub id: Option<String>,
}

/// A challenge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// Who challenges.
    pub challenger: PlayerRef,
    /// The challenger's colour: `white`, `black` or `random`.
    pub color: String,
    /// Why it was declined (readable).
    #[serde(
        rename = "declineReason",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub decline_reason: Option<String>,
    /// Why it was declined (a key).
    #[serde(
        rename = "declineReasonKey",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub decline_reason_key: Option<String>,
    /// Who is challenged.
    #[serde(rename = "destUser")]
    pub dest_user: PlayerRef,
    /// When it expires, ms since the Unix epoch.
    pub expires_ms: i64,
    /// The game, once accepted.
    #[serde(rename = "gameId", skip_serializing_if = "Option::is_none", default)]
    pub game_id: Option<String>,
    /// Its id.
    pub id: String,
    /// The rules options.
    pub options: Options,
    /// Rated or casual.
    pub rated: bool,
    /// `created`, `accepted`, `declined`, `canceled` or `expired`.
    pub status: String,
    /// The clock.
    #[serde(rename = "timeControl")]
    pub time_control: TimeControl,
    /// The variant.
    pub variant: VariantRef,
}

/// An account's challenges: those it received and those it sent, still open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Challenges {
    /// Received.
    #[serde(rename = "in")]
    pub incoming: Vec<Challenge>,
    /// Sent.
    #[serde(rename = "out")]
    pub outgoing: Vec<Challenge>,
}

/// The answer to taking a seek or accepting a challenge.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Paired {
    /// The game.
    pub game: String,
    /// The seat this account or guest plays.
    pub seat: String,
    /// That seat's token (the account's session or API token works as well).
    pub token: String,
    /// The game's page.
    pub url: String,
}

/// A game as an account's event stream tells of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EventGame {
    /// The account's colour in it.
    pub color: String,
    /// The game id.
    #[serde(rename = "gameId")]
    pub game_id: String,
    /// The game id (again, as lichess gives it).
    pub id: String,
    /// The opponent: an account's name, `bot:NAME` or `guest`.
    pub opponent: String,
    /// Rated or casual.
    pub rated: bool,
    /// The account's rating change, once a rated game is over.
    #[serde(
        rename = "ratingDiff",
        skip_serializing_if = "Option::is_none",
        default
    )]
    pub rating_diff: Option<i64>,
    /// `started`, or how it ended (the outcome's reason, `aborted`).
    pub status: String,
    /// The variant.
    pub variant: VariantRef,
    /// The winner's colour, once over and won.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub winner: Option<String>,
}

/// A line of `GET /api/stream/event` (an empty line is a keepalive).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum AccountEvent {
    /// A challenge made to (or by) the account.
    Challenge {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge withdrawn or expired.
    ChallengeCanceled {
        /// The challenge.
        challenge: Challenge,
    },
    /// A challenge declined.
    ChallengeDeclined {
        /// The challenge.
        challenge: Challenge,
    },
    /// A game of the account began (or is going on, when the stream opens).
    GameStart {
        /// The game.
        game: EventGame,
    },
    /// A game of the account ended.
    GameFinish {
        /// The game.
        game: EventGame,
    },
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint {
    /// When the game ended, ms since the Unix epoch.
    pub at_ms: i64,
    /// The game.
    pub game: String,
    /// The player's rated games of the variant with this one (the changes' order).
    pub games: i64,
    /// The rating after it.
    pub rating: f64,
    /// The deviation after it.
    pub rd: f64,
}

/// A place on a leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Leader {
    /// A bot account.
    pub bot: bool,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub rd: f64,
    /// The name.
    pub username: String,
}

/// A finished or live game on a player's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayedGame {
    /// The player's colour.
    pub color: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: i64,
    /// The game id.
    pub id: String,
    /// The opponent: an account's name, `bot:NAME`, `guest` or `open`.
    pub opponent: String,
    /// Rated or casual.
    pub rated: bool,
    /// The player's rating change, for a rated game that changed it.
    pub rating_diff: Option<i64>,
    /// `1-0`, `0-1`, `1/2-1/2`, or none (not over, aborted).
    pub result: Option<String>,
    /// Where it is.
    pub status: Status,
    /// The variant id.
    pub variant: String,
}

/// A page of a player's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayedGames {
    /// The games, newest first.
    pub games: Vec<PlayedGame>,
    /// The next page's number, if there is one.
    pub next: Option<i64>,
}

/// A finished game's record with its players by name: `GET /api/games/{id}/record` and
/// `GET /api/user/{name}/games` (`bluffchess verify` reads it as a record).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct NamedRecord {
    /// Who played: an account's name, `bot:NAME` or `guest`.
    pub players: BySeat<String>,
    /// The record.
    #[serde(flatten)]
    #[schema(value_type = Object)]
    pub record: Record,
}
