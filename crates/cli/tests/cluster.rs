//! Three `bluffchess serve --cluster` nodes on one Postgres and one NATS: a game's two seats on
//! two nodes and a spectator on the third play every variant to the end, and each audience
//! receives on its node exactly what the game's owner serves it, message for message and number
//! for number, the owner being the single-node server's code unchanged (a differential test:
//! the same game read through a relay and at its source). `since=N` works on every node.

mod common;
mod nodes;

use common::{account, request, spawn_serve, variants};
use nodes::{engines, free_port, fresh_database, one_at_a_time, owner, stream, timeless, Node};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;

/// The longest a game is played before White resigns (every game ends).
const MAX_ACTIONS: usize = 300;

/// One request through `addr`, sent again while the server says to slow down (a seat's requests
/// are rate limited, and this test sends them as fast as it can).
fn patient(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    loop {
        match request(addr, method, path, token, body).unwrap() {
            (429, _) => std::thread::sleep(Duration::from_millis(30)),
            answer => return answer,
        }
    }
}

/// One seat's action through `addr`; waits out the rate limit. Answers the action played, as
/// another server given the same actions would play the same game: a setup drawn by the server
/// (`setup random`) is answered as the setup it drew (the seat's own event says which).
fn act(addr: SocketAddr, id: &str, token: &str, rng: &mut StdRng) -> Option<String> {
    let view_path = format!("/api/games/{id}/view");
    let (status, view) = patient(addr, "GET", &view_path, Some(token), None);
    assert_eq!(status, 200, "{view}");
    if view["status"] != "live" {
        return None;
    }
    let legal: Vec<&str> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let action = if view["setup"] == true {
        "setup random"
    } else {
        legal.choose(rng)?
    };
    let done = play(addr, id, token, action);
    if action != "setup random" {
        return Some(action.to_string());
    }
    let drew = done["events"].as_array().and_then(|events| {
        let own = events.iter().rev().find(|e| e["kind"] == "action")?;
        own["text"].as_str().filter(|t| t.starts_with("setup "))
    });
    Some(
        drew.expect("the drawn setup in the seat's events")
            .to_string(),
    )
}

/// Plays `action` through `addr`: it must be accepted. Answers the server's answer.
fn play(addr: SocketAddr, id: &str, token: &str, action: &str) -> Value {
    let path = format!("/api/games/{id}/action");
    let body = json!({ "action": action });
    let (status, answer) = patient(addr, "POST", &path, Some(token), Some(&body));
    assert_eq!(status, 200, "{action}: {answer}");
    answer
}

/// A new game of `variant` at `addr` with both seats taken: its id and White's and Black's
/// tokens.
fn new_game(addr: SocketAddr, variant: &str) -> (String, [String; 2]) {
    let body = json!({"variant": variant, "color": "white", "opponent": "open"});
    let (status, created) = patient(addr, "POST", "/api/games", None, Some(&body));
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) = patient(addr, "POST", &format!("/api/games/{id}/join"), None, None);
    assert_eq!(status, 200, "{variant}: {joined}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    (id, [token(&created), token(&joined)])
}

