//! Checks every variant must pass (docs/architecture.md, "When a variant is done"): random-game fuzzing through the arbiter with
//! refusals that change nothing, records that verify, commitments opened, and resampling that a
//! seat cannot tell from the truth.

#![allow(dead_code)]

use bluffchess_rules::any::verify;
use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::belief::rules_view;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::{Actor, Seat};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A view as JSON with every `commitment` field removed, for comparing two games that differ
/// only in a hidden choice.
pub fn without_commitments(mut value: Value) -> Value {
    match &mut value {
        Value::Object(map) => {
            map.remove("commitment");
            for v in map.values_mut() {
                *v = without_commitments(v.take());
            }
        }
        Value::Array(items) => {
            for v in items.iter_mut() {
                *v = without_commitments(v.take());
            }
        }
        _ => {}
    }
    value
}

/// Everything observable about an arbiter's game: its record, every seat's view and the legal
/// actions, as JSON text (text is much cheaper to build and compare than a `Value` tree).
fn snapshot<G: Game>(arbiter: &Arbiter<G>) -> String {
    let views = Seat::ALL.map(|s| arbiter.view(s));
    serde_json::to_string(&(arbiter.record(), views, arbiter.legal())).unwrap()
}

/// Texts that must be refused now: garbage, mangled legal texts, and texts that were legal at
/// another moment but are not listed now.
fn refusable(listed: &[String], earlier: &[String], rng: &mut StdRng) -> Vec<String> {
    let mut texts = vec![
        String::new(),
        "zz".to_string(),
        "e2e4e4".to_string(),
        "\u{1F600}".to_string(),
        "x".repeat(500),
    ];
    if let Some(text) = listed.first() {
        texts.push(format!("{text}!"));
        texts.push(text.to_uppercase());
        texts.push(format!("{text} {text}"));
    }
    for _ in 0..4 {
        if !earlier.is_empty() {
            texts.push(earlier[rng.random_range(0..earlier.len())].clone());
        }
    }
    texts.retain(|t| !listed.contains(t));
    texts
}

/// The cheap part of a snapshot, taken after every refusal: what acts, what is listed, how long
/// the log is, and the record's running digest. The whole snapshot is compared once
/// the probe's refusals are done.
fn fingerprint<G: Game>(arbiter: &Arbiter<G>) -> String {
    let last = arbiter.last_recorded().map(|a| &a.digest);
    let counts = (arbiter.game().events().len(), arbiter.game().action_count());
    serde_json::to_string(&(arbiter.legal(), counts, last, arbiter.outcome())).unwrap()
}

/// Checks that every listed action reads back and is accepted, and that other texts are refused
/// without changing anything. `thorough` plays up to 40 listed actions through copies of the
/// arbiter, else 3 at random. Returns how many refusals it saw.
fn probe<G: Game>(
    arbiter: &mut Arbiter<G>,
    earlier: &[String],
    rng: &mut StdRng,
    thorough: bool,
) -> u64 {
    let legal = arbiter.legal().expect("a player to act");
    for action in arbiter.game().legal_actions() {
        let text = action.to_string();
        let read = arbiter.game().parse_action(&text);
        assert_eq!(read.as_ref(), Ok(&action), "{text:?} does not read back");
        // A copy of the game is much cheaper than a copy of the arbiter and its record.
        let mut game = arbiter.game().clone();
        game.apply(&action)
            .unwrap_or_else(|e| panic!("listed action {text:?} refused: {e}"));
    }
    let through_arbiter: Vec<&String> = match thorough {
        true => legal.actions.iter().take(40).collect(),
        false => legal.actions.choose_multiple(rng, 3).collect(),
    };
    for text in through_arbiter {
        let mut probe = arbiter.clone();
        probe
            .play(text)
            .unwrap_or_else(|e| panic!("listed action {text:?} refused by the arbiter: {e}"));
    }
    let before = snapshot(arbiter);
    let quick = fingerprint(arbiter);
    let mut texts = refusable(&legal.actions, earlier, rng);
    // Another spelling of a listed action (SAN, upper case) is that action, not an unlisted one.
    let listed = arbiter.game().legal_actions();
    texts.retain(|t| !matches!(arbiter.game().parse_action(t), Ok(a) if listed.contains(&a)));
    for text in &texts {
        match arbiter.play(text) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(_) => panic!("unlisted action {text:?} accepted"),
        }
        assert_eq!(
            fingerprint(arbiter),
            quick,
            "refused {text:?} changed the game"
        );
    }
    assert_eq!(
        snapshot(arbiter),
        before,
        "one of the refused texts {texts:?} changed the game"
    );
    texts.len() as u64
}

