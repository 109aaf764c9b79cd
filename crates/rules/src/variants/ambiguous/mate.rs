//! Note 1's checkmate, decided by search: a side is trapped when, for every destination it could
//! name, the opponent can pick a move after which the side's king can be captured. In check that is
//! mate; out of check, stalemate. The search is the three parries of Note 1 played out: taking the
//! checker, a king move to a square no own piece can also reach, a block no other piece can also
//! make.

use super::candidates::candidates;
use crate::board::{Role, Square};
use crate::chess::{Move, Position};

/// Whether the opponent, picking among `moves` (all to one square), can leave the mover's king
/// capturable. A move that captures the enemy king wins at once, so it is never such a pick.
fn opponent_can_expose_king(pos: &Position, moves: &[Move]) -> bool {
    let us = pos.turn();
    let enemy_king = pos.pieces(!us, Role::King);
    moves.iter().any(|&mv| {
        if enemy_king.contains(mv.to) {
            return false;
        }
        let mut next = *pos;
        next.play_unchecked(mv);
        let king = next.king(us);
        next.attackers(king, !us, next.occupied()).any()
    })
}

/// Whether every destination the side to move could name lets the opponent expose its king.
/// False when it has no destination at all (that loses by another rule).
pub fn is_trapped(pos: &Position, passed: Option<Square>) -> bool {
    let moves = candidates(pos, passed);
    if moves.is_empty() {
        return false;
    }
    let mut by_destination: Vec<Move> = moves;
    by_destination.sort_by_key(|m| m.to);
    by_destination
        .chunk_by(|a, b| a.to == b.to)
        .all(|group| opponent_can_expose_king(pos, group))
}
