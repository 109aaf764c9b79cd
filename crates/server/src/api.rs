//! The HTTP API: routes, authentication, streams and sockets.

use crate::accounts::{Caller, COOKIE, SESSION_DAYS, TOKEN_PREFIX};
use crate::error::ApiError;
use crate::hub::{Hub, NewGame, StreamSlot};
use crate::identify::{bearer, same_site};
use crate::request;
use crate::room::{feed_of, index, Command, Connected, FeedReader, Holder, SeatCommand, Shared};
use crate::secret::{os_u64, token_hash};
use crate::wire::{Answer, Lobby, Message as FeedMessage, Seated, WsReply};
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use axum_extra::extract::cookie::{Cookie, SameSite};
use bluffchess_rules::board::Color;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::Seat;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use subtle::ConstantTimeEq;
use tokio::sync::watch;

/// What every handler shares.
pub type App = Arc<Hub>;

/// A body that says it is JSON, unread: [`request`] reads it. Its refusals are JSON too.
pub struct JsonBytes(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for JsonBytes {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if !is_json(req.headers()) {
            return Err(request::not_json());
        }
        Bytes::from_request(req, state)
            .await
            .map(JsonBytes)
            .map_err(|rejection| body_refusal(rejection.status(), rejection.body_text()))
    }
}

/// Whether the request says its body is JSON (`application/json`, `application/*+json`).
fn is_json(headers: &HeaderMap) -> bool {
    let Some(mime) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
    else {
        return false;
    };
    let mime = mime.trim().to_ascii_lowercase();
    mime == "application/json" || (mime.starts_with("application/") && mime.ends_with("+json"))
}

fn body_refusal(status: StatusCode, text: String) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::TooLarge("the request body is too large".into())
    } else {
        ApiError::from_status(status, text)
    }
}

/// The seat a request acts for: a seat's token (`Authorization: Bearer TOKEN`), else the seat
/// its account or guest session holds; `None` for a spectator.
fn authenticate(
    caller: &Caller,
    headers: &HeaderMap,
    shared: &Shared,
) -> Result<Option<Color>, ApiError> {
    let seat = match bearer(headers) {
        Some(token) if !token.starts_with(TOKEN_PREFIX) => Some(seat_of_token(token, shared)?),
        None if headers.contains_key(header::AUTHORIZATION) => {
            return Err(ApiError::Unauthenticated(
                "the Authorization header must be \"Bearer TOKEN\"".into(),
            ))
        }
        _ => seat_of_caller(caller, shared),
    };
    if let Some(seat) = seat {
        shared.presence[index(seat)].seen();
    }
    Ok(seat)
}

/// The seat the caller's account (playing through a session or a `play` token) or guest
/// session holds.
fn seat_of_caller(caller: &Caller, shared: &Shared) -> Option<Color> {
    match (caller.player(), caller.guest()) {
        (Some(account), _) => shared.seat_of_account(account.id),
        (None, Some(guest)) => shared.seat_of_guest(guest),
        _ => None,
    }
}

/// The seat whose token this is, compared in constant time against both seats.
fn seat_of_token(token: &str, shared: &Shared) -> Result<Color, ApiError> {
    let hash = token_hash(token);
    let tokens = *shared.tokens.read().expect("token lock");
    let mut found = None;
    for (i, stored) in tokens.iter().enumerate() {
        let stored = stored.unwrap_or([0; 32]);
        let equal: bool = stored.ct_eq(&hash).into();
        if equal && tokens[i].is_some() {
            found = Some(if i == 0 { Color::White } else { Color::Black });
        }
    }
    found.ok_or_else(|| {
        ApiError::Forbidden(format!("this token is not a seat of game {}", shared.id))
    })
}

fn require_seat(caller: &Caller, headers: &HeaderMap, shared: &Shared) -> Result<Color, ApiError> {
    authenticate(caller, headers, shared)?.ok_or_else(|| match caller.player() {
        Some(account) => ApiError::Forbidden(format!(
            "{} holds no seat of game {}",
            account.username, shared.id
        )),
        None => ApiError::Unauthenticated(
            "this needs a seat: send Authorization: Bearer TOKEN, or sign in".into(),
        ),
    })
}

/// The session cookie for `value`, as a browser should keep it.
pub fn session_cookie(value: String, https: bool) -> Cookie<'static> {
    Cookie::build((COOKIE, value))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(https)
        .path("/")
        .max_age(cookie::time::Duration::days(SESSION_DAYS))
        .build()
}

