//! The registry of games: creates rooms, finds them (loading finished games from the database
//! on demand), and counts each client's live games and open streams.

use crate::accounts::{Accounts, Caller};
use crate::bot::{find, Bot};
use crate::cluster::pairing::Kind;
use crate::cluster::{bus, Cluster};
use crate::config::Config;
use crate::error::ApiError;
use crate::pairing::{Pairing, Seeks, Terms, Waiting};
use crate::replay::ReplayCache;
use crate::room::{
    index, new_arbiter, new_seed, now_ms, rating_diffs, Command, GameNews, Holder, Host, Room,
    Shared,
};
use crate::secret::{new_game_id, new_token};
use crate::store::{GameRow, Store, StoreError, Write};
use crate::wire::{AccountEvent, BySeat, EventGame, LobbyGame, RatingDiff, Status, VariantRef};
use bluffchess_rules::board::Color;
use futures_util::future::BoxFuture;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};
use tokio::sync::watch;

/// What a new game needs.
pub struct NewGame {
    pub variant: String,
    pub options: String,
    pub clock: Option<(i64, i64)>,
    /// The creator's seat.
    pub seat: Color,
    /// The opponent: `open` or `bot:NAME`.
    pub opponent: String,
    /// Never listed in the lobby; an open seat is taken only with the invitation.
    pub private: bool,
    /// Who creates it.
    pub creator: Holder,
    /// Rated: against a server bot by its name only.
    pub rated: bool,
}

/// A new game's creator: its seat's token, and the invitation to a private game's open seat.
pub struct Created {
    pub shared: Arc<Shared>,
    pub token: String,
    pub invite: Option<String>,
}

/// Every game the server holds.
pub struct Hub {
    me: Weak<Hub>,
    pub store: Store,
    pub config: Config,
    pub accounts: Accounts,
    pub bots: HashMap<String, Arc<dyn Bot>>,
    pub shutdown: watch::Receiver<bool>,
    /// The replays of finished games asked for last.
    pub replays: ReplayCache,
    /// Seeks, challenges and event streams.
    pub pairing: Pairing,
    /// The accounts of the server's bots, by bot name: id and name.
    bot_accounts: OnceLock<HashMap<String, (i64, String)>>,
    games: Mutex<HashMap<String, Arc<Shared>>>,
    live_by_client: Mutex<HashMap<String, usize>>,
    streams_by_client: Mutex<HashMap<String, usize>>,
    loading: tokio::sync::Mutex<()>,
    /// This node's cluster, when it is one of many (`serve --cluster`).
    cluster: OnceLock<Arc<Cluster>>,
}

impl Host for Hub {
    fn store(&self) -> &Store {
        &self.store
    }

    fn config(&self) -> &Config {
        &self.config
    }

    fn bots(&self) -> &HashMap<String, Arc<dyn Bot>> {
        &self.bots
    }

    fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    fn evict(&self, id: &str) {
        self.games.lock().expect("games lock").remove(id);
        if let Some(cluster) = self.cluster().cloned() {
            let id = id.to_string();
            tokio::spawn(async move { cluster.forget(&id).await });
        }
    }

