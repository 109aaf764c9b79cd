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

use crate::wire::Status;
use bluffchess_rules::arbiter::MetaKind;
use bluffchess_rules::board::Color;
use bluffchess_rules::game::Seat;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, SqlitePool};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Connections to Postgres: the writer's and the readers' (loads of finished games).
const POSTGRES_CONNECTIONS: u32 = 8;

/// Why the database did not do what was asked. Database URLs in these are redacted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// Neither `sqlite:` nor `postgres://`.
    #[error("unsupported database URL {0:?}: expected sqlite:PATH or postgres://USER@HOST/NAME")]
    UnsupportedUrl(String),
    /// A URL the driver cannot read.
    #[error("bad database URL {url:?}: {reason}")]
    BadUrl {
        /// The URL, its password hidden.
        url: String,
        /// The driver's reason.
        reason: String,
    },
    /// The database could not be opened (or its file made private).
    #[error("cannot {what} the database {url:?}: {reason}")]
    Open {
        /// What failed: `open`, `make private`.
        what: &'static str,
        /// The URL, its password hidden.
        url: String,
        /// The reason.
        reason: String,
    },
    /// The schema could not be brought up to date.
    #[error("cannot bring the database schema up to date: {0}")]
    Migrate(String),
    /// A write was refused (it was not stored).
    #[error("the database refused the write: {0}")]
    Write(String),
    /// The writer task is gone (the server is stopping).
    #[error("the database writer has stopped")]
    WriterStopped,
    /// A read failed.
    #[error("the database could not be read: {0}")]
    Read(String),
    /// A stored row this server cannot read.
    #[error("{0}")]
    Unreadable(String),
}

/// The most writes committed in one transaction.
pub const MAX_BATCH: usize = 512;

/// A game's settings as stored.
#[derive(Clone, Debug)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    /// The rules options as JSON.
    pub options: String,
    pub seed: u64,
    pub salt_seed: u64,
    pub clock: Option<(i64, i64)>,
    /// `player`, `open` or `bot:NAME`, for White and Black.
    pub players: [String; 2],
    /// SHA-256 of each seat's token (hex).
    pub tokens: [Option<String>; 2],
    /// Where the game is.
    pub status: Status,
    pub rematch_of: Option<String>,
    pub created_ms: i64,
    /// Never listed in the lobby.
    pub private: bool,
    /// SHA-256 of the invitation that takes a private game's open seat (hex).
    pub invite: Option<String>,
}

/// What one entry of a game's log records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Logged {
    /// A seat's action: as given (`setup random`), and in the canonical text the arbiter
    /// recorded.
    Play {
        seat: Color,
        input: String,
        text: String,
    },
    /// Chance's outcome, as the arbiter recorded it.
    Roll { text: String },
    /// A resignation, draw offer, acceptance or claim.
    Meta { seat: Color, kind: MetaKind },
    /// A seat's flag fell.
    Flag { seat: Color },
    /// A seat stayed away past the grace period and its opponent claimed the win.
    Abandon { seat: Color },
    /// A seat called the game off.
    Abort { seat: Color },
    /// A seat was taken.
    Join { seat: Color },
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// What it records.
    pub what: Logged,
    /// Server time in milliseconds since the Unix epoch.
    pub at_ms: i64,
}

impl Entry {
    /// An entry made now.
    pub fn now(what: Logged, at_ms: i64) -> Entry {
        Entry { what, at_ms }
    }

    /// Its columns: kind, seat, input, text (the form every database written so far holds).
    fn columns(&self) -> (&'static str, Option<&'static str>, String, String) {
        let name = |c: &Color| Some(Seat::from(*c).name());
        match &self.what {
            Logged::Play { seat, input, text } => ("play", name(seat), input.clone(), text.clone()),
            Logged::Roll { text } => ("roll", None, "roll".into(), text.clone()),
            Logged::Meta { seat, kind } => {
                ("meta", name(seat), kind.name().into(), kind.name().into())
            }
            Logged::Flag { seat } => ("flag", name(seat), "flag".into(), "flag".into()),
            Logged::Abandon { seat } => ("abandon", name(seat), "abandon".into(), "abandon".into()),
            Logged::Abort { seat } => ("abort", name(seat), "abort".into(), "abort".into()),
            Logged::Join { seat } => ("join", name(seat), "join".into(), "join".into()),
        }
    }

