//! The perft suite in `data/perft.txt`: every count up to a node limit in a normal test run, all
//! of them under `--ignored` (run those in release mode).

use bluffchess_rules::chess::perft::{perft, perft_unbulked};
use bluffchess_rules::chess::Position;

struct Entry {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Entry> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|part| {
                    let mut words = part.split_whitespace();
                    let depth = words.next().unwrap().parse().unwrap();
                    let nodes = words.next().unwrap().parse().unwrap();
                    (depth, nodes)
                })
                .collect();
            Entry { fen, counts }
        })
        .collect()
}

fn check(node_limit: u64) -> usize {
    let mut checked = 0;
    for entry in suite() {
        let pos = Position::from_fen(&entry.fen).unwrap();
        for &(depth, nodes) in entry.counts.iter().filter(|(_, n)| *n <= node_limit) {
            assert_eq!(perft(&pos, depth), nodes, "{} at depth {depth}", entry.fen);
            checked += 1;
        }
    }
    checked
}

#[test]
fn perft_suite_up_to_a_million_nodes() {
    assert!(check(1_000_000) >= 25);
}

#[test]
fn unbulked_perft_counts_the_same() {
    for entry in suite() {
        let pos = Position::from_fen(&entry.fen).unwrap();
        for &(depth, nodes) in entry.counts.iter().filter(|(_, n)| *n <= 100_000) {
            assert_eq!(
                perft_unbulked(&pos, depth),
                nodes,
                "{} at depth {depth}",
                entry.fen
            );
        }
    }
}

#[test]
#[ignore = "billions of nodes: run in release mode"]
fn perft_suite_in_full() {
    let total: usize = suite().iter().map(|e| e.counts.len()).sum();
    assert_eq!(check(u64::MAX), total);
}