    fn release(&self, clients: &[Option<String>]) {
        let mut counts = self.live_by_client.lock().expect("client lock");
        for client in clients.iter().flatten() {
            if let Some(count) = counts.get_mut(client) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    counts.remove(client);
                }
            }
        }
    }

    fn rematch(
        &self,
        old: GameRow,
        clients: [Option<String>; 2],
    ) -> BoxFuture<'_, Result<String, ApiError>> {
        Box::pin(async move { self.create_rematch(&old, clients).await })
    }

    fn announce(&self, news: GameNews) {
        let mut told = Vec::new();
        let ended = news.status.ended();
        for (i, listeners) in news.listeners.iter().enumerate() {
            let color = if i == 0 { Color::White } else { Color::Black };
            let diff = news.ratings.as_ref().map(|r| match color {
                Color::White => r.white.diff,
                Color::Black => r.black.diff,
            });
            let game = EventGame {
                color: color.name().into(),
                game_id: news.id.clone(),
                id: news.id.clone(),
                opponent: news.opponents[i].clone(),
                rated: news.rated,
                rating_diff: diff,
                status: match (news.status, news.outcome) {
                    (Status::Over, Some(outcome)) => outcome.reason.id().into(),
                    (status, _) if status.ended() => status.name().into(),
                    _ => "started".into(),
                },
                variant: VariantRef {
                    key: news.variant.clone(),
                },
                winner: news.outcome.and_then(|o| o.winner).map(|w| w.name().into()),
            };
            let event = match ended {
                true => AccountEvent::GameFinish { game },
                false => AccountEvent::GameStart { game },
            };
            for listener in listeners {
                told.push((listener.clone(), event.clone()));
            }
        }
        self.tell(told);
    }
}