    /// Reads its columns back; `None` when they are not an entry this server writes.
    fn from_columns(
        kind: &str,
        seat: Option<&str>,
        input: String,
        text: String,
        at_ms: i64,
    ) -> Option<Entry> {
        let seat = seat.and_then(Seat::parse).and_then(Seat::color);
        let what = match kind {
            "play" => Logged::Play {
                seat: seat?,
                input,
                text,
            },
            "roll" => Logged::Roll { text },
            "meta" => Logged::Meta {
                seat: seat?,
                kind: MetaKind::parse(&input)?,
            },
            "flag" => Logged::Flag { seat: seat? },
            "abandon" => Logged::Abandon { seat: seat? },
            "abort" => Logged::Abort { seat: seat? },
            "join" => Logged::Join { seat: seat? },
            _ => return None,
        };
        Some(Entry { what, at_ms })
    }
}

/// One write.
#[derive(Clone, Debug)]
pub enum Write {
    /// A new game.
    Game(GameRow),
    /// An entry appended to a game's log at `seq` (0-based).
    Entry {
        game: String,
        seq: i64,
        entry: Entry,
    },
    /// A seat taken: its token hash; the game goes live.
    Join {
        game: String,
        seat: usize,
        token: String,
    },
    /// A new status.
    Status { game: String, status: Status },
    /// The rematch of a game.
    Rematch { game: String, rematch: String },
}

struct Job {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// A connection pool to one of the two databases.
#[derive(Clone)]
enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// Runs `$body` with `$p` bound to the concrete pool: each query is written once and compiled
/// for both databases.
macro_rules! on_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match $pool {
            Pool::Sqlite($p) => $body,
            Pool::Postgres($p) => $body,
        }
    };
}

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
}

/// A log entry as stored: kind, seat, input, text, time.
type EntryColumns = (String, Option<String>, String, String, i64);

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite:PATH`, `sqlite::memory:`,
    /// `postgres://USER:PASSWORD@HOST:PORT/NAME`) and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        let pool = if url.starts_with("sqlite:") {
            Pool::Sqlite(open_sqlite(url).await?)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Pool::Postgres(open_postgres(url).await?)
        } else {
            return Err(StoreError::UnsupportedUrl(redacted(url)));
        };
        let migrated = match &pool {
            Pool::Sqlite(p) => SQLITE_MIGRATIONS.run(p).await,
            Pool::Postgres(p) => POSTGRES_MIGRATIONS.run(p).await,
        };
        migrated.map_err(|e| StoreError::Migrate(e.to_string()))?;
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
                    private, invite
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

    /// Closes the database after the writes queued so far.
    pub async fn close(&self) {
        on_pool!(&self.pool, |p| p.close().await)
    }
}

async fn open_sqlite(url: &str) -> Result<SqlitePool, StoreError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| StoreError::BadUrl {
            url: url.to_string(),
            reason: e.to_string(),
        })?
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(Duration::from_secs(10));
    if !(url.contains(":memory:") || url.contains("mode=memory")) {
        private_file(options.get_filename()).map_err(|e| StoreError::Open {
            what: "make private",
            url: url.to_string(),
            reason: e.to_string(),
        })?;
    }
    // One connection: a single writer, and an in-memory database stays one database.
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .map_err(|e| StoreError::Open {
            what: "open",
            url: url.to_string(),
            reason: e.to_string(),
        })
}

/// Creates the database file readable by its owner only (it holds every game's secrets), or
/// takes the access of group and others away from one that exists. SQLite gives its WAL and
/// shared-memory files the database file's mode.
fn private_file(path: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)?;
        let mode = std::fs::metadata(path)?.permissions().mode();
        if mode & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o700))?;
        }
    }
    Ok(())
}

