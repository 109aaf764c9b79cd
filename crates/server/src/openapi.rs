//! The API described in OpenAPI 3.1, generated from the handlers' annotations and the request
//! types, served at `GET /api/openapi.json`. `tests/openapi.rs` checks it lists every route the
//! router serves, and `.ci/schemathesis` checks the server answers as it says.

use crate::wire::{
    AccountEvent, AccountGame, ActionRequest, Answer, BySeat, Challenge, Challenges, ClockRequest,
    ClockState, ClockTerms, CreateRequest, Credentials, DeclineRequest, Done, EventGame,
    GameRecord, JoinRequest, Leader, Lobby, LobbyGame, Message, MessageKind, NamedRecord, OpenSeek,
    Paired, PasswordChange, PlayedGame, PlayedGames, PlayerRef, Rating, RatingPoint, Refusal,
    Refusals, RematchAnswer, RematchState, Replay, Seated, SeedCommitment, SeekAnswer, SessionInfo,
    SignedIn, Status, TermsRequest, TimeControl, TokenCreated, TokenInfo, TokenRequest, User,
    VariantRef, Variants,
};
use crate::wire::{BotLevel, BotLevels, Positions, SeatPresence, SeenPosition};
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
        crate::player_api::record,
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
        crate::pairing_api::seek,
        crate::pairing_api::take_seek,
        crate::pairing_api::cancel_seek,
        crate::pairing_api::challenge,
        crate::pairing_api::accept,
        crate::pairing_api::decline,
        crate::pairing_api::cancel,
        crate::pairing_api::challenges,
        crate::pairing_api::events,
        crate::player_api::export,
        crate::player_api::played,
        crate::player_api::rating_history,
        crate::player_api::leaders,
        crate::web::player_page,
        crate::web::leaderboard_page,
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
        SeenPosition,
        TermsRequest,
        DeclineRequest,
        PlayerRef,
        VariantRef,
        TimeControl,
        OpenSeek,
        SeekAnswer,
        Challenge,
        Challenges,
        Paired,
        EventGame,
        AccountEvent,
        RatingPoint,
        Leader,
        PlayedGame,
        PlayedGames,
        NamedRecord
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
