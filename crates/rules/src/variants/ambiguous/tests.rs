//! The seed's rules and notes, and every ruling, as scenarios.

use super::*;
use crate::board::{Bitboard, Role, Square};
use crate::chess::Move;
use crate::game::Game;
use crate::outcome::{EndReason, Outcome};
use crate::repetition::PositionKeys;

fn game_with(options: &[(&str, &str)]) -> Ambiguous {
    let options: Options = options
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Ambiguous::new(&options).unwrap()
}

fn from_fen(fen: &str, options: &[(&str, &str)]) -> Ambiguous {
    let mut game = game_with(options);
    game.position = Position::from_fen(fen).unwrap();
    game.repetitions = PositionKeys::starting_at(game.key());
    game.refresh_destinations();
    game.log.outcome = game.ending();
    game
}

fn play(game: &mut Ambiguous, actions: &str) {
    for text in actions.split_whitespace() {
        game.apply_text(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn texts(game: &Ambiguous) -> Vec<String> {
    game.legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect()
}

const CHECKMATE: &[(&str, &str)] = &[("checkmate", "true")];

#[test]
fn note_3_an_unambiguous_move_needs_no_pick() {
    let mut game = game_with(&[]);
    play(&mut game, "e4");
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1"
    );
    assert_eq!(game.to_act(), Some(Actor::Black));
    assert_eq!(game.summary(Seat::White, false).step, "name");
    let texts: Vec<&str> = game.events().iter().map(|e| e.text.as_str()).collect();
    assert_eq!(texts, vec!["e4", "e2e4"]);
}

#[test]
fn rule_the_opponent_picks_which_piece_moves() {
    let mut game = game_with(&[]);
    play(&mut game, "c3");
    assert_eq!(
        game.to_act(),
        Some(Actor::Black),
        "Black picks White's move"
    );
    assert_eq!(texts(&game), vec!["b1c3", "c2c3"]);
    let summary = game.summary(Seat::Black, false);
    assert_eq!(
        (summary.step.as_str(), summary.named),
        ("pick", Some(Square::C3))
    );
    let err = game.apply_text("d2d3").unwrap_err().to_string();
    assert!(err.contains("pick one of b1c3, c2c3"), "{err}");
    let err = game.apply_text("c6").unwrap_err().to_string();
    assert!(err.contains("pick the move"), "{err}");
    play(&mut game, "c2c3");
    assert_eq!(game.to_act(), Some(Actor::Black), "now Black names");
    assert!(game.position().by_color(Color::White).contains(Square::C3));
}

#[test]
fn rule_a_named_square_must_be_reachable() {
    let mut game = game_with(&[]);
    let before = game.clone();
    let err = game.apply_text("e5").unwrap_err().to_string();
    assert!(err.contains("none of your pieces can move to e5"), "{err}");
    let err = game.apply_text("e2e4").unwrap_err().to_string();
    assert!(err.contains("name a destination square"), "{err}");
    assert_eq!(game, before);
    assert_eq!(texts(&game).len(), 16);
}

#[test]
fn rule_the_opponent_chooses_the_promotion_piece() {
    let mut game = from_fen("k7/4P3/8/8/8/8/8/4K3 w - - 0 1", &[]);
    play(&mut game, "e8");
    assert_eq!(texts(&game), vec!["e7e8q", "e7e8r", "e7e8b", "e7e8n"]);
    play(&mut game, "e7e8n");
    assert_eq!(
        game.position().piece_at(Square::E8).unwrap().role,
        Role::Knight
    );
}

#[test]
fn rule_capturing_the_king_wins() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K2r w - - 0 1", &[]);
    // White may leave its king attacked: there is no check.
    play(&mut game, "a5");
    assert_eq!(game.outcome(), None);
    play(&mut game, "e1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::KingCaptured))
    );
    assert_eq!(game.to_act(), None);
    assert!(
        !game.summary(Seat::White, true).check,
        "a captured king is in no check"
    );
}

#[test]
fn rule_castling_is_forbidden_and_moves_may_expose_the_king() {
    let game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", &[]);
    let castling = candidates(&game.position, game.passed)
        .iter()
        .any(|m| m.from == Square::E1 && m.to == Square::G1);
    assert!(!castling, "no castling");
    // A pinned piece moves, and the king may step into attack.
    let game = from_fen("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1", &[]);
    assert!(texts(&game).contains(&"d3".to_string()));
    let game = from_fen("3r3k/8/8/8/8/8/8/4K3 w - - 0 1", &[]);
    assert!(texts(&game).contains(&"d1".to_string()));
}

#[test]
fn rule_en_passant_is_allowed_even_into_attack() {
    // The f5 pawn is pinned against the king on h5 by the rook on a5, yet may take en passant.
    let mut game = from_fen("k7/4p3/8/r4P1K/8/8/8/8 b - - 0 1", &[]);
    play(&mut game, "e5 e7e5");
    assert!(texts(&game).contains(&"e6".to_string()));
    play(&mut game, "e6");
    assert!(
        game.position().piece_at(Square::E5).is_none(),
        "the passed pawn is taken"
    );
}

#[test]
fn note_1_parry_by_capturing_the_checker() {
    let game = from_fen(
        "8/8/4k3/8/8/8/6PP/R6K w - - 0 1".replace('R', "r").as_str(),
        CHECKMATE,
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    let game = from_fen("R7/8/4k3/8/8/8/6PP/r6K w - - 0 1", CHECKMATE);
    assert_eq!(game.outcome(), None, "Ra8xa1 takes the only checker");
}

#[test]
fn note_1_parry_by_a_king_move_no_own_piece_can_copy() {
    // g2 is free, but the knight on f4 can go there too: the opponent would pick the knight.
    let game = from_fen("8/8/1k6/8/5N2/8/7P/r6K w - - 0 1", CHECKMATE);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    let game = from_fen("8/N7/1k6/8/8/8/7P/r6K w - - 0 1", CHECKMATE);
    assert_eq!(
        game.outcome(),
        None,
        "Kg2 is safe when no other piece reaches g2"
    );
}

#[test]
fn note_1_parry_by_a_block_two_squares_away() {
    // Bf1 blocks; g2 is covered by the h3 pawn.
    let game = from_fen("k7/8/8/1B6/8/7p/7P/r6K w - - 0 1", CHECKMATE);
    assert_eq!(game.outcome(), None);
    // A knight can only block on g1, next to the king: the opponent would play Kg1 instead.
    let game = from_fen("k7/8/8/8/8/7N/6PP/r6K w - - 0 1", CHECKMATE);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    // The pinned rook on f3 could also go to f1: the opponent would pick it and open the diagonal.
    let game = from_fen("k7/8/2b5/1B6/8/5R1p/7P/r6K w - - 0 1", CHECKMATE);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
}

#[test]
fn without_the_checkmate_option_a_mated_side_plays_on() {
    let mut game = from_fen("k7/8/8/8/8/7N/6PP/r6K w - - 0 1", &[]);
    assert_eq!(game.outcome(), None);
    play(&mut game, "g1 h1g1");
    assert_eq!(game.outcome(), None);
    play(&mut game, "g1");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::KingCaptured))
    );
}

