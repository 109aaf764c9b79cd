//! The HTTP API: routes, authentication, streams and sockets.

use crate::error::ApiError;
use crate::hub::{Hub, NewGame, StreamSlot};
use crate::request;
use crate::room::{feed_of, index, Command, Connected, FeedReader, SeatCommand, Shared};
use crate::secret::{os_u64, token_hash};
use crate::wire::{Answer, Lobby, Message as FeedMessage, Seated, WsReply};
use axum::body::{Body, Bytes};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, FromRequest, Path, Query, Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bluffchess_rules::arbiter::{MetaKind, Record};
use bluffchess_rules::board::Color;
use bluffchess_rules::game::Seat;
use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
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
            ApiError::Unauthenticated("the Authorization header must be \"Bearer TOKEN\"".into())
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
        ApiError::Forbidden(format!("this token is not a seat of game {}", shared.id))
    })?;
    shared.presence[index(seat)].seen();
    Ok(seat)
}

fn require_seat(headers: &HeaderMap, shared: &Shared) -> Result<Color, ApiError> {
    authenticate(headers, shared)?.ok_or_else(|| {
        ApiError::Unauthenticated(
            "this needs a seat's token: send Authorization: Bearer TOKEN".into(),
        )
    })
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let creation = request::creation(&body)?;
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
        client: Some(peer.ip()),
    };
    let created = app.create(new).await?;
    let id = &created.shared.id;
    let mut body = seated(id, seat, created.token);
    if let Some(invite) = created.invite {
        body.invite_url = Some(format!("/game/{id}#invite={invite}"));
        body.invite = Some(invite);
    }
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

#[utoipa::path(get, path = "/api/games", tag = "games", responses((status = 200, description = "open and live games", body = crate::wire::Lobby), crate::wire::Refusals))]
pub async fn lobby(State(app): State<App>) -> Json<Lobby> {
    let (mut open, mut live) = app.lobby();
    open.truncate(500);
    live.truncate(500);
    Json(Lobby { live, open })
}

#[utoipa::path(post, path = "/api/games/{id}/join", tag = "games", params(("id" = String, Path, description = "the game id")), request_body(content = Option<crate::wire::JoinRequest>, content_type = "application/json", description = "a private game's invitation (optional)"), responses((status = 200, description = "the open seat, taken", body = crate::wire::Seated), crate::wire::Refusals))]
pub async fn join(
    State(app): State<App>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Seated>, ApiError> {
    let invite = request::join(&body, is_json(&headers))?;
    let shared = app.get(&id).await?;
    app.reserve(Some(peer.ip()))?;
    let result = shared
        .ask(|reply| Command::Join {
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
    Ok(Json(seated(&shared.id, seat, token)))
}

#[utoipa::path(get, path = "/api/games/{id}/view", tag = "games", params(("id" = String, Path, description = "the game id"), ("Authorization" = Option<String>, Header, description = "Bearer TOKEN: a seat; without it, a spectator")), responses((status = 200, description = "the seat's (or the public) view now", body = crate::wire::Message), crate::wire::Refusals))]
pub async fn view(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<FeedMessage>, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&headers, &shared)?.map_or(Seat::Spectator, Seat::from);
    Ok(Json(
        shared.ask(|reply| Command::View { seat, reply }).await?,
    ))
}

#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the record of the finished game", body = crate::wire::GameRecord), crate::wire::Refusals))]
pub async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<Record>, ApiError> {
    let shared = app.get(&id).await?;
    Ok(Json(shared.ask(|reply| Command::Record { reply }).await??))
}

#[utoipa::path(post, path = "/api/games/{id}/action", tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), request_body(content = crate::wire::ActionRequest, content_type = "application/json"), responses((status = 200, description = "the action, durable: with the events the seat may see", body = crate::wire::Answer), crate::wire::Refusals))]
pub async fn action(
    State(app): State<App>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Json<Answer>, ApiError> {
    let command = request::action(&body)?;
    let shared = app.get(&id).await?;
    let seat = require_seat(&headers, &shared)?;
    shared.command(seat, command).await.map(Json)
}

macro_rules! seat_route {
    ($name:ident, $path:literal, $command:expr) => {
        #[doc = concat!("`POST ", $path, "`.")]
        #[utoipa::path(post, path = $path, tag = "seats", params(("id" = String, Path, description = "the game id"), ("Authorization" = String, Header, description = "Bearer TOKEN: the seat")), responses((status = 200, description = "done", body = crate::wire::Answer), crate::wire::Refusals))]
        pub async fn $name(
            State(app): State<App>,
            Path(id): Path<String>,
            headers: HeaderMap,
        ) -> Result<Json<Answer>, ApiError> {
            let shared = app.get(&id).await?;
            let seat = require_seat(&headers, &shared)?;
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
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let shared = app.get(&id).await?;
    let seat = authenticate(&headers, &shared)?;
    let since = parse_since(&query)?;
    let feed = feed_of(seat);
    let slot = app.open_stream(peer.ip())?;
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
                    let reply = match ws_command(&shared, seat, &text).await {
                        Ok(result) => ws_reply(&WsReply::Ack { result }),
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
