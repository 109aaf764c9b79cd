//! The `bluffchess` binary, driven as a user drives it.

use bluffchess_rules::belief::rules_view;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::{AlterEgo, Ambiguous, BluffMove, Bs, Chess, History, RealityCheck};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bluffchess(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// Sends arbiter commands, one a line; returns one answer a command.
fn arbiter(commands: &[Value]) -> Vec<Value> {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    arbiter_raw(&input)
}

fn arbiter_raw(input: &str) -> Vec<Value> {
    let output = bluffchess(&["arbiter"], input);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("every answer is JSON"))
        .collect()
}

#[test]
fn perft_prints_the_count_on_the_last_line() {
    let output = bluffchess(&["perft", "--depth", "3"], "");
    assert!(output.status.success());
    assert_eq!(stdout(&output), "8902\n");
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let output = bluffchess(
        &["perft", "--fen", kiwipete, "--depth", "2", "--divide"],
        "",
    );
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 48 + 2);
    assert!(lines.contains(&"e1g1: 43"), "{text}");
    assert_eq!(*lines.last().unwrap(), "2039");
}

#[test]
fn perft_runs_any_variant_through_the_game_api() {
    let output = bluffchess(
        &[
            "perft",
            "--variant",
            "chess",
            "--depth",
            "3",
            "--seed",
            "5",
            "--divide",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).ends_with("\n8902\n"));
}

