//! The registry of games: creates them, finds them (loading finished ones from the database on
//! demand), and counts each client's live games.

use crate::bot::Bot;
use crate::error::ApiError;
use crate::game::{index, GameTask, Shared, Status};
use crate::store::{GameRow, Store, Write};
use crate::Config;
use axum::http::StatusCode;
use bluffchess_rules::board::Color;
use rand::rngs::OsRng;
use rand::TryRngCore;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn os_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0; N];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random source works");
    bytes
}

/// A random u64 from the operating system.
pub fn os_u64() -> u64 {
    u64::from_le_bytes(os_bytes())
}

/// SHA-256 of a token's text.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A new seat token (128 bits from the operating system, hex) and its hash.
pub fn new_token() -> (String, [u8; 32]) {
    let token = hex::encode(os_bytes::<16>());
    let hash = token_hash(&token);
    (token, hash)
}

/// A new game id (64 bits, hex): public, unguessable enough to keep the lobby the way in.
pub fn new_game_id() -> String {
    hex::encode(os_bytes::<8>())
}

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
    pub client: Option<IpAddr>,
}

/// A new game's creator: its seat's token, and the invitation to a private game's open seat.
pub struct Created {
    pub shared: Arc<Shared>,
    pub token: String,
    pub invite: Option<String>,
}

/// Every game the server holds.
pub struct Hub {
    pub store: Store,
    pub config: Config,
    pub bots: HashMap<String, Arc<dyn Bot>>,
    pub shutdown: watch::Receiver<bool>,
    /// The replays of finished games asked for last.
    pub replays: crate::web::ReplayCache,
    games: Mutex<HashMap<String, Arc<Shared>>>,
    live_by_client: Mutex<HashMap<IpAddr, usize>>,
    streams_by_client: Mutex<HashMap<IpAddr, usize>>,
    loading: tokio::sync::Mutex<()>,
}

impl Hub {
    /// A hub over `store`.
    pub fn new(
        store: Store,
        config: Config,
        bots: HashMap<String, Arc<dyn Bot>>,
        shutdown: watch::Receiver<bool>,
    ) -> Hub {
        Hub {
            store,
            config,
            bots,
            shutdown,
            replays: Default::default(),
            games: Mutex::new(HashMap::new()),
            live_by_client: Mutex::new(HashMap::new()),
            streams_by_client: Mutex::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
        }
    }

    /// Reloads every unfinished game; returns how many.
    pub async fn reload(self: &Arc<Self>) -> Result<usize, String> {
        let ids = self.store.unfinished().await?;
        for id in &ids {
            self.load(id).await.map_err(|e| e.message)?;
        }
        Ok(ids.len())
    }

    /// The game `id`, loaded from the database if it is not in memory.
    pub async fn get(self: &Arc<Self>, id: &str) -> Result<Arc<Shared>, ApiError> {
        if let Some(shared) = self.games.lock().expect("games lock").get(id) {
            if !shared.tx.is_closed() {
                return Ok(shared.clone());
            }
        }
        if id.len() > 64 {
            return Err(ApiError::no_game(id));
        }
        self.load(id).await
    }

    async fn load(self: &Arc<Self>, id: &str) -> Result<Arc<Shared>, ApiError> {
        let _loading = self.loading.lock().await;
        if let Some(shared) = self.games.lock().expect("games lock").get(id) {
            if !shared.tx.is_closed() {
                return Ok(shared.clone());
            }
        }
        let (row, rematch, log) = self
            .store
            .load(id)
            .await
            .map_err(ApiError::unavailable)?
            .ok_or_else(|| ApiError::no_game(id))?;
        let (task, rx) = GameTask::restore(self.clone(), row, rematch, &log)?;
        let shared = task.shared();
        self.games
            .lock()
            .expect("games lock")
            .insert(id.to_string(), shared.clone());
        task.spawn(rx);
        Ok(shared)
    }

    /// Forgets a finished game's task (it stays in the database).
    pub fn evict(&self, id: &str) {
        self.games.lock().expect("games lock").remove(id);
    }

