//! The cluster under faults, with real processes on 127.0.0.1: the owning node SIGKILLed again
//! and again while clients on the other nodes play (the failover time measured), a node paused
//! past its lease, a rolling restart of every node under load, NATS killed and started again
//! mid-game. After each, every record is read back from the database: each acknowledged action
//! is there once, where its answer said. The heavy harness runs under `--ignored`;
//! `BLUFFCHESS_CLUSTER_KILLS` sets its number of kills (100 by default; CI runs a few).

mod common;
mod nodes;

use common::request;
use nodes::{
    engines, free_port, fresh_database, log, one_at_a_time, owner, stream, timeless, Node,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A game and what its seats were told.
#[derive(Clone, Debug)]
struct Table {
    id: String,
    tokens: [String; 2],
    /// Each acknowledged action: its place in the log (the answer's `entries`), seat, text.
    acked: Vec<(i64, usize, String)>,
    /// Requests whose answer was lost (the node died): done or not, never twice.
    unanswered: usize,
    over: bool,
}

/// What one attempt to act gave.
enum Acted {
    Acked,
    /// Not the seat's turn, or the game is over.
    Nothing,
    /// Refused now (503, a dead node): the client tries again.
    Unavailable,
}

/// A new game between two seats (White creates it on `on`, Black joins it there).
fn new_table(on: SocketAddr, variant: &str) -> Table {
    let body = json!({"variant": variant, "color": "white", "opponent": "open"});
    let (status, created) = request(on, "POST", "/api/games", None, Some(&body)).unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) =
        request(on, "POST", &format!("/api/games/{id}/join"), None, None).unwrap();
    assert_eq!(status, 200, "{joined}");
    Table {
        id,
        tokens: [
            created["token"].as_str().unwrap().to_string(),
            joined["token"].as_str().unwrap().to_string(),
        ],
        acked: Vec::new(),
        unanswered: 0,
        over: false,
    }
}

/// The seat to act plays a random legal action through `addr`.
fn act(addr: SocketAddr, table: &mut Table, rng: &mut StdRng) -> Acted {
    for seat in 0..2 {
        let path = format!("/api/games/{}/view", table.id);
        let view = match request(addr, "GET", &path, Some(&table.tokens[seat]), None) {
            Some((200, view)) => view,
            _ => return Acted::Unavailable,
        };
        if view["status"] != "live" {
            table.over = true;
            return Acted::Nothing;
        }
        let legal: Vec<&str> = view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let action = if view["setup"] == true {
            "setup random"
        } else if let Some(action) = legal.choose(rng) {
            action
        } else {
            continue;
        };
        let path = format!("/api/games/{}/action", table.id);
        let body = json!({ "action": action });
        return match request(addr, "POST", &path, Some(&table.tokens[seat]), Some(&body)) {
            Some((200, answer)) => {
                let entries = answer["entries"].as_i64().unwrap();
                table.acked.push((entries, seat, action.to_string()));
                Acted::Acked
            }
            Some((429, _)) => {
                std::thread::sleep(Duration::from_millis(30));
                Acted::Nothing
            }
            // Another client (or a lost answer's action) played first.
            Some((409 | 400 | 410, _)) => Acted::Nothing,
            Some((503, _)) => {
                table.unanswered += 1;
                Acted::Unavailable
            }
            Some((status, answer)) => panic!("{action}: {status} {answer}"),
            None => {
                table.unanswered += 1;
                Acted::Unavailable
            }
        };
    }
    Acted::Nothing
}