#[test]
fn perft_refuses_bad_input_with_exit_code_2() {
    for (args, expected) in [
        (
            vec![
                "perft",
                "--depth",
                "2",
                "--fen",
                "8/8/8/8/8/8/8/8 w - - 0 1",
            ],
            "white has 0 kings",
        ),
        (
            vec!["perft", "--depth", "2", "--fen", "rnbqkbnr/ppp w"],
            "found 2 fields",
        ),
        (vec!["perft", "--depth", "13"], "13 is not in 0..=12"),
        (vec!["perft", "--depth", "two"], "invalid digit"),
        (
            vec!["perft", "--depth", "2", "--variant", "go"],
            "unknown variant \"go\"",
        ),
        (
            vec!["perft", "--depth", "2", "--option", "speed=fast"],
            "option \"speed\"",
        ),
    ] {
        let output = bluffchess(&args, "");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&output).contains(expected),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn the_arbiter_plays_a_game_and_keeps_its_record() {
    let answers = arbiter(&[
        json!({"cmd":"new","variant":"chess","options":{},"seed":7}),
        json!({"cmd":"legal"}),
        json!({"cmd":"play","action":"f2f3"}),
        json!({"cmd":"play","action":"e7e5"}),
        json!({"cmd":"play","action":"g2g4"}),
        json!({"cmd":"play","action":"d8h4"}),
        json!({"cmd":"outcome"}),
        json!({"cmd":"view","seat":"spectator"}),
        json!({"cmd":"record"}),
    ]);
    assert_eq!(
        answers[0],
        json!({"ok":true,"to_act":"white","variant":"chess","game_id":answers[0]["game_id"],
               "seed_commitment":answers[0]["seed_commitment"],"scripted":false})
    );
    assert_eq!(answers[1]["actions"].as_array().unwrap().len(), 20);
    assert_eq!(answers[2]["to_act"], "black");
    assert_eq!(answers[2]["events"][0]["text"], "f2f3");
    assert_eq!(
        answers[5]["outcome"],
        json!({"winner":"black","reason":"checkmate","text":"black wins by checkmate"})
    );
    assert_eq!(answers[6]["outcome"]["reason"], "checkmate");
    assert_eq!(answers[7]["view"]["events"].as_array().unwrap().len(), 5);
    let record = &answers[8]["record"];
    assert_eq!(record["actions"].as_array().unwrap().len(), 4);
    assert_eq!(record["outcome"]["winner"], "black");
}

#[test]
fn the_arbiter_refuses_bad_commands_and_changes_nothing() {
    let long = format!(
        "{{\"cmd\":\"play\",\"action\":\"{}\"}}\n",
        "e".repeat(70_000)
    );
    let input = [
        json!({"cmd":"new","variant":"chess","seed":1}).to_string(),
        json!({"cmd":"play","action":"e2e4"}).to_string(),
        json!({"cmd":"record"}).to_string(),
        "{not json".to_string(),
        "[1,2]".to_string(),
        json!({"action":"e7e5"}).to_string(),
        json!({"cmd":"teleport"}).to_string(),
        json!({"cmd":"play"}).to_string(),
        json!({"cmd":"play","action":"e2e4"}).to_string(),
        json!({"cmd":"play","action":"d2d4"}).to_string(),
        json!({"cmd":"play","action":"e7e6e5"}).to_string(),
        json!({"cmd":"play","action":"e7e8q"}).to_string(),
        json!({"cmd":"roll"}).to_string(),
        json!({"cmd":"view","seat":"referee"}).to_string(),
        json!({"cmd":"resign","seat":"spectator"}).to_string(),
        json!({"cmd":"accept_draw","seat":"white"}).to_string(),
        json!({"cmd":"claim_draw","seat":"black"}).to_string(),
        json!({"cmd":"new","variant":"shogi"}).to_string(),
        json!({"cmd":"new","variant":"chess","options":{"fast":"yes"}}).to_string(),
        json!({"cmd":"new","variant":"chess","seed":-4}).to_string(),
        long.trim_end().to_string(),
        json!({"cmd":"record"}).to_string(),
        json!({"cmd":"legal"}).to_string(),
    ]
    .join("\n");
    let answers = arbiter_raw(&format!("{input}\n"));
    assert_eq!(answers.len(), 23);
    let expected_errors = [
        (3, "malformed JSON"),
        (4, "must be a JSON object"),
        (5, "no \"cmd\" field"),
        (6, "unknown command \"teleport\""),
        (7, "needs a \"action\" field"),
        (8, "there is no piece on e2"),
        (9, "the piece on d2 is not black's"),
        (10, "cannot read action"),
        (11, "cannot move to e8"),
        (12, "not Chance's turn"),
        (13, "unknown seat \"referee\""),
        (14, "spectator cannot resign"),
        (15, "no draw offer from black"),
        (16, "no draw can be claimed"),
        (17, "unknown variant \"shogi\""),
        (18, "option \"fast\""),
        (19, "\"seed\" must be a whole number"),
        (20, "input line too long"),
    ];
    for (i, text) in expected_errors {
        assert_eq!(answers[i]["ok"], false, "answer {i}: {}", answers[i]);
        let error = answers[i]["error"].as_str().unwrap();
        assert!(error.contains(text), "answer {i}: {error}");
    }
    // The game is the one it was before the refused commands.
    assert_eq!(answers[21], answers[2]);
    assert_eq!(answers[22]["to_act"], "black");
}

#[test]
fn a_scripted_terminal_game_ends_in_checkmate() {
    // With seed 0 the random bot lets the scholar's mate through.
    let output = bluffchess(
        &["play", "--variant", "chess", "--seed", "0"],
        "e2e4\nf1c4\nd1h5\nh5f7\n",
    );
    assert!(output.status.success());
    let text = stdout(&output);
    assert!(text.contains(" 1 | R N B . K . N R |"), "{text}");
    assert!(text.contains("legal: "), "{text}");
    assert!(
        text.contains("game over: white wins by checkmate"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("result: white wins by checkmate (you win)"),
        "{text}"
    );
}

#[test]
fn the_terminal_game_explains_refusals_and_plays_on() {
    let output = bluffchess(
        &["play", "--as", "black", "--seed", "4"],
        "help\ne2e4\nnonsense\nresign\n",
    );
    let text = stdout(&output);
    assert!(text.contains("draw offer     offer a draw"), "{text}");
    assert!(text.contains("refused: illegal action \"e2e4\""), "{text}");
    assert!(
        text.contains("refused: cannot read action \"nonsense\""),
        "{text}"
    );
    assert!(
        text.contains("result: white wins by resignation (you lose)"),
        "{text}"
    );
    // Black's view is drawn from Black's side.
    assert!(text.contains("     h g f e d c b a"), "{text}");
}

#[test]
fn play_refuses_unknown_variants_and_options() {
    let output = bluffchess(&["play", "--variant", "checkers"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("unknown variant \"checkers\""));
    let output = bluffchess(&["play", "--option", "x"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("is not name=value"));
}

fn record_of_a_finished_game() -> Value {
    let answers = arbiter(&[
        json!({"cmd":"new","variant":"chess","seed":3}),
        json!({"cmd":"play","action":"e2e4"}),
        json!({"cmd":"play","action":"e7e5"}),
        json!({"cmd":"resign","seat":"black"}),
        json!({"cmd":"record"}),
    ]);
    answers[4]["record"].clone()
}

fn verify(record: &Value) -> Output {
    let dir = std::env::temp_dir().join(format!("bluffchess-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.json", rand_name(record)));
    std::fs::write(&path, record.to_string()).unwrap();
    let output = bluffchess(&["verify", path.to_str().unwrap()], "");
    std::fs::remove_file(&path).ok();
    output
}

fn rand_name(record: &Value) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    record.to_string().hash(&mut hasher);
    format!("{:x}", hasher.finish())
}

#[test]
fn verify_accepts_a_sound_record() {
    let output = verify(&record_of_a_finished_game());
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("white wins by resignation"));
}

#[test]
fn verify_names_the_first_bad_entry() {
    let record = record_of_a_finished_game();
    let mut altered_action = record.clone();
    altered_action["actions"][1]["text"] = json!("e7e6");
    altered_action["actions"][1]["public"] = json!("e7e6");
    let mut altered_outcome = record.clone();
    altered_outcome["outcome"]["winner"] = json!("black");
    let mut illegal = record.clone();
    illegal["actions"][0]["text"] = json!("e2e5");
    let mut added_commitment = record.clone();
    added_commitment["actions"][0]["commitment"] = json!("00".repeat(32));
    let mut wrong_variant = record.clone();
    wrong_variant["variant"] = json!("xiangqi");
    for (bad, expected) in [
        (altered_action, "action 1: its digest does not match"),
        (altered_outcome, "outcome: recorded"),
        (illegal, "action 0: illegal action \"e2e5\""),
        (
            added_commitment,
            "action 0: a commitment on an action that is not hidden",
        ),
        (wrong_variant, "variant: unknown variant"),
    ] {
        let output = verify(&bad);
        assert_eq!(output.status.code(), Some(1), "{expected}");
        assert!(
            stderr(&output).contains(expected),
            "{expected}: {}",
            stderr(&output)
        );
    }
    let output = bluffchess(&["verify", "/nonexistent/record.json"], "");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("cannot read"));
}

/// `bluffchess sample` with `args`, the view on standard input.
fn sample(args: &[&str], stdin: &str) -> Output {
    let args: Vec<&str> = ["sample"].into_iter().chain(args.iter().copied()).collect();
    bluffchess(&args, stdin)
}

/// The histories a successful run printed.
fn histories(output: &Output) -> Vec<History> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout.clone())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON history a line"))
        .collect()
}

