//! Players in public: ratings, rating histories, games played (a page at a time, or every
//! finished game's record as NDJSON), and the leaderboards.

use crate::accounts::Account;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::rating::PROVISIONAL_RD;
use crate::room::Command;
use crate::store::{PlayedQuery, PlayedRow, RatingRow};
use crate::wire::{
    BySeat, Leader, NamedRecord, PlayedGame, PlayedGames, Rating, RatingPoint, Status, User,
};
use axum::body::{Body, Bytes};
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::collections::{BTreeMap, HashMap};
use std::convert::Infallible;

/// Games on one page of a player's list.
const PAGE: i64 = 20;

type App = std::sync::Arc<Hub>;
/// The most records one export sends.
const MAX_EXPORT: i64 = 300;
/// A leaderboard counts players who played a rated game within this many days.
const ACTIVE_DAYS: i64 = 30;

fn unavailable(e: crate::store::StoreError) -> ApiError {
    ApiError::unavailable(e.to_string())
}

/// The account named `name`, or a 404.
async fn named(app: &Hub, name: &str) -> Result<Account, ApiError> {
    app.accounts.by_name(name).await?.ok_or_else(|| {
        ApiError::NotFound(format!(
            "no player named {:?}",
            name.chars().take(40).collect::<String>()
        ))
    })
}

/// A stored rating as the API shows it.
pub fn rating_of(row: &RatingRow) -> Rating {
    Rating {
        games: row.games,
        provisional: row.rd > PROVISIONAL_RD,
        rating: row.rating,
        rd: row.rd,
        volatility: row.volatility,
    }
}

/// An account with its ratings, as anyone may see it.
pub async fn user_of(app: &Hub, account: &Account) -> Result<User, ApiError> {
    let rows = app
        .store
        .ratings()
        .of(account.id)
        .await
        .map_err(unavailable)?;
    Ok(User {
        bot: account.bot,
        ratings: rows
            .iter()
            .map(|r| (r.variant.clone(), rating_of(r)))
            .collect(),
        username: account.username.clone(),
    })
}

/// A variant named in a query, checked against the rules.
fn variant_filter(query: &HashMap<String, String>) -> Result<Option<String>, ApiError> {
    let Some(variant) = query.get("variant").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    if bluffchess_rules::registry::spec(variant).is_none() {
        return Err(ApiError::bad(format!(
            "unknown variant {:?}",
            variant.chars().take(40).collect::<String>()
        )));
    }
    Ok(Some(variant.clone()))
}

/// A non-negative whole number in a query, at most `max`, or `default`.
fn number(
    query: &HashMap<String, String>,
    name: &str,
    default: i64,
    max: i64,
) -> Result<i64, ApiError> {
    let Some(text) = query.get(name) else {
        return Ok(default);
    };
    match text.parse::<i64>() {
        Ok(n) if (0..=max).contains(&n) => Ok(n),
        _ => Err(ApiError::bad(format!(
            "\"{name}\" must be a whole number from 0 to {max}"
        ))),
    }
}

