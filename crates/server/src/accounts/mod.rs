//! Accounts: a player who is the same person across games, devices and restarts. Sign-up,
//! log-in and log-out, password changes, sessions (a cookie, stored hashed), personal API tokens
//! (stored hashed, with scopes), bot accounts, and the guest sessions whose games an account
//! claims. Everything is in the database, so any server process reading it knows every session;
//! a process keeps the sessions and tokens it has seen lately in memory.

pub mod names;
pub mod password;

use crate::error::ApiError;
use crate::room::now_ms;
use crate::secret::token_hash;
use crate::store::{AccountRow, SessionRow, Store, StoreError, TokenRow};
use rand::rngs::OsRng;
use rand::TryRngCore;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// The session cookie's name.
pub const COOKIE: &str = "bc_session";
/// The prefix of every personal API token: it tells one from a seat's token.
pub const TOKEN_PREFIX: &str = "bc_";
/// A session unused this long has ended (and its cookie's lifetime).
pub const SESSION_DAYS: i64 = 30;
/// How long a process trusts what it read of a session or token before reading it again.
const CACHE_MS: i64 = 30_000;
/// A session's last use is written at most this often.
const TOUCH_MS: i64 = 300_000;
/// Failed log-ins allowed per account, and per address, in [`ATTEMPT_WINDOW_MS`].
const ATTEMPTS_PER_ACCOUNT: usize = 5;
const ATTEMPTS_PER_ADDRESS: usize = 30;
const ATTEMPT_WINDOW_MS: i64 = 15 * 60_000;

/// A signed-in account, as a request carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: i64,
    pub username: String,
    /// A bot account: it acts through the API with a token only.
    pub bot: bool,
}

impl From<&AccountRow> for Account {
    fn from(row: &AccountRow) -> Account {
        Account {
            id: row.id,
            username: row.username.clone(),
            bot: row.bot,
        }
    }
}

/// What a personal API token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scopes {
    /// Act in its account's games.
    pub play: bool,
    /// The bot API: upgrade to a bot account, the event stream, challenges.
    pub bot: bool,
}

impl Scopes {
    /// Reads a token's scopes: `play` and `bot`, each at most once, `play` always among them.
    pub fn parse(scopes: &[String]) -> Result<Scopes, ApiError> {
        let mut read = Scopes {
            play: false,
            bot: false,
        };
        for scope in scopes {
            let flag = match scope.as_str() {
                "play" => &mut read.play,
                "bot" => &mut read.bot,
                other => {
                    return Err(ApiError::bad(format!(
                        "unknown scope {:?}: the scopes are play and bot",
                        other.chars().take(20).collect::<String>()
                    )))
                }
            };
            if std::mem::replace(flag, true) {
                return Err(ApiError::bad(format!("scope {scope} given twice")));
            }
        }
        Ok(read)
    }

    /// As stored: `play`, `bot` or `play bot`.
    pub fn text(self) -> String {
        let mut names = Vec::new();
        if self.play {
            names.push("play");
        }
        if self.bot {
            names.push("bot");
        }
        names.join(" ")
    }

    fn from_text(text: &str) -> Scopes {
        Scopes {
            play: text.split(' ').any(|s| s == "play"),
            bot: text.split(' ').any(|s| s == "bot"),
        }
    }
}

/// How a request said who it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credential {
    /// It did not.
    None,
    /// A session cookie (an account's, or a guest's): the SHA-256 of its id.
    Session { hash: String },
    /// A personal API token: its public id and scopes.
    Token { id: String, scopes: Scopes },
}

/// Who makes a request.
#[derive(Clone, Debug)]
pub struct Caller {
    /// The client's address: the connection's, or the one a trusted proxy forwards.
    pub ip: IpAddr,
    /// Whether the request came over HTTPS (said by a trusted proxy).
    pub https: bool,
    /// The signed-in account, if any.
    pub account: Option<Account>,
    pub credential: Credential,
}

impl Caller {
    /// A caller known by its address only.
    pub fn anonymous(ip: IpAddr) -> Caller {
        Caller {
            ip,
            https: false,
            account: None,
            credential: Credential::None,
        }
    }

