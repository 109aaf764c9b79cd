//! Alter Ego Bluff Chess: fuzzing, leaks, resampling, records and perft.

mod common;

use bluffchess_rules::any::perft;
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::board::Role;
use bluffchess_rules::chess::Position;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::variants::alter_ego::AlterEgoBelief;
use bluffchess_rules::variants::alter_ego::{Action, AlterEgo};
use common::{assert_same_samples, belief_check, fuzz, resample_check, without_commitments};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[test]
fn random_games_are_fuzzed_and_verified() {
    let report = fuzz::<AlterEgo>(&Options::new(), 40, 300, 1);
    assert!(
        report.finished > 0 && report.commitments > 50 && report.refusals > 500,
        "{report:?}"
    );
}

#[test]
#[ignore = "thousands of games: run in release mode"]
fn thousands_of_random_games_are_fuzzed_and_verified() {
    let report = fuzz::<AlterEgo>(&Options::new(), 2000, 600, 2);
    assert!(report.finished > 1000, "{report:?}");
}

#[test]
fn resampled_states_look_the_same_to_the_seat() {
    assert!(resample_check::<AlterEgo>(&Options::new(), 12, 3, 4, 5) > 1000);
}

#[test]
fn beliefs_from_views_list_the_legal_actions_and_sample_the_same_view() {
    assert!(belief_check::<AlterEgoBelief>(&Options::new(), 10, 3, 3, 8) > 1000);
}

#[test]
#[ignore = "many games: run in release mode"]
fn beliefs_from_views_hold_in_many_games() {
    assert!(belief_check::<AlterEgoBelief>(&Options::new(), 200, 2, 2, 9) > 50_000);
}

#[test]
fn games_that_differ_only_in_a_sealed_decision_give_the_same_samples() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut compared = 0;
    for _ in 0..30 {
        let mut game = AlterEgo::new(&Options::new()).unwrap();
        while let Some(action) = random_action(&game, &mut rng) {
            let legal = game.legal_actions();
            if matches!(legal[0], Action::Stay) && legal.len() > 1 {
                let decider = game.to_act().unwrap();
                let mut stayed = game.clone();
                stayed.apply(&Action::Stay).unwrap();
                let mut moved = game.clone();
                moved
                    .apply(&legal[rng.random_range(1..legal.len())])
                    .unwrap();
                let watcher = if decider == Actor::White {
                    Seat::Black
                } else {
                    Seat::White
                };
                for seat in [watcher, Seat::Spectator] {
                    assert_same_samples::<AlterEgoBelief>(&stayed, &moved, seat);
                    compared += 1;
                }
            }
            game.apply(&action).unwrap();
        }
    }
    assert!(compared > 50, "{compared}");
}

/// Plays random games; at each decision, compares the opponent's and the spectator's views (and
/// the opponent's legal actions) after `stay` and after a random transfer.
fn leak_check(games: u64, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut compared = 0;
    for g in 0..games {
        let mut arbiter: Arbiter<AlterEgo> =
            Arbiter::new(&Options::new(), g, SaltSource::Os).unwrap();
        while let Some(action) = random_action(arbiter.game(), &mut rng) {
            let legal = arbiter.game().legal_actions();
            if matches!(legal[0], Action::Stay) && legal.len() > 1 {
                let decider = arbiter.to_act().unwrap();
                let transfer = legal[rng.random_range(1..legal.len())];
                let mut stayed = arbiter.clone();
                stayed.play("stay").unwrap();
                let mut moved = arbiter.clone();
                moved.play(&transfer.to_string()).unwrap();
                let watchers = match decider {
                    Actor::White => [Seat::Black, Seat::Spectator],
                    _ => [Seat::White, Seat::Spectator],
                };
                for seat in watchers {
                    let a = without_commitments(serde_json::to_value(stayed.view(seat)).unwrap());
                    let b = without_commitments(serde_json::to_value(moved.view(seat)).unwrap());
                    assert_eq!(a, b, "{seat} tells stay from {transfer}");
                }
                assert_eq!(
                    stayed.legal(),
                    moved.legal(),
                    "the opponent's legal actions differ"
                );
                compared += 1;
            }
            arbiter.play(&action.to_string()).unwrap();
            if arbiter.game().action_count() > 300 {
                break;
            }
        }
    }
    compared
}

#[test]
fn stay_and_transfer_look_alike_until_the_opponent_moves() {
    assert!(leak_check(30, 7) > 100);
}

#[test]
#[ignore = "long: run in release mode"]
fn stay_and_transfer_look_alike_in_many_games() {
    assert!(leak_check(600, 8) > 5000);
}

/// Depth-3 count computed without the variant: orthodox moves, plus, after a reply that the first
/// mover could capture, Black's decisions (stay or transfer to each of its other 15 pieces).
fn independent_depth_3() -> u64 {
    let start = Position::default();
    let mut total = 0;
    for m1 in start.legal_moves() {
        let mut p1 = start;
        p1.play_unchecked(m1);
        for m2 in p1.legal_moves() {
            let mut p2 = p1;
            p2.play_unchecked(m2);
            let passed = p2.ep_square().is_some().then_some(m2.to);
            let death = p2.legal_moves().iter().any(|m3| {
                m3.to == m2.to
                    || (passed == Some(m2.to)
                        && Some(m3.to) == p2.ep_square()
                        && p2.pieces(p2.turn(), Role::Pawn).contains(m3.from))
            });
            total += if death {
                p2.by_color(!p2.turn()).count() as u64
            } else {
                p2.legal_moves().len() as u64
            };
        }
    }
    total
}

#[test]
fn perft_counts_are_pinned() {
    let count = |depth| perft("alter-ego", &Options::new(), 0, depth).unwrap().0;
    assert_eq!(count(1), 20);
    assert_eq!(count(2), 400);
    assert_eq!(count(3), independent_depth_3());
    assert_eq!(count(4), 185_736);
}

#[test]
fn every_event_carries_its_fact() {
    assert!(common::facts_check::<AlterEgo>(&Options::new(), 5, 12) > 100);
}
