//! Accounts, sessions and API tokens in the database. Secrets are stored hashed: a password as
//! its Argon2id PHC string, a session id or a token as its SHA-256 (hex). Each of these queries
//! is one statement or one transaction of its own, outside the games' group commit.

use super::error::{read_error, StoreError};
use super::pool::{on_pool, Pool};
use sqlx::Connection;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountRow {
    pub id: i64,
    /// The name as its owner wrote it.
    pub username: String,
    /// The password's Argon2id hash (a PHC string).
    pub password: String,
    /// A bot account (for good).
    pub bot: bool,
    pub created_ms: i64,
}

/// A session as stored: its account (none for a guest's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionRow {
    /// SHA-256 of the session id (hex).
    pub hash: String,
    pub account: Option<AccountRow>,
    pub created_ms: i64,
    pub seen_ms: i64,
    /// The browser's description of itself, shortened.
    pub agent: String,
}

/// An API token as stored (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TokenRow {
    /// Its public id.
    pub id: String,
    pub account: i64,
    /// `play`, or `play bot`.
    pub scopes: String,
    pub created_ms: i64,
    pub used_ms: Option<i64>,
}

/// A game of an account's, as its list shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AccountGameRow {
    pub id: String,
    pub variant: String,
    pub status: String,
    pub created_ms: i64,
    /// `player`, `open` or `bot:NAME`, for White and Black.
    pub white: String,
    pub black: String,
    pub white_account: Option<i64>,
    /// The names of the accounts that hold the seats.
    pub white_name: Option<String>,
    pub black_name: Option<String>,
}

/// A game on a player's page: [`AccountGameRow`] with its result and the player's rating change.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PlayedRow {
    #[sqlx(flatten)]
    pub game: AccountGameRow,
    pub rated: bool,
    /// `1-0`, `0-1`, `1/2-1/2`; none before the game ends or when it was aborted.
    pub result: Option<String>,
    /// The player's rating before and after, when the game changed it.
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
}

/// Which of a player's games a page shows.
#[derive(Clone, Debug, Default)]
pub struct PlayedQuery {
    /// One variant, or every one.
    pub variant: Option<String>,
    /// Finished games only (ended with a result).
    pub finished: bool,
    pub offset: i64,
    pub max: i64,
}

const ACCOUNT: &str = "SELECT id, username, password, bot != 0 AS bot, created_ms FROM accounts";

/// The accounts' queries, on the store's connections.
pub struct AccountStore<'a>(pub(super) &'a Pool);

/// A session joined with its account's columns (all NULL for a guest).
#[derive(sqlx::FromRow)]
struct SessionColumns {
    hash: String,
    created_ms: i64,
    seen_ms: i64,
    agent: String,
    id: Option<i64>,
    username: Option<String>,
    password: Option<String>,
    bot: Option<bool>,
    account_created_ms: Option<i64>,
}

impl SessionColumns {
    fn row(self) -> SessionRow {
        let account = match (self.id, self.username, self.password) {
            (Some(id), Some(username), Some(password)) => Some(AccountRow {
                id,
                username,
                password,
                bot: self.bot.unwrap_or(false),
                created_ms: self.account_created_ms.unwrap_or(0),
            }),
            _ => None,
        };
        SessionRow {
            hash: self.hash,
            account,
            created_ms: self.created_ms,
            seen_ms: self.seen_ms,
            agent: self.agent,
        }
    }
}

