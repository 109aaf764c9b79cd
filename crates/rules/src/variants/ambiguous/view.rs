//! Ambiguous Chess has no hidden information: every seat sees the whole game.

use super::state::Ambiguous;
use super::state::Phase;
use crate::board::{Color, Role, Square};
use serde::{Deserialize, Serialize};

/// The position, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AmbiguousSummary {
    /// The board, as FEN (castling is never possible).
    pub fen: String,
    /// The side whose piece moves this turn.
    pub turn: Color,
    /// `name` (the side to move names a square) or `pick` (its opponent picks the move).
    pub step: String,
    /// The square named, while the pick is due.
    pub named: Option<Square>,
    /// The moves to pick from, while the pick is due.
    pub candidates: Vec<String>,
    /// Whether the side to move's king is attacked.
    pub check: bool,
    /// The last move played.
    pub last_move: Option<String>,
}

impl AmbiguousSummary {
    pub(super) fn of(game: &Ambiguous) -> AmbiguousSummary {
        let pos = game.position();
        let (step, named, candidates) = match &game.phase {
            Phase::Name => ("name", None, Vec::new()),
            Phase::Pick(moves) => (
                "pick",
                moves.first().map(|m| m.to),
                moves.iter().map(ToString::to_string).collect(),
            ),
        };
        let has_king = pos.pieces(pos.turn(), Role::King).any();
        AmbiguousSummary {
            fen: pos.fen(),
            turn: pos.turn(),
            step: step.to_string(),
            named,
            candidates,
            check: has_king && pos.is_check(),
            last_move: game.last_move().map(|m| m.to_string()),
        }
    }
}
