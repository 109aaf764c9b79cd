//! `bluffchess serve` killed with SIGKILL mid-game keeps every acknowledged action: the real
//! binary, a database on disk, plain HTTP over 127.0.0.1 (a tiny client on std alone).

mod common;

use common::{request, serve, variants};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::io::Write;
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Game {
    id: String,
    tokens: [String; 2],
    /// Every acknowledged action: the seat and the events its answer gave.
    acked: Vec<(usize, Vec<Value>)>,
    over: bool,
}

/// Plays one random action in each game where a seat is to act; `false` when the server is down.
fn step(addr: SocketAddr, games: &mut [Game], rng: &mut impl Rng) -> bool {
    for game in games.iter_mut().filter(|g| !g.over) {
        for seat in 0..2 {
            let path = format!("/api/games/{}/view", game.id);
            let Some((200, view)) = request(addr, "GET", &path, Some(&game.tokens[seat]), None)
            else {
                return false;
            };
            if view["status"] != "live" {
                game.over = true;
                break;
            }
            let legal: Vec<&str> = view["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| a.as_str().unwrap())
                .collect();
            let action = if view["setup"] == true {
                "setup random"
            } else if let Some(a) = legal.choose(rng) {
                a
            } else {
                continue;
            };
            let path = format!("/api/games/{}/action", game.id);
            let body = json!({ "action": action });
            match request(addr, "POST", &path, Some(&game.tokens[seat]), Some(&body)) {
                Some((200, answer)) => game
                    .acked
                    .push((seat, answer["events"].as_array().unwrap().clone())),
                // The server's rate limit: slow down, as a client should.
                Some((429, _)) => std::thread::sleep(Duration::from_millis(30)),
                Some((status, answer)) => panic!("{action}: {status} {answer}"),
                None => return false,
            }
        }
    }
    true
}

/// Every acknowledged action's events are in its seat's view.
fn check(addr: SocketAddr, games: &[Game]) {
    for game in games {
        let views: Vec<Value> = (0..2)
            .map(|seat| {
                let path = format!("/api/games/{}/view", game.id);
                let (status, view) =
                    request(addr, "GET", &path, Some(&game.tokens[seat]), None).unwrap();
                assert_eq!(status, 200, "{view}");
                view
            })
            .collect();
        for (n, (seat, events)) in game.acked.iter().enumerate() {
            // A sealed event gains its salt once opened; all else stays as acknowledged.
            let unsalted = |e: &Value| {
                let mut e = e.clone();
                e.as_object_mut().unwrap().remove("salt");
                e
            };
            let seen: Vec<Value> = views[*seat]["view"]["events"]
                .as_array()
                .unwrap()
                .iter()
                .map(unsalted)
                .collect();
            for event in events {
                assert!(
                    seen.contains(&unsalted(event)),
                    "game {}: acknowledged action {n} ({event}) was lost",
                    game.id
                );
            }
        }
    }
}

#[test]
fn sigkill_mid_game_loses_no_acknowledged_action() {
    let db = std::env::temp_dir().join(format!("bluffchess-crash-{}.db", std::process::id()));
    let mut server = serve(&db);
    let mut games = Vec::new();
    for variant in variants() {
        let body = json!({"variant": variant, "color": "white", "opponent": "open"});
        let (status, created) =
            request(server.addr, "POST", "/api/games", None, Some(&body)).unwrap();
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_string();
        let path = format!("/api/games/{id}/join");
        let (status, joined) = request(server.addr, "POST", &path, None, None).unwrap();
        assert_eq!(status, 200, "{joined}");
        games.push(Game {
            id,
            tokens: [
                created["token"].as_str().unwrap().to_string(),
                joined["token"].as_str().unwrap().to_string(),
            ],
            acked: Vec::new(),
            over: false,
        });
    }
    let mut rng = rand::rng();
    let started = Instant::now();
    for round in 0..4 {
        // A killer thread sends SIGKILL at a random moment while the games are being played.
        let killed = Arc::new(AtomicBool::new(false));
        let delay = Duration::from_millis(rng.random_range(150..900));
        let pid = server.child.id();
        let flag = killed.clone();
        let killer = std::thread::spawn(move || {
            std::thread::sleep(delay);
            Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status()
                .unwrap();
            flag.store(true, Ordering::SeqCst);
        });
        let deadline = Instant::now() + Duration::from_secs(20);
        while step(server.addr, &mut games, &mut rng) {
            assert!(
                Instant::now() < deadline,
                "round {round}: the server was never killed"
            );
        }
        killer.join().unwrap();
        assert!(killed.load(Ordering::SeqCst));
        server.child.wait().unwrap();
        server = serve(&db);
        check(server.addr, &games);
    }
    let acked: usize = games.iter().map(|g| g.acked.len()).sum();
    assert!(acked > 20, "only {acked} actions were played");
    // The games go on to their end (White resigns the long ones), and their records verify.
    for _ in 0..3000 {
        if games.iter().all(|g| g.over) || started.elapsed() > Duration::from_secs(150) {
            break;
        }
        assert!(step(server.addr, &mut games, &mut rng));
    }
    check(server.addr, &games);
    for game in &games {
        if !game.over {
            let path = format!("/api/games/{}/resign", game.id);
            let (status, answer) =
                request(server.addr, "POST", &path, Some(&game.tokens[0]), None).unwrap();
            assert_eq!(status, 200, "{answer}");
        }
        let path = format!("/api/games/{}/record", game.id);
        let (status, record) = request(server.addr, "GET", &path, None, None).unwrap();
        assert_eq!(status, 200, "{record}");
        let file = db.with_extension(format!("{}.json", game.id));
        std::fs::write(&file, record.to_string()).unwrap();
        let verify = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
            .arg("verify")
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            verify.status.success(),
            "{}",
            String::from_utf8_lossy(&verify.stdout)
        );
        let _ = std::fs::remove_file(file);
    }
    // SIGTERM stops the server cleanly, with an open stream, within a bounded time.
    let mut open_stream = TcpStream::connect(server.addr).unwrap();
    let head = format!(
        "GET /api/games/{}/stream HTTP/1.1\r\nHost: {}\r\n\r\n",
        games[0].id, server.addr
    );
    open_stream.write_all(head.as_bytes()).unwrap();
    let pid = server.child.id().to_string();
    Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the server ignored SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status}");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
