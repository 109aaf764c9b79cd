//! One game: a task that owns the arbiter (the truth), its log, its clocks, and the message feeds
//! of its three seats (White, Black, spectators). Every seat's messages are built from
//! `view(seat)` of the arbiter and nothing else.

use crate::bot::{fallback, Turn};
use crate::error::ApiError;
use crate::hub::{now_ms, os_u64, Hub};
use crate::store::{Entry, GameRow, Write};
use axum::http::StatusCode;
use bluffchess_ai::{Decision, Stop};
use bluffchess_rules::any::AnyGame;
use bluffchess_rules::arbiter::{ArbiterError, MetaKind};
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::{ActionError, Actor, EndReason, Options, Outcome, Seat};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};
use std::net::IpAddr;
use std::sync::atomic::{AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use subtle::ConstantTimeEq;
use tokio::sync::{mpsc, oneshot, watch};

/// The seats in feed order.
pub const SEATS: [Seat; 3] = [Seat::White, Seat::Black, Seat::Spectator];

/// A seat's index: White 0, Black 1.
pub fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

fn color_of(index: usize) -> Color {
    if index == 0 {
        Color::White
    } else {
        Color::Black
    }
}

fn color_name(color: Color) -> &'static str {
    Seat::from(color).name()
}

fn parse_color(text: &str) -> Option<Color> {
    Seat::parse(text).and_then(Seat::color)
}

/// Where a game is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

    fn ended(self) -> bool {
        matches!(self, Status::Over | Status::Aborted)
    }
}

/// One seat's numbered messages. Message `seq` N is `messages[N - 1]`; `snapshot` is the whole
/// view as of the last message, numbered like it.
pub struct FeedState {
    /// Every message so far, each one JSON line.
    pub messages: Vec<Arc<str>>,
    /// The whole view at the last message (the end message once the game is over).
    pub snapshot: Arc<str>,
    /// The game has ended: no message will follow.
    pub ended: bool,
}

/// A seat's feed, read by its streams and sockets.
pub struct Feed {
    /// The messages.
    pub state: Mutex<FeedState>,
    /// Bumped at every new message.
    pub notify: watch::Sender<usize>,
}

impl Feed {
    fn new() -> Feed {
        Feed {
            state: Mutex::new(FeedState {
                messages: Vec::new(),
                snapshot: Arc::from(""),
                ended: false,
            }),
            notify: watch::channel(0).0,
        }
    }
}

/// Whether a seat is connected: open streams and sockets, and when it was last heard from.
#[derive(Default)]
pub struct Presence {
    /// Open streams and sockets.
    pub connections: AtomicUsize,
    /// Last request or disconnection, in ms since the epoch.
    pub last_seen: AtomicI64,
}

impl Presence {
    /// Notes a request now.
    pub fn seen(&self) {
        self.last_seen.store(now_ms(), Ordering::Relaxed);
    }
}

/// Holds a connection open in [`Presence`] until dropped.
pub struct Connected(Arc<Shared>, usize);

impl Connected {
    /// Counts a connection of seat `index`.
    pub fn new(shared: Arc<Shared>, index: usize) -> Connected {
        shared.presence[index]
            .connections
            .fetch_add(1, Ordering::Relaxed);
        shared.presence[index].seen();
        Connected(shared, index)
    }
}

impl Drop for Connected {
    fn drop(&mut self) {
        let presence = &self.0.presence[self.1];
        presence.seen();
        presence.connections.fetch_sub(1, Ordering::Relaxed);
    }
}

/// What the rest of the server holds of a game: its mailbox, token hashes, feeds and public
/// facts. Never the truth.
pub struct Shared {
    /// The game id.
    pub id: String,
    /// The game task's mailbox.
    pub tx: mpsc::Sender<Command>,
    /// SHA-256 of each seat's token.
    pub tokens: RwLock<[Option<[u8; 32]>; 2]>,
    /// White's, Black's and the spectators' feeds.
    pub feeds: [Feed; 3],
    /// White's and Black's presence.
    pub presence: [Presence; 2],
    /// The lobby entry: public facts only.
    pub public: Mutex<Value>,
    /// Never listed in the lobby.
    pub private: bool,
}