    /// The key its limits count under: its account when signed in, its session for a guest,
    /// its address before that.
    pub fn key(&self) -> String {
        match (&self.account, &self.credential) {
            (Some(account), _) => format!("account {}", account.id),
            (None, Credential::Session { hash }) => format!("session {hash}"),
            _ => format!("address {}", self.ip),
        }
    }

    /// A guest's session: the SHA-256 of its id.
    pub fn guest(&self) -> Option<&str> {
        match (&self.account, &self.credential) {
            (None, Credential::Session { hash }) => Some(hash),
            _ => None,
        }
    }

    /// The account that may act in its games through this request: a session's (not a bot's,
    /// which acts by token only), or a token's with the `play` scope.
    pub fn player(&self) -> Option<&Account> {
        let account = self.account.as_ref()?;
        let allowed = match &self.credential {
            Credential::Session { .. } => !account.bot,
            Credential::Token { scopes, .. } => scopes.play,
            Credential::None => false,
        };
        allowed.then_some(account)
    }

    /// The signed-in account, or a 401 naming what is needed.
    pub fn signed_in(&self) -> Result<&Account, ApiError> {
        self.account
            .as_ref()
            .ok_or_else(|| ApiError::Unauthenticated("sign in first (or send an API token)".into()))
    }

    /// The session's hash, when the request was made with a session.
    pub fn session(&self) -> Option<&str> {
        match &self.credential {
            Credential::Session { hash } => Some(hash),
            _ => None,
        }
    }
}

/// A session or token read lately, and when.
#[derive(Clone)]
enum Known {
    Session {
        account: Option<Account>,
        seen_ms: i64,
    },
    Token {
        id: String,
        scopes: Scopes,
        account: Account,
        used_ms: Option<i64>,
    },
}

/// The accounts of one server process.
pub struct Accounts {
    store: Store,
    /// What this process read lately, by `session HASH` or `token HASH`, and when.
    known: Mutex<HashMap<String, (Known, i64)>>,
    /// Failed log-ins lately: by folded name, and by address.
    failures: Mutex<HashMap<String, Vec<i64>>>,
}

/// A 503 for a database that did not answer.
fn unavailable(e: StoreError) -> ApiError {
    ApiError::unavailable(e.to_string())
}

/// A new secret: 256 bits from the operating system, hex.
fn secret() -> String {
    let mut bytes = [0u8; 32];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random source works");
    hex::encode(bytes)
}

/// The SHA-256 of a secret, hex: what the database keeps of it.
pub fn hashed(secret: &str) -> String {
    hex::encode(token_hash(secret))
}

/// A session just started: its cookie's value (given once to the browser) and its account.
pub struct Started {
    pub cookie: String,
    pub account: Account,
}

impl Accounts {
    /// The accounts in `store`.
    pub fn new(store: Store) -> Accounts {
        Accounts {
            store,
            known: Mutex::new(HashMap::new()),
            failures: Mutex::new(HashMap::new()),
        }
    }

    fn remember(&self, key: String, known: Known) {
        let now = now_ms();
        let mut map = self.known.lock().expect("accounts lock");
        if map.len() > 100_000 {
            map.retain(|_, (_, at)| now - *at < CACHE_MS);
        }
        map.insert(key, (known, now));
    }

    fn recall(&self, key: &str) -> Option<Known> {
        let map = self.known.lock().expect("accounts lock");
        map.get(key)
            .filter(|(_, at)| now_ms() - at < CACHE_MS)
            .map(|(k, _)| k.clone())
    }

    /// Forgets what this process read of the sessions and tokens of `account` (all: `None`).
    fn forget(&self, account: Option<i64>) {
        let mut map = self.known.lock().expect("accounts lock");
        map.retain(|_, (known, _)| {
            let holder = match known {
                Known::Session { account, .. } => account.as_ref().map(|a| a.id),
                Known::Token { account, .. } => Some(account.id),
            };
            account.is_some() && holder != account
        });
    }

