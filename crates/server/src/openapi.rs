//! The API described in OpenAPI 3.1, generated from the handlers' annotations and the request
//! types, served at `GET /api/openapi.json`. `tests/openapi.rs` checks it lists every route the
//! router serves, and `.ci/schemathesis` checks the server answers as it says.

use crate::request::{ActionRequest, ClockRequest, CreateRequest, JoinRequest};
use axum::Json;
use serde::Serialize;
use serde_json::Value;
use utoipa::{IntoResponses, OpenApi, ToSchema};

/// A refusal: nothing was changed.
#[derive(Serialize, ToSchema)]
pub struct Refusal {
    /// What is wrong.
    pub error: String,
}

/// A seat taken: by creating a game or joining one.
#[derive(Serialize, ToSchema)]
pub struct Seated {
    /// The game id.
    pub id: String,
    /// `white` or `black`.
    pub seat: String,
    /// The seat's token: send it as `Authorization: Bearer TOKEN`.
    pub token: String,
    /// The game's private page, the token in the fragment.
    pub url: String,
    /// A private game's invitation to its open seat (creation only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
    /// The page that takes that seat, the invitation in the fragment (creation only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_url: Option<String>,
}

/// The lobby: public facts of open and live games, newest first, at most 500 each.
#[derive(Serialize, ToSchema)]
pub struct Lobby {
    /// Games with a seat open.
    #[schema(value_type = Vec<Object>)]
    pub open: Vec<Value>,
    /// Games being played.
    #[schema(value_type = Vec<Object>)]
    pub live: Vec<Value>,
}

/// What a seat's request did: `{"ok": true, "entries", "status", "to_act", "outcome"}`, with
/// `events` for an action and `rematch` for a rematch.
#[derive(Serialize, ToSchema)]
pub struct Done {
    /// Always true.
    pub ok: bool,
}

/// A message of a seat's feed (`view`, `update`, `end`): see `docs/api.md`.
#[derive(Serialize, ToSchema)]
pub struct Message {
    /// `view`, `update` or `end`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The message's number in this seat's sequence.
    pub seq: u64,
    /// The game id.
    pub game: String,
    /// `open`, `live`, `over` or `aborted`.
    pub status: String,
    /// The seat's legal actions when it is to act.
    pub legal: Vec<String>,
}

/// A game's record (see `docs/arbiter.md`), checked by `bluffchess verify`.
#[derive(Serialize, ToSchema)]
#[schema(value_type = Object)]
pub struct GameRecord(Value);

/// A finished game's replay: the record and every position with everything revealed.
#[derive(Serialize, ToSchema)]
pub struct Replay {
    /// The record.
    #[schema(value_type = Object)]
    pub record: Value,
    /// The position at the start and after each action.
    #[schema(value_type = Vec<Object>)]
    pub positions: Vec<Value>,
}

/// The variants and their rules options.
#[derive(Serialize, ToSchema)]
pub struct Variants {
    /// One entry a variant: `{"id", "name", "summary", "options"}`.
    #[schema(value_type = Vec<Object>)]
    pub variants: Vec<Value>,
}

/// Every refusal: a status and `{"error": "..."}`.
#[derive(IntoResponses)]
pub enum Refusals {
    /// The request is refused (bad input, no such game, not your turn, too many requests).
    #[response(status = "4XX")]
    Client(#[to_schema] Refusal),
    /// The server is shutting down.
    #[response(status = 503)]
    Unavailable(#[to_schema] Refusal),
}

/// The document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "bluffchess",
        description = "Chess variants with hidden information: each seat sees only its own view. See /docs/api.md."
    ),
    paths(
        crate::api::create,
        crate::api::lobby,
        crate::api::join,
        crate::api::view,
        crate::api::record,
        crate::api::action,
        crate::api::resign,
        crate::api::offer_draw,
        crate::api::accept_draw,
        crate::api::claim_draw,
        crate::api::abort,
        crate::api::rematch,
        crate::api::claim_victory,
        crate::api::stream,
        crate::api::ws,
        crate::api::api_doc,
        openapi_json,
        crate::web::shell,
        crate::web::game_page,
        crate::web::replay_page,
        crate::web::rules_page,
        crate::web::static_file,
        crate::web::rules,
        crate::web::variants,
        crate::web::replay,
    ),
    components(schemas(
        CreateRequest,
        ClockRequest,
        ActionRequest,
        JoinRequest,
        Refusal,
        Seated,
        Lobby,
        Done,
        Message,
        GameRecord,
        Replay,
        Variants
    ))
)]
pub struct ApiDoc;

/// The document as JSON.
pub fn document() -> Value {
    serde_json::to_value(ApiDoc::openapi()).expect("the OpenAPI document serialises")
}

/// `GET /api/openapi.json`.
#[utoipa::path(get, path = "/api/openapi.json", tag = "docs",
    responses((status = 200, description = "this document", content_type = "application/json", body = Object), Refusals))]
pub async fn openapi_json() -> Json<Value> {
    Json(document())
}
