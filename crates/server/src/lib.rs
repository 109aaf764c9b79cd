//! The bluffchess game server: games played through an HTTP API by browsers, bots and people,
//! each seat seeing only its own view; spectators; server bots; clocks; and a SQLite or Postgres
//! log that keeps every acknowledged action. See `docs/api.md`.

pub mod api;
pub mod bot;
pub mod error;
pub mod game;
pub mod hub;
pub mod openapi;
pub mod request;
pub mod store;
pub mod web;

use axum::body::to_bytes;
use axum::handler::Handler;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::Router;
use error::ApiError;
use hub::Hub;
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::GovernorLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

/// The server's limits and timings.
#[derive(Clone, Debug)]
pub struct Config {
    /// An empty line (stream) or a ping (socket) after this long without a message.
    pub keepalive: Duration,
    /// How long a seat must stay disconnected before its opponent may claim the win.
    pub grace: Duration,
    /// A server bot's time for one action.
    pub bot_time: Duration,
    /// Live games one client (IP address) may have at once.
    pub max_live_per_client: usize,
    /// Streams and sockets one client may hold open at once.
    pub max_streams_per_client: usize,
    /// Games one client may create in a burst, and then one per this period.
    pub create_burst: u32,
    pub create_period: Duration,
    /// Actions (and other seat requests) one client may send in a burst, then one per period.
    pub action_burst: u32,
    pub action_period: Duration,
    /// The largest request body, in bytes.
    pub body_limit: usize,
    /// How long shutdown waits for open requests.
    pub drain: Duration,
    /// A finished game leaves memory after this long without a request (it is loaded again
    /// from the database when asked for).
    pub evict_after: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            keepalive: Duration::from_secs(7),
            grace: Duration::from_secs(60),
            bot_time: Duration::from_secs(2),
            max_live_per_client: 20,
            max_streams_per_client: 100,
            create_burst: 10,
            create_period: Duration::from_secs(2),
            action_burst: 60,
            action_period: Duration::from_millis(20),
            body_limit: 4096,
            drain: Duration::from_secs(3),
            evict_after: Duration::from_secs(600),
        }
    }
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
    ) -> Result<Server, String> {
        Self::start_with_bots(listener, database, config, bot::builtin()).await
    }

    /// Starts with these bots (`bot:NAME` for each name) instead of the built-in ones.
    pub async fn start_with_bots(
        listener: TcpListener,
        database: &str,
        config: Config,
        bots: HashMap<String, Arc<dyn bot::Bot>>,
    ) -> Result<Server, String> {
        let store = store::Store::open(database).await?;
        let (shutdown, shutdown_rx) = watch::channel(false);
        let hub = Arc::new(Hub::new(store, config.clone(), bots, shutdown_rx.clone()));
        let reloaded = hub.reload().await?;
        if reloaded > 0 {
            tracing::info!("reloaded {reloaded} unfinished games");
        }
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
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

/// Routes, and the method and path of each: the OpenAPI test checks the document lists them all.
struct Routes {
    router: Router<Arc<Hub>>,
    served: Vec<(Method, &'static str)>,
}

impl Routes {
    fn new() -> Routes {
        Routes {
            router: Router::new(),
            served: Vec::new(),
        }
    }

    fn get<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Routes {
        self.on(Method::GET, path, handler)
    }

    fn post<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Routes {
        self.on(Method::POST, path, handler)
    }

    fn on<H: Handler<T, Arc<Hub>>, T: 'static>(
        mut self,
        method: Method,
        path: &'static str,
        handler: H,
    ) -> Routes {
        let filter = MethodFilter::try_from(method.clone()).expect("a routable method");
        self.router = self.router.route(path, on(filter, handler));
        self.served.push((method, path));
        self
    }

    fn merge(mut self, other: Routes) -> Routes {
        self.router = self.router.merge(other.router);
        self.served.extend(other.served);
        self
    }

    /// Limits the requests of each client (IP address) to `burst` at once, then one per `period`.
    fn limited(mut self, burst: u32, period: Duration, methods: Option<Vec<Method>>) -> Routes {
        let mut builder = GovernorConfigBuilder::default();
        builder
            .period(period.max(Duration::from_nanos(1)))
            .burst_size(burst.max(1));
        if let Some(methods) = methods {
            builder.methods(methods);
        }
        let config = Arc::new(builder.finish().expect("a valid rate limit"));
        self.router = self.router.layer(GovernorLayer { config });
        self
    }
}

fn routes(config: &Config) -> Routes {
    let seat_actions = Routes::new()
        .post("/api/games/{id}/join", api::join)
        .post("/api/games/{id}/action", api::action)
        .post("/api/games/{id}/resign", api::resign)
        .post("/api/games/{id}/draw/offer", api::offer_draw)
        .post("/api/games/{id}/draw/accept", api::accept_draw)
        .post("/api/games/{id}/draw/claim", api::claim_draw)
        .post("/api/games/{id}/abort", api::abort)
        .post("/api/games/{id}/rematch", api::rematch)
        .post("/api/games/{id}/claim-victory", api::claim_victory)
        .limited(config.action_burst, config.action_period, None);
    let create = Routes::new()
        .get("/api/games", api::lobby)
        .post("/api/games", api::create)
        .limited(
            config.create_burst,
            config.create_period,
            Some(vec![Method::POST]),
        );
    // A replay replays the whole game: cached, and limited like creating games.
    let replays = Routes::new()
        .get("/api/games/{id}/replay", web::replay)
        .limited(config.create_burst, config.create_period, None);
    Routes::new()
        .get("/", web::shell)
        .get("/game/{id}", web::game_page)
        .get("/replay/{id}", web::replay_page)
        .get("/rules/{variant}", web::rules_page)
        .get("/static/{file}", web::static_file)
        .get("/docs/rules/{file}", web::rules)
        .get("/docs/api.md", api::api_doc)
        .get("/api/openapi.json", openapi::openapi_json)
        .get("/api/variants", web::variants)
        .get("/api/games/{id}/view", api::view)
        .get("/api/games/{id}/stream", api::stream)
        .get("/api/games/{id}/record", api::record)
        .get("/api/games/{id}/ws", api::ws)
        .merge(seat_actions)
        .merge(create)
        .merge(replays)
}

/// The method and path of every route the router serves.
pub fn served_routes() -> Vec<(Method, &'static str)> {
    routes(&Config::default()).served
}

/// The routes.
pub fn router(hub: Arc<Hub>, config: &Config) -> Router {
    routes(config)
        .router
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "no such route: see /docs/api.md")
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that method: see /docs/api.md",
            )
        })
        .layer(RequestBodyLimitLayer::new(config.body_limit))
        .layer(axum::middleware::map_response(json_errors))
        .layer(if_absent(header::CACHE_CONTROL, "no-store"))
        .layer(if_absent(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(if_absent(header::X_FRAME_OPTIONS, "DENY"))
        .layer(if_absent(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(if_absent(header::REFERRER_POLICY, "no-referrer"))
        .with_state(hub)
}

/// The client loads nothing from elsewhere and runs no inline script, so the strictest policy
/// costs nothing: an injected script or a framing page gets nowhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Sets a header on every answer that has none of its own (an embedded file's `no-cache`
/// stays; every API answer, private views included, is `no-store`).
fn if_absent(name: header::HeaderName, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
}

/// Every refusal is JSON, including those of the layers (rate limits, body limits).
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let reason = status
        .canonical_reason()
        .unwrap_or("refused")
        .to_lowercase();
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => "the request body is too large".to_string(),
        StatusCode::TOO_MANY_REQUESTS => format!("too many requests: slow down ({})", text.trim()),
        _ if text.trim().is_empty() => reason,
        _ => format!("{reason}: {}", text.trim()),
    };
    let mut fresh = ApiError::new(status, message).into_response();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            fresh.headers_mut().insert(name.clone(), value.clone());
        }
    }
    fresh
}

/// `bluffchess serve`: serves until Ctrl-C or SIGTERM.
pub fn main(addr: &str, database: Option<&str>) -> Result<(), String> {
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
        .map_err(|e| format!("cannot start the runtime: {e}"))?;
    let config = Config::default();
    let drain = config.drain;
    let served = runtime.block_on(async {
        let database = database.unwrap_or("sqlite:bluffchess.db");
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let server = Server::start(listener, database, config).await?;
        println!(
            "bluffchess serving on http://{} (database {})",
            server.addr,
            store::redacted(database)
        );
        tracing::info!("listening on http://{}", server.addr);
        wait_for_signal().await;
        tracing::info!("shutting down");
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
