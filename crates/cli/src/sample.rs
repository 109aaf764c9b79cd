//! `bluffchess sample`: games drawn from one seat's view, as a bot that knows only that view would
//! imagine them.

use bluffchess_rules::AnyView;
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
pub fn run(args: &SampleArgs) -> Result<(), String> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    let view = AnyView::from_json(&text).map_err(|e| e.to_string())?;
    let histories = view
        .sample(args.seed, args.count)
        .map_err(|e| e.to_string())?;
    let mut out = String::new();
    for history in histories {
        let line = serde_json::to_string(&history).map_err(|e| e.to_string())?;
        out.push_str(&line);
        out.push('\n');
    }
    print!("{out}");
    Ok(())
}
