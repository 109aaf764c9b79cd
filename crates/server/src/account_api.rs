//! The accounts' routes: sign-up, log-in, log-out, the account, its password, sessions, API
//! tokens and games, the bot upgrade, and any player's public page data. See `docs/api.md`.

use crate::accounts::{Caller, Credential, Scopes};
use crate::api::{session_cookie, App, JsonBytes};
use crate::error::ApiError;
use crate::request;
use crate::wire::{
    AccountGame, Credentials, PasswordChange, SessionInfo, SignedIn, Status, TokenCreated,
    TokenInfo, TokenRequest, User,
};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use axum_extra::extract::cookie::Cookie;
use axum_extra::extract::CookieJar;
use std::collections::BTreeMap;

fn agent(headers: &HeaderMap) -> &str {
    headers
        .get(header::USER_AGENT)
        .and_then(|a| a.to_str().ok())
        .unwrap_or("")
}

/// The caller's account, signed in with a session (not a token): for what only its owner at
/// the keyboard may do.
fn by_session(caller: &Caller) -> Result<(&crate::accounts::Account, &str), ApiError> {
    let account = caller.signed_in()?;
    match caller.session() {
        Some(session) => Ok((account, session)),
        None => Err(ApiError::Forbidden(
            "this needs the account's session: sign in in the browser".into(),
        )),
    }
}

#[utoipa::path(post, path = "/api/account/signup", tag = "accounts", request_body(content = Credentials, content_type = "application/json"), responses((status = 201, description = "the new account, signed in (a session cookie is set)", body = SignedIn), crate::wire::Refusals))]
pub async fn signup(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let credentials: Credentials = request::body(&body)?;
    let started = app
        .accounts
        .signup(
            &credentials.username,
            &credentials.password,
            agent(&headers),
            caller.guest(),
        )
        .await?;
    if let Some(guest) = caller.guest() {
        let account = &started.account;
        app.claimed(guest, account.id, &account.username).await;
    }
    let jar = CookieJar::new().add(session_cookie(started.cookie, caller.https));
    let answer = SignedIn {
        username: started.account.username,
    };
    Ok((StatusCode::CREATED, jar, Json(answer)).into_response())
}

#[utoipa::path(post, path = "/api/account/login", tag = "accounts", request_body(content = Credentials, content_type = "application/json"), responses((status = 200, description = "signed in (a new session cookie is set)", body = SignedIn), crate::wire::Refusals))]
pub async fn login(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let credentials: Credentials = request::body(&body)?;
    let started = app
        .accounts
        .login(
            &credentials.username,
            &credentials.password,
            caller.ip,
            agent(&headers),
            caller.guest(),
        )
        .await?;
    if let Some(guest) = caller.guest() {
        let account = &started.account;
        app.claimed(guest, account.id, &account.username).await;
    }
    // A session of another account this browser had ends: one browser, one account.
    if let (Some(session), Some(_)) = (caller.session(), &caller.account) {
        app.accounts.logout(session).await?;
    }
    let jar = CookieJar::new().add(session_cookie(started.cookie, caller.https));
    let answer = SignedIn {
        username: started.account.username,
    };
    Ok((jar, Json(answer)).into_response())
}

#[utoipa::path(post, path = "/api/account/logout", tag = "accounts", responses((status = 200, description = "the session ended (its cookie is removed)", body = SignedIn), crate::wire::Refusals))]
pub async fn logout(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    let (account, session) = by_session(&caller)?;
    app.accounts.logout(session).await?;
    let jar = CookieJar::new().remove(Cookie::build((crate::accounts::COOKIE, "")).path("/"));
    let answer = SignedIn {
        username: account.username.clone(),
    };
    Ok((jar, Json(answer)).into_response())
}

