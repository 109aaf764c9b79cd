//! Ratings in the database: a rated game's end applied inside the transaction that stores it,
//! each player's rating read, changed by Glicko-2 and written back, and the change kept with the
//! game's id, so that a game is rated once whatever the retries and crashes.

use super::error::{read_error, StoreError};
use super::pool::{on_pool, Pool};
use super::rows::RatedEnd;
use crate::rating::{periods_between, rate, Glicko, TAU};

/// A player's rating in one variant, as stored.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    pub variant: String,
    pub rating: f64,
    pub rd: f64,
    pub volatility: f64,
    pub games: i64,
    pub last_ms: i64,
}

/// One rated game's change to one player's rating.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingChange {
    pub game: String,
    pub account: i64,
    pub variant: String,
    pub before: f64,
    pub after: f64,
    pub rd: f64,
    pub at_ms: i64,
    /// The player's rated games of the variant with this one: the order of its changes.
    pub number: i64,
}

/// The reads before a rated end: each player's stored rating (`None`: a new one) and whether the
/// game was rated already.
pub(super) type Before = ([Option<(f64, f64, f64, i64, i64)>; 2], bool);

/// The writes of a rated end: each player's new rating and change, unless it was rated already.
pub(super) fn after(end: &RatedEnd, (before, done): Before) -> Option<[(Glicko, Glicko, i64); 2]> {
    if done {
        return None;
    }
    let stored = before.map(|r| {
        r.map_or(
            (Glicko::default(), 0, None),
            |(rating, rd, volatility, games, last)| {
                let glicko = Glicko {
                    rating,
                    rd,
                    volatility,
                };
                (glicko, games, Some(last))
            },
        )
    });
    let scores = [end.white_score, 1.0 - end.white_score];
    Some([0, 1].map(|i| {
        let (me, games, last) = stored[i];
        let opponent = stored[1 - i].0;
        let periods = periods_between(last, end.at_ms);
        (
            me,
            rate(me, &[(opponent, scores[i])], TAU, periods),
            games + 1,
        )
    }))
}

/// Reads what a rated end needs, inside a transaction (`$lock`: Postgres's `FOR UPDATE`).
macro_rules! rate_in {
    ($tx:expr, $end:expr, $lock:literal) => {{
        let end: &RatedEnd = $end;
        let mut before: [Option<(f64, f64, f64, i64, i64)>; 2] = [None, None];
        for (slot, account) in before.iter_mut().zip(end.accounts) {
            *slot = sqlx::query_as(concat!(
                "SELECT rating, rd, volatility, games, last_ms FROM ratings
                 WHERE account = $1 AND variant = $2",
                $lock
            ))
            .bind(account)
            .bind(&end.variant)
            .fetch_optional(&mut *$tx)
            .await?;
        }
        let done: Option<String> =
            sqlx::query_scalar("SELECT game FROM rating_changes WHERE game = $1 LIMIT 1")
                .bind(&end.game)
                .fetch_optional(&mut *$tx)
                .await?;
        if let Some(changes) = $crate::store::ratings::after(end, (before, done.is_some())) {
            for ((old, new, games), account) in changes.into_iter().zip(end.accounts) {
                sqlx::query(
                    "INSERT INTO ratings (account, variant, rating, rd, volatility, games, last_ms)
                     VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (account, variant) DO UPDATE SET rating = $3, rd = $4,
                        volatility = $5, games = $6, last_ms = $7",
                )
                .bind(account)
                .bind(&end.variant)
                .bind(new.rating)
                .bind(new.rd)
                .bind(new.volatility)
                .bind(games)
                .bind(end.at_ms)
                .execute(&mut *$tx)
                .await?;
                sqlx::query(
                    "INSERT INTO rating_changes
                        (game, account, variant, before, after, rd, at_ms, number)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                )
                .bind(&end.game)
                .bind(account)
                .bind(&end.variant)
                .bind(old.rating)
                .bind(new.rating)
                .bind(new.rd)
                .bind(end.at_ms)
                .bind(games)
                .execute(&mut *$tx)
                .await?;
            }
        }
    }};
}
pub(crate) use rate_in;

/// The ratings' reads.
pub struct RatingStore<'a>(pub(super) &'a Pool);

impl RatingStore<'_> {
    /// An account's ratings, by variant.
    pub async fn of(&self, account: i64) -> Result<Vec<RatingRow>, StoreError> {
        const RATINGS: &str = "SELECT variant, rating, rd, volatility, games, last_ms FROM ratings
             WHERE account = $1 ORDER BY variant";
        on_pool!(self.0, |p| {
            sqlx::query_as(RATINGS).bind(account).fetch_all(p).await
        })
        .map_err(read_error)
    }

    /// A game's changes to its players' ratings (none for a game not rated).
    pub async fn changes(&self, game: &str) -> Result<Vec<RatingChange>, StoreError> {
        const CHANGES: &str = "SELECT game, account, variant, before, after, rd, at_ms, number
             FROM rating_changes WHERE game = $1";
        on_pool!(self.0, |p| {
            sqlx::query_as(CHANGES).bind(game).fetch_all(p).await
        })
        .map_err(read_error)
    }

    /// An account's rating changes in a variant, oldest first: its rating's history.
    pub async fn history(
        &self,
        account: i64,
        variant: &str,
    ) -> Result<Vec<RatingChange>, StoreError> {
        const HISTORY: &str = "SELECT game, account, variant, before, after, rd, at_ms, number
             FROM rating_changes WHERE account = $1 AND variant = $2 ORDER BY number";
        on_pool!(self.0, |p| {
            sqlx::query_as(HISTORY)
                .bind(account)
                .bind(variant)
                .fetch_all(p)
                .await
        })
        .map_err(read_error)
    }

    /// Every rating change, in order: to recompute the ratings from the games (a check).
    pub async fn all_changes(&self) -> Result<Vec<RatingChange>, StoreError> {
        const ALL: &str = "SELECT game, account, variant, before, after, rd, at_ms, number
             FROM rating_changes ORDER BY at_ms, game, account";
        on_pool!(self.0, |p| sqlx::query_as(ALL).fetch_all(p).await).map_err(read_error)
    }

    /// The best non-provisional ratings of a variant among accounts that played a rated game
    /// since `since_ms`: (name, bot, rating, deviation), best first.
    pub async fn leaders(
        &self,
        variant: &str,
        since_ms: i64,
        max: i64,
    ) -> Result<Vec<(String, bool, f64, f64)>, StoreError> {
        const LEADERS: &str = "SELECT a.username, a.bot != 0, r.rating, r.rd
             FROM ratings r JOIN accounts a ON a.id = r.account
             WHERE r.variant = $1 AND r.rd <= $2 AND r.last_ms >= $3
             ORDER BY r.rating DESC, a.username LIMIT $4";
        on_pool!(self.0, |p| {
            sqlx::query_as(LEADERS)
                .bind(variant)
                .bind(crate::rating::PROVISIONAL_RD)
                .bind(since_ms)
                .bind(max)
                .fetch_all(p)
                .await
        })
        .map_err(read_error)
    }
}
