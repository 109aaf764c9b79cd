//! Candidate moves: every pseudo-legal chess move of one side (no castling; en passant allowed;
//! moves that leave the own king attacked allowed), each promotion type a separate move.

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, pawns_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::chess::{Move, PieceMoves, Position};
use arrayvec::ArrayVec;

/// The candidate moves to one square. At most sixteen pieces reach a square (the first piece on
/// each of eight lines, a knight on each of eight squares), each with at most four promotions.
pub(super) type Picks = ArrayVec<Move, 64>;

/// The side to move's candidate moves, piece by piece in the order of their squares; `passed`
/// is the square a pawn just passed with a double step (en passant onto it is allowed whatever
/// it does to the king).
pub fn candidates(pos: &Position, passed: Option<Square>) -> Vec<Move> {
    let board = Sides::of(pos, passed);
    board
        .ours
        .into_iter()
        .flat_map(|from| {
            let role = pos.role_at(from).expect("an own piece");
            let to = match role {
                Role::Pawn => pawn_targets(board.us, from, board.occupied, board.takeable),
                _ => attacks(role, from, board.occupied),
            };
            PieceMoves {
                role,
                from,
                to: to - board.ours,
            }
        })
        .collect()
}

/// The squares the side to move may name: where any of its pieces may go (see [`candidates`]).
/// Pawns are taken all at once, the other pieces a type at a time, with no branch on a piece's
/// type (a random position's types mispredict).
pub(super) fn destinations(pos: &Position, passed: Option<Square>) -> Bitboard {
    let board = Sides::of(pos, passed);
    let (us, ours, occupied) = (board.us, board.ours, board.occupied);
    let pawns = pos.pieces(us, Role::Pawn);
    let (one, two) = pawn_steps(us, pawns, occupied);
    let mut reach = one | two | (pawns_attacks(us, pawns) & board.takeable);
    for role in [
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ] {
        for from in pos.pieces(us, role) {
            reach |= attacks(role, from, occupied);
        }
    }
    reach - ours
}

/// The candidate moves to `square`, in the order of their pieces' squares (a pawn's promotions
/// together): the pieces that reach it are found from the square itself.
pub(super) fn to(pos: &Position, passed: Option<Square>, square: Square) -> Picks {
    let board = Sides::of(pos, passed);
    let (us, ours, occupied) = (board.us, board.ours, board.occupied);
    let mut moves = Picks::new();
    if ours.contains(square) {
        return moves;
    }
    let own = |role| pos.pieces(us, role);
    let queens = own(Role::Queen);
    let mut from = (knight_attacks(square) & own(Role::Knight))
        | (king_attacks(square) & own(Role::King))
        | (bishop_attacks(square, occupied) & (own(Role::Bishop) | queens))
        | (rook_attacks(square, occupied) & (own(Role::Rook) | queens));
    let pawns = own(Role::Pawn);
    if board.takeable.contains(square) {
        from |= pawn_attacks(!us, square) & pawns;
    }
    let target = Bitboard::from(square);
    from |= pushes_to(us, pawns, occupied, target);
    for from in from {
        let role = pos.role_at(from).expect("an own piece");
        moves.extend(PieceMoves {
            role,
            from,
            to: target,
        });
    }
    moves
}

/// The own pawns whose step forward (or double step) lands on `target`.
fn pushes_to(us: Color, pawns: Bitboard, occupied: Bitboard, target: Bitboard) -> Bitboard {
    let (one, two) = pawn_steps(us, pawns, occupied);
    let back = |set: Bitboard| set.shift_back(us);
    (back(one & target) | back(back(two & target))) & pawns
}

/// Every pawn's single steps onto empty squares, and double steps from its start over empty
/// squares (the squares they land on).
fn pawn_steps(us: Color, pawns: Bitboard, occupied: Bitboard) -> (Bitboard, Bitboard) {
    let empty = !occupied;
    match us {
        Color::White => {
            let one = pawns.shift_up() & empty;
            (one, (one & Bitboard::rank(Rank::new(2))).shift_up() & empty)
        }
        Color::Black => {
            let one = pawns.shift_down() & empty;
            (
                one,
                (one & Bitboard::rank(Rank::new(5))).shift_down() & empty,
            )
        }
    }
}

/// What a non-pawn piece of `role` on `from` attacks.
#[inline(always)]
fn attacks(role: Role, from: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Knight => knight_attacks(from),
        Role::Bishop => bishop_attacks(from, occupied),
        Role::Rook => rook_attacks(from, occupied),
        Role::Queen => bishop_attacks(from, occupied) | rook_attacks(from, occupied),
        _ => king_attacks(from),
    }
}

/// The sides as the candidates see them.
struct Sides {
    us: Color,
    ours: Bitboard,
    occupied: Bitboard,
    /// Where a pawn may step diagonally: enemy pieces, and the square a pawn just passed.
    takeable: Bitboard,
}

impl Sides {
    fn of(pos: &Position, passed: Option<Square>) -> Sides {
        let us = pos.turn();
        let theirs = pos.by_color(!us);
        Sides {
            us,
            ours: pos.by_color(us),
            occupied: pos.occupied(),
            takeable: theirs | passed.map_or(Bitboard::EMPTY, Bitboard::from),
        }
    }
}

/// A pawn's steps forward onto empty squares (two from its start), and its diagonal steps onto
/// `takeable` squares.
fn pawn_targets(us: Color, from: Square, occupied: Bitboard, takeable: Bitboard) -> Bitboard {
    let (one, two) = pawn_steps(us, Bitboard::from(from), occupied);
    one | two | (pawn_attacks(us, from) & takeable)
}
