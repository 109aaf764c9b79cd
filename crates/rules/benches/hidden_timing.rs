//! Timing side channels: how long a seat's legal-action list and a refusal take in two BS games
//! that differ only in what that seat may not see (the opponent's hidden setup), played alike
//! into the middle game. Equal times (within noise) mean the seat learns nothing by timing them.
//! Run: `cargo bench -p bluffchess-rules --bench hidden_timing`; docs/security.md has results.

use bluffchess_rules::arbiter::Arbiter;
use bluffchess_rules::commitment::SaltSource;
use bluffchess_rules::options::Options;
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::variants::bs::{Action, Bs, Identity, Setup};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::hint::black_box;

/// A move onto a square of Black's own back rank: refused in every game here.
const REFUSED: &str = "a1a8";

/// `setup` with its first two pieces of different kinds (never the king) exchanged: the same
/// look to the opponent, other identities.
fn exchanged(setup: Setup) -> Setup {
    let movable = |i: &usize| setup.0[*i] != Identity::King;
    let first = (0..16).find(movable).expect("pieces besides the king");
    let other = (first..16)
        .filter(movable)
        .find(|&j| setup.0[j] != setup.0[first])
        .expect("two kinds of pieces");
    let mut twin = setup;
    twin.0.swap(first, other);
    twin
}

/// Two games whose Black setups differ in hidden identities only, after the same `plies`
/// random actions (every challenge accepted, so nothing is revealed), White to act; `None` if
/// the game ended or the twins parted.
fn twins(seed: u64, plies: usize) -> Option<[Arbiter<Bs>; 2]> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut a: Arbiter<Bs> = Arbiter::new(&Options::new(), seed, SaltSource::Seeded(seed)).ok()?;
    let mut b = a.clone();
    let white = Action::Setup(Setup::random(false, &mut rng)).to_string();
    let black = Setup::random(false, &mut rng);
    a.play(&white).ok()?;
    b.play(&white).ok()?;
    a.play(&Action::Setup(black).to_string()).ok()?;
    b.play(&Action::Setup(exchanged(black)).to_string()).ok()?;
    let mut played = 0;
    while played < plies || a.to_act() != Some(Actor::White) {
        let mut action = random_action(a.game(), &mut rng)?;
        if action == Action::Call {
            action = Action::Accept;
        }
        let text = action.to_string();
        a.play(&text).ok()?;
        b.play(&text).ok()?;
        played += 1;
    }
    let refusal = |g: &mut Arbiter<Bs>| g.play(REFUSED).err().map(|e| e.to_string());
    let same =
        a.legal() == b.legal() && refusal(&mut a).is_some_and(|e| Some(e) == refusal(&mut b));
    (a.outcome().is_none() && same).then_some([a, b])
}

fn timing(c: &mut Criterion) {
    let mut group = c.benchmark_group("hidden_timing_bs");
    group.sample_size(50);
    for plies in [0, 40] {
        let games = (0..)
            .find_map(|seed| twins(seed, plies))
            .expect("a game still running");
        for (name, mut game) in ["setup", "exchanged"].into_iter().zip(games) {
            let at = format!("{plies}-plies/{name}");
            group.bench_function(BenchmarkId::new("white-legal", &at), |bench| {
                bench.iter(|| black_box(&game).legal())
            });
            // The refusal changes nothing, so the same game serves every iteration.
            group.bench_function(BenchmarkId::new("white-refused", &at), |bench| {
                bench.iter(|| black_box(&mut game).play(black_box(REFUSED)).is_err())
            });
            group.bench_function(BenchmarkId::new("white-view", &at), |bench| {
                bench.iter(|| black_box(&game).view(Seat::White))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, timing);
criterion_main!(benches);
