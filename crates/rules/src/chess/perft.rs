//! Perft: counting the leaf nodes of the legal move tree, the standard test of a move generator.

use super::movegen::PieceMoves;
use super::moves::Move;
use super::position::Position;
use crate::board::{Bitboard, Role, Square};

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
    match depth {
        0 => 1,
        1 => play_leaves(pos),
        _ => {
            let mut nodes = 0;
            pos.generate_moves(|moves| {
                for_each_move(moves, |mv| {
                    let mut child = *pos;
                    child.play_role_unchecked(moves.role, mv);
                    nodes += perft_unbulked(&child, depth - 1);
                });
                false
            });
            nodes
        }
    }
}

/// Plays each legal move of `pos` on a copy of it and counts them: the last ply of
/// [`perft_unbulked`].
fn play_leaves(pos: &Position) -> u64 {
    let mut nodes = 0;
    // Forced inline into each place the generator makes a group, where the group's type is a
    // constant: each copy keeps one arm of the match and makes moves of a known type. Leaves are
    // counted as they are played, not from the size of the group.
    pos.generate_moves(
        #[inline(always)]
        |moves| {
            let from = moves.from;
            macro_rules! leaves {
                ($role:expr) => {
                    for to in moves.to {
                        nodes += play_leaf(pos, $role, Move::new(from, to));
                    }
                };
            }
            match moves.role {
                Role::Pawn => {
                    let promoting = moves.to & Bitboard::BACKRANKS;
                    for to in moves.to - promoting {
                        nodes += play_leaf(pos, Role::Pawn, Move::new(from, to));
                    }
                    for to in promoting {
                        for role in Role::PROMOTIONS {
                            nodes += play_promotion(pos, from, to, role);
                        }
                    }
                }
                // One arm per type, so each copy plays moves of a type known at compile time.
                Role::Knight => leaves!(Role::Knight),
                Role::Bishop => leaves!(Role::Bishop),
                Role::Rook => leaves!(Role::Rook),
                Role::Queen => leaves!(Role::Queen),
                Role::King => leaves!(Role::King),
            }
            false
        },
    );
    nodes
}

/// Plays `mv` on a copy of `pos` that the optimiser may not skip, and counts it: 1.
#[inline(always)]
fn play_leaf(pos: &Position, role: Role, mv: Move) -> u64 {
    let mut child = *pos;
    child.play_role_unchecked(role, mv);
    // Keeps the optimiser from skipping the making of a leaf nobody reads.
    std::hint::black_box(&child);
    1
}

/// Plays a promotion on a copy of `pos`, and counts it: kept out of line, as promotions are
/// rare.
#[inline(never)]
fn play_promotion(pos: &Position, from: Square, to: Square, promotion: Role) -> u64 {
    play_leaf(
        pos,
        Role::Pawn,
        Move {
            from,
            to,
            promotion: Some(promotion),
        },
    )
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
