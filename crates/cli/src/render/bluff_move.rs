//! Bluff-move Chess: the 8x8 board as the seat sees it, its own bluffs marked `'` and the enemy
//! images it knows to be real marked `!`; other enemy images plain.

use super::chess::{chess_board, fen_rows};
use bluffchess_rules::board::Color;
use bluffchess_rules::variants::bluff_move::BluffMoveSummary;

/// The board with its marks and a legend.
pub(super) fn board(position: &BluffMoveSummary, seat: Color) -> String {
    let fen = position.fen.as_str();
    let mut marks = Vec::new();
    for bluff in &position.bluffs {
        marks.push((bluff.square.to_string(), '\''));
    }
    for real in &position.real {
        let square = real.to_string();
        let enemy = letter_on(fen, &square)
            .is_some_and(|c| c.is_ascii_uppercase() != (seat == Color::White));
        if enemy {
            marks.push((square, '!'));
        }
    }
    let mut out = chess_board(fen, seat, &marks);
    out.push_str(
        "   ' a bluff (its real piece stays hidden)   ! an enemy piece known to be real\n",
    );
    if let Some(quiet) = Some(position.quiet_moves).filter(|&q| q >= 150) {
        out.push_str(&format!(
            "   {quiet} moves without a real piece captured: the draw comes at 200\n"
        ));
    }
    out
}

/// The FEN letter on `square` (`e4`), if a piece stands there.
fn letter_on(fen: &str, square: &str) -> Option<char> {
    let bytes = square.as_bytes();
    let file = usize::from(bytes.first()?.checked_sub(b'a')?);
    let rank = usize::from(bytes.get(1)?.checked_sub(b'1')?);
    let letter = *fen_rows(fen).get(7usize.checked_sub(rank)?)?.get(file)?;
    (letter != '.').then_some(letter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn own_bluffs_and_enemy_pieces_known_real_are_marked() {
        let position: BluffMoveSummary = serde_json::from_value(json!({
            "fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b",
            "bluffs": [{"color": "white", "square": "e4", "real": "e2"}],
            "real": ["e2", "e8"],
            "turn": "black",
            "quiet_moves": 1,
        }))
        .unwrap();
        let out = board(&position, Color::White);
        assert!(out.contains(" 4 | . . . . P'. . . |"), "{out}");
        assert!(out.contains(" 8 | r n b q k!b n r |"), "{out}");
        assert!(out.contains(" 2 | P P P P P P P P |"), "{out}");
    }
}
