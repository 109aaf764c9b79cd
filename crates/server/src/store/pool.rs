//! The connections to one of the two databases, opened with the schema brought up to date.

use super::error::StoreError;
use sqlx::migrate::Migrator;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;
use std::str::FromStr;
use std::time::Duration;

static SQLITE_MIGRATIONS: Migrator = sqlx::migrate!("migrations/sqlite");
static POSTGRES_MIGRATIONS: Migrator = sqlx::migrate!("migrations/postgres");

/// Connections to Postgres: the writer's and the readers' (loads of finished games).
const POSTGRES_CONNECTIONS: u32 = 8;

/// Postgres's own bounds on a server's statements and open transactions, so that a lock held
/// by a paused node (or a statement stuck behind one) fails rather than waits: leases last 3 s.
const POSTGRES_BOUNDS: [(&str, &str); 2] = [
    ("statement_timeout", "5s"),
    ("idle_in_transaction_session_timeout", "5s"),
];

/// A connection pool to one of the two databases.
#[derive(Clone)]
pub enum Pool {
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
pub(crate) use on_pool;

impl Pool {
    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    pub async fn open(url: &str) -> Result<Pool, StoreError> {
        let migrate = |e: sqlx::migrate::MigrateError| StoreError::Migrate(e.to_string());
        if url.starts_with("sqlite:") {
            let pool = open_sqlite(url).await?;
            SQLITE_MIGRATIONS.run(&pool).await.map_err(migrate)?;
            Ok(Pool::Sqlite(pool))
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // Migrations on a connection of their own: a long one is not a hung statement.
            let migrating = open_postgres(url, 1, false).await?;
            POSTGRES_MIGRATIONS.run(&migrating).await.map_err(migrate)?;
            migrating.close().await;
            Ok(Pool::Postgres(
                open_postgres(url, POSTGRES_CONNECTIONS, true).await?,
            ))
        } else {
            Err(StoreError::UnsupportedUrl(redacted(url)))
        }
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

/// A pool of `connections` to Postgres at `url`, with [`POSTGRES_BOUNDS`] when `bounded`.
async fn open_postgres(url: &str, connections: u32, bounded: bool) -> Result<PgPool, StoreError> {
    let shown = redacted(url);
    let mut options = PgConnectOptions::from_str(url)
        .map_err(|e| StoreError::BadUrl {
            url: shown.clone(),
            reason: e.to_string(),
        })?
        // An action is acknowledged only once its commit is on disk, whatever the default.
        .options([("synchronous_commit", "on")]);
    if bounded {
        options = options.options(POSTGRES_BOUNDS);
    }
    PgPoolOptions::new()
        .max_connections(connections)
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