/// Who takes a seat: the caller's account when it plays, its guest session, or (a browser
/// that has none) a new guest session, whose cookie goes with the answer.
pub async fn holder(
    app: &App,
    caller: &Caller,
    headers: &HeaderMap,
) -> Result<(Holder, Option<Cookie<'static>>), ApiError> {
    let key = Some(caller.key());
    if let Some(account) = caller.player() {
        let holder = Holder {
            key,
            account: Some((account.id, account.username.clone())),
            guest: None,
        };
        return Ok((holder, None));
    }
    if caller.account.is_some() {
        return Err(ApiError::Forbidden(
            "a bot account plays through the API with a token that has the play scope".into(),
        ));
    }
    if let Some(guest) = caller.guest() {
        let holder = Holder {
            key,
            account: None,
            guest: Some(guest.to_string()),
        };
        return Ok((holder, None));
    }
    // A browser (it says where it comes from) gets a guest session: its games can be claimed
    // by the account it signs up or logs in with.
    if headers.contains_key(header::ORIGIN) && bearer(headers).is_none() {
        let agent = headers
            .get(header::USER_AGENT)
            .and_then(|a| a.to_str().ok())
            .unwrap_or("");
        let (cookie, hash) = app.accounts.guest(agent).await?;
        let holder = Holder {
            key,
            account: None,
            guest: Some(hash),
        };
        return Ok((holder, Some(session_cookie(cookie, caller.https))));
    }
    Ok((
        Holder {
            key,
            account: None,
            guest: None,
        },
        None,
    ))
}

/// A seat taken: its id, colour, token and private page.
fn seated(id: &str, seat: Color, token: String) -> Seated {
    Seated {
        id: id.to_string(),
        invite: None,
        invite_url: None,
        seat: Seat::from(seat).name().to_string(),
        url: format!("/game/{id}#{token}"),
        token,
    }
}

#[utoipa::path(post, path = "/api/games", tag = "games", request_body(content = crate::wire::CreateRequest, content_type = "application/json"), responses((status = 201, description = "the game, and the creator's seat", body = crate::wire::Seated), crate::wire::Refusals))]
pub async fn create(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let creation = request::creation(&body)?;
    let (creator, cookie) = holder(&app, &caller, &headers).await?;
    let seat = creation.color.unwrap_or_else(|| {
        if os_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    });
    let new = NewGame {
        variant: creation.variant,
        options: serde_json::to_string(&creation.options).expect("options serialise"),
        clock: creation.clock,
        seat,
        opponent: creation.opponent,
        private: creation.private,
        creator,
        rated: creation.rated,
    };
    let created = app.create(new).await?;
    let id = &created.shared.id;
    let mut body = seated(id, seat, created.token);
    if let Some(invite) = created.invite {
        body.invite_url = Some(format!("/game/{id}#invite={invite}"));
        body.invite = Some(invite);
    }
    let jar = axum_extra::extract::CookieJar::new();
    let jar = cookie.map_or(jar.clone(), |c| jar.add(c));
    Ok((StatusCode::CREATED, jar, Json(body)).into_response())
}

#[utoipa::path(get, path = "/api/games", tag = "games", responses((status = 200, description = "open and live games", body = crate::wire::Lobby), crate::wire::Refusals))]
pub async fn lobby(State(app): State<App>) -> Result<Json<Lobby>, ApiError> {
    // A cluster's lobby is every node's: the database's.
    let (mut open, mut live) = match app.cluster() {
        Some(cluster) => cluster.lobby().await?,
        None => app.lobby(),
    };
    open.truncate(500);
    live.truncate(500);
    let mut seeks = app.seeks().await?;
    seeks.truncate(500);
    Ok(Json(Lobby { live, open, seeks }))
}

#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", params(("id" = String, Path, description = "the game id")), request_body(content = Option<crate::wire::JoinRequest>, content_type = "application/json", description = "a private game's invitation (optional)"), responses((status = 200, description = "the open seat, taken", body = crate::wire::Seated), crate::wire::Refusals))]
pub async fn join(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let invite = request::join(&body, is_json(&headers))?;
    let shared = app.get(&id).await?;
    let (holder, cookie) = holder(&app, &caller, &headers).await?;
    let key = holder.key.clone();
    app.reserve(key.as_deref())?;
    let result = shared
        .ask(|reply| Command::Join {
            holder,
            invite,
            reply,
        })
        .await
        .and_then(|r| r);
    let (seat, token) = match result {
        Ok(joined) => joined,
        Err(e) => {
            app.release(&[key]);
            return Err(e);
        }
    };
    let jar = axum_extra::extract::CookieJar::new();
    let jar = cookie.map_or(jar.clone(), |c| jar.add(c));
    Ok((jar, Json(seated(&shared.id, seat, token))).into_response())
}

