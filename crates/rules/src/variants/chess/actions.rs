//! Chess actions are moves in UCI (`e2e4`, `e7e8q`, castling as `e1g1`), read in any case, or
//! in SAN (`e4`, `Nf3`, `O-O`, `exd5`, `e8=Q`).

use crate::board::Role;
use crate::chess::san::{self, SanError};
use crate::chess::{Move, Position};
use crate::error::ActionError;

/// Reads a move in UCI or SAN; SAN is resolved against `legal`, the moves allowed now.
pub(crate) fn read_move(pos: &Position, legal: &[Move], text: &str) -> Result<Move, ActionError> {
    if let Ok(mv) = text.parse::<Move>() {
        return Ok(mv);
    }
    san::parse(pos, legal, text).map_err(|e| match e {
        SanError::Malformed => ActionError::malformed(text, e.to_string()),
        other => ActionError::illegal(text, other.to_string()),
    })
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
