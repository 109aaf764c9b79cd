//! Load generator: starts the server in this process on 127.0.0.1 with a SQLite database in the
//! temporary folder (WAL, synchronous=FULL), or the database of `BLUFFCHESS_LOAD_DATABASE` (a
//! `postgres://` URL of an empty database), holds many live games, and has concurrent random
//! clients play actions through the HTTP API.
//!
//! ```sh
//! cargo run --release -p bluffchess-server --example load -- [GAMES] [CLIENTS] [SECONDS] [VARIANT] [accounts]
//! BLUFFCHESS_LOAD_DATABASE=postgres://... cargo run --release -p bluffchess-server --example load
//! ```
//! Defaults: 10000 games held, 64 clients, 20 seconds, chess. With `accounts`, the players are
//! signed-in accounts (two a client) acting through their session cookies instead of seat
//! tokens. It reports the games held, the memory they take (this process only: not the
//! Postgres server's), actions per second and the round-trip time of an action.

use bluffchess_server::{Config, Server};
use rand::seq::IndexedRandom;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// How a player says who it is: a seat's token, or its account's session cookie.
#[derive(Clone)]
enum Auth {
    Token(String),
    Cookie(String),
}

impl Auth {
    fn on(&self, request: reqwest::RequestBuilder, base: &str) -> reqwest::RequestBuilder {
        match self {
            Auth::Token(token) => request.bearer_auth(token),
            Auth::Cookie(cookie) => request
                .header("cookie", format!("bc_session={cookie}"))
                .header("origin", base),
        }
    }
}

struct Game {
    id: String,
    auth: [Auth; 2],
}

/// Signs up an account; answers its session cookie.
async fn sign_up(http: &reqwest::Client, base: &str, name: &str) -> String {
    let response = http
        .post(format!("{base}/api/account/signup"))
        .json(&json!({"username": name, "password": "a load test's password"}))
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success(), "sign-up of {name}");
    let set = response.headers()["set-cookie"].to_str().unwrap();
    set["bc_session=".len()..]
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

/// A game between two seats: tokens, or the accounts `players` when given.
async fn open_game(
    http: &reqwest::Client,
    base: &str,
    variant: &str,
    players: Option<&[Auth; 2]>,
) -> Game {
    let create = http
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": variant, "color": "white", "opponent": "open"}));
    let create = match players {
        Some(p) => p[0].on(create, base),
        None => create,
    };
    let created: Value = create.send().await.unwrap().json().await.unwrap();
    let id = created["id"].as_str().expect("created").to_string();
    let join = http.post(format!("{base}/api/games/{id}/join"));
    let join = match players {
        Some(p) => p[1].on(join, base),
        None => join,
    };
    let joined: Value = join.send().await.unwrap().json().await.unwrap();
    let auth = match players {
        Some(p) => p.clone(),
        None => [created, joined].map(|a| Auth::Token(a["token"].as_str().unwrap().to_string())),
    };
    Game { id, auth }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let clients: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20);
    let variant = args.get(4).cloned().unwrap_or_else(|| "chess".into());
    let accounts = args.get(5).is_some_and(|a| a == "accounts");
    let db = std::env::temp_dir().join(format!("bluffchess-load-{}.db", std::process::id()));
    let config = Config {
        max_live_per_client: usize::MAX,
        max_streams_per_client: usize::MAX,
        create_burst: u32::MAX,
        create_period: Duration::from_nanos(1),
        action_burst: u32::MAX,
        action_period: Duration::from_nanos(1),
        ..Config::default()
    };
    let database = std::env::var("BLUFFCHESS_LOAD_DATABASE")
        .unwrap_or_else(|_| format!("sqlite:{}", db.display()));
    println!("database {}", bluffchess_server::store::redacted(&database));
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::start(listener, &database, config).await.unwrap();
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients * 2)
        .build()
        .unwrap();

    // The players: two accounts a client, or none (seat tokens).
    let mut pairs = Vec::new();
    if accounts {
        for c in 0..clients {
            let white = Auth::Cookie(sign_up(&http, &base, &format!("white{c}")).await);
            let black = Auth::Cookie(sign_up(&http, &base, &format!("black{c}")).await);
            pairs.push([white, black]);
        }
        println!("{} accounts signed up", 2 * clients);
    }
    // Hold the games: game n is played by client n mod CLIENTS.
    let before = rss_kib();
    let started = Instant::now();
    let mut held = Vec::with_capacity(games);
    let chunk = 64;
    for start in (0..games).step_by(chunk) {
        let batch = (start..(start + chunk).min(games))
            .map(|n| open_game(&http, &base, &variant, pairs.get(n % clients)));
        held.extend(futures_util::future::join_all(batch).await);
    }
    let after = rss_kib();
    println!(
        "held {} live {variant} games in {:.1} s; memory {:.1} KiB per game (process RSS {} -> {} MiB)",
        held.len(),
        started.elapsed().as_secs_f64(),
        (after.saturating_sub(before)) as f64 / games.max(1) as f64,
        before / 1024,
        after / 1024
    );

    // Play: each client plays its share of the held games, one action at a time.
    let held = Arc::new(held);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut workers = Vec::new();
    for c in 0..clients {
        let held = held.clone();
        let http = http.clone();
        let base = base.clone();
        workers.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut finished = 0usize;
            let mut mine: Vec<usize> = (c..held.len()).step_by(clients).collect();
            let mut turn = vec![0usize; mine.len()];
            let mut k = 0;
            while Instant::now() < deadline && !mine.is_empty() {
                k = (k + 1) % mine.len();
                let game = &held[mine[k]];
                let auth = &game.auth[turn[k]];
                let view: Value = auth
                    .on(
                        http.get(format!("{base}/api/games/{}/view", game.id)),
                        &base,
                    )
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                if view["status"] != "live" {
                    finished += 1;
                    mine.swap_remove(k);
                    turn.swap_remove(k);
                    continue;
                }
                let legal = view["legal"].as_array().unwrap();
                let action = if view["setup"] == true {
                    Value::from("setup random")
                } else {
                    match legal.choose(&mut rand::rng()) {
                        Some(a) => a.clone(),
                        None => {
                            turn[k] = 1 - turn[k];
                            continue;
                        }
                    }
                };
                let sent = Instant::now();
                let answer: Value = auth
                    .on(
                        http.post(format!("{base}/api/games/{}/action", game.id)),
                        &base,
                    )
                    .json(&json!({ "action": action }))
                    .send()
                    .await
                    .unwrap()
                    .json()
                    .await
                    .unwrap();
                latencies.push(sent.elapsed());
                assert_eq!(answer["ok"], true, "{answer}");
                turn[k] = match answer["to_act"].as_str() {
                    Some("black") => 1,
                    _ => 0,
                };
            }
            (latencies, finished)
        }));
    }
    let play_start = Instant::now();
    let mut latencies = Vec::new();
    let mut finished = 0;
    for worker in workers {
        let (l, f) = worker.await.unwrap();
        latencies.extend(l);
        finished += f;
    }
    let elapsed = play_start.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{clients} clients, {:.0} s: {} actions, {:.0} actions/s, round trip p50 {:.2} ms, p99 {:.2} ms, {finished} games finished",
        elapsed,
        latencies.len(),
        latencies.len() as f64 / elapsed,
        pct(0.5),
        pct(0.99)
    );
    println!("process RSS at the end: {} MiB", rss_kib() / 1024);
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}
