//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.

use super::{Move, PieceMoves, Position};
use crate::board::{Bitboard, Role};

/// Calls `visit` with each move of a group; a hot-loop twin of the group's iterator.
#[inline(always)]
fn for_each_move(moves: PieceMoves, mut visit: impl FnMut(Move)) {
    let promoting = if moves.role == Role::Pawn {
        moves.to & Bitboard::BACKRANKS
    } else {
        Bitboard::EMPTY
    };
    for to in moves.to - promoting {
        visit(Move::new(moves.from, to));
    }
    for to in promoting {
        for role in Role::PROMOTIONS {
            visit(Move {
                from: moves.from,
                to,
                promotion: Some(role),
            });
        }
    }
}

/// The number of legal move sequences of `depth` plies, counting the last ply's moves in bulk
/// (from the size of each piece's move set, without playing them).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => {
            let mut nodes = 0;
            pos.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
            nodes
        }
        _ => {
            let mut nodes = 0;
            pos.generate_moves(|moves| {
                for_each_move(moves, |mv| {
                    let mut child = *pos;
                    child.play_role_unchecked(moves.role, mv);
                    nodes += perft(&child, depth - 1);
                });
                false
            });
            nodes
        }
    }
}

/// The same count as [`perft`], but every leaf is played: a measure of move making as well as
/// generation.
pub fn perft_unbulked(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    pos.generate_moves(|moves| {
        for_each_move(moves, |mv| {
            let mut child = *pos;
            child.play_role_unchecked(moves.role, mv);
            nodes += if depth == 1 {
                // Keeps the optimiser from skipping the making of a leaf nobody reads.
                std::hint::black_box(&child);
                1
            } else {
                perft_unbulked(&child, depth - 1)
            };
        });
        false
    });
    nodes
}

/// The count below each legal move (`depth` of at least 1), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
