//! Three `bluffchess serve --cluster` nodes on one Postgres and one NATS: a game's two seats on
//! two nodes and a spectator on the third play every variant to the end, and each audience
//! receives on its node exactly what the game's owner serves it, message for message and number
//! for number, the owner being the single-node server's code unchanged (a differential test:
//! the same game read through a relay and at its source). `since=N` works on every node.

mod common;
mod nodes;

use common::{request, variants};
use nodes::{engines, fresh_database, one_at_a_time, owner, stream, timeless, Node};
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

/// One seat's action through `addr`; waits out the rate limit.
fn act(addr: SocketAddr, id: &str, token: &str, rng: &mut StdRng) -> Option<Value> {
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
    let path = format!("/api/games/{id}/action");
    let body = json!({ "action": action });
    match patient(addr, "POST", &path, Some(token), Some(&body)) {
        (200, answer) => Some(answer),
        (status, answer) => panic!("{action}: {status} {answer}"),
    }
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
fn every_variant_across_three_nodes_is_what_its_owner_serves() {
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "every_variant");
    let nodes: Vec<Node> = Node::three(&database, &nats);
    let [a, b, c] = [nodes[0].addr, nodes[1].addr, nodes[2].addr];
    let mut rng = StdRng::seed_from_u64(29);
    for variant in variants() {
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
                    Some(_) => played += 1,
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
        if played >= MAX_ACTIONS {
            let path = format!("/api/games/{id}/resign");
            let (status, answer) = patient(b, "POST", &path, Some(&tokens[1]), None);
            assert_eq!(status, 200, "{answer}");
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
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
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
