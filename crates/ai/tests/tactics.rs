//! Tactics the default bot must find: a position is built by legal play from the start, the bot
//! is asked for the side to act with a budget of nodes (iterations), never of time, so that
//! each test is deterministic and independent of the machine's load, and the win it must find is
//! checked by playing it.

use bluffchess_ai::{Bot, BuiltIn, Decision};
use bluffchess_rules::board::board39::Square39;
use bluffchess_rules::{
    AnyGame, Color, EndReason, Options, Outcome, RealityCheck, SaltSource, Seat,
};

/// The bot's seeds: each test asks the bot once per seed, since the worlds it samples and its
/// mixing at bluff decisions depend on it.
const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// A game of `variant` with `options` (each set to `true`) after `actions`, each checked.
fn game_after(variant: &str, options: &[&str], actions: &[&str]) -> AnyGame {
    let options: Options = options
        .iter()
        .map(|name| (name.to_string(), "true".to_string()))
        .collect();
    let mut game = AnyGame::new(variant, &options, 1, SaltSource::Seeded(1)).unwrap();
    for (i, text) in actions.iter().enumerate() {
        game.play(text)
            .unwrap_or_else(|e| panic!("{variant}: action {i} {text:?} is refused: {e}"));
    }
    assert_eq!(game.outcome(), None, "{variant}: the game is not over");
    game
}

/// Plays what the default bot (seeded, with a budget of `iterations` nodes for alpha-beta or
/// iterations for ISMCTS, and no time limit) chooses for the seat to act from that seat's view
/// alone, and returns the action with the outcome it led to.
fn bot_plays(game: &mut AnyGame, seed: u64, iterations: u64) -> (String, Option<Outcome>) {
    let legal = game.legal().expect("someone is to act");
    let color = legal.to_act.color().expect("a player acts, not Chance");
    let decision = Decision::new(
        game.typed_view(Seat::from(color)),
        legal.actions,
        legal.setup,
    )
    .unwrap();
    let spec = format!("default:seed={seed},iterations={iterations}");
    let mut bot = BuiltIn::parse(&spec).unwrap();
    let answer = bot.act(&decision, None);
    println!("BOT seed {seed}: {} [{}]", answer.action, answer.detail);
    assert_eq!(answer.failure, None);
    game.play(&answer.action)
        .unwrap_or_else(|e| panic!("the bot's {:?} is refused: {e}", answer.action));
    (answer.action, game.outcome())
}

/// Asserts that the bot, with each of [`SEEDS`], plays one of `expected` in `game` and that
/// the game then ends with `outcome` (`None`: goes on).
fn assert_plays(
    game: &AnyGame,
    iterations: u64,
    expected: &[&str],
    outcome: Option<Outcome>,
    context: &str,
) {
    for seed in SEEDS {
        let (action, end) = bot_plays(&mut game.clone(), seed, iterations);
        assert!(
            expected.contains(&action.as_str()),
            "seed {seed}: the bot plays {action}, not {expected:?}\n{context}"
        );
        assert_eq!(end, outcome, "seed {seed}: {action}\n{context}");
    }
}

/// Asserts that the bot, with each of [`SEEDS`], plays one of `expected` in `game` and that it
/// ends the game with `outcome`.
fn assert_finds(
    game: &AnyGame,
    iterations: u64,
    expected: &[&str],
    outcome: Outcome,
    context: &str,
) {
    assert_plays(game, iterations, expected, Some(outcome), context);
}

/// The truth of a Reality Check game.
fn reality_check(game: &AnyGame) -> &RealityCheck {
    match game {
        AnyGame::RealityCheck(arbiter) => arbiter.game(),
        _ => panic!("not a Reality Check game"),
    }
}

fn square(name: &str) -> Square39 {
    Square39::parse(name).unwrap()
}

/// A Reality Check position as a diagram: each piece as its face up (upper case White, lower
/// case Black), a colon and its two faces, `*` when both faces are public; then the hands.
fn diagram(game: &RealityCheck) -> String {
    let mut text = String::new();
    for rank in (1..=9).rev() {
        text.push_str(&format!("{rank} "));
        for file in 'a'..='g' {
            let cell = match Square39::parse(&format!("{file}{rank}")) {
                Err(_) => "      ".to_string(),
                Ok(sq) => match game.piece_at(sq) {
                    None => "  .   ".to_string(),
                    Some(p) => format!(
                        "{}:{}{} ",
                        p.up.letter_for(p.color),
                        p.kind,
                        if game.is_shown(sq) { "*" } else { " " }
                    ),
                },
            };
            text.push_str(&cell);
        }
        text.push('\n');
    }
    text.push_str("    a     b     c     d     e     f     g\n");
    for color in [Color::White, Color::Black] {
        let hand: Vec<String> = game.hand(color).iter().map(ToString::to_string).collect();
        text.push_str(&format!(
            "{color:?}: hand {hand:?}, limit {}, true pieces {}, empty drop squares {}\n",
            game.hand_limit(color),
            game.true_in_game(color),
            game.empty_drop_squares(color).count(),
        ));
    }
    text
}

