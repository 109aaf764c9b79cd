//! Persistence: every game is a row of settings and an append-only log of entries, in SQLite
//! (`sqlite:PATH`) or Postgres (`postgres://...`).
//!
//! One writer task commits every write. It takes whatever writes are waiting (up to
//! [`MAX_BATCH`]) into one transaction, so many games' actions share one `fsync` (group commit),
//! and answers each writer only after the transaction has committed. SQLite runs in WAL mode
//! with `synchronous=FULL`; Postgres sessions run with `synchronous_commit=on` whatever the
//! server's default: either way a committed action survives a process crash and a power loss.
//!
//! Both databases run the same queries (`$N` parameters, which SQLite reads too) but two: the
//! schema, in the versioned migrations of `migrations/sqlite` and `migrations/postgres` applied
//! on open, and Postgres's insert of a run of log entries as arrays (one round trip for them all).

mod accounts;
mod error;
mod pool;
pub(crate) mod ratings;
mod rows;
mod writer;

pub use accounts::{
    AccountGameRow, AccountRow, AccountStore, PlayedQuery, PlayedRow, SessionRow, TokenRow,
};
pub use error::StoreError;
pub(crate) use error::{read_error, write_error};
pub use pool::redacted;
pub use ratings::{RatingChange, RatingRow, RatingStore};
pub use rows::{Entry, GameRow, Logged, RatedEnd, Write};
pub use writer::MAX_BATCH;

use crate::wire::Status;
use pool::{on_pool, Pool};
use tokio::sync::{mpsc, oneshot};
use writer::{write_loop, Job};

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: Pool,
    writer: mpsc::Sender<Job>,
}

/// A game's settings as the `SELECT` of [`Store::load`] answers them.
#[derive(sqlx::FromRow)]
struct GameColumns {
    id: String,
    variant: String,
    options: String,
    seed: i64,
    salt_seed: i64,
    clock_initial_ms: Option<i64>,
    clock_increment_ms: Option<i64>,
    white: String,
    black: String,
    white_token: Option<String>,
    black_token: Option<String>,
    status: String,
    rematch_of: Option<String>,
    rematch: Option<String>,
    created_ms: i64,
    private: i64,
    invite: Option<String>,
    white_account: Option<i64>,
    black_account: Option<i64>,
    white_guest: Option<String>,
    black_guest: Option<String>,
    rated: i64,
}

/// A log entry as stored: kind, seat, input, text, time.
type EntryColumns = (String, Option<String>, String, String, i64);

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite:PATH`, `sqlite::memory:`,
    /// `postgres://USER:PASSWORD@HOST:PORT/NAME`) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let pool = Pool::open(url).await?;
        let (writer, jobs) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(write_loop(pool.clone(), jobs));
        Ok(Store { pool, writer })
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        match self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }

    /// The Postgres pool, when the database is Postgres (a cluster's leases live beside the
    /// games).
    pub fn postgres(&self) -> Option<&sqlx::PgPool> {
        match &self.pool {
            Pool::Postgres(p) => Some(p),
            Pool::Sqlite(_) => None,
        }
    }

    /// Commits `writes` in one transaction; returns once they are durable.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (done, answer) = oneshot::channel();
        self.writer
            .send(Job { writes, done })
            .await
            .map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }

    /// The ids of the games not yet over, oldest first.
    pub async fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        const UNFINISHED: &str =
            "SELECT id FROM games WHERE status IN ('open', 'live') ORDER BY created_ms, id";
        let ids: Result<Vec<String>, sqlx::Error> = on_pool!(&self.pool, |p| {
            sqlx::query_scalar(UNFINISHED).fetch_all(p).await
        });
        ids.map_err(read_error)
    }

    /// A game's settings, its rematch and its log.
    pub async fn load(
        &self,
        id: &str,
    ) -> Result<Option<(GameRow, Option<String>, Vec<Entry>)>, StoreError> {
        const GAME: &str =
            "SELECT id, variant, options, seed, salt_seed, clock_initial_ms, clock_increment_ms,
                    white, black, white_token, black_token, status, rematch_of, rematch, created_ms,
                    private, invite, white_account, black_account, white_guest, black_guest,
                    rated
             FROM games WHERE id = $1";
        const LOG: &str =
            "SELECT kind, seat, input, text, at_ms FROM log WHERE game = $1 ORDER BY seq";
        let game: Result<Option<GameColumns>, sqlx::Error> = on_pool!(&self.pool, |p| {
            sqlx::query_as(GAME).bind(id).fetch_optional(p).await
        });
        let Some(game) = game.map_err(read_error)? else {
            return Ok(None);
        };
        let log: Result<Vec<EntryColumns>, sqlx::Error> = on_pool!(&self.pool, |p| {
            sqlx::query_as(LOG).bind(id).fetch_all(p).await
        });
        let entries = log
            .map_err(read_error)?
            .into_iter()
            .enumerate()
            .map(|(n, (kind, seat, input, text, at_ms))| {
                Entry::from_columns(&kind, seat.as_deref(), input, text, at_ms).ok_or_else(|| {
                    StoreError::Unreadable(format!(
                        "game {id}: log entry {n} of kind {kind:?} cannot be read"
                    ))
                })
            })
            .collect::<Result<_, _>>()?;
        let (row, rematch) = game_row(game)?;
        Ok(Some((row, rematch, entries)))
    }

    /// The ratings' reads.
    pub fn ratings(&self) -> RatingStore<'_> {
        RatingStore(&self.pool)
    }

    /// The accounts' queries.
    pub fn accounts(&self) -> AccountStore<'_> {
        AccountStore(&self.pool)
    }

    /// Closes the database after the writes queued so far.
    pub async fn close(&self) {
        on_pool!(&self.pool, |p| p.close().await)
    }
}

fn game_row(c: GameColumns) -> Result<(GameRow, Option<String>), StoreError> {
    let status = Status::parse(&c.status).ok_or_else(|| {
        StoreError::Unreadable(format!("game {}: unknown status {:?}", c.id, c.status))
    })?;
    let row = GameRow {
        id: c.id,
        variant: c.variant,
        options: c.options,
        // u64 seeds are stored as their i64 bit pattern.
        seed: c.seed as u64,
        salt_seed: c.salt_seed as u64,
        clock: c.clock_initial_ms.zip(c.clock_increment_ms),
        players: [c.white, c.black],
        tokens: [c.white_token, c.black_token],
        status,
        rematch_of: c.rematch_of,
        created_ms: c.created_ms,
        private: c.private != 0,
        invite: c.invite,
        accounts: [c.white_account, c.black_account],
        guests: [c.white_guest, c.black_guest],
        rated: c.rated != 0,
    };
    Ok((row, c.rematch))
}
