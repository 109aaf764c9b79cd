//! Reality Check: fuzzing, resampling, leaks, records and perft.

mod common;
#[path = "reality_check/model.rs"]
mod model;

use bluffchess_rules::any::perft;
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::board::board39::{Shape, Square39};
use bluffchess_rules::board::Color;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::Game;
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::EndReason;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::variants::reality_check::{
    Action, Kind, RealityCheck, RealityCheckBelief, Setup,
};
use common::{assert_same_samples, belief_check, fuzz, resample_check, without_commitments};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;

const OPTIONS: [&str; 4] = ["strategic-retreat", "memory", "flexible-setup", "dice"];

/// The Advanced board (rule 8).
const ADVANCED: &str = "board=advanced";

/// Options from `name` (for `name=true`) or `name=value` words.
fn options(words: &[&str]) -> Options {
    words
        .iter()
        .map(|word| {
            let (name, value) = word.split_once('=').unwrap_or((word, "true"));
            (name.to_string(), value.to_string())
        })
        .collect()
}

fn option(name: &str) -> Options {
    options(&[name])
}

/// The default rules and each option alone on the basic board.
fn basic_rules() -> Vec<Options> {
    std::iter::once(Options::new())
        .chain(OPTIONS.iter().map(|name| option(name)))
        .collect()
}

/// The default rules, each option alone, the Advanced board alone and with every option.
fn every_rules() -> Vec<Options> {
    let mut rules = basic_rules();
    rules.extend([
        option(ADVANCED),
        options(&[
            ADVANCED,
            "strategic-retreat",
            "memory",
            "flexible-setup",
            "dice",
        ]),
    ]);
    rules
}

#[test]
fn random_games_are_fuzzed_and_verified() {
    // Games run to some 300 to 900 actions; the checks cost more as the record grows, so the
    // normal run plays short ones (the long run below plays them out).
    let report = fuzz::<RealityCheck>(&Options::new(), 3, 250, 1);
    assert!(
        report.commitments > 5 && report.refusals > 100,
        "{report:?}"
    );
    for (i, name) in OPTIONS.iter().enumerate() {
        let report = fuzz::<RealityCheck>(&option(name), 2, 150, 10 + i as u64);
        assert!(report.refusals > 50, "{name}: {report:?}");
    }
    for (i, name) in OPTIONS.iter().enumerate() {
        let report = fuzz::<RealityCheck>(&options(&[ADVANCED, name]), 2, 150, 20 + i as u64);
        assert!(report.refusals > 50, "{ADVANCED} {name}: {report:?}");
    }
}

#[test]
#[ignore = "thousands of whole random games: run in release mode"]
fn thousands_of_whole_random_games_are_fuzzed_and_verified() {
    for (i, options) in every_rules().iter().enumerate() {
        let report = fuzz::<RealityCheck>(options, 100, 3000, 100 + i as u64);
        assert_eq!(report.finished, 100, "{options:?}: {report:?}");
    }
}

/// Plays `games` whole random games through the arbiter and says how each ended.
fn endings(options: &Options, games: u64, seed: u64) -> Vec<EndReason> {
    let mut endings = Vec::new();
    for g in 0..games {
        let mut arbiter: Arbiter<RealityCheck> =
            Arbiter::new(options, seed ^ g, SaltSource::Seeded(seed + g)).unwrap();
        while let Some(actor) = arbiter.to_act() {
            if actor == Actor::Chance {
                arbiter.roll().unwrap();
            } else {
                let text = arbiter.random_action().expect("an actor has an action");
                arbiter.play(&text).unwrap();
            }
        }
        endings.push(arbiter.outcome().unwrap().reason);
    }
    endings
}

#[test]
#[ignore = "hundreds of whole games: run in release mode"]
fn random_games_are_won_by_removing_the_true_pieces() {
    for (i, options) in every_rules().iter().enumerate() {
        let endings = endings(options, 400, 200 + i as u64);
        let wins = endings
            .iter()
            .filter(|&&r| r == EndReason::TruePiecesRemoved)
            .count();
        println!("{options:?}: {wins} of 400 won by removing the true pieces");
        assert!(wins > 0, "{options:?}");
    }
}

