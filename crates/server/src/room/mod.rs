//! One game in a room of its own: a task that owns the game's table (the arbiter, its clocks),
//! its log and the feeds of its three seats (White, Black, spectators), and handles its mail one
//! request at a time. Every seat's messages are made from its view of the arbiter and nothing
//! else.
//!
//! The room is split along its concerns: this file is the actor (its loop and the seats'
//! requests), `table.rs` is the game's state and how an entry of its log changes it (live and
//! in replay), `clock.rs` the clocks, `feed.rs` the seats' messages, `bots.rs` a server bot at
//! work, `shared.rs` what the rest of the server holds of a room, `seat.rs` the seats' places.

mod bots;
mod clock;
mod feed;
mod seat;
mod shared;
mod table;

pub use clock::now_ms;
pub use feed::{line, Feed, FeedCopy, FeedNews, FeedReader, LegalActions};
pub use seat::{feed_of, index, listener_keys, Holder, SEATS};
pub use shared::{Command, Connected, Presence, SeatCommand, Shared};
pub use table::{new_arbiter, rating_diffs};

use crate::bot::{fallback, find, Bot};
use crate::config::Config;
use crate::error::ApiError;
use crate::secret::{new_token, os_u64, token_hash};
use crate::store::{Entry, GameRow, Logged, RatedEnd, Store, StoreError, Write};
use crate::wire::{
    Answer, BySeat, Done, Message, RatingDiff, RematchAnswer, RematchState, SeatPresence, Status,
};
use bluffchess_ai::Decision;
use bluffchess_rules::board::Color;
use bluffchess_rules::event::Event;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::{Actor, Seat};
use bots::{BotAnswer, Thinking};
use feed::Sent;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;
use subtle::ConstantTimeEq;
use table::Table;
use tokio::sync::{mpsc, watch};

/// What a room asks of the server around it: its database and settings, its bots, and the
/// registry of games.
pub trait Host: Send + Sync + 'static {
    /// The database.
    fn store(&self) -> &Store;
    /// The server's limits and timings.
    fn config(&self) -> &Config;
    /// The server's bots by name.
    fn bots(&self) -> &HashMap<String, Arc<dyn Bot>>;
    /// Set when the server stops.
    fn shutdown(&self) -> watch::Receiver<bool>;
    /// The room's finished game leaves memory (the database keeps it).
    fn evict(&self, id: &str);
    /// These clients' live game is over (each a limits' key).
    fn release(&self, clients: &[Option<String>]);
    /// Creates the rematch of a finished game for its White's and Black's clients (each a
    /// limits' key); answers its id.
    fn rematch(
        &self,
        old: GameRow,
        clients: [Option<String>; 2],
    ) -> BoxFuture<'_, Result<String, ApiError>>;
    /// A game began or ended: its players' event streams are told.
    fn announce(&self, news: GameNews);
}

/// A game's start or end, for its players' event streams.
#[derive(Clone, Debug)]
pub struct GameNews {
    pub id: String,
    pub variant: String,
    pub rated: bool,
    pub status: Status,
    pub outcome: Option<Outcome>,
    /// Each seat's listeners: the keys its event streams may listen under (none for a server
    /// bot).
    pub listeners: [Vec<String>; 2],
    /// What each seat's opponent is called: an account's name, `bot:NAME` or `guest`.
    pub opponents: [String; 2],
    pub ratings: Option<BySeat<RatingDiff>>,
}

/// How long a flag fall that could not be stored waits before it is tried again.
const FLAG_RETRY_MS: i64 = 1000;

