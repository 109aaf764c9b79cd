//! Drawing a seat's view in the terminal.

use bluffchess_rules::board::Color;
use serde_json::Value;

/// The board as the seat sees it, its own side at the bottom.
pub fn board(variant: &str, view: &Value, seat: Color) -> String {
    match variant {
        "chess" => chess_board(view["position"]["fen"].as_str().unwrap_or(""), seat),
        _ => format!("{:#}", view["position"]),
    }
}

/// An 8x8 board from a FEN's placement field: upper case White, lower case Black, `.` empty.
pub fn chess_board(fen: &str, seat: Color) -> String {
    let placement = fen.split(' ').next().unwrap_or("");
    let mut rows: Vec<Vec<char>> = placement
        .split('/')
        .map(|rank| {
            rank.chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['.'; n as usize],
                    None => vec![c],
                })
                .collect()
        })
        .collect();
    let mut ranks: Vec<usize> = (1..=8).rev().collect();
    let mut files: Vec<char> = ('a'..='h').collect();
    if seat == Color::Black {
        rows.reverse();
        rows.iter_mut().for_each(|r| r.reverse());
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::from("   +-----------------+\n");
    for (row, rank) in rows.iter().zip(ranks) {
        let cells: Vec<String> = row.iter().map(char::to_string).collect();
        out.push_str(&format!(" {rank} | {} |\n", cells.join(" ")));
    }
    out.push_str("   +-----------------+\n");
    let letters: Vec<String> = files.iter().map(char::to_string).collect();
    out.push_str(&format!("     {}\n", letters.join(" ")));
    out
}

/// A line about the position worth saying (check, a claimable draw), if any.
pub fn status(view: &Value) -> Option<String> {
    let position = &view["position"];
    let mut notes = Vec::new();
    if position["check"] == Value::Bool(true) {
        notes.push("check!".to_string());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_from_both_sides() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let white = chess_board(fen, Color::White);
        assert!(white.contains(" 8 | r n b q k b n r |"), "{white}");
        assert!(white.contains(" 4 | . . . . P . . . |"), "{white}");
        assert!(white.ends_with("     a b c d e f g h\n"));
        let black = chess_board(fen, Color::Black);
        assert!(black.contains(" 1 | R N B K Q B N R |"), "{black}");
        assert!(black.ends_with("     h g f e d c b a\n"));
    }
}
