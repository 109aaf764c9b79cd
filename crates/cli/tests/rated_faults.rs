//! The fault harness on rated play: the real `bluffchess serve` killed with SIGKILL at random
//! moments while rated games end (accounts acting by API token, games made by challenges), then
//! restarted on the same database. Afterwards every finished rated game changed both players'
//! ratings exactly once, and each player's rating equals a recomputation from the finished games
//! in the order they ended.
//!
//! Heavy: run in release, `cargo test --release -p bluffchess --test rated_faults -- --ignored
//! --nocapture`. `BLUFFCHESS_KILLS` sets the number of kills (12 by default).

mod common;

use bluffchess_server::rating::{periods_between, rate, Glicko, TAU};
use common::{account, request, serve};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const PLAYERS: usize = 6;
const VARIANTS: [&str; 3] = ["chess", "alter-ego", "bluff-move"];

/// A rated game between two players (by index), made by a challenge and its acceptance.
struct Game {
    id: String,
    /// White's and Black's tokens.
    tokens: [String; 2],
    actions: usize,
    /// After this many actions the side to move resigns.
    length: usize,
}

fn challenge(
    addr: SocketAddr,
    tokens: &[String],
    names: &[String],
    rng: &mut impl Rng,
) -> Option<Game> {
    let a = rng.random_range(0..PLAYERS);
    let b = (a + rng.random_range(1..PLAYERS)) % PLAYERS;
    let terms = json!({"variant": VARIANTS.choose(rng).unwrap(), "rated": true, "color": "white"});
    let path = format!("/api/challenge/{}", names[b]);
    let (status, made) = request(addr, "POST", &path, Some(&tokens[a]), Some(&terms))?;
    if status != 201 {
        return None;
    }
    let path = format!("/api/challenge/{}/accept", made["id"].as_str()?);
    let (status, accepted) = request(addr, "POST", &path, Some(&tokens[b]), None)?;
    (status == 200).then(|| Game {
        id: accepted["game"].as_str().unwrap().to_string(),
        tokens: [tokens[a].clone(), tokens[b].clone()],
        actions: 0,
        length: rng.random_range(2..8),
    })
}

/// One step of a game: an action of a seat that may act, or a resignation once it is long
/// enough; `None` when the server is down, `Some(true)` when the game is over.
fn step(addr: SocketAddr, game: &mut Game, rng: &mut impl Rng) -> Option<bool> {
    for seat in 0..2 {
        let path = format!("/api/games/{}/view", game.id);
        let (status, view) = request(addr, "GET", &path, Some(&game.tokens[seat]), None)?;
        assert_eq!(status, 200, "{view}");
        if view["status"] != "live" {
            return Some(true);
        }
        let legal: Vec<&str> = view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let Some(action) = legal.choose(rng) else {
            continue;
        };
        let (route, body) = if game.actions >= game.length {
            ("resign", None)
        } else if view["setup"] == true {
            ("action", Some(json!({"action": "setup random"})))
        } else {
            ("action", Some(json!({ "action": action })))
        };
        let path = format!("/api/games/{}/{route}", game.id);
        match request(addr, "POST", &path, Some(&game.tokens[seat]), body.as_ref())? {
            (200, _) => game.actions += 1,
            (409 | 410 | 429, _) => {}
            (status, answer) => panic!("{route}: {status} {answer}"),
        }
    }
    Some(false)
}

/// Plays games (making new ones as they end) until the server dies or `stop` is raised.
fn play(addr: SocketAddr, tokens: Vec<String>, names: Vec<String>, stop: Arc<AtomicBool>) {
    let mut rng = rand::rng();
    let mut games: Vec<Game> = Vec::new();
    while !stop.load(Ordering::SeqCst) {
        while games.len() < 4 {
            match challenge(addr, &tokens, &names, &mut rng) {
                Some(game) => games.push(game),
                None => return,
            }
        }
        for game in games.iter_mut() {
            match step(addr, game, &mut rng) {
                None => return,
                Some(true) => game.actions = usize::MAX,
                Some(false) => {}
            }
        }
        games.retain(|g| g.actions != usize::MAX);
    }
}

/// A GET that waits out the rate limit (the server's limits are a real server's); must be 200.
fn get(addr: SocketAddr, path: &str) -> Value {
    for _ in 0..200 {
        match request(addr, "GET", path, None, None) {
            Some((200, value)) => return value,
            Some((429, _)) => std::thread::sleep(Duration::from_millis(100)),
            other => panic!("{path}: {other:?}"),
        }
    }
    panic!("{path}: still limited");
}

/// Every finished rated game of `names[i]`: game id -> (variant, White's name, result).
fn finished(addr: SocketAddr, name: &str, into: &mut BTreeMap<String, (String, String)>) {
    for page in 1.. {
        let path = format!("/api/user/{name}/played?page={page}");
        let played = get(addr, &path);
        for game in played["games"].as_array().unwrap() {
            if game["status"] == "over" && game["rated"] == true {
                let result = game["result"].as_str().unwrap().to_string();
                into.insert(
                    game["id"].as_str().unwrap().to_string(),
                    (game["variant"].as_str().unwrap().to_string(), result),
                );
            }
        }
        if played["next"].is_null() {
            break;
        }
    }
}

