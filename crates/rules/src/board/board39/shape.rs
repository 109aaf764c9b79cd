//! The two boards of 39 squares cut out of the 7-wide grid: the basic board (the diamond of the
//! 7x9 grid) and the Advanced board (the 7x7 grid with ten holes, RULINGS.md, Reality Check
//! rule 8). Both index their cells alike (`rank * 7 + file`), so one square type and one set type
//! serve both; what differs is which cells are squares, and the attack tables (attacks.rs).

use super::square::{on_board, CELLS};
use super::{Bitboard39, ParseSquare39Error, Square39};

/// Which board of 39 squares a game is played on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Shape {
    /// The seed's basic board: the diamond of the 7x9 grid (files `a`-`g`, ranks `1`-`9`).
    #[default]
    Basic = 0,
    /// The seed's Advanced board: the 7x7 grid (files `a`-`g`, ranks `1`-`7`) without its ten
    /// holes, d6 c5 e5 b4 c4 e4 f4 c3 e3 d2.
    Advanced = 1,
}

/// The Advanced board's holes as (file, rank) from 0, top rank first: d6 c5 e5 b4 c4 e4 f4 c3
/// e3 d2.
const HOLES: [(i32, i32); 10] = [
    (3, 5),
    (2, 4),
    (4, 4),
    (1, 3),
    (2, 3),
    (4, 3),
    (5, 3),
    (2, 2),
    (4, 2),
    (3, 1),
];

const fn is_hole(file: i32, rank: i32) -> bool {
    let mut i = 0;
    while i < HOLES.len() {
        if HOLES[i].0 == file && HOLES[i].1 == rank {
            return true;
        }
        i += 1;
    }
    false
}

/// The squares of `shape`, as a mask of cells.
const fn mask(shape: Shape) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < CELLS {
        if shape.has((i % 7) as i32, (i / 7) as i32) {
            mask |= 1 << i;
        }
        i += 1;
    }
    mask
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
const MASKS: [u64; 2] = [mask(Shape::Basic), mask(Shape::Advanced)];

impl Shape {
    /// Both boards, the basic one first.
    pub const ALL: [Shape; 2] = [Shape::Basic, Shape::Advanced];

    /// The option value that names it: `basic` or `advanced`.
    pub const fn name(self) -> &'static str {
        match self {
            Shape::Basic => "basic",
            Shape::Advanced => "advanced",
        }
    }

    /// The board named by an option value, `basic` or `advanced`.
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    /// How messages name it.
    pub(super) const fn title(self) -> &'static str {
        match self {
            Shape::Basic => "the basic board",
            Shape::Advanced => "the Advanced board",
        }
    }

    /// How many ranks its frame has: 9 or 7 (both have 7 files).
    pub const fn ranks(self) -> u8 {
        match self {
            Shape::Basic => 9,
            Shape::Advanced => 7,
        }
    }

    /// Whether file `file` (0 = `a`) and rank `rank` (0 = rank 1) is one of its squares.
    pub const fn has(self, file: i32, rank: i32) -> bool {
        match self {
            Shape::Basic => on_board(file, rank),
            Shape::Advanced => {
                file >= 0 && file < 7 && rank >= 0 && rank < 7 && !is_hole(file, rank)
            }
        }
    }

    /// Its 39 squares.
    #[inline]
    pub const fn squares(self) -> Bitboard39 {
        Bitboard39(MASKS[self as usize])
    }

    /// Its 39 squares in index order (`a1` or `d1` first).
    pub const fn all(self) -> &'static [Square39; 39] {
        match self {
            Shape::Basic => &BASIC_SQUARES,
            Shape::Advanced => &ADVANCED_SQUARES,
        }
    }

    /// The cells of its frame that are not squares: the Advanced board's ten holes, the basic
    /// board's 24 cells around the diamond.
    pub const fn holes(self) -> Bitboard39 {
        let frame = (1u64 << (7 * self.ranks() as u32)) - 1;
        Bitboard39(frame & !MASKS[self as usize])
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
