//! Squares of the 39-square boards: cells of the 7x9 grid, their names, and [`Shape`]'s methods
//! on squares (which cells are squares of which board is in shape.rs).

use super::shape::{Shape, CELLS, MASKS};
use core::fmt;
use core::str::FromStr;

/// A cell of the 7x9 grid: `a1` is 0, `b1` is 1, ..., `g9` is 62.
///
/// Only 39 cells are squares of a board (see [`Shape::contains`]; the named constants are the basic
/// board's squares); the others exist so that the index arithmetic stays plain, and every
/// constructor that takes coordinates refuses them.
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
    /// The 39 squares of the basic board, in index order (`d1` first, `d9` last).
    pub const ALL: [Square39; 39] = *Shape::Basic.all();

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

    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), if it is one of the basic board's
    /// squares.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square39> {
        Shape::Basic.square(file, rank)
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

    /// Whether the cell is one of the basic board's squares.
    #[inline]
    pub const fn is_on_board(self) -> bool {
        Shape::Basic.contains(self)
    }

    /// The basic board's square `df` files and `dr` ranks away, if there is one.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square39> {
        Shape::Basic.offset(self, df, dr)
    }

    /// The cell mirrored top to bottom (rank `r` to `8 - r`, `d1` to `d9`): the same square seen
    /// from the other side. The diamond is symmetric, so squares stay squares.
    #[inline]
    pub const fn flip_vertical(self) -> Square39 {
        Square39((8 - self.rank()) * 7 + self.file())
    }

    /// Reads a square name such as `d5`; only the 39 squares of the basic board are accepted
    /// (see [`Shape::parse_square`] for either board).
    pub fn parse(text: &str) -> Result<Square39, ParseSquare39Error> {
        Shape::Basic.parse_square(text)
    }

    /// Reads a square name of either board (as serialised data holds them, for both boards).
    pub fn parse_any(text: &str) -> Result<Square39, ParseSquare39Error> {
        Shape::Basic
            .parse_square(text)
            .or_else(|basic| Shape::Advanced.parse_square(text).map_err(|_| basic))
    }
}

/// The squares of `shape` in index order.
const fn list(shape: Shape) -> [Square39; 39] {
    let mut all = [Square39(0); 39];
    let mut n = 0;
    let mut i = 0;
    while i < CELLS {
        if shape.has((i % 7) as i32, (i / 7) as i32) {
            all[n] = Square39(i as u8);
            n += 1;
        }
        i += 1;
    }
    assert!(n == 39, "both boards have 39 squares");
    all
}

const BASIC_SQUARES: [Square39; 39] = list(Shape::Basic);
const ADVANCED_SQUARES: [Square39; 39] = list(Shape::Advanced);

// Shape's methods on squares (shape.rs knows cells only as coordinates).
impl Shape {
    /// Its 39 squares in index order (`a1` or `d1` first).
    pub const fn all(self) -> &'static [Square39; 39] {
        match self {
            Shape::Basic => &BASIC_SQUARES,
            Shape::Advanced => &ADVANCED_SQUARES,
        }
    }

    /// Whether `sq` is one of its squares.
    #[inline]
    pub const fn contains(self, sq: Square39) -> bool {
        MASKS[self as usize] & (1 << sq.0) != 0
    }

    /// The square on `file` (0 = `a`) and `rank` (0 = rank 1), if it is one of its squares.
    #[inline]
    pub const fn square(self, file: u8, rank: u8) -> Option<Square39> {
        if self.has(file as i32, rank as i32) {
            Some(Square39(rank * 7 + file))
        } else {
            None
        }
    }

    /// The square `df` files and `dr` ranks from `sq`, if it is one of its squares.
    #[inline]
    pub const fn offset(self, sq: Square39, df: i32, dr: i32) -> Option<Square39> {
        // Saturating so that a huge step is merely off the board, never an overflow.
        let f = (sq.file() as i32).saturating_add(df);
        let r = (sq.rank() as i32).saturating_add(dr);
        if self.has(f, r) {
            Some(Square39((r * 7 + f) as u8))
        } else {
            None
        }
    }

    /// Reads a square name such as `d5`; only its own squares are accepted.
    pub fn parse_square(self, text: &str) -> Result<Square39, ParseSquare39Error> {
        let malformed = || ParseSquare39Error::Malformed(text.to_string(), self);
        let &[f, r] = text.as_bytes() else {
            return Err(malformed());
        };
        if !(b'a'..=b'g').contains(&f) || !(b'1'..b'1' + self.ranks()).contains(&r) {
            return Err(malformed());
        }
        self.square(f - b'a', r - b'1')
            .ok_or_else(|| ParseSquare39Error::OffBoard(text.to_string(), self))
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

/// A square name that is not one of the 39 squares of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSquare39Error {
    /// Not a file `a`-`g` followed by a rank of the board (`1`-`9`, or `1`-`7` on the Advanced
    /// board).
    Malformed(String, Shape),
    /// A cell of the board's frame that is not a square: outside the diamond (`a1` on the basic
    /// board), or a hole (`d6` on the Advanced board).
    OffBoard(String, Shape),
}

impl ParseSquare39Error {
    /// The text that was refused.
    pub fn text(&self) -> &str {
        match self {
            ParseSquare39Error::Malformed(text, _) | ParseSquare39Error::OffBoard(text, _) => text,
        }
    }
}

impl fmt::Display for ParseSquare39Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (ParseSquare39Error::Malformed(text, shape)
        | ParseSquare39Error::OffBoard(text, shape)) = self;
        write!(f, "invalid square {text:?} for {}: ", shape.title())?;
        match (self, shape) {
            (ParseSquare39Error::Malformed(..), Shape::Basic) => {
                f.write_str("expected a file a-g and a rank 1-9, such as d5")
            }
            (ParseSquare39Error::Malformed(..), Shape::Advanced) => {
                f.write_str("expected a file a-g and a rank 1-7, such as d4")
            }
            (ParseSquare39Error::OffBoard(..), Shape::Basic) => f.write_str(
                "it lies outside the diamond (ranks 1 and 9 have only d, ranks 2 and 8 c-e, \
                 ranks 3 and 7 b-f, ranks 4-6 a-g)",
            ),
            (ParseSquare39Error::OffBoard(..), Shape::Advanced) => f.write_str(
                "it is one of the ten holes (d6 c5 e5 b4 c4 e4 f4 c3 e3 d2), which are not squares",
            ),
        }
    }
}

impl std::error::Error for ParseSquare39Error {}

impl FromStr for Square39 {
    type Err = ParseSquare39Error;
    fn from_str(s: &str) -> Result<Square39, ParseSquare39Error> {
        Square39::parse(s)
    }
}

// Data (events' facts) holds squares of either board: which one a game uses is in its options.
crate::board::text::serde_as_text!(Square39, ParseSquare39Error, Square39::parse_any);
