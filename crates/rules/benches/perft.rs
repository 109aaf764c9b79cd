//! Perft, bluffchess beside cozy-chess on the same positions, with bulk counting (the last ply's
//! moves counted from move sets) and without (every leaf played).
//! Run: `cargo bench -p bluffchess-rules --bench perft`.

use bluffchess_rules::chess::perft::{perft, perft_unbulked};
use bluffchess_rules::chess::Position;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const POSITIONS: [(&str, &str, u32); 2] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        5,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
];

fn cozy_perft(board: &cozy_chess::Board, depth: u32, bulk: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    board.generate_moves(|moves| {
        if bulk && depth == 1 {
            nodes += moves.len() as u64;
            return false;
        }
        for mv in moves {
            let mut child = board.clone();
            child.play_unchecked(mv);
            // The same leaf handling as bluffchess's unbulked perft.
            nodes += if depth == 1 {
                black_box(&child);
                1
            } else {
                cozy_perft(&child, depth - 1, bulk)
            };
        }
        false
    });
    nodes
}

fn bench_perft(c: &mut Criterion) {
    for (bulk, group_name) in [(true, "perft bulk"), (false, "perft unbulked")] {
        let mut group = c.benchmark_group(group_name);
        group.sample_size(10);
        for (name, fen, depth) in POSITIONS {
            let ours = Position::from_fen(fen).unwrap();
            let cozy: cozy_chess::Board = fen.parse().unwrap();
            let nodes = perft(&ours, depth);
            assert_eq!(nodes, cozy_perft(&cozy, depth, true));
            group.throughput(Throughput::Elements(nodes));
            let id = format!("{name} depth {depth}");
            group.bench_function(BenchmarkId::new("bluffchess", &id), |b| {
                b.iter(|| {
                    if bulk {
                        perft(black_box(&ours), depth)
                    } else {
                        perft_unbulked(black_box(&ours), depth)
                    }
                })
            });
            group.bench_function(BenchmarkId::new("cozy-chess", &id), |b| {
                b.iter(|| cozy_perft(black_box(&cozy), depth, bulk))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
