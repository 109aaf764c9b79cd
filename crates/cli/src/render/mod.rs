//! Drawing a seat's view in the terminal: one file per board family, this one for what all
//! variants share (events, status lines).

mod bluff_move;
mod bs;
mod chess;
pub mod reality_check;

pub use bs::silly;

use bluffchess_rules::board::Color;
use chess::{alter_ego_board, ambiguous_board, chess_board};
use serde_json::Value;

/// The board as the seat sees it, its own side at the bottom.
pub fn board(variant: &str, view: &Value, seat: Color) -> String {
    let position = &view["position"];
    let fen = position["fen"].as_str().unwrap_or("");
    match variant {
        "chess" => chess_board(fen, seat, &[]),
        "alter-ego" => alter_ego_board(position, seat),
        "ambiguous" => ambiguous_board(position, seat),
        "bluff-move" => bluff_move::board(position, seat),
        "reality-check" => reality_check::board(position, seat),
        "bs" => bs::board(position, seat),
        _ => format!("{position:#}"),
    }
}

/// A line about the position worth saying (check, a claimable draw), if any.
pub fn status(view: &Value) -> Option<String> {
    let position = &view["position"];
    let mut notes = Vec::new();
    if position["check"] == Value::Bool(true) {
        notes.push("check!".to_string());
    }
    if position["death_move"] == Value::Bool(true) {
        notes.push("the last move was a death move".to_string());
    }
    if position["deciding"] == Value::Bool(true) {
        notes.push("decide: stay, or transfer <square>".to_string());
    }
    match position["step"].as_str() {
        Some("name") => notes.push(format!(
            "{} names a square; the opponent picks which piece goes there",
            position["turn"].as_str().unwrap_or("?")
        )),
        Some("pick") => notes.push(format!(
            "pick {}'s move to {}: {}",
            position["turn"].as_str().unwrap_or("?"),
            position["named"].as_str().unwrap_or("?"),
            position["candidates"]
                .as_array()
                .map(|c| c
                    .iter()
                    .filter_map(Value::as_str)
                    .collect::<Vec<_>>()
                    .join(", "))
                .unwrap_or_default()
        )),
        _ => {}
    }
    if let Some(bound) = position["bound"].as_str() {
        notes.push(format!("the ego is bound to the piece on {bound}"));
    }
    if let Some(claim) = position["claimable_draw"].as_str() {
        notes.push(format!("a draw may be claimed ({claim}): type claim"));
    }
    (!notes.is_empty()).then(|| notes.join("  "))
}

/// One event as a line: who, and what the seat was told.
pub fn event(event: &Value) -> String {
    let actor = event["actor"].as_str().unwrap_or("?");
    let text = event["text"].as_str().unwrap_or("");
    match event["kind"].as_str().unwrap_or("") {
        "sealed" => format!("{actor}: {text} (sealed)"),
        "reveal" => format!("{actor}: revealed {text}"),
        "info" => format!("  {text}"),
        "meta" => format!("{actor}: {}", text.replace('_', " ")),
        "end" => format!("game over: {text}"),
        _ => format!("{actor}: {text}"),
    }
}