/// Plays `games` random games through the arbiter, checking at every step that listed actions
/// are accepted and other texts refused without change, and at the end that the record verifies
/// and every commitment was opened.
pub fn fuzz<G: Game>(options: &Options, games: u64, max_actions: usize, seed: u64) -> FuzzReport {
    let mut report = FuzzReport::default();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut earlier: Vec<String> = Vec::new();
    for game_index in 0..games {
        let mut arbiter: Arbiter<G> = Arbiter::new(
            options,
            seed ^ game_index,
            SaltSource::Seeded(seed + game_index),
        )
        .unwrap();
        for step in 0..max_actions {
            let Some(to_act) = arbiter.to_act() else {
                break;
            };
            if to_act == Actor::Chance {
                arbiter.roll().unwrap();
                continue;
            }
            // Probing is costly (it lists and snapshots everything): often in the first games,
            // rarely in the long runs that are there to find panics and bad records.
            let thorough = game_index < 40;
            let every = if thorough { 7 } else { 101 };
            if step % every == 0 && !arbiter.game().setup_due() {
                report.refusals += probe(&mut arbiter, &earlier, &mut rng, thorough);
            }
            let action = random_action(arbiter.game(), &mut rng).expect("an actor has an action");
            let text = action.to_string();
            arbiter.play(&text).unwrap();
            if earlier.len() < 5000 {
                earlier.push(text);
            }
            report.actions += 1;
        }
        let record = arbiter.record();
        assert_eq!(verify(&record), Ok(arbiter.outcome()), "game {game_index}");
        for action in &record.actions {
            if action.public != action.text {
                assert!(
                    action.commitment.is_some(),
                    "hidden action {} uncommitted",
                    action.index
                );
                report.commitments += 1;
            }
            if arbiter.outcome().is_some() && action.commitment.is_some() {
                assert!(
                    action.salt.is_some(),
                    "commitment {} never opened",
                    action.index
                );
            }
        }
        report.games += 1;
        report.finished += u64::from(arbiter.outcome().is_some());
    }
    report
}

/// What a fuzzing run did, to check it did something.
#[derive(Debug, Default)]
pub struct FuzzReport {
    pub games: u64,
    pub finished: u64,
    pub actions: u64,
    pub refusals: u64,
    pub commitments: u64,
}

/// At every `every`-th action of `games` random games, resamples for each seat `samples` times and
/// checks that the seat's view of the sample equals its view of the truth.
pub fn resample_check<G: Game>(
    options: &Options,
    games: u64,
    every: usize,
    samples: usize,
    seed: u64,
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut game = G::new(options).unwrap();
        let mut step = 0;
        while let Some(action) = random_action(&game, &mut rng) {
            game.apply(&action).unwrap();
            step += 1;
            if step % every == 0 {
                for seat in Seat::ALL {
                    let view = game.view(seat);
                    for _ in 0..samples {
                        let sampled = game.resample(seat, &mut rng);
                        assert_eq!(sampled.view(seat), view, "{seat} after {step} actions");
                        assert_eq!(sampled.action_count(), game.action_count());
                        checked += 1;
                    }
                }
            }
            if step > 400 {
                break;
            }
        }
    }
    checked
}

/// At every `every`-th action of `games` random games played through the arbiter, for every
/// seat: a belief built from the JSON text of the seat's view lists exactly the seat's legal
/// actions when it is to act, and each of `samples` sampled histories, replayed from the start,
/// gives the seat exactly the view it has (commitments and salts aside). Returns the number of
/// samples checked.
pub fn belief_check<B: Belief>(
    options: &Options,
    games: u64,
    every: usize,
    samples: usize,
    seed: u64,
) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for g in 0..games {
        let mut arbiter: Arbiter<B::Game> =
            Arbiter::new(options, seed ^ g, SaltSource::Seeded(seed + g)).unwrap();
        let mut step = 0;
        while let Some(actor) = arbiter.to_act() {
            if actor == Actor::Chance {
                arbiter.roll().unwrap();
            } else {
                let text = arbiter.random_action().expect("an actor has an action");
                arbiter.play(&text).unwrap();
            }
            step += 1;
            if step % every == 0 || arbiter.outcome().is_some() {
                for seat in Seat::ALL {
                    checked += check_belief::<B>(&arbiter, seat, samples, &mut rng);
                }
            }
            if step > 400 {
                break;
            }
        }
    }
    checked
}

