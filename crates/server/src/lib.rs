//! The bluffchess game server: games played through an HTTP API by browsers, bots and people,
//! each seat seeing only its own view; spectators; server bots; clocks; and a SQLite or Postgres
//! log that keeps every acknowledged action. See `docs/api.md`.

pub mod account_api;
pub mod accounts;
pub mod api;
pub mod bot;
pub mod cluster;
pub mod config;
pub mod error;
pub mod hub;
pub mod identify;
pub mod openapi;
pub mod pairing;
pub mod pairing_api;
pub mod player_api;
pub mod rating;
pub mod replay;
pub mod request;
pub mod room;
pub mod routes;
pub mod secret;
pub mod store;
pub mod web;
pub mod wire;

pub use config::Config;
pub use routes::{router, served_routes};

use error::ApiError;
use hub::Hub;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use store::StoreError;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An unfinished game could not be reloaded.
    #[error("cannot reload the unfinished games: {0}")]
    Reload(ApiError),
    /// The server bots' accounts could not be made or read.
    #[error("cannot prepare the server bots' accounts: {0}")]
    BotAccounts(ApiError),
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {reason}")]
    Listen {
        /// The address.
        addr: String,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// A `--trust-proxy` that is neither an address nor a CIDR block.
    #[error("--trust-proxy {0:?} is neither an IP address nor a CIDR block (10.0.0.0/8)")]
    Proxy(String),
    /// This node could not join its cluster.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// The runtime could not be started.
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
}

/// Where a node of a cluster finds the others: NATS's URL (credentials in it are never shown)
/// and this node's name.
#[derive(Clone)]
pub struct ClusterArgs {
    pub nats: String,
    pub node: String,
}

/// A running server.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    served: tokio::task::JoinHandle<()>,
    hub: Arc<Hub>,
}

impl Server {
    /// Starts serving on `listener` with the database at `database` (`sqlite:PATH` or
    /// `postgres://...`), after reloading every unfinished game.
    pub async fn start(
        listener: TcpListener,
        database: &str,
        config: Config,
    ) -> Result<Server, ServeError> {
        Self::start_with_bots(listener, database, config, bot::builtin()).await
    }

    /// Starts with these bots (`bot:NAME` for each name) instead of the built-in ones.
    pub async fn start_with_bots(
        listener: TcpListener,
        database: &str,
        config: Config,
        bots: HashMap<String, Arc<dyn bot::Bot>>,
    ) -> Result<Server, ServeError> {
        Self::start_node(listener, database, config, bots, None).await
    }

    /// Starts one node of a cluster (`cluster`), or a server on its own (`None`).
    pub async fn start_node(
        listener: TcpListener,
        database: &str,
        config: Config,
        bots: HashMap<String, Arc<dyn bot::Bot>>,
        cluster: Option<ClusterArgs>,
    ) -> Result<Server, ServeError> {
        let store = store::Store::open(database).await?;
        let (shutdown, shutdown_rx) = watch::channel(false);
        let joined = match &cluster {
            Some(args) => Some(cluster::Cluster::join(&args.nats, &args.node, &store).await?),
            None => None,
        };
        let hub = Hub::new(store, config.clone(), bots, shutdown_rx.clone());
        if let Some(joined) = joined {
            hub.set_cluster(joined);
            tokio::spawn(hub.clone().keep_leases());
        }
        hub.prepare_bot_accounts()
            .await
            .map_err(ServeError::BotAccounts)?;
        let reloaded = hub.reload().await.map_err(ServeError::Reload)?;
        if reloaded > 0 {
            tracing::info!("reloaded {reloaded} unfinished games");
        }
        let addr = listener.local_addr().map_err(|reason| ServeError::Listen {
            addr: "the listener".into(),
            reason,
        })?;
        let app = router(hub.clone(), &config);
        let mut stop = shutdown_rx;
        let served = tokio::spawn(async move {
            let service = app.into_make_service_with_connect_info::<SocketAddr>();
            let result = axum::serve(listener, service)
                .with_graceful_shutdown(async move {
                    let _ = stop.wait_for(|s| *s).await;
                })
                .await;
            if let Err(e) = result {
                tracing::error!("server error: {e}");
            }
        });
        Ok(Server {
            addr,
            shutdown,
            served,
            hub,
        })
    }

    /// A cluster's node drains: it takes no more games and lets its own go to the other nodes
    /// at once, telling their clients to reconnect. A server on its own has nothing to do.
    pub async fn drain(&self) {
        if let Some(cluster) = self.hub.cluster() {
            cluster.drain().await;
        }
    }

    /// Stops: closes every stream and socket, waits (a bounded time) for open requests, and
    /// closes the database.
    pub async fn stop(self) {
        self.shutdown.send_replace(true);
        let drain = self.hub.config.drain;
        if tokio::time::timeout(drain, self.served).await.is_err() {
            tracing::warn!("open requests did not finish within {drain:?}");
        }
        self.hub.store.close().await;
    }
}

/// `bluffchess serve`: serves until Ctrl-C or SIGTERM.
pub fn main(
    addr: &str,
    database: Option<&str>,
    trust_proxy: &[String],
    cluster: Option<ClusterArgs>,
) -> Result<(), ServeError> {
    let mut config = Config::default();
    for proxy in trust_proxy {
        let net = proxy
            .parse::<ipnet::IpNet>()
            .or_else(|_| proxy.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
            .map_err(|_| ServeError::Proxy(proxy.clone()))?;
        config.trusted_proxies.push(net);
    }
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(ServeError::Runtime)?;
    let drain = config.drain;
    let served = runtime.block_on(async {
        let database = database.unwrap_or("sqlite:bluffchess.db");
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|reason| ServeError::Listen {
                addr: addr.to_string(),
                reason,
            })?;
        let node = cluster.as_ref().map(|c| c.node.clone());
        let server =
            Server::start_node(listener, database, config, bot::builtin(), cluster).await?;
        match node {
            Some(node) => println!(
                "bluffchess serving on http://{} (database {}, cluster node {node})",
                server.addr,
                store::redacted(database)
            ),
            None => println!(
                "bluffchess serving on http://{} (database {})",
                server.addr,
                store::redacted(database)
            ),
        }
        tracing::info!("listening on http://{}", server.addr);
        wait_for_signal().await;
        tracing::info!("shutting down");
        server.drain().await;
        server.stop().await;
        Ok(())
    });
    // Bots' searches run on blocking threads, which a runtime's drop would wait for: their stops
    // are raised by now, and a search that has not yet noticed is not waited on past the drain.
    runtime.shutdown_timeout(drain);
    served
}

async fn wait_for_signal() {
    #[cfg(unix)]
    {
        let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
            .expect("a SIGTERM handler");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
