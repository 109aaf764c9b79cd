//! Reality Check's boards of 39 squares (the basic diamond, the Advanced board's 7x7 frame with
//! its holes left blank), drawn from the seat's side: each piece's face up (White in upper case,
//! Black in lower case) and, after a slash, the face underneath where the seat knows it (`N/B`,
//! `r/b`); `*` marks a piece that may not be flipped this turn. Below the board: the hands and
//! the true pieces left; the status says what is due.

use super::turn::Turn;
use bluffchess_rules::board::board39::Shape;
use bluffchess_rules::board::Color;
use bluffchess_rules::options::Options;
use bluffchess_rules::variants::reality_check::{PieceView, RealityCheckSummary, SideView};

/// Width of a square's cell: `N/B*` and a space.
const CELL: usize = 5;

/// The board a game's options name (`board=advanced`, or the basic one).
pub(super) fn shape(options: &Options) -> Shape {
    options
        .get("board")
        .and_then(|name| Shape::from_name(name))
        .unwrap_or_default()
}

/// The board and hands as `seat` sees them.
pub(super) fn board(position: &RealityCheckSummary, shape: Shape, seat: Color) -> String {
    let mut out = squares(position, shape, seat);
    let (own, other) = match seat {
        Color::White => (&position.white, &position.black),
        Color::Black => (&position.black, &position.white),
    };
    out.push_str(&hand_line("your", own, true));
    out.push_str(&hand_line(&format!("{}'s", !seat), other, false));
    if !position.exempt.is_empty() {
        out.push_str("   * flipped or dropped last turn: may not be flipped now\n");
    }
    out
}

/// Variant Zero (memory mode): the position with every face not in sight taken out, so the
/// display reminds nobody of faces seen before. Only the copy being drawn changes.
pub fn without_reminders(position: &mut RealityCheckSummary, seat: Color) {
    for piece in &mut position.board {
        piece.down = None;
    }
    // The seat's own hand is in sight; what it remembers of the other hand is not.
    let other = match seat {
        Color::White => &mut position.black,
        Color::Black => &mut position.white,
    };
    other.hand = vec!["??".to_string(); other.hand_count as usize];
}