#[test]
fn resampled_states_look_the_same_to_the_seat() {
    for (i, options) in every_rules().iter().enumerate() {
        // Random memories cost true pieces fast: those games are short.
        let games = if options.contains_key("memory") {
            10
        } else {
            3
        };
        let checked = resample_check::<RealityCheck>(options, games, 7, 2, 20 + i as u64);
        assert!(checked > 100, "{options:?}: {checked}");
    }
}

#[test]
#[ignore = "long: run in release mode"]
fn resampled_states_look_the_same_to_the_seat_in_many_games() {
    for (i, options) in every_rules().iter().enumerate() {
        let games = if options.contains_key("memory") {
            80
        } else {
            16
        };
        let checked = resample_check::<RealityCheck>(options, games, 5, 3, 30 + i as u64);
        assert!(checked > 4_000, "{options:?}: {checked}");
    }
}

/// Every combination of the options that change what is hidden or how a game goes: the four
/// options alone, and together in the pairs that interact (memory's removals and flips with the
/// dice and with the free setup, retreats into the hand with memory), and all four at once; the
/// Advanced board alone, with all four, and with each that changes play on it (its setup is
/// Flexibility's already).
fn option_sets() -> Vec<Options> {
    let mut sets = basic_rules();
    for combo in [
        &["memory", "dice"][..],
        &["memory", "flexible-setup"],
        &["strategic-retreat", "memory"],
        &["strategic-retreat", "dice"],
        &["dice", "flexible-setup"],
        &OPTIONS,
        &[ADVANCED],
        &[
            ADVANCED,
            "strategic-retreat",
            "memory",
            "flexible-setup",
            "dice",
        ],
        &[ADVANCED, "strategic-retreat"],
        &[ADVANCED, "memory"],
        &[ADVANCED, "dice"],
        &[ADVANCED, "memory", "dice"],
    ] {
        sets.push(options(combo));
    }
    sets
}

#[test]
fn beliefs_from_views_list_the_legal_actions_and_sample_the_same_view() {
    for (i, options) in option_sets().iter().enumerate() {
        // Random memories cost true pieces fast, faster still on the Advanced board.
        let games = match (
            options.contains_key("memory"),
            options.contains_key("board"),
        ) {
            (true, true) => 8,
            (true, false) => 4,
            _ => 2,
        };
        let checked = belief_check::<RealityCheckBelief>(options, games, 9, 2, 60 + i as u64);
        assert!(checked > 100, "{options:?}: {checked}");
    }
}

#[test]
#[ignore = "many games: run in release mode"]
fn beliefs_from_views_hold_in_many_games() {
    for (i, options) in option_sets().iter().enumerate() {
        // Random memories cost true pieces fast: those games are short.
        let games = if options.contains_key("memory") {
            80
        } else {
            10
        };
        let checked = belief_check::<RealityCheckBelief>(options, games, 3, 2, 70 + i as u64);
        assert!(checked > 4_000, "{options:?}: {checked}");
    }
}

/// Two drops of the same face onto the same square that take different pieces from the hand,
/// if the side to act has such a choice.
fn twin_drops(game: &RealityCheck) -> Option<(Action, Action)> {
    let drops: Vec<Action> = game
        .legal_actions()
        .into_iter()
        .filter(|a| matches!(a, Action::Drop { .. }))
        .collect();
    drops.iter().enumerate().find_map(|(i, &a)| {
        let Action::Drop { up, down, to } = a else {
            return None;
        };
        drops[i + 1..].iter().find_map(|&b| match b {
            Action::Drop {
                up: u,
                down: d,
                to: t,
            } if u == up && t == to && d != down => Some((a, b)),
            _ => None,
        })
    })
}

