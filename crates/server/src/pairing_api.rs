//! Pairing's routes: seeks and the quick-pairing pool, challenges, and each account's event
//! stream (`GET /api/stream/event`), shaped as lichess's Board and Bot APIs shape them.

use crate::accounts::{Account, Caller};
use crate::api::{holder, App, JsonBytes};
use crate::error::ApiError;
use crate::hub::{Hub, NewGame};
use crate::pairing::{decline_reason, rating_range, same_player, Pending, Seek, Terms};
use crate::rating::PROVISIONAL_RD;
use crate::request;
use crate::room::{now_ms, Holder};
use crate::secret::{new_game_id, os_u64};
use crate::wire::{
    AccountEvent, Challenge, Challenges, DeclineRequest, Paired, PlayerRef, SeekAnswer,
    TermsRequest,
};
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use axum_extra::extract::CookieJar;
use bluffchess_rules::board::Color;
use std::convert::Infallible;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Seeks one player may have waiting at once.
const MAX_SEEKS: usize = 3;
/// Challenges one account may have waiting for an answer at once.
const MAX_CHALLENGES: usize = 20;

/// A fair coin from the operating system.
fn coin() -> bool {
    os_u64() & 1 == 0
}

/// A player as pairing shows it, with its rating in `variant` (a guest: `guest`, 1500?).
async fn player_ref(app: &Hub, holder: &Holder, variant: &str) -> Result<PlayerRef, ApiError> {
    let Some((id, name)) = &holder.account else {
        return Ok(PlayerRef {
            id: "guest".into(),
            name: "guest".into(),
            provisional: true,
            rating: 1500.0,
            title: None,
        });
    };
    let account = app.accounts.name_of(*id).await?;
    let ratings = app
        .store
        .ratings()
        .of(*id)
        .await
        .map_err(|e| ApiError::unavailable(e.to_string()))?;
    let rating = ratings.iter().find(|r| r.variant == variant);
    Ok(PlayerRef {
        id: name.to_ascii_lowercase(),
        name: name.clone(),
        provisional: rating.is_none_or(|r| r.rd > PROVISIONAL_RD),
        rating: rating.map_or(1500.0, |r| r.rating.round()),
        title: account.is_some_and(|a| a.bot).then(|| "BOT".into()),
    })
}

/// The holder a signed-in account plays as.
fn account_holder(caller: &Caller, account: &Account) -> Holder {
    Holder {
        key: Some(caller.key()),
        account: Some((account.id, account.username.clone())),
        guest: None,
    }
}

/// The account that may play through this request, or why not.
fn playing_account(caller: &Caller) -> Result<&Account, ApiError> {
    let account = caller.signed_in()?;
    caller.player().ok_or_else(|| {
        ApiError::Forbidden(format!(
            "{} plays through the API with a token that has the play scope",
            account.username
        ))
    })
}

fn rated_needs_accounts() -> ApiError {
    ApiError::bad("a rated game is between two accounts: sign up or log in to play rated")
}

/// The answer for a player just paired into `game` as `seat`.
fn paired(game: &str, seat: Color, token: String) -> Paired {
    Paired {
        game: game.to_string(),
        seat: seat.name().into(),
        token,
        url: format!("/game/{game}"),
    }
}

#[utoipa::path(post, path = "/api/seek", tag = "pairing", request_body(content = TermsRequest, content_type = "application/json"), responses((status = 201, description = "paired at once (`game`), or waiting in the lobby (`id`)", body = SeekAnswer), crate::wire::Refusals))]
pub async fn seek(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
    JsonBytes(body): JsonBytes,
) -> Result<Response, ApiError> {
    let asked: TermsRequest = request::body(&body)?;
    let range = rating_range(asked.rating_range.as_deref())?;
    let terms = Terms::read(asked)?;
    let (holder, cookie) = holder(&app, &caller, &headers).await?;
    if holder.account.is_none() && holder.guest.is_none() {
        return Err(ApiError::Unauthenticated(
            "a seek needs an account or a guest session (a browser's cookie)".into(),
        ));
    }
    if terms.rated && holder.account.is_none() {
        return Err(rated_needs_accounts());
    }
    let player = player_ref(&app, &holder, &terms.variant).await?;
    let seek = Seek {
        id: new_game_id(),
        holder,
        player,
        terms,
        range,
        created_ms: now_ms(),
    };
    let found = app
        .with_seeks(|seeks| {
            if seeks.count_of(&seek.holder) >= MAX_SEEKS {
                return Err(ApiError::TooMany(format!(
                    "too many seeks: each player may have {MAX_SEEKS} waiting at once"
                )));
            }
            let found = seeks.take_match(&seek);
            if found.is_none() {
                seeks.push(seek.clone());
            }
            Ok(found)
        })
        .await??;
    let answer = match found {
        Some(waiting) => {
            let game = pair(&app, waiting, seek.holder).await?;
            SeekAnswer {
                game: Some(game.game),
                id: None,
            }
        }
        None => SeekAnswer {
            game: None,
            id: Some(seek.id),
        },
    };
    let jar = cookie.map_or_else(CookieJar::new, |c| CookieJar::new().add(c));
    Ok((StatusCode::CREATED, jar, Json(answer)).into_response())
}

