//! A cluster of nodes (`serve --cluster nats://...`): Postgres is the store of record (logs,
//! accounts, leases), NATS carries a live game's requests to the node that owns it and each
//! audience's messages from it. Each live game has one owner at a time, by a fenced lease
//! (`lease.rs`); the owner serves it to the other nodes (`owner.rs`), which relay it to their
//! clients (`relay.rs`); what travels is in `bus.rs`.

pub mod bus;
pub mod lease;
pub mod lobby;
pub mod owner;
pub mod pairing;
pub mod relay;

use crate::error::ApiError;
use crate::room::Shared;
use crate::store::{redacted, Store, StoreError, Write};
use crate::wire::LobbyGame;
use async_nats::Client;
use lease::{Held, Leases};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio_util::task::TaskTracker;

/// How long a lease lasts past its last renewal: a dead node's games wait this long at most.
pub const LEASE: Duration = Duration::from_secs(3);
/// How often leases are renewed and orphaned games looked for.
pub const TICK: Duration = Duration::from_secs(1);
/// How long a drain waits for its games' servers to hand them over (see `owner::serve`).
const SERVERS_DONE: Duration = Duration::from_secs(2);

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("--cluster needs a Postgres database (--database postgres://...): the nodes share it")]
    NeedsPostgres,
    #[error("cannot reach NATS at {url}: {reason}")]
    Unreachable { url: String, reason: String },
}

/// A game this node owns: the epoch its writes are fenced with, and its stop.
struct Owned {
    epoch: i64,
    stop: watch::Sender<bool>,
}

/// This node's place in the cluster.
pub struct Cluster {
    pub node: String,
    pub nats: Client,
    pub leases: Leases,
    pool: sqlx::PgPool,
    owned: Mutex<HashMap<String, Owned>>,
    /// The servers of the games owned here: a drain waits for them to hand their games over
    /// before it releases the leases.
    servers: TaskTracker,
    /// Read by the servers too: a game stopped by a drain is handed over, one stopped because
    /// its lease was lost already has an owner.
    draining: Arc<AtomicBool>,
}

impl Cluster {
    /// Joins the cluster of NATS at `url` as `node`, with the leases in `store`'s Postgres.
    pub async fn join(url: &str, node: &str, store: &Store) -> Result<Arc<Cluster>, ClusterError> {
        let pool = store.postgres().ok_or(ClusterError::NeedsPostgres)?;
        let shown = redacted(url);
        let unreachable = |reason: String| ClusterError::Unreachable {
            url: shown.clone(),
            reason,
        };
        let addr: async_nats::ServerAddr = url
            .parse()
            .map_err(|_| unreachable("not a NATS URL (nats://HOST:PORT)".into()))?;
        let mut options = async_nats::ConnectOptions::new();
        // The client takes no credentials from the URL itself.
        if let (Some(user), Some(password)) = (addr.username(), addr.password()) {
            options = options.user_and_password(user.to_string(), password.to_string());
        }
        let nats = options
            .name(format!("bluffchess {node}"))
            .connection_timeout(Duration::from_secs(5))
            .request_timeout(Some(Duration::from_secs(3)))
            .event_callback(|event| async move {
                // Events name no credentials: connection changes and slow consumers.
                tracing::info!("NATS: {event}");
            })
            .connect(addr)
            .await
            .map_err(|e| unreachable(e.kind().to_string()))?;
        Ok(Arc::new(Cluster {
            node: node.to_string(),
            nats,
            leases: Leases::new(pool.clone(), node, LEASE),
            pool: pool.clone(),
            owned: Mutex::new(HashMap::new()),
            servers: TaskTracker::new(),
            draining: Arc::new(AtomicBool::new(false)),
        }))
    }

    /// Takes `game`'s lease; answers the fence of its writes and the room's stop, or `None`
    /// when another node holds it.
    pub async fn take(
        &self,
        game: &str,
    ) -> Result<Option<(Write, watch::Receiver<bool>)>, StoreError> {
        if self.draining() {
            return Ok(None);
        }
        let Some(held) = self.leases.take(game).await? else {
            return Ok(None);
        };
        let (stop, stopped) = watch::channel(false);
        let fence = Write::Fence {
            game: game.to_string(),
            node: self.node.clone(),
            epoch: held.epoch,
        };
        let recorded = {
            let mut owned = self.owned.lock().expect("owned lock");
            // A drain that began while the lease was being taken released only the games it
            // found here: this one goes back too, or it would wait for its lease to expire.
            let owned_game = Owned {
                epoch: held.epoch,
                stop,
            };
            (!self.draining()).then(|| owned.insert(game.to_string(), owned_game))
        };
        let Some(replaced) = recorded else {
            self.release(&[held]).await;
            return Ok(None);
        };
        if let Some(old) = replaced {
            old.stop.send_replace(true);
        }
        Ok(Some((fence, stopped)))
    }

    /// Serves an owned game to the other nodes until it stops here.
    pub fn serve(&self, shared: Arc<Shared>) {
        let stop = match self.owned.lock().expect("owned lock").get(&shared.id) {
            Some(owned) => owned.stop.subscribe(),
            None => return,
        };
        let handing_over = self.draining.clone();
        let server = owner::serve(self.nats.clone(), shared, stop, handing_over);
        self.servers.spawn(server);
    }

