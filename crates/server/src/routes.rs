//! The routes: every handler with its method and path, the layers around them (rate limits,
//! body limits, JSON refusals, security headers), and the list the OpenAPI test checks.

use crate::config::Config;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::identify::{identify, CallerKey};
use crate::{account_api, api, openapi, pairing_api, player_api, web};
use axum::body::to_bytes;
use axum::handler::Handler;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{on, MethodFilter};
use axum::Router;
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::GovernorLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;

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

    fn delete<H: Handler<T, Arc<Hub>>, T: 'static>(self, path: &'static str, handler: H) -> Routes {
        self.on(Method::DELETE, path, handler)
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

    /// Limits the requests of each client (its account, a guest's session, else its address) to
    /// `burst` at once, then one per `period`.
    fn limited(mut self, burst: u32, period: Duration, methods: Option<Vec<Method>>) -> Routes {
        let mut builder = GovernorConfigBuilder::default().key_extractor(CallerKey);
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
        .post("/api/games/{id}/draw/decline", api::decline_draw)
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
        .get("/api/games/{id}/positions", api::positions)
        .limited(config.create_burst, config.create_period, None);
    // Signing up and logging in hash a password: limited like creating games (failed log-ins
    // are limited besides, per account and per address).
    let sign_in = Routes::new()
        .post("/api/account/signup", account_api::signup)
        .post("/api/account/login", account_api::login)
        .limited(config.create_burst, config.create_period, None);
    let accounts = Routes::new()
        .post("/api/account/logout", account_api::logout)
        .get("/api/account", account_api::account)
        .post("/api/account/password", account_api::password)
        .get("/api/account/sessions", account_api::sessions)
        .delete("/api/account/sessions/{id}", account_api::end_session)
        .post("/api/account/tokens", account_api::create_token)
        .get("/api/account/tokens", account_api::tokens)
        .delete("/api/account/tokens/{id}", account_api::revoke_token)
        .get("/api/account/games", account_api::games)
        .post("/api/bot/account/upgrade", account_api::upgrade)
        .get("/api/user/{name}", account_api::user)
        .get("/api/user/{name}/played", player_api::played)
        .get(
            "/api/user/{name}/rating-history",
            player_api::rating_history,
        )
        .get("/api/player/top/{nb}/{variant}", player_api::leaders)
        .get("/api/challenge", pairing_api::challenges)
        .post("/api/challenge/{id}/accept", pairing_api::accept)
        .post("/api/challenge/{id}/decline", pairing_api::decline)
        .post("/api/challenge/{id}/cancel", pairing_api::cancel)
        .delete("/api/seek/{id}", pairing_api::cancel_seek)
        .post("/api/seek/{id}/accept", pairing_api::take_seek)
        .get("/api/stream/event", pairing_api::events)
        .limited(config.action_burst, config.action_period, None);
    // Seeks, challenges and exports make games or replay them: limited like creating games.
    let pairing = Routes::new()
        .post("/api/seek", pairing_api::seek)
        .post("/api/challenge/{name}", pairing_api::challenge)
        .get("/api/user/{name}/games", player_api::export)
        .limited(config.create_burst, config.create_period, None);
    Routes::new()
        .get("/", web::shell)
        .get("/game/{id}", web::game_page)
        .get("/replay/{id}", web::replay_page)
        .get("/rules/{variant}", web::rules_page)
        .get("/learn/{variant}", web::learn_page)
        .get("/login", web::login_page)
        .get("/signup", web::signup_page)
        .get("/account", web::account_page)
        .get("/@/{name}", web::player_page)
        .get("/player", web::leaderboard_page)
        .get("/static/{file}", web::static_file)
        .get("/docs/rules/{file}", web::rules)
        .get("/docs/api.md", api::api_doc)
        .get("/api/openapi.json", openapi::openapi_json)
        .get("/api/variants", web::variants)
        .get("/api/bots", web::bots)
        .get("/api/games/{id}/view", api::view)
        .get("/api/games/{id}/stream", api::stream)
        .get("/api/games/{id}/record", player_api::record)
        .get("/api/games/{id}/ws", api::ws)
        .merge(seat_actions)
        .merge(create)
        .merge(replays)
        .merge(sign_in)
        .merge(accounts)
        .merge(pairing)
}

/// The method and path of every route the router serves.
pub fn served_routes() -> Vec<(Method, &'static str)> {
    routes(&Config::default()).served
}

/// The routes.
pub fn router(hub: Arc<Hub>, config: &Config) -> Router {
    routes(config)
        .router
        // Who calls, before the rate limits count the caller.
        .layer(axum::middleware::from_fn_with_state(hub.clone(), identify))
        .layer(axum::middleware::from_fn_with_state(
            config.answer_within,
            answer_within,
        ))
        .fallback(|| async { ApiError::NotFound("no such route: see /docs/api.md".into()) })
        .method_not_allowed_fallback(|| async {
            ApiError::MethodNotAllowed(
                "this route does not take that method: see /docs/api.md".into(),
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

/// Refuses a request not answered within `limit` (a stream's headers count as its answer), so a
/// database that hangs rather than refuses holds no client: what it waited on is dropped.
async fn answer_within(
    axum::extract::State(limit): axum::extract::State<std::time::Duration>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::unavailable(format!(
            "no answer within {} s (the database, or in a cluster the game's node, is not \
             answering); try again",
            limit.as_secs()
        ))
        .into_response(),
    }
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
    let mut fresh = ApiError::from_status(status, message).into_response();
    for (name, value) in parts.headers.iter() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            fresh.headers_mut().insert(name.clone(), value.clone());
        }
    }
    fresh
}
