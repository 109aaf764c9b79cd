//! Squares of the 8x8 board, with their files and ranks.

use super::color::Color;
use core::fmt;
use core::str::FromStr;

/// A square of the 8x8 board: `a1` is 0, `b1` is 1, ..., `h8` is 63.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

/// A file, `a` (0) to `h` (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

/// A rank, `1` (0) to `8` (7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

macro_rules! squares {
    ($($name:ident = $i:expr),* $(,)?) => {
        impl Square {
            $(
                #[allow(missing_docs)]
                pub const $name: Square = Square($i);
            )*
        }
    };
}

squares! {
    A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
    A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
    A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
    A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
    A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
    A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
    A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
    A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
}

impl Square {
    /// The 64 squares, `a1` first.
    pub const ALL: [Square; 64] = {
        let mut all = [Square(0); 64];
        let mut i = 0;
        while i < 64 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square at `index` (0 to 63).
    ///
    /// # Panics
    /// When `index` is 64 or more.
    #[inline]
    pub const fn new(index: u32) -> Square {
        assert!(index < 64, "square index out of range");
        Square(index as u8)
    }

    /// The square at `index`, if it is below 64.
    #[inline]
    pub const fn try_new(index: u32) -> Option<Square> {
        if index < 64 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The square at `index` modulo 64: for an index known to be below 64 (where a check would
    /// only cost time).
    #[inline(always)]
    pub(crate) const fn from_index_masked(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// The index, 0 to 63.
    #[inline(always)]
    pub const fn index(self) -> usize {
        // Every square is below 64; the mask lets the compiler see it and drop the bounds checks
        // of 64-entry tables (it costs nothing where the index is a shift amount).
        (self.0 & 63) as usize
    }

    /// The file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The square mirrored top to bottom (`a1` to `a8`): the same square seen from Black's side.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square as seen from `color`'s side: itself for White, mirrored for Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip_vertical(),
        }
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    #[inline]
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = self.0 as i32 % 8 + df;
        let r = self.0 as i32 / 8 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square((r * 8 + f) as u8))
        } else {
            None
        }
    }

    /// Reads a square name such as `e4`.
    pub fn parse(text: &str) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        Some(Square::from_coords(
            File::from_char(bytes[0] as char)?,
            Rank::from_char(bytes[1] as char)?,
        ))
    }
}

impl File {
    /// The index, 0 (`a`) to 7 (`h`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The file at `index` (0 to 7).
    #[inline]
    pub const fn new(index: u32) -> File {
        assert!(index < 8, "file index out of range");
        File(index as u8)
    }

    /// The letter, `a` to `h`.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Reads a letter `a` to `h`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            Some(File(c as u8 - b'a'))
        } else {
            None
        }
    }
}

impl Rank {
    /// The index, 0 (rank 1) to 7 (rank 8).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The rank at `index` (0 to 7).
    #[inline]
    pub const fn new(index: u32) -> Rank {
        assert!(index < 8, "rank index out of range");
        Rank(index as u8)
    }

    /// The digit, `1` to `8`.
    pub const fn char(self) -> char {
        (b'1' + self.0) as char
    }

    /// Reads a digit `1` to `8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Some(Rank(c as u8 - b'1'))
        } else {
            None
        }
    }

    /// The rank as seen from `color`'s side (rank 1 is Black's rank 8).
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank(7 - self.0),
        }
    }
}

impl Square {
    /// The name's two letters (`e4`), for writing it as part of a longer text.
    pub(crate) const fn name_bytes(self) -> [u8; 2] {
        [self.file().char() as u8, self.rank().char() as u8]
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written as one piece of text: event texts name many squares.
        let name = self.name_bytes();
        f.write_str(core::str::from_utf8(&name).expect("a square's name is ASCII"))
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A square name that is not `a1` to `h8`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid square {0:?}: expected a file a-h and a rank 1-8, such as e4")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::parse(s).ok_or_else(|| ParseSquareError(s.to_string()))
    }
}