impl Hub {
    /// A hub over `store`.
    pub fn new(
        store: Store,
        config: Config,
        bots: HashMap<String, Arc<dyn Bot>>,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Hub> {
        Arc::new_cyclic(|me| Hub {
            me: me.clone(),
            accounts: Accounts::new(store.clone()),
            store,
            config,
            bots,
            shutdown,
            replays: Default::default(),
            pairing: Pairing::default(),
            bot_accounts: OnceLock::new(),
            games: Mutex::new(HashMap::new()),
            live_by_client: Mutex::new(HashMap::new()),
            streams_by_client: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            cluster: OnceLock::new(),
        })
    }

    /// The host of this hub's rooms.
    fn host(&self) -> Arc<dyn Host> {
        self.me.upgrade().expect("the hub outlives its rooms")
    }

    /// Makes sure each server bot (by its bare name) has its account, so that its games can be
    /// rated.
    pub async fn prepare_bot_accounts(&self) -> Result<(), ApiError> {
        let mut accounts = HashMap::new();
        let mut names: Vec<&String> = self.bots.keys().collect();
        names.sort();
        for name in names {
            let id = self
                .store
                .accounts()
                .server_bot(name, now_ms())
                .await
                .map_err(unavailable)?;
            accounts.insert(name.clone(), (id, name.clone()));
        }
        let _ = self.bot_accounts.set(accounts);
        Ok(())
    }

    /// The account of the server bot `name` (a bare name: bots with parameters have none).
    pub fn bot_account(&self, name: &str) -> Option<(i64, String)> {
        self.bot_accounts.get()?.get(name).cloned()
    }

    /// Reloads every unfinished game; returns how many.
    pub async fn reload(&self) -> Result<usize, ApiError> {
        if self.cluster().is_some() {
            // A cluster's nodes take the games no node holds as they go (see `keep_leases`).
            return Ok(0);
        }
        let ids = self.store.unfinished().await.map_err(unavailable)?;
        for id in &ids {
            self.load(id, false).await?;
        }
        Ok(ids.len())
    }

    /// The game `id`, loaded from the database if it is not in memory.
    pub async fn get(&self, id: &str) -> Result<Arc<Shared>, ApiError> {
        if let Some(shared) = self.games.lock().expect("games lock").get(id) {
            if !shared.tx.is_closed() {
                return Ok(shared.clone());
            }
        }
        if id.len() > 64 {
            return Err(ApiError::no_game(id));
        }
        self.load(id, false).await
    }

    /// This node's cluster, when it is one.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// Makes this hub a node of `cluster` (before it serves anything).
    pub fn set_cluster(&self, cluster: Arc<Cluster>) {
        let _ = self.cluster.set(cluster);
    }

    /// Loads the game `id` into a room here, or (in a cluster, when another node owns it) opens
    /// its relay. A node taking over a game it relays (`take_over`) replaces its relay.
    async fn load(&self, id: &str, take_over: bool) -> Result<Arc<Shared>, ApiError> {
        let _loading = self.loading.lock().await;
        if let Some(shared) = self.games.lock().expect("games lock").get(id) {
            let replaced = take_over && shared.relayed;
            if !shared.tx.is_closed() && !replaced {
                return Ok(shared.clone());
            }
        }
        let Some(cluster) = self.cluster().cloned() else {
            return self.restore(id, None).await;
        };
        if !bus::valid_id(id) {
            return Err(ApiError::no_game(id));
        }
        let elsewhere = cluster.owned_elsewhere(id).await.map_err(unavailable)?;
        if elsewhere && take_over {
            return Err(ApiError::conflict(
                OWNED_ELSEWHERE,
                "another node took the game",
            ));
        }
        let owner = match elsewhere {
            true => None,
            // Read first: an id that is no game takes no lease.
            false => match self.store.load(id).await.map_err(unavailable)? {
                None => return Err(ApiError::no_game(id)),
                Some(_) => cluster.take(id).await.map_err(unavailable)?,
            },
        };
        let shared = match owner {
            // Read again once the lease is held: the log as the last owner left it.
            Some(owner) => match self.restore(id, Some(owner)).await {
                Ok(shared) => shared,
                Err(e) => {
                    // Never hold a lease without a room: another node may do better.
                    cluster.forget(id).await;
                    return Err(e);
                }
            },
            None => {
                let shared = cluster.relay(id, self.shutdown.clone()).await?;
                self.games
                    .lock()
                    .expect("games lock")
                    .insert(id.to_string(), shared.clone());
                shared
            }
        };
        Ok(shared)
    }

    /// Restores the game `id` from the database into a room here (in a cluster, owned: its
    /// writes fenced with its lease, and served to the other nodes).
    async fn restore(
        &self,
        id: &str,
        owner: Option<(Write, watch::Receiver<bool>)>,
    ) -> Result<Arc<Shared>, ApiError> {
        let (row, rematch, log) = self
            .store
            .load(id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ApiError::no_game(id))?;
        let names = self.names(&row.accounts).await?;
        let ratings = self.rating_diffs(&row).await?;
        let (mut room, rx) = Room::restore(self.host(), row, names, ratings, rematch, &log)?;
        let owned = owner.is_some();
        if let Some((fence, stop)) = owner {
            room.set_owner(fence, stop);
        }
        let shared = room.shared();
        self.games
            .lock()
            .expect("games lock")
            .insert(id.to_string(), shared.clone());
        room.spawn(rx);
        if let (true, Some(cluster)) = (owned, self.cluster()) {
            cluster.serve(shared.clone());
        }
        Ok(shared)
    }

    /// A cluster node's upkeep, every second until the server stops: renews its leases (a room
    /// whose lease was lost stops), takes the games no node holds, and forgets stopped rooms.
    pub async fn keep_leases(self: Arc<Self>) {
        let Some(cluster) = self.cluster().cloned() else {
            return;
        };
        let mut released = cluster.nats.subscribe(bus::RELEASED).await.ok();
        let mut announced = cluster.nats.subscribe(bus::ANNOUNCED).await.ok();
        let mut shutdown = self.shutdown.clone();
        let mut tick = tokio::time::interval(crate::cluster::TICK);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                // Another node drains: its games are free now, not in a second.
                Some(_) = next_message(&mut released) => {}
                Some(message) = next_message(&mut announced) => {
                    let told: Vec<(String, AccountEvent)> =
                        serde_json::from_slice(&message.payload).unwrap_or_default();
                    for (listener, event) in told {
                        self.pairing.listeners.publish(&listener, event);
                    }
                    continue;
                }
                _ = shutdown.changed() => return,
            }
            cluster.renew().await;
            self.games
                .lock()
                .expect("games lock")
                .retain(|_, shared| !shared.tx.is_closed());
            for id in cluster.orphans().await {
                match self.load(&id, true).await {
                    // Another node took it since the look: nothing to do.
                    Err(e) if e.kind() == OWNED_ELSEWHERE => {}
                    Err(e) => tracing::warn!(game = %id, "cannot take over the game: {e}"),
                    Ok(_) => {}
                }
            }
        }
    }

    /// The names of the accounts that hold a game's seats.
    async fn names(&self, accounts: &[Option<i64>; 2]) -> Result<[Option<String>; 2], ApiError> {
        let mut names = [None, None];
        for (name, id) in names.iter_mut().zip(accounts) {
            if let Some(id) = id {
                *name = self.accounts.name_of(*id).await?.map(|a| a.username);
            }
        }
        Ok(names)
    }

    /// A finished rated game's changes to its players' ratings.
    async fn rating_diffs(&self, row: &GameRow) -> Result<Option<BySeat<RatingDiff>>, ApiError> {
        if !(row.rated && row.status == Status::Over) {
            return Ok(None);
        }
        let changes = self
            .store
            .ratings()
            .changes(&row.id)
            .await
            .map_err(unavailable)?;
        Ok(rating_diffs(&changes, row.accounts))
    }

    /// Counts a live game for `client` (a limits' key), or refuses past the limit.
    pub fn reserve(&self, client: Option<&str>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        let mut counts = self.live_by_client.lock().expect("client lock");
        let count = counts.entry(client.to_string()).or_default();
        if *count >= self.config.max_live_per_client {
            return Err(ApiError::TooMany(format!(
                "too many live games: each client may have {} at once",
                self.config.max_live_per_client
            )));
        }
        *count += 1;
        Ok(())
    }

    /// Uncounts the live games of these clients.
    pub fn release(&self, clients: &[Option<String>]) {
        Host::release(self, clients);
    }

    /// Counts an open stream or socket of `client` (a limits' key) until the slot is dropped,
    /// or refuses past the limit.
    pub fn open_stream(self: &Arc<Self>, client: String) -> Result<StreamSlot, ApiError> {
        let mut counts = self.streams_by_client.lock().expect("client lock");
        let count = counts.entry(client.clone()).or_default();
        if *count >= self.config.max_streams_per_client {
            return Err(ApiError::TooMany(format!(
                "too many open streams and sockets: each client may have {} at once",
                self.config.max_streams_per_client
            )));
        }
        *count += 1;
        Ok(StreamSlot(self.clone(), client))
    }

    /// Creates a game: answers its shared part, the creator's token and a private game's
    /// invitation.
    pub async fn create(&self, new: NewGame) -> Result<Created, ApiError> {
        let bot = new.opponent.strip_prefix("bot:");
        if let Some(name) = bot {
            let max_ms = self.config.bot_time.as_millis() as u64;
            find(&self.bots, name, max_ms).map_err(ApiError::bad)?;
        } else if new.opponent != "open" {
            return Err(ApiError::bad(
                "\"opponent\" must be \"open\" or \"bot:NAME\" (bot:random)",
            ));
        }
        let (token, hash) = new_token();
        let invite = (new.private && bot.is_none()).then(new_token);
        let mut players = [String::new(), String::new()];
        let mut tokens = [None, None];
        let mut accounts = [None, None];
        let mut guests = [None, None];
        let mut names = [None, None];
        let creator = new.creator;
        if new.rated {
            accounts[index(!new.seat)] = Some(self.rated_opponent(bot, &creator)?);
        }
        let i = index(new.seat);
        players[i] = "player".into();
        tokens[i] = Some(hex::encode(hash));
        accounts[i] = creator.account.as_ref().map(|(id, _)| *id);
        names[i] = creator.account.map(|(_, name)| name);
        guests[i] = creator.guest;
        players[index(!new.seat)] = new.opponent.clone();
        let row = GameRow {
            id: new_game_id(),
            variant: new.variant,
            options: new.options,
            seed: new_seed(),
            salt_seed: new_seed(),
            clock: new.clock,
            players,
            tokens,
            status: if bot.is_some() {
                Status::Live
            } else {
                Status::Open
            },
            rematch_of: None,
            created_ms: now_ms(),
            private: new.private,
            invite: invite.as_ref().map(|(_, hash)| hex::encode(hash)),
            accounts,
            guests,
            rated: new.rated,
        };
        // Refuse bad variants and options before anything is stored.
        new_arbiter(&row)?;
        let key = creator.key;
        self.reserve(key.as_deref())?;
        let started = self
            .start(row, names, |room| room.set_client(new.seat, key.clone()))
            .await;
        let shared = match started {
            Ok(shared) => shared,
            Err(e) => {
                self.release(&[key]);
                return Err(e);
            }
        };
        Ok(Created {
            shared,
            token,
            invite: invite.map(|(code, _)| code),
        })
    }

    /// The account of the server bot a rated game is created against, or why it cannot be.
    fn rated_opponent(&self, bot: Option<&str>, creator: &Holder) -> Result<i64, ApiError> {
        if creator.account.is_none() {
            return Err(ApiError::bad(
                "a rated game is between two accounts: sign up or log in to play rated",
            ));
        }
        let Some(bot) = bot else {
            return Err(ApiError::bad(
                "a rated game with an open seat is a seek: POST /api/seek with \"rated\": true",
            ));
        };
        match self.bot_account(bot) {
            Some((id, _)) => Ok(id),
            None => Err(ApiError::bad(format!(
                "bot:{} plays casual games only: rated games are against the bots by their names",
                bot.chars().take(40).collect::<String>()
            ))),
        }
    }

    /// Creates a game between two players (not server bots) who agreed on `terms`: `asker` (whose colour choice
    /// the terms hold) and `other`; answers it and each seat's token (White's, Black's).
    pub async fn create_paired(
        &self,
        terms: &Terms,
        asker: Holder,
        other: Holder,
        coin: bool,
    ) -> Result<(Arc<Shared>, [String; 2]), ApiError> {
        let asker_seat = terms.asker_seat(None, coin);
        let mut seats = [asker, other];
        if asker_seat == Color::Black {
            seats.swap(0, 1);
        }
        let [(white_token, white_hash), (black_token, black_hash)] = [new_token(), new_token()];
        let row = GameRow {
            id: new_game_id(),
            variant: terms.variant.clone(),
            options: terms.options_json(),
            seed: new_seed(),
            salt_seed: new_seed(),
            clock: terms.clock,
            players: ["player".into(), "player".into()],
            tokens: [Some(hex::encode(white_hash)), Some(hex::encode(black_hash))],
            status: Status::Live,
            rematch_of: None,
            created_ms: now_ms(),
            private: false,
            invite: None,
            accounts: [0, 1].map(|i| seats[i].account.as_ref().map(|(id, _)| *id)),
            guests: [0, 1].map(|i| seats[i].guest.clone()),
            rated: terms.rated,
        };
        new_arbiter(&row)?;
        let keys = [0, 1].map(|i| seats[i].key.clone());
        self.reserve(keys[0].as_deref())?;
        if let Err(e) = self.reserve(keys[1].as_deref()) {
            self.release(&keys[..1]);
            return Err(e);
        }
        let names = [0, 1].map(|i| seats[i].account.as_ref().map(|(_, n)| n.clone()));
        let started = self
            .start(row, names, |room| {
                room.set_client(Color::White, keys[0].clone());
                room.set_client(Color::Black, keys[1].clone());
            })
            .await;
        match started {
            Ok(shared) => Ok((shared, [white_token, black_token])),
            Err(e) => {
                self.release(&keys);
                Err(e)
            }
        }
    }

    /// Creates the rematch of a finished game: colours swapped, each player keeps its token and
    /// counts it among its live games (`clients`: the old game's White's and Black's).
    pub async fn create_rematch(
        &self,
        old: &GameRow,
        clients: [Option<String>; 2],
    ) -> Result<String, ApiError> {
        self.reserve(clients[0].as_deref())?;
        if let Err(e) = self.reserve(clients[1].as_deref()) {
            self.release(&clients[..1]);
            return Err(e);
        }
        let row = GameRow {
            id: new_game_id(),
            variant: old.variant.clone(),
            options: old.options.clone(),
            seed: new_seed(),
            salt_seed: new_seed(),
            clock: old.clock,
            players: [old.players[1].clone(), old.players[0].clone()],
            tokens: [old.tokens[1].clone(), old.tokens[0].clone()],
            status: Status::Live,
            rematch_of: Some(old.id.clone()),
            created_ms: now_ms(),
            private: old.private,
            invite: None,
            accounts: [old.accounts[1], old.accounts[0]],
            guests: [old.guests[1].clone(), old.guests[0].clone()],
            rated: old.rated,
        };
        let id = row.id.clone();
        let names = self.names(&row.accounts).await?;
        let started = self
            .start(row, names, |room| {
                room.set_client(Color::White, clients[1].clone());
                room.set_client(Color::Black, clients[0].clone());
            })
            .await;
        if let Err(e) = started {
            self.release(&clients);
            return Err(e);
        }
        Ok(id)
    }

    async fn start(
        &self,
        row: GameRow,
        names: [Option<String>; 2],
        prepare: impl FnOnce(&mut Room),
    ) -> Result<Arc<Shared>, ApiError> {
        self.store
            .write(vec![Write::Game(Box::new(row.clone()))])
            .await
            .map_err(unavailable)?;
        let id = row.id.clone();
        let owner = match self.cluster() {
            Some(cluster) => match cluster.take(&id).await.map_err(unavailable)? {
                Some(owner) => Some(owner),
                None => return Err(ApiError::unavailable("this node is draining: try again")),
            },
            None => None,
        };
        let (mut room, rx) = Room::restore(self.host(), row, names, None, None, &[])?;
        prepare(&mut room);
        let owned = owner.is_some();
        if let Some((fence, stop)) = owner {
            room.set_owner(fence, stop);
        }
        debug_assert!(matches!(room.status(), Status::Open | Status::Live));
        if room.status() == Status::Live {
            self.announce(room.news());
        }
        let shared = room.shared();
        self.games
            .lock()
            .expect("games lock")
            .insert(id.clone(), shared.clone());
        room.spawn(rx);
        if let (true, Some(cluster)) = (owned, self.cluster()) {
            cluster.serve(shared.clone());
        }
        tracing::info!(game = %id, "game created");
        Ok(shared)
    }

    /// The lobby: open seats and live games of public games, newest first.
    pub fn lobby(&self) -> (Vec<LobbyGame>, Vec<LobbyGame>) {
        let games: Vec<Arc<Shared>> = self
            .games
            .lock()
            .expect("games lock")
            .values()
            .cloned()
            .collect();
        let mut open = Vec::new();
        let mut live = Vec::new();
        for shared in games.into_iter().filter(|g| !g.private) {
            let public = shared.public.lock().expect("public lock").clone();
            match public {
                Some(game) if game.status == Status::Open => open.push(game),
                Some(game) if game.status == Status::Live => live.push(game),
                _ => {}
            }
        }
        let by_time = |a: &LobbyGame, b: &LobbyGame| {
            b.created_ms
                .cmp(&a.created_ms)
                .then_with(|| a.id.cmp(&b.id))
        };
        open.sort_by(by_time);
        live.sort_by(by_time);
        (open, live)
    }
}