#[utoipa::path(get, path = "/api/user/{name}/games", tag = "players", params(("name" = String, Path, description = "the player's name"), ("variant" = Option<String>, Query, description = "one variant only"), ("max" = Option<i64>, Query, description = "at most this many (default and limit 300)")), responses((status = 200, description = "NDJSON: the player's finished games' records with their players' names, newest first; each is read by `bluffchess verify`", body = NamedRecord, content_type = "application/x-ndjson"), crate::wire::Refusals))]
pub async fn export(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let account = named(&app, &name).await?;
    let played = PlayedQuery {
        variant: variant_filter(&query)?,
        finished: true,
        offset: 0,
        max: number(&query, "max", MAX_EXPORT, MAX_EXPORT)?,
    };
    let rows = app
        .store
        .accounts()
        .played(account.id, &played)
        .await
        .map_err(unavailable)?;
    let ids: Vec<String> = rows.into_iter().map(|r| r.game.id).collect();
    // One record at a time: a long export holds one replayed game in memory, not all.
    let body = futures_util::stream::unfold((app, ids.into_iter()), |(app, mut ids)| async move {
        loop {
            let id = ids.next()?;
            if let Ok(record) = named_record(&app, &id).await {
                let mut line = serde_json::to_vec(&record).expect("records serialise");
                line.push(b'\n');
                return Some((Ok::<_, Infallible>(Bytes::from(line)), (app, ids)));
            }
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

#[utoipa::path(get, path = "/api/games/{id}/record", tag = "games", params(("id" = String, Path, description = "the game id")), responses((status = 200, description = "the record of the finished game, with its players' names (`players`)", body = NamedRecord), crate::wire::Refusals))]
pub async fn record(
    State(app): State<App>,
    Path(id): Path<String>,
) -> Result<Json<NamedRecord>, ApiError> {
    Ok(Json(named_record(&app, &id).await?))
}

/// A finished game's record with its players' names.
pub async fn named_record(app: &Hub, id: &str) -> Result<NamedRecord, ApiError> {
    let shared = app.get(id).await?;
    let record = shared.ask(|reply| Command::Record { reply }).await??;
    let public = shared.public.lock().expect("public lock").clone();
    let called = |name: Option<String>, player: String| match name {
        Some(name) => name,
        None if player.starts_with("bot:") => player,
        None => "guest".into(),
    };
    let players = match public {
        Some(game) => BySeat {
            black: called(game.names.black, game.players.black),
            white: called(game.names.white, game.players.white),
        },
        None => BySeat {
            black: "guest".into(),
            white: "guest".into(),
        },
    };
    Ok(NamedRecord { players, record })
}

/// A stored game as the player's page lists it.
fn played_game(row: PlayedRow, account: i64) -> PlayedGame {
    let g = row.game;
    let white = g.white_account == Some(account);
    let (seat, name) = match white {
        true => (g.black, g.black_name),
        false => (g.white, g.white_name),
    };
    let opponent = match (name, seat.as_str()) {
        (Some(name), _) => name,
        (None, "player") => "guest".into(),
        (None, _) => seat,
    };
    let diff = row
        .rating_before
        .zip(row.rating_after)
        .map(|(before, after)| (after.round() - before.round()) as i64);
    PlayedGame {
        color: if white { "white" } else { "black" }.into(),
        created_ms: g.created_ms,
        id: g.id,
        opponent,
        rated: row.rated,
        rating_diff: diff,
        result: row.result,
        status: Status::parse(&g.status).unwrap_or(Status::Over),
        variant: g.variant,
    }
}

#[utoipa::path(get, path = "/api/user/{name}/played", tag = "players", params(("name" = String, Path, description = "the player's name"), ("variant" = Option<String>, Query, description = "one variant only"), ("page" = Option<i64>, Query, description = "the page, from 1")), responses((status = 200, description = "a page of the player's games, newest first", body = PlayedGames), crate::wire::Refusals))]
pub async fn played(
    State(app): State<App>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Json<PlayedGames>, ApiError> {
    let account = named(&app, &name).await?;
    let page = number(&query, "page", 1, 100_000)?.max(1);
    let played = PlayedQuery {
        variant: variant_filter(&query)?,
        finished: false,
        offset: (page - 1) * PAGE,
        max: PAGE + 1,
    };
    let mut rows = app
        .store
        .accounts()
        .played(account.id, &played)
        .await
        .map_err(unavailable)?;
    let more = rows.len() as i64 > PAGE;
    rows.truncate(PAGE as usize);
    Ok(Json(PlayedGames {
        games: rows
            .into_iter()
            .map(|r| played_game(r, account.id))
            .collect(),
        next: more.then_some(page + 1),
    }))
}

#[utoipa::path(get, path = "/api/user/{name}/rating-history", tag = "players", params(("name" = String, Path, description = "the player's name")), responses((status = 200, description = "each variant's rating after each rated game, oldest first", body = BTreeMap<String, Vec<RatingPoint>>), crate::wire::Refusals))]
pub async fn rating_history(
    State(app): State<App>,
    Path(name): Path<String>,
) -> Result<Json<BTreeMap<String, Vec<RatingPoint>>>, ApiError> {
    let account = named(&app, &name).await?;
    let ratings = app.store.ratings();
    let mut history = BTreeMap::new();
    for rating in ratings.of(account.id).await.map_err(unavailable)? {
        let changes = ratings
            .history(account.id, &rating.variant)
            .await
            .map_err(unavailable)?;
        let points = changes
            .into_iter()
            .map(|c| RatingPoint {
                at_ms: c.at_ms,
                game: c.game,
                games: c.number,
                rating: c.after,
                rd: c.rd,
            })
            .collect();
        history.insert(rating.variant, points);
    }
    Ok(Json(history))
}

#[utoipa::path(get, path = "/api/player/top/{nb}/{variant}", tag = "players", params(("nb" = i64, Path, description = "how many, 1 to 200"), ("variant" = String, Path, description = "the variant")), responses((status = 200, description = "the best ratings that are not provisional, among players active in the last 30 days", body = Vec<Leader>), crate::wire::Refusals))]
pub async fn leaders(
    State(app): State<App>,
    Path((nb, variant)): Path<(String, String)>,
) -> Result<Json<Vec<Leader>>, ApiError> {
    let nb: i64 = match nb.parse() {
        Ok(n) if (1..=200).contains(&n) => n,
        _ => {
            return Err(ApiError::bad(
                "the count must be a whole number from 1 to 200",
            ))
        }
    };
    let mut query = HashMap::new();
    query.insert("variant".to_string(), variant);
    let variant = variant_filter(&query)?.expect("a variant was given");
    let since = crate::room::now_ms() - ACTIVE_DAYS * 86_400_000;
    let rows = app
        .store
        .ratings()
        .leaders(&variant, since, nb)
        .await
        .map_err(unavailable)?;
    Ok(Json(
        rows.into_iter()
            .map(|(username, bot, rating, rd)| Leader {
                bot,
                rating,
                rd,
                username,
            })
            .collect(),
    ))
}
