//! BS Chess: every piece where it stands, with what the seat knows of it.

use super::chess::chess_board;
use bluffchess_rules::board::Color;
use serde_json::Value;

/// The letter of an identity name (`knight` is N), upper case for White.
fn letter(identity: &str, color: &str) -> char {
    let c = match identity {
        "knight" => 'n',
        "spy" => 's',
        name => name.chars().next().unwrap_or('?'),
    };
    if color == "white" {
        c.to_ascii_uppercase()
    } else {
        c
    }
}

/// The board: known pieces by letter, unknown ones as `X` (White) or `x` (Black); `+` marks a
/// promoted piece, `>` and `*` the move waiting for an answer.
pub(super) fn board(position: &Value, seat: Color) -> String {
    let mut rows = [['.'; 8]; 8];
    let mut marks = Vec::new();
    for piece in position["pieces"].as_array().into_iter().flatten() {
        let square = piece["square"].as_str().unwrap_or("a1");
        let color = piece["color"].as_str().unwrap_or("white");
        let c = match piece["identity"].as_str() {
            Some(identity) => letter(identity, color),
            None if color == "white" => 'X',
            None => 'x',
        };
        let (file, rank) = (square.as_bytes()[0] - b'a', square.as_bytes()[1] - b'1');
        rows[7 - rank as usize][file as usize] = c;
        if piece["promoted"] == Value::Bool(true) {
            marks.push((square.to_string(), '+'));
        }
    }
    if let Some(pending) = position["pending"].as_object() {
        for (key, mark) in [("from", '>'), ("to", '*')] {
            if let Some(sq) = pending.get(key).and_then(Value::as_str) {
                marks.push((sq.to_string(), mark));
            }
        }
    }
    let placement: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let mut out = chess_board(&placement.join("/"), seat, &marks);
    out.push_str(
        "   X x a piece you do not know   + promoted   > * the move awaiting call or accept\n",
    );
    if let Some(pool) = position["own_pool"].as_array() {
        let names: Vec<&str> = pool.iter().filter_map(Value::as_str).collect();
        out.push_str(&format!(
            "   your lost pieces (promotion pool): {}\n",
            names.join(", ")
        ));
    }
    out
}

/// The seed's joke names, for `--theme silly`.
pub fn silly(text: &str) -> String {
    [
        ("pawn", "Dude"),
        ("knight", "Horsey"),
        ("bishop", "Pointy Hat"),
        ("rook", "Fort Dude"),
        ("queen", "Lady Person"),
        ("king", "Fancy Man"),
    ]
    .iter()
    .fold(text.to_string(), |text, (plain, silly)| {
        text.replace(plain, silly)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unknown_pieces_and_the_pending_move_are_drawn() {
        let position = json!({
            "pieces": [
                {"square": "e2", "color": "white", "identity": "knight", "promoted": false},
                {"square": "e7", "color": "black", "identity": null, "promoted": false},
                {"square": "a8", "color": "white", "identity": null, "promoted": true},
            ],
            "pending": {"from": "e2", "to": "e4", "promotion": false},
            "own_pool": ["rook"],
        });
        let text = board(&position, Color::White);
        assert!(text.contains(" 8 | X+. . . . . . . |"), "{text}");
        assert!(text.contains(" 7 | . . . . x . . . |"), "{text}");
        assert!(text.contains(" 4 | . . . . .*. . . |"), "{text}");
        assert!(text.contains(" 2 | . . . . N>. . . |"), "{text}");
        assert!(text.contains("promotion pool): rook"), "{text}");
        assert_eq!(
            silly("the piece on e4 is a knight"),
            "the piece on e4 is a Horsey"
        );
    }
}
