//! The browser client: the files of `web/`, embedded at compile time and served with ETags, the
//! rules pages, the table of variants and finished games' replays.

use crate::api::App;
use crate::error::ApiError;
use crate::game::Command;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bluffchess_rules::any::{AnyGame, VARIANTS};
use bluffchess_rules::arbiter::Record;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::Seat;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::collections::VecDeque;
use std::sync::{Mutex, OnceLock};

macro_rules! embed {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(($name, include_bytes!(concat!("../../../", $dir, "/", $name)) as &[u8])),*]
    };
}

/// The client's files, by name.
pub static FILES: &[(&str, &[u8])] = embed!("web":
    "index.html", "style.css", "theme.js", "app.js", "board.js", "pieces.js", "variants.js",
    "net.js", "sound.js", "md.js", "LICENSES.md",
);

/// Each variant's rules, by variant id.
pub static RULES: &[(&str, &[u8])] = embed!("docs/rules":
    "chess.md", "alter-ego.md", "ambiguous.md", "bluff-move.md", "bs.md", "reality-check.md",
);

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("md") => "text/markdown; charset=utf-8",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// The ETag of every embedded file, computed once.
fn etag(bytes: &'static [u8]) -> HeaderValue {
    static TAGS: OnceLock<Vec<(usize, HeaderValue)>> = OnceLock::new();
    let tags = TAGS.get_or_init(|| {
        FILES
            .iter()
            .chain(RULES)
            .map(|(_, b)| {
                let hash = Sha256::digest(b);
                let tag = format!("\"{}\"", hex::encode(&hash[..12]));
                (
                    b.as_ptr() as usize,
                    HeaderValue::from_str(&tag).expect("hex"),
                )
            })
            .collect()
    });
    tags.iter()
        .find(|(p, _)| *p == bytes.as_ptr() as usize)
        .map(|(_, t)| t.clone())
        .expect("an embedded file")
}

/// Answers an embedded file, or 304 when the client's copy is current. Browsers revalidate
/// every time (`no-cache`), which costs one small request and never serves a stale client.
fn serve(name: &str, bytes: &'static [u8], headers: &HeaderMap) -> Response {
    let tag = etag(bytes);
    let current = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag.to_str().unwrap_or("")));
    let cache = (header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if current {
        return (StatusCode::NOT_MODIFIED, [(header::ETAG, tag), cache]).into_response();
    }
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static(content_type(name)),
            ),
            (header::ETAG, tag),
            cache,
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        bytes,
    )
        .into_response()
}

fn find(list: &'static [(&str, &[u8])], name: &str) -> Option<&'static [u8]> {
    list.iter().find(|(n, _)| *n == name).map(|(_, b)| *b)
}

/// The client's page: every client route (`/`, `/game/{id}`, `/rules/{id}`, `/replay/{id}`).
#[utoipa::path(get, path = "/", tag = "web", responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn shell(headers: HeaderMap) -> Response {
    let bytes = find(FILES, "index.html").expect("index.html is embedded");
    serve("index.html", bytes, &headers)
}

/// `GET /game/{id}`: the client's game page.
#[utoipa::path(get, path = "/game/{id}", tag = "web", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn game_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /replay/{id}`: the client's replay page.
#[utoipa::path(get, path = "/replay/{id}", tag = "web", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn replay_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /rules/{variant}`: the client's rules page.
#[utoipa::path(get, path = "/rules/{variant}", tag = "web", params(("variant" = String, Path, description = "a variant id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn rules_page(Path(_variant): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /static/{file}`.
#[utoipa::path(get, path = "/static/{file}", tag = "web", params(("file" = String, Path, description = "a file of the client")), responses((status = 200, description = "the file", content_type = "*/*", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn static_file(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match find(FILES, &name) {
        Some(bytes) => serve(&name, bytes, &headers),
        None => ApiError::new(StatusCode::NOT_FOUND, "no such file of the client").into_response(),
    }
}

/// `GET /docs/rules/{variant}.md`.
#[utoipa::path(get, path = "/docs/rules/{file}", tag = "docs", params(("file" = String, Path, description = "VARIANT.md")), responses((status = 200, description = "the variant's rules", content_type = "text/markdown", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::openapi::Refusals))]
pub async fn rules(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match find(RULES, &name) {
        Some(bytes) => serve(&name, bytes, &headers),
        None => ApiError::new(StatusCode::NOT_FOUND, "no such rules page").into_response(),
    }
}

