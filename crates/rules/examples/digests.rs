//! The determinism harness: one digest per variant over thousands of seeded random games, for
//! refactors that must not change behaviour. Run it before and after a change and compare:
//!
//! ```text
//! cargo run --release -p bluffchess-rules --example digests            # every variant
//! cargo run --release -p bluffchess-rules --example digests -- 200 bs  # 200 games a variant, bs only
//! ```
//!
//! Each variant is played under every combination of its options, through [`AnyGame`] (the
//! arbiter, as the command line and the server play it) and through its typed game. The digest
//! covers every action text, every legal list (with Chance's probabilities), the events each
//! action gave its actor (facts and commitments included), every seat's view and typed view at
//! regular points and at the end, refusals (their text and id), draw offers, claims,
//! resignations and flag falls, the record and its verification, the outcome, samples drawn
//! from each seat's belief (`AnyView::sample`) and from `Game::resample`, information keys (with
//! the log loud and quiet), repetition counts, quiet playouts and perft counts.
//!
//! It reads the crate only through paths every refactor keeps: the crate root, `any`, `arbiter`,
//! `game`, `playout`, `log` and `registry`.

use bluffchess_rules::any::{perft, with_variant, VariantVisitor};
use bluffchess_rules::game::Game;
use bluffchess_rules::log::Recording;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::{random_action, random_playout};
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::{verify, AnyGame, AnyView, Color, SaltSource, VARIANTS};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

/// The longest game played, in actions.
const MAX_ACTIONS: usize = 600;

/// A running digest.
struct Hash(Sha256);

impl Hash {
    fn new() -> Hash {
        Hash(Sha256::new())
    }

    fn text(&mut self, text: &str) {
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }

    fn json(&mut self, value: &impl serde::Serialize) {
        self.text(&serde_json::to_string(value).expect("serialises"));
    }

    fn num(&mut self, n: u64) {
        self.0.update(n.to_le_bytes());
    }

    fn hex(self) -> String {
        hex::encode(&self.0.finalize()[..12])
    }
}

/// Texts that must be refused (or, rarely, accepted): their answer is hashed either way.
fn probes(legal: &[String], rng: &mut StdRng) -> Vec<String> {
    let mut texts = vec!["zz".to_string(), "e2e4e4".to_string(), "setup".to_string()];
    if let Some(text) = legal.first() {
        texts.push(format!("{text}!"));
        texts.push(text.to_uppercase());
    }
    texts.push(
        [
            "a1a1", "pass", "stay", "call", "accept", "e9", "flip a1", "rc a1b2",
        ][rng.random_range(0..8)]
        .to_string(),
    );
    texts
}

/// One game through the arbiter.
fn arbiter_game(id: &str, options: &Options, seed: u64, h: &mut Hash) {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5eed);
    let mut game = AnyGame::new(id, options, seed, SaltSource::Seeded(seed)).expect("a game");
    h.text(&game.seed_commitment());
    let view_every = 29 + (seed % 11) as usize;
    let sample_at = [3 + (seed % 7) as usize, 40 + (seed % 13) as usize, 150];
    let mut played = 0;
    while played < MAX_ACTIONS {
        let legal = game.legal();
        h.json(&legal);
        h.json(&game.to_act());
        h.json(&game.draw_offer());
        h.json(&game.seeded_roll());
        let Some(legal) = legal else {
            break;
        };
        // Refusals: their text and id, and nothing changed.
        if played % 5 == 0 {
            let before = serde_json::to_string(&game.record()).unwrap();
            for text in probes(&legal.actions, &mut rng) {
                let mut copy = game.clone();
                match copy.play(&text) {
                    Ok(played) => {
                        h.text("accepted");
                        h.json(&played.events);
                    }
                    Err(e) => {
                        h.text(&e.to_string());
                        h.text(e.id());
                        assert_eq!(serde_json::to_string(&game.record()).unwrap(), before);
                    }
                }
            }
        }
        // The players' meta actions now and then.
        let roll: u32 = rng.random_range(0..1000);
        let color = if rng.random_bool(0.5) {
            Color::White
        } else {
            Color::Black
        };
        let meta = match roll {
            0..=9 => Some(MetaKind::OfferDraw),
            10..=14 => Some(MetaKind::AcceptDraw),
            15..=24 => Some(MetaKind::ClaimDraw),
            25 if seed % 3 == 0 => Some(MetaKind::Resign),
            26 if seed % 5 == 0 => Some(MetaKind::Timeout),
            27 if seed % 7 == 0 => Some(MetaKind::Abandon),
            _ => None,
        };
        if let Some(kind) = meta {
            match game.meta(color, kind) {
                Ok(events) => h.json(&events),
                Err(e) => {
                    h.text(&e.to_string());
                    h.text(e.id());
                }
            }
            if game.outcome().is_some() {
                break;
            }
        }
        let events = match game.to_act() {
            Some(Actor::Chance) => game.roll(),
            Some(_) => {
                let action = game.random_action().expect("a legal action");
                h.text(&action);
                game.play(&action)
            }
            None => break,
        }
        .expect("a random action is accepted")
        .events;
        h.json(&events);
        h.json(&game.last_recorded());
        played += 1;
        if played % view_every == 0 {
            views(&game, h);
        }
        if sample_at.contains(&played) {
            samples(&game, seed + played as u64, h);
        }
    }
    views(&game, h);
    samples(&game, seed, h);
    h.json(&game.outcome());
    h.json(&game.revealed_position());
    let record = game.record();
    h.json(&record);
    match verify(&record) {
        Ok(outcome) => h.json(&outcome),
        Err(e) => panic!("{id} seed {seed}: the record does not verify: {e}"),
    }
}