// Orthodox chess.

#[test]
fn chess_mate_in_one() {
    // Scholar's mate: 1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6?? and White mates with 4.Qxf7#.
    let game = game_after(
        "chess",
        &[],
        &["e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6"],
    );
    let mate = Outcome::win(Color::White, EndReason::Checkmate);
    assert_finds(&game, 5_000, &["h5f7"], mate, "scholar's mate");
    // Fool's mate, for Black: 1.f3 e5 2.g4?? Qh4#.
    let game = game_after("chess", &[], &["f2f3", "e7e5", "g2g4"]);
    let mate = Outcome::win(Color::Black, EndReason::Checkmate);
    assert_finds(&game, 5_000, &["d8h4"], mate, "fool's mate");
}

#[test]
fn chess_mate_in_two() {
    // Légal's mate: 1.e4 e5 2.Nf3 d6 3.Bc4 Bg4 4.Nc3 g6 5.Nxe5 Bxd1??, and a queen down White
    // mates with 6.Bxf7+ Ke7 7.Nd5#.
    let game = game_after(
        "chess",
        &[],
        &[
            "e2e4", "e7e5", "g1f3", "d7d6", "f1c4", "c8g4", "b1c3", "g7g6", "f3e5", "g4d1",
        ],
    );
    assert_plays(&game, 20_000, &["c4f7"], None, "Légal's mate, move 6");
    let mut game = game;
    game.play("c4f7").unwrap();
    game.play("e8e7").unwrap();
    let mate = Outcome::win(Color::White, EndReason::Checkmate);
    assert_finds(&game, 20_000, &["c3d5"], mate, "Légal's mate, move 7");
}

// Reality Check.

#[test]
fn reality_check_the_last_true_piece_is_checked_off_the_board() {
    // White's true bishop (BB on d3) takes Black's true BB, NN and RR off the board with
    // Reality Checks as Black walks them into its diagonals (the RR dropped from the hand).
    // Black's last true piece is the PP on b7, which Black's own flips have shown whole. White's
    // bishop, now on d5, attacks it and the e6 pawn (a PB, which White has not seen whole):
    // `rc d5b7` wins, while `rc d5e6` or a plain capture only sends a piece to the hand (from
    // which Black drops it again).
    let game = game_after(
        "reality-check",
        &[],
        &[
            "setup d1=RR c2=NB e2=NR d2=BR d3=BB b3=PP c3=PN e3=PB f3=PR hand=NN",
            "setup d9=RN c8=NN e8=NB d8=BR d7=BB b7=PP c7=PN e7=PB f7=PR hand=RR",
            "f3f4",
            "flip b3",
            "d7b5",
            "flip b7",
            "rc d3b5",
            "c8d6",
            "flip b7",
            "f4f3",
            "flip b3",
            "d6c4",
            "flip b7",
            "rc b5c4",
            "drop RR@d7",
            "f3f4",
            "flip b3",
            "d7d5",
            "flip b7",
            "rc c4d5",
            "e7e6",
            "flip b7",
        ],
    );
    let rc = reality_check(&game);
    let position = diagram(rc);
    println!("{position}");
    assert_eq!(rc.true_in_game(Color::Black), 1, "{position}");
    assert!(rc.is_shown(square("b7")), "{position}");
    let legal = game.legal().unwrap().actions;
    assert!(legal.iter().any(|a| a == "d5b7"), "{legal:?}");
    let win = Outcome::win(Color::White, EndReason::TruePiecesRemoved);
    assert_finds(&game, 20_000, &["rc d5b7"], win, &position);
}