/// The game of a waiting seek and its taker; the seek waits again if the game cannot start.
async fn pair(app: &Hub, waiting: Seek, taker: Holder) -> Result<Paired, ApiError> {
    let created = app
        .create_paired(&waiting.terms, waiting.holder.clone(), taker, coin())
        .await;
    match created {
        Ok((shared, tokens)) => {
            let seeker_seat = match (&waiting.holder.account, &waiting.holder.guest) {
                (Some((id, _)), _) => shared.seat_of_account(*id),
                (None, Some(guest)) => shared.seat_of_guest(guest),
                (None, None) => None,
            };
            let taker_seat = !seeker_seat.expect("the seeker holds a seat");
            let [white, black] = tokens;
            let token = if taker_seat == Color::White {
                white
            } else {
                black
            };
            Ok(paired(&shared.id, taker_seat, token))
        }
        Err(e) => {
            if let Err(lost) = app.with_seeks(|seeks| seeks.push(waiting)).await {
                tracing::warn!("a seek that could not start its game is lost: {lost}");
            }
            Err(e)
        }
    }
}

#[utoipa::path(post, path = "/api/seek/{id}/accept", tag = "pairing", params(("id" = String, Path, description = "the seek's id")), responses((status = 200, description = "the game, with the taker's seat", body = Paired), crate::wire::Refusals))]
pub async fn take_seek(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let (taker, cookie) = holder(&app, &caller, &headers).await?;
    let no_seek =
        || ApiError::NotFound("no such seek: it was taken, cancelled or has expired".into());
    let variant = app
        .look_at_seeks(|seeks| seeks.get(&id).map(|s| s.terms.variant.clone()))
        .await?
        .ok_or_else(no_seek)?;
    let rating = player_ref(&app, &taker, &variant).await?.rating;
    let waiting = app.with_seeks(|seeks| {
        let seek = seeks.get(&id).ok_or_else(no_seek)?;
        if same_player(&seek.holder, &taker) {
            return Err(ApiError::bad(
                "this is your own seek: a player cannot pair with itself",
            ));
        }
        if seek.terms.rated && taker.account.is_none() {
            return Err(rated_needs_accounts());
        }
        if !seek.accepts(&taker, rating) {
            return Err(ApiError::Forbidden(
                "your rating is outside this seek's rating range".into(),
            ));
        }
        Ok(seeks.take(&id).expect("the seek was there"))
    });
    let answer = pair(&app, waiting.await??, taker).await?;
    let jar = cookie.map_or_else(CookieJar::new, |c| CookieJar::new().add(c));
    Ok((jar, Json(answer)).into_response())
}

