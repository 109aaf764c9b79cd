//! The two boards of 39 squares cut out of the 7-wide grid: the basic board (the diamond of the
//! 7x9 grid) and the Advanced board (the 7x7 grid with ten holes, RULINGS.md, Reality Check
//! rule 8). Both index their cells alike (`rank * 7 + file`), so one square type and one set type
//! serve both; what differs is which cells are squares, and the attack tables (attacks.rs).
//!
//! This file knows cells only as coordinates and bits, so that it imports nothing: [`Shape`]'s
//! methods on squares are beside [`Square39`](super::Square39) in square.rs, those on sets beside
//! [`Bitboard39`](super::Bitboard39) in bitboard.rs.

/// Cells of the 7x9 grid, on the board or not.
pub(super) const CELLS: usize = 63;

/// Whether file `file` (0 = `a`) and rank `rank` (0 = rank 1) is one of the basic board's 39
/// squares.
///
/// The diamond is the grid cut by four diagonals through `d1` and `d9`: the distance from the
/// d-file may not exceed the distance to either end rank. Being an intersection of half-planes, it
/// has no gaps along any line (checked in the tests), so a ray that leaves it is over.
pub(super) const fn on_board(file: i32, rank: i32) -> bool {
    let from_d = (file - 3).abs();
    file >= 0 && file < 7 && rank >= 0 && rank < 9 && from_d <= rank && from_d <= 8 - rank
}

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

/// The squares of each shape, as masks of cells, indexed by the shape.
pub(super) const MASKS: [u64; 2] = [mask(Shape::Basic), mask(Shape::Advanced)];

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
}
