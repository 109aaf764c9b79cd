//! The browser client: the files of `web/`, embedded at compile time and served with ETags, the
//! rules pages, the table of variants and finished games' replays.

use crate::api::App;
use crate::error::ApiError;
use crate::replay::replay_of;
use crate::room::Command;
use crate::wire::Variants;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bluffchess_rules::registry::VARIANTS;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::OnceLock;

macro_rules! embed {
    ($dir:literal: $($name:literal),* $(,)?) => {
        &[$(($name, include_bytes!(concat!("../../../", $dir, "/", $name)) as &[u8])),*]
    };
}

/// The client's files, by name.
pub static FILES: &[(&str, &[u8])] = embed!("web":
    "index.html", "style.css", "theme.js", "app.js", "board.js", "pieces.js", "variants.js",
    "net.js", "sound.js", "md.js", "account.js", "events.js", "pairing.js", "challenges.js",
    "players.js", "terms.js", "rated.css", "learn.js", "LICENSES.md",
);

/// Each variant's rules (`VARIANT.md`), as its `VariantSpec` embeds them, gathered once (so that
/// a page and its ETag are found by the same bytes).
fn rules_files() -> &'static [(String, &'static [u8])] {
    static RULES: OnceLock<Vec<(String, &'static [u8])>> = OnceLock::new();
    RULES.get_or_init(|| {
        VARIANTS
            .iter()
            .map(|v| (format!("{}.md", v.id), v.rules.as_bytes()))
            .collect()
    })
}

/// A variant's rules, by file name (`VARIANT.md`).
fn rules_text(name: &str) -> Option<&'static [u8]> {
    rules_files()
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| *b)
}

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
            .map(|(_, b)| *b)
            .chain(rules_files().iter().map(|(_, b)| *b))
            .map(|b| {
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
#[utoipa::path(get, path = "/", tag = "web", responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn shell(headers: HeaderMap) -> Response {
    let bytes = find(FILES, "index.html").expect("index.html is embedded");
    serve("index.html", bytes, &headers)
}

/// `GET /game/{id}`: the client's game page.
#[utoipa::path(get, path = "/game/{id}", tag = "web", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn game_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /replay/{id}`: the client's replay page.
#[utoipa::path(get, path = "/replay/{id}", tag = "web", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn replay_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// A page of the client with no parameter: the shell, whose router draws it.
macro_rules! page {
    ($name:ident, $path:literal, $what:literal) => {
        #[doc = concat!("`GET ", $path, "`: ", $what, ".")]
        #[utoipa::path(get, path = $path, tag = "web", responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
        pub async fn $name(headers: HeaderMap) -> Response {
            shell(headers).await
        }
    };
}

page!(login_page, "/login", "the log-in page");
page!(signup_page, "/signup", "the sign-up page");
page!(account_page, "/account", "the account's page");
page!(leaderboard_page, "/player", "the leaderboards");

/// `GET /@/{name}`: a player's page.
#[utoipa::path(get, path = "/@/{name}", tag = "web", params(("name" = String, Path, description = "the player's name")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn player_page(Path(_name): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /rules/{variant}`: the client's rules page.
#[utoipa::path(get, path = "/rules/{variant}", tag = "web", params(("variant" = String, Path, description = "a variant id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn rules_page(Path(_variant): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /learn/{variant}`: the page that teaches a variant to a newcomer.
#[utoipa::path(get, path = "/learn/{variant}", tag = "web", params(("variant" = String, Path, description = "a variant id")), responses((status = 200, description = "the browser client", content_type = "text/html", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn learn_page(Path(_variant): Path<String>, headers: HeaderMap) -> Response {
    shell(headers).await
}

/// `GET /api/bots`: the server's bots by level, for the lobby and the board's names.
#[utoipa::path(get, path = "/api/bots", tag = "games", responses((status = 200, description = "the bot levels, weakest first", body = crate::wire::BotLevels), crate::wire::Refusals))]
pub async fn bots(State(app): State<App>) -> Result<Json<crate::wire::BotLevels>, ApiError> {
    let mut ratings = HashMap::new();
    for level in crate::bot::LEVELS {
        if let Some((id, _)) = app.bot_account(level.name) {
            let rows = app
                .store
                .ratings()
                .of(id)
                .await
                .map_err(|e| ApiError::unavailable(e.to_string()))?;
            let shown = rows
                .iter()
                .map(|r| (r.variant.clone(), crate::player_api::rating_of(r)));
            ratings.insert(level.name, shown.collect());
        }
    }
    Ok(Json(crate::bot::levels(ratings)))
}

/// `GET /static/{file}`.
#[utoipa::path(get, path = "/static/{file}", tag = "web", params(("file" = String, Path, description = "a file of the client")), responses((status = 200, description = "the file", content_type = "*/*", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn static_file(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match find(FILES, &name) {
        Some(bytes) => serve(&name, bytes, &headers),
        None => ApiError::NotFound("no such file of the client".into()).into_response(),
    }
}

/// `GET /docs/rules/{variant}.md`.
#[utoipa::path(get, path = "/docs/rules/{file}", tag = "docs", params(("file" = String, Path, description = "VARIANT.md")), responses((status = 200, description = "the variant's rules", content_type = "text/markdown", body = String), (status = 304, description = "not modified (If-None-Match)"), crate::wire::Refusals))]
pub async fn rules(Path(name): Path<String>, headers: HeaderMap) -> Response {
    match rules_text(&name) {
        Some(bytes) => serve(&name, bytes, &headers),
        None => ApiError::NotFound("no such rules page".into()).into_response(),
    }
}

/// `GET /api/variants`: the table of variants and their options.
#[utoipa::path(get, path = "/api/variants", tag = "games", responses((status = 200, description = "the variants and their options", body = crate::wire::Variants), crate::wire::Refusals))]
pub async fn variants() -> Json<Variants> {
    Json(Variants { variants: VARIANTS })
}

/// `GET /api/games/{id}/replay`: once the game is over, the position after each action with
/// everything revealed.
#[utoipa::path(get, path = "/api/games/{id}/replay", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the finished game, every position revealed", body = crate::wire::Replay), crate::wire::Refusals))]
pub async fn replay(State(app): State<App>, Path(id): Path<String>) -> Result<Response, ApiError> {
    if let Some(cached) = app.replays.get(&id) {
        return Ok(json_bytes(cached));
    }
    let shared = app.get(&id).await?;
    let record = shared.ask(|reply| Command::Record { reply }).await??;
    let replay = tokio::task::spawn_blocking(move || replay_of(record))
        .await
        .map_err(|_| ApiError::Internal("the replay failed".into()))??;
    let bytes = Bytes::from(serde_json::to_vec(&replay).expect("replays serialise"));
    app.replays.put(&shared.id, bytes.clone());
    Ok(json_bytes(bytes))
}

fn json_bytes(bytes: Bytes) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
}
