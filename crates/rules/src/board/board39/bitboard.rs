//! Sets of squares of the 39-square boards, one bit a cell.

use super::shape::{Shape, MASKS};
use super::square::Square39;
use crate::board::select::nth_and_rest;
use core::fmt;

/// A set of cells of the 7x9 grid: bit `i` is the cell with index `i`.
///
/// Sets built from a board's squares and operators stay within its squares ([`Shape::squares`]).
/// There is no `!`: the complement depends on the board, so it is written as a difference from
/// the board's squares. Only the public field or [`Bitboard39::with`] on an off-board cell can
/// put other bits in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard39(pub u64);

impl Bitboard39 {
    /// No squares.
    pub const EMPTY: Bitboard39 = Bitboard39(0);
    /// The 39 squares of the basic board.
    pub const BOARD: Bitboard39 = Shape::Basic.squares();

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square39> {
        Square39::try_new(self.0.trailing_zeros())
    }

    /// The only square, if the set has exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square39> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }
}

// Shape's methods on sets of squares (shape.rs knows cells only as bits).
impl Shape {
    /// Its 39 squares.
    #[inline]
    pub const fn squares(self) -> Bitboard39 {
        Bitboard39(MASKS[self as usize])
    }

    /// The cells of its frame that are not squares: the Advanced board's ten holes, the basic
    /// board's 24 cells around the diamond.
    pub const fn holes(self) -> Bitboard39 {
        let frame = (1u64 << (7 * self.ranks() as u32)) - 1;
        Bitboard39(frame & !MASKS[self as usize])
    }
}

impl Iterator for Bitboard39 {
    type Item = Square39;

    #[inline]
    fn next(&mut self) -> Option<Square39> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    /// The `n`th square, lowest first, with no square made before it (see
    /// [`crate::board::Squares`]).
    #[inline]
    fn nth(&mut self, n: usize) -> Option<Square39> {
        let (index, rest) = nth_and_rest(self.0, n);
        self.0 = rest;
        Square39::try_new(index?)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard39 {}

square_set!(Bitboard39, Square39);

impl fmt::Debug for Bitboard39 {
    /// Draws the set on the 7x9 grid, rank 9 on top: the diamond's cells as `.`, the others left
    /// blank, and every cell in the set as `X`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard39({:#018x})", self.0)?;
        for rank in (0..9).rev() {
            let mut row = String::new();
            for file in 0..7 {
                let sq = Square39::new(rank * 7 + file);
                row.push_str(match (sq.is_on_board(), self.contains(sq)) {
                    (_, true) => " X",
                    (false, false) => "  ",
                    (true, false) => " .",
                });
            }
            writeln!(f, "{}", row.trim_end())?;
        }
        Ok(())
    }
}