impl Hub {
    /// [`Hub::live_games_of`], in a cluster with an account's games owned by other nodes too
    /// (each opened here, relayed, as a request for it would).
    pub async fn live_games_anywhere(&self, caller: &Caller) -> Result<Vec<EventGame>, ApiError> {
        if let (Some(_), Some(account)) = (self.cluster(), &caller.account) {
            let games = self
                .store
                .accounts()
                .games(account.id, 100)
                .await
                .map_err(unavailable)?;
            for game in games.iter().filter(|g| g.status == Status::Live.name()) {
                // A game that cannot be reached now is left out, not the whole stream.
                if let Err(e) = self.get(&game.id).await {
                    tracing::warn!(game = %game.id, "a live game left out of an event stream: {e}");
                }
            }
        }
        Ok(self.live_games_of(caller))
    }

    /// The live games `caller` (its account, or its guest session) holds a seat of, among
    /// those in this node's memory.
    pub fn live_games_of(&self, caller: &Caller) -> Vec<EventGame> {
        let games: Vec<Arc<Shared>> = self
            .games
            .lock()
            .expect("games lock")
            .values()
            .cloned()
            .collect();
        let mut live = Vec::new();
        for shared in games {
            let seat = match (&caller.account, caller.guest()) {
                (Some(account), _) => shared.seat_of_account(account.id),
                (None, Some(guest)) => shared.seat_of_guest(guest),
                (None, None) => None,
            };
            let public = shared.public.lock().expect("public lock").clone();
            let (Some(seat), Some(game)) = (seat, public) else {
                continue;
            };
            if game.status != Status::Live {
                continue;
            }
            let (names, players) = match seat {
                Color::White => (game.names.black, game.players.black),
                Color::Black => (game.names.white, game.players.white),
            };
            let opponent = match names {
                Some(name) => name,
                None if players.starts_with("bot:") => players,
                None => "guest".into(),
            };
            live.push(EventGame {
                color: seat.name().into(),
                game_id: game.id.clone(),
                id: game.id,
                opponent,
                rated: game.rated,
                rating_diff: None,
                status: "started".into(),
                variant: VariantRef { key: game.variant },
                winner: None,
            });
        }
        live
    }

