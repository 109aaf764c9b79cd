//! `bluffchess serve`'s bots on the real binary: a budget over the caps is refused, no search
//! burns a core once its answer is in, and SIGTERM ends the process within the drain time
//! while a bot is thinking.

mod common;

use common::{request, serve};
use serde_json::{json, Value};
use std::process::Command;
use std::time::{Duration, Instant};

/// The process's CPU time (user and system, all threads) in seconds, from `/proc`.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command's closing parenthesis; utime and stime are the 14th and
    // 15th of the line, in clock ticks (100 a second on Linux).
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

fn create(addr: std::net::SocketAddr, body: Value) -> (u16, Value) {
    request(addr, "POST", "/api/games", None, Some(&body)).unwrap()
}

/// Waits until the seat may act (the bot has answered).
/// Waits until the seat may act; returns its legal actions' texts.
fn until_my_turn(addr: std::net::SocketAddr, id: &str, token: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let path = format!("/api/games/{id}/view");
        let (status, view) = request(addr, "GET", &path, Some(token), None).unwrap();
        assert_eq!(status, 200, "{view}");
        let legal: Vec<String> = view["legal"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str().or_else(|| a["text"].as_str()))
            .map(str::to_string)
            .collect();
        if !legal.is_empty() {
            return legal;
        }
        assert!(Instant::now() < deadline, "the bot never answered");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(target_os = "linux")]
#[test]
fn bots_are_capped_searches_end_and_sigterm_ends_the_process() {
    let db = std::env::temp_dir().join(format!("bluffchess-serve-bots-{}.db", std::process::id()));
    let mut server = serve(&db);
    let addr = server.addr;
    let (status, answer) = create(
        addr,
        json!({"variant": "chess", "opponent": "bot:ismcts:iterations=18446744073709551615"}),
    );
    assert_eq!(status, 400, "{answer}");
    assert_eq!(
        answer["error"],
        "bot parameter iterations may be at most 100000 on this server"
    );

    // The most a client may ask, in the slowest search: the bot answers, and then the
    // process is idle.
    let (status, created) = create(
        addr,
        json!({"variant": "bs", "color": "white",
               "opponent": "bot:ismcts:iterations=100000,samples=64,ms=2000"}),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let token = created["token"].as_str().unwrap();
    let path = format!("/api/games/{id}/action");
    let play = |action: &str| {
        let body = json!({ "action": action });
        let (status, answer) = request(addr, "POST", &path, Some(token), Some(&body)).unwrap();
        assert_eq!(status, 200, "{action}: {answer}");
    };
    play("setup standard");
    until_my_turn(addr, id, token);
    play("e2e4");
    // The bot answers the move (a call or an acceptance), then moves: White answers that.
    until_my_turn(addr, id, token);
    play("accept");
    let pid = server.child.id();
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(2));
    let burnt = cpu_seconds(pid) - before;
    assert!(
        burnt < 0.5,
        "{burnt} s of CPU in 2 s with no bot to answer: a search ran on"
    );

    // SIGTERM while the bot thinks: the process ends within the drain time (3 s) and a margin.
    // Any move will do (the bot's own move, drawn from a secret seed, may have taken a pawn).
    let legal = until_my_turn(addr, id, token);
    let mv = legal
        .iter()
        .find(|a| !matches!(a.as_str(), "accept" | "call"))
        .expect("White has a move");
    play(mv);
    let killed = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let asked = Instant::now();
    let deadline = asked + Duration::from_secs(8);
    loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        assert!(Instant::now() < deadline, "SIGTERM did not end the process");
        std::thread::sleep(Duration::from_millis(20));
    }
    eprintln!("the process ended {:?} after SIGTERM", asked.elapsed());
    let _ = std::fs::remove_file(&db);
}
