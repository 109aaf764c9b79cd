//! What one seat knows in Bluff-move Chess: all its own pieces and which are bluffs; of the enemy,
//! one image per piece (the real piece, or its bluff while it has one), and which images it was
//! shown to be real. A spectator sees the images of both sides and what both were shown.

use super::state::BluffMove;
use crate::board::{Bitboard, Color, Piece, Square};
use crate::chess::fen;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// A bluff and the real piece it is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BluffView {
    /// Whose bluff it is.
    pub color: Color,
    /// Where the bluff stands.
    pub square: Square,
    /// Where its real piece stands.
    pub real: Square,
}

/// The position as one seat knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BluffMoveSummary {
    /// What the seat sees, as a FEN placement and the side to move: its own pieces, real and
    /// bluffs, and the enemy images (for a spectator: the images of both sides; after the game:
    /// everything).
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// The bluffs the seat knows, with their real pieces: its own (after the game: all).
    pub bluffs: Vec<BluffView>,
    /// The pieces on the board the seat knows to be real: its own real pieces, and the enemy
    /// images it was shown to be real since they last moved (after the game: all).
    pub real: Vec<Square>,
    /// Consecutive moves without a real piece leaving the game (the draw comes at 200).
    pub quiet_moves: u32,
}

impl BluffMoveSummary {
    pub(super) fn of(game: &BluffMove, seat: Seat, revealed: bool) -> BluffMoveSummary {
        let board = &game.board;
        let all = |f: &dyn Fn(Color) -> Bitboard| f(Color::White) | f(Color::Black);
        let (seen, bluffs, real) = match (revealed, seat.color()) {
            (true, _) => (
                all(&|c| board.own(c)),
                all(&|c| board.bluffs[c.index()]),
                all(&|c| board.real[c.index()]),
            ),
            (false, Some(us)) => (
                board.own(us) | board.images(!us),
                board.bluffs[us.index()],
                board.real[us.index()] | board.shown[(!us).index()],
            ),
            (false, None) => (
                all(&|c| board.images(c)),
                Bitboard::EMPTY,
                all(&|c| board.shown_public[c.index()]),
            ),
        };
        BluffMoveSummary {
            fen: placement(game, seen),
            turn: board.turn,
            bluffs: bluffs
                .into_iter()
                .map(|sq| BluffView {
                    color: board.color(sq).expect("a bluff has a side"),
                    square: sq,
                    real: board.real_of(sq),
                })
                .collect(),
            real: real.into_iter().collect(),
            quiet_moves: game.quiet,
        }
    }
}

/// The FEN placement of the pieces on `seen`, and the side to move.
fn placement(game: &BluffMove, seen: Bitboard) -> String {
    let board = &game.board;
    let piece_at = |sq| {
        let role = board.role(sq).filter(|_| seen.contains(sq))?;
        let color = board.color(sq).expect("a piece has a side");
        Some(Piece { color, role })
    };
    let mut fen = fen::placement(piece_at);
    fen.push(' ');
    fen.push(board.turn.fold('w', 'b'));
    fen
}