/// Every acknowledged action is in the stored log once, at the place its answer gave; no action
/// is there that no request asked for.
fn check(database: &str, table: &Table) {
    let log = log(database, &table.id);
    for (entries, seat, action) in &table.acked {
        let stored = &log[*entries as usize - 1];
        let seat = ["white", "black"][*seat];
        assert_eq!(
            (stored.0.as_str(), stored.1.as_deref(), stored.2.as_str()),
            ("play", Some(seat), action.as_str()),
            "game {}: entry {entries}",
            table.id
        );
    }
    let plays = log.iter().filter(|e| e.0 == "play").count();
    assert!(
        plays >= table.acked.len() && plays <= table.acked.len() + table.unanswered,
        "game {}: {plays} actions stored, {} acknowledged, {} unanswered",
        table.id,
        table.acked.len(),
        table.unanswered
    );
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The owner of a game, waiting (bounded) until one holds it.
fn current_owner(database: &str, id: &str) -> String {
    let start = Instant::now();
    loop {
        if let Some(node) = owner(database, id) {
            return node;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "game {id}: no owner"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
#[ignore = "heavy: BLUFFCHESS_CLUSTER_KILLS kills of the owning node (100 by default)"]
fn the_owner_killed_again_and_again_loses_no_acknowledged_action() {
    let kills: usize = std::env::var("BLUFFCHESS_CLUSTER_KILLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(100);
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "kills");
    let mut nodes: Vec<Node> = Node::three(&database, &nats);
    let mut rng = StdRng::seed_from_u64(2929);
    let variants = common::variants();
    let mut tables = vec![new_table(nodes[0].addr, variants[0])];
    let mut failovers = Vec::new();
    for kill in 0..kills {
        if tables.last().unwrap().over {
            let on = nodes[rng.random_range(0..3)].addr;
            tables.push(new_table(on, variants[kill % variants.len()]));
        }
        let table = tables.last_mut().unwrap();
        let owner = current_owner(&database, &table.id);
        let victim = nodes.iter().position(|n| n.name == owner).unwrap();
        let others: Vec<SocketAddr> = (0..3)
            .filter(|i| *i != victim)
            .map(|i| nodes[i].addr)
            .collect();
        for _ in 0..rng.random_range(0..4) {
            act(*others.choose(&mut rng).unwrap(), table, &mut rng);
        }
        // An action in flight through another node as the owner dies.
        let (addr, mut in_flight, seed) = (others[0], table.clone(), rng.random());
        let flight = std::thread::spawn(move || {
            act(addr, &mut in_flight, &mut StdRng::seed_from_u64(seed));
            in_flight
        });
        std::thread::sleep(Duration::from_millis(rng.random_range(0..20)));
        let killed = Instant::now();
        nodes[victim].kill();
        *table = flight.join().unwrap();
        if table.over {
            failovers.push(killed.elapsed());
            nodes[victim].restart();
            continue;
        }
        // Clients on the other nodes go on: the first action accepted after the kill.
        loop {
            let addr = *others.choose(&mut rng).unwrap();
            match act(addr, table, &mut rng) {
                Acted::Acked => break,
                _ if table.over => break,
                Acted::Unavailable | Acted::Nothing => {
                    assert!(
                        killed.elapsed() < Duration::from_secs(30),
                        "kill {kill} of {owner}: no failover in 30 s: owner now {:?}, log of {} \
                         entries, game {}",
                        nodes::owner(&database, &table.id),
                        log(&database, &table.id).len(),
                        table.id
                    );
                    std::thread::sleep(Duration::from_millis(20));
                }
            }
        }
        failovers.push(killed.elapsed());
        nodes[victim].restart();
    }
    for table in &tables {
        check(&database, table);
    }
    failovers.sort();
    eprintln!(
        "{} kills of the owning node, {} games: failover (kill to the next action accepted) \
         p50 {:?}, p99 {:?}, max {:?}",
        failovers.len(),
        tables.len(),
        percentile(&failovers, 0.5),
        percentile(&failovers, 0.99),
        failovers.last().unwrap()
    );
}

#[test]
fn a_paused_owner_appends_nothing_after_the_takeover() {
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "paused");
    let nodes: Vec<Node> = Node::three(&database, &nats);
    let mut rng = StdRng::seed_from_u64(7);
    let mut table = new_table(nodes[0].addr, "chess");
    for _ in 0..4 {
        assert!(matches!(
            act(nodes[1].addr, &mut table, &mut rng),
            Acted::Acked
        ));
    }
    nodes[0].pause();
    // A request to the paused owner itself: it waits in its socket until the node wakes.
    let (addr, mut stale, seed) = (nodes[0].addr, table.clone(), rng.random());
    let waiting = std::thread::spawn(move || {
        let acted = act(addr, &mut stale, &mut StdRng::seed_from_u64(seed));
        (matches!(acted, Acted::Acked), stale)
    });
    // Past the lease, another node takes the game over and play goes on there.
    let paused = Instant::now();
    let new_owner = loop {
        match owner(&database, &table.id) {
            Some(node) if node != "a" => break node,
            _ => {
                assert!(paused.elapsed() < Duration::from_secs(20), "no takeover");
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    };
    for _ in 0..3 {
        while !matches!(act(nodes[2].addr, &mut table, &mut rng), Acted::Acked) {
            assert!(paused.elapsed() < Duration::from_secs(30));
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    nodes[0].resume();
    let (acked, stale) = waiting.join().unwrap();
    // Whatever the woken node did with the waiting request, it appended nothing of its own:
    // an action it answered went through the new owner, in the log at its place.
    if acked {
        table.acked.push(stale.acked.last().unwrap().clone());
    }
    table.unanswered += stale.unanswered;
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        owner(&database, &table.id).as_deref(),
        Some(new_owner.as_str())
    );
    let stored_plays = log(&database, &table.id)
        .iter()
        .filter(|e| e.0 == "play")
        .count();
    assert_eq!(
        stored_plays,
        table.acked.len(),
        "only acknowledged actions are stored"
    );
    check(&database, &table);
    // The woken node serves the game again, as a relay of the new owner: every view agrees.
    for seat in 0..2 {
        let views: Vec<Value> = nodes
            .iter()
            .map(|n| {
                let path = format!("/api/games/{}/view", table.id);
                let (status, view) =
                    request(n.addr, "GET", &path, Some(&table.tokens[seat]), None).unwrap();
                assert_eq!(status, 200, "{view}");
                timeless(view)
            })
            .collect();
        assert_eq!(views[0], views[1]);
        assert_eq!(views[2], views[1]);
    }
    assert!(matches!(
        act(nodes[0].addr, &mut table, &mut rng),
        Acted::Acked
    ));
    check(&database, &table);
}

#[test]
fn a_rolling_restart_under_load_loses_nothing() {
    let _one = one_at_a_time();
    let (postgres, nats) = engines();
    let database = fresh_database(&postgres, "rolling");
    let mut nodes: Vec<Node> = Node::three(&database, &nats);
    let addrs = Arc::new(Mutex::new(nodes.iter().map(|n| n.addr).collect::<Vec<_>>()));
    let variants = common::variants();
    let tables: Vec<Table> = (0..6)
        .map(|i| new_table(nodes[i % 3].addr, variants[i % variants.len()]))
        .collect();
    let done = Arc::new(AtomicBool::new(false));
    // The load: every game played through the nodes up, the longest wait between two accepted
    // actions of a game measured.
    let player = {
        let (addrs, done) = (addrs.clone(), done.clone());
        std::thread::spawn(move || {
            let mut rng = StdRng::seed_from_u64(5);
            let mut tables = tables;
            let mut last = vec![Instant::now(); tables.len()];
            let mut longest = Duration::ZERO;
            while !done.load(Ordering::Relaxed) {
                for (table, last) in tables.iter_mut().zip(&mut last) {
                    if table.over {
                        continue;
                    }
                    let up = addrs.lock().unwrap().clone();
                    if let Acted::Acked = act(*up.choose(&mut rng).unwrap(), table, &mut rng) {
                        longest = longest.max(last.elapsed());
                        *last = Instant::now();
                    }
                }
            }
            (tables, longest)
        })
    };
    for node in nodes.iter_mut() {
        std::thread::sleep(Duration::from_millis(800));
        addrs.lock().unwrap().retain(|a| *a != node.addr);
        let drained = node.terminate();
        assert!(drained < Duration::from_secs(10), "drain took {drained:?}");
        *node = Node::start(&database, &nats, &node.name.clone());
        addrs.lock().unwrap().push(node.addr);
    }
    std::thread::sleep(Duration::from_millis(800));
    done.store(true, Ordering::Relaxed);
    let (tables, longest) = player.join().unwrap();
    for table in &tables {
        assert!(!table.acked.is_empty());
        check(&database, table);
    }
    eprintln!(
        "rolling restart: the longest wait between two accepted actions of a game: {longest:?}"
    );
    // A drained node's games are taken at once, never after their lease expires.
    assert!(
        longest < Duration::from_secs(3),
        "a game waited {longest:?}: as long as a lease"
    );
}

/// A NATS server of this test's own on 127.0.0.1, to kill and start again on the same port.
struct Nats {
    child: Child,
    port: u16,
}

impl Nats {
    fn start(port: u16) -> Nats {
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server (Debian's package; .ci/nats installs it)");
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "nats-server did not start"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Nats { child, port }
    }

    fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.kill();
    }
}

#[test]
fn nats_killed_and_started_again_mid_game_loses_nothing() {
    let _one = one_at_a_time();
    let (postgres, _) = engines();
    let database = fresh_database(&postgres, "nats_down");
    let port = free_port();
    let mut nats = Nats::start(port);
    let nodes: Vec<Node> = ["a", "b", "c"]
        .iter()
        .map(|name| Node::start(&database, &nats.url(), name))
        .collect();
    let (a, b) = (nodes[0].addr, nodes[1].addr);
    let mut rng = StdRng::seed_from_u64(11);
    let mut table = new_table(a, "chess");
    for _ in 0..4 {
        assert!(matches!(act(b, &mut table, &mut rng), Acted::Acked));
    }
    nats.kill();
    std::thread::sleep(Duration::from_millis(300));
    // Through a relay: refused at once with the reason, never a hang.
    let path = format!("/api/games/{}/view", table.id);
    let asked = Instant::now();
    let (status, refusal) = request(b, "GET", &path, Some(&table.tokens[0]), None).unwrap();
    assert_eq!(status, 503, "{refusal}");
    assert!(
        refusal["error"].as_str().unwrap().contains("NATS"),
        "{refusal}"
    );
    assert!(asked.elapsed() < Duration::from_secs(5));
    // On the owner, the game goes on.
    for _ in 0..2 {
        assert!(matches!(act(a, &mut table, &mut rng), Acted::Acked));
    }
    nats = Nats::start(port);
    let back = Instant::now();
    while !matches!(act(b, &mut table, &mut rng), Acted::Acked) {
        assert!(back.elapsed() < Duration::from_secs(30), "no reconnection");
        std::thread::sleep(Duration::from_millis(100));
    }
    for _ in 0..6 {
        if table.over {
            break;
        }
        assert!(matches!(act(b, &mut table, &mut rng), Acted::Acked));
    }
    let resign = format!("/api/games/{}/resign", table.id);
    let (status, _) = request(b, "POST", &resign, Some(&table.tokens[1]), None).unwrap();
    assert_eq!(status, 200);
    check(&database, &table);
    // The relay caught up with what was said while NATS was down: its streams are the owner's.
    let path = format!("/api/games/{}/stream?since=0", table.id);
    for seat in [Some(0), Some(1), None] {
        let token = seat.map(|s| table.tokens[s].as_str());
        let read = |addr| -> Vec<Value> {
            stream(addr, &path, token, Duration::from_secs(20))
                .unwrap()
                .into_iter()
                .map(timeless)
                .collect()
        };
        assert_eq!(read(b), read(a), "seat {seat:?}");
    }
    drop(nats);
}

/// A Postgres of one test's own (`.ci/postgres`), for faults of the database itself: the
/// shared one serves the other tests meanwhile.
struct OwnPostgres {
    dir: std::path::PathBuf,
    url: String,
}

impl OwnPostgres {
    fn start(name: &str) -> OwnPostgres {
        let dir = std::env::temp_dir().join(format!("bluffchess-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut own = OwnPostgres {
            dir,
            url: String::new(),
        };
        own.run("start");
        own.url = std::fs::read_to_string(own.dir.join("url")).unwrap();
        own.url = own.url.trim().to_string();
        own
    }

    /// `.ci/postgres WHAT DIR`: start, stop, down, up, pause, resume.
    fn run(&self, what: &str) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.ci/postgres");
        let status = Command::new(script)
            .arg(what)
            .arg(&self.dir)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), ".ci/postgres {what} failed");
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        if !self.url.is_empty() {
            let _ = std::panic::catch_unwind(|| self.run("resume"));
            self.run("stop");
        }
    }
}

/// One action of the seat to act, through `addr`, while the database is down or hung: refused
/// with 503 and a reason, each request answered within the server's bound (never a hang).
fn refused_while_the_database_is_gone(addr: SocketAddr, table: &mut Table, rng: &mut StdRng) {
    let timed = |method: &str, path: &str, seat: usize, body: Option<&Value>| {
        let asked = Instant::now();
        let answer = request(addr, method, path, Some(&table.tokens[seat]), body);
        let took = asked.elapsed();
        assert!(
            took < Duration::from_secs(17),
            "{method} {path} took {took:?}"
        );
        answer.expect("an answer, not a hang")
    };
    for seat in 0..2 {
        let (status, view) = timed("GET", &format!("/api/games/{}/view", table.id), seat, None);
        if status == 503 {
            return;
        }
        assert_eq!(status, 200, "{view}");
        let Some(action) = view["legal"].as_array().unwrap().choose(rng).cloned() else {
            continue;
        };
        let body = json!({ "action": action });
        let path = format!("/api/games/{}/action", table.id);
        let (status, refusal) = timed("POST", &path, seat, Some(&body));
        // Refused: not stored, or (the database's answer lost) stored once at most.
        table.unanswered += 1;
        assert_eq!(status, 503, "{refusal}");
        assert!(refusal["error"].as_str().is_some(), "{refusal}");
        return;
    }
    panic!("no seat could act");
}

#[test]
fn postgres_down_or_hung_refuses_actions_and_loses_nothing() {
    let _one = one_at_a_time();
    let (_, nats) = engines();
    let postgres = OwnPostgres::start("postgres-faults");
    let nodes: Vec<Node> = Node::three(&postgres.url, &nats);
    let (a, b) = (nodes[0].addr, nodes[1].addr);
    let mut rng = StdRng::seed_from_u64(17);
    let mut table = new_table(a, "chess");
    for _ in 0..4 {
        assert!(matches!(act(b, &mut table, &mut rng), Acted::Acked));
    }
    // Hung (every process stopped), then down (stopped at once, as a crash).
    for (fault, undo) in [("pause", "resume"), ("down", "up")] {
        postgres.run(fault);
        refused_while_the_database_is_gone(a, &mut table, &mut rng);
        refused_while_the_database_is_gone(b, &mut table, &mut rng);
        postgres.run(undo);
        let back = Instant::now();
        let mut acked = 0;
        while acked < 4 && !table.over {
            if back.elapsed() > Duration::from_secs(60) {
                let path = format!("/api/games/{}/view", table.id);
                let now = request(b, "GET", &path, Some(&table.tokens[0]), None);
                panic!("{fault}: the game did not go on after {undo}: {now:?}");
            }
            match act(b, &mut table, &mut rng) {
                Acted::Acked => acked += 1,
                _ => std::thread::sleep(Duration::from_millis(200)),
            }
        }
        println!(
            "postgres {fault}: the game went on {:?} after {undo}",
            back.elapsed()
        );
    }
    let resign = format!("/api/games/{}/resign", table.id);
    if !table.over {
        let (status, answer) = request(b, "POST", &resign, Some(&table.tokens[1]), None).unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    check(&postgres.url, &table);
    drop(nodes);
}
