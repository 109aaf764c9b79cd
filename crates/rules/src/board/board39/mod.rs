//! Reality Check's boards of 39 squares: squares ([`Square39`]), sets of squares ([`Bitboard39`]),
//! the two board shapes ([`Shape`]) and their attack tables, one file each, as for the 8x8 board.
//!
//! Both boards are cut out of a grid seven files wide, and both have 39 squares. The basic board
//! is the diamond of the 7x9 grid (files `a`-`g`, ranks `1`-`9`); the Advanced board (RULINGS.md,
//! Reality Check rule 8) is the 7x7 grid (ranks `1`-`7`) with ten holes (`-`), which are not
//! squares:
//!
//! ```text
//!   basic                Advanced
//! 9       .
//! 8     . . .
//! 7   . . . . .        7 . . . . . . .
//! 6 . . . . . . .      6 . . . - . . .
//! 5 . . . . . . .      5 . . - . - . .
//! 4 . . . . . . .      4 . - - . - - .
//! 3   . . . . .        3 . . - . - . .
//! 2     . . .          2 . . . - . . .
//! 1       .            1 . . . . . . .
//!   a b c d e f g        a b c d e f g
//! ```
//!
//! Grid cells are packed as `rank * 7 + file` (`a1` is 0, `g9` is 62) for both, so a set of them
//! fits in a `u64` with bit 63 unused. A step of `(df, dr)` changes the index by `df + 7 * dr`.
//! Attacks are built at compile time, per shape: leapers by table, sliders by per-direction rays
//! cut at the first blocker (the "classical" approach; no magics, the boards are too small to need
//! them). A ray ends at the edge or at a hole, so holes cost nothing at run time.

mod attacks;
mod bitboard;
mod shape;
mod square;
#[cfg(test)]
mod tests;

pub use attacks::{
    bishop_attacks, diagonal_neighbours, king_attacks, knight_attacks, orthogonal_neighbours,
    queen_attacks, rook_attacks,
};
pub use bitboard::Bitboard39;
pub use shape::Shape;
pub use square::{ParseSquare39Error, Square39};