/// `GET /api/variants`: the table of variants and their options.
#[utoipa::path(get, path = "/api/variants", tag = "games", responses((status = 200, description = "the variants and their options", body = crate::openapi::Variants), crate::openapi::Refusals))]
pub async fn variants() -> Json<Value> {
    Json(json!({ "variants": VARIANTS }))
}

/// `GET /api/games/{id}/replay`: once the game is over, the position after each action with
/// everything revealed.
#[utoipa::path(get, path = "/api/games/{id}/replay", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the finished game, every position revealed", body = crate::openapi::Replay), crate::openapi::Refusals))]
pub async fn replay(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if let Some(cached) = app.replays.get(&id) {
        return Ok(json_bytes(cached));
    }
    let shared = app.get(&id).await?;
    let (reply, answer) = tokio::sync::oneshot::channel();
    shared
        .tx
        .send(Command::Record { reply })
        .await
        .map_err(|_| ApiError::unavailable("the game is shutting down"))?;
    let record = answer
        .await
        .map_err(|_| ApiError::unavailable("the game is shutting down"))??;
    let replay = tokio::task::spawn_blocking(move || replay_of(record))
        .await
        .map_err(|_| ApiError::unavailable("the replay failed"))??;
    let bytes = Bytes::from(replay.to_string());
    app.replays.put(&shared.id, bytes.clone());
    Ok(json_bytes(bytes))
}

fn json_bytes(bytes: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}

/// The replays of the finished games asked for last: a finished game never changes, and a
/// replay costs a replay of the whole game.
#[derive(Default)]
pub struct ReplayCache(Mutex<VecDeque<(String, Bytes)>>);

impl ReplayCache {
    /// How many replays it keeps.
    const SIZE: usize = 64;

    fn get(&self, id: &str) -> Option<Bytes> {
        let cache = self.0.lock().expect("replay cache lock");
        cache.iter().find(|(k, _)| k == id).map(|(_, v)| v.clone())
    }

    fn put(&self, id: &str, replay: Bytes) {
        let mut cache = self.0.lock().expect("replay cache lock");
        if cache.iter().any(|(k, _)| k == id) {
            return;
        }
        if cache.len() == Self::SIZE {
            cache.pop_front();
        }
        cache.push_back((id.to_string(), replay));
    }
}

fn replay_of(record: Value) -> Result<Value, ApiError> {
    let bad = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let parsed: Record = serde_json::from_value(record.clone()).map_err(|e| bad(e.to_string()))?;
    // Scripted, so Chance's outcomes are played as the record's texts (the record is the
    // server's own, rolled from the seed).
    let mut game = AnyGame::new(
        &parsed.variant,
        &parsed.options,
        parsed.seed,
        SaltSource::Seeded(0),
    )
    .map_err(|e| bad(e.to_string()))?
    .scripted();
    let seats = [Seat::White, Seat::Black];
    let seen_now = |game: &AnyGame| seats.map(|seat| game.view(seat)["position"].clone());
    let mut positions = vec![game.revealed_position()];
    let mut seen = vec![seen_now(&game)];
    let mut metas = parsed.meta.iter().peekable();
    for (i, action) in parsed.actions.iter().enumerate() {
        // Draw offers and the like change no position; the last (a resignation, say) reveals.
        while let Some(meta) = metas.next_if(|m| m.after <= i) {
            game.meta(meta.seat, meta.kind)
                .map_err(|e| bad(e.to_string()))?;
        }
        game.play(&action.text).map_err(|e| bad(e.to_string()))?;
        positions.push(game.revealed_position());
        seen.push(seen_now(&game));
    }
    for meta in metas {
        game.meta(meta.seat, meta.kind)
            .map_err(|e| bad(e.to_string()))?;
    }
    *seen.last_mut().expect("the start is seen") = seen_now(&game);
    let seen_by = |n: usize| seen.iter().map(|s| s[n].clone()).collect::<Vec<_>>();
    Ok(json!({
        "record": record,
        "positions": positions,
        "seen": {"white": seen_by(0), "black": seen_by(1)},
    }))
}
