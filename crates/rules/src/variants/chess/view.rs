//! Chess has no hidden information: every seat sees the whole position.

use super::state::Chess;
use crate::board::Color;
use crate::game::Game;
use serde::{Deserialize, Serialize};

/// The position, as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessSummary {
    /// The position as FEN.
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The last move played, in UCI.
    pub last_move: Option<String>,
    /// The draw the side to move may claim now, if any.
    pub claimable_draw: Option<crate::outcome::EndReason>,
}

impl ChessSummary {
    pub(super) fn of(game: &Chess) -> ChessSummary {
        let pos = game.position();
        ChessSummary {
            fen: pos.fen(),
            turn: pos.turn(),
            check: pos.is_check(),
            last_move: game.moves().last().map(|m| m.to_string()),
            claimable_draw: game.claimable_draw(pos.turn()),
        }
    }
}