/// The checks of [`belief_check`] at one moment for one seat.
fn check_belief<B: Belief>(
    arbiter: &Arbiter<B::Game>,
    seat: Seat,
    samples: usize,
    rng: &mut StdRng,
) -> usize {
    let json = serde_json::to_string(&arbiter.view(seat)).unwrap();
    let view = serde_json::from_str(&json).unwrap();
    let belief = B::from_view(&view).unwrap_or_else(|e| panic!("{seat}: {e}\n{json}"));
    let (expected, _) = rules_view(&arbiter.view(seat));
    let game = arbiter.game();
    let to_act = game.to_act().and_then(|a| a.color());
    let own_turn = to_act.is_some() && to_act == seat.color();
    let legal = if own_turn {
        game.legal_actions()
    } else {
        Vec::new()
    };
    assert_eq!(belief.legal_actions(), legal, "{seat}: legal actions");
    assert_eq!(belief.key(), game.info_key(seat), "{seat}: information key");
    for _ in 0..samples {
        let sample = belief.sample(rng);
        let mut replayed = B::Game::new(&view.options).unwrap();
        for action in sample.history() {
            let text = action.to_string();
            replayed
                .apply_text(&text)
                .unwrap_or_else(|e| panic!("{seat}: the sampled history's {text:?}: {e}"));
        }
        let seen = replayed.view_revealed(seat, belief.revealed());
        assert_eq!(seen.events, expected.events, "{seat}: sampled events");
        assert_eq!(seen.position, expected.position, "{seat}: sampled position");
        assert_eq!(replayed.info_key(seat), belief.key(), "{seat}: sampled key");
    }
    samples
}

/// Two games that differ only in a hidden choice, with equal views for `seat`: the same seed
/// draws the same samples from both.
pub fn assert_same_samples<B: Belief>(a: &B::Game, b: &B::Game, seat: Seat) {
    let (view_a, view_b) = (a.view(seat), b.view(seat));
    assert_eq!(view_a, view_b, "the two games look the same to {seat}");
    let belief_a = B::from_view(&view_a).unwrap();
    let belief_b = B::from_view(&view_b).unwrap();
    for seed in 0..20 {
        let sample_a = belief_a.sample(&mut StdRng::seed_from_u64(seed));
        let sample_b = belief_b.sample(&mut StdRng::seed_from_u64(seed));
        assert_eq!(sample_a.history(), sample_b.history(), "seed {seed}");
    }
}

/// Plays `games` random games and checks that every event carries its fact, and that a move's
/// fact names the squares its text names.
pub fn facts_check<G: Game>(options: &Options, games: u64, seed: u64) -> usize {
    use bluffchess_rules::fact::Fact;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut game = G::new(options).unwrap();
        while let Some(action) = random_action(&game, &mut rng) {
            game.apply(&action).unwrap();
        }
        for event in game.events() {
            let fact = event
                .fact
                .unwrap_or_else(|| panic!("{:?} has no fact", event.text));
            let named = match fact {
                Fact::Move { from, to, .. } | Fact::Image { from, to, .. } => {
                    format!("{from}{to}")
                }
                Fact::Bluff { from, to, .. } => format!("bluff {from}{to}"),
                Fact::Step { from, to, .. } => format!("{from}{to}"),
                Fact::RealityCheck { from, to } => format!("rc {from}{to}"),
                Fact::Flip { square } => format!("flip {square}"),
                Fact::Die { number } => format!("die {number}"),
                _ => String::new(),
            };
            assert!(event.text.starts_with(&named), "{event:?}");
            let json = serde_json::to_string(&fact).unwrap();
            assert_eq!(serde_json::from_str::<Fact>(&json).unwrap(), fact, "{json}");
            checked += 1;
        }
    }
    checked
}

/// In `games` random games, at every player's decision: the variant's own draw of a random
/// legal action is the action a uniform draw over its listed actions picks with the same
/// generator, and uses the generator alike; and every action played unjudged
/// ([`Game::apply_legal`]) leaves the game [`Game::apply`] leaves. Returns the decisions checked.
pub fn draw_check<G: Game>(options: &Options, games: u64, seed: u64) -> usize {
    let mut checked = 0;
    for index in 0..games {
        let mut game = G::new(options).unwrap();
        let mut rng = StdRng::seed_from_u64(seed + index);
        let mut listed = Vec::new();
        for _ in 0..400 {
            let player = matches!(game.to_act(), Some(actor) if actor != Actor::Chance);
            if player && !game.setup_due() {
                let mut drawn = rng.clone();
                let mut uniform = rng.clone();
                let action = game.random_legal_action(&mut drawn, &mut listed);
                let all = game.legal_actions();
                let expected =
                    (!all.is_empty()).then(|| all[uniform.random_range(0..all.len())].clone());
                assert_eq!(action, expected, "the draw differs from the listing's");
                assert_eq!(drawn.random::<u64>(), uniform.random::<u64>());
                checked += 1;
            }
            let Some(action) = random_action(&game, &mut rng) else {
                break;
            };
            // Every fifth action compared whole, through `Debug` (not every variant's state has
            // `PartialEq`, and printing every state would take most of the test's time).
            if checked % 5 == 0 {
                let mut judged = game.clone();
                judged.apply(&action).unwrap();
                game.apply_legal(&action);
                assert_eq!(
                    format!("{game:?}"),
                    format!("{judged:?}"),
                    "{action} played unjudged differs"
                );
            } else {
                game.apply_legal(&action);
            }
        }
    }
    checked
}