    /// The open seeks (of every node), newest first.
    pub async fn seeks(&self) -> Result<Vec<crate::wire::OpenSeek>, ApiError> {
        self.look_at_seeks(Seeks::listed).await
    }

    /// Seeks made before this have expired.
    fn seek_cutoff(&self) -> i64 {
        now_ms() - self.config.seek_ttl.as_millis() as i64
    }

    /// Looks at the waiting seeks, their expired ones left out, without changing them: in a
    /// cluster as they stand, taking no lock (every lobby reads them every few seconds).
    pub async fn look_at_seeks<R>(&self, look: impl FnOnce(&Seeks) -> R) -> Result<R, ApiError> {
        let Some(cluster) = self.cluster() else {
            return self.with_seeks(|seeks| look(seeks)).await;
        };
        let mut seeks = Seeks::from_vec(cluster.pairing_now(Kind::Seek).await?);
        seeks.expire(self.seek_cutoff());
        Ok(look(&seeks))
    }

    /// Runs `change` on the waiting seeks, their expired ones gone: this node's, or in a cluster
    /// every node's (one change at a time across the cluster).
    pub async fn with_seeks<R>(&self, change: impl FnOnce(&mut Seeks) -> R) -> Result<R, ApiError> {
        let cutoff = self.seek_cutoff();
        let run = |seeks: &mut Seeks| {
            seeks.expire(cutoff);
            change(seeks)
        };
        let Some(cluster) = self.cluster() else {
            return Ok(run(&mut self.pairing.seeks.lock().expect("seeks lock")));
        };
        cluster
            .pairing(Kind::Seek, Seeks::id_of, |all| {
                let mut seeks = Seeks::from_vec(all);
                let answer = run(&mut seeks);
                (seeks.into_vec(), answer)
            })
            .await
    }

