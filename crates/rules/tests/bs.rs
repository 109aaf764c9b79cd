//! BS Chess: fuzzing, records, leaks, resampling and perft.

mod common;

use bluffchess_rules::any::perft;
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::variants::bs::{Action, Bs, BsBelief, Identity, Setup};
use common::{assert_same_samples, belief_check, fuzz, resample_check, without_commitments};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn options(spy: bool) -> Options {
    Options::from([("spy".to_string(), spy.to_string())])
}

#[test]
fn random_games_are_fuzzed_and_verified() {
    for spy in [false, true] {
        let report = fuzz::<Bs>(&options(spy), 25, 400, 1);
        assert!(
            report.finished > 10 && report.commitments >= 50,
            "{report:?}"
        );
    }
}

#[test]
#[ignore = "thousands of games: run in release mode"]
fn thousands_of_random_games_are_fuzzed_and_verified() {
    for spy in [false, true] {
        let report = fuzz::<Bs>(&options(spy), 1500, 1000, 2);
        assert!(report.finished > 1400, "{report:?}");
    }
}

#[test]
fn resampled_states_look_the_same_to_the_seat() {
    assert!(resample_check::<Bs>(&Options::new(), 10, 4, 3, 5) > 500);
    assert!(resample_check::<Bs>(&options(true), 5, 4, 3, 6) > 200);
}

#[test]
#[ignore = "long: run in release mode"]
fn resampled_states_look_the_same_in_many_games() {
    assert!(resample_check::<Bs>(&options(true), 200, 2, 5, 7) > 50_000);
}

/// The same setup with two pieces of different types swapped (never the king).
fn twin(setup: Setup, rng: &mut StdRng) -> Setup {
    loop {
        let (a, b) = (rng.random_range(0..16), rng.random_range(0..16));
        let (x, y) = (setup.0[a], setup.0[b]);
        if x != y && x != Identity::King && y != Identity::King {
            let mut other = setup;
            other.0.swap(a, b);
            return other;
        }
    }
}

/// Two games whose White setups differ in hidden identities only, played alike with every
/// answer `accept`: Black and the spectator must see the same thing all along.
fn leak_check(games: u64, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut compared = 0;
    for g in 0..games {
        let white = Setup::random(false, &mut rng);
        let mut a: Arbiter<Bs> = Arbiter::new(&Options::new(), g, SaltSource::Os).unwrap();
        let mut b = a.clone();
        a.play(&Action::Setup(white).to_string()).unwrap();
        b.play(&Action::Setup(twin(white, &mut rng)).to_string())
            .unwrap();
        let black = Action::Setup(Setup::random(false, &mut rng)).to_string();
        a.play(&black).unwrap();
        b.play(&black).unwrap();
        for step in 0..300 {
            if a.outcome().is_some() {
                break; // the end reveals everything
            }
            for seat in [Seat::Black, Seat::Spectator] {
                let va = without_commitments(serde_json::to_value(a.view(seat)).unwrap());
                let vb = without_commitments(serde_json::to_value(b.view(seat)).unwrap());
                assert!(
                    va == vb,
                    "{seat} tells the setups apart in game {g} at step {step}"
                );
            }
            if a.to_act() == Some(Actor::Black) {
                assert_eq!(a.legal(), b.legal(), "Black's legal actions differ");
            }
            compared += 1;
            let Some(mut action) = random_action(a.game(), &mut rng) else {
                break;
            };
            if action == Action::Call {
                action = Action::Accept;
            }
            let text = action.to_string();
            a.play(&text).unwrap();
            if b.play(&text).is_err() {
                break; // a promotion from a pool that differs: the twin could not declare it
            }
        }
    }
    compared
}

#[test]
fn two_setups_with_the_same_look_are_indistinguishable_without_calls() {
    assert!(leak_check(20, 9) > 2000);
}

