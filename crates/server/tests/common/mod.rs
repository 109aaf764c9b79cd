//! A server on 127.0.0.1 with a fresh database, and clients for it.
#![allow(dead_code)]

mod people;
#[allow(unused_imports)]
pub use people::*;

use bluffchess_rules::any::AnyGame;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::record::{MetaKind, Record};
use bluffchess_rules::seat::Seat;
use bluffchess_rules::LegalAction;
use bluffchess_server::{Config, Server};
use futures_util::{SinkExt, Stream, StreamExt};
use rand::seq::IndexedRandom;
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::pin::Pin;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

/// Checks that a JSON value the server sent is a `T` of `bluffchess_server::wire`: it reads as
/// one, and a `T` writes out as exactly this value.
pub fn typed<T: serde::de::DeserializeOwned + serde::Serialize>(value: &Value) {
    let read: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("not a {}: {e}: {value}", std::any::type_name::<T>()));
    assert_eq!(&serde_json::to_value(read).unwrap(), value);
}

/// Fast timings and no rate limits that a test would meet by accident.
pub fn test_config() -> Config {
    Config {
        keepalive: Duration::from_millis(300),
        grace: Duration::from_millis(400),
        bot_time: Duration::from_secs(2),
        max_live_per_client: 10_000,
        max_streams_per_client: 10_000,
        create_burst: 10_000,
        create_period: Duration::from_micros(1),
        action_burst: 100_000,
        action_period: Duration::from_micros(1),
        body_limit: 4096,
        drain: Duration::from_secs(2),
        evict_after: Duration::from_secs(60),
        seek_ttl: Duration::from_secs(60),
        challenge_ttl: Duration::from_secs(3),
        trusted_proxies: Vec::new(),
        answer_within: Duration::from_secs(15),
    }
}

pub fn temp_db(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    std::env::temp_dir().join(format!(
        "bluffchess-test-{name}-{}-{nanos}.db",
        std::process::id()
    ))
}

/// The database the API tests run on: SQLite, or Postgres when `BLUFFCHESS_TEST_DATABASE` is
/// `postgres` (`.ci/run` runs them both ways).
pub fn postgres_pass() -> bool {
    match std::env::var("BLUFFCHESS_TEST_DATABASE").as_deref() {
        Ok("postgres") => true,
        Ok("sqlite") | Err(_) => false,
        Ok(other) => panic!("BLUFFCHESS_TEST_DATABASE={other:?}: expected sqlite or postgres"),
    }
}

/// The URL of the Postgres cluster for tests (`.ci/postgres` starts one), or `None` outside CI
/// when there is none. Under CI (`CI=true`) a missing cluster fails the test: it never skips.
pub fn postgres_cluster(test: &str) -> Option<String> {
    match std::env::var("BLUFFCHESS_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("{test}: CI=true but BLUFFCHESS_TEST_POSTGRES is not set (run .ci/postgres)")
        }
        _ => {
            eprintln!("{test}: skipped: BLUFFCHESS_TEST_POSTGRES is not set (see .ci/postgres)");
            None
        }
    }
}

/// A fresh, empty Postgres database for one test: a new schema of the test cluster, chosen
/// through the URL's `search_path`.
pub async fn fresh_postgres(cluster: &str, name: &str) -> String {
    use sqlx::Connection;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(24)
        .collect();
    // Postgres names are at most 63 bytes.
    let schema = format!("t_{clean}_{}_{nanos}", std::process::id());
    let mut connection = sqlx::PgConnection::connect(cluster)
        .await
        .unwrap_or_else(|e| panic!("cannot reach the test cluster: {e}"));
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut connection)
        .await
        .unwrap();
    connection.close().await.unwrap();
    let separator = if cluster.contains('?') { '&' } else { '?' };
    format!("{cluster}{separator}options=-c%20search_path%3D{schema}")
}

/// A fresh database for a test of this pass: (URL, SQLite path, unused on Postgres).
pub async fn fresh_database(name: &str) -> (String, PathBuf) {
    let db = temp_db(name);
    if postgres_pass() {
        let cluster = std::env::var("BLUFFCHESS_TEST_POSTGRES")
            .expect("BLUFFCHESS_TEST_DATABASE=postgres needs BLUFFCHESS_TEST_POSTGRES");
        (fresh_postgres(&cluster, name).await, db)
    } else {
        (format!("sqlite:{}", db.display()), db)
    }
}