/// A game of `G` after `actions` random actions, each seat's view sampled by the binary: every
/// history replays, from the start, to the seat's view (commitments and salts aside).
fn histories_replay_to_the_view<G: Game>(options: &Options, actions: usize, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = G::new(options).unwrap();
    for _ in 0..actions {
        match random_action(&game, &mut rng) {
            Some(action) => game.apply(&action).unwrap(),
            None => break,
        }
    }
    for seat in Seat::ALL {
        let json = serde_json::to_string(&game.view(seat)).unwrap();
        let printed = histories(&sample(&["--count", "3", "--seed", "9"], &json));
        assert_eq!(printed.len(), 3, "{} {seat}", G::ID);
        let (expected, revealed) = rules_view(&game.view(seat));
        for history in printed {
            assert_eq!(history.variant, G::ID);
            let mut replayed = G::new(&history.options).unwrap();
            for text in &history.actions {
                replayed.apply_text(text).unwrap();
            }
            let seen = replayed.view_revealed(seat, revealed);
            assert_eq!(seen.events, expected.events, "{} {seat}", G::ID);
            assert_eq!(seen.position, expected.position, "{} {seat}", G::ID);
        }
    }
}

#[test]
fn every_variants_histories_replay_to_the_seats_view() {
    let options = Options::new();
    histories_replay_to_the_view::<Chess>(&options, 20, 1);
    histories_replay_to_the_view::<AlterEgo>(&options, 20, 2);
    histories_replay_to_the_view::<Ambiguous>(&options, 20, 3);
    histories_replay_to_the_view::<BluffMove>(&options, 30, 4);
    histories_replay_to_the_view::<RealityCheck>(&options, 20, 5);
    histories_replay_to_the_view::<Bs>(&options, 20, 6);
    let dice: Options = [("dice".to_string(), "true".to_string())]
        .into_iter()
        .collect();
    histories_replay_to_the_view::<RealityCheck>(&dice, 20, 7);
}

