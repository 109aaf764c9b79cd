//! Reality Check's 39-square board: squares ([`Square39`]), sets of squares ([`Bitboard39`]) and
//! attack tables, one file each, as for the 8x8 board.
//!
//! The board is cut out of a 7x9 grid (files `a`-`g`, ranks `1`-`9`); only this diamond exists:
//!
//! ```text
//! 9       .
//! 8     . . .
//! 7   . . . . .
//! 6 . . . . . . .
//! 5 . . . . . . .
//! 4 . . . . . . .
//! 3   . . . . .
//! 2     . . .
//! 1       .
//!   a b c d e f g
//! ```
//!
//! Grid cells are packed as `rank * 7 + file` (`a1` is 0, `g9` is 62), so a set of them fits in a
//! `u64` with bit 63 unused. A step of `(df, dr)` changes the index by `df + 7 * dr`. Attacks are
//! built at compile time: leapers by table, sliders by per-direction rays cut at the first blocker
//! (the "classical" approach; no magics, the board is too small to need them).

mod attacks;
mod bitboard;
mod square;
#[cfg(test)]
mod tests;

pub use attacks::{
    bishop_attacks, diagonal_neighbours, king_attacks, knight_attacks, orthogonal_neighbours,
    queen_attacks, rook_attacks,
};
pub use bitboard::Bitboard39;
pub use square::{ParseSquare39Error, Square39};
