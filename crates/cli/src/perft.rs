//! `bluffchess perft`: node counts of the legal move tree of orthodox chess (from any FEN), or of
//! the action tree of any variant from its start.

use bluffchess_rules::any::NewGameError;
use bluffchess_rules::chess::perft::{divide, perft};
use bluffchess_rules::chess::{fen, FenError, Position};
use bluffchess_rules::options::Options;
use clap::Args;
use std::io::Write;

/// The deepest search the command accepts: deeper ones would run for days.
const MAX_DEPTH: u32 = 12;

#[derive(Args)]
pub struct PerftArgs {
    /// The variant (`chess`, ...).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// For orthodox chess: the position, as FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// How many plies (actions) to count (0 to 12).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=MAX_DEPTH as i64))]
    depth: u32,
    /// The seed that fixes the setups of variants with a hidden setup (not counted).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A rules option, `name=value` (repeatable).
    #[arg(long = "option", value_parser = crate::options::parse_option)]
    options: Vec<(String, String)>,
    /// Print the count below each first move first, as `move: count`.
    #[arg(long)]
    divide: bool,
}

/// Prints the count (after the divided counts, if asked), or says what is wrong with the input.
/// Why nothing was counted.
#[derive(Debug, thiserror::Error)]
pub enum PerftFailure {
    /// `--fen` with another variant.
    #[error("--fen is for orthodox chess only, not {0:?}")]
    FenNotChess(String),
    /// The FEN does not read.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The variant or its options.
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// Standard output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub fn run(args: &PerftArgs) -> Result<(), PerftFailure> {
    let (total, divided) = if args.variant == "chess" && args.options.is_empty() {
        orthodox(args)?
    } else {
        if args.fen.is_some() {
            return Err(PerftFailure::FenNotChess(args.variant.clone()));
        }
        let options: Options = args.options.iter().cloned().collect();
        bluffchess_rules::any::perft(&args.variant, &options, args.seed, args.depth)?
    };
    let mut out = std::io::stdout().lock();
    if args.divide && args.depth > 0 {
        for (action, nodes) in divided {
            writeln!(out, "{action}: {nodes}")?;
        }
        writeln!(out)?;
    }
    Ok(writeln!(out, "{total}")?)
}

fn orthodox(args: &PerftArgs) -> Result<(u64, Vec<(String, u64)>), FenError> {
    let pos = Position::from_fen(args.fen.as_deref().unwrap_or(fen::START))?;
    if args.divide && args.depth > 0 {
        let divided: Vec<(String, u64)> = divide(&pos, args.depth)
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect();
        let total = divided.iter().map(|(_, n)| n).sum();
        Ok((total, divided))
    } else {
        Ok((perft(&pos, args.depth), Vec::new()))
    }
}