#[utoipa::path(delete, path = "/api/seek/{id}", tag = "pairing", params(("id" = String, Path, description = "the seek's id")), responses((status = 200, description = "cancelled", body = SeekAnswer), crate::wire::Refusals))]
pub async fn cancel_seek(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<SeekAnswer>, ApiError> {
    let me = Holder {
        key: Some(caller.key()),
        account: caller.account.as_ref().map(|a| (a.id, a.username.clone())),
        guest: caller.guest().map(str::to_string),
    };
    let cancelled = app
        .with_seeks(|seeks| match seeks.get(&id) {
            Some(seek) if same_player(&seek.holder, &me) => seeks.take(&id).is_some(),
            _ => false,
        })
        .await?;
    match cancelled {
        true => Ok(Json(SeekAnswer {
            game: None,
            id: Some(id),
        })),
        // Another's seek is not for this caller to know of.
        false => Err(ApiError::NotFound(
            "no such seek of yours: it was taken, cancelled or has expired".into(),
        )),
    }
}

#[utoipa::path(post, path = "/api/challenge/{name}", tag = "pairing", params(("name" = String, Path, description = "the account challenged, or a server bot's name")), request_body(content = TermsRequest, content_type = "application/json"), responses((status = 201, description = "the challenge (a server bot accepts at once: `gameId`)", body = Challenge), crate::wire::Refusals))]
pub async fn challenge(
    State(app): State<App>,
    Path(name): Path<String>,
    Extension(caller): Extension<Caller>,
    JsonBytes(body): JsonBytes,
) -> Result<(StatusCode, Json<Challenge>), ApiError> {
    let account = playing_account(&caller)?.clone();
    let asked: TermsRequest = request::body(&body)?;
    if asked.rating_range.is_some() {
        return Err(ApiError::bad(
            "\"ratingRange\" is for seeks: a challenge names its opponent",
        ));
    }
    let terms = Terms::read(asked)?;
    let me = account_holder(&caller, &account);
    let bare = name.strip_prefix("bot:").unwrap_or(&name);
    if let Some((bot_id, bot_name)) = app.bot_account(bare) {
        return bot_challenge(&app, me, (bot_id, bot_name), terms).await;
    }
    let dest = app.accounts.by_name(&name).await?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "no player named {:?}",
            name.chars().take(40).collect::<String>()
        ))
    })?;
    if dest.id == account.id {
        return Err(ApiError::bad("a player cannot challenge itself"));
    }
    let dest_holder = Holder {
        key: None,
        account: Some((dest.id, dest.username.clone())),
        guest: None,
    };
    let shown = Challenge {
        challenger: player_ref(&app, &me, &terms.variant).await?,
        color: terms.color_name(),
        decline_reason: None,
        decline_reason_key: None,
        dest_user: player_ref(&app, &dest_holder, &terms.variant).await?,
        expires_ms: now_ms() + app.config.challenge_ttl.as_millis() as i64,
        game_id: None,
        id: new_game_id(),
        options: terms.options.clone(),
        rated: terms.rated,
        status: "created".into(),
        time_control: terms.time_control(),
        variant: terms.variant_ref(),
    };
    let pending = Pending {
        shown: shown.clone(),
        challenger: me,
        dest: (dest.id, dest.username),
        terms,
    };
    app.with_challenges(|waiting| {
        if waiting.sent_by(account.id) >= MAX_CHALLENGES {
            return Err(ApiError::TooMany(format!(
                "too many challenges: each account may have {MAX_CHALLENGES} waiting at once"
            )));
        }
        waiting.insert(pending);
        Ok(())
    })
    .await??;
    tell_both(&app, &shown, dest.id, account.id, |challenge| {
        AccountEvent::Challenge { challenge }
    });
    expire_later(app.clone(), shown.id.clone());
    Ok((StatusCode::CREATED, Json(shown)))
}

/// A server bot accepts every challenge it can play at once.
async fn bot_challenge(
    app: &Hub,
    me: Holder,
    (bot_id, bot_name): (i64, String),
    terms: Terms,
) -> Result<(StatusCode, Json<Challenge>), ApiError> {
    let bot = Holder {
        key: None,
        account: Some((bot_id, bot_name.clone())),
        guest: None,
    };
    let mut shown = Challenge {
        challenger: player_ref(app, &me, &terms.variant).await?,
        color: terms.color_name(),
        decline_reason: None,
        decline_reason_key: None,
        dest_user: player_ref(app, &bot, &terms.variant).await?,
        expires_ms: now_ms(),
        game_id: None,
        id: new_game_id(),
        options: terms.options.clone(),
        rated: terms.rated,
        status: "accepted".into(),
        time_control: terms.time_control(),
        variant: terms.variant_ref(),
    };
    let created = app
        .create(NewGame {
            variant: terms.variant.clone(),
            options: terms.options_json(),
            clock: terms.clock,
            seat: terms.asker_seat(None, coin()),
            opponent: format!("bot:{bot_name}"),
            private: false,
            creator: me,
            rated: terms.rated,
        })
        .await?;
    shown.game_id = Some(created.shared.id.clone());
    Ok((StatusCode::CREATED, Json(shown)))
}