#[utoipa::path(get, path = "/api/account", tag = "accounts", responses((status = 200, description = "the signed-in account", body = User), crate::wire::Refusals))]
pub async fn account(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<User>, ApiError> {
    let account = caller.signed_in()?;
    Ok(Json(crate::player_api::user_of(&app, account).await?))
}

#[utoipa::path(post, path = "/api/account/password", tag = "accounts", request_body(content = PasswordChange, content_type = "application/json"), responses((status = 200, description = "changed: every other session of the account has ended", body = SignedIn), crate::wire::Refusals))]
pub async fn password(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    JsonBytes(body): JsonBytes,
) -> Result<Json<SignedIn>, ApiError> {
    let change: PasswordChange = request::body(&body)?;
    let (account, session) = by_session(&caller)?;
    app.accounts
        .change_password(account, session, &change.current, &change.new)
        .await?;
    Ok(Json(SignedIn {
        username: account.username.clone(),
    }))
}

#[utoipa::path(get, path = "/api/account/sessions", tag = "accounts", responses((status = 200, description = "the account's sessions, newest first", body = Vec<SessionInfo>), crate::wire::Refusals))]
pub async fn sessions(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Vec<SessionInfo>>, ApiError> {
    let (account, current) = by_session(&caller)?;
    let sessions = app.accounts.sessions(account.id).await?;
    Ok(Json(
        sessions
            .into_iter()
            .map(|s| SessionInfo {
                agent: s.agent,
                created_ms: s.created_ms,
                current: s.hash == current,
                id: s.hash[..16].to_string(),
                seen_ms: s.seen_ms,
            })
            .collect(),
    ))
}

#[utoipa::path(delete, path = "/api/account/sessions/{id}", tag = "accounts", params(("id" = String, Path, description = "the session's id")), responses((status = 200, description = "the session ended", body = SignedIn), crate::wire::Refusals))]
pub async fn end_session(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Json<SignedIn>, ApiError> {
    let (account, _) = by_session(&caller)?;
    app.accounts.end_session(account.id, &id).await?;
    Ok(Json(SignedIn {
        username: account.username.clone(),
    }))
}

#[utoipa::path(post, path = "/api/account/tokens", tag = "accounts", request_body(content = TokenRequest, content_type = "application/json"), responses((status = 201, description = "the new token, shown this once", body = TokenCreated), crate::wire::Refusals))]
pub async fn create_token(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let request: TokenRequest = request::body(&body)?;
    let scopes = Scopes::parse(&request.scopes)?;
    let (account, _) = by_session(&caller)?;
    let (id, token) = app.accounts.create_token(account.id, scopes).await?;
    Ok((StatusCode::CREATED, Json(TokenCreated { id, token })).into_response())
}

#[utoipa::path(get, path = "/api/account/tokens", tag = "accounts", responses((status = 200, description = "the account's tokens (never the tokens themselves)", body = Vec<TokenInfo>), crate::wire::Refusals))]
pub async fn tokens(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Vec<TokenInfo>>, ApiError> {
    let account = caller.signed_in()?;
    let tokens = app.accounts.tokens(account.id).await?;
    Ok(Json(
        tokens
            .into_iter()
            .map(|t| TokenInfo {
                created_ms: t.created_ms,
                id: t.id,
                scopes: t.scopes.split(' ').map(String::from).collect(),
                used_ms: t.used_ms,
            })
            .collect(),
    ))
}

#[utoipa::path(delete, path = "/api/account/tokens/{id}", tag = "accounts", params(("id" = String, Path, description = "the token's id")), responses((status = 200, description = "revoked", body = SignedIn), crate::wire::Refusals))]
pub async fn revoke_token(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    Path(id): Path<String>,
) -> Result<Json<SignedIn>, ApiError> {
    let account = caller.signed_in()?;
    app.accounts.revoke(account.id, &id).await?;
    Ok(Json(SignedIn {
        username: account.username.clone(),
    }))
}

#[utoipa::path(post, path = "/api/bot/account/upgrade", tag = "accounts", responses((status = 200, description = "the account is a bot account, for good", body = User), crate::wire::Refusals))]
pub async fn upgrade(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<User>, ApiError> {
    let account = caller.signed_in()?;
    let bot_scope = matches!(&caller.credential, Credential::Token { scopes, .. } if scopes.bot);
    if !bot_scope {
        return Err(ApiError::Forbidden(
            "this needs an API token with the bot scope".into(),
        ));
    }
    app.accounts.upgrade(account).await?;
    Ok(Json(User {
        bot: true,
        ratings: BTreeMap::new(),
        username: account.username.clone(),
    }))
}

#[utoipa::path(get, path = "/api/account/games", tag = "accounts", responses((status = 200, description = "the account's games, newest first (at most 100)", body = Vec<AccountGame>), crate::wire::Refusals))]
pub async fn games(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Vec<AccountGame>>, ApiError> {
    let account = caller.signed_in()?;
    let rows = app
        .store
        .accounts()
        .games(account.id, 100)
        .await
        .map_err(|e| ApiError::unavailable(e.to_string()))?;
    let games = rows
        .into_iter()
        .map(|g| {
            let white = g.white_account == Some(account.id);
            let (seat, name) = match white {
                true => (&g.black, g.black_name),
                false => (&g.white, g.white_name),
            };
            AccountGame {
                color: if white { "white" } else { "black" }.into(),
                created_ms: g.created_ms,
                id: g.id,
                opponent: name.unwrap_or_else(|| seat.clone()),
                status: Status::parse(&g.status).unwrap_or(Status::Over),
                variant: g.variant,
            }
        })
        .collect();
    Ok(Json(games))
}

#[utoipa::path(get, path = "/api/user/{name}", tag = "accounts", params(("name" = String, Path, description = "the account's name")), responses((status = 200, description = "the account as anyone may see it", body = User), crate::wire::Refusals))]
pub async fn user(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<User>, ApiError> {
    let account = app.accounts.by_name(&name).await?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "no player named {:?}",
            name.chars().take(40).collect::<String>()
        ))
    })?;
    Ok(Json(crate::player_api::user_of(&app, &account).await?))
}
