//! Sets of squares of the 8x8 board, one bit a square.

use super::color::Color;
use super::select::nth_and_rest;
use super::square::{File, Rank, Square};
use core::fmt;
use core::ops::Not;

/// A set of squares: bit `i` is the square with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The first and last ranks, where pawns promote.
    pub const BACKRANKS: Bitboard = Bitboard(0xff00_0000_0000_00ff);
    /// The 32 light squares (`h1`, `a2`, ...).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares (`a1`, `b2`, ...).
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55aa_55aa_55aa_55aa);

    /// All squares of `file`.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(Self::FILE_A.0 << file.index())
    }

    /// All squares of `rank`.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(Self::RANK_1.0 << (8 * rank.index()))
    }

    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The highest square, if any.
    ///
    /// ```
    /// use bluffchess_rules::board::{Bitboard, Square};
    /// let [c2, f7] = ["c2", "f7"].map(|s| Square::parse(s).unwrap());
    /// let set = Bitboard::from(c2) | f7;
    /// assert_eq!((set.first(), set.last()), (Some(c2), Some(f7)));
    /// assert_eq!(Bitboard::EMPTY.last(), None);
    /// ```
    #[inline]
    pub const fn last(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(63 - self.0.leading_zeros()))
        }
    }

    /// The only square, if the set has exactly one.
    #[inline]
    pub const fn single(self) -> Option<Square> {
        if self.0 != 0 && !self.more_than_one() {
            self.first()
        } else {
            None
        }
    }

    /// Every square moved one rank towards rank 8 (`up` for White), squares leaving the board dropped.
    #[inline]
    pub const fn shift_up(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square moved one rank towards rank 1.
    #[inline]
    pub const fn shift_down(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Every square moved one rank ahead for `color` (towards its opponent's side).
    #[inline]
    pub const fn shift_forward(self, color: Color) -> Bitboard {
        // Both shifts, one kept: no branch on a colour a playout cannot foretell.
        let white = Bitboard::of_white(color);
        Bitboard((self.shift_up().0 & white) | (self.shift_down().0 & !white))
    }

    /// Every square moved one rank back for `color` (towards its own side).
    #[inline]
    pub const fn shift_back(self, color: Color) -> Bitboard {
        let white = Bitboard::of_white(color);
        Bitboard((self.shift_down().0 & white) | (self.shift_up().0 & !white))
    }

    /// Every bit set for White, none for Black.
    #[inline]
    const fn of_white(color: Color) -> u64 {
        (color as u64).wrapping_sub(1)
    }

    /// The set mirrored top to bottom.
    #[inline]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self)
    }
}

/// The squares of a [`Bitboard`], lowest first.
#[derive(Clone, Debug)]
pub struct Squares(Bitboard);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            return None;
        }
        // Below 64, as the set is not empty.
        let sq = Square::from_index_masked(self.0 .0.trailing_zeros());
        self.0 .0 &= self.0 .0 - 1;
        Some(sq)
    }

    /// The `n`th square, lowest first, with no square made before it: drawing a random move
    /// from a set goes straight to it.
    #[inline]
    fn nth(&mut self, n: usize) -> Option<Square> {
        let (index, rest) = nth_and_rest(self.0 .0, n);
        self.0 .0 = rest;
        index.map(Square::from_index_masked)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

square_set!(Bitboard, Square);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    /// Draws the set as an 8x8 grid, rank 8 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard({:#018x})", self.0)?;
        for rank in (0..8).rev() {
            for file in 0..8 {
                let sq = Square::new(rank * 8 + file);
                f.write_str(if self.contains(sq) { " X" } else { " ." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
