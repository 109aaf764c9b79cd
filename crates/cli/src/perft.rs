//! `bluffchess perft`: node counts of the legal move tree.

use bluffchess_rules::chess::perft::{divide, perft};
use bluffchess_rules::chess::{fen, Position};
use clap::Args;
use std::io::Write;

/// The deepest search the command accepts: deeper ones would run for days.
const MAX_DEPTH: u32 = 12;

#[derive(Args)]
pub struct PerftArgs {
    /// The position, as FEN (default: the start position).
    #[arg(long, default_value = fen::START)]
    fen: String,
    /// How many plies to count (0 to 12).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: u32,
    /// Print the count below each legal move first, as `move: count`.
    #[arg(long)]
    divide: bool,
}

/// Prints the count (after the divided counts, if asked), or says what is wrong with the input.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let pos = Position::from_fen(&args.fen).map_err(|e| e.to_string())?;
    let mut out = std::io::stdout().lock();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (mv, nodes) in divide(&pos, args.depth) {
            writeln!(out, "{mv}: {nodes}").map_err(|e| e.to_string())?;
            total += nodes;
        }
        writeln!(out).map_err(|e| e.to_string())?;
        total
    } else {
        perft(&pos, args.depth)
    };
    writeln!(out, "{total}").map_err(|e| e.to_string())
}
