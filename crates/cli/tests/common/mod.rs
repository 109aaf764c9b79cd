//! `bluffchess serve` as a child process on 127.0.0.1, and a tiny HTTP client on std alone, for
//! the tests that kill, starve and flood the real binary.
#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// Every variant, as the rules crate lists them.
pub fn variants() -> Vec<&'static str> {
    bluffchess_rules::VARIANTS.iter().map(|v| v.id).collect()
}

/// A running `bluffchess serve`.
pub struct Serve {
    pub child: Child,
    pub addr: SocketAddr,
}

/// Starts the server on a free port with the database at `db`; returns once it listens.
pub fn serve(db: &Path) -> Serve {
    let database = format!("sqlite:{}", db.display());
    let (child, addr) = spawn_serve(&["--database", &database]);
    Serve { child, addr }
}

/// Starts `bluffchess serve` on a free port of 127.0.0.1 with `args` besides; answers the
/// process and its address once it listens.
pub fn spawn_serve(args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        // BLUFFCHESS_SERVER_LOG=1 shows the server's log (its warnings and errors).
        .stderr(if std::env::var_os("BLUFFCHESS_SERVER_LOG").is_some() {
            Stdio::inherit()
        } else {
            Stdio::null()
        })
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the server did not start: {line:?}"))
        .parse()
        .unwrap();
    (child, addr)
}

impl Serve {
    /// SIGKILL, and waits for the process to be gone.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Serve {
    /// A test that fails leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request's head, with the token and a JSON body's length.
pub fn head(addr: SocketAddr, method: &str, path: &str, token: Option<&str>, len: usize) -> String {
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{auth}Content-Type: application/json\r\nContent-Length: {len}\r\n\r\n"
    )
}

/// One request; `None` when the connection fails (the server is down).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> Option<(u16, Value)> {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .ok()?;
    let body = body.map(Value::to_string).unwrap_or_default();
    stream
        .write_all(head(addr, method, path, token, body.len()).as_bytes())
        .ok()?;
    stream.write_all(body.as_bytes()).ok()?;
    answer(&mut stream)
}

/// Reads a whole answer (the server closes the connection): its status and JSON body.
pub fn answer(stream: &mut TcpStream) -> Option<(u16, Value)> {
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).ok()?;
    let text = String::from_utf8(answer).ok()?;
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status = head.split_whitespace().nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).ok()?))
}

/// One request with extra headers; answers the status, the head and the JSON body.
pub fn raw(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &str,
    body: &Value,
) -> (u16, String, Value) {
    let mut stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).unwrap();
    let body = body.to_string();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (
        status,
        head.to_string(),
        serde_json::from_str(body).unwrap_or(Value::Null),
    )
}

/// Signs `name` up and makes it a personal API token (play scope): answers the token.
pub fn account(addr: SocketAddr, name: &str) -> String {
    let credentials = json!({"username": name, "password": "correct horse battery"});
    let (status, head, body) = raw(addr, "POST", "/api/account/signup", "", &credentials);
    assert_eq!(status, 201, "{body}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: bc_session="))
        .and_then(|v| v.split(';').next())
        .expect("a session cookie");
    let headers = format!("Cookie: bc_session={cookie}\r\nOrigin: http://{addr}\r\n");
    let scopes = json!({"scopes": ["play"]});
    let (status, _, token) = raw(addr, "POST", "/api/account/tokens", &headers, &scopes);
    assert_eq!(status, 201, "{token}");
    token["token"].as_str().unwrap().to_string()
}
