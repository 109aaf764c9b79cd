//! Chess actions are moves in UCI (`e2e4`, `e7e8q`, castling as `e1g1`).

use crate::board::Role;
use crate::chess::{Move, Position};
use crate::game::ActionError;

/// Reads a UCI move.
pub(super) fn parse(text: &str) -> Result<Move, ActionError> {
    text.parse::<Move>()
        .map_err(|e| ActionError::malformed(text, e.reason))
}

/// Refuses a move that is not legal, saying why in the mover's terms.
pub(crate) fn check_legal(pos: &Position, mv: Move) -> Result<(), ActionError> {
    if pos.is_legal(mv) {
        return Ok(());
    }
    let reason = match pos.piece_at(mv.from) {
        None => format!("there is no piece on {}", mv.from),
        Some(piece) if piece.color != pos.turn() => {
            format!("the piece on {} is not {}'s", mv.from, pos.turn())
        }
        Some(piece)
            if piece.role == Role::Pawn
                && mv.promotion.is_none()
                && pos
                    .legal_moves()
                    .iter()
                    .any(|m| m.from == mv.from && m.to == mv.to) =>
        {
            "a pawn reaching the last rank must name its promotion (q, r, b or n)".to_string()
        }
        Some(piece) => format!(
            "the {} on {} cannot move to {} now",
            piece.role, mv.from, mv.to
        ),
    };
    Err(ActionError::illegal(mv, reason))
}