/// A request to the game task.
pub enum Command {
    /// An action by a seat.
    Act {
        seat: Color,
        text: String,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// A resignation, draw offer, acceptance or claim.
    Meta {
        seat: Color,
        kind: MetaKind,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Calls the game off.
    Abort {
        seat: Color,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Claims the win from an opponent who stayed away past the grace period.
    ClaimVictory {
        seat: Color,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Asks for a rematch.
    Rematch {
        seat: Color,
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// Takes the open seat (a private game's with its invitation): answers the seat and its
    /// token.
    Join {
        client: Option<IpAddr>,
        invite: Option<String>,
        reply: oneshot::Sender<Result<(Color, String), ApiError>>,
    },
    /// The seat's whole view now, as a `view` message.
    View {
        seat: Seat,
        reply: oneshot::Sender<Value>,
    },
    /// The record, once the game is over.
    Record {
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
}

/// Fischer clocks.
#[derive(Clone, Debug)]
struct Clock {
    initial: i64,
    increment: i64,
    remaining: [i64; 2],
    /// Whose clock runs, since when.
    running: Option<(usize, i64)>,
}

impl Clock {
    fn charge(&mut self, t: i64) {
        if let Some((c, since)) = self.running {
            self.remaining[c] -= (t - since).max(0);
            self.running = Some((c, t));
        }
    }

    fn json(&self, t: i64) -> Value {
        let mut remaining = self.remaining;
        if let Some((c, since)) = self.running {
            remaining[c] -= (t - since).max(0);
        }
        json!({
            "initial_ms": self.initial,
            "increment_ms": self.increment,
            "white_ms": remaining[0].max(0),
            "black_ms": remaining[1].max(0),
            "running": self.running.map(|(c, _)| color_name(color_of(c))),
        })
    }
}

#[derive(Default)]
struct SeatState {
    /// The events of the view in the last message, as JSON text, and how many: to send only
    /// what is new.
    events: String,
    event_count: usize,
    /// SHA-256 of everything a message says but its number and the times: to send only changes.
    sig: [u8; 32],
    seq: usize,
}

/// Whether the JSON array `new` extends the JSON array `old` (both as serialised).
fn extends(old: &str, new: &str) -> bool {
    if old.is_empty() {
        return false;
    }
    if old == "[]" || old == new {
        return new.starts_with('[');
    }
    let head = &old[..old.len() - 1];
    new.starts_with(head) && new.as_bytes().get(head.len()) == Some(&b',')
}

/// What a seat may do now (as its messages give it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalActions {
    /// The legal actions in canonical text (when `setup` is set, the setup shortcuts).
    pub actions: Vec<String>,
    /// A setup is due: any valid `setup ...` text is accepted besides the shortcuts.
    pub setup: bool,
}

struct BotMove {
    entries_at: i64,
    action: Option<String>,
}

/// How long a flag fall that could not be stored waits before it is tried again.
const FLAG_RETRY_MS: i64 = 1000;

/// The game task.
pub struct GameTask {
    hub: Arc<Hub>,
    shared: Arc<Shared>,
    row: GameRow,
    game: AnyGame,
    status: Status,
    outcome: Option<Value>,
    entries: i64,
    clock: Option<Clock>,
    acted: [bool; 2],
    seats: [SeatState; 3],
    rematch_asks: [bool; 2],
    rematch: Option<String>,
    /// The clients whose live games this one counts against (while it is live), or counted
    /// (once it is over: a rematch counts against them again).
    clients: [Option<IpAddr>; 2],
    bot_pending: bool,
    /// Raised when the pending bot's answer is no longer wanted.
    bot_stop: Option<Stop>,
    /// The secret every server bot seed of this game is drawn from: no client chooses or sees it.
    bot_secret: u64,
    bot_tx: mpsc::Sender<BotMove>,
    bot_rx: Option<mpsc::Receiver<BotMove>>,
    /// When a flag fall that could not be stored is tried again (never in a tight loop).
    flag_retry_at: i64,
}

fn arbiter_refusal(e: ArbiterError) -> ApiError {
    match e {
        ArbiterError::Action(ActionError::GameOver) => ApiError::gone("the game is over"),
        ArbiterError::Action(e) => ApiError::bad(e.to_string()),
        other => ApiError::conflict(other.to_string()),
    }
}

/// Makes the arbiter of a stored game (before any action).
pub fn new_arbiter(row: &GameRow) -> Result<AnyGame, ApiError> {
    let options: Options = serde_json::from_str(&row.options)
        .map_err(|e| ApiError::bad(format!("stored options unreadable: {e}")))?;
    AnyGame::new(
        &row.variant,
        &options,
        row.seed,
        SaltSource::Seeded(row.salt_seed),
    )
    .map_err(|e| ApiError::bad(e.to_string()))
}

fn ended(outcome: Outcome) -> Value {
    serde_json::to_value(outcome).expect("outcomes serialise")
}

impl GameTask {
    /// Builds a game's task from its stored settings and log (empty for a new game), replays
    /// the log, registers nothing and starts nothing: see [`GameTask::spawn`].
    pub fn restore(
        hub: Arc<Hub>,
        mut row: GameRow,
        rematch: Option<String>,
        log: &[Entry],
    ) -> Result<(GameTask, mpsc::Receiver<Command>), ApiError> {
        let game = new_arbiter(&row)?;
        // Seats taken by joining were open when the log began.
        for entry in log.iter().filter(|e| e.kind == "join") {
            if let Some(c) = entry.seat.as_deref().and_then(parse_color) {
                row.players[index(c)] = "open".into();
            }
        }
        let status = if row.players.iter().any(|p| p == "open") {
            Status::Open
        } else {
            Status::Live
        };
        let tokens = [0, 1].map(|i| {
            row.tokens[i].as_deref().and_then(|h| {
                let mut hash = [0; 32];
                hex::decode_to_slice(h, &mut hash).ok().map(|()| hash)
            })
        });
        let (tx, rx) = mpsc::channel(64);
        let shared = Arc::new(Shared {
            id: row.id.clone(),
            tx,
            tokens: RwLock::new(tokens),
            feeds: [Feed::new(), Feed::new(), Feed::new()],
            presence: Default::default(),
            public: Mutex::new(Value::Null),
            private: row.private,
        });
        for p in &shared.presence {
            p.seen();
        }
        let (bot_tx, bot_rx) = mpsc::channel(4);
        let clock = row.clock.map(|(initial, increment)| Clock {
            initial,
            increment,
            remaining: [initial; 2],
            running: None,
        });
        let mut task = GameTask {
            hub,
            shared,
            row,
            game,
            status,
            outcome: None,
            entries: 0,
            clock,
            acted: [false; 2],
            seats: Default::default(),
            rematch_asks: [false; 2],
            rematch,
            clients: [None; 2],
            bot_pending: false,
            bot_stop: None,
            bot_secret: os_u64(),
            bot_tx,
            bot_rx: Some(bot_rx),
            flag_retry_at: 0,
        };
        let created = task.row.created_ms;
        task.emit(created);
        for stored in log {
            let mut entry = stored.clone();
            task.apply(&mut entry).map_err(|e| {
                ApiError::unavailable(format!(
                    "game {}: log entry {} does not replay: {}",
                    task.row.id, task.entries, e.message
                ))
            })?;
            if entry.text != stored.text {
                return Err(ApiError::unavailable(format!(
                    "game {}: log entry {} replays as {:?}, stored {:?}",
                    task.row.id, task.entries, entry.text, stored.text
                )));
            }
            task.entries += 1;
            task.emit(entry.at_ms);
        }
        // Time the server was down is charged to nobody.
        if let Some(clock) = &mut task.clock {
            if let Some((c, _)) = clock.running {
                clock.running = Some((c, now_ms()));
            }
        }
        task.update_public();
        Ok((task, rx))
    }

    /// The shared part.
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// The game's status.
    pub fn status(&self) -> Status {
        self.status
    }

    /// Counts the creator's client towards its live games.
    pub fn set_client(&mut self, seat: Color, client: Option<IpAddr>) {
        self.clients[index(seat)] = client;
    }

    /// Runs the task until the server stops.
    pub fn spawn(mut self, rx: mpsc::Receiver<Command>) {
        tokio::spawn(async move { self.run(rx).await });
    }

    async fn run(&mut self, mut rx: mpsc::Receiver<Command>) {
        let mut bot_rx = self.bot_rx.take().expect("the task runs once");
        let mut shutdown = self.hub.shutdown.clone();
        self.advance().await;
        loop {
            let deadline = self.flag_deadline().map(|d| d.max(self.flag_retry_at));
            let wait = deadline.map(|d| Duration::from_millis((d - now_ms()).max(0) as u64));
            let idle = self.status.ended().then_some(self.hub.config.evict_after);
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { break };
                    self.check_flag().await;
                    self.handle(command).await;
                    self.advance().await;
                }
                Some(bot_move) = bot_rx.recv() => {
                    self.check_flag().await;
                    self.bot_move(bot_move).await;
                    self.advance().await;
                }
                () = sleep_opt(wait) => {
                    self.check_flag().await;
                    self.advance().await;
                }
                () = sleep_opt(idle) => {
                    // Finished and idle: leave memory; the database has it all.
                    self.hub.evict(&self.row.id);
                    break;
                }
                _ = shutdown.changed() => break,
            }
        }
        self.stop_bot();
    }

    /// Ends the pending bot's search, if any: its answer is no longer wanted.
    fn stop_bot(&mut self) {
        if let Some(stop) = self.bot_stop.take() {
            stop.raise();
        }
    }

    fn flag_deadline(&self) -> Option<i64> {
        if self.status != Status::Live {
            return None;
        }
        let (c, since) = self.clock.as_ref()?.running?;
        Some(since + self.clock.as_ref()?.remaining[c])
    }

    async fn check_flag(&mut self) {
        let Some(deadline) = self.flag_deadline() else {
            return;
        };
        let now = now_ms();
        if now < deadline {
            return;
        }
        let (c, _) = self
            .clock
            .as_ref()
            .and_then(|c| c.running)
            .expect("running");
        let entry = Entry {
            kind: "flag".into(),
            seat: Some(color_name(color_of(c)).into()),
            input: "flag".into(),
            text: "flag".into(),
            at_ms: now,
        };
        if let Err(e) = self.commit(entry).await {
            self.flag_retry_at = now + FLAG_RETRY_MS;
            tracing::error!(game = %self.row.id, "flag fall not recorded: {}", e.message);
        }
    }

    /// Lets Chance roll and starts the bot when it is to act.
    async fn advance(&mut self) {
        for _ in 0..10_000 {
            if self.status != Status::Live {
                return;
            }
            match self.game.to_act() {
                Some(Actor::Chance) => {
                    let entry = Entry {
                        kind: "roll".into(),
                        seat: None,
                        input: "roll".into(),
                        text: String::new(),
                        at_ms: now_ms(),
                    };
                    if let Err(e) = self.commit(entry).await {
                        tracing::error!(game = %self.row.id, "roll failed: {}", e.message);
                        return;
                    }
                }
                Some(actor) => {
                    let Some(color) = actor.color() else { return };
                    let player = &self.row.players[index(color)];
                    if let Some(name) = player.strip_prefix("bot:") {
                        if !self.bot_pending {
                            self.start_bot(name.to_string(), color);
                        }
                    }
                    return;
                }
                None => return,
            }
        }
    }

    /// What `color` may do now: nothing unless the game is live and it is to act.
    fn legal_of(&self, color: Color) -> Option<LegalActions> {
        if self.status != Status::Live {
            return None;
        }
        let legal = self.game.legal()?;
        (legal.to_act == Actor::from(color)).then_some(LegalActions {
            actions: legal.actions,
            setup: legal.setup,
        })
    }

    fn start_bot(&mut self, name: String, color: Color) {
        let bot_time = self.hub.config.bot_time;
        let max_ms = bot_time.as_millis() as u64;
        let Ok(bot) = crate::bot::find(&self.hub.bots, &name, max_ms) else {
            tracing::error!(game = %self.row.id, "no bot named {name}");
            return;
        };
        let Some(legal) = self.legal_of(color) else {
            return;
        };
        let view = self.game.typed_view(Seat::from(color));
        let Ok(decision) = Decision::new(view, legal.actions, legal.setup) else {
            return;
        };
        let stop = Stop::new();
        self.stop_bot();
        self.bot_stop = Some(stop.clone());
        // Each decision's seed: the game's secret mixed with the decision's place in the log.
        let seed = self.bot_secret ^ (self.entries as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // The search keeps a quarter of the time for the answer to arrive before the deadline.
        let limit = bot_time * 3 / 4;
        let tx = self.bot_tx.clone();
        let entries_at = self.entries;
        self.bot_pending = true;
        tokio::spawn(async move {
            let searching = stop.clone();
            let thinking = tokio::task::spawn_blocking(move || {
                let turn = Turn {
                    decision: &decision,
                    seed,
                    limit,
                    stop: &searching,
                };
                bot.act(&turn)
            });
            let action = match tokio::time::timeout(bot_time, thinking).await {
                Ok(Ok(action)) => Some(action),
                _ => None,
            };
            // Too late, or done: either way the search has nothing more to give.
            stop.raise();
            let _ = tx.send(BotMove { entries_at, action }).await;
        });
    }

    async fn bot_move(&mut self, bot_move: BotMove) {
        self.bot_pending = false;
        self.bot_stop = None;
        if bot_move.entries_at != self.entries || self.status != Status::Live {
            return;
        }
        let Some(color) = self.game.to_act().and_then(Actor::color) else {
            return;
        };
        let Some(legal) = self.legal_of(color) else {
            return;
        };
        let mut tries = vec![];
        if let Some(action) = bot_move.action {
            tries.push(action);
        }
        tries.push(fallback(&legal.actions, legal.setup));
        for action in tries {
            let entry = Entry {
                kind: "play".into(),
                seat: Some(color_name(color).into()),
                input: action,
                text: String::new(),
                at_ms: now_ms(),
            };
            match self.commit(entry).await {
                Ok(_) => return,
                Err(e) => tracing::warn!(game = %self.row.id, "bot action refused: {}", e.message),
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Act { seat, text, reply } => {
                let result = self.act(seat, text).await;
                let _ = reply.send(result);
            }
            Command::Meta { seat, kind, reply } => {
                let result = self.meta(seat, kind).await;
                let _ = reply.send(result);
            }
            Command::Abort { seat, reply } => {
                let result = self.abort(seat).await;
                let _ = reply.send(result);
            }
            Command::ClaimVictory { seat, reply } => {
                let result = self.claim_victory(seat).await;
                let _ = reply.send(result);
            }
            Command::Rematch { seat, reply } => {
                let result = self.ask_rematch(seat).await;
                let _ = reply.send(result);
            }
            Command::Join {
                client,
                invite,
                reply,
            } => {
                let result = self.join(client, invite).await;
                let _ = reply.send(result);
            }
            Command::View { seat, reply } => {
                let _ = reply.send(self.view_message(seat, now_ms()));
            }
            Command::Record { reply } => {
                let result = match self.status {
                    Status::Over => {
                        Ok(serde_json::to_value(self.game.record()).expect("records serialise"))
                    }
                    Status::Aborted => {
                        Err(ApiError::conflict("the game was aborted: it has no record"))
                    }
                    _ => Err(ApiError::conflict(
                        "the game is not over: its record holds secrets until the end",
                    )),
                };
                let _ = reply.send(result);
            }
        }
    }

    fn playing(&self) -> Result<(), ApiError> {
        match self.status {
            // The flag has fallen but could not be stored (check_flag ran just before).
            Status::Live if self.flag_deadline().is_some_and(|d| d <= now_ms()) => {
                Err(ApiError::unavailable(
                    "the clock has run out but its flag fall could not be stored yet: try again",
                ))
            }
            Status::Live => Ok(()),
            Status::Open => Err(ApiError::conflict(
                "the game has not started: it waits for an opponent to join",
            )),
            Status::Over => Err(ApiError::gone("the game is over")),
            Status::Aborted => Err(ApiError::gone("the game was aborted")),
        }
    }

    fn answer(&self) -> Value {
        json!({
            "ok": true,
            "entries": self.entries,
            "status": self.status.name(),
            "to_act": self.game.to_act(),
            "outcome": self.outcome,
        })
    }

    async fn act(&mut self, seat: Color, text: String) -> Result<Value, ApiError> {
        self.playing()?;
        match self.game.to_act() {
            Some(actor) if actor == Actor::from(seat) => {}
            Some(actor) => {
                return Err(ApiError::conflict(format!(
                    "it is not your turn: {actor} is to act"
                )))
            }
            None => return Err(ApiError::gone("the game is over")),
        }
        let entry = Entry {
            kind: "play".into(),
            seat: Some(color_name(seat).into()),
            input: text,
            text: String::new(),
            at_ms: now_ms(),
        };
        let events = self.commit(entry).await?;
        let mut answer = self.answer();
        answer["events"] = events;
        Ok(answer)
    }

    async fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<Value, ApiError> {
        self.playing()?;
        let entry = Entry {
            kind: "meta".into(),
            seat: Some(color_name(seat).into()),
            input: kind.name().into(),
            text: kind.name().into(),
            at_ms: now_ms(),
        };
        self.commit(entry).await?;
        Ok(self.answer())
    }

    async fn abort(&mut self, seat: Color) -> Result<Value, ApiError> {
        match self.status {
            Status::Open => {}
            Status::Live if !(self.acted[0] && self.acted[1]) => {}
            Status::Live => {
                return Err(ApiError::conflict(
                    "too late to abort: both sides have acted (resign instead)",
                ))
            }
            _ => self.playing()?,
        }
        let entry = Entry {
            kind: "abort".into(),
            seat: Some(color_name(seat).into()),
            input: "abort".into(),
            text: "abort".into(),
            at_ms: now_ms(),
        };
        self.commit(entry).await?;
        Ok(self.answer())
    }

    async fn claim_victory(&mut self, seat: Color) -> Result<Value, ApiError> {
        self.playing()?;
        let other = !seat;
        if self.row.players[index(other)].starts_with("bot:") {
            return Err(ApiError::conflict("a server bot never leaves a game"));
        }
        let presence = &self.shared.presence[index(other)];
        if presence.connections.load(Ordering::Relaxed) > 0 {
            return Err(ApiError::conflict(format!(
                "{} is connected: no win can be claimed",
                color_name(other)
            )));
        }
        let away = now_ms() - presence.last_seen.load(Ordering::Relaxed);
        let grace = self.hub.config.grace.as_millis() as i64;
        if away < grace {
            return Err(ApiError::conflict(format!(
                "{} has been away {} s: a win can be claimed after {} s",
                color_name(other),
                away / 1000,
                grace / 1000
            )));
        }
        let entry = Entry {
            kind: "abandon".into(),
            seat: Some(color_name(other).into()),
            input: "abandon".into(),
            text: "abandon".into(),
            at_ms: now_ms(),
        };
        self.commit(entry).await?;
        Ok(self.answer())
    }

    async fn ask_rematch(&mut self, seat: Color) -> Result<Value, ApiError> {
        if self.status != Status::Over {
            return Err(ApiError::conflict(
                "a rematch can be asked for only once the game is over",
            ));
        }
        if let Some(id) = &self.rematch {
            return Ok(json!({"ok": true, "rematch": id, "seat": color_name(!seat)}));
        }
        self.rematch_asks[index(seat)] = true;
        for c in [Color::White, Color::Black] {
            if self.row.players[index(c)].starts_with("bot:") {
                self.rematch_asks[index(c)] = true;
            }
        }
        if !(self.rematch_asks[0] && self.rematch_asks[1]) {
            return Ok(json!({"ok": true, "rematch": null, "asked": true}));
        }
        let id = self.hub.create_rematch(&self.row, self.clients).await?;
        self.hub
            .store
            .write(vec![Write::Rematch {
                game: self.row.id.clone(),
                rematch: id.clone(),
            }])
            .await
            .map_err(ApiError::unavailable)?;
        self.rematch = Some(id.clone());
        Ok(json!({"ok": true, "rematch": id, "seat": color_name(!seat)}))
    }

    async fn join(
        &mut self,
        client: Option<IpAddr>,
        invite: Option<String>,
    ) -> Result<(Color, String), ApiError> {
        if self.status != Status::Open {
            return Err(ApiError::conflict("no seat is open in this game"));
        }
        if let Some(expected) = &self.row.invite {
            let given = invite.map(|code| hex::encode(crate::hub::token_hash(&code)));
            let equal: bool = given
                .unwrap_or_default()
                .as_bytes()
                .ct_eq(expected.as_bytes())
                .into();
            if !equal {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "this game is private: its seat is taken only with the invitation link",
                ));
            }
        }
        let seat = if self.row.players[0] == "open" {
            Color::White
        } else {
            Color::Black
        };
        let (token, hash) = crate::hub::new_token();
        let entry = Entry {
            kind: "join".into(),
            seat: Some(color_name(seat).into()),
            input: "join".into(),
            text: "join".into(),
            at_ms: now_ms(),
        };
        let extra = Write::Join {
            game: self.row.id.clone(),
            seat: index(seat),
            token: hex::encode(hash),
        };
        self.commit_with(entry, vec![extra]).await?;
        self.shared.tokens.write().expect("token lock")[index(seat)] = Some(hash);
        self.row.tokens[index(seat)] = Some(hex::encode(hash));
        self.shared.presence[index(seat)].seen();
        self.clients[index(seat)] = client;
        Ok((seat, token))
    }

    async fn commit(&mut self, entry: Entry) -> Result<Value, ApiError> {
        self.commit_with(entry, Vec::new()).await
    }

    /// Applies an entry, makes it durable, then tells the seats. A refused or unwritable entry
    /// changes nothing.
    async fn commit_with(
        &mut self,
        mut entry: Entry,
        extra: Vec<Write>,
    ) -> Result<Value, ApiError> {
        let backup = (
            self.game.clone(),
            self.clock.clone(),
            self.status,
            self.outcome.clone(),
            self.acted,
            self.row.players.clone(),
        );
        let events = self.apply(&mut entry)?;
        let mut writes = vec![Write::Entry {
            game: self.row.id.clone(),
            seq: self.entries,
            entry: entry.clone(),
        }];
        writes.extend(extra);
        if self.status != backup.2 && self.status.ended() {
            writes.push(Write::Status {
                game: self.row.id.clone(),
                status: self.status.name().into(),
            });
        }
        if let Err(e) = self.hub.store.write(writes).await {
            (
                self.game,
                self.clock,
                self.status,
                self.outcome,
                self.acted,
                self.row.players,
            ) = backup;
            return Err(ApiError::unavailable(format!(
                "the action could not be stored, so it was not played: {e}"
            )));
        }
        self.entries += 1;
        self.emit(entry.at_ms);
        if self.status != backup.2 {
            self.update_public();
            if self.status.ended() {
                self.stop_bot();
                self.hub.release(&self.clients);
                tracing::info!(game = %self.row.id, status = self.status.name(), "game ended");
            }
        }
        Ok(events)
    }

    /// Applies one log entry to the state (live or in replay). Refusals change nothing.
    fn apply(&mut self, entry: &mut Entry) -> Result<Value, ApiError> {
        let t = entry.at_ms;
        let seat = entry.seat.as_deref().and_then(parse_color);
        let mut events = Value::Array(Vec::new());
        match entry.kind.as_str() {
            "play" => {
                let seat = seat.ok_or_else(|| ApiError::bad("a play entry needs a seat"))?;
                if self.game.to_act() != Some(Actor::from(seat)) {
                    return Err(ApiError::conflict("it is not your turn"));
                }
                let played = self.game.play(&entry.input).map_err(arbiter_refusal)?;
                events = serde_json::to_value(played).expect("events serialise");
                entry.text = self.recorded_text();
                self.after_action(Some(seat), t);
            }
            "roll" => {
                let rolled = self.game.roll().map_err(arbiter_refusal)?;
                events = serde_json::to_value(rolled).expect("events serialise");
                entry.text = self.recorded_text();
                self.after_action(None, t);
            }
            "meta" => {
                let seat = seat.ok_or_else(|| ApiError::bad("a meta entry needs a seat"))?;
                let kind = MetaKind::parse(&entry.input)
                    .ok_or_else(|| ApiError::bad("unknown meta entry"))?;
                self.game.meta(seat, kind).map_err(arbiter_refusal)?;
                if let Some(clock) = &mut self.clock {
                    clock.charge(t);
                }
            }
            "flag" => {
                let seat = seat.ok_or_else(|| ApiError::bad("a flag entry needs a seat"))?;
                self.game
                    .meta(seat, MetaKind::Timeout)
                    .map_err(arbiter_refusal)?;
                if let Some(clock) = &mut self.clock {
                    clock.charge(t);
                    clock.remaining[index(seat)] = 0;
                }
            }
            "abandon" => {
                let seat = seat.ok_or_else(|| ApiError::bad("an abandon entry needs a seat"))?;
                self.game
                    .meta(seat, MetaKind::Abandon)
                    .map_err(arbiter_refusal)?;
                if let Some(clock) = &mut self.clock {
                    clock.charge(t);
                }
            }
            "abort" => {
                self.status = Status::Aborted;
                self.outcome = Some(ended(Outcome::draw(EndReason::Aborted)));
            }
            "join" => {
                let seat = seat.ok_or_else(|| ApiError::bad("a join entry needs a seat"))?;
                self.row.players[index(seat)] = "player".into();
                if !self.row.players.iter().any(|p| p == "open") {
                    self.status = Status::Live;
                }
            }
            other => return Err(ApiError::bad(format!("unknown log entry kind {other:?}"))),
        }
        if self.status == Status::Live {
            if let Some(outcome) = self.game.outcome() {
                self.status = Status::Over;
                if self.outcome.is_none() {
                    self.outcome = Some(serde_json::to_value(outcome).expect("outcomes serialise"));
                }
            }
        }
        if self.status.ended() {
            if let Some(clock) = &mut self.clock {
                clock.charge(t);
                clock.running = None;
            }
        }
        Ok(events)
    }

    fn recorded_text(&self) -> String {
        self.game
            .last_recorded()
            .map(|a| a.text.clone())
            .unwrap_or_default()
    }

    fn after_action(&mut self, actor: Option<Color>, t: i64) {
        let started = self.acted[0] && self.acted[1];
        if let Some(c) = actor {
            self.acted[index(c)] = true;
        }
        let next = self.game.to_act().and_then(Actor::color);
        let both = self.acted[0] && self.acted[1];
        if let Some(clock) = &mut self.clock {
            clock.charge(t);
            if let Some(c) = actor {
                if started && next != Some(c) {
                    clock.remaining[index(c)] += clock.increment;
                }
            }
            clock.running = match next {
                Some(n) if both => Some((index(n), t)),
                _ => None,
            };
        }
    }

    fn base_message(&self, kind: &str, seq: usize, t: i64, seat: Seat) -> Map<String, Value> {
        let legal = seat.color().and_then(|c| self.legal_of(c));
        let mut m = Map::new();
        m.insert("type".into(), kind.into());
        m.insert("seq".into(), seq.into());
        m.insert("game".into(), self.row.id.clone().into());
        m.insert("status".into(), self.status.name().into());
        m.insert(
            "legal".into(),
            json!(legal.as_ref().map_or(&[][..], |l| &l.actions[..])),
        );
        m.insert("setup".into(), legal.is_some_and(|l| l.setup).into());
        m.insert(
            "clock".into(),
            self.clock.as_ref().map_or(Value::Null, |c| c.json(t)),
        );
        m.insert("server_time".into(), t.into());
        m.insert(
            "outcome".into(),
            self.outcome.clone().unwrap_or(Value::Null),
        );
        m
    }

    fn full_message(&self, seq: usize, t: i64, seat: Seat, view: Value) -> Value {
        let ended = self.status.ended();
        let mut m = self.base_message(if ended { "end" } else { "view" }, seq, t, seat);
        m.insert("view".into(), view);
        // Chance and random setups are fixed before they are used: the record opens this.
        m.insert(
            "seed".into(),
            json!({"commitment": self.game.seed_commitment()}),
        );
        if ended {
            let record = (self.status == Status::Over)
                .then(|| serde_json::to_value(self.game.record()).expect("records serialise"));
            m.insert("record".into(), record.unwrap_or(Value::Null));
        }
        Value::Object(m)
    }

    /// The `view` answer for a seat: the whole view message now, and the rematch.
    fn view_message(&self, seat: Seat, t: i64) -> Value {
        let i = SEATS.iter().position(|s| *s == seat).expect("a seat");
        let mut message = self.full_message(self.seats[i].seq, t, seat, self.game.view(seat));
        message["rematch"] = json!({
            "asked": {"white": self.rematch_asks[0], "black": self.rematch_asks[1]},
            "id": self.rematch,
        });
        message
    }

    /// Sends each seat what changed in its view, if anything did.
    fn emit(&mut self, t: i64) {
        let ended = self.status.ended();
        for (i, seat) in SEATS.into_iter().enumerate() {
            let view = self.game.view(seat);
            let legal = seat.color().and_then(|c| self.legal_of(c));
            let sig: [u8; 32] = Sha256::digest(
                json!([
                    &view,
                    legal.as_ref().map(|l| (&l.actions, l.setup)),
                    self.status.name(),
                    &self.outcome
                ])
                .to_string(),
            )
            .into();
            if sig == self.seats[i].sig {
                continue;
            }
            let seq = self.seats[i].seq + 1;
            let events = view["events"].to_string();
            let event_count = view["events"].as_array().map_or(0, Vec::len);
            let full = self.full_message(seq, t, seat, view.clone());
            let message = if !ended && extends(&self.seats[i].events, &events) {
                let old_count = self.seats[i].event_count;
                let mut m = self.base_message("update", seq, t, seat);
                let new_events = view["events"]
                    .as_array()
                    .map_or(&[][..], |e| &e[old_count..]);
                m.insert("events".into(), Value::Array(new_events.to_vec()));
                let mut rest = view.as_object().cloned().unwrap_or_default();
                rest.remove("events");
                m.insert("view".into(), Value::Object(rest));
                Value::Object(m)
            } else {
                full.clone()
            };
            let line: Arc<str> = Arc::from(message.to_string());
            let snapshot: Arc<str> = if message["type"] == "update" {
                Arc::from(full.to_string())
            } else {
                line.clone()
            };
            {
                let feed = &self.shared.feeds[i];
                let mut state = feed.state.lock().expect("feed lock");
                state.messages.push(line);
                state.snapshot = snapshot;
                state.ended = ended;
                feed.notify.send_replace(state.messages.len());
            }
            self.seats[i] = SeatState {
                events,
                event_count,
                sig,
                seq,
            };
        }
    }

    fn update_public(&self) {
        let public = json!({
            "id": self.row.id,
            "variant": self.row.variant,
            "options": serde_json::from_str::<Value>(&self.row.options).unwrap_or(Value::Null),
            "clock": self.row.clock.map(|(i, inc)| json!({"initial_ms": i, "increment_ms": inc})),
            "players": {"white": self.row.players[0], "black": self.row.players[1]},
            "status": self.status.name(),
            "created_ms": self.row.created_ms,
            "rematch_of": self.row.rematch_of,
        });
        *self.shared.public.lock().expect("public lock") = public;
    }
}

async fn sleep_opt(wait: Option<Duration>) {
    match wait {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_list_extends_only_its_prefixes() {
        assert!(extends("[]", "[]"));
        assert!(extends("[]", r#"[{"a":1}]"#));
        assert!(extends(r#"[{"a":1}]"#, r#"[{"a":1}]"#));
        assert!(extends(r#"[{"a":1}]"#, r#"[{"a":1},{"b":2}]"#));
        assert!(!extends("", "[]"), "no message yet: send the whole view");
        assert!(!extends(r#"[{"a":1}]"#, r#"[{"a":12}]"#));
        assert!(!extends(r#"[{"a":1},{"b":2}]"#, r#"[{"a":1}]"#));
        assert!(!extends(r#"[{"a":1}]"#, r#"[{"a":1,"salt":"x"},{"b":2}]"#));
    }
}