#[utoipa::path(get, path = "/api/games/{id}/view", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator")), responses((status = 200, description = "the seat's (or the public) view now", body = crate::wire::Message), crate::wire::Refusals))]
pub async fn view(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Json<FeedMessage>, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&caller, &headers, &shared)?.map_or(Seat::Spectator, Seat::from);
    Ok(Json(
        shared.ask(|reply| Command::View { seat, reply }).await??,
    ))
}

#[utoipa::path(get, path = "/api/games/{id}/positions", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator")), responses((status = 200, description = "the position after each action the seat saw, as it saw it then", body = crate::wire::Positions), crate::wire::Refusals))]
pub async fn positions(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Json<crate::wire::Positions>, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&caller, &headers, &shared)?.map_or(Seat::Spectator, Seat::from);
    Ok(Json(
        shared
            .ask(|reply| Command::Positions { seat, reply })
            .await??,
    ))
}

#[utoipa::path(post, path = "/api/games/{id}/action", tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), request_body(content = crate::wire::ActionRequest, content_type = "application/json"), responses((status = 200, description = "the action, durable: with the events the seat may see", body = crate::wire::Answer), crate::wire::Refusals))]
pub async fn action(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Json<Answer>, ApiError> {
    let command = request::action(&body)?;
    let shared = app.get(&id).await?;
    let seat = require_seat(&caller, &headers, &shared)?;
    shared.command(seat, command).await.map(Json)
}

macro_rules! seat_route {
    ($name:ident, $path:literal, $command:expr) => {
        #[doc = concat!("`POST ", $path, "`.")]
        #[utoipa::path(post, path = $path, tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), responses((status = 200, description = "done", body = crate::wire::Answer), crate::wire::Refusals))]
        pub async fn $name(
            State(app): State<App>,
            Path(id): Path<String>,
            Extension(caller): Extension<Caller>,
            headers: HeaderMap,
        ) -> Result<Json<Answer>, ApiError> {
            let shared = app.get(&id).await?;
            let seat = require_seat(&caller, &headers, &shared)?;
            shared.command(seat, $command).await.map(Json)
        }
    };
}

seat_route!(
    resign,
    "/api/games/{id}/resign",
    SeatCommand::Meta(MetaKind::Resign)
);
seat_route!(
    offer_draw,
    "/api/games/{id}/draw/offer",
    SeatCommand::Meta(MetaKind::OfferDraw)
);
seat_route!(
    accept_draw,
    "/api/games/{id}/draw/accept",
    SeatCommand::Meta(MetaKind::AcceptDraw)
);
seat_route!(
    decline_draw,
    "/api/games/{id}/draw/decline",
    SeatCommand::Meta(MetaKind::DeclineDraw)
);
seat_route!(
    claim_draw,
    "/api/games/{id}/draw/claim",
    SeatCommand::Meta(MetaKind::ClaimDraw)
);
seat_route!(abort, "/api/games/{id}/abort", SeatCommand::Abort);
seat_route!(rematch, "/api/games/{id}/rematch", SeatCommand::Rematch);
seat_route!(
    claim_victory,
    "/api/games/{id}/claim-victory",
    SeatCommand::ClaimVictory
);

fn parse_since(query: &HashMap<String, String>) -> Result<Option<usize>, ApiError> {
    for name in query.keys() {
        if name != "since" {
            return Err(ApiError::bad(format!(
                "unknown query parameter {:?}: the only one is since",
                name.chars().take(40).collect::<String>()
            )));
        }
    }
    query
        .get("since")
        .map(|s| {
            s.parse::<usize>()
                .map_err(|_| ApiError::bad("\"since\" must be a message number (0 or more)"))
        })
        .transpose()
}

struct StreamState {
    reader: FeedReader,
    keepalive: Duration,
    shutdown: watch::Receiver<bool>,
    _connected: Option<Connected>,
    _slot: StreamSlot,
}

#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator"), ("since" = Option<u64>, Query, description = "resume after this message number")), responses((status = 200, description = "NDJSON: one message a line, empty lines as keepalive", content_type = "application/x-ndjson", body = String), crate::wire::Refusals))]
pub async fn stream(
    State(app): State<App>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&caller, &headers, &shared)?;
    let since = parse_since(&query)?;
    let feed = feed_of(seat);
    let slot = app.open_stream(caller.key())?;
    let state = StreamState {
        _slot: slot,
        reader: shared.feeds[feed].reader(since),
        keepalive: app.config.keepalive,
        shutdown: app.shutdown.clone(),
        _connected: seat.map(|c| Connected::new(shared.clone(), c)),
    };
    let body = futures_util::stream::unfold(state, |mut s| async move {
        if *s.shutdown.borrow() {
            return None;
        }
        let chunk = tokio::select! {
            message = s.reader.next() => Bytes::from(format!("{}\n", message?)),
            () = tokio::time::sleep(s.keepalive) => Bytes::from_static(b"\n"),
            _ = s.shutdown.changed() => return None,
        };
        Some((Ok::<_, Infallible>(chunk), s))
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Body::from_stream(body),
    )
        .into_response())
}