#[test]
fn games_that_differ_only_in_a_hidden_choice_give_the_same_samples() {
    let mut rng = StdRng::seed_from_u64(12);
    let (mut setups, mut drops) = (0, 0);
    for options in option_sets() {
        for g in 0..2 {
            // White's setup, before Black's: nothing of it is public to Black or the spectator.
            let mut a = RealityCheck::new(&options).unwrap();
            let mut b = a.clone();
            a.apply(&a.random_setup(&mut rng).unwrap()).unwrap();
            b.apply(&b.random_setup(&mut rng).unwrap()).unwrap();
            for seat in [Seat::Black, Seat::Spectator] {
                assert_same_samples::<RealityCheckBelief>(&a, &b, seat);
            }
            // Setups that differ only in hidden faces, once both are made.
            let hidden = if g == 0 { Color::White } else { Color::Black };
            let mut a = RealityCheck::new(&options).unwrap();
            let mut b = a.clone();
            for color in Color::ALL {
                let Some(Action::Setup(setup)) = a.random_setup(&mut rng) else {
                    unreachable!("a setup is due")
                };
                let other = match twin(&setup, &mut rng) {
                    Some(other) if color == hidden => other,
                    _ => setup,
                };
                a.apply(&Action::Setup(setup)).unwrap();
                b.apply(&Action::Setup(other)).unwrap();
            }
            if differing(&a, &b).is_empty() {
                continue;
            }
            for seat in [Seat::from(!hidden), Seat::Spectator] {
                assert_same_samples::<RealityCheckBelief>(&a, &b, seat);
                setups += 1;
            }
            // Then, through one random game, every drop that could take either of two pieces.
            while let Some(action) = random_action(&a, &mut rng) {
                if let Some((x, y)) = twin_drops(&a) {
                    let dropper = a.turn();
                    let (mut with_x, mut with_y) = (a.clone(), a.clone());
                    with_x.apply(&x).unwrap();
                    with_y.apply(&y).unwrap();
                    for seat in [Seat::from(!dropper), Seat::Spectator] {
                        assert_same_samples::<RealityCheckBelief>(&with_x, &with_y, seat);
                        drops += 1;
                    }
                }
                a.apply(&action).unwrap();
                if a.action_count() > 250 {
                    break;
                }
            }
        }
    }
    assert!(setups > 20 && drops > 20, "{setups} setups, {drops} drops");
}

/// The same setup with the hidden faces of two pieces that show the same face exchanged (or of a
/// placed piece and the piece kept in hand), if there are such pieces.
fn twin(setup: &Setup, rng: &mut StdRng) -> Option<Setup> {
    let mut swaps: Vec<(usize, usize)> = Vec::new();
    for i in 0..9 {
        for j in i + 1..9 {
            let (a, b) = (setup.placed[i], setup.placed[j]);
            if a.1 == b.1 && a.2 != b.2 {
                swaps.push((i, j));
            }
        }
        let (up, down) = (setup.placed[i].1, setup.placed[i].2);
        let (h1, h2) = setup.hand.faces();
        if (h1 == up || h2 == up) && setup.hand != Kind::new(up, down) {
            swaps.push((i, 9));
        }
    }
    let &(i, j) = swaps.get(rng.random_range(0..swaps.len().max(1)))?;
    let mut placed = setup.placed;
    let mut hand = setup.hand;
    if j == 9 {
        let (sq, up, down) = placed[i];
        let kept = Kind::new(up, down);
        placed[i] = (sq, up, hand.other(up));
        hand = kept;
    } else {
        let down = placed[i].2;
        placed[i].2 = placed[j].2;
        placed[j].2 = down;
    }
    Some(Setup::new(placed, hand))
}

/// The squares of the pieces on which the two games differ.
fn differing(a: &RealityCheck, b: &RealityCheck) -> Vec<Square39> {
    (a.rules().board.all().iter().copied())
        .filter(|&sq| a.piece_at(sq).map(|p| p.kind) != b.piece_at(sq).map(|p| p.kind))
        .collect()
}

