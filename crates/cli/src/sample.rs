//! `bluffchess sample`: games drawn from one seat's view, as a bot that knows only that view would
//! imagine them.

use bluffchess_rules::any::{AnyView, ViewError};
use bluffchess_rules::error::BeliefError;
use std::io::Read;

/// The options of `bluffchess sample`.
#[derive(clap::Args)]
pub struct SampleArgs {
    /// The seed of the draws: the same view and seed print the same histories.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many histories to print.
    #[arg(long, default_value_t = 1)]
    count: usize,
}

/// Reads one view (JSON) on standard input and prints the drawn histories, one JSON object a
/// line; or says why the view is refused.
/// Why no games were drawn.
#[derive(Debug, thiserror::Error)]
pub enum SampleFailure {
    /// Standard input could not be read.
    #[error("cannot read standard input: {0}")]
    Input(std::io::Error),
    /// The input is not a view.
    #[error(transparent)]
    View(#[from] ViewError),
    /// No game shows the view.
    #[error(transparent)]
    Belief(#[from] BeliefError),
}

pub fn run(args: &SampleArgs) -> Result<(), SampleFailure> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(SampleFailure::Input)?;
    let view = AnyView::from_json(&text)?;
    let histories = view.sample(args.seed, args.count)?;
    let mut out = String::new();
    for history in histories {
        let line = serde_json::to_string(&history).expect("a history serialises");
        out.push_str(&line);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}