/// One game's room.
pub struct Room {
    host: Arc<dyn Host>,
    shared: Arc<Shared>,
    table: Table,
    sent: [Sent; 3],
    rematch_asks: [bool; 2],
    rematch: Option<String>,
    /// The clients (limits' keys) whose live games this one counts against while it is live; a
    /// rematch counts against them again.
    clients: [Option<String>; 2],
    bots: Thinking,
    /// When a flag fall that could not be stored is tried again (never in a tight loop).
    flag_retry_at: i64,
    /// In a cluster: the lease every write of this room is fenced with, and the signal that
    /// this node no longer owns the game (lost, released, draining).
    owner: Option<(Write, watch::Receiver<bool>)>,
    /// The room stops and leaves its game to the log: a write was refused because another node
    /// took the game over, or the database did not confirm one (stored or not, the log says,
    /// and the room that serves the game next is restored from it).
    retired: bool,
}

impl Room {
    /// Builds a game's room from its stored settings and log (empty for a new game) and
    /// replays the log; registers nothing and starts nothing: see [`Room::spawn`].
    pub fn restore(
        host: Arc<dyn Host>,
        row: GameRow,
        names: [Option<String>; 2],
        ratings: Option<BySeat<RatingDiff>>,
        rematch: Option<String>,
        log: &[Entry],
    ) -> Result<(Room, mpsc::Receiver<Command>), ApiError> {
        let table = Table::new(row, names, ratings, log)?;
        let row = &table.row;
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
            feeds: Default::default(),
            presence: Default::default(),
            public: Mutex::new(None),
            private: row.private,
            accounts: RwLock::new(row.accounts),
            guests: RwLock::new(row.guests.clone()),
            relayed: false,
        });
        for p in &shared.presence {
            p.seen();
        }
        let mut room = Room {
            host,
            shared,
            table,
            sent: Default::default(),
            rematch_asks: [false; 2],
            rematch,
            clients: Default::default(),
            bots: Thinking::new(),
            flag_retry_at: 0,
            owner: None,
            retired: false,
        };
        room.replay(log)?;
        Ok((room, rx))
    }

    /// Replays a stored log, checking that each entry replays as it was recorded; the time the
    /// server was down is charged to nobody.
    fn replay(&mut self, log: &[Entry]) -> Result<(), ApiError> {
        self.emit(self.table.row.created_ms);
        for stored in log {
            let mut entry = stored.clone();
            let id = self.table.row.id.clone();
            let n = self.table.entries;
            self.table.apply(&mut entry).map_err(|e| {
                ApiError::unavailable(format!("game {id}: log entry {n} does not replay: {e}"))
            })?;
            if entry != *stored {
                return Err(ApiError::unavailable(format!(
                    "game {id}: log entry {n} replays as {:?}, stored {:?}",
                    entry.what, stored.what
                )));
            }
            self.emit(entry.at_ms);
        }
        if let Some(clock) = &mut self.table.clock {
            clock.resume(now_ms());
        }
        self.update_public();
        Ok(())
    }

    /// The shared part.
    pub fn shared(&self) -> Arc<Shared> {
        self.shared.clone()
    }

    /// The game's status.
    pub fn status(&self) -> Status {
        self.table.status
    }

    /// The game's start or end as its players' event streams tell it.
    pub fn news(&self) -> GameNews {
        let table = &self.table;
        let called = |i: usize| match (&table.names[i], table.row.players[i].as_str()) {
            (Some(name), _) => name.clone(),
            (None, bot) if bot.starts_with("bot:") => bot.to_string(),
            (None, "open") => "open".to_string(),
            _ => "guest".to_string(),
        };
        GameNews {
            id: table.row.id.clone(),
            variant: table.row.variant.clone(),
            rated: table.row.rated,
            status: table.status,
            outcome: table.outcome,
            listeners: [0, 1].map(|i| {
                let accounts = self.shared.accounts.read().expect("seat lock")[i];
                let guest = self.shared.guests.read().expect("seat lock")[i].clone();
                match table.is_bot(if i == 0 { Color::White } else { Color::Black }) {
                    true => Vec::new(),
                    false => listener_keys(self.clients[i].as_deref(), accounts, guest.as_deref()),
                }
            }),
            opponents: [called(1), called(0)],
            ratings: table.ratings.clone(),
        }
    }

    /// Counts `seat`'s client towards its live games.
    pub fn set_client(&mut self, seat: Color, client: Option<String>) {
        self.clients[index(seat)] = client;
    }

    /// Makes the room a cluster node's: every write is fenced with `fence` (`Write::Fence`),
    /// and the room stops when `stop` is set.
    pub fn set_owner(&mut self, fence: Write, stop: watch::Receiver<bool>) {
        self.owner = Some((fence, stop));
    }

    /// Runs the room until the server stops or its finished game has been idle long enough.
    pub fn spawn(mut self, rx: mpsc::Receiver<Command>) {
        tokio::spawn(async move { self.run(rx).await });
    }

    async fn run(&mut self, mut rx: mpsc::Receiver<Command>) {
        let mut answers = self.bots.take_answers();
        let mut shutdown = self.host.shutdown();
        let mut stop = self.owner.as_ref().map(|(_, stop)| stop.clone());
        self.advance().await;
        while !self.retired {
            let deadline = self
                .table
                .flag_deadline()
                .map(|d| d.max(self.flag_retry_at));
            let wait = deadline.map(|d| Duration::from_millis((d - now_ms()).max(0) as u64));
            let ended = self.table.status.ended();
            let idle = ended.then_some(self.host.config().evict_after);
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { break };
                    self.check_flag().await;
                    self.handle(command).await;
                    self.advance().await;
                }
                Some(answer) = answers.recv() => {
                    self.check_flag().await;
                    self.bot_answered(answer).await;
                    self.advance().await;
                }
                () = sleep_opt(wait) => {
                    self.check_flag().await;
                    self.advance().await;
                }
                () = sleep_opt(idle) => {
                    // Finished and idle: leave memory; the database has it all.
                    self.host.evict(&self.table.row.id);
                    break;
                }
                _ = shutdown.changed() => break,
                () = stopped(&mut stop) => break,
            }
        }
        self.bots.stop();
        if self.owner.is_some() || self.retired {
            // Another node or room serves the game now (or will): the readers reconnect there.
            for feed in &self.shared.feeds {
                feed.close();
            }
        }
    }

    async fn check_flag(&mut self) {
        let Some(deadline) = self.table.flag_deadline() else {
            return;
        };
        let now = now_ms();
        if now < deadline {
            return;
        }
        let Some(seat) = self.table.clock.as_ref().and_then(|c| c.running()) else {
            return;
        };
        if let Err(e) = self.commit(Entry::now(Logged::Flag { seat }, now)).await {
            self.flag_retry_at = now + FLAG_RETRY_MS;
            tracing::error!(game = %self.table.row.id, "flag fall not recorded: {e}");
        }
    }

    /// Lets Chance roll and starts the bot when it is to act.
    async fn advance(&mut self) {
        while self.table.status == Status::Live {
            match self.table.game.to_act() {
                Some(Actor::Chance) => {
                    let text = String::new();
                    let roll = Entry::now(Logged::Roll { text }, now_ms());
                    if let Err(e) = self.commit(roll).await {
                        tracing::error!(game = %self.table.row.id, "roll failed: {e}");
                        return;
                    }
                }
                Some(actor) => {
                    if let Some(color) = actor.color() {
                        self.start_bot(color);
                    }
                    return;
                }
                None => return,
            }
        }
    }

    /// Starts `color`'s bot thinking, when `color` is a server bot and none is thinking yet.
    fn start_bot(&mut self, color: Color) {
        if !self.table.is_bot(color) || self.bots.pending() {
            return;
        }
        let name = &self.table.row.players[index(color)]["bot:".len()..];
        let bot_time = self.host.config().bot_time;
        let Ok(bot) = find(self.host.bots(), name, bot_time.as_millis() as u64) else {
            tracing::error!(game = %self.table.row.id, "no bot named {name}");
            return;
        };
        let seat = Seat::from(color);
        let Some(LegalActions { actions, setup, .. }) = self.table.moment(now_ms()).legal(seat)
        else {
            return;
        };
        let Ok(decision) = Decision::new(self.table.game.typed_view(seat), actions, setup) else {
            return;
        };
        self.bots.start(bot, decision, bot_time, self.table.entries);
    }

    /// Plays the bot's answer if it is still wanted, else (late, illegal) a random action.
    async fn bot_answered(&mut self, answer: BotAnswer) {
        let Some(action) = self.bots.answered(answer, self.table.entries) else {
            return;
        };
        let Some(color) = self.table.game.to_act().and_then(Actor::color) else {
            return;
        };
        let Some(legal) = self.table.moment(now_ms()).legal(color.into()) else {
            return;
        };
        let tries = action
            .into_iter()
            .chain([fallback(&legal.actions, legal.setup)]);
        for input in tries {
            let play = Logged::Play {
                seat: color,
                input,
                text: String::new(),
            };
            match self.commit(Entry::now(play, now_ms())).await {
                Ok(_) => return,
                Err(e) => tracing::warn!(game = %self.table.row.id, "bot action refused: {e}"),
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Seat {
                seat,
                command,
                reply,
            } => {
                let result = match command {
                    SeatCommand::Act(text) => self.act(seat, text).await.map(Answer::Done),
                    SeatCommand::Meta(kind) => self.meta(seat, kind).await.map(Answer::Done),
                    SeatCommand::Abort => self.abort(seat).await.map(Answer::Done),
                    SeatCommand::ClaimVictory => self.claim_victory(seat).await.map(Answer::Done),
                    SeatCommand::Rematch => self.ask_rematch(seat).await.map(Answer::Rematch),
                };
                let _ = reply.send(result);
            }
            Command::Join {
                holder,
                invite,
                reply,
            } => {
                let result = self.join(holder, invite).await;
                let _ = reply.send(result);
            }
            Command::Claimed { account, name } => {
                if let Some(seat) = self.shared.seat_of_account(account) {
                    self.table.names[index(seat)] = Some(name);
                    self.update_public();
                }
            }
            Command::View { seat, reply } => {
                let _ = reply.send(Ok(self.view_message(seat)));
            }
            Command::Positions { seat, reply } => {
                let view = self.table.game.typed_view(seat);
                let seen = view.events().iter().map(|e| e.action).collect();
                let record = self.table.game.record();
                let _ = reply.send(crate::replay::seen_positions(record, seat, &seen));
            }
            Command::Record { reply } => {
                let result = match self.table.status {
                    Status::Over => Ok(self.table.game.record()),
                    Status::Aborted => Err(ApiError::conflict(
                        "aborted",
                        "the game was aborted: it has no record",
                    )),
                    _ => Err(ApiError::conflict(
                        "not-over",
                        "the game is not over: its record holds secrets until the end",
                    )),
                };
                let _ = reply.send(result);
            }
        }
    }

    fn playing(&self) -> Result<(), ApiError> {
        match self.table.status {
            // The flag has fallen but could not be stored (check_flag ran just before).
            Status::Live if self.table.flag_deadline().is_some_and(|d| d <= now_ms()) => {
                Err(ApiError::unavailable(
                    "the clock has run out but its flag fall could not be stored yet: try again",
                ))
            }
            Status::Live => Ok(()),
            Status::Open => Err(ApiError::conflict(
                "not-started",
                "the game has not started: it waits for an opponent to join",
            )),
            Status::Over => Err(ApiError::gone("the game is over")),
            Status::Aborted => Err(ApiError::gone("the game was aborted")),
        }
    }

    fn done(&self, events: Option<Vec<Event>>) -> Done {
        Done {
            entries: self.table.entries,
            events,
            ok: true,
            outcome: self.table.outcome,
            status: self.table.status,
            to_act: self.table.game.to_act(),
        }
    }

    async fn act(&mut self, seat: Color, text: String) -> Result<Done, ApiError> {
        self.playing()?;
        match self.table.game.to_act() {
            Some(actor) if actor == Actor::from(seat) => {}
            Some(actor) => {
                return Err(ApiError::conflict(
                    "not-your-turn",
                    format!("it is not your turn: {actor} is to act"),
                ))
            }
            None => return Err(ApiError::gone("the game is over")),
        }
        let play = Logged::Play {
            seat,
            input: text,
            text: String::new(),
        };
        let events = self.commit(Entry::now(play, now_ms())).await?;
        Ok(self.done(Some(events)))
    }

    async fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<Done, ApiError> {
        self.playing()?;
        self.commit(Entry::now(Logged::Meta { seat, kind }, now_ms()))
            .await?;
        // A server bot answers a draw offer at once, as a player would: it declines (it plays
        // on to the end).
        if kind == MetaKind::OfferDraw && self.table.is_bot(!seat) {
            let decline = Logged::Meta {
                seat: !seat,
                kind: MetaKind::DeclineDraw,
            };
            if let Err(e) = self.commit(Entry::now(decline, now_ms())).await {
                tracing::warn!(game = %self.table.row.id, "the bot's decline was not stored: {e}");
            }
        }
        Ok(self.done(None))
    }

    async fn abort(&mut self, seat: Color) -> Result<Done, ApiError> {
        let acted = self.table.acted;
        match self.table.status {
            Status::Open => {}
            Status::Live if !(acted[0] && acted[1]) => {}
            Status::Live => {
                return Err(ApiError::conflict(
                    "too-late-to-abort",
                    "too late to abort: both sides have acted (resign instead)",
                ))
            }
            _ => self.playing()?,
        }
        self.commit(Entry::now(Logged::Abort { seat }, now_ms()))
            .await?;
        Ok(self.done(None))
    }

    async fn claim_victory(&mut self, seat: Color) -> Result<Done, ApiError> {
        self.playing()?;
        let other = !seat;
        let name = Seat::from(other).name();
        let present = |message: String| Err(ApiError::conflict("opponent-present", message));
        if self.table.is_bot(other) {
            return present("a server bot never leaves a game".into());
        }
        let presence = &self.shared.presence[index(other)];
        if presence.connections.load(Ordering::Relaxed) > 0 {
            return present(format!("{name} is connected: no win can be claimed"));
        }
        let away = now_ms() - presence.last_seen.load(Ordering::Relaxed);
        let grace = self.host.config().grace.as_millis() as i64;
        if away < grace {
            return present(format!(
                "{name} has been away {} s: a win can be claimed after {} s",
                away / 1000,
                grace / 1000
            ));
        }
        self.commit(Entry::now(Logged::Abandon { seat: other }, now_ms()))
            .await?;
        Ok(self.done(None))
    }

    async fn ask_rematch(&mut self, seat: Color) -> Result<RematchAnswer, ApiError> {
        if self.table.status != Status::Over {
            return Err(ApiError::conflict(
                "not-over",
                "a rematch can be asked for only once the game is over",
            ));
        }
        let seated = |id: &str| RematchAnswer {
            asked: None,
            ok: true,
            rematch: Some(id.to_string()),
            seat: Some(Seat::from(!seat).name().to_string()),
        };
        if let Some(id) = &self.rematch {
            return Ok(seated(id));
        }
        self.rematch_asks[index(seat)] = true;
        for c in [Color::White, Color::Black] {
            if self.table.is_bot(c) {
                self.rematch_asks[index(c)] = true;
            }
        }
        if !(self.rematch_asks[0] && self.rematch_asks[1]) {
            return Ok(RematchAnswer {
                asked: Some(true),
                ok: true,
                rematch: None,
                seat: None,
            });
        }
        let mut row = self.table.row.clone();
        row.accounts = *self.shared.accounts.read().expect("seat lock");
        row.guests = self.shared.guests.read().expect("seat lock").clone();
        let id = self.host.rematch(row, self.clients.clone()).await?;
        let write = Write::Rematch {
            game: self.table.row.id.clone(),
            rematch: id.clone(),
        };
        let mut writes = vec![write];
        if let Some((fence, _)) = &self.owner {
            writes.insert(0, fence.clone());
        }
        self.host
            .store()
            .write(writes)
            .await
            .map_err(store_refusal)?;
        self.rematch = Some(id.clone());
        Ok(seated(&id))
    }

    async fn join(
        &mut self,
        holder: Holder,
        invite: Option<String>,
    ) -> Result<(Color, String), ApiError> {
        if self.table.status != Status::Open {
            return Err(ApiError::conflict(
                "no-open-seat",
                "no seat is open in this game",
            ));
        }
        if let Some(expected) = &self.table.row.invite {
            let given = invite.map(|code| hex::encode(token_hash(&code)));
            let equal: bool = given
                .unwrap_or_default()
                .as_bytes()
                .ct_eq(expected.as_bytes())
                .into();
            if !equal {
                return Err(ApiError::Forbidden(
                    "this game is private: its seat is taken only with the invitation link".into(),
                ));
            }
        }
        let seat = if self.table.row.players[0] == "open" {
            Color::White
        } else {
            Color::Black
        };
        let (token, hash) = new_token();
        let own = |(id, _): &(i64, String)| self.shared.seat_of_account(*id).is_some();
        if holder.account.as_ref().is_some_and(own) {
            return Err(ApiError::conflict(
                "own-game",
                "this account holds the other seat: a player cannot play itself",
            ));
        }
        let extra = Write::Join {
            game: self.table.row.id.clone(),
            seat: index(seat),
            token: hex::encode(hash),
            account: holder.account.as_ref().map(|(id, _)| *id),
            guest: holder.guest.clone(),
        };
        self.commit_with(Entry::now(Logged::Join { seat }, now_ms()), vec![extra])
            .await?;
        self.shared.tokens.write().expect("token lock")[index(seat)] = Some(hash);
        self.table.row.tokens[index(seat)] = Some(hex::encode(hash));
        self.shared.presence[index(seat)].seen();
        self.shared.accounts.write().expect("seat lock")[index(seat)] =
            holder.account.as_ref().map(|(id, _)| *id);
        self.shared.guests.write().expect("seat lock")[index(seat)] = holder.guest;
        self.table.names[index(seat)] = holder.account.map(|(_, name)| name);
        self.update_public();
        self.clients[index(seat)] = holder.key;
        self.host.announce(self.news());
        Ok((seat, token))
    }

    async fn commit(&mut self, entry: Entry) -> Result<Vec<Event>, ApiError> {
        self.commit_with(entry, Vec::new()).await
    }

    /// Applies an entry, makes it durable, then tells the seats. A refused or unwritable entry
    /// changes nothing.
    async fn commit_with(
        &mut self,
        mut entry: Entry,
        extra: Vec<Write>,
    ) -> Result<Vec<Event>, ApiError> {
        let before = self.table.clone();
        let events = self.table.apply(&mut entry)?;
        let mut writes = vec![Write::Entry {
            game: self.table.row.id.clone(),
            seq: before.entries,
            entry: entry.clone(),
        }];
        writes.extend(extra);
        if let Some((fence, _)) = &self.owner {
            writes.insert(0, fence.clone());
        }
        let status = self.table.status;
        if status != before.status && status.ended() {
            writes.push(Write::Status {
                game: self.table.row.id.clone(),
                status,
                result: self.table.outcome.map(result_of),
            });
        }
        // A rated game's end changes the ratings in the same transaction: never lost, never
        // twice.
        let rated = (status != before.status)
            .then(|| self.rated_end(entry.at_ms))
            .flatten();
        let accounts = rated.as_ref().map(|end| end.accounts.map(Some));
        writes.extend(rated.map(|end| Write::Rate(Box::new(end))));
        if let Err(e) = self.host.store().write(writes).await {
            self.table = before;
            self.retired |= matches!(e, StoreError::Fenced(_) | StoreError::Unconfirmed(_));
            return Err(store_refusal(e));
        }
        if let Some(accounts) = accounts {
            match self
                .host
                .store()
                .ratings()
                .changes(&self.table.row.id)
                .await
            {
                Ok(changes) => self.table.ratings = rating_diffs(&changes, accounts),
                Err(e) => tracing::error!(game = %self.table.row.id, "rating changes unread: {e}"),
            }
        }
        self.emit(entry.at_ms);
        if status != before.status {
            self.update_public();
            if status.ended() {
                self.bots.stop();
                self.host.release(&self.clients);
                self.host.announce(self.news());
                tracing::info!(game = %self.table.row.id, status = status.name(), "game ended");
            }
        }
        Ok(events)
    }

    /// The rated end of this game, when it is rated, over, between two accounts, and both sides
    /// acted (a game ended before that changes no rating).
    fn rated_end(&self, at_ms: i64) -> Option<RatedEnd> {
        let table = &self.table;
        let both_acted = table.acted[0] && table.acted[1];
        if !(table.row.rated && table.status == Status::Over && both_acted) {
            return None;
        }
        let accounts = *self.shared.accounts.read().expect("seat lock");
        let white_score = match table.outcome?.winner {
            Some(Color::White) => 1.0,
            Some(Color::Black) => 0.0,
            None => 0.5,
        };
        Some(RatedEnd {
            game: table.row.id.clone(),
            variant: table.row.variant.clone(),
            accounts: [accounts[0]?, accounts[1]?],
            white_score,
            at_ms,
        })
    }

    /// Sends each seat what changed in its view, if anything did.
    fn emit(&mut self, t: i64) {
        feed::emit(&self.table.moment(t), &mut self.sent, &self.shared.feeds);
    }

    /// The `view` answer for a seat: the whole view message now, and the rematch.
    fn view_message(&self, seat: Seat) -> Message {
        let i = SEATS.iter().position(|s| *s == seat).expect("a seat");
        let now = now_ms();
        let mut message = self.table.moment(now).whole(seat, self.sent[i].seq());
        let grace = self.host.config().grace.as_millis() as i64;
        let live = self.table.status == Status::Live;
        let presence = |color: Color| {
            if self.table.is_bot(color) {
                return SeatPresence {
                    connected: true,
                    claimable: false,
                };
            }
            let p = &self.shared.presence[index(color)];
            let connected = p.connections.load(Ordering::Relaxed) > 0;
            let away = now - p.last_seen.load(Ordering::Relaxed);
            SeatPresence {
                connected,
                claimable: live && !connected && away >= grace,
            }
        };
        message.presence = Some(BySeat {
            black: presence(Color::Black),
            white: presence(Color::White),
        });
        message.rematch = Some(RematchState {
            asked: BySeat {
                black: self.rematch_asks[1],
                white: self.rematch_asks[0],
            },
            id: self.rematch.clone(),
        });
        message
    }

    /// The lobby entry: public facts only.
    fn update_public(&self) {
        *self.shared.public.lock().expect("public lock") = Some(self.table.lobby_entry());
    }
}

/// A finished game's result as PGN writes it.
pub fn result_of(outcome: Outcome) -> &'static str {
    match outcome.winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None => "1/2-1/2",
    }
}

/// A write the database refused: the action was not played.
fn store_refusal(e: StoreError) -> ApiError {
    ApiError::unavailable(format!(
        "the action could not be stored, so it was not played: {e}"
    ))
}

/// Until `stop` is set (never without one).
async fn stopped(stop: &mut Option<watch::Receiver<bool>>) {
    match stop {
        Some(stop) => {
            let _ = stop.wait_for(|s| *s).await;
        }
        None => std::future::pending().await,
    }
}

async fn sleep_opt(wait: Option<Duration>) {
    match wait {
        Some(d) => tokio::time::sleep(d).await,
        None => std::future::pending().await,
    }
}

/// A secret seed for a new game (its Chance, its salts): from the operating system.
pub fn new_seed() -> u64 {
    os_u64()
}
