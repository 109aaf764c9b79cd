//! Bluff-move Chess: fuzzing, records, resampling, leaks and perft.

mod common;

use bluffchess_rules::any::perft;
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::board::attacks::between;
use bluffchess_rules::board::{Color, Square};
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::variants::bluff_move::{Action, BluffMove, BluffMoveBelief};
use common::{assert_same_samples, belief_check, fuzz, resample_check, without_commitments};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use serde_json::Value;
use std::collections::BTreeMap;

#[test]
fn random_games_are_fuzzed_and_verified() {
    let report = fuzz::<BluffMove>(&Options::new(), 10, 250, 1);
    assert!(
        report.finished > 3 && report.commitments > 800 && report.refusals > 400,
        "{report:?}"
    );
}

#[test]
#[ignore = "hundreds of games: run in release mode"]
fn many_random_games_are_fuzzed_and_verified() {
    let report = fuzz::<BluffMove>(&Options::new(), 2000, 600, 2);
    assert!(report.finished > 1800, "{report:?}");
}

#[test]
fn resampled_states_look_the_same_to_the_seat() {
    assert!(resample_check::<BluffMove>(&Options::new(), 4, 10, 2, 5) > 200);
}

#[test]
#[ignore = "long: run in release mode"]
fn resampled_states_look_the_same_to_the_seat_in_many_games() {
    let checked = resample_check::<BluffMove>(&Options::new(), 30, 5, 2, 6);
    assert!(checked > 7_000);
}

#[test]
fn beliefs_from_views_list_the_legal_actions_and_sample_the_same_view() {
    assert!(belief_check::<BluffMoveBelief>(&Options::new(), 2, 15, 1, 31) > 50);
}

#[test]
#[ignore = "long: run in release mode"]
fn beliefs_from_views_hold_in_many_games() {
    let checked = belief_check::<BluffMoveBelief>(&Options::new(), 15, 5, 2, 32);
    eprintln!("{checked} samples checked");
    assert!(checked > 4_000, "{checked}");
}

/// Games that differ only in whether one of White's moves was real or a bluff, where Black and
/// the spectator cannot tell: the same seed draws the same samples from both.
#[test]
fn games_differing_only_in_a_hidden_choice_draw_the_same_samples() {
    let mut rng = StdRng::seed_from_u64(33);
    let mut pairs = 0;
    for _ in 0..40 {
        let mut game = BluffMove::new(&Options::new()).unwrap();
        for _ in 0..rand::Rng::random_range(&mut rng, 0..30) {
            match random_action(&game, &mut rng) {
                Some(action) => game.apply(&action).unwrap(),
                None => break,
            }
        }
        if game.outcome().is_some() || game.turn() != Color::White {
            continue;
        }
        let real_moves: Vec<_> = game
            .legal_actions()
            .into_iter()
            .filter(|a| matches!(a, Action::Move(_)))
            .collect();
        let mv = real_moves.choose(&mut rng).unwrap().mv();
        let (mut real, mut bluff) = (game.clone(), game);
        real.apply(&Action::Move(mv)).unwrap();
        if bluff.apply(&Action::Bluff(mv)).is_err() {
            continue;
        }
        for seat in [Seat::Black, Seat::Spectator] {
            if real.view(seat) == bluff.view(seat) && real.outcome().is_none() {
                assert_same_samples::<BluffMoveBelief>(&real, &bluff, seat);
                pairs += 1;
            }
        }
    }
    assert!(pairs >= 10, "{pairs}");
}

/// The square an action's piece moves from, and the real piece it belongs to.
fn piece_of(action: Action, bluffs: &[(Square, Square)]) -> (Square, Square) {
    let from = action.mv().from;
    let real = bluffs
        .iter()
        .find(|(b, _)| *b == from)
        .map_or(from, |&(_, r)| r);
    (from, real)
}

