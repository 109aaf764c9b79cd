//! Squares of the 39-square board: cells of the 7x9 grid, their names and their geometry.

use core::fmt;
use core::str::FromStr;

/// Cells of the 7x9 grid, on the board or not.
pub(super) const CELLS: usize = 63;

/// Whether file `file` (0 = `a`) and rank `rank` (0 = rank 1) is one of the 39 squares.
///
/// The diamond is the grid cut by four diagonals through `d1` and `d9`: the distance from the
/// d-file may not exceed the distance to either end rank. Being an intersection of half-planes, it
/// has no gaps along any line (checked in the tests), so a ray that leaves it is over.
pub(super) const fn on_board(file: i32, rank: i32) -> bool {
    let from_d = (file - 3).abs();
    file >= 0 && file < 7 && rank >= 0 && rank < 9 && from_d <= rank && from_d <= 8 - rank
}

/// The 39 squares of the board, bit `i` for the cell with index `i` (`Bitboard39::BOARD`).
pub(super) const BOARD_MASK: u64 = {
    let mut mask = 0;
    let mut i = 0;
    while i < CELLS {
        if on_board((i % 7) as i32, (i / 7) as i32) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
};

/// A cell of the 7x9 grid: `a1` is 0, `b1` is 1, ..., `g9` is 62.
///
/// Only 39 cells are squares of the board (see [`Square39::is_on_board`]); the others exist so that
/// the index arithmetic stays plain, and every constructor that takes coordinates refuses them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square39(pub(super) u8);

macro_rules! squares39 {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square39 {
            $(
                #[allow(missing_docs)]
                pub const $name: Square39 = Square39($i);
            )*
        }

        /// Every named constant with its name, for checking the indices above.
        #[cfg(test)]
        pub(super) const NAMED: &[(Square39, &str)] = &[$((Square39::$name, stringify!($name))),*];
    };
}

squares39! {
    D1 = 3,
    C2 = 9, D2 = 10, E2 = 11,
    B3 = 15, C3 = 16, D3 = 17, E3 = 18, F3 = 19,
    A4 = 21, B4 = 22, C4 = 23, D4 = 24, E4 = 25, F4 = 26, G4 = 27,
    A5 = 28, B5 = 29, C5 = 30, D5 = 31, E5 = 32, F5 = 33, G5 = 34,
    A6 = 35, B6 = 36, C6 = 37, D6 = 38, E6 = 39, F6 = 40, G6 = 41,
    B7 = 43, C7 = 44, D7 = 45, E7 = 46, F7 = 47,
    C8 = 51, D8 = 52, E8 = 53,
    D9 = 59,
}

impl Square39 {
    /// The 39 squares of the board, in index order (`d1` first, `d9` last).
    pub const ALL: [Square39; 39] = {
        let mut all = [Square39(0); 39];
        let mut n = 0;
        let mut i = 0;
        while i < CELLS {
            if on_board((i % 7) as i32, (i / 7) as i32) {
                all[n] = Square39(i as u8);
                n += 1;
            }
            i += 1;
        }
        assert!(n == 39, "the diamond has 39 squares");
        all
    };

    /// The grid cell at `index` (0 to 62), on the board or not.
    ///
    /// # Panics
    /// When `index` is 63 or more.
    #[inline]
    pub const fn new(index: u32) -> Square39 {
        assert!(
            index < CELLS as u32,
            "square index out of range for the 7x9 grid"
        );
        Square39(index as u8)
    }

    /// The grid cell at `index`, if it is below 63 (on the board or not).
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square39> {
        if index < CELLS as u32 {
            Some(Square39(index as u8))
        } else {
            None
        }
    }

    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), if it is one of the 39 squares.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square39> {
        if on_board(file as i32, rank as i32) {
            Some(Square39(rank * 7 + file))
        } else {
            None
        }
    }

    /// The index, 0 to 62.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file, 0 (`a`) to 6 (`g`).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 7
    }

    /// The rank, 0 (rank 1) to 8 (rank 9).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 7
    }

    /// Whether the cell is one of the 39 squares of the board.
    #[inline]
    pub const fn is_on_board(self) -> bool {
        BOARD_MASK & (1 << self.0) != 0
    }

    /// The square `df` files and `dr` ranks away, if it is one of the 39 squares.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square39> {
        // Saturating so that a huge step is merely off the board, never an overflow.
        let f = (self.file() as i32).saturating_add(df);
        let r = (self.rank() as i32).saturating_add(dr);
        if on_board(f, r) {
            Some(Square39((r * 7 + f) as u8))
        } else {
            None
        }
    }

    /// The cell mirrored top to bottom (rank `r` to `8 - r`, `d1` to `d9`): the same square seen
    /// from the other side. The diamond is symmetric, so squares stay squares.
    #[inline]
    pub const fn flip_vertical(self) -> Square39 {
        Square39((8 - self.rank()) * 7 + self.file())
    }

    /// Reads a square name such as `d5`; only the 39 squares of the board are accepted.
    pub fn parse(text: &str) -> Result<Square39, ParseSquare39Error> {
        let &[f, r] = text.as_bytes() else {
            return Err(ParseSquare39Error::Malformed(text.to_string()));
        };
        if !(b'a'..=b'g').contains(&f) || !(b'1'..=b'9').contains(&r) {
            return Err(ParseSquare39Error::Malformed(text.to_string()));
        }
        Square39::from_coords(f - b'a', r - b'1')
            .ok_or_else(|| ParseSquare39Error::OffBoard(text.to_string()))
    }
}

impl fmt::Display for Square39 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square39 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not one of the 39 squares of Reality Check's board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSquare39Error {
    /// Not a file `a`-`g` followed by a rank `1`-`9`.
    #[error(
        "invalid square {0:?} for the 39-square board: expected a file a-g and a rank 1-9, such as d5"
    )]
    Malformed(String),
    /// A cell of the 7x9 grid outside the diamond, such as `a1`.
    #[error(
        "invalid square {0:?} for the 39-square board: it lies outside the diamond (ranks 1 and 9 \
         have only d, ranks 2 and 8 c-e, ranks 3 and 7 b-f, ranks 4-6 a-g)"
    )]
    OffBoard(String),
}

impl ParseSquare39Error {
    /// The text that was refused.
    pub fn text(&self) -> &str {
        match self {
            ParseSquare39Error::Malformed(text) | ParseSquare39Error::OffBoard(text) => text,
        }
    }
}

impl FromStr for Square39 {
    type Err = ParseSquare39Error;
    fn from_str(s: &str) -> Result<Square39, ParseSquare39Error> {
        Square39::parse(s)
    }
}

crate::board::text::serde_as_text!(Square39, ParseSquare39Error, |text| text.parse());