async fn open_postgres(url: &str) -> Result<PgPool, StoreError> {
    let shown = redacted(url);
    let options = PgConnectOptions::from_str(url)
        .map_err(|e| StoreError::BadUrl {
            url: shown.clone(),
            reason: e.to_string(),
        })?
        // An action is acknowledged only once its commit is on disk, whatever the default.
        .options([("synchronous_commit", "on")]);
    PgPoolOptions::new()
        .max_connections(POSTGRES_CONNECTIONS)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await
        .map_err(|e| StoreError::Open {
            what: "open",
            url: shown,
            reason: e.to_string(),
        })
}

/// `url` with its password (if any) replaced by `***`, fit for logs and errors.
pub fn redacted(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_string();
    };
    match rest[..at].split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
        None => url.to_string(),
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
    };
    Ok((row, c.rematch))
}

async fn write_loop(pool: Pool, mut jobs: mpsc::Receiver<Job>) {
    while let Some(first) = jobs.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let all: Vec<&Write> = batch.iter().flat_map(|j| &j.writes).collect();
        match commit(&pool, &all).await {
            Ok(()) => {
                for job in batch {
                    let _ = job.done.send(Ok(()));
                }
            }
            Err(_) if batch.len() > 1 => {
                // One bad job must not fail the others: commit each alone.
                for job in batch {
                    let writes: Vec<&Write> = job.writes.iter().collect();
                    let result = commit(&pool, &writes).await;
                    let _ = job.done.send(result);
                }
            }
            Err(e) => {
                for job in batch {
                    let _ = job.done.send(Err(e.clone()));
                }
            }
        }
    }
}

