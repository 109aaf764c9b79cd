//! Reality Check's 39-square diamond, drawn from the seat's side: each piece's face up (White in
//! upper case, Black in lower case) and, after a slash, the face underneath where the seat knows
//! it (`N/B`, `r/b`); `*` marks a piece that may not be flipped this turn. Below the board: the
//! hands, the true pieces left and what is due.

use bluffchess_rules::board::board39::Square39;
use bluffchess_rules::board::Color;
use serde_json::Value;

/// Width of a square's cell: `N/B*` and a space.
const CELL: usize = 5;

/// The board and hands as `seat` sees them.
pub(super) fn board(position: &Value, seat: Color) -> String {
    let mut out = diamond(position, seat);
    let (own, other) = match seat {
        Color::White => ("white", "black"),
        Color::Black => ("black", "white"),
    };
    out.push_str(&hand_line("your", &position[own], true));
    out.push_str(&hand_line(&format!("{other}'s"), &position[other], false));
    if position["exempt"].as_array().is_some_and(|e| !e.is_empty()) {
        out.push_str("   * flipped or dropped last turn: may not be flipped now\n");
    }
    if let Some(due) = due(position, seat) {
        out.push_str(&format!("   {due}\n"));
    }
    out
}

/// Variant Zero (memory mode): the view with every face not in sight taken out, so the display
/// reminds nobody of faces seen before. Only the copy being drawn changes, never the game's view.
pub fn without_reminders(view: &mut Value) {
    let seat = view["seat"].as_str().unwrap_or("").to_string();
    let position = &mut view["position"];
    if let Some(board) = position["board"].as_array_mut() {
        for piece in board {
            piece["down"] = Value::Null;
        }
    }
    for side in ["white", "black"] {
        // The seat's own hand is in sight; what it remembers of the other hand is not.
        if side != seat {
            let count = position[side]["hand_count"].as_u64().unwrap_or(0) as usize;
            position[side]["hand"] = Value::Array(vec![Value::from("??"); count]);
        }
    }
}

