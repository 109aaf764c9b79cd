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
//!
//! With `cluster`, the same run measures one node of a cluster (`serve --cluster`), then three
//! nodes with each client talking to the node that owns its games (nothing forwarded), then
//! three nodes with each client talking to another node (every request forwarded to the owner
//! over NATS, every message relayed back): all in this process on the same cores, on the
//! Postgres of `BLUFFCHESS_LOAD_DATABASE` (a fresh schema for each run) and the NATS of
//! `BLUFFCHESS_LOAD_NATS`. CLIENTS is rounded up to a multiple of 3.
//!
//! With `pool`, GAMES is a number of signed-in players instead, each cycling through rated play
//! for SECONDS: join the quick-pairing pool (a rated seek, 1+0), wait on its event stream for
//! the game to start, play a short game (it resigns after 4 actions of its own), and again. It
//! reports the time from joining the pool to the game's start (median and p99), the actions a
//! second, and the games played.

use bluffchess_server::{ClusterArgs, Config, Server};
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
    let pool = args.get(5).is_some_and(|a| a == "pool");
    let cluster = args.get(5).is_some_and(|a| a == "cluster");
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
    if cluster {
        one_node_then_three(&database, config, games, clients, seconds, &variant).await;
        return;
    }
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server = Server::start(listener, &database, config).await.unwrap();
    let base = format!("http://{}", server.addr);
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients * 2)
        .build()
        .unwrap();

    if pool {
        pool_players(&http, &base, games, seconds, &variant).await;
        server.stop().await;
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
        }
        return;
    }

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
    hold_and_play(&http, &[base], 0, games, clients, seconds, &variant, &pairs).await;
    println!("process RSS at the end: {} MiB", rss_kib() / 1024);
    server.stop().await;
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", db.display()));
    }
}

