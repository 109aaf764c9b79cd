//! `bluffchess engine` driven like an outside program: one JSON line in, one out.

use bluffchess_rules::{Actor, AnyGame, SaltSource, Seat, VARIANTS};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start(bot: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
            .args(["engine", "--bot", bot, "--seed", "3"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Engine {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends a line and reads the answer, with the time it took.
    fn ask(&mut self, line: &str) -> (Value, Duration) {
        let start = Instant::now();
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout.read_line(&mut answer).unwrap();
        (serde_json::from_str(&answer).unwrap(), start.elapsed())
    }
}

/// A game of `variant` after `plies` random actions, and its actor's request.
/// An `act` request for the seat to act after `plies` random actions, and the game, which must
/// accept the answer (a listed action, or any valid setup when one is due).
fn request(variant: &str, plies: usize, movetime: u64) -> Option<(Value, AnyGame)> {
    let mut game = AnyGame::new(variant, &Default::default(), 7, SaltSource::Seeded(7)).unwrap();
    for _ in 0..plies {
        match game.to_act()? {
            Actor::Chance => drop(game.roll().unwrap()),
            _ => {
                let action = game.random_action()?;
                game.play(&action).unwrap();
            }
        }
    }
    while game.to_act()? == Actor::Chance {
        game.roll().unwrap();
    }
    let color = game.to_act()?.color()?;
    let legal = game.legal_described()?;
    let line = json!({"cmd": "act", "view": game.view(Seat::from(color)), "legal": legal.actions,
        "legal_actions": legal.legal_actions, "setup": legal.setup, "movetime_ms": movetime});
    Some((line, game))
}

#[test]
fn the_engine_answers_legal_actions_and_refuses_bad_lines_without_dying() {
    let mut engine = Engine::start("ismcts:iterations=50");
    let bad = [
        ("{", "not JSON"),
        ("[1]", "a request is a JSON object"),
        (r#"{"cmd":"think"}"#, "unknown command \"think\""),
        (r#"{"cmd":"act"}"#, "bad act request"),
        (
            r#"{"cmd":"act","view":{"variant":"fog"},"legal":["e2e4"]}"#,
            "unknown variant \"fog\"",
        ),
        (r#"{"cmd":"act","view":{},"legal":[]}"#, "names no variant"),
    ];
    for (line, error) in bad {
        let (answer, _) = engine.ask(line);
        assert_eq!(answer["ok"], false, "{line}");
        let text = answer["error"].as_str().unwrap();
        assert!(text.contains(error), "{line}: {text}");
    }
    for spec in VARIANTS {
        let (line, mut game) = request(spec.id, 12, 200).unwrap();
        let (answer, _) = engine.ask(&line.to_string());
        assert_eq!(answer["ok"], true, "{}: {answer}", spec.id);
        let action = answer["action"].as_str().unwrap();
        assert!(game.play(action).is_ok(), "{}: {action}", spec.id);
    }
    // legal_actions is optional, but when given it must be legal's actions in their order.
    let (mut line, _) = request("chess", 0, 50).unwrap();
    line.as_object_mut().unwrap().remove("legal_actions");
    assert_eq!(engine.ask(&line.to_string()).0["ok"], true);
    line["legal_actions"] = json!([{"text": "e2e4", "kind": "move", "from": "e2", "to": "e4"}]);
    let (answer, _) = engine.ask(&line.to_string());
    assert_eq!(answer["kind"], "bad-legal-actions", "{answer}");
    writeln!(engine.stdin, r#"{{"cmd":"quit"}}"#).unwrap();
    assert!(engine.child.wait().unwrap().success());
}

/// Release mode: `cargo test --release -p bluffchess --test engine -- --ignored`.
#[test]
#[ignore]
fn the_engine_answers_within_its_movetime_and_twenty_milliseconds() {
    let mut engine = Engine::start("default");
    for spec in VARIANTS {
        for plies in [0, 20, 60] {
            let Some((line, mut game)) = request(spec.id, plies, 50) else {
                continue;
            };
            let (answer, took) = engine.ask(&line.to_string());
            let action = answer["action"].as_str().unwrap();
            assert!(
                game.play(action).is_ok(),
                "{} after {plies}: {action}",
                spec.id
            );
            assert!(
                took <= Duration::from_millis(70),
                "{} after {plies}: {took:?}",
                spec.id
            );
        }
    }
}
