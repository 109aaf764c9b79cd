//! `bluffchess engine`: a built-in bot behind the engine protocol (DESIGN.md).

use bluffchess_ai::{engine, BotSpec, BuiltIn};
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
pub fn run(args: &EngineArgs) -> Result<(), String> {
    let mut spec = BotSpec::parse(&args.bot).map_err(|e| e.to_string())?;
    if let Some(seed) = args.seed {
        spec.seed = seed;
    }
    let mut bot = BuiltIn::new(spec);
    let stdin = std::io::stdin();
    engine::run(stdin.lock(), std::io::stdout().lock(), &mut bot).map_err(|e| e.to_string())
}
