//! Candidate moves: every pseudo-legal chess move of one side (no castling; en passant allowed;
//! moves that leave the own king attacked allowed), each promotion type a separate move.

use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Role, Square};
use crate::chess::{Move, MoveList, Position};

/// The side to move's candidate moves; `passed` is the square a pawn just passed with a double
/// step (en passant onto it is allowed whatever it does to the king).
pub fn candidates(pos: &Position, passed: Option<Square>) -> Vec<Move> {
    let mut moves = MoveList::new();
    fill_candidates(pos, passed, &mut moves);
    moves.to_vec()
}

/// [`candidates`] into a list the caller keeps (no allocation).
pub(super) fn fill_candidates(pos: &Position, passed: Option<Square>, moves: &mut MoveList) {
    moves.clear();
    let us = pos.turn();
    let ours = pos.by_color(us);
    let theirs = pos.by_color(!us);
    let occupied = ours | theirs;
    for from in ours {
        let role = pos.role_at(from).expect("a piece stands on an own square");
        let targets = match role {
            Role::Pawn => pawn_targets(us, from, occupied, theirs, passed),
            Role::Knight => knight_attacks(from) - ours,
            Role::Bishop => bishop_attacks(from, occupied) - ours,
            Role::Rook => rook_attacks(from, occupied) - ours,
            Role::Queen => (bishop_attacks(from, occupied) | rook_attacks(from, occupied)) - ours,
            Role::King => king_attacks(from) - ours,
        };
        for to in targets {
            if role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
                moves.extend(Role::PROMOTIONS.map(|p| Move {
                    from,
                    to,
                    promotion: Some(p),
                }));
            } else {
                moves.push(Move::new(from, to));
            }
        }
    }
}

fn pawn_targets(
    us: Color,
    from: Square,
    occupied: Bitboard,
    theirs: Bitboard,
    passed: Option<Square>,
) -> Bitboard {
    let (step, start_rank) = match us {
        Color::White => (8i32, 1),
        Color::Black => (-8, 6),
    };
    let mut targets = Bitboard::EMPTY;
    // A pawn never stands on its last rank, so one step forward stays on the board.
    let one = Square::new((from.index() as i32 + step) as u32);
    if !occupied.contains(one) {
        targets = targets.with(one);
        if from.rank().index() == start_rank {
            let two = Square::new((one.index() as i32 + step) as u32);
            if !occupied.contains(two) {
                targets = targets.with(two);
            }
        }
    }
    let ep = passed.map_or(Bitboard::EMPTY, Bitboard::from);
    targets | (pawn_attacks(us, from) & (theirs | ep))
}

/// The squares a piece of the side to move can reach: the destinations it may name.
pub fn destinations(moves: &[Move]) -> Bitboard {
    moves.iter().map(|m| m.to).collect()
}
