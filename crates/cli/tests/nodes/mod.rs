//! A cluster of `bluffchess serve --cluster` processes on 127.0.0.1 for the tests, on the
//! Postgres and NATS that `scripts/test` starts (`.ci/postgres`, `.ci/nats`): nodes started,
//! killed, paused, drained and started again, and the few reads the checks need (NDJSON
//! streams, the log and the leases as stored).
#![allow(dead_code)]

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One cluster test at a time in a test binary: their timings (leases, failovers) are measured,
/// and three nodes a test already share two cores.
pub fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The engines' URLs: without them these tests fail (they have no form without a cluster).
pub fn engines() -> (String, String) {
    let get = |name: &str, script: &str| {
        std::env::var(name)
            .ok()
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| {
                panic!("{name} is not set: start one with {script} (scripts/test does)")
            })
    };
    (
        get("BLUFFCHESS_TEST_POSTGRES", ".ci/postgres"),
        get("BLUFFCHESS_TEST_NATS", ".ci/nats"),
    )
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// A TCP port of 127.0.0.1 nothing listens on now.
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// A fresh, empty database for one test: a new schema of the test cluster, chosen through the
/// URL's `search_path`.
pub fn fresh_database(cluster: &str, name: &str) -> String {
    use sqlx::Connection;
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let schema = format!("c_{name}_{}_{nanos}", std::process::id());
    runtime().block_on(async {
        let mut connection = sqlx::PgConnection::connect(cluster).await.unwrap();
        sqlx::query(&format!("CREATE SCHEMA {schema}"))
            .execute(&mut connection)
            .await
            .unwrap();
    });
    let separator = if cluster.contains('?') { '&' } else { '?' };
    format!("{cluster}{separator}options=-c%20search_path%3D{schema}")
}

/// Runs one query on the test database; answers its rows as JSON-able tuples of text.
pub fn query(database: &str, sql: &str, game: &str) -> Vec<Vec<Option<String>>> {
    use sqlx::{Connection, Row};
    runtime().block_on(async {
        let mut connection = sqlx::PgConnection::connect(database).await.unwrap();
        let rows = sqlx::query(sql)
            .bind(game)
            .fetch_all(&mut connection)
            .await
            .unwrap();
        rows.iter()
            .map(|row| {
                (0..row.len())
                    .map(|i| row.try_get::<Option<String>, _>(i).unwrap())
                    .collect()
            })
            .collect()
    })
}

/// A game's log as stored: kind, seat and input of each entry, in order.
pub fn log(database: &str, game: &str) -> Vec<(String, Option<String>, String)> {
    query(
        database,
        "SELECT kind, seat, input FROM log WHERE game = $1 ORDER BY seq",
        game,
    )
    .into_iter()
    .map(|r| (r[0].clone().unwrap(), r[1].clone(), r[2].clone().unwrap()))
    .collect()
}

/// The node that holds a game's lease now, if one does.
pub fn owner(database: &str, game: &str) -> Option<String> {
    query(
        database,
        "SELECT node FROM leases WHERE game = $1 AND expires_at >= now()",
        game,
    )
    .into_iter()
    .next()
    .and_then(|r| r[0].clone())
}

/// One node of the cluster.
pub struct Node {
    pub name: String,
    pub addr: SocketAddr,
    child: Child,
    database: String,
    nats: String,
}

impl Node {
    /// Starts nodes `a`, `b` and `c` of one cluster.
    pub fn three(database: &str, nats: &str) -> Vec<Node> {
        ["a", "b", "c"]
            .iter()
            .map(|name| Node::start(database, nats, name))
            .collect()
    }

    /// Starts node `name` on a free port; returns once it listens.
    pub fn start(database: &str, nats: &str, name: &str) -> Node {
        let (child, addr) = super::common::spawn_serve(&[
            "--database",
            database,
            "--cluster",
            nats,
            "--node",
            name,
        ]);
        Node {
            name: name.to_string(),
            addr,
            child,
            database: database.to_string(),
            nats: nats.to_string(),
        }
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// SIGKILL, and waits for the process to be gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM (a drain), and waits (bounded) for the process to exit; answers how long.
    pub fn terminate(&mut self) -> Duration {
        let start = Instant::now();
        self.signal("-TERM");
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "node {} did not exit",
                self.name
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        start.elapsed()
    }

    /// SIGSTOP: the process stands still, its connections open.
    pub fn pause(&self) {
        self.signal("-STOP");
    }

    /// SIGCONT.
    pub fn resume(&self) {
        self.signal("-CONT");
    }

    /// The same node started again (a new process, a new port).
    pub fn restart(&mut self) {
        self.kill();
        *self = Node::start(&self.database, &self.nats, &self.name);
    }
}

impl Drop for Node {
    /// A test that fails leaves no process behind (nor a paused one).
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-CONT", &self.child.id().to_string()])
            .stderr(Stdio::null())
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A stream's messages, read until the stream ends (the game is over) or `limit` passes;
/// `None` when it cannot be read.
pub fn stream(
    addr: SocketAddr,
    path: &str,
    token: Option<&str>,
    limit: Duration,
) -> Option<Vec<Value>> {
    let mut tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    tcp.set_read_timeout(Some(limit)).ok()?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let head = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}\r\n");
    tcp.write_all(head.as_bytes()).ok()?;
    let mut raw = Vec::new();
    tcp.read_to_end(&mut raw).ok()?;
    let text = String::from_utf8(raw).ok()?;
    let (head, mut body) = text.split_once("\r\n\r\n")?;
    if head.split_whitespace().nth(1)? != "200" {
        return None;
    }
    // Chunked: a hexadecimal size line, the chunk, CRLF; a size of 0 ends it.
    let mut joined = String::new();
    loop {
        let (size, rest) = body.split_once("\r\n")?;
        let size = usize::from_str_radix(size.trim(), 16).ok()?;
        if size == 0 {
            break;
        }
        joined.push_str(rest.get(..size)?);
        body = rest.get(size + 2..)?;
    }
    joined
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// A message without what depends on when it was read (the clocks as of the reading).
pub fn timeless(mut message: Value) -> Value {
    if let Some(fields) = message.as_object_mut() {
        fields.remove("clock");
        fields.remove("server_time");
        fields.remove("presence");
    }
    message
}