/// A value bound to a statement's parameter.
enum Param<'a> {
    Text(&'a str),
    MaybeText(Option<&'a str>),
    Static(&'static str),
    MaybeStatic(Option<&'static str>),
    Owned(String),
    Int(i64),
    MaybeInt(Option<i64>),
}

/// The statement that makes `write`, and its parameters in order.
fn statement(write: &Write) -> (&'static str, Vec<Param<'_>>) {
    use Param::*;
    match write {
        Write::Game(g) => (
            "INSERT INTO games (id, variant, options, seed, salt_seed, clock_initial_ms,
                clock_increment_ms, white, black, white_token, black_token, status,
                rematch_of, created_ms, private, invite)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
            vec![
                Text(&g.id),
                Text(&g.variant),
                Text(&g.options),
                Int(g.seed as i64),
                Int(g.salt_seed as i64),
                MaybeInt(g.clock.map(|c| c.0)),
                MaybeInt(g.clock.map(|c| c.1)),
                Text(&g.players[0]),
                Text(&g.players[1]),
                MaybeText(g.tokens[0].as_deref()),
                MaybeText(g.tokens[1].as_deref()),
                Static(g.status.name()),
                MaybeText(g.rematch_of.as_deref()),
                Int(g.created_ms),
                Int(i64::from(g.private)),
                MaybeText(g.invite.as_deref()),
            ],
        ),
        Write::Entry { game, seq, entry } => {
            let (kind, seat, input, text) = entry.columns();
            (
                "INSERT INTO log (game, seq, kind, seat, input, text, at_ms)
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                vec![
                    Text(game),
                    Int(*seq),
                    Static(kind),
                    MaybeStatic(seat),
                    Owned(input),
                    Owned(text),
                    Int(entry.at_ms),
                ],
            )
        }
        Write::Join { game, seat, token } => (
            if *seat == 0 {
                "UPDATE games SET white = 'player', white_token = $1, status = 'live' WHERE id = $2"
            } else {
                "UPDATE games SET black = 'player', black_token = $1, status = 'live' WHERE id = $2"
            },
            vec![Text(token), Text(game)],
        ),
        Write::Status { game, status } => (
            "UPDATE games SET status = $1 WHERE id = $2",
            vec![Static(status.name()), Text(game)],
        ),
        Write::Rematch { game, rematch } => (
            "UPDATE games SET rematch = $1 WHERE id = $2",
            vec![Text(rematch), Text(game)],
        ),
    }
}

/// A statement's text with its parameters bound.
macro_rules! bound {
    ($sql:expr, $params:expr) => {{
        let mut query = sqlx::query($sql);
        for param in $params {
            query = match param {
                Param::Text(v) => query.bind(v),
                Param::MaybeText(v) => query.bind(v),
                Param::Static(v) => query.bind(v),
                Param::MaybeStatic(v) => query.bind(v),
                Param::Owned(v) => query.bind(v),
                Param::Int(v) => query.bind(v),
                Param::MaybeInt(v) => query.bind(v),
            };
        }
        query
    }};
}

/// Appends many log entries in one statement: one round trip to Postgres instead of one each.
const POSTGRES_ENTRIES: &str = "INSERT INTO log (game, seq, kind, seat, input, text, at_ms)
     SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[],
                          $6::text[], $7::bigint[])";

/// Commits `writes` in one transaction.
async fn commit(pool: &Pool, writes: &[&Write]) -> Result<(), StoreError> {
    let committed = match pool {
        // In-process: a statement costs no round trip.
        Pool::Sqlite(p) => {
            let mut conn = p.acquire().await.map_err(fail)?;
            let result = async {
                let mut tx = conn.begin().await?;
                for write in writes {
                    let (sql, params) = statement(write);
                    bound!(sql, params).execute(&mut *tx).await?;
                }
                tx.commit().await
            }
            .await;
            if result.is_err() {
                // A failed write (a full disk) can leave SQLite's transaction and the driver's
                // view of it apart, so that later commits only release a savepoint of a
                // transaction that never commits (tests/faults.rs, disk full): a fresh
                // connection starts clean.
                let _ = conn.close().await;
            }
            result
        }
        Pool::Postgres(p) => {
            async {
                let mut tx = p.begin().await?;
                let mut rest = writes;
                while let Some(write) = rest.first() {
                    let entries = rest.iter().take_while(|w| matches!(w, Write::Entry { .. }));
                    let run = entries.count();
                    if run > 1 {
                        entries_query(&rest[..run]).execute(&mut *tx).await?;
                        rest = &rest[run..];
                    } else {
                        let (sql, params) = statement(write);
                        bound!(sql, params).execute(&mut *tx).await?;
                        rest = &rest[1..];
                    }
                }
                tx.commit().await
            }
            .await
        }
    };
    committed.map_err(fail)
}

fn fail(e: sqlx::Error) -> StoreError {
    tracing::error!("database write failed: {e}");
    StoreError::Write(e.to_string())
}

fn read_error(e: sqlx::Error) -> StoreError {
    StoreError::Read(e.to_string())
}

/// The insert of a run of log entries into Postgres, in their order.
fn entries_query(
    writes: &[&Write],
) -> sqlx::query::Query<'static, sqlx::Postgres, sqlx::postgres::PgArguments> {
    let mut columns = EntryColumnsOf::default();
    for write in writes {
        if let Write::Entry { game, seq, entry } = write {
            let (kind, seat, input, text) = entry.columns();
            columns.game.push(game.clone());
            columns.seq.push(*seq);
            columns.kind.push(kind.to_string());
            columns.seat.push(seat.map(String::from));
            columns.input.push(input);
            columns.text.push(text);
            columns.at_ms.push(entry.at_ms);
        }
    }
    sqlx::query(POSTGRES_ENTRIES)
        .bind(columns.game)
        .bind(columns.seq)
        .bind(columns.kind)
        .bind(columns.seat)
        .bind(columns.input)
        .bind(columns.text)
        .bind(columns.at_ms)
}

/// Log entries as columns, for [`POSTGRES_ENTRIES`].
#[derive(Default)]
struct EntryColumnsOf {
    game: Vec<String>,
    seq: Vec<i64>,
    kind: Vec<String>,
    seat: Vec<Option<String>>,
    input: Vec<String>,
    text: Vec<String>,
    at_ms: Vec<i64>,
}
