//! Random playouts (whole games and actions per second) and resampling in the middle of a game,
//! for every variant. Run: `cargo bench -p bluffchess-rules --bench playouts`.

use bluffchess_rules::event::EventKind;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::log::Recording;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::{random_action, random_playout};
use bluffchess_rules::seat::Seat;
use bluffchess_rules::variants::{BluffMove, RealityCheck};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::hint::black_box;

/// The actions a measured batch plays at least (whole games, as many as it takes), and the cap
/// on a game's length. A fixed number of games is a small sample where games are short: twenty
/// games of BS (about 35 actions each) measured 9.8 M actions a second, four hundred 6.0 M.
const ACTIONS: usize = 20_000;
const MAX_ACTIONS: usize = 2000;

/// Random games from the start until `ACTIONS` actions are played: (games, actions).
fn batch<G: Game>(options: &Options, seed: u64) -> (u64, usize) {
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut games, mut actions) = (0, 0);
    while actions < ACTIONS {
        let mut game = G::new(options).unwrap();
        // The fast path of simulations: no event text, no keys.
        game.set_recording(Recording::Nothing);
        actions += random_playout(&mut game, &mut rng, MAX_ACTIONS);
        games += 1;
    }
    (games, actions)
}

fn playouts<G: Game>(c: &mut Criterion) {
    playouts_with::<G>(c, &[]);
}

/// Playouts under these options, named by the variant and the options (`reality-check
/// board=advanced`).
fn playouts_with<G: Game>(c: &mut Criterion, options: &[(&str, &str)]) {
    let rules: String = options.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    let options: Options = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let id = format!("{}{rules}", G::ID);
    let (games, actions) = batch::<G>(&options, 1);
    let mut group = c.benchmark_group("playouts");
    group.sample_size(20);
    group.throughput(Throughput::Elements(games));
    group.bench_function(BenchmarkId::new("games", &id), |b| {
        b.iter(|| batch::<G>(&options, black_box(1)))
    });
    group.throughput(Throughput::Elements(actions as u64));
    group.bench_function(BenchmarkId::new("actions", &id), |b| {
        b.iter(|| batch::<G>(&options, black_box(1)))
    });
    group.finish();
}

/// `count` games, each still running after at least `actions` random actions.
fn middle_games<G: Game>(options: &Options, actions: usize, count: usize) -> Vec<G> {
    (0..)
        .filter_map(|seed| play_into_middle(options, actions, seed))
        .take(count)
        .collect()
}

/// A game after at least `actions` random actions, stopped where a hidden action was just taken
/// (the costly case for resampling) when one comes within 200 more; `None` if it ended.
fn play_into_middle<G: Game>(options: &Options, actions: usize, seed: u64) -> Option<G> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = G::new(options).unwrap();
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

/// Resampling for each seat after `actions` random actions, in turn over eight games (one
/// position can be much easier or harder than the typical one).
fn resample<G: Game>(c: &mut Criterion, actions: usize, options: &[(&str, &str)]) {
    let options: Options = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let games: Vec<G> = middle_games(&options, actions, 8);
    let mut rng = StdRng::seed_from_u64(4);
    let mut group = c.benchmark_group("resample");
    group.throughput(Throughput::Elements(1));
    let rules: String = options.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    for seat in [Seat::White, Seat::Black, Seat::Spectator] {
        let id = format!("{}{rules} after {actions}", G::ID);
        let mut next = games.iter().cycle();
        group.bench_function(BenchmarkId::new(id, seat.name()), |b| {
            b.iter(|| next.next().unwrap().resample(seat, &mut rng))
        });
    }
    group.finish();
}

/// Beliefs for each seat after `actions` random actions, in turn over eight games: building one
/// from the seat's view, and drawing one sample from a built one.
fn belief<G: Game>(c: &mut Criterion, actions: usize, options: &[(&str, &str)]) {
    type B<G> = <G as Game>::Belief;
    let options: Options = options
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let games: Vec<G> = middle_games(&options, actions, 8);
    let mut rng = StdRng::seed_from_u64(4);
    let mut group = c.benchmark_group("belief");
    group.throughput(Throughput::Elements(1));
    let rules: String = options.iter().map(|(k, v)| format!(" {k}={v}")).collect();
    for seat in [Seat::White, Seat::Black, Seat::Spectator] {
        let views: Vec<_> = games.iter().map(|g| g.view(seat)).collect();
        let beliefs: Vec<B<G>> = views
            .iter()
            .map(|v| B::<G>::from_view(v).unwrap())
            .collect();
        let id = format!("{}{rules} after {actions}", G::ID);
        let mut next = views.iter().cycle();
        group.bench_function(BenchmarkId::new(format!("{id} build"), seat.name()), |b| {
            b.iter(|| B::<G>::from_view(next.next().unwrap()).unwrap())
        });
        let mut next = beliefs.iter().cycle();
        group.bench_function(BenchmarkId::new(format!("{id} sample"), seat.name()), |b| {
            b.iter(|| next.next().unwrap().sample(&mut rng))
        });
    }
    group.finish();
}

/// What every variant of the rules crate's list is measured on: its playouts, and resampling and
/// beliefs after 40 random actions.
macro_rules! every_variant {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        fn every_variant(c: &mut Criterion) {
            $(playouts::<$game>(c);)*
            $(
                resample::<$game>(c, 40, &[]);
                belief::<$game>(c, 40, &[]);
            )*
        }
    };
}
bluffchess_rules::for_each_variant!(every_variant);

/// Where one variant's costs depend on the game's length, options or board.
fn deeper(c: &mut Criterion) {
    playouts_with::<RealityCheck>(c, &[("board", "advanced")]);
    resample::<RealityCheck>(c, 150, &[]);
    // Random memories lose true pieces fast: those games are short.
    resample::<RealityCheck>(c, 40, &[("memory", "true")]);
    belief::<RealityCheck>(c, 150, &[]);
    belief::<RealityCheck>(c, 40, &[("memory", "true")]);
    belief::<RealityCheck>(c, 40, &[("dice", "true")]);
    belief::<RealityCheck>(c, 40, &[("dice", "true"), ("memory", "true")]);
    resample::<RealityCheck>(c, 40, &[("board", "advanced")]);
    belief::<RealityCheck>(c, 40, &[("board", "advanced")]);
    // Its search replays the whole history: late games cost more.
    resample::<BluffMove>(c, 120, &[]);
    belief::<BluffMove>(c, 120, &[]);
}

criterion_group!(benches, every_variant, deeper);
criterion_main!(benches);