#[test]
#[ignore = "heavy: run in release"]
fn sigkill_at_rated_ends_never_rates_a_game_twice_or_loses_it() {
    let kills: usize = std::env::var("BLUFFCHESS_KILLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(12);
    let dir = std::env::temp_dir().join(format!("bluffchess-rated-kills-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db: PathBuf = dir.join("games.db");
    let started = Instant::now();
    let mut server = serve(&db);
    let names: Vec<String> = (0..PLAYERS).map(|i| format!("player{i}")).collect();
    let tokens: Vec<String> = names.iter().map(|n| account(server.addr, n)).collect();
    let mut rng = rand::rng();
    for kill in 0..kills {
        let stop = Arc::new(AtomicBool::new(false));
        let players: Vec<_> = (0..3)
            .map(|_| {
                let (addr, tokens, names, stop) =
                    (server.addr, tokens.clone(), names.clone(), stop.clone());
                std::thread::spawn(move || play(addr, tokens, names, stop))
            })
            .collect();
        std::thread::sleep(Duration::from_millis(rng.random_range(200..1200)));
        server.kill();
        stop.store(true, Ordering::SeqCst);
        players.into_iter().for_each(|p| p.join().unwrap());
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "{kill} kills took too long"
        );
        server = serve(&db);
    }
    let addr = server.addr;

    // Every finished rated game, with its players, result and when it was rated.
    let mut games: BTreeMap<String, (String, String)> = BTreeMap::new();
    for name in &names {
        finished(addr, name, &mut games);
    }
    let mut rated: HashMap<String, Vec<(String, i64, i64)>> = HashMap::new();
    let mut current: HashMap<(String, String), Value> = HashMap::new();
    for name in &names {
        let history = get(addr, &format!("/api/user/{name}/rating-history"));
        for (variant, points) in history.as_object().unwrap() {
            for point in points.as_array().unwrap() {
                let game = point["game"].as_str().unwrap().to_string();
                rated.entry(game).or_default().push((
                    name.clone(),
                    point["at_ms"].as_i64().unwrap(),
                    point["games"].as_i64().unwrap(),
                ));
            }
            let _ = variant;
        }
        let user = get(addr, &format!("/api/user/{name}"));
        for (variant, rating) in user["ratings"].as_object().unwrap() {
            current.insert((name.clone(), variant.clone()), rating.clone());
        }
    }
    // Exactly once: each finished rated game changed both its players, no other game changed any.
    for (id, changes) in &rated {
        assert!(
            games.contains_key(id),
            "game {id} was rated but is not a finished rated game"
        );
        assert_eq!(changes.len(), 2, "game {id}: {changes:?}");
    }
    // Never lost: a finished rated game in which both sides acted was rated.
    let mut ended_before_both_acted = 0;
    for id in games.keys().filter(|id| !rated.contains_key(*id)) {
        let record = get(addr, &format!("/api/games/{id}/record"));
        let actors: Vec<&str> = record["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["actor"].as_str().unwrap())
            .collect();
        assert!(
            !(actors.contains(&"white") && actors.contains(&"black")),
            "game {id}: both sides acted, yet it changed no rating"
        );
        ended_before_both_acted += 1;
    }

    // The recomputation: the rated games in the order the server applied them, which each
    // player's change numbers give (games ending in the same millisecond may be applied in
    // either order).
    let mut ratings: HashMap<(String, String), (Glicko, Option<i64>, i64)> = HashMap::new();
    let mut pending: Vec<&String> = rated.keys().collect();
    while !pending.is_empty() {
        let ready = pending.iter().position(|id| {
            let variant = &games[*id].0;
            rated[*id].iter().all(|(name, _, number)| {
                let played = ratings
                    .get(&(name.clone(), variant.clone()))
                    .map_or(0, |r| r.2);
                *number == played + 1
            })
        });
        let id = pending.swap_remove(ready.expect("the change numbers admit an order"));
        let (variant, result) = &games[id];
        let at = rated[id][0].1;
        let record = get(addr, &format!("/api/games/{id}/record"));
        let white = record["players"]["white"].as_str().unwrap().to_string();
        let black = record["players"]["black"].as_str().unwrap().to_string();
        let white_score = match result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        let so_far = |r: &HashMap<_, _>, n: &String| {
            *r.get(&(n.clone(), variant.clone()))
                .unwrap_or(&(Glicko::default(), None, 0))
        };
        let (w, b) = (so_far(&ratings, &white), so_far(&ratings, &black));
        let w_new = rate(w.0, &[(b.0, white_score)], TAU, periods_between(w.1, at));
        let b_new = rate(
            b.0,
            &[(w.0, 1.0 - white_score)],
            TAU,
            periods_between(b.1, at),
        );
        ratings.insert((white, variant.clone()), (w_new, Some(at), w.2 + 1));
        ratings.insert((black, variant.clone()), (b_new, Some(at), b.2 + 1));
    }
    assert_eq!(ratings.len(), current.len());
    for (key, (glicko, _, games_played)) in &ratings {
        let stored = &current[key];
        assert!(
            (stored["rating"].as_f64().unwrap() - glicko.rating).abs() < 1e-6,
            "{key:?}: {stored} vs {glicko:?}"
        );
        assert!(
            (stored["rd"].as_f64().unwrap() - glicko.rd).abs() < 1e-6,
            "{key:?}"
        );
        assert_eq!(stored["games"], *games_played, "{key:?}");
    }
    println!(
        "rated faults (SIGKILL): {kills} kills in {:.1} s; {} rated games rated exactly once, {ended_before_both_acted} ended before both acted, {} ratings equal their recomputation",
        started.elapsed().as_secs_f64(),
        rated.len(),
        ratings.len()
    );
    server.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