/// A JSON value without its `commitment` and `salt` fields.
fn without_secrets(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("commitment");
            map.remove("salt");
            map.values_mut()
                .for_each(|v| *v = without_secrets(v.take()));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|v| *v = without_secrets(v.take())),
        _ => {}
    }
    value
}

/// Black's view after White's hidden moves, from the arbiter; a printed history played through
/// another arbiter gives Black the same view.
#[test]
fn a_history_played_through_the_arbiter_gives_the_same_view() {
    let plays = ["bluff e2e4", "d7d5", "g1f3", "b8c6", "e4d5"];
    let mut commands = vec![json!({"cmd": "new", "variant": "bluff-move", "seed": 3})];
    commands.extend(plays.iter().map(|a| json!({"cmd": "play", "action": a})));
    commands.push(json!({"cmd": "view", "seat": "black"}));
    let view = arbiter(&commands).pop().unwrap()["view"].take();
    let printed = histories(&sample(&["--count", "4"], &view.to_string()));
    for history in printed {
        let mut commands = vec![json!({"cmd": "new", "variant": history.variant, "seed": 8})];
        commands.extend(
            history
                .actions
                .iter()
                .map(|a| json!({"cmd": "play", "action": a})),
        );
        commands.push(json!({"cmd": "view", "seat": "black"}));
        let answers = arbiter(&commands);
        assert!(answers.iter().all(|a| a["ok"] == true), "{answers:?}");
        let replayed = answers.last().unwrap()["view"].clone();
        assert_eq!(without_secrets(replayed), without_secrets(view.clone()));
    }
}

#[test]
fn the_same_view_and_seed_print_the_same_histories() {
    let mut game = BluffMove::new(&Options::new()).unwrap();
    for text in ["bluff e2e4", "d7d5", "bluff g1f3", "e7e5"] {
        game.apply_text(text).unwrap();
    }
    let json = serde_json::to_string(&game.view(Seat::Black)).unwrap();
    let first = sample(&["--count", "5", "--seed", "11"], &json);
    let again = sample(&["--count", "5", "--seed", "11"], &json);
    assert_eq!(histories(&first), histories(&again));
    assert_eq!(histories(&first).len(), 5);
}

/// A refusal: exit code 2, nothing on standard output, and a message containing `names`.
fn assert_refused(stdin: &str, names: &str) {
    let output = sample(&[], stdin);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(output.stdout.is_empty());
    assert!(stderr.contains(names), "{stderr:?} does not say {names:?}");
}

#[test]
fn bad_views_are_refused_naming_the_problem() {
    assert_refused("{\"variant\": ", "not a view");
    assert_refused("[1, 2]", "names no variant");
    assert_refused(r#"{"variant": "fog"}"#, "unknown variant \"fog\"");
    let mut game = Chess::new(&Options::new()).unwrap();
    game.apply_text("e2e4").unwrap();
    let mut view = serde_json::to_value(game.view(Seat::White)).unwrap();
    // A move the rules do not allow after the events before it.
    view["events"][0]["text"] = json!("e2e5");
    assert_refused(&view.to_string(), "impossible view");
    let mut game = BluffMove::new(&Options::new()).unwrap();
    game.apply_text("bluff e2e4").unwrap();
    game.apply_text("d7d5").unwrap();
    let mut view = serde_json::to_value(game.view(Seat::Black)).unwrap();
    // White's image cannot come from a square where White has nothing.
    view["events"][0]["text"] = json!("e3e4");
    assert_refused(&view.to_string(), "impossible view");
}

/// An outside program over the engine protocol: the arena sends it each decision with
/// `legal_actions` beside `legal`, and here the program is this binary's own engine, which
/// reads them (a malformed request would forfeit the game).
#[test]
fn the_arena_plays_an_outside_program_over_the_engine_protocol() {
    let engine = format!(
        "cmd:{} engine --bot random",
        env!("CARGO_BIN_EXE_bluffchess")
    );
    let output = bluffchess(
        &[
            "arena",
            "--variant",
            "bs",
            "--bot",
            &engine,
            "--bot",
            "random",
            "--games",
            "2",
            "--movetime",
            "200",
        ],
        "",
    );
    let table = stdout(&output);
    assert!(output.status.success(), "{}{}", table, stderr(&output));
    assert!(!table.contains("forfeits"), "{table}");
    assert!(table.contains("Arena: bs"), "{table}");
}