/// The board, the seat's own side at the bottom; cells of the frame that are not squares are
/// left blank.
fn squares(position: &RealityCheckSummary, shape: Shape, seat: Color) -> String {
    let mut ranks: Vec<u8> = (0..shape.ranks()).rev().collect();
    let mut files: Vec<u8> = (0..7).collect();
    if seat == Color::Black {
        ranks.reverse();
        files.reverse();
    }
    let mut out = String::new();
    for &rank in &ranks {
        let mut line = format!(" {} ", rank + 1);
        for &file in &files {
            let Some(sq) = shape.square(file, rank) else {
                line.push_str(&" ".repeat(CELL));
                continue;
            };
            let name = sq.to_string();
            let piece = position.board.iter().find(|p| p.square == name);
            let mut cell = piece.map_or_else(|| ".".to_string(), cell_text);
            if position.exempt.contains(&name) {
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
fn cell_text(piece: &PieceView) -> String {
    let text = match piece.down {
        Some(down) => format!("{}/{down}", piece.up),
        None => piece.up.to_string(),
    };
    match piece.color {
        Color::Black => text.to_lowercase(),
        Color::White => text.to_uppercase(),
    }
}

/// A hand: its size, its pieces as the seat knows them, the limit and the true pieces left.
fn hand_line(whose: &str, side: &SideView, own: bool) -> String {
    let pieces = &side.hand;
    let shown = if pieces.is_empty() || (!own && pieces.iter().all(|p| p == "??")) {
        String::new()
    } else if own {
        format!(": {}", pieces.join(" "))
    } else {
        format!(" (remembered: {})", pieces.join(" "))
    };
    let mut line = format!(
        "   {whose} hand {}{shown}, limit {}; true pieces in the game {}",
        side.hand_count, side.hand_limit, side.true_in_game
    );
    if !side.gone.is_empty() {
        line.push_str(&format!(" (gone: {})", side.gone.join(" ")));
    }
    line.push('\n');
    line
}

/// What is due when it is not a plain turn: prompted to the seat that acts, while the other is
/// told who acts.
pub(super) fn due(position: &RealityCheckSummary, shape: Shape, turn: Turn) -> Option<String> {
    let who = turn.actor_name();
    let mine = turn.mine();
    Some(match position.step.as_str() {
        "setup" if mine && shape == Shape::Advanced => "set up on nine of your ten corner \
            squares: setup random, or setup d1=RR e1=NB ... hand=NN (face up first)"
            .into(),
        "setup" if mine => {
            "set up: setup random, or setup d1=RR c2=NB ... hand=NN (face up first)".into()
        }
        "setup" => format!("{who} is setting up"),
        "flip" => match (position.die, mine) {
            (Some(n), true) => format!("the die shows {n}: flip {} (flip <square>)", die(n)),
            (Some(n), false) => format!("the die shows {n}: {who} is flipping {}", die(n)),
            (None, true) => "flip a piece: flip <square>".into(),
            (None, false) => format!("{who} is flipping a piece"),
        },
        "roll" => "the die is rolled".into(),
        "remove" if mine => {
            "the memory failed: remove a true piece (remove <square> or remove XY)".into()
        }
        "remove" => format!("the memory failed: {who} is removing a true piece"),
        "turn" if position.must_drop && mine => "you must drop: your hand is over its limit".into(),
        "turn" if position.must_drop => format!("{who} must drop: the hand is over its limit"),
        _ => return None,
    })
}

fn die(n: u8) -> &'static str {
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

    fn position() -> RealityCheckSummary {
        let side = |count, hand: &[&str], limit, left, gone: &[&str]| {
            json!({"set_up": true, "hand_count": count, "hand": hand, "hand_limit": limit,
                   "true_in_game": left, "gone": gone, "drop_squares": []})
        };
        serde_json::from_value(json!({
            "step": "turn", "turn": "white", "die": null, "must_drop": false,
            "board": [
                {"square": "d1", "color": "white", "up": "R", "down": "N"},
                {"square": "d9", "color": "black", "up": "R", "down": null},
                {"square": "c8", "color": "black", "up": "N", "down": "B"},
            ],
            "white": side(1, &["RR"], 3, 4, &[]),
            "black": side(2, &["N?", "??"], 2, 3, &["BB"]),
            "exempt": ["c8"],
            "quiet_turns": 0,
        }))
        .unwrap()
    }

    #[test]
    fn the_diamond_from_both_sides() {
        let white = board(&position(), Shape::Basic, Color::White);
        let lines: Vec<&str> = white.lines().collect();
        assert_eq!(lines[0], " 9                r");
        assert_eq!(lines[1], " 8           n/b* .    .");
        assert_eq!(lines[4], " 5 .    .    .    .    .    .    .");
        assert_eq!(lines[8], " 1                R/N");
        assert_eq!(lines[9], "   a    b    c    d    e    f    g");
        assert!(white.contains("your hand 1: RR, limit 3; true pieces in the game 4"));
        assert!(white.contains("black's hand 2 (remembered: N? ??), limit 2"));
        assert!(white.contains("(gone: BB)"));
        let black = board(&position(), Shape::Basic, Color::Black);
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[0], " 1                R/N");
        assert_eq!(lines[7], " 8           .    .    n/b*");
        assert_eq!(lines[9], "   g    f    e    d    c    b    a");
    }

    #[test]
    fn memory_mode_draws_only_faces_in_sight() {
        let mut position = position();
        without_reminders(&mut position, Color::White);
        let white = board(&position, Shape::Basic, Color::White);
        assert!(white.contains(" 1                R\n"), "{white}");
        assert!(white.contains(" 8           n*   .    .\n"), "{white}");
        assert!(white.contains("your hand 1: RR"));
        assert!(white.contains("black's hand 2, limit 2"), "{white}");
    }

    #[test]
    fn the_advanced_board_from_both_sides_with_its_holes_blank() {
        let mut position = position();
        let piece = |square: &str, color: &str, up: &str| {
            serde_json::from_value(json!({"square": square, "color": color, "up": up,
                                          "down": null}))
            .unwrap()
        };
        position.board = vec![
            piece("d1", "white", "R"),
            piece("g4", "white", "N"),
            piece("a7", "black", "B"),
        ];
        position.exempt.clear();
        let white = board(&position, Shape::Advanced, Color::White);
        let lines: Vec<&str> = white.lines().collect();
        assert_eq!(lines[0], " 7 b    .    .    .    .    .    .");
        assert_eq!(lines[1], " 6 .    .    .         .    .    .");
        assert_eq!(lines[2], " 5 .    .         .         .    .");
        assert_eq!(lines[3], " 4 .              .              N");
        assert_eq!(lines[4], " 3 .    .         .         .    .");
        assert_eq!(lines[5], " 2 .    .    .         .    .    .");
        assert_eq!(lines[6], " 1 .    .    .    R    .    .    .");
        assert_eq!(lines[7], "   a    b    c    d    e    f    g");
        let black = board(&position, Shape::Advanced, Color::Black);
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[0], " 1 .    .    .    R    .    .    .");
        assert_eq!(lines[3], " 4 N              .              .");
        assert_eq!(lines[6], " 7 .    .    .    .    .    .    b");
        assert_eq!(lines[7], "   g    f    e    d    c    b    a");
        let options = Options::from([("board".to_string(), "advanced".to_string())]);
        assert_eq!(shape(&options), Shape::Advanced);
        assert_eq!(shape(&Options::new()), Shape::Basic);
    }
}