/// A stream's messages as another server of the same game would send them: without the game's
/// id and what its own secret seed makes (the seed's commitment and the record; each hidden
/// decision's commitment and, once revealed, its salt).
fn unseeded(messages: Vec<Value>, id: &str) -> Vec<Value> {
    fn unsalted(value: &mut Value) {
        match value {
            Value::Object(fields) => {
                for (key, field) in fields.iter_mut() {
                    match key.as_str() {
                        "commitment" | "salt" if field.is_string() => *field = "SALTED".into(),
                        _ => unsalted(field),
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(unsalted),
            _ => {}
        }
    }
    messages
        .into_iter()
        .map(|message| {
            let mut message = timeless(message);
            if let Some(fields) = message.as_object_mut() {
                fields.remove("seed");
                fields.remove("record");
            }
            unsalted(&mut message);
            serde_json::from_str(&message.to_string().replace(id, "ID")).unwrap()
        })
        .collect()
}

/// Whether the lobby of the node at `addr` lists game `id` among its `open` or `live` games.
fn listed(addr: SocketAddr, list: &str, id: &str) -> bool {
    let (status, lobby) = patient(addr, "GET", "/api/games", None, None);
    assert_eq!(status, 200, "{lobby}");
    lobby[list]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id)
}

#[test]
fn every_variant_across_three_nodes_is_what_its_owner_and_a_single_server_serve() {
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "every_variant");
    let nodes: Vec<Node> = Node::three(&database, &nats);
    let [a, b, c] = [nodes[0].addr, nodes[1].addr, nodes[2].addr];
    // The same games played on a single server beside the cluster, action for action.
    let (mut single, alone) = spawn_serve(&["--database", "sqlite::memory:"]);
    let mut rng = StdRng::seed_from_u64(29);
    for variant in variants() {
        let (lone_id, lone_tokens) = new_game(alone, variant);
        // Created on a (its owner), White plays there, Black joins and plays on b, a spectator
        // watches on c.
        let body = json!({"variant": variant, "color": "white", "opponent": "open"});
        let (status, created) = patient(a, "POST", "/api/games", None, Some(&body));
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        assert_eq!(owner(&database, &id).as_deref(), Some("a"), "{variant}");
        assert!(
            listed(c, "open", &id),
            "{variant}: c's lobby lists a's open game"
        );
        let (status, joined) = patient(b, "POST", &format!("/api/games/{id}/join"), None, None);
        assert_eq!(status, 200, "{variant}: {joined}");
        assert!(listed(c, "live", &id), "{variant}: c's lobby lists it live");
        let tokens = [
            created["token"].as_str().unwrap().to_string(),
            joined["token"].as_str().unwrap().to_string(),
        ];
        // The live streams on the relays, opened before play: Black's on b, the spectator's on
        // c, White's on c too.
        let path = format!("/api/games/{id}/stream?since=0");
        let live: Vec<_> = [(b, Some(1)), (c, None), (c, Some(0))]
            .into_iter()
            .map(|(addr, seat)| {
                let (path, token) = (path.clone(), seat.map(|s: usize| tokens[s].clone()));
                let handle = std::thread::spawn(move || {
                    stream(addr, &path, token.as_deref(), Duration::from_secs(60))
                });
                (seat, handle)
            })
            .collect();
        let mut played = 0;
        'game: while played < MAX_ACTIONS {
            for (seat, addr) in [(0, a), (1, b)] {
                match act(addr, &id, &tokens[seat], &mut rng) {
                    Some(action) => {
                        play(alone, &lone_id, &lone_tokens[seat], &action);
                        played += 1;
                    }
                    None => {
                        let (_, view) = patient(
                            addr,
                            "GET",
                            &format!("/api/games/{id}/view"),
                            Some(&tokens[seat]),
                            None,
                        );
                        if view["status"] != "live" {
                            break 'game;
                        }
                    }
                }
            }
        }
        // Cut short (unless its last action ended it): Black resigns in both.
        let still_live = || {
            let path = format!("/api/games/{id}/view");
            patient(b, "GET", &path, Some(&tokens[1]), None).1["status"] == "live"
        };
        if played >= MAX_ACTIONS && still_live() {
            let path = format!("/api/games/{id}/resign");
            let (status, answer) = patient(b, "POST", &path, Some(&tokens[1]), None);
            assert_eq!(status, 200, "{answer}");
            let path = format!("/api/games/{lone_id}/resign");
            let (status, answer) = patient(alone, "POST", &path, Some(&lone_tokens[1]), None);
            assert_eq!(status, 200, "{answer}");
        }
        // Every audience's stream, read on a relay, is what the single server sent it.
        for seat in [Some(0), Some(1), None] {
            let read = |addr, id: &str, tokens: &[String; 2]| {
                let path = format!("/api/games/{id}/stream?since=0");
                let token = seat.map(|s| tokens[s].as_str());
                let got = stream(addr, &path, token, Duration::from_secs(30)).unwrap();
                unseeded(got, id)
            };
            let (relayed, lone) = (read(c, &id, &tokens), read(alone, &lone_id, &lone_tokens));
            for (i, (x, y)) in relayed.iter().zip(&lone).enumerate() {
                assert!(
                    x == y,
                    "{variant}: seat {seat:?}, message {i}: a relay sent\n{x}\na single server\n{y}"
                );
            }
            assert_eq!(relayed.len(), lone.len(), "{variant}: seat {seat:?}");
        }
        // The owner's feeds are the reference: what a single server sends each audience.
        let reference = |seat: Option<usize>| -> Vec<Value> {
            let token = seat.map(|s| tokens[s].as_str());
            stream(a, &path, token, Duration::from_secs(30))
                .unwrap()
                .into_iter()
                .map(timeless)
                .collect()
        };
        for (seat, handle) in live {
            let relayed: Vec<Value> = handle
                .join()
                .unwrap()
                .unwrap_or_else(|| panic!("{variant}: a relayed stream failed"))
                .into_iter()
                .map(timeless)
                .collect();
            let expected = reference(seat);
            eprintln!(
                "{variant}: {played} actions, seat {seat:?}: {} messages relayed",
                relayed.len()
            );
            assert!(expected.len() > 1);
            assert_eq!(
                relayed, expected,
                "{variant}: seat {seat:?} live on a relay"
            );
        }
        // since=N on every node, for every audience, is the owner's from N on.
        for seat in [Some(0), Some(1), None] {
            let expected = reference(seat);
            let n = expected.len() / 2;
            for addr in [a, b, c] {
                let token = seat.map(|s| tokens[s].as_str());
                let path = format!("/api/games/{id}/stream?since={n}");
                let got: Vec<Value> = stream(addr, &path, token, Duration::from_secs(30))
                    .unwrap()
                    .into_iter()
                    .map(timeless)
                    .collect();
                assert_eq!(
                    got,
                    expected[n..],
                    "{variant}: seat {seat:?} since={n} on {addr}"
                );
            }
            // A view asked on any node is the owner's.
            let token = seat.map(|s| tokens[s].as_str());
            let views: Vec<Value> = [a, b, c]
                .into_iter()
                .map(|addr| {
                    let path = format!("/api/games/{id}/view");
                    let (status, view) = patient(addr, "GET", &path, token, None);
                    assert_eq!(status, 200, "{view}");
                    timeless(view)
                })
                .collect();
            assert_eq!(views[1], views[0], "{variant}: view of {seat:?} on b");
            assert_eq!(views[2], views[0], "{variant}: view of {seat:?} on c");
        }
    }
    let _ = single.kill();
    let _ = single.wait();
}

