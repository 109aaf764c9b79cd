//! Action texts of every variant, setups included, in games played into their middle: each line
//! is played or refused without a panic, and a refusal changes nothing.
//!
//! Input: byte 0 picks the variant, byte 1 its options, byte 2 how many random actions are
//! played first (from seed byte 3); the rest is action texts, one a line.
#![no_main]

use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::options::Options;
use bluffchess_rules::{AnyGame, VARIANTS};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [variant, options, random, seed, rest @ ..] = data else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let spec = VARIANTS[usize::from(*variant) % VARIANTS.len()];
    let options: Options = spec
        .options
        .iter()
        .enumerate()
        .map(|(i, option)| {
            let value = option.values[usize::from(options >> i) % option.values.len()];
            (option.name.to_string(), value.to_string())
        })
        .collect();
    let salts = SaltSource::Seeded(u64::from(*seed));
    // Some combinations of options are refused (stalemate=draw needs checkmate=true).
    let Ok(mut game) = AnyGame::new(spec.id, &options, u64::from(*seed), salts) else {
        return;
    };
    for _ in 0..random % 64 {
        match game.random_action() {
            Some(action) => drop(game.play(&action)),
            None => break,
        }
    }
    for line in text.lines() {
        // What a refusal must leave alone, cheap enough for millions of runs: the last action on
        // record, who acts, what they may do, and the outcome.
        let state = |game: &AnyGame| {
            let last = game.last_recorded().cloned();
            (last, game.to_act(), game.legal(), game.outcome())
        };
        let before = state(&game);
        if game.play(line).is_err() {
            assert_eq!(state(&game), before, "{line:?} was refused but changed the game");
        }
    }
});