/// Whether `action` shows a face of a piece on one of `squares` (flips it, or takes it out of
/// the game).
fn shows(action: &Action, squares: &[Square39]) -> bool {
    let touched = match *action {
        Action::Flip(sq) | Action::RemoveOnBoard(sq) => vec![sq],
        Action::RealityCheck { from, to } => vec![from, to],
        Action::Memory(a, b) => vec![a, b],
        _ => Vec::new(),
    };
    touched.iter().any(|sq| squares.contains(sq))
}

/// Plays random games twice over, once with a side's setup and once with its twin, and compares
/// what the other seat and the spectator see, and the other seat's legal actions, until the
/// difference is shown or the hidden side's own play parts the games.
fn leak_check(options: &Options, games: u64, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut compared = 0;
    for g in 0..games {
        let hidden = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let watcher = Seat::from(!hidden);
        let mut a: Arbiter<RealityCheck> = Arbiter::new(options, g, SaltSource::Seeded(g)).unwrap();
        let mut b = a.clone();
        for color in Color::ALL {
            let Some(Action::Setup(setup)) = a.game().random_setup(&mut rng) else {
                unreachable!("a setup is due")
            };
            let other = if color == hidden {
                match twin(&setup, &mut rng) {
                    Some(other) => other,
                    None => setup,
                }
            } else {
                setup
            };
            a.play(&setup.to_string()).unwrap();
            b.play(&other.to_string()).unwrap();
        }
        while a.outcome().is_none() {
            for seat in [watcher, Seat::Spectator] {
                let va = without_commitments(serde_json::to_value(a.view(seat)).unwrap());
                let vb = without_commitments(serde_json::to_value(b.view(seat)).unwrap());
                assert_eq!(va, vb, "{seat} tells the setups apart in game {g}");
            }
            if a.to_act().and_then(Actor::color) != Some(hidden) {
                assert_eq!(a.legal(), b.legal(), "legal actions differ in game {g}");
            }
            compared += 1;
            let text = match a.to_act() {
                Some(Actor::Chance) => {
                    a.roll().unwrap();
                    a.record().actions.last().unwrap().text.clone()
                }
                _ => {
                    let action = random_action(a.game(), &mut rng).unwrap();
                    if shows(&action, &differing(a.game(), b.game())) {
                        break;
                    }
                    a.play(&action.to_string()).unwrap();
                    action.to_string()
                }
            };
            if b.play(&text).is_err() {
                // The hidden side's own choice depended on the difference (a drop, a removal
                // from the hand): from here the games are different games.
                break;
            }
        }
    }
    compared
}

#[test]
fn setups_that_differ_only_in_hidden_faces_look_alike_until_a_face_is_shown() {
    let compared: usize = every_rules()
        .iter()
        .enumerate()
        .map(|(i, options)| leak_check(options, 8, 40 + i as u64))
        .sum();
    assert!(compared > 1000, "{compared}");
}

#[test]
#[ignore = "long: run in release mode"]
fn setups_that_differ_only_in_hidden_faces_look_alike_in_many_games() {
    let compared: usize = every_rules()
        .iter()
        .enumerate()
        .map(|(i, options)| leak_check(options, 70, 50 + i as u64))
        .sum();
    assert!(compared > 7_000, "{compared}");
}

#[test]
fn perft_counts_are_pinned() {
    let count = |options: &Options, depth| perft("reality-check", options, 0, depth).unwrap().0;
    let default = Options::new();
    // Depth 1, by hand: every White starting square is taken, so there is no drop; the rook on
    // d1 and the bishop on d2 are hemmed in; each knight has two squares (c2: b4 d4, e2: d4 f4);
    // the bishop on d3 has c4 b5 a6 and e4 f5 g6; each pawn face steps forward only (its side
    // steps are taken or off the board): 4 + 6 + 4 = 14, whatever the hidden faces.
    assert_eq!(count(&default, 1), 14);
    // Depth 2: after each move White flips one of the 18 pieces on the board.
    assert_eq!(count(&default, 2), 14 * 18);
    assert_eq!(count(&default, 3), 3714);
    // Memory adds the 36 pairs of Black's nine pieces; dice puts a roll between move and flip.
    assert_eq!(count(&option("memory"), 1), 14 + 36);
    assert_eq!(count(&option("dice"), 2), 14 * 6);
    assert_eq!(count(&option("dice"), 3), DICE_DEPTH_3);
}