#[test]
fn a_cluster_needs_postgres_and_a_node_needs_a_cluster() {
    let serve = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_bluffchess"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let dir = std::env::temp_dir().join(format!("bluffchess-cluster-{}", std::process::id()));
    let sqlite = format!("sqlite:{}", dir.display());
    for database in [&["--database", sqlite.as_str()][..], &[]] {
        let mut args = database.to_vec();
        args.extend(["--cluster", "nats://127.0.0.1:4222"]);
        let (code, stderr) = serve(&args);
        assert_eq!(code, Some(2), "{stderr}");
        assert!(
            stderr.contains("--cluster needs --database postgres://"),
            "{stderr}"
        );
    }
    let (code, stderr) = serve(&["--node", "a"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("--cluster"), "{stderr}");
    assert!(!dir.exists(), "nothing was created");
}

#[test]
fn a_node_that_cannot_reach_nats_says_so_without_its_password() {
    let (postgres, _) = engines();
    let database = fresh_database(&postgres, "no_nats");
    // A port nothing listens on.
    let port = free_port();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bluffchess"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", &database])
        .args([
            "--cluster",
            &format!("nats://bluffchess:sekrit@127.0.0.1:{port}"),
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot reach NATS at nats://bluffchess:***@127.0.0.1:{port}"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("sekrit"), "{stderr}");
}

/// An NDJSON stream kept open and read line by line in a thread; its JSON lines come through
/// a channel. Dropping it closes the connection.
struct Listening {
    lines: std::sync::mpsc::Receiver<Value>,
    tcp: std::net::TcpStream,
}

impl Listening {
    fn open(addr: SocketAddr, path: &str, token: &str) -> Listening {
        use std::io::{BufRead, Write};
        let mut tcp = std::net::TcpStream::connect(addr).unwrap();
        let head =
            format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\r\n");
        tcp.write_all(head.as_bytes()).unwrap();
        let reader = std::io::BufReader::new(tcp.try_clone().unwrap());
        let (send, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Chunk sizes and keepalives are not JSON objects; every event is one line.
            for line in reader.lines().map_while(Result::ok) {
                let Ok(value) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                if value.is_object() && send.send(value).is_err() {
                    return;
                }
            }
        });
        Listening { lines, tcp }
    }

    /// The first line `wanted` accepts, within 10 s.
    fn next(&self, wanted: impl Fn(&Value) -> bool) -> Value {
        let until = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let left = until.saturating_duration_since(std::time::Instant::now());
            let line = self.lines.recv_timeout(left).expect("the line never came");
            if wanted(&line) {
                return line;
            }
        }
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        let _ = self.tcp.shutdown(std::net::Shutdown::Both);
    }
}