/// Holds GAMES live games (game n created on node n mod NODES) and has CLIENTS clients play
/// them for SECONDS (client c through node c + SHIFT mod NODES); prints what it measured.
#[allow(clippy::too_many_arguments)]
async fn hold_and_play(
    http: &reqwest::Client,
    bases: &[String],
    shift: usize,
    games: usize,
    clients: usize,
    seconds: u64,
    variant: &str,
    pairs: &[[Auth; 2]],
) {
    // Hold the games: game n is played by client n mod CLIENTS.
    let before = rss_kib();
    let started = Instant::now();
    let mut held = Vec::with_capacity(games);
    let chunk = 64;
    for start in (0..games).step_by(chunk) {
        let batch = (start..(start + chunk).min(games)).map(|n| {
            open_game(
                http,
                &bases[n % bases.len()],
                variant,
                pairs.get(n % clients),
            )
        });
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
        let base = bases[(c + shift) % bases.len()].clone();
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
}

/// The same load on one node of a cluster, then on three.
async fn one_node_then_three(
    database: &str,
    config: Config,
    games: usize,
    clients: usize,
    seconds: u64,
    variant: &str,
) {
    let nats = std::env::var("BLUFFCHESS_LOAD_NATS").expect(
        "cluster: BLUFFCHESS_LOAD_NATS=nats://... (and a postgres:// BLUFFCHESS_LOAD_DATABASE)",
    );
    let clients = clients.div_ceil(3) * 3;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(clients * 2)
        .build()
        .unwrap();
    let runs = [
        (1, 0, "1 node"),
        (
            3,
            0,
            "3 nodes, each client on its games' owner (nothing forwarded)",
        ),
        (
            3,
            1,
            "3 nodes, each client on another node (everything forwarded)",
        ),
    ];
    for (run, (count, shift, what)) in runs.into_iter().enumerate() {
        let database = &fresh_schema(database, run).await;
        let mut servers = Vec::new();
        for n in 0..count {
            let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
            let args = ClusterArgs {
                nats: nats.clone(),
                node: format!("load{run}-{n}"),
            };
            let server = Server::start_node(
                listener,
                database,
                config.clone(),
                bluffchess_server::bot::builtin(),
                Some(args),
            )
            .await
            .unwrap();
            servers.push(server);
        }
        let bases: Vec<String> = servers
            .iter()
            .map(|s| format!("http://{}", s.addr))
            .collect();
        println!("== {what}");
        hold_and_play(&http, &bases, shift, games, clients, seconds, variant, &[]).await;
        for server in servers {
            server.drain().await;
            server.stop().await;
        }
    }
}

/// A new schema of `database` for one run, so that no run takes over another's games.
async fn fresh_schema(database: &str, run: usize) -> String {
    use sqlx::Connection;
    let schema = format!("load_{}_{run}", std::process::id());
    let mut connection = sqlx::PgConnection::connect(database).await.unwrap();
    sqlx::query(&format!("CREATE SCHEMA {schema}"))
        .execute(&mut connection)
        .await
        .unwrap();
    let separator = if database.contains('?') { '&' } else { '?' };
    format!("{database}{separator}options=-c%20search_path%3D{schema}")
}

/// What one pool player measured: its waits from joining the pool to its game's start, its
/// actions' round trips, and the games it finished.
#[derive(Default)]
struct PoolStats {
    waits: Vec<Duration>,
    actions: Vec<Duration>,
    games: usize,
}

/// `pool` mode: `players` signed-in players cycling through rated play for `seconds`.
async fn pool_players(
    http: &reqwest::Client,
    base: &str,
    players: usize,
    seconds: u64,
    variant: &str,
) {
    let started = Instant::now();
    let mut cookies = Vec::with_capacity(players);
    for chunk in (0..players).collect::<Vec<_>>().chunks(16) {
        let names: Vec<String> = chunk.iter().map(|n| format!("pool{n}")).collect();
        let batch = names.iter().map(|name| sign_up(http, base, name));
        cookies.extend(futures_util::future::join_all(batch).await);
    }
    println!(
        "{players} accounts signed up in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let play_start = Instant::now();
    let tasks: Vec<_> = cookies
        .into_iter()
        .map(|cookie| {
            let (http, base, variant) = (http.clone(), base.to_string(), variant.to_string());
            tokio::spawn(async move {
                pool_player(http, base, Auth::Cookie(cookie), variant, deadline).await
            })
        })
        .collect();
    let mut all = PoolStats::default();
    for task in tasks {
        let stats = task.await.unwrap();
        all.waits.extend(stats.waits);
        all.actions.extend(stats.actions);
        all.games += stats.games;
    }
    let elapsed = play_start.elapsed().as_secs_f64();
    let pct = |v: &mut Vec<Duration>, p: f64| {
        v.sort_unstable();
        v.get(((v.len() as f64 * p) as usize).min(v.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let (wait50, wait99) = (pct(&mut all.waits, 0.5), pct(&mut all.waits, 0.99));
    let (act50, act99) = (pct(&mut all.actions, 0.5), pct(&mut all.actions, 0.99));
    println!(
        "{players} pool players, {elapsed:.0} s: {} pairings, pool to game p50 {wait50:.0} ms, p99 {wait99:.0} ms; {} actions, {:.0} actions/s, round trip p50 {act50:.2} ms, p99 {act99:.2} ms; {} games finished",
        all.waits.len(),
        all.actions.len(),
        all.actions.len() as f64 / elapsed,
        all.games / 2
    );
}

/// One pool player: joins the pool, waits for its game on its event stream, plays it, again.
async fn pool_player(
    http: reqwest::Client,
    base: String,
    auth: Auth,
    variant: String,
    deadline: Instant,
) -> PoolStats {
    use futures_util::StreamExt;
    let mut stats = PoolStats::default();
    let events = auth
        .on(http.get(format!("{base}/api/stream/event")), &base)
        .send()
        .await
        .unwrap();
    let mut events = events.bytes_stream();
    let mut buffer = Vec::new();
    let seek =
        json!({"variant": variant, "clock": {"initial_s": 60, "increment_s": 0}, "rated": true});
    while Instant::now() < deadline {
        let joined = Instant::now();
        let answer: Value = auth
            .on(http.post(format!("{base}/api/seek")), &base)
            .json(&seek)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(
            answer["game"].is_string() || answer["id"].is_string(),
            "{answer}"
        );
        // The game starts: this player's gameStart on its stream (it comes for either side).
        let game = loop {
            let line = loop {
                if let Some(i) = buffer.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buffer.drain(..=i).collect();
                    break line;
                }
                let left =
                    deadline.saturating_duration_since(Instant::now()) + Duration::from_secs(5);
                match tokio::time::timeout(left, events.next()).await {
                    Ok(Some(Ok(chunk))) => buffer.extend_from_slice(&chunk),
                    _ => return stats,
                }
            };
            let Ok(event) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            if event["type"] == "gameStart" {
                break event["game"]["gameId"].as_str().unwrap().to_string();
            }
        };
        stats.waits.push(joined.elapsed());
        play_pool_game(&http, &base, &auth, &game, &mut stats).await;
    }
    stats
}

/// Plays one pool game to its end: an action whenever it may act, resigning after 4 of its own.
async fn play_pool_game(
    http: &reqwest::Client,
    base: &str,
    auth: &Auth,
    game: &str,
    stats: &mut PoolStats,
) {
    let mut mine = 0;
    loop {
        let view: Value = auth
            .on(http.get(format!("{base}/api/games/{game}/view")), base)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        if view["status"] != "live" {
            stats.games += 1;
            return;
        }
        let legal = view["legal"].as_array().unwrap();
        let (route, body) = if legal.is_empty() {
            tokio::time::sleep(Duration::from_millis(30)).await;
            continue;
        } else if mine >= 4 {
            ("resign", json!({}))
        } else if view["setup"] == true {
            ("action", json!({"action": "setup random"}))
        } else {
            (
                "action",
                json!({"action": legal.choose(&mut rand::rng()).unwrap()}),
            )
        };
        let sent = Instant::now();
        let response = auth
            .on(http.post(format!("{base}/api/games/{game}/{route}")), base)
            .json(&body)
            .send()
            .await
            .unwrap();
        if response.status().is_success() {
            stats.actions.push(sent.elapsed());
            mine += 1;
        }
    }
}