/// The diamond, the seat's own side at the bottom.
fn diamond(position: &Value, seat: Color) -> String {
    let pieces = position["board"].as_array().cloned().unwrap_or_default();
    let exempt: Vec<&str> = position["exempt"]
        .as_array()
        .map(|e| e.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut ranks: Vec<u8> = (0..9).rev().collect();
    let mut files: Vec<u8> = (0..7).collect();
    if seat == Color::Black {
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::new();
    for &rank in &ranks {
        let mut line = format!(" {} ", rank + 1);
        for &file in &files {
            let Some(sq) = Square39::from_coords(file, rank) else {
                line.push_str(&" ".repeat(CELL));
                continue;
            };
            let name = sq.to_string();
            let piece = pieces.iter().find(|p| p["square"] == name.as_str());
            let mut cell = piece.map_or_else(|| ".".to_string(), cell_text);
            if exempt.contains(&name.as_str()) {
                cell.push('*');
            }
            line.push_str(&format!("{cell:<CELL$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let letters: String = files
        .iter()
        .map(|&f| format!("{:<CELL$}", (b'a' + f) as char))
        .collect();
    out.push_str(&format!("   {}\n", letters.trim_end()));
    out
}

/// A piece: its face up, and `/` and the face underneath when known, in its owner's case.
fn cell_text(piece: &Value) -> String {
    let case = |c: &str| match piece["color"].as_str() {
        Some("black") => c.to_lowercase(),
        _ => c.to_uppercase(),
    };
    let up = piece["up"].as_str().unwrap_or("?");
    match piece["down"].as_str() {
        Some(down) => case(&format!("{up}/{down}")),
        None => case(up),
    }
}

/// A hand: its size, its pieces as the seat knows them, the limit and the true pieces left.
fn hand_line(whose: &str, side: &Value, own: bool) -> String {
    let count = side["hand_count"].as_u64().unwrap_or(0);
    let pieces: Vec<&str> = side["hand"]
        .as_array()
        .map(|h| h.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let gone: Vec<&str> = side["gone"]
        .as_array()
        .map(|g| g.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let shown = if pieces.is_empty() || (!own && pieces.iter().all(|p| *p == "??")) {
        String::new()
    } else if own {
        format!(": {}", pieces.join(" "))
    } else {
        format!(" (remembered: {})", pieces.join(" "))
    };
    let mut line = format!(
        "   {whose} hand {count}{shown}, limit {}; true pieces in the game {}",
        side["hand_limit"], side["true_in_game"]
    );
    if !gone.is_empty() {
        line.push_str(&format!(" (gone: {})", gone.join(" ")));
    }
    line.push('\n');
    line
}

/// What the side to act must do, when it is not a plain turn.
fn due(position: &Value, seat: Color) -> Option<String> {
    let yours = position["turn"].as_str() == Some(seat.name());
    let who = if yours { "you" } else { "the opponent" };
    match position["step"].as_str()? {
        "setup" if yours => {
            Some("set up: setup random, or setup d1=RR c2=NB ... hand=NN (face up first)".into())
        }
        "flip" => Some(match position["die"].as_u64() {
            Some(n) => format!("the die shows {n}: {who} flip{} {}", s(yours), die(n)),
            None => format!("{who} flip{} a piece: flip <square>", s(yours)),
        }),
        "roll" => Some("the die is rolled".into()),
        "remove" => Some(format!(
            "the memory failed: {who} remove{} a true piece (remove <square> or remove XY)",
            s(yours)
        )),
        "turn" if position["must_drop"] == Value::Bool(true) => {
            Some(format!("{who} must drop: the hand is over its limit"))
        }
        _ => None,
    }
}

fn s(yours: bool) -> &'static str {
    if yours {
        ""
    } else {
        "s"
    }
}

fn die(n: u64) -> &'static str {
    match n {
        1 => "a piece showing P",
        2 => "a piece showing N",
        3 => "a piece showing B",
        4 => "a piece showing R",
        5 => "one of the mover's own pieces",
        _ => "one of the mover's opponent's pieces",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn position() -> Value {
        json!({
            "step": "turn", "turn": "white", "die": null, "must_drop": false,
            "board": [
                {"square": "d1", "color": "white", "up": "R", "down": "N"},
                {"square": "d9", "color": "black", "up": "R", "down": null},
                {"square": "c8", "color": "black", "up": "N", "down": "B"},
            ],
            "white": {"hand_count": 1, "hand": ["RR"], "hand_limit": 3, "true_in_game": 4, "gone": []},
            "black": {"hand_count": 2, "hand": ["N?", "??"], "hand_limit": 2, "true_in_game": 3,
                      "gone": ["BB"]},
            "exempt": ["c8"],
        })
    }

    #[test]
    fn the_diamond_from_both_sides() {
        let white = board(&position(), Color::White);
        let lines: Vec<&str> = white.lines().collect();
        assert_eq!(lines[0], " 9                r");
        assert_eq!(lines[1], " 8           n/b* .    .");
        assert_eq!(lines[4], " 5 .    .    .    .    .    .    .");
        assert_eq!(lines[8], " 1                R/N");
        assert_eq!(lines[9], "   a    b    c    d    e    f    g");
        assert!(white.contains("your hand 1: RR, limit 3; true pieces in the game 4"));
        assert!(white.contains("black's hand 2 (remembered: N? ??), limit 2"));
        assert!(white.contains("(gone: BB)"));
        let black = board(&position(), Color::Black);
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[0], " 1                R/N");
        assert_eq!(lines[7], " 8           .    .    n/b*");
        assert_eq!(lines[9], "   g    f    e    d    c    b    a");
    }

    #[test]
    fn memory_mode_draws_only_faces_in_sight() {
        let mut view = json!({ "seat": "white", "position": position() });
        without_reminders(&mut view);
        let white = board(&view["position"], Color::White);
        assert!(white.contains(" 1                R\n"), "{white}");
        assert!(white.contains(" 8           n*   .    .\n"), "{white}");
        assert!(white.contains("your hand 1: RR"));
        assert!(white.contains("black's hand 2, limit 2"), "{white}");
    }
}