/// What every seat sees of the last action: its events in the spectator's view.
fn public_events(arbiter: &Arbiter<BluffMove>) -> Value {
    let last = arbiter.game().action_count() - 1;
    let view = without_commitments(serde_json::to_value(arbiter.view(Seat::Spectator)).unwrap());
    Value::Array(
        view["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["action"] == last)
            .cloned()
            .collect(),
    )
}

/// The letter of the piece on `sq` as `color` sees it.
fn letter_on(arbiter: &Arbiter<BluffMove>, color: Color, sq: Square) -> char {
    let view = arbiter.view(Seat::from(color));
    let placement = view.position.fen.split(' ').next().unwrap().to_string();
    let rows: Vec<Vec<char>> = placement
        .split('/')
        .map(|row| {
            row.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    rows[7 - sq.rank().index()][sq.file().index()]
}

fn seen_by(arbiter: &Arbiter<BluffMove>, seat: Seat) -> Value {
    without_commitments(serde_json::to_value(arbiter.view(seat)).unwrap())
}

/// Plays random games. At every step it takes a few pieces of the mover and, for each square one
/// of them can be sent to, plays every way of doing it (the real piece's move, a new bluff, the
/// bluff's own move). Whenever two ways show the same events, the opponent and the spectator must
/// see exactly the same views and the opponent have the same legal actions; and when no enemy
/// piece stands on either way's path, they must show the same events (rule 7). Returns the pairs
/// compared and those of them with clear paths.
fn leak_check(games: u64, seed: u64) -> (usize, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut compared, mut clear) = (0, 0);
    for g in 0..games {
        let mut arbiter: Arbiter<BluffMove> =
            Arbiter::new(&Options::new(), g, SaltSource::Os).unwrap();
        while let Some(action) = random_action(arbiter.game(), &mut rng) {
            let game = arbiter.game();
            let mover = game.turn();
            let bluffs = game.bluffs(mover);
            let enemy: Vec<Square> = game
                .real_pieces(!mover)
                .into_iter()
                .chain(game.bluffs(!mover).into_iter().map(|(b, _)| b))
                .collect();
            let mut ways: BTreeMap<(Square, Square, String), Vec<Action>> = BTreeMap::new();
            for way in game.legal_actions() {
                let (from, real) = piece_of(way, &bluffs);
                let mv = way.mv();
                let castling = from == real
                    && letter_on(&arbiter, mover, from).eq_ignore_ascii_case(&'k')
                    && mv.from.file().index().abs_diff(mv.to.file().index()) == 2;
                if castling {
                    // Castling is a real move only, played in the open.
                    continue;
                }
                let promotion = mv.promotion.map_or(String::new(), |r| r.to_string());
                ways.entry((real, mv.to, promotion)).or_default().push(way);
            }
            let groups: Vec<&Vec<Action>> = ways.values().filter(|w| w.len() > 1).collect();
            for group in groups.choose_multiple(&mut rng, 3) {
                let played: Vec<(Action, Arbiter<BluffMove>)> = group
                    .iter()
                    .map(|&way| {
                        let mut copy = arbiter.clone();
                        copy.play(&way.to_string()).unwrap();
                        (way, copy)
                    })
                    .collect();
                for (i, (a, game_a)) in played.iter().enumerate() {
                    for (b, game_b) in &played[i + 1..] {
                        if game_a.outcome().is_some() || game_b.outcome().is_some() {
                            // The end reveals everything.
                            continue;
                        }
                        // A pawn's diagonal step happens only onto an enemy piece.
                        let diagonal = |way: &Action| {
                            let mv = way.mv();
                            letter_on(&arbiter, mover, mv.from).eq_ignore_ascii_case(&'p')
                                && mv.from.file() != mv.to.file()
                        };
                        // A real piece whose bluff shows another type (a promoted bluff) shows
                        // the change when it moves.
                        let same_type = |way: &Action| {
                            let (from, real) = piece_of(*way, &bluffs);
                            let image = bluffs
                                .iter()
                                .find(|(_, r)| *r == real)
                                .map_or(from, |b| b.0);
                            letter_on(&arbiter, mover, from) == letter_on(&arbiter, mover, image)
                        };
                        let path_clear = [a, b].iter().all(|way| {
                            let (from, to) = (way.mv().from, way.mv().to);
                            let path = between(from, to) | to;
                            !diagonal(way)
                                && same_type(way)
                                && enemy.iter().all(|&sq| !path.contains(sq))
                        });
                        let alike = public_events(game_a) == public_events(game_b);
                        if path_clear {
                            assert!(
                                alike,
                                "{a} and {b} with clear paths look different: {} vs {}",
                                public_events(game_a),
                                public_events(game_b)
                            );
                            clear += 1;
                        }
                        if alike {
                            for seat in [Seat::from(!mover), Seat::Spectator] {
                                assert_eq!(
                                    seen_by(game_a, seat),
                                    seen_by(game_b, seat),
                                    "{seat} tells {a} from {b}"
                                );
                            }
                            assert_eq!(
                                game_a.legal(),
                                game_b.legal(),
                                "legal actions after {a} and {b} differ"
                            );
                            compared += 1;
                        }
                    }
                }
            }
            arbiter.play(&action.to_string()).unwrap();
            if arbiter.game().action_count() > 250 {
                break;
            }
        }
    }
    (compared, clear)
}

#[test]
fn a_real_move_and_a_bluff_with_the_same_visible_outcome_look_alike() {
    let (compared, clear) = leak_check(8, 7);
    eprintln!("{compared} pairs compared, {clear} with clear paths");
    assert!(compared > 2000 && clear > 1000, "{compared} {clear}");
}

#[test]
#[ignore = "long: run in release mode"]
fn a_real_move_and_a_bluff_look_alike_in_many_games() {
    let (compared, clear) = leak_check(25, 8);
    eprintln!("{compared} pairs compared, {clear} with clear paths");
    assert!(compared > 8_000 && clear > 5_000, "{compared} {clear}");
}

#[test]
fn views_of_the_players_differ_only_in_what_each_owns() {
    // After a bluff, White sees its real pawn on e2 and Black does not.
    let mut arbiter: Arbiter<BluffMove> =
        Arbiter::new(&Options::new(), 0, SaltSource::Seeded(0)).unwrap();
    arbiter.play("bluff e2e4").unwrap();
    let white = seen_by(&arbiter, Seat::White);
    let black = seen_by(&arbiter, Seat::Black);
    assert_eq!(
        white["position"]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b"
    );
    assert_eq!(
        black["position"]["fen"],
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"
    );
    assert_eq!(black["events"][0]["text"], "e2e4");
    assert_eq!(black["events"][0]["kind"], "sealed");
    assert!(black["events"].as_array().unwrap().len() == 1);
    assert_eq!(white["events"][1]["text"], "bluff e2e4");
    let record = arbiter.record();
    assert_eq!(record.actions[0].public, "e2e4");
    assert!(record.actions[0].commitment.is_some());
    assert_eq!(arbiter.game().turn(), Color::Black);
}

#[test]
fn perft_counts_are_pinned() {
    let count = |depth| perft("bluff-move", &Options::new(), 0, depth).unwrap().0;
    // Depth 1: legal input is judged on White's own pieces: 16 pawn steps, 14 diagonal steps (no
    // own piece stands on the third rank), 4 knight moves; each is a real move or a bluff move.
    assert_eq!(count(1), 2 * (16 + 14 + 4));
    // Depth 2: no White action can reach a Black piece (the diagonal steps find nothing and do
    // not happen), so Black always has the same 68 actions.
    assert_eq!(count(2), 68 * 68);
    assert_eq!(count(3), 317_288);
}

#[test]
fn every_event_carries_its_fact() {
    assert!(common::facts_check::<BluffMove>(&Options::new(), 5, 12) > 100);
}

#[test]
fn a_bluff_shows_everyone_an_image_move_and_its_mover_a_bluff() {
    use bluffchess_rules::fact::Fact;
    let mut game = BluffMove::new(&Options::new()).unwrap();
    game.apply_text("bluff e2e4").unwrap();
    let facts = |seat: Seat| -> Vec<Fact> {
        game.view(seat)
            .events
            .iter()
            .filter_map(|e| e.fact)
            .collect()
    };
    let image = Fact::Image {
        from: Square::E2,
        to: Square::E4,
        role: None,
    };
    let bluff = Fact::Bluff {
        from: Square::E2,
        to: Square::E4,
        promotion: None,
    };
    assert_eq!(facts(Seat::White), vec![image, bluff]);
    assert_eq!(facts(Seat::Black), vec![image]);
    assert_eq!(facts(Seat::Spectator), vec![image]);
}
