//! The terminal and the records as a new player meets them: `play`, `rules`, `--help`, `verify`
//! and the arbiter, driven through the real binary's standard input and output.

use bluffchess_rules::registry::VARIANTS;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Output, Stdio};

fn bluffchess(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A game that ends early stops reading: a broken pipe here is no failure.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).unwrap()
}

/// `play` with these arguments and input lines; its standard output.
fn play(args: &[&str], lines: &[&str]) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let output = bluffchess(&all, &input);
    assert!(output.status.success(), "{}", stderr(&output));
    stdout(&output)
}

/// The text between the first line containing `from` and the next prompt after it.
fn after<'a>(text: &'a str, from: &str) -> &'a str {
    let start = text
        .find(from)
        .unwrap_or_else(|| panic!("{from:?} in {text}"));
    let rest = &text[start..];
    let end = ["\nwhite> ", "\nblack> ", "\nchance> "]
        .iter()
        .filter_map(|prompt| rest.find(prompt))
        .min()
        .unwrap_or(rest.len());
    &rest[..end]
}

const BOARD_EDGE: &str = "+-----------------+";

// Item 1: terminal commands never shadow a variant's actions.

#[test]
fn a_bs_player_accepts_and_calls() {
    // Seed 8: the bot accepts e2e4 and answers with d7a4.
    let text = play(
        &["--variant", "bs", "--seed", "8"],
        &["setup standard", "e2e4", "accept", "quit"],
    );
    assert!(
        text.contains("answer d7a4: call (test it) or accept"),
        "{text}"
    );
    assert!(text.contains("   6. white: accept"), "{text}");
    assert!(!text.contains("refused"), "{text}");
    let text = play(
        &["--variant", "bs", "--seed", "8"],
        &["setup standard", "e2e4", "call", "quit"],
    );
    // After the call it is White's move again: the board is drawn before the prompt.
    let called = after(&text, "6. white: call");
    assert!(called.contains("the piece on d7 is a pawn"), "{called}");
    assert!(called.contains(BOARD_EDGE), "{called}");
}

#[test]
fn draw_words_are_the_terminals_and_accept_is_an_action() {
    let text = play(
        &["--seed", "4"],
        &[
            "accept",
            "draw accept",
            "draw decline",
            "draw",
            "draw offer",
            "quit",
        ],
    );
    assert!(
        text.contains("refused: cannot read action \"accept\""),
        "{text}"
    );
    assert!(
        text.contains("refused: there is no draw offer from black to accept"),
        "{text}"
    );
    assert!(
        text.contains("refused: there is no draw offer from black to decline"),
        "{text}"
    );
    assert!(
        text.contains("refused: type draw offer, draw accept"),
        "{text}"
    );
    assert!(text.contains("white offers a draw"), "{text}");
    let text = play(&["--seed", "4"], &["e2e4", "draw claim", "resign"]);
    assert!(
        text.contains("refused: no draw can be claimed now"),
        "{text}"
    );
    assert!(
        text.contains("game over: black wins by resignation"),
        "{text}"
    );
}

