//! Random playouts (whole games and actions per second) and resampling in the middle of a game,
//! for every variant. Run: `cargo bench -p bluffchess-rules --bench playouts`.

use bluffchess_rules::game::{EventKind, Game, Options, Seat};
use bluffchess_rules::playout::{random_action, random_playout};
use bluffchess_rules::variants::alter_ego::AlterEgo;
use bluffchess_rules::variants::ambiguous::Ambiguous;
use bluffchess_rules::variants::bluff_move::BluffMove;
use bluffchess_rules::variants::bs::Bs;
use bluffchess_rules::variants::chess::Chess;
use bluffchess_rules::variants::reality_check::RealityCheck;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::hint::black_box;

/// Games per measured batch, and the cap on a game's length.
const GAMES: u64 = 20;
const MAX_ACTIONS: usize = 2000;

fn batch<G: Game>(seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..GAMES)
        .map(|_| {
            let mut game = G::new(&Options::new()).unwrap();
            random_playout(&mut game, &mut rng, MAX_ACTIONS)
        })
        .sum()
}

fn playouts<G: Game>(c: &mut Criterion) {
    let actions = batch::<G>(1) as u64;
    let mut group = c.benchmark_group("playouts");
    group.sample_size(20);
    group.throughput(Throughput::Elements(GAMES));
    group.bench_function(BenchmarkId::new("games", G::ID), |b| {
        b.iter(|| batch::<G>(black_box(1)))
    });
    group.throughput(Throughput::Elements(actions));
    group.bench_function(BenchmarkId::new("actions", G::ID), |b| {
        b.iter(|| batch::<G>(black_box(1)))
    });
    group.finish();
}

/// A game still running after at least `actions` random actions, stopped where a hidden action
/// was just taken (the costly case for resampling) when one comes within 200 more.
fn middle_game<G: Game>(actions: usize, seed: u64) -> G {
    (seed..)
        .find_map(|seed| play_into_middle(actions, seed))
        .expect("some random game lasts")
}

fn play_into_middle<G: Game>(actions: usize, seed: u64) -> Option<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = G::new(&Options::new()).unwrap();
    for played in 0..actions + 200 {
        let sealed = game
            .events()
            .iter()
            .rev()
            .take(2)
            .any(|e| e.kind == EventKind::Sealed);
        if played >= actions && (sealed || played == actions + 199) {
            break;
        }
        let action = random_action(&game, &mut rng)?;
        game.apply(&action).unwrap();
    }
    game.outcome().is_none().then_some(game)
}

fn resample<G: Game>(c: &mut Criterion) {
    let game: G = middle_game(40, 3);
    let mut rng = StdRng::seed_from_u64(4);
    let mut group = c.benchmark_group("resample");
    group.throughput(Throughput::Elements(1));
    for seat in [Seat::White, Seat::Black, Seat::Spectator] {
        group.bench_function(BenchmarkId::new(G::ID, seat.name()), |b| {
            b.iter(|| game.resample(seat, &mut rng))
        });
    }
    group.finish();
}

fn all(c: &mut Criterion) {
    playouts::<Chess>(c);
    playouts::<AlterEgo>(c);
    playouts::<Ambiguous>(c);
    playouts::<Bs>(c);
    playouts::<RealityCheck>(c);
    playouts::<BluffMove>(c);
    resample::<Chess>(c);
    resample::<AlterEgo>(c);
    resample::<Ambiguous>(c);
    resample::<Bs>(c);
    resample::<RealityCheck>(c);
    resample::<BluffMove>(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
