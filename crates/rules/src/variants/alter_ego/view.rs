//! What one seat knows in Alter Ego: the whole board and every move (with its death-move flag),
//! its own ego, and the enemy ego except while a decision of the enemy is sealed.

use super::state::AlterEgo;
use super::state::Phase;
use crate::board::{Color, Square};
use crate::game::Game;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// One side's alter ego as a seat knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EgoView {
    /// The square of the piece that holds it; for a sealed decision, the turn piece's square (the
    /// ego is there or was transferred). `None` before the side's first move.
    pub square: Option<Square>,
    /// Whether a decision about it is sealed: the seat does not know if it stayed.
    pub sealed: bool,
}

/// The position as one seat knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AlterEgoSummary {
    /// The board, as FEN.
    pub fen: String,
    /// The side to move on the board.
    pub turn: Color,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The last move, in UCI.
    pub last_move: Option<String>,
    /// Whether the last move was a death move.
    pub death_move: bool,
    /// Whether the mover of a death move is to decide now.
    pub deciding: bool,
    /// White's alter ego.
    pub white_ego: EgoView,
    /// Black's alter ego.
    pub black_ego: EgoView,
    /// The piece the side to move must move (after a transfer), when the seat knows it.
    pub bound: Option<Square>,
    /// The draw the side to move may claim now, if any.
    pub claimable_draw: Option<crate::outcome::EndReason>,
}

impl AlterEgoSummary {
    pub(super) fn of(game: &AlterEgo, seat: Seat, revealed: bool) -> AlterEgoSummary {
        let pos = game.position();
        let ego = |color: Color| {
            let knows = revealed || seat.color() == Some(color);
            match game.sealed[color.index()] {
                Some(_) if !knows => EgoView {
                    // A sealed decision is always the last action: the turn piece is where the
                    // last move landed.
                    square: game.history_last_move().map(|mv| mv.to),
                    sealed: true,
                },
                _ => EgoView {
                    square: game.ego[color.index()],
                    sealed: false,
                },
            }
        };
        let mover = pos.turn();
        let bound_known =
            revealed || seat.color() == Some(mover) || game.sealed[mover.index()].is_none();
        AlterEgoSummary {
            fen: pos.fen(),
            turn: mover,
            check: pos.is_check(),
            last_move: game.history_last_move().map(|m| m.to_string()),
            death_move: game.death_move,
            deciding: matches!(game.phase, Phase::Decision { .. }),
            white_ego: ego(Color::White),
            black_ego: ego(Color::Black),
            bound: game.bound[mover.index()].filter(|_| bound_known),
            claimable_draw: game.claimable_draw(mover),
        }
    }
}