    /// Looks at the challenges waiting for an answer without changing them: in a cluster as
    /// they stand, taking no lock.
    pub async fn look_at_challenges<R>(
        &self,
        look: impl FnOnce(&Waiting) -> R,
    ) -> Result<R, ApiError> {
        let Some(cluster) = self.cluster() else {
            return self.with_challenges(|waiting| look(waiting)).await;
        };
        let mut waiting = Waiting::from_vec(cluster.pairing_now(Kind::Challenge).await?);
        waiting.expire(challenge_cutoff());
        Ok(look(&waiting))
    }

    /// Runs `change` on the challenges waiting for an answer, their expired ones gone: this
    /// node's, or in a cluster every node's.
    pub async fn with_challenges<R>(
        &self,
        change: impl FnOnce(&mut Waiting) -> R,
    ) -> Result<R, ApiError> {
        let cutoff = challenge_cutoff();
        let Some(cluster) = self.cluster() else {
            return Ok(change(
                &mut self.pairing.challenges.lock().expect("challenges lock"),
            ));
        };
        cluster
            .pairing(Kind::Challenge, Waiting::id_of, |all| {
                let mut waiting = Waiting::from_vec(all);
                waiting.expire(cutoff);
                let answer = change(&mut waiting);
                (waiting.into_vec(), answer)
            })
            .await
    }

