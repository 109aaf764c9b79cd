//! The API described in OpenAPI 3.1, generated from the handlers' annotations and the request
//! types, served at `GET /api/openapi.json`. `tests/openapi.rs` checks it lists every route the
//! router serves, and `.ci/schemathesis` checks the server answers as it says.

use crate::wire::{
    AccountGame, ActionRequest, Answer, BotLevel, BotLevels, BySeat, ClockRequest, ClockState,
    ClockTerms, CreateRequest, Credentials, Done, GameRecord, JoinRequest, Lobby, LobbyGame,
    Message, MessageKind, PasswordChange, Positions, Rating, Refusal, Refusals, RematchAnswer,
    RematchState, Replay, SeatPresence, Seated, SeedCommitment, SeenPosition, SessionInfo,
    SignedIn, Status, TokenCreated, TokenInfo, TokenRequest, User, Variants,
};
use axum::Json;
use serde_json::Value;
use utoipa::OpenApi;

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
        crate::api::positions,
        crate::api::action,
        crate::api::resign,
        crate::api::offer_draw,
        crate::api::accept_draw,
        crate::api::decline_draw,
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
        crate::web::learn_page,
        crate::web::login_page,
        crate::web::signup_page,
        crate::web::account_page,
        crate::web::static_file,
        crate::web::rules,
        crate::web::variants,
        crate::web::bots,
        crate::web::replay,
        crate::account_api::signup,
        crate::account_api::login,
        crate::account_api::logout,
        crate::account_api::account,
        crate::account_api::password,
        crate::account_api::sessions,
        crate::account_api::end_session,
        crate::account_api::create_token,
        crate::account_api::tokens,
        crate::account_api::revoke_token,
        crate::account_api::games,
        crate::account_api::upgrade,
        crate::account_api::user,
    ),
    components(schemas(
        CreateRequest,
        ClockRequest,
        ActionRequest,
        JoinRequest,
        Refusal,
        Seated,
        Lobby,
        LobbyGame,
        ClockTerms,
        Done,
        RematchAnswer,
        Answer,
        Message,
        MessageKind,
        ClockState,
        SeedCommitment,
        RematchState,
        BySeat<bool>,
        BySeat<String>,
        Status,
        GameRecord,
        Replay,
        Variants,
        Credentials,
        PasswordChange,
        TokenRequest,
        SignedIn,
        Rating,
        User,
        TokenCreated,
        TokenInfo,
        SessionInfo,
        AccountGame,
        SeatPresence,
        BySeat<SeatPresence>,
        BotLevel,
        BotLevels,
        Positions,
        SeenPosition
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