#[test]
#[ignore = "long: run in release mode"]
fn two_setups_with_the_same_look_are_indistinguishable_in_many_games() {
    assert!(leak_check(200, 10) > 20_000);
}

#[test]
fn perft_counts_are_pinned() {
    let count = |depth| perft("bs", &Options::new(), 1, depth).unwrap().0;
    // The seed-1 setup of White: 130 moves some chess piece could make from its two back ranks;
    // each is answered by call or accept.
    assert_eq!(count(1), 130);
    assert_eq!(count(2), 260);
    assert_eq!(count(3), 28_373);
}

#[test]
fn beliefs_from_views_list_the_legal_actions_and_sample_the_same_view() {
    assert!(belief_check::<BsBelief>(&Options::new(), 6, 5, 2, 21) > 300);
    assert!(belief_check::<BsBelief>(&options(true), 4, 5, 2, 22) > 200);
}

#[test]
#[ignore = "many games: run in release mode"]
fn beliefs_from_views_hold_in_many_games() {
    let checked = belief_check::<BsBelief>(&options(true), 400, 3, 2, 23);
    assert!(checked > 30_000);
}

#[test]
fn games_that_differ_only_in_a_hidden_setup_give_the_same_samples() {
    let mut rng = StdRng::seed_from_u64(24);
    let mut compared = 0;
    for _ in 0..8 {
        let white = Setup::random(false, &mut rng);
        let mut a = Bs::new(&Options::new()).unwrap();
        let mut b = a.clone();
        a.apply(&Action::Setup(white)).unwrap();
        b.apply(&Action::Setup(twin(white, &mut rng))).unwrap();
        let black = Action::Setup(Setup::random(false, &mut rng));
        a.apply(&black).unwrap();
        b.apply(&black).unwrap();
        for _ in 0..40 {
            if a.outcome().is_some() {
                break;
            }
            for seat in [Seat::Black, Seat::Spectator] {
                assert_same_samples::<BsBelief>(&a, &b, seat);
                compared += 1;
            }
            let Some(mut action) = random_action(&a, &mut rng) else {
                break;
            };
            if action == Action::Call {
                action = Action::Accept;
            }
            if a.apply(&action).is_err() || b.apply(&action).is_err() {
                break;
            }
        }
    }
    assert!(compared > 200, "{compared}");
}

#[test]
fn every_event_carries_its_fact() {
    assert!(common::facts_check::<Bs>(&Options::new(), 5, 12) > 100);
}

#[test]
fn a_drawn_move_is_the_listing_draw_where_promotions_may_be_declared() {
    // Random games (answers always `accept`, so pawns reach the last rank) until the mover may
    // declare promotions; there, many draws compare with a uniform draw over the list.
    let mut positions = 0;
    let mut drawn_promotions = 0;
    for seed in 0..400 {
        let mut game = Bs::new(&options(seed % 2 == 1)).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        while let Some(actor) = game.to_act() {
            let listed = game.legal_actions();
            let promotes = |a: &Action| {
                matches!(
                    a,
                    Action::Move {
                        promotion: Some(_),
                        ..
                    }
                )
            };
            if actor != Actor::Chance && !game.setup_due() && listed.iter().any(promotes) {
                positions += 1;
                for draw in 0..50 {
                    let mut drawn = StdRng::seed_from_u64(draw);
                    let mut uniform = StdRng::seed_from_u64(draw);
                    let action = game.random_legal_action(&mut drawn, &mut Vec::new());
                    let expected = listed[uniform.random_range(0..listed.len())];
                    assert_eq!(action, Some(expected));
                    drawn_promotions += usize::from(promotes(&expected));
                }
            }
            let action = match random_action(&game, &mut rng) {
                Some(Action::Call) => Action::Accept,
                Some(action) => action,
                None => break,
            };
            game.apply(&action).unwrap();
        }
        if positions >= 20 {
            break;
        }
    }
    assert!(
        positions >= 20 && drawn_promotions > 0,
        "{positions} {drawn_promotions}"
    );
}
