//! The `bluffchess` command line.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod perft;

/// bluffchess: chess variants with hidden information.
#[derive(Parser)]
#[command(name = "bluffchess", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the legal move sequences of a given depth (a move generator test).
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => perft::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}