    /// The session whose cookie is `cookie`: `None` when there is none (ended, never made).
    pub async fn session(
        &self,
        cookie: &str,
    ) -> Result<Option<(String, Option<Account>)>, ApiError> {
        let hash = hashed(cookie);
        let key = format!("session {hash}");
        let now = now_ms();
        let (account, seen_ms) = match self.recall(&key) {
            Some(Known::Session { account, seen_ms }) => (account, seen_ms),
            _ => {
                let row = self
                    .store
                    .accounts()
                    .session(&hash)
                    .await
                    .map_err(unavailable)?;
                let Some(row) = row else { return Ok(None) };
                let account = row.account.as_ref().map(Account::from);
                (account, row.seen_ms)
            }
        };
        if now - seen_ms > SESSION_DAYS * 86_400_000 {
            let _ = self.store.accounts().end_session(&hash, None).await;
            return Ok(None);
        }
        let seen_ms = if now - seen_ms > TOUCH_MS {
            self.store
                .accounts()
                .touch_session(&hash, now)
                .await
                .map_err(unavailable)?;
            now
        } else {
            seen_ms
        };
        let known = Known::Session {
            account: account.clone(),
            seen_ms,
        };
        self.remember(key, known);
        Ok(Some((hash, account)))
    }

    /// The token `token` (`bc_...`): its id, scopes and account; `None` when there is none.
    pub async fn token(&self, token: &str) -> Result<Option<(String, Scopes, Account)>, ApiError> {
        let hash = hashed(token);
        let key = format!("token {hash}");
        let now = now_ms();
        let (id, scopes, account, used_ms) = match self.recall(&key) {
            Some(Known::Token {
                id,
                scopes,
                account,
                used_ms,
            }) => (id, scopes, account, used_ms),
            _ => {
                let row = self
                    .store
                    .accounts()
                    .token(&hash)
                    .await
                    .map_err(unavailable)?;
                let Some((token, account)) = row else {
                    return Ok(None);
                };
                let scopes = Scopes::from_text(&token.scopes);
                (token.id, scopes, Account::from(&account), token.used_ms)
            }
        };
        let used_ms = if used_ms.is_none_or(|u| now - u > TOUCH_MS) {
            self.store
                .accounts()
                .touch_token(&id, now)
                .await
                .map_err(unavailable)?;
            Some(now)
        } else {
            used_ms
        };
        let known = Known::Token {
            id: id.clone(),
            scopes,
            account: account.clone(),
            used_ms,
        };
        self.remember(key, known);
        Ok(Some((id, scopes, account)))
    }

    /// Starts a session for `account` (a guest's for none); answers its cookie's value.
    async fn start(&self, account: Option<i64>, agent: &str) -> Result<String, ApiError> {
        let cookie = secret();
        let agent: String = agent.chars().take(120).collect();
        self.store
            .accounts()
            .create_session(&hashed(&cookie), account, now_ms(), &agent)
            .await
            .map_err(unavailable)?;
        Ok(cookie)
    }

    /// A guest's session, for a browser that has none: its games can be claimed later by the
    /// account it signs up or logs in with.
    pub async fn guest(&self, agent: &str) -> Result<(String, String), ApiError> {
        let cookie = self.start(None, agent).await?;
        let hash = hashed(&cookie);
        Ok((cookie, hash))
    }

    /// Signs up: a new account and its first session; a guest session's games become its own.
    pub async fn signup(
        &self,
        username: &str,
        secret_word: &str,
        agent: &str,
        guest: Option<&str>,
    ) -> Result<Started, ApiError> {
        names::check(username).map_err(|e| ApiError::bad(e.to_string()))?;
        password::check(secret_word, username).map_err(|e| ApiError::bad(e.to_string()))?;
        let word = secret_word.to_string();
        let phc = tokio::task::spawn_blocking(move || password::hash(&word))
            .await
            .map_err(|_| ApiError::Internal("the password could not be hashed".into()))?;
        let row = self
            .store
            .accounts()
            .create(username, &names::folded(username), &phc, now_ms())
            .await
            .map_err(|e| match e {
                StoreError::Taken => ApiError::conflict("name-taken", "that username is taken"),
                e => unavailable(e),
            })?;
        let account = Account::from(&row);
        self.adopt(guest, account.id).await?;
        let cookie = self.start(Some(account.id), agent).await?;
        Ok(Started { cookie, account })
    }

