//! Candidate moves: every pseudo-legal chess move of one side (no castling; en passant allowed;
//! moves that leave the own king attacked allowed), each promotion type a separate move.

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::chess::{Move, PieceMoves, Position};
use arrayvec::ArrayVec;

/// The candidate moves to one square. At most sixteen pieces reach a square (the first piece on
/// each of eight lines, a knight on each of eight squares), each with at most four promotions.
pub(super) type Picks = ArrayVec<Move, 64>;

/// The side to move's candidate moves; `passed` is the square a pawn just passed with a double
/// step (en passant onto it is allowed whatever it does to the king).
pub fn candidates(pos: &Position, passed: Option<Square>) -> Vec<Move> {
    let mut candidates = Candidates::default();
    candidates.fill(pos, passed);
    candidates.moves().collect()
}

/// The side to move's candidate moves piece by piece, in the order of its squares: where each
/// piece may go, each promotion type a move of its own. Naming a square and judging the end read
/// only where the pieces may go, so the moves are never listed in play.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Candidates {
    /// The pieces that may move (at most every square: a position from a FEN may have more than
    /// sixteen pieces a side).
    pieces: ArrayVec<PieceMoves, 64>,
    destinations: Bitboard,
}

impl Candidates {
    /// Replaces them with those of `pos` (see [`candidates`]).
    pub fn fill(&mut self, pos: &Position, passed: Option<Square>) {
        self.pieces.clear();
        self.destinations = Bitboard::EMPTY;
        let us = pos.turn();
        let ours = pos.by_color(us);
        let theirs = pos.by_color(!us);
        let occupied = ours | theirs;
        let takeable = theirs | passed.map_or(Bitboard::EMPTY, Bitboard::from);
        // Each type's pieces together, with no branch on a piece's type (a random position's
        // types mispredict); then kept in the order of their squares.
        let mut reach = [(Role::Pawn, Bitboard::EMPTY); 64];
        for role in Role::ALL {
            for from in ours & pos.by_role(role) {
                let to = match role {
                    Role::Pawn => pawn_targets(us, from, occupied, takeable),
                    Role::Knight => knight_attacks(from),
                    Role::Bishop => bishop_attacks(from, occupied),
                    Role::Rook => rook_attacks(from, occupied),
                    Role::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
                    Role::King => king_attacks(from),
                };
                reach[from.index()] = (role, to - ours);
            }
        }
        for from in ours {
            let (role, to) = reach[from.index()];
            if to.any() {
                self.pieces.push(PieceMoves { role, from, to });
                self.destinations |= to;
            }
        }
    }

    /// The squares a piece of the side to move can reach: the squares it may name.
    pub fn destinations(&self) -> Bitboard {
        self.destinations
    }

    /// Whether no piece can move.
    pub fn is_empty(&self) -> bool {
        self.pieces.is_empty()
    }

    /// Every candidate move, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.pieces.iter().flat_map(|&piece| piece)
    }

    /// The candidate moves to `square`, in order.
    pub fn to(&self, square: Square) -> Picks {
        let only = Bitboard::from(square);
        let mut moves = Picks::new();
        for piece in self.pieces.iter().filter(|piece| piece.to.contains(square)) {
            moves.extend(PieceMoves { to: only, ..*piece });
        }
        moves
    }
}

/// A pawn's steps forward onto empty squares (two from its start), and its diagonal steps onto
/// `takeable` squares.
fn pawn_targets(us: Color, from: Square, occupied: Bitboard, takeable: Bitboard) -> Bitboard {
    let empty = !occupied;
    let pawn = Bitboard::from(from);
    // A pawn never stands on its last rank, so one step forward stays on the board.
    let (one, two) = match us {
        Color::White => {
            let one = pawn.shift_up() & empty;
            (one, (one & Bitboard::rank(Rank::new(2))).shift_up() & empty)
        }
        Color::Black => {
            let one = pawn.shift_down() & empty;
            (
                one,
                (one & Bitboard::rank(Rank::new(5))).shift_down() & empty,
            )
        }
    };
    one | two | (pawn_attacks(us, from) & takeable)
}