impl AccountStore<'_> {
    /// Creates an account; `Err(StoreError::Taken)` when the folded name is taken.
    pub async fn create(
        &self,
        username: &str,
        folded: &str,
        password: &str,
        created_ms: i64,
    ) -> Result<AccountRow, StoreError> {
        const INSERT: &str = "INSERT INTO accounts (username, folded, password, bot, created_ms)
             VALUES ($1, $2, $3, 0, $4) RETURNING id";
        let id: Result<i64, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query_scalar(INSERT)
                .bind(username)
                .bind(folded)
                .bind(password)
                .bind(created_ms)
                .fetch_one(p)
                .await
        });
        let id = id.map_err(|e| match &e {
            sqlx::Error::Database(d) if d.is_unique_violation() => StoreError::Taken,
            _ => super::error::fail(e),
        })?;
        Ok(AccountRow {
            id,
            username: username.to_string(),
            password: password.to_string(),
            bot: false,
            created_ms,
        })
    }

    /// The account of a server bot named `name` (a reserved name): made, as a bot account that
    /// nobody can log in to, when missing; answers its id.
    pub async fn server_bot(&self, name: &str, created_ms: i64) -> Result<i64, StoreError> {
        const INSERT: &str = "INSERT INTO accounts (username, folded, password, bot, created_ms)
             VALUES ($1, $2, '!', 1, $3) ON CONFLICT (folded) DO NOTHING";
        const ID: &str = "SELECT id FROM accounts WHERE folded = $1";
        let folded = name.to_ascii_lowercase();
        let id: Result<i64, sqlx::Error> = on_pool!(self.0, |p| {
            async {
                sqlx::query(INSERT)
                    .bind(name)
                    .bind(&folded)
                    .bind(created_ms)
                    .execute(p)
                    .await?;
                sqlx::query_scalar(ID).bind(&folded).fetch_one(p).await
            }
            .await
        });
        id.map_err(super::error::fail)
    }

    /// The account whose folded name is `folded`.
    pub async fn by_name(&self, folded: &str) -> Result<Option<AccountRow>, StoreError> {
        let query = format!("{ACCOUNT} WHERE folded = $1");
        on_pool!(self.0, |p| {
            sqlx::query_as(&query).bind(folded).fetch_optional(p).await
        })
        .map_err(read_error)
    }

    /// The account `id`.
    pub async fn by_id(&self, id: i64) -> Result<Option<AccountRow>, StoreError> {
        let query = format!("{ACCOUNT} WHERE id = $1");
        on_pool!(self.0, |p| {
            sqlx::query_as(&query).bind(id).fetch_optional(p).await
        })
        .map_err(read_error)
    }

    /// Sets an account's password hash and ends its sessions but `keep` (its own).
    pub async fn set_password(
        &self,
        account: i64,
        password: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        const UPDATE: &str = "UPDATE accounts SET password = $1 WHERE id = $2";
        const END: &str = "DELETE FROM sessions WHERE account = $1 AND hash != $2";
        let done: Result<(), sqlx::Error> = on_pool!(self.0, |p| {
            async {
                let mut connection = p.acquire().await?;
                let mut tx = connection.begin().await?;
                sqlx::query(UPDATE)
                    .bind(password)
                    .bind(account)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query(END)
                    .bind(account)
                    .bind(keep)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await
            }
            .await
        });
        done.map_err(super::error::fail)
    }

    /// Makes the account a bot, for good, if it has played no game; answers whether it did.
    pub async fn make_bot(&self, account: i64) -> Result<bool, StoreError> {
        const UPGRADE: &str = "UPDATE accounts SET bot = 1 WHERE id = $1 AND NOT EXISTS
             (SELECT 1 FROM games WHERE white_account = $1 OR black_account = $1)";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(UPGRADE)
                .bind(account)
                .execute(p)
                .await
                .map(|r| r.rows_affected())
        });
        done.map(|n| n == 1).map_err(super::error::fail)
    }

    /// Stores a new session.
    pub async fn create_session(
        &self,
        hash: &str,
        account: Option<i64>,
        now_ms: i64,
        agent: &str,
    ) -> Result<(), StoreError> {
        const INSERT: &str = "INSERT INTO sessions (hash, account, created_ms, seen_ms, agent)
             VALUES ($1, $2, $3, $3, $4)";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(INSERT)
                .bind(hash)
                .bind(account)
                .bind(now_ms)
                .bind(agent)
                .execute(p)
                .await
                .map(drop)
        });
        done.map_err(super::error::fail)
    }

    /// The session whose id hashes to `hash`, with its account.
    pub async fn session(&self, hash: &str) -> Result<Option<SessionRow>, StoreError> {
        const SESSION: &str = "SELECT s.hash, s.created_ms, s.seen_ms, s.agent, a.id,
                a.username, a.password, a.bot != 0 AS bot, a.created_ms AS account_created_ms
             FROM sessions s LEFT JOIN accounts a ON a.id = s.account WHERE s.hash = $1";
        let row: Result<Option<SessionColumns>, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query_as(SESSION).bind(hash).fetch_optional(p).await
        });
        row.map(|r| r.map(SessionColumns::row)).map_err(read_error)
    }

    /// An account's sessions, newest first.
    pub async fn sessions(&self, account: i64) -> Result<Vec<SessionRow>, StoreError> {
        const SESSIONS: &str = "SELECT s.hash, s.created_ms, s.seen_ms, s.agent, a.id,
                a.username, a.password, a.bot != 0 AS bot, a.created_ms AS account_created_ms
             FROM sessions s JOIN accounts a ON a.id = s.account
             WHERE s.account = $1 ORDER BY s.created_ms DESC";
        let rows: Result<Vec<SessionColumns>, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query_as(SESSIONS).bind(account).fetch_all(p).await
        });
        rows.map(|r| r.into_iter().map(SessionColumns::row).collect())
            .map_err(read_error)
    }

    /// Notes that a session was used at `now_ms`.
    pub async fn touch_session(&self, hash: &str, now_ms: i64) -> Result<(), StoreError> {
        const TOUCH: &str = "UPDATE sessions SET seen_ms = $1 WHERE hash = $2";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(TOUCH)
                .bind(now_ms)
                .bind(hash)
                .execute(p)
                .await
                .map(drop)
        });
        done.map_err(super::error::fail)
    }

    /// Ends a session (of `account`, when given); answers whether there was one.
    pub async fn end_session(&self, hash: &str, account: Option<i64>) -> Result<bool, StoreError> {
        const END: &str = "DELETE FROM sessions WHERE hash = $1 AND ($2 IS NULL OR account = $2)";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(END)
                .bind(hash)
                .bind(account)
                .execute(p)
                .await
                .map(|r| r.rows_affected())
        });
        done.map(|n| n > 0).map_err(super::error::fail)
    }

    /// Gives an account the seats its guest session held, and ends that session; answers how
    /// many seats.
    pub async fn claim(&self, guest: &str, account: i64) -> Result<u64, StoreError> {
        const WHITE: &str = "UPDATE games SET white_account = $1, white_guest = NULL
             WHERE white_guest = $2 AND white_account IS NULL";
        const BLACK: &str = "UPDATE games SET black_account = $1, black_guest = NULL
             WHERE black_guest = $2 AND black_account IS NULL";
        const END: &str = "DELETE FROM sessions WHERE hash = $1 AND account IS NULL";
        let done: Result<u64, sqlx::Error> = on_pool!(self.0, |p| {
            async {
                let mut connection = p.acquire().await?;
                let mut tx = connection.begin().await?;
                let mut seats = 0;
                for update in [WHITE, BLACK] {
                    seats += sqlx::query(update)
                        .bind(account)
                        .bind(guest)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                }
                sqlx::query(END).bind(guest).execute(&mut *tx).await?;
                tx.commit().await?;
                Ok(seats)
            }
            .await
        });
        done.map_err(super::error::fail)
    }

    /// Stores a new API token.
    pub async fn create_token(&self, token: &TokenRow, hash: &str) -> Result<(), StoreError> {
        const INSERT: &str = "INSERT INTO tokens (id, hash, account, scopes, created_ms)
             VALUES ($1, $2, $3, $4, $5)";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(INSERT)
                .bind(&token.id)
                .bind(hash)
                .bind(token.account)
                .bind(&token.scopes)
                .bind(token.created_ms)
                .execute(p)
                .await
                .map(drop)
        });
        done.map_err(super::error::fail)
    }

    /// The token whose hash is `hash`, with its account.
    pub async fn token(&self, hash: &str) -> Result<Option<(TokenRow, AccountRow)>, StoreError> {
        const TOKEN: &str =
            "SELECT id, account, scopes, created_ms, used_ms FROM tokens WHERE hash = $1";
        let token: Result<Option<TokenRow>, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query_as(TOKEN).bind(hash).fetch_optional(p).await
        });
        let Some(token) = token.map_err(read_error)? else {
            return Ok(None);
        };
        Ok(self.by_id(token.account).await?.map(|a| (token, a)))
    }

    /// An account's tokens, newest first.
    pub async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, StoreError> {
        const TOKENS: &str = "SELECT id, account, scopes, created_ms, used_ms FROM tokens
             WHERE account = $1 ORDER BY created_ms DESC, id";
        on_pool!(self.0, |p| {
            sqlx::query_as(TOKENS).bind(account).fetch_all(p).await
        })
        .map_err(read_error)
    }

    /// Notes that a token was used at `now_ms`.
    pub async fn touch_token(&self, id: &str, now_ms: i64) -> Result<(), StoreError> {
        const TOUCH: &str = "UPDATE tokens SET used_ms = $1 WHERE id = $2";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(TOUCH)
                .bind(now_ms)
                .bind(id)
                .execute(p)
                .await
                .map(drop)
        });
        done.map_err(super::error::fail)
    }

    /// Revokes `account`'s token `id`; answers whether there was one.
    pub async fn revoke(&self, id: &str, account: i64) -> Result<bool, StoreError> {
        const REVOKE: &str = "DELETE FROM tokens WHERE id = $1 AND account = $2";
        let done: Result<_, sqlx::Error> = on_pool!(self.0, |p| {
            sqlx::query(REVOKE)
                .bind(id)
                .bind(account)
                .execute(p)
                .await
                .map(|r| r.rows_affected())
        });
        done.map(|n| n > 0).map_err(super::error::fail)
    }

    /// The games an account holds a seat of that `query` asks for, newest first.
    pub async fn played(
        &self,
        account: i64,
        query: &PlayedQuery,
    ) -> Result<Vec<PlayedRow>, StoreError> {
        const PLAYED: &str = "SELECT g.id, g.variant, g.status, g.created_ms, g.white, g.black,
                g.white_account, w.username AS white_name, b.username AS black_name,
                g.rated != 0 AS rated, g.result, c.before AS rating_before,
                c.after AS rating_after
             FROM games g LEFT JOIN accounts w ON w.id = g.white_account
                LEFT JOIN accounts b ON b.id = g.black_account
                LEFT JOIN rating_changes c ON c.game = g.id AND c.account = $1
             WHERE (g.white_account = $1 OR g.black_account = $1)
                AND ($2 = '' OR g.variant = $2) AND ($3 = 0 OR g.status = 'over')
             ORDER BY g.created_ms DESC, g.id LIMIT $4 OFFSET $5";
        let variant = query.variant.clone().unwrap_or_default();
        on_pool!(self.0, |p| {
            sqlx::query_as(PLAYED)
                .bind(account)
                .bind(&variant)
                .bind(i64::from(query.finished))
                .bind(query.max)
                .bind(query.offset)
                .fetch_all(p)
                .await
        })
        .map_err(read_error)
    }

    /// The games an account holds a seat of, newest first, at most `max`.
    pub async fn games(&self, account: i64, max: i64) -> Result<Vec<AccountGameRow>, StoreError> {
        const GAMES: &str = "SELECT g.id, g.variant, g.status, g.created_ms, g.white, g.black,
                g.white_account, w.username AS white_name, b.username AS black_name
             FROM games g LEFT JOIN accounts w ON w.id = g.white_account
                LEFT JOIN accounts b ON b.id = g.black_account
             WHERE g.white_account = $1 OR g.black_account = $1
             ORDER BY g.created_ms DESC, g.id LIMIT $2";
        on_pool!(self.0, |p| {
            sqlx::query_as(GAMES)
                .bind(account)
                .bind(max)
                .fetch_all(p)
                .await
        })
        .map_err(read_error)
    }
}