    /// Gives an account the seats of a guest session's games.
    async fn adopt(&self, guest: Option<&str>, account: i64) -> Result<(), ApiError> {
        if let Some(guest) = guest {
            self.store
                .accounts()
                .claim(guest, account)
                .await
                .map_err(unavailable)?;
            self.known
                .lock()
                .expect("accounts lock")
                .remove(&format!("session {guest}"));
        }
        Ok(())
    }

    /// Logs in: a new session. A wrong name and a wrong password get the same refusal, after
    /// the same work; failures are limited per account and per address.
    pub async fn login(
        &self,
        username: &str,
        secret_word: &str,
        ip: IpAddr,
        agent: &str,
        guest: Option<&str>,
    ) -> Result<Started, ApiError> {
        let folded = names::folded(username);
        let by_address = format!("address {ip}");
        let by_name = format!("name {folded}");
        self.throttled(&by_name, ATTEMPTS_PER_ACCOUNT)?;
        self.throttled(&by_address, ATTEMPTS_PER_ADDRESS)?;
        let row = if username.len() <= 64 {
            self.store
                .accounts()
                .by_name(&folded)
                .await
                .map_err(unavailable)?
        } else {
            None
        };
        let phc = row
            .as_ref()
            .map_or_else(|| password::decoy().to_string(), |r| r.password.clone());
        let word: String = secret_word.chars().take(password::MAX_LENGTH).collect();
        let matches = tokio::task::spawn_blocking(move || password::verify(&word, &phc))
            .await
            .map_err(|_| ApiError::Internal("the password could not be checked".into()))?;
        let Some(row) = row.filter(|_| matches) else {
            self.failed(&by_name);
            self.failed(&by_address);
            return Err(ApiError::Unauthenticated(
                "wrong username or password".into(),
            ));
        };
        let account = Account::from(&row);
        self.adopt(guest, account.id).await?;
        let cookie = self.start(Some(account.id), agent).await?;
        Ok(Started { cookie, account })
    }

    fn throttled(&self, key: &str, allowed: usize) -> Result<(), ApiError> {
        let now = now_ms();
        let mut failures = self.failures.lock().expect("accounts lock");
        let Some(times) = failures.get_mut(key) else {
            return Ok(());
        };
        times.retain(|t| now - t < ATTEMPT_WINDOW_MS);
        if times.len() < allowed {
            return Ok(());
        }
        let wait = (times[0] + ATTEMPT_WINDOW_MS - now) / 60_000 + 1;
        Err(ApiError::TooMany(format!(
            "too many failed log-ins: try again in {wait} minutes"
        )))
    }

    fn failed(&self, key: &str) {
        let now = now_ms();
        let mut failures = self.failures.lock().expect("accounts lock");
        if failures.len() > 100_000 {
            failures.retain(|_, t| t.iter().any(|t| now - t < ATTEMPT_WINDOW_MS));
        }
        failures.entry(key.to_string()).or_default().push(now);
    }

    /// Ends a session.
    pub async fn logout(&self, session: &str) -> Result<(), ApiError> {
        self.store
            .accounts()
            .end_session(session, None)
            .await
            .map_err(unavailable)?;
        self.known
            .lock()
            .expect("accounts lock")
            .remove(&format!("session {session}"));
        Ok(())
    }