/// Every seat's view, as JSON and typed (read back from its JSON).
fn views(game: &AnyGame, h: &mut Hash) {
    for seat in Seat::ALL {
        let json = game.view(seat);
        h.json(&json);
        let typed = game.typed_view(seat);
        let text = serde_json::to_string(&typed).unwrap();
        assert_eq!(AnyView::from_json(&text).unwrap(), typed);
        h.text(typed.variant());
        h.json(&typed.seat());
        h.json(&typed.to_act());
        h.num(typed.events().len() as u64);
        h.json(&typed.outcome());
    }
}

/// Histories drawn from each seat's belief.
fn samples(game: &AnyGame, seed: u64, h: &mut Hash) {
    for seat in Seat::ALL {
        match game.typed_view(seat).sample(seed, 2) {
            Ok(histories) => h.json(&histories),
            Err(e) => h.text(&e.to_string()),
        }
    }
}

/// One game through the typed game: information keys (loud and quiet), repetitions, legal
/// actions, resamples, and a quiet playout.
struct Typed<'a> {
    options: &'a Options,
    seed: u64,
    h: &'a mut Hash,
}

impl VariantVisitor for Typed<'_> {
    type Output = ();

    fn visit<G: Game>(self) -> Self::Output {
        let h = self.h;
        let mut rng = StdRng::seed_from_u64(self.seed);
        let mut game = G::new(self.options).expect("a game");
        let mut quiet = game.clone();
        quiet.set_recording(Recording::Keys);
        let mut played = 0;
        while played < MAX_ACTIONS {
            for seat in Seat::ALL {
                h.num(game.info_key(seat));
                assert_eq!(game.info_key(seat), quiet.info_key(seat));
            }
            h.num(game.repetitions() as u64);
            h.num(game.legal_actions().len() as u64);
            h.json(&game.setup_shortcuts());
            if played % 17 == 3 {
                for action in game.legal_actions() {
                    h.text(&action.to_string());
                }
                for (action, p) in game.chance_outcomes() {
                    h.text(&action.to_string());
                    h.num(p.to_bits());
                }
            }
            if played % 61 == 20 {
                for seat in Seat::ALL {
                    let sample = game.resample(seat, &mut rng);
                    for action in sample.history() {
                        h.text(&action.to_string());
                    }
                    h.json(&sample.view(seat));
                }
            }
            let Some(action) = random_action(&game, &mut rng) else {
                break;
            };
            h.text(&action.to_string());
            game.apply(&action).expect("a random action is accepted");
            quiet.apply(&action).expect("a random action is accepted");
            played += 1;
        }
        h.json(&game.outcome());
        h.json(&game.events());
        // A quiet playout from the start.
        let mut playout = G::new(self.options).expect("a game");
        playout.set_recording(Recording::Nothing);
        h.num(random_playout(&mut playout, &mut rng, 2000) as u64);
        h.json(&playout.outcome());
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .map_or(1000, |n| n.parse().expect("a number of games"));
    let only: Vec<String> = args.collect();
    for spec in VARIANTS {
        if !only.is_empty() && !only.iter().any(|o| o == spec.id) {
            continue;
        }
        let started = std::time::Instant::now();
        let sets = spec.option_sets();
        let per_set = games.div_ceil(sets.len() as u64).max(50);
        let mut h = Hash::new();
        for options in &sets {
            h.json(options);
            if let Err(e) = AnyGame::new(spec.id, options, 0, SaltSource::Seeded(0)) {
                // A combination the rules refuse: its refusal is part of the digest.
                h.text(&e.to_string());
                continue;
            }
            for seed in 0..per_set {
                arbiter_game(spec.id, options, seed, &mut h);
                let typed = Typed {
                    options,
                    seed,
                    h: &mut h,
                };
                with_variant(spec.id, typed).expect("a variant");
            }
            for seed in 0..3 {
                h.json(&perft(spec.id, options, seed, 2).expect("perft"));
            }
        }
        println!(
            "{:<14} {} ({} option sets x {per_set} games, {:.1} s)",
            spec.id,
            h.hex(),
            sets.len(),
            started.elapsed().as_secs_f64()
        );
    }
}
