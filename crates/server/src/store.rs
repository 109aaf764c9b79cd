//! Persistence: every game is a row of settings and an append-only log of entries in SQLite.
//!
//! One writer task commits every write. It takes whatever writes are waiting (up to
//! [`MAX_BATCH`]) into one transaction, so many games' actions share one `fsync` (group commit),
//! and answers each writer only after the transaction has committed. The database runs in WAL
//! mode with `synchronous=FULL`: a committed action survives a process crash and a power loss.

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Connection, Row, SqlitePool};
use std::str::FromStr;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

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
    /// `open`, `live`, `over` or `aborted`.
    pub status: String,
    pub rematch_of: Option<String>,
    pub created_ms: i64,
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// `play`, `roll`, `meta`, `flag`, `abandon` or `abort`.
    pub kind: String,
    /// The seat that made it (`white`, `black`), if any.
    pub seat: Option<String>,
    /// What was played as given (`setup random`, a meta command's name).
    pub input: String,
    /// The canonical text the arbiter recorded (equal to `input` for other kinds).
    pub text: String,
    /// Server time in milliseconds since the Unix epoch.
    pub at_ms: i64,
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
    Status { game: String, status: String },
    /// The rematch of a game.
    Rematch { game: String, rematch: String },
}

struct Job {
    writes: Vec<Write>,
    done: oneshot::Sender<Result<(), String>>,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    pool: SqlitePool,
    writer: mpsc::Sender<Job>,
}

const SCHEMA: &[&str] = &[
    "CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL,
        salt_seed INTEGER NOT NULL,
        clock_initial_ms INTEGER,
        clock_increment_ms INTEGER,
        white TEXT NOT NULL,
        black TEXT NOT NULL,
        white_token TEXT,
        black_token TEXT,
        status TEXT NOT NULL,
        rematch_of TEXT,
        rematch TEXT,
        created_ms INTEGER NOT NULL
    )",
    "CREATE INDEX IF NOT EXISTS games_status ON games (status)",
    "CREATE TABLE IF NOT EXISTS log (
        game TEXT NOT NULL,
        seq INTEGER NOT NULL,
        kind TEXT NOT NULL,
        seat TEXT,
        input TEXT NOT NULL,
        text TEXT NOT NULL,
        at_ms INTEGER NOT NULL,
        PRIMARY KEY (game, seq)
    ) WITHOUT ROWID",
];

impl Store {
    /// Opens (creating if needed) the database at `url` (`sqlite:PATH`, `sqlite::memory:`).
    pub async fn open(url: &str) -> Result<Store, String> {
        let options = SqliteConnectOptions::from_str(url)
            .map_err(|e| format!("bad database URL {url:?}: {e}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .busy_timeout(Duration::from_secs(10));
        // One connection: a single writer, and an in-memory database stays one database.
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options)
            .await
            .map_err(|e| format!("cannot open the database {url:?}: {e}"))?;
        for statement in SCHEMA {
            sqlx::query(statement)
                .execute(&pool)
                .await
                .map_err(|e| format!("cannot create the schema: {e}"))?;
        }
        let (writer, jobs) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(write_loop(pool.clone(), jobs));
        Ok(Store { pool, writer })
    }

    /// Commits `writes` in one transaction; returns once they are durable.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), String> {
        let (done, answer) = oneshot::channel();
        self.writer
            .send(Job { writes, done })
            .await
            .map_err(|_| "the database writer has stopped".to_string())?;
        answer
            .await
            .map_err(|_| "the database writer has stopped".to_string())?
    }

