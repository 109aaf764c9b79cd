//! Scenario tests, one or more per numbered rule of the seed and per ruling.

use super::*;
use crate::board::{Role, Square};
use crate::event::EventKind;
use crate::game::Game;
use crate::outcome::{EndReason, Outcome};
use rand::rngs::StdRng;
use rand::SeedableRng;

fn start() -> AlterEgo {
    AlterEgo::new(&Options::new()).unwrap()
}

fn from_fen(fen: &str) -> AlterEgo {
    let mut game = start();
    game.history = History::new(Position::from_fen(fen).unwrap());
    game.refresh_moves();
    game
}

fn play(game: &mut AlterEgo, actions: &str) {
    for text in actions.split(',') {
        game.apply_text(text.trim())
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

fn texts(game: &AlterEgo) -> Vec<String> {
    game.legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn is_deciding(game: &AlterEgo) -> bool {
    matches!(game.phase, Phase::Decision { .. })
}

#[test]
fn rule_1_orthodox_rules_apply() {
    let mut game = start();
    assert_eq!(game.legal_actions().len(), 20);
    let err = game.apply_text("e1e2").unwrap_err().to_string();
    assert!(err.contains("cannot move to e2"), "{err}");
    // Castling, en passant and promotion are played as in chess.
    let mut game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, "e1c1");
    assert_eq!(game.position().fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

#[test]
fn rule_2_the_turn_piece_carries_the_ego_and_none_before_the_first_move() {
    let mut game = start();
    assert_eq!(game.ego(Color::White), None);
    play(&mut game, "g1f3");
    assert_eq!(game.ego(Color::White), Some(Square::F3));
    assert_eq!(game.ego(Color::Black), None);
    play(&mut game, "b8c6");
    assert_eq!(game.ego(Color::Black), Some(Square::C6));
}

#[test]
fn ruling_2_castling_gives_the_ego_to_the_king_and_promotion_to_the_new_piece() {
    let mut game = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut game, "e1g1");
    assert_eq!(game.ego(Color::White), Some(Square::G1));
    let mut game = from_fen("8/P7/8/8/8/8/k7/4K3 w - - 0 1");
    play(&mut game, "a7a8n");
    assert_eq!(game.ego(Color::White), Some(Square::A8));
}

#[test]
fn rule_3_checkmate_wins() {
    let mut game = start();
    play(&mut game, "f2f3, e7e5, g2g4, d8h4");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::Checkmate))
    );
    assert_eq!(game.to_act(), None);
}

#[test]
fn rule_3_capturing_the_piece_with_the_enemy_ego_wins() {
    // Black's rook move to a2 is a death move (the knight can take it); Black stays.
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, stay, c1a2");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::EgoCaptured))
    );
}

#[test]
fn rule_7_a_transfer_moves_the_ego_at_once() {
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer c8, c1a2");
    assert_eq!(game.outcome(), None);
    assert_eq!(game.ego(Color::Black), Some(Square::C8));
}

#[test]
fn rule_4_and_5_a_death_move_needs_a_decision_and_an_ordinary_move_does_not() {
    let mut game = start();
    play(&mut game, "e2e4");
    assert!(!is_deciding(&game), "nothing can take e4");
    play(&mut game, "d7d5");
    assert!(is_deciding(&game), "e4 takes d5");
    assert_eq!(game.to_act(), Some(Actor::Black));
    let decisions = texts(&game);
    assert_eq!(decisions[0], "stay");
    assert!(decisions.contains(&"transfer e8".to_string()));
    assert!(
        !decisions.contains(&"transfer d5".to_string()),
        "not the turn piece itself"
    );
    assert_eq!(decisions.len(), 16);
    let err = game.apply_text("e4d5").unwrap_err().to_string();
    assert!(err.contains("decides first"), "{err}");
}

#[test]
fn ruling_3_a_pinned_capturer_makes_no_death_move() {
    let mut pinned = from_fen("4k3/4b3/8/8/8/8/4R3/K2R4 w - - 0 1");
    play(&mut pinned, "d1d6");
    assert!(!is_deciding(&pinned));
    let mut free = from_fen("4k3/4b3/8/8/8/8/R7/K2R4 w - - 0 1");
    play(&mut free, "d1d6");
    assert!(is_deciding(&free));
}