pub struct TestServer {
    pub server: Option<Server>,
    pub base: String,
    pub addr: std::net::SocketAddr,
    pub http: reqwest::Client,
    /// The SQLite file (on a SQLite database).
    pub db: PathBuf,
    /// The database URL, to start another server on the same database.
    pub database: String,
}

impl TestServer {
    pub async fn start(name: &str) -> TestServer {
        Self::start_with(name, test_config()).await
    }

    pub async fn start_with(name: &str, config: Config) -> TestServer {
        let (database, db) = fresh_database(name).await;
        Self::start_at(database, db, config, bluffchess_server::bot::builtin()).await
    }

    /// A server on the SQLite file `db`.
    pub async fn start_on(db: PathBuf, config: Config) -> TestServer {
        Self::start_full(db, config, bluffchess_server::bot::builtin()).await
    }

    /// A server on the SQLite file `db` with these bots.
    pub async fn start_full(
        db: PathBuf,
        config: Config,
        bots: std::collections::HashMap<String, std::sync::Arc<dyn bluffchess_server::bot::Bot>>,
    ) -> TestServer {
        Self::start_at(format!("sqlite:{}", db.display()), db, config, bots).await
    }

    /// Another server on this one's database (after [`TestServer::stop`]).
    pub async fn restart(&self, config: Config) -> TestServer {
        Self::start_at(
            self.database.clone(),
            self.db.clone(),
            config,
            bluffchess_server::bot::builtin(),
        )
        .await
    }

    pub async fn start_at(
        database: String,
        db: PathBuf,
        config: Config,
        bots: std::collections::HashMap<String, std::sync::Arc<dyn bluffchess_server::bot::Bot>>,
    ) -> TestServer {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let server = Server::start_with_bots(listener, &database, config, bots)
            .await
            .unwrap();
        let addr = server.addr;
        TestServer {
            server: Some(server),
            base: format!("http://{addr}"),
            addr,
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .unwrap(),
            db,
            database,
        }
    }