/// Depth 3 with dice: after each of the 14 moves and each roll, the pieces the roll allows (none
/// is exempt yet): 1 the eight pawn faces, 2 the four knights, 3 the four bishops, 4 the two
/// rooks, 5 White's nine, 6 Black's nine (the moved piece keeps its face).
const DICE_DEPTH_3: u64 = 14 * (8 + 4 + 4 + 2 + 9 + 9);

#[test]
fn every_event_carries_its_fact() {
    for options in every_rules() {
        // Memory games can end in a few turns; five of them still pass every kind of event.
        assert!(
            common::facts_check::<RealityCheck>(&options, 5, 13) > 200,
            "{options:?}"
        );
    }
}

#[test]
fn advanced_board_perft_counts_are_pinned() {
    let advanced = option(ADVANCED);
    let count = |depth| perft("reality-check", &advanced, 0, depth).unwrap().0;
    let counts: Vec<u64> = (1..=3).map(count).collect();
    assert_eq!(counts, ADVANCED_PERFT);
}

/// `bluffchess perft --variant reality-check --option board=advanced --seed 0`, depths 1 to 3,
/// as the independent model counts them too (below).
/// Depth 1: ten quiet moves (no capture on White's first turn); depth 2: each followed by a flip
/// of one of the 18 pieces.
const ADVANCED_PERFT: [u64; 3] = [10, 10 * 18, 888];

/// The rules' actions and the model's at every node of the tree below, and the number of leaves;
/// `kinds` collects the kinds of action met.
fn lockstep(
    game: &RealityCheck,
    model: &model::Model,
    depth: u32,
    kinds: &mut BTreeSet<&'static str>,
) -> u64 {
    let listed: Vec<String> = game
        .legal_actions()
        .iter()
        .map(ToString::to_string)
        .collect();
    let texts: BTreeSet<String> = listed.iter().cloned().collect();
    assert_eq!(texts.len(), listed.len(), "an action listed twice");
    assert_eq!(texts, model.actions(), "after {}", history(game));
    if depth == 0 {
        return 1;
    }
    texts
        .iter()
        .map(|text| {
            let (mut g, mut m) = (game.clone(), model.clone());
            let action = g.apply_text(text).unwrap();
            kinds.insert(match action {
                Action::Move { .. } if text.len() == 4 && m.occupied(&text[2..]) => "capture",
                Action::Move { .. } => "move",
                Action::RealityCheck { .. } => "rc",
                Action::Drop { .. } => "drop",
                Action::Flip(_) => "flip",
                _ => "other",
            });
            m.play(text);
            lockstep(&g, &m, depth - 1, kinds)
        })
        .sum()
}

fn history(game: &RealityCheck) -> String {
    let texts: Vec<String> = game.history().iter().map(ToString::to_string).collect();
    texts.join(", ")
}

/// The model's own count, with no help from the rules.
fn model_perft(model: &model::Model, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    model
        .actions()
        .iter()
        .map(|text| {
            let mut child = model.clone();
            child.play(text);
            model_perft(&child, depth - 1)
        })
        .sum()
}

/// The Advanced board's squares as the ruling draws them, written out by hand.
const ADVANCED_NAMES: [&str; 39] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "a2", "b2", "c2", "e2", "f2", "g2", "a3", "b3", "d3",
    "f3", "g3", "a4", "d4", "g4", "a5", "b5", "d5", "f5", "g5", "a6", "b6", "c6", "e6", "f6", "g6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7",
];