#[test]
fn stalemate_loses_with_checkmate_unless_stalemate_is_a_draw() {
    let fen = "k5r1/8/8/8/8/7p/7P/7K w - - 0 1";
    let game = from_fen(fen, CHECKMATE);
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Stalemate))
    );
    let game = from_fen(fen, &[("checkmate", "true"), ("stalemate", "draw")]);
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
    let game = from_fen(fen, &[]);
    assert_eq!(game.outcome(), None);
}

#[test]
fn options_are_checked() {
    let options = |pairs: &[(&str, &str)]| -> Options {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let err = Ambiguous::new(&options(&[("stalemate", "draw")])).unwrap_err();
    assert!(err.reason.contains("needs checkmate=true"), "{err}");
    let err = Ambiguous::new(&options(&[("checkmate", "yes")])).unwrap_err();
    assert!(err.reason.contains("true, false"), "{err}");
    let err = Ambiguous::new(&options(&[("dice", "true")])).unwrap_err();
    assert_eq!(err.name, "dice");
    let game = Ambiguous::new(&options(&[("checkmate", "true")])).unwrap();
    assert_eq!(game.options()["stalemate"], "loss");
}

#[test]
fn the_75_move_rule_and_fivefold_repetition_count_naming_positions() {
    let mut game = from_fen("1k6/8/8/8/8/8/8/R3K3 w - - 149 80", &[]);
    play(&mut game, "a2");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::SeventyFiveMoveRule))
    );
    let mut game = game_with(&[]);
    for _ in 0..4 {
        play(&mut game, "f3 g1f3 f6 g8f6 g1 f3g1 g8 f6g8");
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
    let mut game = game_with(&[]);
    play(
        &mut game,
        "f3 g1f3 f6 g8f6 g1 f3g1 g8 f6g8 f3 g1f3 f6 g8f6 g1 f3g1 g8 f6g8",
    );
    assert_eq!(
        game.claimable_draw(Color::White),
        Some(EndReason::ThreefoldRepetition)
    );
}

#[test]
fn every_seat_sees_everything() {
    let mut game = game_with(&[]);
    play(&mut game, "c3");
    let white = game.view(Seat::White);
    assert_eq!(white, game.view(Seat::Spectator).with_seat(Seat::White));
    assert_eq!(white.position.candidates, vec!["b1c3", "c2c3"]);
}

impl crate::view::View<AmbiguousSummary> {
    fn with_seat(mut self, seat: Seat) -> Self {
        self.seat = seat;
        self
    }
}

#[test]
fn destinations_and_picks_are_the_candidates_in_random_games() {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(4);
    let mut checked = 0;
    for _ in 0..60 {
        let mut game = game_with(&[]);
        while let Some(action) = crate::playout::random_action(&game, &mut rng) {
            game.apply(&action).unwrap();
            if game.phase != Phase::Name || game.outcome().is_some() {
                continue;
            }
            let all = candidates(&game.position, game.passed);
            let reached = all.iter().fold(Bitboard::EMPTY, |set, m| set.with(m.to));
            assert_eq!(game.destinations(), reached, "{}", game.position.fen());
            for square in Square::ALL {
                let picks: Vec<Move> = all.iter().copied().filter(|m| m.to == square).collect();
                let found = super::candidates::to(&game.position, game.passed, square);
                assert_eq!(
                    found.as_slice(),
                    picks.as_slice(),
                    "{square} in {}",
                    game.position.fen()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 2000, "{checked} positions checked");
}
