//! Sets of squares of the 39-square board, one bit a cell.

use super::square::{Square39, BOARD_MASK};
use core::fmt;
use core::ops::Not;

/// A set of cells of the 7x9 grid: bit `i` is the cell with index `i`.
///
/// Sets built from the board's squares and operators stay within [`Bitboard39::BOARD`]; `!` in
/// particular complements within the board. Only the public field or [`Bitboard39::with`] on an
/// off-board cell can put other bits in.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard39(pub u64);

impl Bitboard39 {
    /// No squares.
    pub const EMPTY: Bitboard39 = Bitboard39(0);
    /// The 39 squares of the board.
    pub const BOARD: Bitboard39 = Bitboard39(BOARD_MASK);

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

impl Iterator for Bitboard39 {
    type Item = Square39;

    #[inline]
    fn next(&mut self) -> Option<Square39> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard39 {}

square_set!(Bitboard39, Square39);

impl Not for Bitboard39 {
    type Output = Bitboard39;
    /// The board's squares that are not in the set: never a cell outside the diamond.
    #[inline]
    fn not(self) -> Bitboard39 {
        Bitboard39(!self.0 & Bitboard39::BOARD.0)
    }
}

impl fmt::Debug for Bitboard39 {
    /// Draws the set as the diamond, rank 9 on top, cells outside it left blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard39({:#018x})", self.0)?;
        for rank in (0..9).rev() {
            let mut row = String::new();
            for file in 0..7 {
                let sq = Square39::new(rank * 7 + file);
                row.push_str(match (sq.is_on_board(), self.contains(sq)) {
                    (false, _) => "  ",
                    (true, true) => " X",
                    (true, false) => " .",
                });
            }
            writeln!(f, "{}", row.trim_end())?;
        }
        Ok(())
    }
}
