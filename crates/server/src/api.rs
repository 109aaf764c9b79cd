//! The HTTP API: routes, authentication, streams and sockets.

use crate::error::ApiError;
use crate::game::{index, Command, Connected, Shared};
use crate::hub::{token_hash, Hub, NewGame, StreamSlot};
use crate::request;
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bluffchess_rules::arbiter::MetaKind;
use bluffchess_rules::board::Color;
use bluffchess_rules::game::Seat;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use subtle::ConstantTimeEq;
use tokio::sync::{oneshot, watch};

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
        ApiError::new(status, "the request body is too large")
    } else {
        ApiError::new(status, text)
    }
}

/// The seat a request's `Authorization` header names: `None` without the header.
fn authenticate(headers: &HeaderMap, shared: &Shared) -> Result<Option<Color>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| {
            let (scheme, token) = v.split_once(' ')?;
            scheme.eq_ignore_ascii_case("bearer").then_some(token)
        })
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "the Authorization header must be \"Bearer TOKEN\"",
            )
        })?;
    seat_of_token(token.trim(), shared).map(Some)
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
    let seat = found.ok_or_else(|| {
        ApiError::new(
            StatusCode::FORBIDDEN,
            format!("this token is not a seat of game {}", shared.id),
        )
    })?;
    shared.presence[index(seat)].seen();
    Ok(seat)
}

fn require_seat(headers: &HeaderMap, shared: &Shared) -> Result<Color, ApiError> {
    authenticate(headers, shared)?.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "this needs a seat's token: send Authorization: Bearer TOKEN",
        )
    })
}

