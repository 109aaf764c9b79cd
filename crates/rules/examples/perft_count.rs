//! A fixed perft workload for profiling move generation and move making: unbulked perft of the
//! start position to depth 5 and of Kiwipete to depth 4, then the same with bulk counting.
//!
//! Instruction counts are stable on a busy machine where wall-clock timings are not:
//!
//! ```text
//! cargo build --release -p bluffchess-rules --example perft_count
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out target/release/examples/perft_count
//! callgrind_annotate /tmp/cg.out | head -40
//! ```
//!
//! Pass `unbulked` or `bulk` to run only one half.

use bluffchess_rules::chess::perft::{perft, perft_unbulked};
use bluffchess_rules::chess::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn main() {
    let which = std::env::args().nth(1).unwrap_or_default();
    let start = Position::default();
    let kiwipete = Position::from_fen(KIWIPETE).expect("valid FEN");
    for (name, bulk) in [("unbulked", false), ("bulk", true)] {
        if !which.is_empty() && which != name {
            continue;
        }
        let count = if bulk { perft } else { perft_unbulked };
        println!("{name} start depth 5: {}", count(&start, 5));
        println!("{name} kiwipete depth 4: {}", count(&kiwipete, 4));
    }
}
