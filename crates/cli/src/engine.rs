//! `bluffchess engine`: a built-in bot behind the engine protocol (DESIGN.md).

use bluffchess_ai::{engine, BotSpec, BuiltIn, SpecError};
use clap::Args;

/// The engine's arguments.
#[derive(Args)]
pub struct EngineArgs {
    /// The bot: random, greedy, alphabeta, ismcts or default, with parameters (`ismcts:ms=200`).
    #[arg(long, default_value = "default")]
    bot: String,
    /// The seed of the bot's random choices.
    #[arg(long)]
    seed: Option<u64>,
}

/// Answers requests on standard input until `quit` or its end.
/// Why the engine stopped.
#[derive(Debug, thiserror::Error)]
pub enum EngineFailure {
    /// `--bot` names no bot.
    #[error(transparent)]
    Bot(#[from] SpecError),
    /// Standard input or output failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

pub fn run(args: &EngineArgs) -> Result<(), EngineFailure> {
    let mut spec = BotSpec::parse(&args.bot)?;
    if let Some(seed) = args.seed {
        spec.seed = seed;
    }
    let mut bot = BuiltIn::new(spec);
    let stdin = std::io::stdin();
    Ok(engine::run(
        stdin.lock(),
        std::io::stdout().lock(),
        &mut bot,
    )?)
}
