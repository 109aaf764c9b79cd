//! The fault harness: the real `bluffchess serve` on 127.0.0.1, (a) killed with SIGKILL at random
//! moments under load and restarted on the same database, (b) with client connections dropped
//! and reset mid-message, (c) with slow and partial requests, oversized bodies and floods of
//! connections, and (d) with its database's disk full. After each, the server serves again and
//! every acknowledged action is in the game's record exactly once.
//!
//! Heavy: run in release, `cargo test --release -p bluffchess --test faults -- --ignored
//! --nocapture`. `BLUFFCHESS_KILLS` sets the number of kills (20 by default).

mod common;

use common::{answer, head, request, serve, variants, Serve};
use rand::seq::IndexedRandom;
use rand::Rng;
use serde_json::json;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An action the server acknowledged: who sent it, what, and the log length it answered.
struct Ack {
    seat: usize,
    text: String,
    entries: u64,
}

/// A game as its two clients know it.
struct Game {
    id: String,
    tokens: [String; 2],
    acked: Vec<Ack>,
    /// Actions sent whose answer never came (the server died): each may or may not be stored.
    unanswered: usize,
    over: bool,
}

/// What one attempt to act gave.
enum Step {
    Acted,
    Idle,
    Down,
}

fn temp_db(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bluffchess-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.db")
}

/// Opens a game of `variant` and takes its second seat; `None` if the server refuses for now.
fn new_game(addr: SocketAddr, variant: &str) -> Option<Game> {
    let body = json!({"variant": variant, "color": "white"});
    let (status, created) = request(addr, "POST", "/api/games", None, Some(&body))?;
    if status != 201 {
        return None;
    }
    let id = created["id"].as_str()?.to_string();
    let (status, joined) = request(addr, "POST", &format!("/api/games/{id}/join"), None, None)?;
    assert_eq!(status, 200, "join: {joined}");
    Some(Game {
        id,
        tokens: [
            created["token"].as_str()?.to_string(),
            joined["token"].as_str()?.to_string(),
        ],
        acked: Vec::new(),
        unanswered: 0,
        over: false,
    })
}

