//! Search speed in the middle of a game: ISMCTS iterations a second in every variant (the
//! belief's samples included), alpha-beta nodes a second in the variants where nothing is hidden.

use bluffchess_ai::{Bot, BotSpec, BuiltIn, Decision};
use bluffchess_rules::{Actor, AnyGame, SaltSource, Seat, VARIANTS};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

/// ISMCTS iterations per measured decision.
const ITERATIONS: u64 = 4000;

/// The decision of the player to act after `plies` random actions from seed 11.
fn middle_game(variant: &str, plies: usize) -> Decision {
    let mut game = AnyGame::new(variant, &Default::default(), 11, SaltSource::Seeded(11)).unwrap();
    let mut played = 0;
    while played < plies || game.to_act() == Some(Actor::Chance) {
        match game.to_act().expect("the game lasts") {
            Actor::Chance => drop(game.roll().unwrap()),
            _ => {
                let action = game.random_action().unwrap();
                game.play(&action).unwrap();
                played += 1;
            }
        }
    }
    let color = game.to_act().and_then(Actor::color).unwrap();
    let legal = game.legal().unwrap();
    Decision::new(
        game.typed_view(Seat::from(color)),
        legal.actions,
        legal.setup,
    )
    .unwrap()
}

fn ismcts(c: &mut Criterion) {
    let mut group = c.benchmark_group("ismcts");
    group.sample_size(10);
    group.throughput(Throughput::Elements(ITERATIONS));
    for spec in VARIANTS {
        let decision = middle_game(spec.id, 24);
        let name = format!("ismcts:iterations={ITERATIONS}");
        group.bench_function(spec.id, |b| {
            b.iter(|| {
                let mut bot = BuiltIn::new(BotSpec::parse(&name).unwrap());
                black_box(bot.act(&decision, None))
            })
        });
    }
    group.finish();
}

fn alphabeta(c: &mut Criterion) {
    let mut group = c.benchmark_group("alphabeta");
    group.sample_size(10);
    // Alpha-beta over one world: the variants where nothing is hidden.
    for variant in VARIANTS.iter().filter(|v| !v.hidden).map(|v| v.id) {
        let decision = middle_game(variant, 16);
        let spec = BotSpec::parse("alphabeta:depth=4").unwrap();
        let nodes: u64 = BuiltIn::new(spec.clone())
            .act(&decision, None)
            .detail
            .split(", ")
            .nth(1)
            .and_then(|n| n.trim_end_matches(" nodes").parse().ok())
            .unwrap();
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(variant, |b| {
            b.iter(|| black_box(BuiltIn::new(spec.clone()).act(&decision, None)))
        });
    }
    group.finish();
}

criterion_group!(benches, ismcts, alphabeta);
criterion_main!(benches);
