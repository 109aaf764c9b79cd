//! Load generator: starts the server in this process on 127.0.0.1 with a SQLite database in the
//! temporary folder (WAL, synchronous=FULL), or the database of `BLUFFCHESS_LOAD_DATABASE` (a
//! `postgres://` URL of an empty database), holds many live games, and has concurrent random
//! clients play actions through the HTTP API.
//!
//! ```sh
//! cargo run --release -p bluffchess-server --example load -- [GAMES] [CLIENTS] [SECONDS] [VARIANT]
//! BLUFFCHESS_LOAD_DATABASE=postgres://... cargo run --release -p bluffchess-server --example load
//! ```
//! Defaults: 10000 games held, 64 clients, 20 seconds, chess. It reports the games held, the
//! memory they take (this process only: not the Postgres server's), actions per second and the
//! round-trip time of an action.

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

struct Game {
    id: String,
    tokens: [String; 2],
}

async fn open_game(http: &reqwest::Client, base: &str, variant: &str) -> Game {
    let created: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"variant": variant, "color": "white", "opponent": "open"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let id = created["id"].as_str().expect("created").to_string();
    let joined: Value = http
        .post(format!("{base}/api/games/{id}/join"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    Game {
        id,
        tokens: [
            created["token"].as_str().unwrap().to_string(),
            joined["token"].as_str().unwrap().to_string(),
        ],
    }
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let clients: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(64);
    let seconds: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(20);
    let variant = args.get(4).cloned().unwrap_or_else(|| "chess".into());
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

    // Hold the games.
    let before = rss_kib();
    let started = Instant::now();
    let mut held = Vec::with_capacity(games);
    let chunk = 64;
    for start in (0..games).step_by(chunk) {
        let batch = (start..(start + chunk).min(games)).map(|_| open_game(&http, &base, &variant));
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
                let token = &game.tokens[turn[k]];
                let view: Value = http
                    .get(format!("{base}/api/games/{}/view", game.id))
                    .bearer_auth(token)
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
                let answer: Value = http
                    .post(format!("{base}/api/games/{}/action", game.id))
                    .bearer_auth(token)
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