#[test]
fn ruling_3_a_capture_that_leaves_check_unanswered_makes_no_death_move() {
    // Bd5 uncovers the rook's check: cxd5 would leave the king in check.
    let mut check = from_fen("4k3/8/2p5/8/4B3/8/8/K3R3 w - - 0 1");
    play(&mut check, "e4d5");
    assert!(!is_deciding(&check));
    let mut quiet = from_fen("4k3/8/2p5/8/4B3/8/8/K7 w - - 0 1");
    play(&mut quiet, "e4d5");
    assert!(is_deciding(&quiet));
}

#[test]
fn ruling_3_en_passant_makes_a_death_move() {
    let mut game = from_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut game, "e2e4");
    assert!(is_deciding(&game), "d4 takes e3 en passant");
    play(&mut game, "stay, d4e3");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::Black, EndReason::EgoCaptured))
    );
}

#[test]
fn ruling_3_the_opponents_transfer_binds_their_next_turn() {
    // Black transfers to the bishop, so only the bishop may move next: Ne2 cannot be taken.
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer c8, c1e2");
    assert!(!is_deciding(&game), "the bound bishop cannot reach e2");
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, stay, c1e2");
    assert!(is_deciding(&game), "the rook on a2 can take e2");
}

#[test]
fn ruling_3_a_king_move_is_never_a_death_move() {
    let mut rng = StdRng::seed_from_u64(17);
    for _ in 0..40 {
        let mut game = start();
        while game.to_act().is_some() && game.action_count() < 300 {
            let action = crate::playout::random_action(&game, &mut rng).unwrap();
            let king_move = matches!(action, Action::Move(mv) if game.position().pieces(game.position().turn(), Role::King).contains(mv.from));
            game.apply(&action).unwrap();
            if king_move && game.outcome().is_none() {
                assert!(!is_deciding(&game), "{action} flagged as a death move");
            }
        }
    }
}

#[test]
fn rule_8_after_a_stay_the_next_turn_is_free() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5, stay, g1f3");
    assert!(texts(&game).contains(&"g8f6".to_string()));
    assert!(texts(&game).contains(&"d5e4".to_string()));
}

#[test]
fn rule_9_after_a_transfer_only_that_piece_moves() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5, transfer g8, g1f3");
    let moves = texts(&game);
    assert_eq!(moves, vec!["g8f6", "g8h6"]);
    let err = game.apply_text("d5e4").unwrap_err().to_string();
    assert!(err.contains("transferred to the piece on g8"), "{err}");
    play(&mut game, "g8f6");
    assert_eq!(game.bound(Color::Black), None);
}

#[test]
fn rule_9_a_transfer_to_a_piece_that_cannot_move_passes_the_turn() {
    // The h7 pawn is blocked: Black passes, the ego stays there, and the turn after is free.
    let mut game = from_fen("r1b1k3/7p/7P/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer h7, e1f1");
    assert_eq!(texts(&game), vec!["pass"]);
    let err = game.apply_text("c8d7").unwrap_err().to_string();
    assert!(err.contains("h7"), "{err}");
    play(&mut game, "pass");
    assert_eq!(game.ego(Color::Black), Some(Square::H7));
    assert_eq!(game.to_act(), Some(Actor::White));
    play(&mut game, "f1e1");
    assert!(texts(&game).contains(&"c8d7".to_string()));
    assert!(game.apply_text("pass").is_err());
}

#[test]
fn rule_10_empty_mate() {
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer c8, h1h8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::EmptyMate))
    );
}

#[test]
fn ruling_7_empty_mate_with_the_ego_bound_to_the_king_though_a_piece_could_block() {
    // The knight could block on f8, but the ego is bound to the king.
    let mut game = from_fen("r3k3/3ppp2/4n3/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer e8, h1h8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, EndReason::EmptyMate))
    );
    let mut free = from_fen("r3k3/3ppp2/4n3/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut free, "a8a2, stay, h1h8");
    assert_eq!(free.outcome(), None);
    assert_eq!(texts(&free), vec!["e6f8"]);
}

#[test]
fn ruling_7_bound_with_no_piece_able_to_move_is_stalemate() {
    let mut game = from_fen("1r5k/8/6Q1/p7/P7/8/8/K7 b - - 0 1");
    play(&mut game, "b8b1, transfer a5, a1b1");
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::Stalemate)));
}