    /// Counts a live game for `client`, or refuses past the limit.
    pub fn reserve(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(client) = client else { return Ok(()) };
        let mut counts = self.live_by_client.lock().expect("client lock");
        let count = counts.entry(client).or_default();
        if *count >= self.config.max_live_per_client {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many live games: each client may have {} at once",
                    self.config.max_live_per_client
                ),
            ));
        }
        *count += 1;
        Ok(())
    }

    /// Counts an open stream or socket of `client` until the slot is dropped, or refuses past
    /// the limit.
    pub fn open_stream(self: &Arc<Self>, client: IpAddr) -> Result<StreamSlot, ApiError> {
        let mut counts = self.streams_by_client.lock().expect("client lock");
        let count = counts.entry(client).or_default();
        if *count >= self.config.max_streams_per_client {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many open streams and sockets: each client may have {} at once",
                    self.config.max_streams_per_client
                ),
            ));
        }
        *count += 1;
        Ok(StreamSlot(self.clone(), client))
    }

    /// Uncounts the live games of these clients.
    pub fn release(&self, clients: &[Option<IpAddr>]) {
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

    /// Creates a game: answers its shared part, the creator's token and a private game's
    /// invitation.
    pub async fn create(self: &Arc<Self>, new: NewGame) -> Result<Created, ApiError> {
        let bot = new.opponent.strip_prefix("bot:");
        if let Some(name) = bot {
            let max_ms = self.config.bot_time.as_millis() as u64;
            crate::bot::find(&self.bots, name, max_ms).map_err(ApiError::bad)?;
        } else if new.opponent != "open" {
            return Err(ApiError::bad(
                "\"opponent\" must be \"open\" or \"bot:NAME\" (bot:random)",
            ));
        }
        let (token, hash) = new_token();
        let invite = (new.private && bot.is_none()).then(new_token);
        let mut players = [String::new(), String::new()];
        let mut tokens = [None, None];
        players[index(new.seat)] = "player".into();
        tokens[index(new.seat)] = Some(hex::encode(hash));
        players[index(!new.seat)] = new.opponent.clone();
        let row = GameRow {
            id: new_game_id(),
            variant: new.variant,
            options: new.options,
            seed: os_u64(),
            salt_seed: os_u64(),
            clock: new.clock,
            players,
            tokens,
            status: if bot.is_some() { "live" } else { "open" }.into(),
            rematch_of: None,
            created_ms: now_ms(),
            private: new.private,
            invite: invite.as_ref().map(|(_, hash)| hex::encode(hash)),
        };
        // Refuse bad variants and options before anything is stored.
        crate::game::new_arbiter(&row)?;
        self.reserve(new.client)?;
        let shared = match self
            .start(row, |task| task.set_client(new.seat, new.client))
            .await
        {
            Ok(shared) => shared,
            Err(e) => {
                self.release(&[new.client]);
                return Err(e);
            }
        };
        Ok(Created {
            shared,
            token,
            invite: invite.map(|(code, _)| code),
        })
    }

    /// Creates the rematch of a finished game: colours swapped, each player keeps its token and
    /// counts it among its live games (`clients`: the old game's White's and Black's).
    pub async fn create_rematch(
        self: &Arc<Self>,
        old: &GameRow,
        clients: [Option<IpAddr>; 2],
    ) -> Result<String, ApiError> {
        self.reserve(clients[0])?;
        if let Err(e) = self.reserve(clients[1]) {
            self.release(&clients[..1]);
            return Err(e);
        }
        let row = GameRow {
            id: new_game_id(),
            variant: old.variant.clone(),
            options: old.options.clone(),
            seed: os_u64(),
            salt_seed: os_u64(),
            clock: old.clock,
            players: [old.players[1].clone(), old.players[0].clone()],
            tokens: [old.tokens[1].clone(), old.tokens[0].clone()],
            status: "live".into(),
            rematch_of: Some(old.id.clone()),
            created_ms: now_ms(),
            private: old.private,
            invite: None,
        };
        let id = row.id.clone();
        let started = self
            .start(row, |task| {
                task.set_client(Color::White, clients[1]);
                task.set_client(Color::Black, clients[0]);
            })
            .await;
        if let Err(e) = started {
            self.release(&clients);
            return Err(e);
        }
        Ok(id)
    }

    async fn start(
        self: &Arc<Self>,
        row: GameRow,
        prepare: impl FnOnce(&mut GameTask),
    ) -> Result<Arc<Shared>, ApiError> {
        self.store
            .write(vec![Write::Game(row.clone())])
            .await
            .map_err(ApiError::unavailable)?;
        let id = row.id.clone();
        let (mut task, rx) = GameTask::restore(self.clone(), row, None, &[])?;
        prepare(&mut task);
        debug_assert!(matches!(task.status(), Status::Open | Status::Live));
        let shared = task.shared();
        self.games
            .lock()
            .expect("games lock")
            .insert(id.clone(), shared.clone());
        task.spawn(rx);
        tracing::info!(game = %id, "game created");
        Ok(shared)
    }

    /// The lobby: open seats and live games, public facts only.
    pub fn lobby(&self) -> (Vec<serde_json::Value>, Vec<serde_json::Value>) {
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
            match public["status"].as_str() {
                Some("open") => open.push(public),
                Some("live") => live.push(public),
                _ => {}
            }
        }
        let by_time = |a: &serde_json::Value, b: &serde_json::Value| {
            b["created_ms"]
                .as_i64()
                .cmp(&a["created_ms"].as_i64())
                .then_with(|| a["id"].as_str().cmp(&b["id"].as_str()))
        };
        open.sort_by(by_time);
        live.sort_by(by_time);
        (open, live)
    }
}

/// An open stream or socket, counted against its client while it lives.
pub struct StreamSlot(Arc<Hub>, IpAddr);

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