    /// The ids of the games not yet over.
    pub async fn unfinished(&self) -> Result<Vec<String>, String> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status IN ('open', 'live') ORDER BY created_ms",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(|e| e.to_string())?;
        Ok(rows.iter().map(|r| r.get::<String, _>(0)).collect())
    }

    /// A game's settings, its rematch and its log.
    pub async fn load(
        &self,
        id: &str,
    ) -> Result<Option<(GameRow, Option<String>, Vec<Entry>)>, String> {
        let row = sqlx::query(
            "SELECT id, variant, options, seed, salt_seed, clock_initial_ms, clock_increment_ms,
                    white, black, white_token, black_token, status, rematch_of, rematch, created_ms
             FROM games WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| e.to_string())?;
        let Some(row) = row else { return Ok(None) };
        let initial: Option<i64> = row.get(5);
        let increment: Option<i64> = row.get(6);
        let game = GameRow {
            id: row.get(0),
            variant: row.get(1),
            options: row.get(2),
            seed: row.get::<i64, _>(3) as u64,
            salt_seed: row.get::<i64, _>(4) as u64,
            clock: initial.zip(increment),
            players: [row.get(7), row.get(8)],
            tokens: [row.get(9), row.get(10)],
            status: row.get(11),
            rematch_of: row.get(12),
            created_ms: row.get(14),
        };
        let rematch: Option<String> = row.get(13);
        let entries = sqlx::query(
            "SELECT kind, seat, input, text, at_ms FROM log WHERE game = ? ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| e.to_string())?
        .iter()
        .map(|r| Entry {
            kind: r.get(0),
            seat: r.get(1),
            input: r.get(2),
            text: r.get(3),
            at_ms: r.get(4),
        })
        .collect();
        Ok(Some((game, rematch, entries)))
    }

    /// Closes the database after the writes queued so far.
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

async fn write_loop(pool: SqlitePool, mut jobs: mpsc::Receiver<Job>) {
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

fn fail(e: sqlx::Error) -> String {
    tracing::error!("database write failed: {e}");
    format!("the database refused the write: {e}")
}

async fn commit(pool: &SqlitePool, writes: &[&Write]) -> Result<(), String> {
    let mut conn = pool.acquire().await.map_err(fail)?;
    let result = commit_on(&mut conn, writes).await;
    if result.is_err() {
        // A failed write (a full disk) can leave SQLite's transaction and the driver's view of it
        // apart, so that later commits only release a savepoint of a transaction that never
        // commits (tests/faults.rs, disk full): a fresh connection starts clean.
        let _ = conn.close().await;
    }
    result
}

async fn commit_on(conn: &mut SqliteConnection, writes: &[&Write]) -> Result<(), String> {
    let mut tx = conn.begin().await.map_err(fail)?;
    for write in writes {
        match write {
            Write::Game(g) => {
                sqlx::query(
                    "INSERT INTO games (id, variant, options, seed, salt_seed, clock_initial_ms,
                        clock_increment_ms, white, black, white_token, black_token, status,
                        rematch_of, created_ms)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(&g.id)
                .bind(&g.variant)
                .bind(&g.options)
                .bind(g.seed as i64)
                .bind(g.salt_seed as i64)
                .bind(g.clock.map(|c| c.0))
                .bind(g.clock.map(|c| c.1))
                .bind(&g.players[0])
                .bind(&g.players[1])
                .bind(&g.tokens[0])
                .bind(&g.tokens[1])
                .bind(&g.status)
                .bind(&g.rematch_of)
                .bind(g.created_ms)
                .execute(&mut *tx)
                .await
                .map_err(fail)?;
            }
            Write::Entry { game, seq, entry } => {
                sqlx::query(
                    "INSERT INTO log (game, seq, kind, seat, input, text, at_ms)
                     VALUES (?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(game)
                .bind(seq)
                .bind(&entry.kind)
                .bind(&entry.seat)
                .bind(&entry.input)
                .bind(&entry.text)
                .bind(entry.at_ms)
                .execute(&mut *tx)
                .await
                .map_err(fail)?;
            }
            Write::Join { game, seat, token } => {
                let statement = if *seat == 0 {
                    "UPDATE games SET white = 'player', white_token = ?, status = 'live' WHERE id = ?"
                } else {
                    "UPDATE games SET black = 'player', black_token = ?, status = 'live' WHERE id = ?"
                };
                sqlx::query(statement)
                    .bind(token)
                    .bind(game)
                    .execute(&mut *tx)
                    .await
                    .map_err(fail)?;
            }
            Write::Status { game, status } => {
                sqlx::query("UPDATE games SET status = ? WHERE id = ?")
                    .bind(status)
                    .bind(game)
                    .execute(&mut *tx)
                    .await
                    .map_err(fail)?;
            }
            Write::Rematch { game, rematch } => {
                sqlx::query("UPDATE games SET rematch = ? WHERE id = ?")
                    .bind(rematch)
                    .bind(game)
                    .execute(&mut *tx)
                    .await
                    .map_err(fail)?;
            }
        }
    }
    tx.commit().await.map_err(fail)
}
