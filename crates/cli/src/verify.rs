//! `bluffchess verify RECORD.json`: replays a game record and checks every opening against its
//! commitment, every roll against the seed, and the seed against its commitment.

use bluffchess_rules::any::verify;
use bluffchess_rules::record::Record;
use bluffchess_rules::seat::Actor;
use bluffchess_rules::verification::VerifyError;
use serde_json::Value;
use std::io::Read;

/// Records larger than this are refused unread.
const MAX_RECORD_BYTES: u64 = 64 * 1024 * 1024;

/// The exit codes, for `--help` (and docs/arbiter.md).
pub const EXIT_CODES: &str =
    "Exit codes: 0 the record is sound; 1 the record fails (the first bad entry is named); \
2 the input is not a record or cannot be read.";

/// Whether the record is sound; `Err((message, exit code))` says what is wrong.
/// Why a record was not verified.
#[derive(Debug, thiserror::Error)]
pub enum VerifyFailure {
    /// The input could not be read.
    #[error("cannot read {source_name}: {error}")]
    Read {
        /// Where it was read from.
        source_name: String,
        /// Why it failed.
        error: std::io::Error,
    },
    /// The input is too large to be a record.
    #[error("{0} is over {MAX_RECORD_BYTES} bytes: records are smaller")]
    TooLarge(String),
    /// The input is not a record.
    #[error("{source_name}: {problem}")]
    NotARecord {
        /// Where it was read from.
        source_name: String,
        /// What it is instead.
        problem: NotARecord,
    },
    /// The record fails: its first bad entry.
    #[error("record rejected ({id}): {0}", id = .0.id())]
    Rejected(#[from] VerifyError),
}

impl VerifyFailure {
    /// The exit code: 1 for a record that fails, 2 for input that is none (see [`EXIT_CODES`]).
    pub fn code(&self) -> u8 {
        match self {
            VerifyFailure::Rejected(_) => 1,
            _ => 2,
        }
    }
}

/// What the input is, when it is not a record.
#[derive(Debug, thiserror::Error)]
pub enum NotARecord {
    /// Not JSON.
    #[error("not JSON ({0})")]
    NotJson(serde_json::Error),
    /// The arbiter's refusal, not its record.
    #[error("an arbiter error, not a record: {0}")]
    ArbiterError(Value),
    /// JSON, but not a record.
    #[error("not a game record ({0})")]
    NotRecord(serde_json::Error),
}

pub fn run(source: &str) -> Result<String, VerifyFailure> {
    let text = read(source)?;
    let record = parse(&text).map_err(|problem| VerifyFailure::NotARecord {
        source_name: name(source).to_string(),
        problem,
    })?;
    let outcome = verify(&record)?;
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
fn read(source: &str) -> Result<String, VerifyFailure> {
    let mut text = String::new();
    let result = if source == "-" {
        std::io::stdin()
            .take(MAX_RECORD_BYTES + 1)
            .read_to_string(&mut text)
    } else {
        std::fs::File::open(source)
            .and_then(|f| f.take(MAX_RECORD_BYTES + 1).read_to_string(&mut text))
    };
    result.map_err(|error| VerifyFailure::Read {
        source_name: name(source).to_string(),
        error,
    })?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        return Err(VerifyFailure::TooLarge(name(source).to_string()));
    }
    Ok(text)
}

/// A record, alone or inside the arbiter's answer `{"ok":true,"record":{...}}`.
fn parse(text: &str) -> Result<Record, NotARecord> {
    let value: Value = serde_json::from_str(text).map_err(NotARecord::NotJson)?;
    let record = match value.get("record") {
        Some(record) if value.get("ok").is_some() => record.clone(),
        _ if value.get("ok") == Some(&Value::Bool(false)) => {
            return Err(NotARecord::ArbiterError(value["error"].clone()))
        }
        _ => value,
    };
    serde_json::from_value(record).map_err(NotARecord::NotRecord)
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