/// The squeeze, White to act, and its diagram. White's bishop takes f7 and its knight d8, so
/// Black's hand holds three, its limit; Black shuffles its e-pawn out and back, so that all
/// nine of Black's drop squares are taken (seven Black pieces, White's bishop on f7 and knight
/// on d8). White's other knight comes to c6, outside them, attacking the e7 pawn: taking it
/// (plainly or with a Reality Check) pushes Black's hand over its limit with nowhere to drop,
/// and wins at once. The captures from inside (Nd8xb7, Bf7xe8) free a square for the forced
/// drop and do not (though the knight on c6 wins the same way a turn later).
fn squeeze() -> (AnyGame, String) {
    let game = game_after(
        "reality-check",
        &[],
        &[
            "setup d1=RR c2=NN e2=NB d2=BR d3=BB b3=PP c3=PN e3=PB f3=PR hand=NR",
            "setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN",
            "d3g6",
            "flip d1",
            "e7e6",
            "flip d9",
            "g6f7",
            "e6e7",
            "flip d9",
            "c2b4",
            "flip d1",
            "e7e6",
            "flip d9",
            "b4c6",
            "flip d1",
            "e6e7",
            "flip d9",
            "c6d8",
            "e7e6",
            "flip d9",
            "e2d4",
            "flip d1",
            "e6e7",
            "flip d9",
            "f3f4",
            "flip d1",
            "e7e6",
            "flip d9",
            "d4c6",
            "flip d1",
            "e6e7",
            "flip d9",
        ],
    );
    let rc = reality_check(&game);
    let position = diagram(rc);
    println!("{position}");
    assert_eq!(
        rc.hand(Color::Black).len() as u32,
        rc.hand_limit(Color::Black),
        "{position}"
    );
    assert_eq!(rc.empty_drop_squares(Color::Black).count(), 0, "{position}");
    assert_eq!(
        rc.piece_at(square("c6")).map(|p| p.color),
        Some(Color::White),
        "{position}"
    );
    (game, position)
}

// This test found a bug: a win the quiescence search found at the horizon scored an unadjusted
// 1.0, above an immediate win, which the main search lowers by its ply. At depth 2 the bot played
// `rc d8b7` instead (a win only a turn later, after Black's forced drop refills d8) and went on
// postponing. Finished games now score alike wherever the search meets them.
#[test]
fn reality_check_the_squeeze_pushes_a_full_hand_over_its_limit() {
    let (game, position) = squeeze();
    let win = Outcome::win(Color::White, EndReason::ImpossibleDrop);
    assert_finds(&game, 50_000, &["c6e7", "rc c6e7"], win, &position);
}

// Variants with bluffs.

#[test]
fn alter_ego_the_ego_bound_to_a_blocked_pawn_is_taken() {
    // 1.e4 e5 2.Nc3 d5 is a death move (exd5 and Nxd5 take the pawn), after which Black moves
    // its ego to the e5 pawn. 3.Nf3 shows White the transfer; the bound pawn cannot move, so
    // Black passes, and the ego is known to be on e5, where the knight takes it: 4.Nxe5 wins
    // (the natural exd5 or Nxd5 does not).
    let game = game_after(
        "alter-ego",
        &[],
        &[
            "e2e4",
            "e7e5",
            "b1c3",
            "d7d5",
            "transfer e5",
            "g1f3",
            "pass",
        ],
    );
    let win = Outcome::win(Color::White, EndReason::EgoCaptured);
    assert_finds(&game, 20_000, &["f3e5"], win, "the ego on e5");
}

#[test]
fn alter_ego_the_ego_does_not_stay_on_a_queen_that_is_taken_at_once() {
    // Black's queen took f2 with check, protected by the e3 pawn: a death move, since White's
    // queen on e2 takes back. Staying loses at once (Qxf2 takes the ego), whatever White
    // guesses, for it is a queen. The search judged White's Qxf2 mid-turn, its ego still on the
    // queen that goes into the pawn's capture, so it rarely tried it: 9 to 15 seeds in 150
    // stayed at 50 ms, and a game was lost so against `random`.
    let game = game_after(
        "alter-ego",
        &[],
        &[
            "d2d4",
            "e7e5",
            "transfer a8",
            "c2c4",
            "pass",
            "c4c5",
            "transfer e2",
            "e5d4",
            "e2e3",
            "transfer d1",
            "d4e3",
            "d1e2",
            "d8f6",
            "b1a3",
            "f6f2",
        ],
    );
    for seed in 1..=24 {
        let (action, _) = bot_plays(&mut game.clone(), seed, 8_000);
        assert_ne!(action, "stay", "seed {seed}: the ego stays on the queen");
    }
}

#[test]
fn bs_a_king_known_by_a_call_is_caught_moving_like_a_bishop() {
    // White calls Black's Ke8-d7 (lawful: White removes its h2 pawn), so the piece on d7 is
    // known to be the king. When it then moves d7-b5, like a bishop, calling removes the king
    // and wins, while accepting lets the move stand. When it steps d7-c6, as a king may,
    // calling would only cost White another piece: the bot accepts.
    let mut game = game_after(
        "bs",
        &[],
        &[
            "setup standard",
            "setup standard",
            "e2e4",
            "accept",
            "d7d5",
            "accept",
            "g1f3",
            "accept",
            "e8d7",
            "call",
            "remove h2",
            "b1c3",
            "accept",
        ],
    );
    let mut lawful = game.clone();
    game.play("d7b5").unwrap();
    let win = Outcome::win(Color::White, EndReason::KingRemoved);
    assert_finds(&game, 2_000, &["call"], win, "the king's d7-b5");
    lawful.play("d7c6").unwrap();
    assert_plays(&lawful, 2_000, &["accept"], None, "the king's d7-c6");
}