    /// Sends each event to its listener's open event streams: this node's, or in a cluster
    /// every node's (a player's streams may be open anywhere).
    pub fn tell(&self, told: Vec<(String, AccountEvent)>) {
        let Some(cluster) = self.cluster() else {
            for (listener, event) in told {
                self.pairing.listeners.publish(&listener, event);
            }
            return;
        };
        let body = serde_json::to_vec(&told).expect("events serialise");
        let nats = cluster.nats.clone();
        tokio::spawn(async move {
            if let Err(e) = nats.publish(bus::ANNOUNCED, body.into()).await {
                tracing::warn!("an account's events were not sent to the other nodes: {e}");
            }
        });
    }

    /// After a guest's session became `account`'s: the seats the guest held in the games in
    /// memory are the account's now (the database's were changed by the claim).
    pub async fn claimed(&self, guest: &str, account: i64, name: &str) {
        let games: Vec<Arc<Shared>> = self
            .games
            .lock()
            .expect("games lock")
            .values()
            .filter(|g| g.seat_of_guest(guest).is_some())
            .cloned()
            .collect();
        for shared in games {
            if let Some(seat) = shared.seat_of_guest(guest) {
                shared.guests.write().expect("seat lock")[index(seat)] = None;
                shared.accounts.write().expect("seat lock")[index(seat)] = Some(account);
            }
            let name = name.to_string();
            let _ = shared.tx.send(Command::Claimed { account, name }).await;
        }
    }
}

async fn next_message(
    subscriber: &mut Option<async_nats::Subscriber>,
) -> Option<async_nats::Message> {
    use futures_util::StreamExt;
    match subscriber {
        Some(s) => s.next().await,
        None => std::future::pending().await,
    }
}

/// The refusal's kind when a node would take over a game another node took meanwhile.
const OWNED_ELSEWHERE: &str = "owned-elsewhere";

/// The database could not answer: 503.
fn unavailable(e: StoreError) -> ApiError {
    ApiError::unavailable(e.to_string())
}

/// An open stream or socket, counted against its client while it lives.
pub struct StreamSlot(Arc<Hub>, String);

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut counts = self.0.streams_by_client.lock().expect("client lock");
        if let Some(count) = counts.get_mut(&self.1) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                counts.remove(&self.1);
            }
        }
    }
}

/// In a cluster, challenges that expired before this are dropped by whichever node looks: a
/// challenge's own node expires it and tells its accounts, so this drops only those whose node
/// died first.
fn challenge_cutoff() -> i64 {
    now_ms() - 60_000
}