#[test]
fn ruling_1_only_king_against_king_is_dead() {
    let game = from_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1");
    assert_eq!(
        game.ending(),
        None,
        "a lone bishop's side can still lose its ego"
    );
    let mut game = from_fen("4k3/8/8/8/8/8/3q4/4K3 w - - 0 1");
    play(&mut game, "e1d2");
    assert_eq!(game.outcome(), Some(Outcome::draw(EndReason::BareKings)));
}

#[test]
fn ruling_1_the_75_move_rule_and_fivefold_repetition() {
    let mut game = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 80");
    play(&mut game, "a1a2");
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::SeventyFiveMoveRule))
    );
    let mut game = start();
    let cycle = "g1f3, g8f6, f3g1, f6g8";
    for _ in 0..4 {
        play(&mut game, cycle);
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(EndReason::FivefoldRepetition))
    );
}

#[test]
fn ruling_5_the_decision_is_revealed_right_after_the_opponents_move() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5, transfer e8");
    let white = game.view(Seat::White);
    assert!(white.events.iter().all(|e| e.text != "transfer e8"));
    assert!(white.position.black_ego.sealed);
    assert_eq!(white.position.black_ego.square, Some(Square::D5));
    // White's capture of d5 comes first, then the reveal, then White's own flag and decision.
    play(&mut game, "e4d5");
    let kinds: Vec<_> = game.view(Seat::White).events[4..]
        .iter()
        .map(|e| (e.kind.clone(), e.text.clone()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (EventKind::Action, "e4d5".to_string()),
            (EventKind::Reveal { action: 2 }, "transfer e8".to_string()),
        ]
    );
    assert_eq!(game.outcome(), None, "the ego had left d5");
    assert!(!game.view(Seat::Spectator).position.black_ego.sealed);
}

#[test]
fn rule_8_moves_and_death_flags_are_public_and_decisions_sealed() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5, stay");
    for seat in [Seat::White, Seat::Spectator] {
        let view = game.view(seat);
        let texts: Vec<&str> = view.events.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, vec!["e2e4", "d7d5", "death move", "decision"]);
        assert_eq!(view.events[3].kind, EventKind::Sealed);
        assert!(view.position.death_move);
    }
    let black = game.view(Seat::Black);
    assert_eq!(black.events.last().unwrap().text, "stay");
    assert!(!black.position.black_ego.sealed);
}

#[test]
fn transfer_targets_must_be_other_own_pieces() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5");
    for text in ["transfer d5", "transfer e4", "transfer e5", "transfer"] {
        assert!(game.apply_text(text).is_err(), "{text}");
    }
    let before = game.clone();
    assert!(game.apply_text("pass").is_err());
    assert_eq!(game, before);
}

#[test]
fn after_the_end_every_seat_sees_every_decision() {
    let mut game = from_fen("r1b1k3/8/8/8/8/8/8/2N1K2R b - - 0 1");
    play(&mut game, "a8a2, transfer c8, h1h8");
    let white = game.view(Seat::White);
    assert!(white.events.iter().any(|e| e.text == "transfer c8"));
    assert!(!white.position.black_ego.sealed);
}

#[test]
fn resampling_draws_the_sealed_decision() {
    let mut game = start();
    play(&mut game, "e2e4, d7d5, transfer e8");
    let mut rng = StdRng::seed_from_u64(3);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..200 {
        let sampled = game.resample(Seat::White, &mut rng);
        assert_eq!(sampled.view(Seat::White), game.view(Seat::White));
        seen.insert(sampled.ego(Color::Black));
    }
    assert_eq!(seen.len(), 16, "every decision is drawn");
    let sampled = game.resample(Seat::Black, &mut rng);
    assert_eq!(sampled, game);
}