/// The seat to act and what it may do, from the seats' own views.
fn turn(addr: SocketAddr, game: &mut Game) -> Option<Option<(usize, Vec<String>, bool)>> {
    for seat in 0..2 {
        let path = format!("/api/games/{}/view", game.id);
        let (status, view) = request(addr, "GET", &path, Some(&game.tokens[seat]), None)?;
        assert_eq!(status, 200, "view: {view}");
        if view["status"] != "live" {
            game.over = true;
            return Some(None);
        }
        let legal: Vec<String> = view["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap().to_string())
            .collect();
        let setup = view["setup"] == true;
        if setup || !legal.is_empty() {
            return Some(Some((seat, legal, setup)));
        }
    }
    Some(None)
}

/// Plays one random legal action in `game`.
fn step(addr: SocketAddr, game: &mut Game, rng: &mut impl Rng) -> Step {
    let (seat, legal, setup) = match turn(addr, game) {
        None => return Step::Down,
        Some(None) => return Step::Idle,
        Some(Some(turn)) => turn,
    };
    let text = if setup {
        "setup random".to_string()
    } else {
        legal.choose(rng).unwrap().clone()
    };
    let path = format!("/api/games/{}/action", game.id);
    let body = json!({ "action": text });
    match request(addr, "POST", &path, Some(&game.tokens[seat]), Some(&body)) {
        Some((200, answer)) => {
            let entries = answer["entries"].as_u64().unwrap();
            game.acked.push(Ack {
                seat,
                text,
                entries,
            });
            Step::Acted
        }
        // The rate limit: slow down, as a client should.
        Some((429, _)) => {
            std::thread::sleep(Duration::from_millis(20));
            Step::Idle
        }
        Some((status, answer)) => panic!("{text}: {status} {answer}"),
        None => {
            game.unanswered += 1;
            Step::Down
        }
    }
}

/// Plays the games until the server stops answering or `stop` is set; gives them back.
fn play(addr: SocketAddr, mut games: Vec<Game>, stop: Arc<AtomicBool>) -> Vec<Game> {
    let mut rng = rand::rng();
    // With no game left to play, nothing would notice the server going down: stop.
    while !stop.load(Ordering::SeqCst) && games.iter().any(|g| !g.over) {
        let mut idle = true;
        for game in games.iter_mut().filter(|g| !g.over) {
            match step(addr, game, &mut rng) {
                Step::Acted => idle = false,
                Step::Idle => {}
                Step::Down => return games,
            }
        }
        if idle {
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    games
}

/// Runs `players` client threads on their shares of `games` until `stop` is set or the server
/// goes down.
fn under_load(
    addr: SocketAddr,
    games: Vec<Game>,
    players: usize,
    stop: &Arc<AtomicBool>,
) -> Vec<std::thread::JoinHandle<Vec<Game>>> {
    let mut shares: Vec<Vec<Game>> = (0..players).map(|_| Vec::new()).collect();
    for (i, game) in games.into_iter().enumerate() {
        shares[i % players].push(game);
    }
    shares
        .into_iter()
        .map(|share| {
            let stop = stop.clone();
            std::thread::spawn(move || play(addr, share, stop))
        })
        .collect()
}

fn join_all(handles: Vec<std::thread::JoinHandle<Vec<Game>>>) -> Vec<Game> {
    handles
        .into_iter()
        .flat_map(|h| h.join().expect("a client thread panicked"))
        .collect()
}

/// What the records say about the acknowledged actions.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    acked: usize,
    found: usize,
    lost: usize,
    duplicates: usize,
    unanswered: usize,
    unanswered_stored: usize,
}

/// A request without a body that waits out the rate limit (429), as a client should, for at
/// most ten seconds.
fn patient(
    addr: SocketAddr,
    method: &str,
    path: &str,
    token: Option<&str>,
) -> (u16, serde_json::Value) {
    for _ in 0..200 {
        let (status, answer) = request(addr, method, path, token, None).unwrap();
        if status != 429 {
            return (status, answer);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("{method} {path}: still rate limited after ten seconds")
}

/// Ends every game (White resigns) and reads each record: every acknowledged action must be at
/// the place its answer gave, exactly once; the only other actions of the seats are ones whose
/// answer never came.
fn tally(addr: SocketAddr, games: &[Game]) -> Tally {
    let mut tally = Tally::default();
    for game in games {
        let path = format!("/api/games/{}/record", game.id);
        let (mut status, mut record) = patient(addr, "GET", &path, None);
        if status == 409 {
            let resign = format!("/api/games/{}/resign", game.id);
            let (s, answer) = patient(addr, "POST", &resign, Some(&game.tokens[0]));
            assert_eq!(s, 200, "resign: {answer}");
            (status, record) = patient(addr, "GET", &path, None);
        }
        assert_eq!(status, 200, "record of {}: {record}", game.id);
        let actions = record["actions"].as_array().unwrap();
        let seat_actions: Vec<usize> = (0..actions.len())
            .filter(|&i| actions[i]["actor"] != "chance")
            .collect();
        let mut matched = vec![false; actions.len()];
        for ack in &game.acked {
            // The game's log starts with the join; after it, log and record list the same
            // actions (rolls included) in the same order.
            let at = ack.entries as usize - 2;
            let actor = ["white", "black"][ack.seat];
            let here = actions.get(at).is_some_and(|a| {
                a["actor"] == actor && (ack.text.starts_with("setup ") || a["text"] == *ack.text)
            });
            if here && !matched[at] {
                matched[at] = true;
                tally.found += 1;
            } else if here {
                tally.duplicates += 1;
            } else {
                tally.lost += 1;
                eprintln!(
                    "game {}: acknowledged {:?} at {at} is not in {record}",
                    game.id, ack.text
                );
            }
        }
        let unmatched = seat_actions.iter().filter(|&&i| !matched[i]).count();
        tally.unanswered_stored += unmatched.min(game.unanswered);
        tally.duplicates += unmatched.saturating_sub(game.unanswered);
        tally.games += 1;
        tally.acked += game.acked.len();
        tally.unanswered += game.unanswered;
    }
    tally
}

fn assert_exactly_once(tally: &Tally) {
    assert!(tally.acked > 0, "{tally:?}");
    assert_eq!(tally.found, tally.acked, "{tally:?}");
    assert_eq!((tally.lost, tally.duplicates), (0, 0), "{tally:?}");
}

fn cleanup(db: &Path) {
    let _ = std::fs::remove_dir_all(db.parent().unwrap());
}

/// White resigns a game long enough to slow the restarts (each replays every unfinished game).
fn end_if_long(addr: SocketAddr, game: &mut Game) {
    if game.over || game.acked.len() < 60 {
        return;
    }
    let path = format!("/api/games/{}/resign", game.id);
    if let Some((200, _)) = request(addr, "POST", &path, Some(&game.tokens[0]), None) {
        game.over = true;
    }
}

/// Opens games until there are `n` live ones (as the limits allow).
fn top_up(addr: SocketAddr, games: &mut Vec<Game>, done: &mut Vec<Game>, n: usize) {
    games.iter_mut().for_each(|g| end_if_long(addr, g));
    let (over, live): (Vec<Game>, Vec<Game>) = games.drain(..).partition(|g| g.over);
    done.extend(over);
    *games = live;
    let mut rng = rand::rng();
    while games.len() < n {
        match new_game(addr, variants().choose(&mut rng).unwrap()) {
            Some(game) => games.push(game),
            None => break,
        }
    }
}

#[test]
#[ignore = "heavy: run in release"]
fn sigkill_under_load_loses_and_duplicates_no_acknowledged_action() {
    let kills: usize = std::env::var("BLUFFCHESS_KILLS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    // A kill costs well under a second in release; a hung restart must still end the test.
    let bound = Duration::from_secs(120 + 4 * kills as u64);
    let db = temp_db("kills");
    let started = Instant::now();
    let mut rng = rand::rng();
    let (mut games, mut done) = (Vec::new(), Vec::new());
    for kill in 0..kills {
        let mut server = serve(&db);
        top_up(server.addr, &mut games, &mut done, 8);
        let stop = Arc::new(AtomicBool::new(false));
        let handles = under_load(server.addr, std::mem::take(&mut games), 4, &stop);
        std::thread::sleep(Duration::from_millis(rng.random_range(20..200)));
        server.kill();
        games = join_all(handles);
        assert!(
            started.elapsed() < bound,
            "{kill} kills took longer than {bound:?}"
        );
    }
    let mut server = serve(&db);
    done.append(&mut games);
    println!(
        "faults (SIGKILL): {kills} kills in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    report("SIGKILL", server.addr, &done);
    server.kill();
    cleanup(&db);
}

/// Sends the start of a request, then drops the connection: `reset` makes it a TCP reset.
fn drop_midway(addr: SocketAddr, bytes: &[u8], reset: bool) {
    let stream = TcpStream::connect(addr).unwrap();
    let mut stream = socket2::Socket::from(stream);
    stream.write_all(bytes).unwrap();
    if reset {
        stream.set_linger(Some(Duration::ZERO)).unwrap();
    }
}

/// A server on `db` with an open game of each variant, both seats taken.
fn one_game_each(db: &Path) -> (Serve, Vec<Game>) {
    let server = serve(db);
    let games = variants()
        .iter()
        .map(|v| new_game(server.addr, v).unwrap())
        .collect();
    (server, games)
}

/// Reads the records back, says what they hold, and checks every acknowledged action is there
/// exactly once.
fn report(what: &str, addr: SocketAddr, games: &[Game]) {
    let tally = tally(addr, games);
    println!("faults ({what}): {tally:?}");
    assert_exactly_once(&tally);
}

/// Plays a few acknowledged actions in each game, to show the server still serves.
fn still_serves(addr: SocketAddr, games: &mut [Game]) {
    let mut rng = rand::rng();
    for game in games.iter_mut().filter(|g| !g.over) {
        for _ in 0..2 {
            assert!(!matches!(step(addr, game, &mut rng), Step::Down));
        }
    }
}

#[test]
#[ignore = "heavy: run in release"]
fn connections_dropped_and_reset_mid_message_change_nothing() {
    let db = temp_db("drops");
    let (mut server, mut games) = one_game_each(&db);
    let addr = server.addr;
    let mut rng = rand::rng();
    for round in 0..40 {
        let game = &games[round % games.len()];
        let path = format!("/api/games/{}/action", game.id);
        let body = json!({"action": "e2e4"}).to_string();
        let full = head(addr, "POST", &path, Some(&game.tokens[0]), body.len()) + &body;
        let cut = rng.random_range(1..full.len());
        drop_midway(addr, &full.as_bytes()[..cut], round % 2 == 1);
        // A stream read halfway and dropped.
        let mut stream = TcpStream::connect(addr).unwrap();
        let view = head(
            addr,
            "GET",
            &format!("/api/games/{}/stream", game.id),
            None,
            0,
        );
        stream.write_all(view.as_bytes()).unwrap();
        let mut some = [0u8; 64];
        let _ = stream.read(&mut some).unwrap();
        drop(stream);
        still_serves(addr, &mut games);
    }
    // A whole action sent, its answer never read: it counts as unanswered.
    for game in games.iter_mut().filter(|g| !g.over) {
        if let Some(Some((seat, legal, setup))) = turn(addr, game) {
            let text = if setup {
                "setup random"
            } else {
                legal[0].as_str()
            };
            let body = json!({ "action": text }).to_string();
            let path = format!("/api/games/{}/action", game.id);
            let full = head(addr, "POST", &path, Some(&game.tokens[seat]), body.len()) + &body;
            drop_midway(addr, full.as_bytes(), true);
            game.unanswered += 1;
        }
    }
    std::thread::sleep(Duration::from_millis(200));
    still_serves(addr, &mut games);
    report("drops", addr, &games);
    server.kill();
    cleanup(&db);
}

/// Sends `bytes` one at a time, `pause` apart, until `stop`; then drops the connection.
fn trickle(addr: SocketAddr, bytes: Vec<u8>, pause: Duration, stop: Arc<AtomicBool>) {
    let Ok(mut stream) = TcpStream::connect(addr) else {
        return;
    };
    for byte in bytes {
        if stop.load(Ordering::SeqCst) || stream.write_all(&[byte]).is_err() {
            return;
        }
        std::thread::sleep(pause);
    }
}

/// A request with a body of `len` bytes where the head says `declared`: its status.
fn oversized(addr: SocketAddr, path: &str, declared: usize, len: usize) -> Option<u16> {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(head(addr, "POST", path, None, declared).as_bytes())
        .unwrap();
    // The server may answer and close before it has read it all.
    let _ = stream.write_all(&vec![b' '; len]);
    answer(&mut stream).map(|(status, _)| status)
}

/// A request answered within `limit`, with a status that is not a server error.
fn answered_within(addr: SocketAddr, path: &str, limit: Duration) {
    let start = Instant::now();
    let (status, body) = request(addr, "GET", path, None, None).expect("an answer");
    assert!(status < 500, "{path}: {status} {body}");
    assert!(start.elapsed() < limit, "{path} took {:?}", start.elapsed());
}

#[test]
#[ignore = "heavy: run in release"]
fn slow_partial_and_oversized_requests_and_floods_do_not_stop_the_server() {
    let db = temp_db("slow");
    let (mut server, mut games) = one_game_each(&db);
    let addr = server.addr;
    still_serves(addr, &mut games);
    let view = format!("/api/games/{}/view", games[0].id);
    // Slowloris: heads and bodies a byte at a time, while others are served.
    let stop = Arc::new(AtomicBool::new(false));
    let slow: Vec<_> = (0..200)
        .map(|i| {
            let path = format!("/api/games/{}/action", games[i % games.len()].id);
            let mut bytes = head(addr, "POST", &path, None, 40).into_bytes();
            if i % 2 == 0 {
                bytes.truncate(bytes.len() - 4);
            }
            let stop = stop.clone();
            std::thread::spawn(move || trickle(addr, bytes, Duration::from_millis(50), stop))
        })
        .collect();
    for _ in 0..20 {
        answered_within(addr, &view, Duration::from_secs(2));
        still_serves(addr, &mut games);
        std::thread::sleep(Duration::from_millis(100));
    }
    stop.store(true, Ordering::SeqCst);
    slow.into_iter().for_each(|t| t.join().unwrap());
    // Oversized bodies: refused with 413, declared or not.
    let path = format!("/api/games/{}/action", games[0].id);
    assert_eq!(oversized(addr, &path, 10_000_000, 1_000_000), Some(413));
    assert_eq!(oversized(addr, "/api/games", 100_000, 100_000), Some(413));
    // A flood: a thousand connections held open at once, then a burst of requests.
    let flood: Vec<TcpStream> = (0..1000)
        .filter_map(|_| TcpStream::connect(addr).ok())
        .collect();
    answered_within(addr, &view, Duration::from_secs(5));
    drop(flood);
    let burst: Vec<_> = (0..200)
        .map(|_| {
            let view = view.clone();
            std::thread::spawn(move || request(addr, "GET", &view, None, None))
        })
        .collect();
    for answer in burst {
        let (status, body) = answer.join().unwrap().expect("an answer");
        assert!(status == 200 || status == 429, "{status} {body}");
    }
    still_serves(addr, &mut games);
    report("slow, oversized, floods", addr, &games);
    server.kill();
    cleanup(&db);
}

/// A small tmpfs, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    /// Mounts a tmpfs of `size` (e.g. `2m`) at a fresh folder, or says why it cannot.
    fn tmpfs(size: &str) -> Result<Mount, String> {
        let dir = std::env::temp_dir().join(format!("bluffchess-full-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let out = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&dir)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            let _ = std::fs::remove_dir(&dir);
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(Mount(dir))
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

/// Writes a file until the disk is full.
fn fill(path: &Path) {
    let mut file = std::fs::File::create(path).unwrap();
    let block = vec![0u8; 16 * 1024];
    while file.write_all(&block).is_ok() {}
    let _ = file.sync_all();
}

/// Tries one action in each live game: each answer is 200 (stored) or 503 (not played).
fn act_on_full_disk(addr: SocketAddr, games: &mut [Game]) -> (usize, usize) {
    let mut rng = rand::rng();
    let (mut stored, mut refused) = (0, 0);
    for game in games.iter_mut().filter(|g| !g.over) {
        let Some(Some((seat, legal, setup))) = turn(addr, game) else {
            continue;
        };
        let text = if setup {
            "setup random".to_string()
        } else {
            legal.choose(&mut rng).unwrap().clone()
        };
        let path = format!("/api/games/{}/action", game.id);
        let body = json!({ "action": text });
        let (status, answer) =
            request(addr, "POST", &path, Some(&game.tokens[seat]), Some(&body)).unwrap();
        match status {
            200 => {
                let entries = answer["entries"].as_u64().unwrap();
                game.acked.push(Ack {
                    seat,
                    text,
                    entries,
                });
                stored += 1;
            }
            503 => refused += 1,
            429 => std::thread::sleep(Duration::from_millis(20)),
            _ => panic!("on a full disk {text}: {status} {answer}"),
        }
    }
    (stored, refused)
}

#[test]
#[ignore = "heavy: run in release; needs root to mount a tmpfs"]
fn a_full_disk_refuses_actions_it_cannot_store_and_recovers() {
    let mount = match Mount::tmpfs("2m") {
        Ok(mount) => mount,
        Err(why) => {
            println!("faults (disk full): not run, no tmpfs can be mounted here: {why}");
            return;
        }
    };
    let db = mount.0.join("games.db");
    let (mut server, mut games) = one_game_each(&db);
    let addr = server.addr;
    still_serves(addr, &mut games);
    let filler = mount.0.join("filler");
    let (mut stored, mut refused) = (0, 0);
    for _ in 0..20 {
        fill(&filler);
        let (s, r) = act_on_full_disk(addr, &mut games);
        (stored, refused) = (stored + s, refused + r);
    }
    assert!(refused > 0, "the disk never filled: {stored} stored");
    std::fs::remove_file(&filler).unwrap();
    still_serves(addr, &mut games);
    server.kill();
    let mut server = serve(&db);
    still_serves(server.addr, &mut games);
    println!("faults (disk full): {stored} actions stored and {refused} refused on a full disk");
    report("disk full", server.addr, &games);
    server.kill();
    drop(mount);
}