async fn ask<T>(
    shared: &Shared,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Result<T, ApiError> {
    let (reply, answer) = oneshot::channel();
    shared
        .tx
        .send(make(reply))
        .await
        .map_err(|_| ApiError::unavailable("the game is shutting down"))?;
    answer
        .await
        .map_err(|_| ApiError::unavailable("the game is shutting down"))
}

#[utoipa::path(post, path = "/api/games", tag = "games", request_body(content = crate::request::CreateRequest, content_type = "application/json"), responses((status = 201, description = "the game, and the creator's seat", body = crate::openapi::Seated), crate::openapi::Refusals))]
pub async fn create(
    State(app): State<App>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let creation = request::creation(&body)?;
    let seat = creation.color.unwrap_or_else(|| {
        if crate::hub::os_u64() & 1 == 0 {
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
        client: Some(peer.ip()),
    };
    let created = app.create(new).await?;
    let id = &created.shared.id;
    let mut body = json!({
        "id": id,
        "seat": Seat::from(seat).name(),
        "token": created.token,
        "url": format!("/game/{id}#{}", created.token),
    });
    if let Some(invite) = created.invite {
        body["invite_url"] = format!("/game/{id}#invite={invite}").into();
        body["invite"] = invite.into();
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[utoipa::path(get, path = "/api/games", tag = "games", responses((status = 200, description = "open and live games", body = crate::openapi::Lobby), crate::openapi::Refusals))]
pub async fn lobby(State(app): State<App>) -> Json<Value> {
    let (mut open, mut live) = app.lobby();
    open.truncate(500);
    live.truncate(500);
    Json(json!({"open": open, "live": live}))
}

#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", params(("id" = String, Path, description = "the game id")), request_body(content = Option<crate::request::JoinRequest>, content_type = "application/json", description = "a private game's invitation (optional)"), responses((status = 200, description = "the open seat, taken", body = crate::openapi::Seated), crate::openapi::Refusals))]
pub async fn join(
    State(app): State<App>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let invite = request::join(&body, is_json(&headers))?;
    let shared = app.get(&id).await?;
    app.reserve(Some(peer.ip()))?;
    let result = ask(&shared, |reply| Command::Join {
        client: Some(peer.ip()),
        invite,
        reply,
    })
    .await
    .and_then(|r| r);
    let (seat, token) = match result {
        Ok(joined) => joined,
        Err(e) => {
            app.release(&[Some(peer.ip())]);
            return Err(e);
        }
    };
    Ok(Json(json!({
        "id": shared.id,
        "seat": Seat::from(seat).name(),
        "token": token,
        "url": format!("/game/{}#{}", shared.id, token),
    })))
}

#[utoipa::path(get, path = "/api/games/{id}/view", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator")), responses((status = 200, description = "the seat's (or the public) view now", body = crate::openapi::Message), crate::openapi::Refusals))]
pub async fn view(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&headers, &shared)?.map_or(Seat::Spectator, Seat::from);
    Ok(Json(
        ask(&shared, |reply| Command::View { seat, reply }).await?,
    ))
}

#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the record of the finished game", body = crate::openapi::GameRecord), crate::openapi::Refusals))]
pub async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let shared = app.get(&id).await?;
    Ok(Json(
        ask(&shared, |reply| Command::Record { reply }).await??,
    ))
}

#[utoipa::path(post, path = "/api/games/{id}/action", tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), request_body(content = crate::request::ActionRequest, content_type = "application/json"), responses((status = 200, description = "the action, durable: with the events the seat may see", body = crate::openapi::Done), crate::openapi::Refusals))]
pub async fn action(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Json<Value>, ApiError> {
    let command = request::action(&body)?;
    let shared = app.get(&id).await?;
    let seat = require_seat(&headers, &shared)?;
    seat_command(&shared, seat, command).await.map(Json)
}

/// What a seat may ask of its game.
pub enum SeatCommand {
    Act(String),
    Meta(MetaKind),
    Abort,
    Rematch,
    ClaimVictory,
}

impl SeatCommand {
    /// The command a socket names (`resign`, `offer_draw`, ...).
    pub fn parse(name: &str) -> Option<SeatCommand> {
        Some(match name {
            "abort" => SeatCommand::Abort,
            "rematch" => SeatCommand::Rematch,
            "claim_victory" => SeatCommand::ClaimVictory,
            "resign" => SeatCommand::Meta(MetaKind::Resign),
            "offer_draw" => SeatCommand::Meta(MetaKind::OfferDraw),
            "accept_draw" => SeatCommand::Meta(MetaKind::AcceptDraw),
            "claim_draw" => SeatCommand::Meta(MetaKind::ClaimDraw),
            // A flag fall and an abandonment are the server's to declare, never a seat's.
            _ => return None,
        })
    }
}

async fn seat_command(
    shared: &Shared,
    seat: Color,
    command: SeatCommand,
) -> Result<Value, ApiError> {
    ask(shared, |reply| match command {
        SeatCommand::Act(text) => Command::Act { seat, text, reply },
        SeatCommand::Meta(kind) => Command::Meta { seat, kind, reply },
        SeatCommand::Abort => Command::Abort { seat, reply },
        SeatCommand::Rematch => Command::Rematch { seat, reply },
        SeatCommand::ClaimVictory => Command::ClaimVictory { seat, reply },
    })
    .await?
}

macro_rules! seat_route {
    ($name:ident, $path:literal, $command:expr) => {
        #[doc = concat!("`POST ", $path, "`.")]
        #[utoipa::path(post, path = $path, tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), responses((status = 200, description = "done", body = crate::openapi::Done), crate::openapi::Refusals))]
        pub async fn $name(
            State(app): State<App>,
            Path(id): Path<String>,
            headers: HeaderMap,
        ) -> Result<Json<Value>, ApiError> {
            let shared = app.get(&id).await?;
            let seat = require_seat(&headers, &shared)?;
            seat_command(&shared, seat, $command).await.map(Json)
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

/// Reads a seat's feed: from a message number on, or the whole view first.
pub struct FeedReader {
    shared: Arc<Shared>,
    feed: usize,
    pos: usize,
    rx: watch::Receiver<usize>,
    pending: VecDeque<Arc<str>>,
    ended: bool,
}

impl FeedReader {
    /// Starts after message `since` (when the feed has it), else with the whole view.
    pub fn new(shared: Arc<Shared>, feed: usize, since: Option<usize>) -> FeedReader {
        let rx = shared.feeds[feed].notify.subscribe();
        let (pending, pos, ended) = {
            let state = shared.feeds[feed].state.lock().expect("feed lock");
            let len = state.messages.len();
            let pending: VecDeque<Arc<str>> = match since {
                Some(n) if n <= len => state.messages[n..].iter().cloned().collect(),
                _ => [state.snapshot.clone()].into(),
            };
            (pending, len, state.ended)
        };
        FeedReader {
            shared,
            feed,
            pos,
            rx,
            pending,
            ended,
        }
    }

    /// The next message, or `None` after the last.
    pub async fn next(&mut self) -> Option<Arc<str>> {
        loop {
            if let Some(message) = self.pending.pop_front() {
                return Some(message);
            }
            if self.ended {
                return None;
            }
            self.rx.changed().await.ok()?;
            let state = self.shared.feeds[self.feed]
                .state
                .lock()
                .expect("feed lock");
            self.pending
                .extend(state.messages[self.pos..].iter().cloned());
            self.pos = state.messages.len();
            self.ended = state.ended;
        }
    }
}

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

#[utoipa::path(get, path = "/api/games/{id}/stream", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator"), ("since" = Option<u64>, Query, description = "resume after this message number")), responses((status = 200, description = "NDJSON: one message a line, empty lines as keepalive", content_type = "application/x-ndjson", body = String), crate::openapi::Refusals))]
pub async fn stream(
    State(app): State<App>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&headers, &shared)?;
    let since = parse_since(&query)?;
    let feed = seat.map_or(2, index);
    let slot = app.open_stream(peer.ip())?;
    let state = StreamState {
        _slot: slot,
        reader: FeedReader::new(shared.clone(), feed, since),
        keepalive: app.config.keepalive,
        shutdown: app.shutdown.clone(),
        _connected: seat.map(|c| Connected::new(shared.clone(), index(c))),
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

#[utoipa::path(get, path = "/api/games/{id}/ws", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 101, description = "a WebSocket: the first message authenticates"), crate::openapi::Refusals))]
pub async fn ws(
    State(app): State<App>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let shared = app.get(&id).await?;
    let slot = app.open_stream(peer.ip())?;
    Ok(upgrade
        .max_message_size(app.config.body_limit)
        .on_upgrade(move |socket| async move {
            ws_session(app, shared, socket).await;
            drop(slot);
        }))
}

fn ws_error(e: &ApiError) -> Message {
    Message::Text(
        json!({"type": "error", "status": e.status.as_u16(), "error": e.message})
            .to_string()
            .into(),
    )
}

async fn ws_session(app: App, shared: Arc<Shared>, mut socket: WebSocket) {
    let hello = match tokio::time::timeout(Duration::from_secs(10), socket.recv()).await {
        Ok(Some(Ok(Message::Text(text)))) => request::ws_hello(&text),
        _ => Err(ApiError::bad(
            "the first message must be {\"token\": TOKEN or null} within 10 s",
        )),
    };
    let hello = hello.and_then(|h| {
        let seat = match h.token.as_deref() {
            Some(token) => Some(seat_of_token(token, &shared)?),
            None => None,
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
    let _connected = seat.map(|c| Connected::new(shared.clone(), index(c)));
    let mut reader = FeedReader::new(shared.clone(), seat.map_or(2, index), since);
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
                    let reply = match ws_command(&shared, seat, &text).await {
                        Ok(v) => Message::Text(json!({"type": "ack", "result": v}).to_string().into()),
                        Err(e) => ws_error(&e),
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

async fn ws_command(shared: &Shared, seat: Option<Color>, text: &str) -> Result<Value, ApiError> {
    let command = request::ws_command(text)?;
    let seat = seat.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "spectators cannot act: open the socket with a seat's token",
        )
    })?;
    seat_command(shared, seat, command).await
}

#[utoipa::path(get, path = "/docs/api.md", tag = "docs", responses((status = 200, description = "the API in prose", content_type = "text/markdown", body = String), crate::openapi::Refusals))]
pub async fn api_doc() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
        include_str!("../../../docs/api.md"),
    )
}