    /// The open and live public games of every node, newest first.
    pub async fn lobby(&self) -> Result<(Vec<LobbyGame>, Vec<LobbyGame>), ApiError> {
        lobby::lobby(&self.pool)
            .await
            .map_err(|e| ApiError::unavailable(e.to_string()))
    }

    /// Runs `change` on the cluster's waiting seeks or challenges (see `pairing.rs`).
    pub async fn pairing<T, R>(
        &self,
        kind: pairing::Kind,
        id_of: fn(&T) -> &str,
        change: impl FnOnce(Vec<T>) -> (Vec<T>, R),
    ) -> Result<R, ApiError>
    where
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        pairing::change(&self.pool, kind, id_of, change)
            .await
            .map_err(|e| ApiError::unavailable(e.to_string()))
    }

    /// The cluster's waiting seeks or challenges as they stand, unlocked (see `pairing.rs`).
    pub async fn pairing_now<T: serde::de::DeserializeOwned>(
        &self,
        kind: pairing::Kind,
    ) -> Result<Vec<T>, ApiError> {
        pairing::read(&self.pool, kind)
            .await
            .map_err(|e| ApiError::unavailable(e.to_string()))
    }

    /// Whether another node holds `game` now.
    pub async fn owned_elsewhere(&self, game: &str) -> Result<bool, StoreError> {
        Ok(self
            .leases
            .owner(game)
            .await?
            .is_some_and(|node| node != self.node))
    }

    /// Opens the relay of a game another node owns.
    pub async fn relay(
        &self,
        game: &str,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Shared>, ApiError> {
        relay::open(self.nats.clone(), game, shutdown).await
    }

    /// Renews every lease held; stops the rooms of those lost (another node took them while
    /// this one could not renew: paused, cut off).
    pub async fn renew(&self) {
        let held = self.held();
        match self.leases.renew(&held).await {
            Ok(kept) => {
                let mut owned = self.owned.lock().expect("owned lock");
                for h in &held {
                    let lost = !kept.contains(&h.game)
                        && owned.get(&h.game).is_some_and(|o| o.epoch == h.epoch);
                    if lost {
                        tracing::warn!(game = %h.game, "lease lost: another node owns the game");
                        if let Some(o) = owned.remove(&h.game) {
                            o.stop.send_replace(true);
                        }
                    }
                }
            }
            Err(e) => tracing::warn!("leases not renewed: {e}"),
        }
    }

    fn held(&self) -> Vec<Held> {
        let owned = self.owned.lock().expect("owned lock");
        owned
            .iter()
            .map(|(game, o)| Held {
                game: game.clone(),
                epoch: o.epoch,
            })
            .collect()
    }

    /// Unfinished games no node holds (their owner died or let them go), for this node to take.
    pub async fn orphans(&self) -> Vec<String> {
        if self.draining() {
            return Vec::new();
        }
        match self.leases.orphans(100).await {
            Ok(ids) => ids,
            Err(e) => {
                tracing::warn!("cannot look for games without an owner: {e}");
                Vec::new()
            }
        }
    }

    /// A game left this node's memory: its lease goes at once.
    pub async fn forget(&self, game: &str) {
        let owned = self.owned.lock().expect("owned lock").remove(game);
        if let Some(o) = owned {
            o.stop.send_replace(true);
            let held = Held {
                game: game.to_string(),
                epoch: o.epoch,
            };
            if let Err(e) = self.leases.retire(&[held]).await {
                tracing::warn!(game, "lease not released (it expires): {e}");
            }
        }
    }

    /// Whether this node is draining (it takes no game).
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// Drains: takes no more games, stops every room here, releases their leases at once and
    /// tells the other nodes to take them.
    pub async fn drain(&self) {
        let held: Vec<Held> = {
            let mut owned = self.owned.lock().expect("owned lock");
            // Set under the lock: a take that has not recorded its game yet sees it there, and
            // lets the game go itself.
            self.draining.store(true, Ordering::Relaxed);
            (owned.drain())
                .map(|(game, o)| {
                    o.stop.send_replace(true);
                    Held {
                        game,
                        epoch: o.epoch,
                    }
                })
                .collect()
        };
        // Each game's server hands it over (see `owner::serve`) before its lease goes, so that
        // its next owner never takes requests beside it. A write still under way is fenced by
        // the release (the next owner's take bumps the epoch).
        self.servers.close();
        if tokio::time::timeout(SERVERS_DONE, self.servers.wait())
            .await
            .is_err()
        {
            tracing::warn!("games not handed over within {SERVERS_DONE:?}: released anyway");
        }
        self.release(&held).await;
        tracing::info!("drained: {} games released", held.len());
    }

    /// Lets `held` go at once and tells the other nodes to take them.
    async fn release(&self, held: &[Held]) {
        if let Err(e) = self.leases.release(held).await {
            tracing::warn!("leases not released (they expire): {e}");
        }
        let games: Vec<&str> = held.iter().map(|h| h.game.as_str()).collect();
        let body = serde_json::to_vec(&games).expect("ids serialise");
        let _ = self.nats.publish(bus::RELEASED, body.into()).await;
        let _ = self.nats.flush().await;
    }
}