/// Sends a challenge's event to both its accounts' streams.
fn tell_both(
    app: &Hub,
    shown: &Challenge,
    dest: i64,
    challenger: i64,
    event: impl Fn(Challenge) -> AccountEvent,
) {
    let told = [dest, challenger]
        .iter()
        .map(|account| (format!("account {account}"), event(shown.clone())))
        .collect();
    app.tell(told);
}

/// Expires the challenge `id` when its time is up, if it still waits then.
fn expire_later(app: Arc<Hub>, id: String) {
    let ttl = app.config.challenge_ttl;
    let mut shutdown = app.shutdown.clone();
    tokio::spawn(async move {
        tokio::select! {
            () = tokio::time::sleep(ttl) => {}
            _ = shutdown.wait_for(|s| *s) => return,
        }
        let expired = app.with_challenges(|waiting| waiting.take(&id)).await;
        if let Ok(Some(mut pending)) = expired {
            pending.shown.status = "expired".into();
            let challenger = pending.challenger_id().unwrap_or_default();
            tell_both(
                &app,
                &pending.shown,
                pending.dest.0,
                challenger,
                |challenge| AccountEvent::ChallengeCanceled { challenge },
            );
        }
    });
}

/// Takes out the waiting challenge `id` when `allowed` says this account may answer it.
async fn answerable(
    app: &Hub,
    id: &str,
    allowed: impl Fn(&Pending) -> Result<(), ApiError>,
) -> Result<Pending, ApiError> {
    app.with_challenges(|waiting| {
        let pending = waiting.get(id).ok_or_else(|| {
            ApiError::NotFound(
                "no such challenge: it was accepted, declined or cancelled, or has expired".into(),
            )
        })?;
        allowed(pending)?;
        Ok(waiting.take(id).expect("the challenge was there"))
    })
    .await?
}

fn only_challenged(account: i64) -> impl Fn(&Pending) -> Result<(), ApiError> {
    move |p| match p.dest.0 == account {
        true => Ok(()),
        false => Err(ApiError::Forbidden(
            "only the challenged account may answer a challenge".into(),
        )),
    }
}