    pub async fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            server.stop().await;
        }
    }

    pub async fn create(&self, body: Value) -> Value {
        let (status, answer) = self.post_raw("/api/games", None, Some(body)).await;
        assert_eq!(status, StatusCode::CREATED, "create: {answer}");
        typed::<bluffchess_server::wire::Seated>(&answer);
        answer
    }

    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        let text = response.text().await.unwrap();
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("POST {path}: answer {text:?} is not JSON: {e}"));
        if !status.is_success() {
            typed::<bluffchess_server::wire::Refusal>(&value);
        }
        (status, value)
    }

    pub async fn post(
        &self,
        id: &str,
        what: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        self.post_raw(&format!("/api/games/{id}/{what}"), token, body)
            .await
    }

    pub async fn get_text(&self, path: &str, token: Option<&str>) -> (StatusCode, String) {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        let status = response.status();
        (status, response.text().await.unwrap())
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        let (status, text) = self.get_text(path, token).await;
        let value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("GET {path}: answer {text:?} is not JSON: {e}"));
        (status, value)
    }

    /// A game's record as `GET /api/games/{id}/record` answers it, without the players' names
    /// (checked there), so that it equals the record an end message carries.
    pub async fn record(&self, id: &str) -> (StatusCode, Value) {
        let (status, mut record) = self.get(&format!("/api/games/{id}/record"), None).await;
        if status == StatusCode::OK {
            typed::<bluffchess_server::wire::NamedRecord>(&record);
            let players = record.as_object_mut().unwrap().remove("players").unwrap();
            assert!(players["white"].is_string() && players["black"].is_string());
        }
        (status, record)
    }

    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let (status, view) = self.get(&format!("/api/games/{id}/view"), token).await;
        assert_eq!(status, StatusCode::OK, "view: {view}");
        typed::<bluffchess_server::wire::Message>(&view);
        view
    }

    pub async fn stream(&self, id: &str, token: Option<&str>, since: Option<usize>) -> Lines {
        let mut url = format!("{}/api/games/{id}/stream", self.base);
        if let Some(since) = since {
            url.push_str(&format!("?since={since}"));
        }
        let mut request = reqwest::Client::new().get(url);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Lines {
            stream: Box::pin(response.bytes_stream()),
            buffer: Vec::new(),
            keepalives: 0,
        }
    }

    /// Opens a game with an open seat and joins it: (id, [white token, black token]).
    pub async fn open_and_join(&self, variant: &str, clock: Value) -> (String, [String; 2]) {
        self.open_and_join_with(variant, json!({}), clock).await
    }

    /// As [`TestServer::open_and_join`], with rules options.
    pub async fn open_and_join_with(
        &self,
        variant: &str,
        options: Value,
        clock: Value,
    ) -> (String, [String; 2]) {
        let created = self
            .create(
                json!({"variant": variant, "options": options, "color": "white",
                "opponent": "open", "clock": clock}),
            )
            .await;
        let id = created["id"].as_str().unwrap().to_string();
        assert_eq!(created["seat"], "white");
        let (status, joined) = self.post(&id, "join", None, None).await;
        assert_eq!(status, StatusCode::OK, "join: {joined}");
        assert_eq!(joined["seat"], "black");
        (
            id,
            [
                created["token"].as_str().unwrap().to_string(),
                joined["token"].as_str().unwrap().to_string(),
            ],
        )
    }

    /// Plays random legal actions for both seats until the game ends (or `max` actions, then
    /// White resigns). Returns the number of actions played.
    pub async fn play_out(&self, id: &str, tokens: &[String; 2], max: usize) -> usize {
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut played = 0;
        loop {
            assert!(Instant::now() < deadline, "game {id} did not end in time");
            let mut acted = false;
            for token in tokens {
                let view = self.view(id, Some(token)).await;
                if view["status"] != "live" {
                    return played;
                }
                if played >= max {
                    let (status, answer) = self.post(id, "resign", Some(token), None).await;
                    assert_eq!(status, StatusCode::OK, "resign: {answer}");
                    return played;
                }
                let Some(action) = choose(&view) else {
                    continue;
                };
                let (status, answer) = self
                    .post(id, "action", Some(token), Some(json!({"action": action})))
                    .await;
                assert_eq!(status, StatusCode::OK, "action {action}: {answer}");
                played += 1;
                acted = true;
            }
            if !acted {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    }
}

/// A random legal action from a message, `setup random` when a setup is due. Each action of
/// `legal` comes with its structure in `legal_actions`, in the same order.
pub fn choose(message: &Value) -> Option<String> {
    let legal: Vec<String> = message["legal"]
        .as_array()?
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    let described: Vec<LegalAction> =
        serde_json::from_value(message["legal_actions"].clone()).expect("legal_actions");
    assert!(
        described.iter().map(|a| &a.text).eq(&legal),
        "legal_actions are legal's: {message}"
    );
    if message["setup"] == true && legal.iter().any(|a| a == "setup random") {
        return Some("setup random".into());
    }
    legal.choose(&mut rand::rng()).cloned()
}

pub struct Lines {
    stream: Pin<Box<dyn Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>,
    buffer: Vec<u8>,
    pub keepalives: usize,
}

impl Lines {
    /// The next line (keepalives included), or `None` at the end of the stream.
    pub async fn next_line(&mut self, limit: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(i) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=i).collect();
                return Some(String::from_utf8(line[..i].to_vec()).unwrap());
            }
            match tokio::time::timeout_at(deadline, self.stream.next()).await {
                Err(_) => panic!("no line within {limit:?}"),
                Ok(None) => {
                    assert!(self.buffer.is_empty(), "the stream ended mid-line");
                    return None;
                }
                Ok(Some(chunk)) => self.buffer.extend_from_slice(&chunk.unwrap()),
            }
        }
    }

    /// The next message, skipping keepalives.
    pub async fn next_message(&mut self, limit: Duration) -> Option<String> {
        loop {
            let line = self.next_line(limit).await?;
            if line.is_empty() {
                self.keepalives += 1;
                continue;
            }
            return Some(line);
        }
    }

    /// Every message until the stream closes.
    pub async fn rest(&mut self, limit: Duration) -> Vec<String> {
        let mut messages = Vec::new();
        while let Some(m) = self.next_message(limit).await {
            messages.push(m);
        }
        messages
    }
}

