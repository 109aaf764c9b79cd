//! `bluffchess verify RECORD.json`: replays a game record and checks every opening against its
//! commitment.

use bluffchess_rules::any::verify;
use bluffchess_rules::arbiter::Record;
use std::path::PathBuf;

/// Records larger than this are refused unread.
const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// Whether the record is sound; `Err((message, exit code))` says what is wrong.
pub fn run(path: &PathBuf) -> Result<String, (String, u8)> {
    let size = std::fs::metadata(path)
        .map_err(|e| (format!("cannot read {}: {e}", path.display()), 2))?
        .len();
    if size > MAX_RECORD_BYTES {
        return Err((
            format!(
                "{} is {size} bytes; records are at most {MAX_RECORD_BYTES}",
                path.display()
            ),
            2,
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| (format!("cannot read {}: {e}", path.display()), 2))?;
    let record: Record = serde_json::from_str(&text)
        .map_err(|e| (format!("{} is not a game record: {e}", path.display()), 1))?;
    let outcome = verify(&record).map_err(|e| (format!("record rejected: {e}"), 1))?;
    let commitments = record
        .actions
        .iter()
        .filter(|a| a.commitment.is_some())
        .count();
    Ok(format!(
        "record verified: {} {}, {} actions, {commitments} commitments checked, {}",
        record.variant,
        record.game_id,
        record.actions.len(),
        outcome.map_or("game not finished".to_string(), |o| o.to_string())
    ))
}