#[test]
fn no_terminal_command_is_the_first_word_of_an_action() {
    let text = play(&[], &["help", "quit"]);
    let commands: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.contains("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.contains(&"draw") && commands.contains(&"resign"));
    for spec in VARIANTS {
        for form in spec.actions {
            let first = form.example.split_whitespace().next().unwrap();
            assert!(!commands.contains(&first), "{}: {first}", spec.id);
        }
    }
}

// Item 2: redraws, prompts for the actor only, events before status, nothing after the end.

#[test]
fn the_seat_that_acts_again_sees_the_board_again() {
    let text = play(
        &["--variant", "reality-check", "--seed", "3"],
        &["setup random", "B3B4", "flip d2", "quit"],
    );
    let moved = after(&text, "white: b3b4");
    assert!(moved.contains("   a    b    c    d"), "{moved}");
    assert!(moved.contains("flip a piece: flip <square>"), "{moved}");
    // Playing Black, White's flip is announced, never prompted.
    let text = play(
        &["--variant", "reality-check", "--seed", "3", "--as", "black"],
        &["setup random", "quit"],
    );
    assert!(!text.contains("flip a piece: flip <square>"), "{text}");
    assert!(text.contains("White is flipping a piece"), "{text}");
    // Ambiguous, seed 1: the bot picks f2f3 for White's f3, names h6, and White picks.
    let text = play(
        &["--variant", "ambiguous", "--seed", "1"],
        &["f3", "h7h6", "quit"],
    );
    assert!(
        text.contains("Black is picking which of your pieces goes to f3"),
        "{text}"
    );
    assert!(
        text.contains("pick Black's move to h6: h7h6, g8h6"),
        "{text}"
    );
    let picked = after(&text, "white: h7h6");
    assert!(picked.contains(BOARD_EDGE), "{picked}");
    assert!(picked.contains("name a square (e4)"), "{picked}");
}

#[test]
fn the_advanced_board_is_drawn_and_played_in_the_terminal() {
    let text = play(
        &[
            "--variant",
            "reality-check",
            "--option",
            "board=advanced",
            "--seed",
            "3",
        ],
        &[
            "setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR hand=NN",
            "d1d2",
            "g3g4",
            "flip g4",
            "quit",
        ],
    );
    assert!(
        text.contains("set up on nine of your ten corner squares: setup random"),
        "{text}"
    );
    assert!(
        text.contains("\"d2\" for the Advanced board: it is one of the ten holes"),
        "{text}"
    );
    // Seven ranks; the holes (here b4 c4 e4 f4 on rank 4) are blank.
    let moved = after(&text, "white: g3g4");
    assert!(
        moved.contains("\n 4 .              .              P/R\n"),
        "{moved}"
    );
    assert!(
        moved.contains("\n 1 .    .    .    R/R  N/B  N/R  B/B\n"),
        "{moved}"
    );
    assert!(!moved.contains(" 8 "), "{moved}");
}

#[test]
fn the_waiting_seat_is_told_who_decides() {
    // Seed 0: Black's first move is a death move.
    let text = play(
        &["--variant", "alter-ego", "--seed", "0"],
        &["e2e4", "quit"],
    );
    let deciding = text
        .find("Black is deciding: stay or transfer")
        .expect(&text);
    let sealed = text.find("3. black: decision (sealed)").expect(&text);
    assert!(deciding < sealed, "{text}");
    assert!(!text.contains("decide: stay"), "{text}");
    // The event comes before the status it causes.
    assert!(text.find("death move").unwrap() < deciding);
    // Seed 20, playing Black: after the bot's e2e4, d7d5 is a death move and Black decides.
    let text = play(
        &["--variant", "alter-ego", "--as", "black", "--seed", "20"],
        &["d7d5", "stay", "quit"],
    );
    let decided = after(&text, "black: d7d5");
    assert!(decided.contains(BOARD_EDGE), "{decided}");
    assert!(
        decided.contains("decide: stay, or transfer <square>"),
        "{decided}"
    );
    assert!(text.contains("   3. black: stay"), "{text}");
    assert!(!text.contains("Black is deciding"), "{text}");
}

#[test]
fn moves_are_numbered_with_captures_and_checks_and_the_end_is_last() {
    // Seed 0: the random bot lets the scholar's mate through.
    let text = play(
        &["--variant", "chess", "--seed", "0"],
        &["e4", "Bc4", "Qh5", "Qxf7#"],
    );
    assert!(text.contains("   1. white: e2e4\n"), "{text}");
    assert!(
        text.contains("   7. white: h5f7, takes f7, check\n"),
        "{text}"
    );
    let end = text
        .find("game over: white wins by checkmate")
        .expect(&text);
    let rest: Vec<&str> = text[end..].lines().skip(1).collect();
    let (last, board) = rest.split_last().unwrap();
    assert_eq!(*last, "result: white wins by checkmate (you win)");
    assert!(board
        .iter()
        .all(|l| l.contains('|') || l.contains('+') || l.starts_with("     a")));
}

// Item 3: help per variant, --help and the rules from the binary.

/// The backquoted forms of a variant's row of the notation table in docs/arbiter.md.
fn notation_row(id: &str) -> Vec<String> {
    let doc = include_str!("../../../docs/arbiter.md");
    let table = &doc[doc
        .find("| variant | actions |")
        .expect("the notation table")..];
    let row = table
        .lines()
        .find(|l| l.starts_with(&format!("| `{id}` |")))
        .unwrap_or_else(|| panic!("{id} has a row in the notation table"));
    let cell = row.splitn(3, '|').nth(2).unwrap();
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(String::from)
        .collect()
}

#[test]
fn in_game_help_names_every_action_form_of_the_notation_table() {
    for spec in VARIANTS {
        let text = play(&["--variant", spec.id], &["help", "quit"]);
        let help = &text[text.find("Commands:").expect(&text)..];
        for form in notation_row(spec.id) {
            assert!(
                help.contains(&form),
                "{}: help lacks {form:?}\n{help}",
                spec.id
            );
        }
        let row = notation_row(spec.id);
        for form in spec.actions {
            assert!(
                row.iter().any(|f| f == form.example),
                "{}: the table lacks {:?}",
                spec.id,
                form.example
            );
        }
    }
}

#[test]
fn help_lists_every_variant_and_option_and_rules_are_built_in() {
    for command in ["play", "arbiter"] {
        let output = bluffchess(&[command, "--help"], "");
        let text = stdout(&output);
        for spec in VARIANTS {
            assert!(text.contains(spec.id), "{command}: {}", spec.id);
            for option in spec.options {
                let values = option.values.join("|");
                assert!(
                    text.contains(&format!("{}={values}", option.name)),
                    "{command}: {}",
                    option.name
                );
                assert!(text.contains(option.description), "{}", option.name);
            }
        }
    }
    let output = bluffchess(&["rules", "bs"], "");
    assert!(output.status.success());
    assert!(
        stdout(&output).starts_with("# BS Chess"),
        "{}",
        stdout(&output)
    );
    let output = bluffchess(&["rules", "fog"], "");
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.contains("unknown variant \"fog\""), "{err}");
    for spec in VARIANTS {
        assert!(err.contains(spec.id), "{err}");
    }
}