    /// Changes an account's password: the current one must be right; every other session of
    /// the account ends.
    pub async fn change_password(
        &self,
        account: &Account,
        session: &str,
        current: &str,
        new: &str,
    ) -> Result<(), ApiError> {
        password::check(new, &account.username).map_err(|e| ApiError::bad(e.to_string()))?;
        let row = self
            .store
            .accounts()
            .by_id(account.id)
            .await
            .map_err(unavailable)?
            .ok_or_else(|| ApiError::Unauthenticated("the account is gone".into()))?;
        let (word, phc) = (current.to_string(), row.password.clone());
        let matches = tokio::task::spawn_blocking(move || password::verify(&word, &phc))
            .await
            .map_err(|_| ApiError::Internal("the password could not be checked".into()))?;
        if !matches {
            return Err(ApiError::Forbidden("the current password is wrong".into()));
        }
        let word = new.to_string();
        let phc = tokio::task::spawn_blocking(move || password::hash(&word))
            .await
            .map_err(|_| ApiError::Internal("the password could not be hashed".into()))?;
        self.store
            .accounts()
            .set_password(account.id, &phc, session)
            .await
            .map_err(unavailable)?;
        self.forget(Some(account.id));
        Ok(())
    }

    /// An account's sessions, newest first.
    pub async fn sessions(&self, account: i64) -> Result<Vec<SessionRow>, ApiError> {
        self.store
            .accounts()
            .sessions(account)
            .await
            .map_err(unavailable)
    }

    /// Ends an account's session whose public id (the first 16 digits of its hash) is `id`.
    pub async fn end_session(&self, account: i64, id: &str) -> Result<(), ApiError> {
        let sessions = self.sessions(account).await?;
        let session = sessions
            .iter()
            .find(|s| s.hash.get(..16) == Some(id))
            .ok_or_else(|| ApiError::NotFound("no such session of this account".into()))?;
        self.logout(&session.hash).await
    }

    /// A new personal API token: its public id and the token, shown once.
    pub async fn create_token(
        &self,
        account: i64,
        scopes: Scopes,
    ) -> Result<(String, String), ApiError> {
        if !scopes.play {
            return Err(ApiError::bad("a token has the play scope, and may add bot"));
        }
        let token = format!("{TOKEN_PREFIX}{}", secret());
        let id = secret()[..16].to_string();
        let row = TokenRow {
            id: id.clone(),
            account,
            scopes: scopes.text(),
            created_ms: now_ms(),
            used_ms: None,
        };
        self.store
            .accounts()
            .create_token(&row, &hashed(&token))
            .await
            .map_err(unavailable)?;
        Ok((id, token))
    }

    /// An account's tokens (never the tokens themselves).
    pub async fn tokens(&self, account: i64) -> Result<Vec<TokenRow>, ApiError> {
        self.store
            .accounts()
            .tokens(account)
            .await
            .map_err(unavailable)
    }

    /// Revokes an account's token.
    pub async fn revoke(&self, account: i64, id: &str) -> Result<(), ApiError> {
        let revoked = self
            .store
            .accounts()
            .revoke(id, account)
            .await
            .map_err(unavailable)?;
        if !revoked {
            return Err(ApiError::NotFound("no such token of this account".into()));
        }
        self.forget(Some(account));
        Ok(())
    }

    /// Makes an account that has played no game a bot account, for good.
    pub async fn upgrade(&self, account: &Account) -> Result<(), ApiError> {
        if account.bot {
            return Err(ApiError::conflict(
                "already-bot",
                "the account is a bot already",
            ));
        }
        let upgraded = self
            .store
            .accounts()
            .make_bot(account.id)
            .await
            .map_err(unavailable)?;
        if !upgraded {
            return Err(ApiError::conflict(
                "has-played",
                "only an account that has played no game may become a bot",
            ));
        }
        self.forget(Some(account.id));
        Ok(())
    }

    /// The account named `name` (without regard to case).
    pub async fn by_name(&self, name: &str) -> Result<Option<Account>, ApiError> {
        if name.len() > 64 {
            return Ok(None);
        }
        let row = self
            .store
            .accounts()
            .by_name(&names::folded(name))
            .await
            .map_err(unavailable)?;
        Ok(row.as_ref().map(Account::from))
    }

    /// The names of accounts by id, for showing players.
    pub async fn name_of(&self, id: i64) -> Result<Option<Account>, ApiError> {
        let row = self.store.accounts().by_id(id).await.map_err(unavailable)?;
        Ok(row.as_ref().map(Account::from))
    }
}
