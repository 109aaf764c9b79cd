//! Ambiguous Chess: the candidate generator against an independent one, fuzzing, records, views
//! and perft.

mod common;

use bluffchess_rules::any::perft;
use bluffchess_rules::board::{Color, Role, Square};
use bluffchess_rules::chess::{Move, Position};
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::variants::ambiguous::AmbiguousBelief;
use bluffchess_rules::variants::ambiguous::{candidates, Ambiguous};
use common::{belief_check, fuzz, resample_check};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

/// A step on the board: (files, ranks).
type Step = (i32, i32);

/// Pseudo-legal moves by walking the board square by square, sharing nothing with the attack
/// tables: the independent generator the candidate set is checked against.
fn walk_moves(pos: &Position, passed: Option<Square>) -> BTreeSet<String> {
    let us = pos.turn();
    let mut moves = BTreeSet::new();
    let own = |sq: Square| pos.piece_at(sq).is_some_and(|p| p.color == us);
    let enemy = |sq: Square| pos.piece_at(sq).is_some_and(|p| p.color != us);
    let mut add = |from: Square, to: Square, promotes: bool| {
        if promotes {
            for p in ["q", "r", "b", "n"] {
                moves.insert(format!("{from}{to}{p}"));
            }
        } else {
            moves.insert(format!("{from}{to}"));
        }
    };
    for from in Square::ALL.into_iter().filter(|&sq| own(sq)) {
        let role = pos.piece_at(from).unwrap().role;
        let (leaps, slides): (&[Step], &[Step]) = match role {
            Role::Knight => (
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
                &[],
            ),
            Role::King => (
                &[
                    (1, 0),
                    (1, 1),
                    (0, 1),
                    (-1, 1),
                    (-1, 0),
                    (-1, -1),
                    (0, -1),
                    (1, -1),
                ],
                &[],
            ),
            Role::Bishop => (&[], &[(1, 1), (1, -1), (-1, 1), (-1, -1)]),
            Role::Rook => (&[], &[(1, 0), (-1, 0), (0, 1), (0, -1)]),
            Role::Queen => (
                &[],
                &[
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                ],
            ),
            Role::Pawn => (&[], &[]),
        };
        for &(df, dr) in leaps {
            if let Some(to) = from.offset(df, dr).filter(|&to| !own(to)) {
                add(from, to, false);
            }
        }
        for &(df, dr) in slides {
            let mut at = from;
            while let Some(to) = at.offset(df, dr) {
                if own(to) {
                    break;
                }
                add(from, to, false);
                if enemy(to) {
                    break;
                }
                at = to;
            }
        }
        if role == Role::Pawn {
            let dr = if us == Color::White { 1 } else { -1 };
            let last = if us == Color::White { 7 } else { 0 };
            let start = if us == Color::White { 1 } else { 6 };
            if let Some(one) = from.offset(0, dr).filter(|&sq| pos.piece_at(sq).is_none()) {
                add(from, one, one.rank().index() == last);
                if from.rank().index() == start {
                    if let Some(two) = one.offset(0, dr).filter(|&sq| pos.piece_at(sq).is_none()) {
                        add(from, two, false);
                    }
                }
            }
            for df in [-1, 1] {
                if let Some(to) = from.offset(df, dr) {
                    if enemy(to) || Some(to) == passed {
                        add(from, to, to.rank().index() == last);
                    }
                }
            }
        }
    }
    moves
}

fn text(moves: &[Move]) -> BTreeSet<String> {
    moves.iter().map(ToString::to_string).collect()
}

fn differential(games: u64, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").unwrap();
        let mut passed = None;
        for _ in 0..300 {
            let moves = candidates(&pos, passed);
            assert_eq!(text(&moves), walk_moves(&pos, passed), "{}", pos.fen());
            checked += 1;
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            let mover = pos.turn();
            if pos.pieces(!mover, Role::King).contains(mv.to) {
                break;
            }
            let double = pos.pieces(mover, Role::Pawn).contains(mv.from)
                && mv.from.index().abs_diff(mv.to.index()) == 16;
            pos.play_unchecked(mv);
            passed = double.then(|| Square::new(((mv.from.index() + mv.to.index()) / 2) as u32));
        }
    }
    checked
}

#[test]
fn candidates_match_an_independent_generator() {
    assert!(differential(60, 1) > 3000);
}

#[test]
#[ignore = "long: run in release mode"]
fn candidates_match_an_independent_generator_in_many_games() {
    assert!(differential(4000, 2) > 200_000);
}

#[test]
fn random_games_are_fuzzed_and_verified() {
    for options in [
        Options::new(),
        Options::from([("checkmate".to_string(), "true".to_string())]),
        Options::from([
            ("checkmate".to_string(), "true".to_string()),
            ("stalemate".to_string(), "draw".to_string()),
        ]),
    ] {
        let report = fuzz::<Ambiguous>(&options, 15, 300, 3);
        assert!(report.finished > 0 && report.refusals > 200, "{report:?}");
    }
}

#[test]
#[ignore = "thousands of games: run in release mode"]
fn thousands_of_random_games_are_fuzzed_and_verified() {
    let options = Options::from([("checkmate".to_string(), "true".to_string())]);
    let report = fuzz::<Ambiguous>(&options, 1000, 1000, 4);
    assert!(report.finished > 500, "{report:?}");
    let report = fuzz::<Ambiguous>(&Options::new(), 1000, 1000, 5);
    assert!(report.finished > 500, "{report:?}");
}

#[test]
fn every_seat_sees_the_same_and_resampling_is_the_truth() {
    assert!(resample_check::<Ambiguous>(&Options::new(), 6, 5, 2, 6) > 100);
    let mut rng = StdRng::seed_from_u64(7);
    let mut game = Ambiguous::new(&Options::new()).unwrap();
    for _ in 0..60 {
        let Some(action) = random_action(&game, &mut rng) else {
            break;
        };
        game.apply(&action).unwrap();
        let white = game.view(Seat::White);
        for seat in [Seat::Black, Seat::Spectator] {
            let view = game.view(seat);
            assert_eq!(
                (&view.events, &view.position),
                (&white.events, &white.position)
            );
        }
    }
}

#[test]
fn perft_counts_are_pinned() {
    let count = |depth| perft("ambiguous", &Options::new(), 0, depth).unwrap().0;
    // 16 squares to name; a3, c3, f3 and h3 are ambiguous (two picks each), the rest are played
    // at once and Black names one of its 16.
    assert_eq!(count(1), 16);
    assert_eq!(count(2), 4 * 2 + 12 * 16);
    assert_eq!(count(3), 2710);
    assert_eq!(count(4), 34_835);
}

#[test]
fn beliefs_from_views_replay_the_game() {
    let options = Options::from([("checkmate".to_string(), "true".to_string())]);
    assert!(belief_check::<AmbiguousBelief>(&Options::new(), 4, 7, 1, 3) > 100);
    assert!(belief_check::<AmbiguousBelief>(&options, 2, 7, 1, 4) > 50);
}

#[test]
fn every_event_carries_its_fact() {
    assert!(common::facts_check::<Ambiguous>(&Options::new(), 5, 12) > 100);
}
