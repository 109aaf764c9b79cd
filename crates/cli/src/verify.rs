//! `bluffchess verify RECORD.json`: replays a game record and checks every opening against its
//! commitment, every roll against the seed, and the seed against its commitment.

use bluffchess_rules::any::verify;
use bluffchess_rules::arbiter::Record;
use bluffchess_rules::game::Actor;
use serde_json::Value;
use std::io::Read;

/// Records larger than this are refused unread.
const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// The exit codes, for `--help` (and docs/arbiter.md).
pub const EXIT_CODES: &str =
    "Exit codes: 0 the record is sound; 1 the record fails (the first bad entry is named); \
2 the input is not a record or cannot be read.";

/// Whether the record is sound; `Err((message, exit code))` says what is wrong.
pub fn run(source: &str) -> Result<String, (String, u8)> {
    let text = read(source).map_err(|e| (e, 2))?;
    let record = parse(&text).map_err(|e| (format!("{}: {e}", name(source)), 2))?;
    let outcome = verify(&record).map_err(|e| (format!("record rejected ({}): {e}", e.id()), 1))?;
    Ok(report(&record, outcome))
}

fn name(source: &str) -> &str {
    if source == "-" {
        "standard input"
    } else {
        source
    }
}

/// The text of the file, or of standard input for `-`.
fn read(source: &str) -> Result<String, String> {
    let mut text = String::new();
    let result = if source == "-" {
        std::io::stdin()
            .take(MAX_RECORD_BYTES + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(source)
            .and_then(|f| f.take(MAX_RECORD_BYTES + 1).read_to_string(&mut text))
    };
    result.map_err(|e| format!("cannot read {}: {e}", name(source)))?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "{} is over {MAX_RECORD_BYTES} bytes: records are smaller",
            name(source)
        ));
    }
    Ok(text)
}

/// A record, alone or inside the arbiter's answer `{"ok":true,"record":{...}}`.
fn parse(text: &str) -> Result<Record, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not JSON ({e})"))?;
    let record = match value.get("record") {
        Some(record) if value.get("ok").is_some() => record.clone(),
        _ if value.get("ok") == Some(&Value::Bool(false)) => {
            return Err(format!(
                "an arbiter error, not a record: {}",
                value["error"]
            ))
        }
        _ => value,
    };
    serde_json::from_value(record).map_err(|e| format!("not a game record ({e})"))
}

fn report(record: &Record, outcome: Option<bluffchess_rules::Outcome>) -> String {
    let commitments = record
        .actions
        .iter()
        .filter(|a| a.commitment.is_some())
        .count();
    let rolls = record
        .actions
        .iter()
        .filter(|a| a.actor == Actor::Chance)
        .count();
    let rolls = match (rolls, record.scripted) {
        (0, _) => String::new(),
        (n, false) => format!(", {n} rolls recomputed from the seed"),
        (n, true) => format!(", {n} rolls chosen by the players (a scripted game)"),
    };
    let seed = match (&record.seed_commitment, &record.seed_salt) {
        (Some(_), Some(_)) => ", the seed matches its commitment",
        (Some(_), None) => ", the seed's commitment not opened yet",
        (None, _) => ", no seed commitment (an older record)",
    };
    format!(
        "record verified: {} {}, {} actions, {commitments} commitments checked{rolls}{seed}; {}",
        record.variant,
        record.game_id,
        record.actions.len(),
        outcome.map_or("game not finished".to_string(), |o| o.to_string())
    )
}