/// A game on the Advanced board after `setups` and then `actions` random actions (seeded), and
/// the model after the same actions.
fn advanced_position(seed: u64, actions: usize) -> (RealityCheck, model::Model) {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = RealityCheck::new(&option(ADVANCED)).unwrap();
    let mut setups = Vec::new();
    for _ in 0..2 {
        let setup = game.random_setup(&mut rng).unwrap();
        setups.push(setup.to_string());
        game.apply(&setup).unwrap();
    }
    let mut model = model::Model::new(&ADVANCED_NAMES, true, [&setups[0], &setups[1]]);
    for _ in 0..actions {
        let Some(action) = random_action(&game, &mut rng) else {
            break;
        };
        model.play(&action.to_string());
        game.apply(&action).unwrap();
    }
    (game, model)
}

#[test]
fn advanced_board_counts_agree_with_an_independent_model() {
    let mut kinds = BTreeSet::new();
    for (seed, actions, depth) in [(0, 0, 4), (1, 0, 3), (2, 41, 3), (3, 60, 3), (4, 90, 3)] {
        let (game, model) = advanced_position(seed, actions);
        assert!(game.outcome().is_none(), "seed {seed}: the game is over");
        let rules = bluffchess_rules::playout::perft(&game, depth);
        assert_eq!(
            model_perft(&model, depth),
            rules,
            "seed {seed}, depth {depth}"
        );
        assert_eq!(lockstep(&game, &model, depth, &mut kinds), rules);
        assert!(rules > 100, "seed {seed}: {rules}");
        println!("seed {seed} after {actions} actions, depth {depth}: {rules}");
    }
    assert_eq!(
        kinds,
        BTreeSet::from(["capture", "drop", "flip", "move", "rc"]),
        "every kind of turn is met"
    );
    // The pinned counts from the start are the model's too.
    let mut rng = StdRng::seed_from_u64(0);
    let mut game = RealityCheck::new(&option(ADVANCED)).unwrap();
    bluffchess_rules::playout::fix_setups(&mut game, &mut rng);
    let setups: Vec<String> = game.history().iter().map(ToString::to_string).collect();
    let model = model::Model::new(&ADVANCED_NAMES, true, [&setups[0], &setups[1]]);
    for (depth, &count) in (1..).zip(&ADVANCED_PERFT) {
        assert_eq!(model_perft(&model, depth), count, "depth {depth}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// On the Advanced board, with or without the options that add actions, every random setup's
    /// text and every legal action's text reads back as the same action.
    #[test]
    fn advanced_board_action_texts_round_trip(
        seed in proptest::prelude::any::<u64>(),
        played in 0usize..150,
        memory in proptest::prelude::any::<bool>(),
        retreat in proptest::prelude::any::<bool>(),
    ) {
        let mut words = vec![ADVANCED];
        if memory {
            words.push("memory");
        }
        if retreat {
            words.push("strategic-retreat");
        }
        let mut game = RealityCheck::new(&options(&words)).unwrap();
        let mut rng = StdRng::seed_from_u64(seed);
        for _ in 0..played {
            let Some(action) = random_action(&game, &mut rng) else {
                break;
            };
            game.apply(&action).unwrap();
        }
        let mut listed = game.legal_actions();
        listed.extend(game.random_setup(&mut rng));
        for action in listed {
            let text = action.to_string();
            proptest::prop_assert_eq!(game.parse_action(&text), Ok(action), "{}", text);
        }
    }

    /// A name is a square of the Advanced board exactly when the ruling's diagram has a square
    /// there, and then it reads back to itself; any other name is refused by name.
    #[test]
    fn advanced_board_square_names_round_trip(file in 0u8..9, rank in 0u8..10) {
        let name = format!("{}{}", (b'a' + file) as char, rank);
        let parsed = Shape::Advanced.parse_square(&name);
        proptest::prop_assert_eq!(parsed.is_ok(), ADVANCED_NAMES.contains(&name.as_str()));
        match parsed {
            Ok(sq) => proptest::prop_assert_eq!(sq.to_string(), name),
            Err(e) => {
                let quoted = format!("{:?}", name);
                proptest::prop_assert!(e.to_string().contains(&quoted));
            }
        }
    }
}