/// Whether the game's view through `addr` says `seat` is connected.
fn connected(addr: SocketAddr, id: &str, token: &str, seat: &str) -> bool {
    let path = format!("/api/games/{id}/view");
    let (status, view) = patient(addr, "GET", &path, Some(token), None);
    assert_eq!(status, 200, "{view}");
    view["presence"][seat]["connected"] == true
}

/// Waits (bounded) until `check` holds.
fn eventually(what: &str, check: impl Fn() -> bool) {
    let start = std::time::Instant::now();
    while !check() {
        assert!(start.elapsed() < Duration::from_secs(10), "never: {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn players_on_different_nodes_seek_challenge_and_see_each_other() {
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "pairing");
    let nodes = Node::three(&database, &nats);
    let (a, b, c) = (nodes[0].addr, nodes[1].addr, nodes[2].addr);
    let ann = account(a, "ann");
    let bob = account(b, "bob");
    let bobs_events = Listening::open(c, "/api/stream/event", &bob);

    // A challenge made on node a reaches Bob's stream on node c; he answers it on node b.
    let terms = json!({"variant": "chess", "clock": {"initial_s": 300, "increment_s": 0}});
    let (status, made) = patient(a, "POST", "/api/challenge/bob", Some(&ann), Some(&terms));
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap();
    bobs_events.next(|e| e["type"] == "challenge" && e["challenge"]["id"] == id);
    let (status, listed) = patient(b, "GET", "/api/challenge", Some(&bob), None);
    assert_eq!(status, 200, "{listed}");
    assert_eq!(listed["in"][0]["id"], id, "{listed}");
    let path = format!("/api/challenge/{id}/accept");
    let (status, paired) = patient(b, "POST", &path, Some(&bob), None);
    assert_eq!(status, 200, "{paired}");
    let game = paired["game"].as_str().unwrap().to_string();
    bobs_events.next(|e| e["type"] == "gameStart" && e["game"]["gameId"] == game.as_str());
    // A stream opened on a node that never served the game opens with it.
    let anns_events = Listening::open(c, "/api/stream/event", &ann);
    anns_events.next(|e| e["type"] == "gameStart" && e["game"]["gameId"] == game.as_str());
    let (status, _) = patient(a, "POST", &path, Some(&bob), None);
    assert_eq!(status, 404, "a challenge is accepted once, on any node");

    // Presence across nodes: Bob's seat stream open on node b is seen on node a, and its close.
    let (bob_seat, ann_seat) = match paired["seat"].as_str().unwrap() {
        "white" => ("white", "black"),
        _ => ("black", "white"),
    };
    let stream = format!("/api/games/{game}/stream");
    let at_board = Listening::open(b, &stream, &bob);
    at_board.next(|m| m["type"] == "view");
    eventually("Bob at the board, seen on node a", || {
        connected(a, &game, &ann, bob_seat)
    });
    drop(at_board);
    eventually("Bob gone, seen on node a", || {
        !connected(a, &game, &ann, bob_seat)
    });
    assert!(!connected(c, &game, &bob, ann_seat));

    // The pool: Ann's seek made on node a is listed on node c and paired with Bob's from node b.
    let (status, waiting) = patient(a, "POST", "/api/seek", Some(&ann), Some(&terms));
    assert_eq!(status, 201, "{waiting}");
    let seek = waiting["id"].as_str().unwrap();
    let (_, lobby) = patient(c, "GET", "/api/games", None, None);
    assert!(
        lobby["seeks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["id"] == seek),
        "{lobby}"
    );
    let (status, matched) = patient(b, "POST", "/api/seek", Some(&bob), Some(&terms));
    assert_eq!(status, 201, "{matched}");
    let game = matched["game"]
        .as_str()
        .expect("paired at once with Ann's seek");
    bobs_events.next(|e| e["type"] == "gameStart" && e["game"]["gameId"] == game);
    let (_, lobby) = patient(c, "GET", "/api/games", None, None);
    assert!(lobby["seeks"].as_array().unwrap().is_empty(), "{lobby}");
    let path = format!("/api/games/{game}/view");
    assert_eq!(patient(c, "GET", &path, Some(&ann), None).0, 200);
}