// Item 4: input as chess players type it; options that do not apply are refused.

#[test]
fn san_and_uci_in_any_case_are_played() {
    let text = play(&["--seed", "4"], &["E2E4", "Nf3", "Nf6", "quit"]);
    assert!(text.contains("   1. white: e2e4"), "{text}");
    assert!(text.contains("   3. white: g1f3"), "{text}");
    assert!(
        text.contains("refused: illegal action \"Nf6\": no legal move fits Nf6"),
        "{text}"
    );
    let text = play(&["--variant", "alter-ego", "--seed", "4"], &["e4", "quit"]);
    assert!(text.contains("   1. white: e2e4"), "{text}");
}

#[test]
fn options_and_flags_that_do_not_apply_are_refused() {
    for (args, expected) in [
        (
            vec!["play", "--option", "theme=silly"],
            "option \"theme\": unknown option: Orthodox Chess has no options",
        ),
        (
            vec!["play", "--variant", "bs", "--option", "spy=maybe"],
            "\"maybe\" is not one of its values: true, false",
        ),
        (
            vec![
                "play",
                "--variant",
                "reality-check",
                "--option",
                "dices=true",
            ],
            "the options of Reality Check are board, dice, flexible-setup, memory, strategic-retreat",
        ),
        (
            vec!["play", "--theme", "silly"],
            "--theme applies to BS Chess (bs) only",
        ),
        (
            vec!["play", "--variant", "bs", "--memory-mode"],
            "--memory-mode applies to Reality Check",
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
fn perft_takes_a_fen_without_move_counters() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    let output = bluffchess(&["perft", "--fen", kiwipete, "--depth", "2"], "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "2039\n");
}

// Items 5 and 6: verify, seeds and dice.

/// An arbiter process answering one line at a time.
struct Arbiter {
    child: Child,
    answers: BufReader<ChildStdout>,
}

impl Arbiter {
    fn start() -> Arbiter {
        let mut child = Command::new(env!("CARGO_BIN_EXE_bluffchess"))
            .arg("arbiter")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let answers = BufReader::new(child.stdout.take().unwrap());
        Arbiter { child, answers }
    }

    fn send(&mut self, line: &str) -> Value {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let mut answer = String::new();
        self.answers.read_line(&mut answer).unwrap();
        serde_json::from_str(&answer).unwrap()
    }

    fn cmd(&mut self, command: Value) -> Value {
        self.send(&command.to_string())
    }
}

impl Drop for Arbiter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A Reality Check game with dice played until Chance has rolled `rolls` times, then resigned:
/// the arbiter's whole `record` answer.
fn dice_game(scripted: bool, rolls: usize) -> Value {
    let mut arbiter = Arbiter::start();
    let new = arbiter.cmd(json!({"cmd":"new","variant":"reality-check","seed":11,
        "options":{"dice":"true"},"scripted":scripted}));
    assert_eq!(new["ok"], true, "{new}");
    assert!(new.get("seed").is_none(), "the seed stays secret: {new}");
    assert_eq!(new["seed_commitment"].as_str().unwrap().len(), 64);
    for _ in 0..2 {
        arbiter.cmd(json!({"cmd":"play","action":"setup random"}));
    }
    let mut rolled = 0;
    while rolled < rolls {
        let legal = arbiter.cmd(json!({"cmd":"legal"}));
        let action = legal["actions"][0].as_str().unwrap().to_string();
        if legal["to_act"] == "chance" {
            rolled += 1;
            if !scripted {
                let refused = arbiter.cmd(json!({"cmd":"play","action":action}));
                assert!(
                    refused["error"].as_str().unwrap().contains("roll it"),
                    "{refused}"
                );
                assert_eq!(arbiter.cmd(json!({"cmd":"roll"}))["ok"], true);
                continue;
            }
        }
        let answer = arbiter.cmd(json!({"cmd":"play","action":action}));
        assert_eq!(answer["ok"], true, "{answer}");
    }
    arbiter.cmd(json!({"cmd":"resign","seat":"black"}));
    let record = arbiter.send(r#"{"cmd":"record"}"#);
    assert_eq!(record["ok"], true);
    record
}

fn verify_stdin(input: &str) -> Output {
    bluffchess(&["verify", "-"], input)
}

fn first_roll(record: &Value) -> usize {
    record["actions"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a["actor"] == "chance")
        .expect("a roll")
}

#[test]
fn dice_come_from_the_committed_seed_and_verify_recomputes_them() {
    let answer = dice_game(false, 3);
    let output = verify_stdin(&answer.to_string());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report = stdout(&output);
    assert!(
        report.contains("3 rolls recomputed from the seed"),
        "{report}"
    );
    assert!(
        report.contains("the seed matches its commitment"),
        "{report}"
    );
    // One roll edited: refused, naming the roll.
    let mut record = answer["record"].clone();
    let i = first_roll(&record);
    let rolled = record["actions"][i]["text"].as_str().unwrap().to_string();
    let other = if rolled == "die 1" { "die 2" } else { "die 1" };
    record["actions"][i]["text"] = json!(other);
    record["actions"][i]["public"] = json!(other);
    let output = verify_stdin(&record.to_string());
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains(&format!(
            "action {i}: Chance's outcome \"{other}\" is not the seed's"
        )),
        "{err}"
    );
    // The seed edited: its commitment no longer opens.
    let mut record = answer["record"].clone();
    record["seed"] = json!(12);
    let output = verify_stdin(&record.to_string());
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("seed: the seed does not match its commitment"));
}

#[test]
fn a_scripted_game_chooses_chance_and_its_record_says_so() {
    let answer = dice_game(true, 2);
    assert_eq!(answer["record"]["scripted"], true);
    let output = verify_stdin(&answer["record"].to_string());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("2 rolls chosen by the players (a scripted game)"));
    // Unmarked as scripted, its rolls must be the seed's: not all the first outcomes are.
    let mut unmarked = answer["record"].clone();
    unmarked.as_object_mut().unwrap().remove("scripted");
    assert_eq!(verify_stdin(&unmarked.to_string()).status.code(), Some(1));
}

#[test]
fn play_types_chance_only_when_scripted_and_writes_the_record() {
    let dir = std::env::temp_dir().join(format!("bluffchess-term-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("scripted.json");
    let text = play(
        &[
            "--variant",
            "reality-check",
            "--option",
            "dice=true",
            "--seed",
            "3",
            "--scripted",
            "--record",
            path.to_str().unwrap(),
        ],
        &["setup random", "b3b4", "die 7", "die 5", "resign"],
    );
    assert!(
        text.contains("Chance acts: type its outcome, or roll"),
        "{text}"
    );
    assert!(
        text.contains("refused: cannot read action \"die 7\""),
        "{text}"
    );
    assert!(text.contains("chance: die 5"), "{text}");
    assert!(
        text.contains("the dice were typed: a scripted game"),
        "{text}"
    );
    let record: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(record["scripted"], true);
    let output = bluffchess(&["verify", path.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    std::fs::remove_dir_all(&dir).ok();
    // Not scripted: Chance rolls by itself and no prompt asks for it.
    let text = play(
        &[
            "--variant",
            "reality-check",
            "--option",
            "dice=true",
            "--seed",
            "3",
        ],
        &["setup random", "b3b4", "resign"],
    );
    assert!(text.contains("chance: die"), "{text}");
    assert!(!text.contains("chance>"), "{text}");
    // The end reveals the seed the dice came from.
    let end = &text[text.find("game over").expect(&text)..];
    assert!(
        end.contains("the dice came from seed 3, committed as "),
        "{end}"
    );
}

#[test]
fn verify_reads_answer_lines_and_standard_input_with_readable_errors() {
    let mut arbiter = Arbiter::start();
    arbiter.cmd(json!({"cmd":"new","variant":"chess","seed":3}));
    arbiter.cmd(json!({"cmd":"play","action":"e2e4"}));
    arbiter.cmd(json!({"cmd":"resign","seat":"black"}));
    let answer = arbiter.cmd(json!({"cmd":"record"}));
    let output = verify_stdin(&format!("{answer}\n"));
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("white wins by resignation"));
    let mut record = answer["record"].clone();
    record["outcome"]["winner"] = json!("black");
    let output = verify_stdin(&record.to_string());
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(
        err.contains("outcome: recorded \"black wins by resignation\", the replay gives \"white wins by resignation\""),
        "{err}"
    );
    for (input, expected) in [
        ("{not json", "standard input: not JSON"),
        (
            "{\"variant\":\"chess\"}",
            "not a game record (missing field",
        ),
        (
            "{\"ok\":false,\"error\":\"no game\"}",
            "an arbiter error, not a record",
        ),
    ] {
        let output = verify_stdin(input);
        assert_eq!(output.status.code(), Some(2), "{input}");
        let err = stderr(&output);
        assert!(err.contains(expected), "{input}: {err}");
        assert!(!err.contains("Error(") && !err.contains("Some("), "{err}");
    }
    let output = bluffchess(&["verify", "/nonexistent/record.json"], "");
    assert_eq!(output.status.code(), Some(2));
}

// Item 7: every line answered, unknown fields refused, meta events numbered.

#[test]
fn the_arbiter_answers_every_line_and_refuses_unknown_fields() {
    let mut arbiter = Arbiter::start();
    let blank = arbiter.send("");
    assert_eq!(blank["ok"], false);
    assert!(blank["error"].as_str().unwrap().contains("empty line"));
    arbiter.cmd(json!({"cmd":"new","variant":"chess","seed":1}));
    let typo = arbiter.cmd(json!({"cmd":"play","acton":"e2e4"}));
    assert_eq!(
        typo["error"],
        "unknown field \"acton\" in play: its fields are cmd, action"
    );
    let typo = arbiter.cmd(json!({"cmd":"new","variant":"chess","sead":1}));
    assert!(
        typo["error"].as_str().unwrap().contains("\"sead\""),
        "{typo}"
    );
    let legal = arbiter.cmd(json!({"cmd":"legal","seat":"white"}));
    assert!(
        legal["error"].as_str().unwrap().contains("\"seat\""),
        "{legal}"
    );
    // Nothing changed: White is still to move in the first game.
    assert_eq!(arbiter.cmd(json!({"cmd":"legal"}))["to_act"], "white");
}

#[test]
fn meta_events_are_numbered_by_the_actions_before_them() {
    let mut arbiter = Arbiter::start();
    arbiter.cmd(json!({"cmd":"new","variant":"chess","seed":1}));
    arbiter.cmd(json!({"cmd":"play","action":"e2e4"}));
    arbiter.cmd(json!({"cmd":"play","action":"e7e5"}));
    let offer = arbiter.cmd(json!({"cmd":"offer_draw","seat":"white"}));
    assert_eq!(offer["events"][0]["action"], 2);
    assert_eq!(offer["events"][0]["kind"], "meta");
    arbiter.cmd(json!({"cmd":"play","action":"g1f3"}));
    let view = arbiter.cmd(json!({"cmd":"view","seat":"spectator"}));
    let kinds: Vec<(u64, &str)> = view["view"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_u64().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [(0, "action"), (1, "action"), (2, "meta"), (2, "action")]
    );
    let record = arbiter.cmd(json!({"cmd":"record"}));
    assert_eq!(record["record"]["meta"][0]["after"], 2);
}

// Hidden information: a seat's screen shows nothing it may not know.

#[test]
fn the_screen_shows_no_hidden_choice_of_the_opponent() {
    for seed in 0..4 {
        let seed = seed.to_string();
        let bs = play(
            &["--variant", "bs", "--seed", &seed],
            &["setup standard", "quit"],
        );
        assert!(bs.contains("black: setup (sealed)"), "{bs}");
        assert!(
            !bs.lines()
                .any(|l| l.contains("black: setup ") && !l.contains("(sealed)")),
            "{bs}"
        );
        let rc = play(
            &["--variant", "reality-check", "--seed", &seed],
            &["setup random", "quit"],
        );
        assert!(!rc.lines().any(|l| l.contains("black: setup d")), "{rc}");
        let ego = play(
            &["--variant", "alter-ego", "--seed", &seed],
            &["e2e4", "quit"],
        );
        assert!(
            !ego.contains("black: stay") && !ego.contains("black: transfer"),
            "{ego}"
        );
    }
}