/// A WebSocket client.
pub struct Socket {
    pub ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Socket {
    pub async fn open(
        ts: &TestServer,
        id: &str,
        token: Option<&str>,
        since: Option<usize>,
    ) -> Socket {
        let url = format!("ws://{}/api/games/{id}/ws", ts.addr);
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let hello = json!({"token": token, "since": since});
        ws.send(Message::Text(hello.to_string().into()))
            .await
            .unwrap();
        Socket { ws }
    }

    pub async fn send(&mut self, message: Value) {
        self.ws
            .send(Message::Text(message.to_string().into()))
            .await
            .unwrap();
    }

    /// The next text message, or `None` once the socket closes.
    pub async fn next(&mut self, limit: Duration) -> Option<String> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            match tokio::time::timeout_at(deadline, self.ws.next()).await {
                Err(_) => panic!("no socket message within {limit:?}"),
                Ok(None) | Ok(Some(Err(_))) => return None,
                Ok(Some(Ok(Message::Text(text)))) => return Some(text.to_string()),
                Ok(Some(Ok(Message::Close(_)))) => return None,
                Ok(Some(Ok(_))) => {}
            }
        }
    }
}

/// Applies a message to a seat's view as the documentation says a client should.
pub fn apply(view: &mut Value, message: &Value) {
    match message["type"].as_str().unwrap() {
        "view" | "end" => *view = message["view"].clone(),
        "update" => {
            let events = view["events"].as_array_mut().unwrap();
            events.extend(message["events"].as_array().unwrap().iter().cloned());
            for (key, value) in message["view"].as_object().unwrap() {
                view[key] = value.clone();
            }
        }
        other => panic!("unknown message type {other}"),
    }
}

/// Every view `seat` had through the game of `record`, in order, from the arbiter itself.
pub fn arbiter_views(record: &Record, seat: Seat) -> Vec<Value> {
    let salt_seed: u64 = record
        .game_id
        .strip_prefix("seeded-")
        .expect("server games derive salts from a secret seed")
        .parse()
        .unwrap();
    let mut game = AnyGame::new(
        &record.variant,
        &record.options,
        record.seed,
        SaltSource::Seeded(salt_seed),
    )
    .unwrap()
    // The record's rolls are replayed as text (verify has checked them against the seed).
    .scripted();
    let mut views = vec![game.view(seat)];
    let mut metas = record.meta.iter().peekable();
    for (i, action) in record.actions.iter().enumerate() {
        while let Some(meta) = metas.next_if(|m| m.after <= i) {
            game.meta(meta.seat, meta.kind).unwrap();
            views.push(game.view(seat));
        }
        game.play(&action.text).unwrap();
        views.push(game.view(seat));
    }
    for meta in metas {
        let kind: MetaKind = meta.kind;
        game.meta(meta.seat, kind).unwrap();
        views.push(game.view(seat));
    }
    views
}

/// Checks that every view a seat was shown (rebuilt from its messages) is the arbiter's view of
/// that seat at some point of the game, in order, and that the last is the final one.
pub fn check_differential(record: &Value, seat: Seat, messages: &[String]) {
    let record: Record = serde_json::from_value(record.clone()).unwrap();
    bluffchess_rules::any::verify(&record).expect("the record verifies");
    let views = arbiter_views(&record, seat);
    let mut current = Value::Null;
    let mut at = 0;
    let mut last_seq = 0;
    for line in messages {
        let message: Value = serde_json::from_str(line).unwrap();
        let seq = message["seq"].as_u64().unwrap();
        assert!(seq > last_seq, "messages are numbered in order");
        last_seq = seq;
        apply(&mut current, &message);
        while at < views.len() && views[at] != current {
            at += 1;
        }
        assert!(
            at < views.len(),
            "{seat} was shown a view the arbiter never gave it (message {seq}): {current}"
        );
    }
    assert_eq!(at, views.len() - 1, "{seat} saw the final view last");
}

/// A message with the fields that legitimately differ between two games removed (`presence`
/// says who is connected, not what happened). A commitment's
/// hash differs by its salt, but whether there is one must not: it becomes a placeholder.
pub fn strip(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| {
                    !matches!(
                        k.as_str(),
                        "server_time" | "game" | "clock" | "id" | "presence"
                    )
                })
                .map(|(k, v)| match (k.as_str(), v) {
                    ("commitment", Value::String(_)) => (k.clone(), json!("committed")),
                    _ => (k.clone(), strip(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(strip).collect()),
        other => other.clone(),
    }
}

pub fn stripped(line: &str) -> String {
    strip(&serde_json::from_str(line).unwrap()).to_string()
}
