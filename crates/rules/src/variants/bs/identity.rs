//! Which moves each hidden identity of a BS Chess piece may really make.

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks,
};
use crate::board::identity::Identity;
use crate::board::{Bitboard, Color, Square};

/// The visible board: where each side's pieces stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placement(pub [Bitboard; 2]);

impl Placement {
    /// Every occupied square.
    pub fn occupied(&self) -> Bitboard {
        self.0[0] | self.0[1]
    }

    /// `color`'s squares.
    pub fn of(&self, color: Color) -> Bitboard {
        self.0[color.index()]
    }
}

/// One rank forward for `color`, if on the board.
fn forward(color: Color, sq: Square, ranks: i32) -> Option<Square> {
    sq.offset(0, color.fold(ranks, -ranks))
}

/// Whether `from -> to` is a pawn's move for `color` on the visible board: one step forward to an
/// empty square, two from the second rank over empty squares, or a diagonal step forward onto an
/// enemy piece. A pawn on its own back rank has no double step.
pub fn is_pawn_move(color: Color, from: Square, to: Square, board: &Placement) -> bool {
    let occupied = board.occupied();
    let one = forward(color, from, 1);
    if one == Some(to) {
        return !occupied.contains(to);
    }
    let second_rank = from.rank().relative_to(color).index() == 1;
    if second_rank && forward(color, from, 2) == Some(to) {
        return !occupied.contains(to) && one.is_some_and(|sq| !occupied.contains(sq));
    }
    let diagonal = one.is_some_and(|sq| {
        sq.rank() == to.rank() && sq.file().index().abs_diff(to.file().index()) == 1
    });
    diagonal && board.of(!color).contains(to)
}

/// Every move some chess piece type could make from `from` on the visible board (the legal input
/// of rule 3): a queen's or a knight's, which contain the king's and the pawn's.
#[inline]
pub fn input_targets(color: Color, from: Square, board: &Placement) -> Bitboard {
    (queen_attacks(from, board.occupied()) | knight_attacks(from)) - board.of(color)
}

/// Whether a piece of `identity` may really make `from -> to`. `captured` is the true identity of
/// the piece on `to`, if any (it only matters for the spy).
pub fn is_legal_for(
    identity: Identity,
    color: Color,
    from: Square,
    to: Square,
    board: &Placement,
    captured: Option<Identity>,
) -> bool {
    let occupied = board.occupied();
    let reach = match identity {
        Identity::Pawn => return is_pawn_move(color, from, to, board),
        Identity::Spy => {
            let assassination = matches!(captured, Some(Identity::King | Identity::Queen))
                && input_targets(color, from, board).contains(to);
            return assassination || is_pawn_move(color, from, to, board);
        }
        Identity::Knight => knight_attacks(from),
        Identity::Bishop => bishop_attacks(from, occupied),
        Identity::Rook => rook_attacks(from, occupied),
        Identity::Queen => queen_attacks(from, occupied),
        Identity::King => king_attacks(from),
    };
    (reach - board.of(color)).contains(to)
}
