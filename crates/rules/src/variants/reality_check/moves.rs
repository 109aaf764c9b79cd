//! Where a piece may go by its face up, on the game's board.

use super::pieces::Face;
use crate::board::board39::{Bitboard39, Shape, Square39};

/// The squares a piece showing `face` on `from` may move to without capturing, given the occupied
/// squares: empty squares only.
#[inline]
pub(super) fn quiet_targets(
    board: Shape,
    face: Face,
    from: Square39,
    occupied: Bitboard39,
) -> Bitboard39 {
    let reach = match face {
        // A pawn moves one step orthogonally and captures one step diagonally, any way.
        Face::Pawn => board.orthogonal_neighbours(from),
        Face::Knight => board.knight_attacks(from),
        Face::Bishop => board.bishop_attacks(from, occupied),
        Face::Rook => board.rook_attacks(from, occupied),
    };
    reach - occupied
}

/// The occupied squares a piece showing `face` on `from` could capture on (own pieces included:
/// the caller keeps the ones it may take).
#[inline]
pub(super) fn capture_targets(
    board: Shape,
    face: Face,
    from: Square39,
    occupied: Bitboard39,
) -> Bitboard39 {
    let reach = match face {
        Face::Pawn => board.diagonal_neighbours(from),
        Face::Knight => board.knight_attacks(from),
        Face::Bishop => board.bishop_attacks(from, occupied),
        Face::Rook => board.rook_attacks(from, occupied),
    };
    reach & occupied
}

/// Both at once: the empty squares a piece showing `face` on `from` may move to, and the occupied
/// squares it could capture on (a slider's rays are traced once for both).
#[inline(always)]
pub(super) fn targets(
    board: Shape,
    face: Face,
    from: Square39,
    occupied: Bitboard39,
) -> (Bitboard39, Bitboard39) {
    match face {
        Face::Pawn => (
            board.orthogonal_neighbours(from) - occupied,
            board.diagonal_neighbours(from) & occupied,
        ),
        Face::Knight => {
            let reach = board.knight_attacks(from);
            (reach - occupied, reach & occupied)
        }
        Face::Bishop => {
            let reach = board.bishop_attacks(from, occupied);
            (reach - occupied, reach & occupied)
        }
        Face::Rook => {
            let reach = board.rook_attacks(from, occupied);
            (reach - occupied, reach & occupied)
        }
    }
}