#[utoipa::path(post, path = "/api/challenge/{id}/accept", tag = "pairing", params(("id" = String, Path, description = "the challenge's id")), responses((status = 200, description = "the game: both accounts act in it with their sessions or tokens", body = Paired), crate::wire::Refusals))]
pub async fn accept(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Paired>, ApiError> {
    let account = playing_account(&caller)?.clone();
    let pending = answerable(&app, &id, only_challenged(account.id)).await?;
    let me = account_holder(&caller, &account);
    let created = app
        .create_paired(&pending.terms, pending.challenger.clone(), me, coin())
        .await;
    let (shared, [white, black]) = match created {
        Ok(created) => created,
        Err(e) => {
            if let Err(lost) = app.with_challenges(|w| w.insert(pending)).await {
                tracing::warn!("a challenge that could not start its game is lost: {lost}");
            }
            return Err(e);
        }
    };
    let seat = shared.seat_of_account(account.id).unwrap_or(Color::White);
    let token = if seat == Color::White { white } else { black };
    Ok(Json(paired(&shared.id, seat, token)))
}

#[utoipa::path(post, path = "/api/challenge/{id}/decline", tag = "pairing", params(("id" = String, Path, description = "the challenge's id")), request_body(content = Option<DeclineRequest>, content_type = "application/json", description = "why (optional)"), responses((status = 200, description = "declined", body = Challenge), crate::wire::Refusals))]
pub async fn decline(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
    body: Bytes,
) -> Result<Json<Challenge>, ApiError> {
    let account = playing_account(&caller)?.clone();
    let reason = match body.iter().all(u8::is_ascii_whitespace) {
        true => None,
        false => request::body::<DeclineRequest>(&body)?.reason,
    };
    let (key, text) = decline_reason(reason.as_deref()).map_err(ApiError::bad)?;
    let mut pending = answerable(&app, &id, only_challenged(account.id)).await?;
    pending.shown.status = "declined".into();
    pending.shown.decline_reason = Some(text.into());
    pending.shown.decline_reason_key = Some(key.into());
    let challenger = pending.challenger_id().unwrap_or_default();
    tell_both(&app, &pending.shown, account.id, challenger, |challenge| {
        AccountEvent::ChallengeDeclined { challenge }
    });
    Ok(Json(pending.shown))
}

#[utoipa::path(post, path = "/api/challenge/{id}/cancel", tag = "pairing", params(("id" = String, Path, description = "the challenge's id")), responses((status = 200, description = "cancelled", body = Challenge), crate::wire::Refusals))]
pub async fn cancel(
    State(app): State<App>,
    Path(id): Path<String>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Challenge>, ApiError> {
    let account = caller.signed_in()?.clone();
    let mut pending = answerable(&app, &id, |p| match p.challenger_id() == Some(account.id) {
        true => Ok(()),
        false => Err(ApiError::Forbidden(
            "only the challenger may cancel a challenge".into(),
        )),
    })
    .await?;
    pending.shown.status = "canceled".into();
    tell_both(
        &app,
        &pending.shown,
        pending.dest.0,
        account.id,
        |challenge| AccountEvent::ChallengeCanceled { challenge },
    );
    Ok(Json(pending.shown))
}

#[utoipa::path(get, path = "/api/challenge", tag = "pairing", responses((status = 200, description = "the account's challenges waiting for an answer", body = Challenges), crate::wire::Refusals))]
pub async fn challenges(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Json<Challenges>, ApiError> {
    let account = caller.signed_in()?.id;
    let (incoming, outgoing) = app
        .look_at_challenges(|waiting| waiting.of(account))
        .await?;
    Ok(Json(Challenges { incoming, outgoing }))
}

/// An open event stream: when a player's last one closes, its waiting seeks go (it left; a
/// game paired with it would find nobody there).
struct Listening(Arc<Hub>, String);

impl Drop for Listening {
    fn drop(&mut self) {
        if self.0.pairing.listeners.listening(&self.1) {
            return;
        }
        let (app, key) = (self.0.clone(), self.1.clone());
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            if let Err(e) = app.with_seeks(|seeks| seeks.drop_of(&key)).await {
                tracing::warn!("the seeks of a player who left stay until they expire: {e}");
            }
        });
    }
}

#[utoipa::path(get, path = "/api/stream/event", tag = "pairing", responses((status = 200, description = "NDJSON: one AccountEvent a line (`challenge`, `challengeCanceled`, `challengeDeclined`, `gameStart`, `gameFinish`), empty keepalive lines; it opens with the games going on and the challenges waiting", body = AccountEvent, content_type = "application/x-ndjson"), crate::wire::Refusals))]
pub async fn events(
    State(app): State<App>,
    Extension(caller): Extension<Caller>,
) -> Result<Response, ApiError> {
    if caller.account.is_none() && caller.guest().is_none() {
        return Err(ApiError::Unauthenticated(
            "sign in first (or send an API token): the event stream is an account's".into(),
        ));
    }
    let key = caller.key();
    let slot = app.open_stream(key.clone())?;
    // Subscribed before the opening lines are gathered: nothing falls between them.
    let receiver = app.pairing.listeners.subscribe(&key);
    let mut opening: Vec<AccountEvent> = app
        .live_games_anywhere(&caller)
        .await?
        .into_iter()
        .map(|game| AccountEvent::GameStart { game })
        .collect();
    if let Some(account) = caller.account.as_ref().map(|a| a.id) {
        let (incoming, outgoing) = app
            .look_at_challenges(|waiting| waiting.of(account))
            .await?;
        opening.extend(
            incoming
                .into_iter()
                .chain(outgoing)
                .map(|challenge| AccountEvent::Challenge { challenge }),
        );
    }
    // Fields drop in order: the receiver before the guard that looks for other streams.
    let state = (
        slot,
        opening.into_iter(),
        receiver,
        app.config.keepalive,
        app.shutdown.clone(),
        Listening(app.clone(), key),
    );
    let body = futures_util::stream::unfold(state, |mut s| async move {
        let line = |event: &AccountEvent| {
            let mut text = serde_json::to_string(event).expect("events serialise");
            text.push('\n');
            Bytes::from(text)
        };
        if let Some(event) = s.1.next() {
            return Some((Ok::<_, Infallible>(line(&event)), s));
        }
        loop {
            if *s.4.borrow() {
                return None;
            }
            let chunk = tokio::select! {
                event = s.2.recv() => match event {
                    Ok(event) => line(&event),
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                },
                () = tokio::time::sleep(s.3) => Bytes::from_static(b"\n"),
                _ = s.4.changed() => return None,
            };
            return Some((Ok::<_, Infallible>(chunk), s));
        }
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