#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 101, description = "a WebSocket: the first message authenticates"), crate::wire::Refusals))]
pub async fn ws(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    // A page of another site may not open a socket in a player's name.
    if !same_site(&headers) {
        return Err(ApiError::Forbidden(
            "a socket from another site's page is refused".into(),
        ));
    }
    let shared = app.get(&id).await?;
    let slot = app.open_stream(caller.key())?;
    let held = seat_of_caller(&caller, &shared);
    Ok(upgrade
        .max_message_size(app.config.body_limit)
        .on_upgrade(move |socket| async move {
            ws_session(app, shared, held, socket).await;
            drop(slot);
        }))
}

fn ws_reply(reply: &WsReply) -> Message {
    Message::Text(
        serde_json::to_string(reply)
            .expect("replies serialise")
            .into(),
    )
}

fn ws_error(e: &ApiError) -> Message {
    ws_reply(&WsReply::Error {
        status: e.status().as_u16(),
        error: e.to_string(),
        kind: e.kind().to_string(),
    })
}

/// A socket: its first message names the seat (a seat's token; without one, the seat the
/// caller's account or guest session holds, else a spectator's), then it streams that seat's
/// messages and takes its actions.
async fn ws_session(app: App, shared: Arc<Shared>, held: Option<Color>, mut socket: WebSocket) {
    let hello = match tokio::time::timeout(Duration::from_secs(10), socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => request::ws_hello(&text),
        _ => Err(ApiError::bad(
            "the first message must be {\"token\": TOKEN or null} within 10 s",
        )),
    };
    let hello = hello.and_then(|h| {
        let seat = match h.token.as_deref() {
            Some(token) => Some(seat_of_token(token, &shared)?),
            None => held,
        };
        Ok((seat, h.since))
    });
    let (seat, since) = match hello {
        Ok(hello) => hello,
        Err(e) => {
            let _ = socket.send(ws_error(&e)).await;
            let _ = socket.send(Message::Close(None)).await;
            return;
        }
    };
    let _connected = seat.map(|c| Connected::new(shared.clone(), c));
    let mut reader = shared.feeds[feed_of(seat)].reader(since);
    let mut shutdown = app.shutdown.clone();
    let keepalive = app.config.keepalive;
    loop {
        if *shutdown.borrow() {
            break;
        }
        tokio::select! {
            message = reader.next() => match message {
                Some(m) => {
                    if socket.send(Message::Text(m.to_string().into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    let _ = socket.send(Message::Close(None)).await;
                    break;
                }
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    // A ping is answered here, at once: the client measures its round trip.
                    let reply = if let Some(ping) = request::ws_ping(&text) {
                        ws_reply(&WsReply::Pong { ping })
                    } else {
                        match ws_command(&shared, seat, &text).await {
                            Ok(result) => ws_reply(&WsReply::Ack { result }),
                            Err(e) => ws_error(&e),
                        }
                    };
                    if socket.send(reply).await.is_err() {
                        break;
                    }
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            () = tokio::time::sleep(keepalive) => {
                if socket.send(Message::Ping(Bytes::new())).await.is_err() {
                    break;
                }
            }
            _ = shutdown.changed() => break,
        }
    }
}

async fn ws_command(shared: &Shared, seat: Option<Color>, text: &str) -> Result<Answer, ApiError> {
    let command = request::ws_command(text)?;
    let seat = seat.ok_or_else(|| {
        ApiError::Unauthenticated(
            "spectators cannot act: open the socket with a seat's token".into(),
        )
    })?;
    shared.command(seat, command).await
}

#[utoipa::path(get, path = "/docs/api.md", tag = "docs", responses((status = 200, description = "the API in prose", content_type = "text/markdown", body = String), crate::wire::Refusals))]
pub async fn api_doc() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        include_str!("../../../docs/api.md"),
    )
}
