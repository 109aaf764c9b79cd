//! BS Chess: every piece where it stands, with what the seat knows of it.

use super::chess::chess_board;
use super::turn::Turn;
use bluffchess_rules::board::Color;
use bluffchess_rules::variants::bs::BsSummary;

/// The letter of an identity name (`knight` is N), upper case for White.
fn letter(identity: &str, color: Color) -> char {
    let c = match identity {
        "knight" => 'n',
        "spy" => 's',
        name => name.chars().next().unwrap_or('?'),
    };
    match color {
        Color::White => c.to_ascii_uppercase(),
        Color::Black => c,
    }
}

/// The board: known pieces by letter, unknown ones as `X` (White) or `x` (Black); `+` marks a
/// promoted piece, `>` and `*` the move waiting for an answer.
pub(super) fn board(position: &BsSummary, seat: Color) -> String {
    let mut rows = [['.'; 8]; 8];
    let mut marks = Vec::new();
    for piece in &position.pieces {
        let c = match (&piece.identity, piece.color) {
            (Some(identity), color) => letter(identity, color),
            (None, Color::White) => 'X',
            (None, Color::Black) => 'x',
        };
        let (file, rank) = (piece.square.file().index(), piece.square.rank().index());
        rows[7 - rank][file] = c;
        if piece.promoted {
            marks.push((piece.square.to_string(), '+'));
        }
    }
    if let Some(pending) = position.pending {
        marks.push((pending.from.to_string(), '>'));
        marks.push((pending.to.to_string(), '*'));
    }
    let placement: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let mut out = chess_board(&placement.join("/"), seat, &marks);
    out.push_str(
        "   X x a piece you do not know   + promoted   > * the move awaiting call or accept\n",
    );
    if let Some(pool) = &position.own_pool {
        let pool = if pool.is_empty() {
            "none".to_string()
        } else {
            pool.join(", ")
        };
        out.push_str(&format!("   your lost pieces (promotion pool): {pool}\n"));
    }
    out
}

/// What is due, prompted only to the seat that acts; the other is told who acts.
pub(super) fn due(position: &BsSummary, turn: Turn) -> Option<String> {
    let who = turn.actor_name();
    Some(match (position.step.as_str(), turn.mine()) {
        ("setup", true) => {
            "set up: setup standard, setup random, or setup RNBQKBNR/PPPPPPPP (back rank first)"
                .into()
        }
        ("setup", false) => format!("{who} is setting up"),
        ("answer", true) => {
            let pending = position.pending?;
            format!(
                "answer {}{}: call (test it) or accept",
                pending.from, pending.to
            )
        }
        ("answer", false) => format!("{who} is answering your move: call or accept"),
        ("remove", true) => {
            "your call found a lawful move: remove one of your pieces (remove <square>)".into()
        }
        ("remove", false) => format!("{who} is removing one of their pieces"),
        _ => return None,
    })
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
        let position: BsSummary = serde_json::from_value(json!({
            "pieces": [
                {"square": "e2", "color": "white", "identity": "knight", "promoted": false},
                {"square": "e7", "color": "black", "identity": null, "promoted": false},
                {"square": "a8", "color": "white", "identity": null, "promoted": true},
            ],
            "pending": {"from": "e2", "to": "e4", "promotion": false},
            "own_pool": ["rook"],
            "step": "answer", "turn": "white", "lost": [1, 0], "quiet_moves": 0,
        }))
        .unwrap();
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
