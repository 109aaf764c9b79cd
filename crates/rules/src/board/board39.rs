//! Reality Check's 39-square board: squares, sets of squares and attack tables.
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

use core::fmt;
use core::ops::Not;
use core::str::FromStr;

/// Cells of the 7x9 grid, on the board or not.
const CELLS: usize = 63;

/// Whether file `file` (0 = `a`) and rank `rank` (0 = rank 1) is one of the 39 squares.
///
/// The diamond is the grid cut by four diagonals through `d1` and `d9`: the distance from the
/// d-file may not exceed the distance to either end rank. Being an intersection of half-planes, it
/// has no gaps along any line (checked in the tests), so a ray that leaves it is over.
const fn on_board(file: i32, rank: i32) -> bool {
    let from_d = (file - 3).abs();
    file >= 0 && file < 7 && rank >= 0 && rank < 9 && from_d <= rank && from_d <= 8 - rank
}

/// A cell of the 7x9 grid: `a1` is 0, `b1` is 1, ..., `g9` is 62.
///
/// Only 39 cells are squares of the board (see [`Square39::is_on_board`]); the others exist so that
/// the index arithmetic stays plain, and every constructor that takes coordinates refuses them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square39(u8);

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
        const NAMED: &[(Square39, &str)] = &[$((Square39::$name, stringify!($name))),*];
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
        Bitboard39::BOARD.0 & (1 << self.0) != 0
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
    pub const BOARD: Bitboard39 = {
        let mut mask = 0;
        let mut i = 0;
        while i < CELLS {
            if on_board((i % 7) as i32, (i / 7) as i32) {
                mask |= 1 << i;
            }
            i += 1;
        }
        Bitboard39(mask)
    };

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

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard39; CELLS] {
    // Cells off the board keep an empty entry: no piece stands there.
    let mut table = [Bitboard39::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        let sq = Square39(i as u8);
        if sq.is_on_board() {
            let mut attacks = 0;
            let mut s = 0;
            while s < steps.len() {
                if let Some(to) = sq.offset(steps[s].0, steps[s].1) {
                    attacks |= 1 << to.index();
                }
                s += 1;
            }
            table[i] = Bitboard39(attacks);
        }
        i += 1;
    }
    table
}

const ORTHOGONAL_STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAGONAL_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

static KNIGHT: [Bitboard39; CELLS] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard39; CELLS] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN_MOVES: [Bitboard39; CELLS] = leaper_table(&ORTHOGONAL_STEPS);
static PAWN_CAPTURES: [Bitboard39; CELLS] = leaper_table(&DIAGONAL_STEPS);

/// The eight line directions as (file step, rank step), indexed by the constants below. The first
/// four raise the index (`df + 7 * dr > 0`), so their nearest blocker is the lowest set bit; the
/// last four lower it, so theirs is the highest.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];
const EAST: usize = 0;
const NORTH: usize = 1;
const NORTH_EAST: usize = 2;
const NORTH_WEST: usize = 3;
const WEST: usize = 4;
const SOUTH: usize = 5;
const SOUTH_WEST: usize = 6;
const SOUTH_EAST: usize = 7;

// The blocker search below relies on the sign of each direction's index step.
const _: () = {
    let mut d = 0;
    while d < 8 {
        let step = DIRECTIONS[d].0 + 7 * DIRECTIONS[d].1;
        assert!(
            (step > 0) == (d < 4),
            "increasing directions must come first"
        );
        d += 1;
    }
};

/// For each direction and cell, the squares a slider sees on an empty board: the ray up to the
/// edge of the diamond (not of the grid).
const fn ray_table() -> [[u64; CELLS]; 8] {
    let mut rays = [[0; CELLS]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < CELLS {
            let mut ray = 0;
            if Square39(i as u8).is_on_board() {
                let mut at = Square39(i as u8);
                while let Some(next) = at.offset(DIRECTIONS[d].0, DIRECTIONS[d].1) {
                    ray |= 1 << next.index();
                    at = next;
                }
            }
            rays[d][i] = ray;
            i += 1;
        }
        d += 1;
    }
    rays
}

static RAYS: [[u64; CELLS]; 8] = ray_table();

/// The ray from `sq` in increasing direction `dir`, up to and including its first occupied square.
#[inline(always)]
fn ray_up(dir: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        // The rest of the ray beyond the nearest blocker is that blocker's own ray.
        ray ^ RAYS[dir][blockers.trailing_zeros() as usize]
    }
}

/// The ray from `sq` in decreasing direction `dir`, up to and including its first occupied square.
#[inline(always)]
fn ray_down(dir: usize, sq: usize, occupied: u64) -> u64 {
    let ray = RAYS[dir][sq];
    let blockers = ray & occupied;
    if blockers == 0 {
        ray
    } else {
        ray ^ RAYS[dir][63 - blockers.leading_zeros() as usize]
    }
}

/// The squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square39) -> Bitboard39 {
    KNIGHT[sq.index()]
}

/// The squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square39) -> Bitboard39 {
    KING[sq.index()]
}

/// The squares a Reality Check pawn on `sq` moves to without capturing: one step orthogonally, in
/// any direction.
#[inline(always)]
pub fn pawn_moves(sq: Square39) -> Bitboard39 {
    PAWN_MOVES[sq.index()]
}

/// The squares a Reality Check pawn on `sq` captures on: one step diagonally, in any direction.
#[inline(always)]
pub fn pawn_captures(sq: Square39) -> Bitboard39 {
    PAWN_CAPTURES[sq.index()]
}

/// The squares a rook on `sq` attacks, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    let (s, o) = (sq.index(), occupied.0);
    Bitboard39(
        ray_up(EAST, s, o) | ray_up(NORTH, s, o) | ray_down(WEST, s, o) | ray_down(SOUTH, s, o),
    )
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    let (s, o) = (sq.index(), occupied.0);
    Bitboard39(
        ray_up(NORTH_EAST, s, o)
            | ray_up(NORTH_WEST, s, o)
            | ray_down(SOUTH_WEST, s, o)
            | ray_down(SOUTH_EAST, s, o),
    )
}

/// The squares a queen on `sq` attacks, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board, written out by hand rank by rank, in index order.
    const NAMES: [&str; 39] = [
        "d1", //
        "c2", "d2", "e2", //
        "b3", "c3", "d3", "e3", "f3", //
        "a4", "b4", "c4", "d4", "e4", "f4", "g4", //
        "a5", "b5", "c5", "d5", "e5", "f5", "g5", //
        "a6", "b6", "c6", "d6", "e6", "f6", "g6", //
        "b7", "c7", "d7", "e7", "f7", //
        "c8", "d8", "e8", //
        "d9",
    ];

    // The slow reference: coordinates from the names, membership by searching the list.

    fn coords(name: &str) -> (i32, i32) {
        let b = name.as_bytes();
        (i32::from(b[0] - b'a'), i32::from(b[1] - b'1'))
    }

    fn exists(file: i32, rank: i32) -> bool {
        NAMES.iter().any(|&n| coords(n) == (file, rank))
    }

    fn in_grid(file: i32, rank: i32) -> bool {
        (0..7).contains(&file) && (0..9).contains(&rank)
    }

    fn bit(file: i32, rank: i32) -> u64 {
        1 << (rank * 7 + file)
    }

    fn slow_leaper(name: &str, steps: &[(i32, i32)]) -> u64 {
        let (f, r) = coords(name);
        steps
            .iter()
            .filter(|&&(df, dr)| exists(f + df, r + dr))
            .map(|&(df, dr)| bit(f + df, r + dr))
            .fold(0, |a, b| a | b)
    }

    fn slow_slider(name: &str, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
        let (f0, r0) = coords(name);
        let mut attacks = 0;
        for &(df, dr) in dirs {
            let (mut f, mut r) = (f0 + df, r0 + dr);
            while exists(f, r) {
                attacks |= bit(f, r);
                if occupied & bit(f, r) != 0 {
                    break;
                }
                f += df;
                r += dr;
            }
        }
        attacks
    }

    const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    fn sq(name: &str) -> Square39 {
        Square39::parse(name).unwrap()
    }

    fn set(names: &[&str]) -> Bitboard39 {
        names.iter().map(|n| sq(n)).collect()
    }

    /// Pseudo-random occupancies from a fixed generator, sparse and dense, with stray bits outside
    /// the diamond left in on purpose.
    fn occupancies() -> impl Iterator<Item = Bitboard39> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        [0, !0]
            .into_iter()
            .map(Bitboard39)
            .chain((0..300).map(move |i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                Bitboard39(if i % 2 == 0 { x & x.rotate_left(17) } else { x })
            }))
    }

    #[test]
    fn all_lists_the_39_squares_in_index_order() {
        assert_eq!(Square39::ALL.len(), 39);
        let names: Vec<String> = Square39::ALL.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, NAMES);
        assert!(Square39::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            Square39::ALL.into_iter().collect::<Bitboard39>(),
            Bitboard39::BOARD
        );
        assert_eq!(Bitboard39::BOARD.count(), 39);
        for i in 0..63 {
            let cell = Square39::new(i);
            let (f, r) = (i32::from(cell.file()), i32::from(cell.rank()));
            assert_eq!(cell.is_on_board(), exists(f, r), "{cell}");
            assert_eq!(
                Square39::from_coords(cell.file(), cell.rank()).is_some(),
                exists(f, r)
            );
        }
    }

    #[test]
    fn named_constants_match_their_names() {
        assert_eq!(NAMED.len(), 39);
        for &(sq, name) in NAMED {
            assert_eq!(sq.to_string(), name.to_lowercase());
            assert!(sq.is_on_board());
        }
    }

    #[test]
    fn shape_has_no_gaps_along_any_line() {
        // From every square, walk each way across the whole grid: once outside the diamond, the
        // walk never comes back in. So a ray that leaves the board is over.
        for name in NAMES {
            for &(df, dr) in ROOK.iter().chain(&BISHOP) {
                let (mut f, mut r) = coords(name);
                let mut left = false;
                while in_grid(f, r) {
                    if !exists(f, r) {
                        left = true;
                    } else {
                        assert!(!left, "line from {name} by ({df}, {dr}) re-enters");
                    }
                    f += df;
                    r += dr;
                }
            }
        }
    }

    #[test]
    fn leapers_match_slow_walk() {
        let knight = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        let king: Vec<_> = ROOK.iter().chain(&BISHOP).copied().collect();
        for name in NAMES {
            let s = sq(name);
            assert_eq!(
                knight_attacks(s).0,
                slow_leaper(name, &knight),
                "knight {name}"
            );
            assert_eq!(king_attacks(s).0, slow_leaper(name, &king), "king {name}");
            assert_eq!(
                pawn_moves(s).0,
                slow_leaper(name, &ROOK),
                "pawn move {name}"
            );
            assert_eq!(
                pawn_captures(s).0,
                slow_leaper(name, &BISHOP),
                "pawn capture {name}"
            );
        }
        // Nothing stands outside the diamond, so nothing attacks from there.
        for off in (0..63).map(Square39::new).filter(|s| !s.is_on_board()) {
            assert!(knight_attacks(off).is_empty() && king_attacks(off).is_empty());
            assert!(queen_attacks(off, Bitboard39::EMPTY).is_empty());
        }
    }

    #[test]
    fn sliders_match_slow_walk() {
        for name in NAMES {
            let s = sq(name);
            for occ in occupancies() {
                let rook = slow_slider(name, occ.0, &ROOK);
                let bishop = slow_slider(name, occ.0, &BISHOP);
                assert_eq!(rook_attacks(s, occ).0, rook, "rook {name} {occ:?}");
                assert_eq!(bishop_attacks(s, occ).0, bishop, "bishop {name} {occ:?}");
                assert_eq!(
                    queen_attacks(s, occ).0,
                    rook | bishop,
                    "queen {name} {occ:?}"
                );
            }
        }
    }

    #[test]
    fn moves_from_edge_squares_by_hand() {
        let empty = Bitboard39::EMPTY;
        // b2 and f2 are outside the diamond.
        assert_eq!(knight_attacks(Square39::D1), set(&["c3", "e3"]));
        assert_eq!(knight_attacks(Square39::A5), set(&["b3", "c4", "c6", "b7"]));
        assert_eq!(knight_attacks(Square39::D5).count(), 8);
        assert_eq!(king_attacks(Square39::D9), set(&["c8", "d8", "e8"]));
        assert_eq!(pawn_moves(Square39::D1), set(&["d2"]));
        assert_eq!(pawn_captures(Square39::D1), set(&["c2", "e2"]));
        assert_eq!(pawn_moves(Square39::A4), set(&["a5", "b4"]));
        assert_eq!(pawn_captures(Square39::A4), set(&["b3", "b5"]));
        assert_eq!(
            rook_attacks(Square39::A4, empty),
            set(&["b4", "c4", "d4", "e4", "f4", "g4", "a5", "a6"])
        );
        assert_eq!(
            rook_attacks(Square39::D1, empty),
            set(&["d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9"])
        );
        assert_eq!(
            bishop_attacks(Square39::D1, empty),
            set(&["c2", "b3", "a4", "e2", "f3", "g4"])
        );
        // f9 is outside: the long diagonal from a4 ends on e8.
        assert_eq!(
            bishop_attacks(Square39::A4, empty),
            set(&["b5", "c6", "d7", "e8", "b3", "c2", "d1"])
        );
        let blockers = set(&["d7", "b5", "d2", "f5"]);
        assert_eq!(
            rook_attacks(Square39::D5, blockers),
            set(&["d6", "d7", "c5", "b5", "e5", "f5", "d4", "d3", "d2"])
        );
    }

    #[test]
    fn parse_display_and_errors() {
        for name in NAMES {
            let s: Square39 = name.parse().unwrap();
            assert_eq!(s.to_string(), name);
            assert_eq!(format!("{s:?}"), name);
        }
        for bad in ["a1", "g9", "h1", "d10", "d0", "D1", "", "d", "é1"] {
            let err = bad.parse::<Square39>().unwrap_err();
            assert_eq!(err.text(), bad);
            let message = err.to_string();
            let quoted = format!("invalid square {bad:?} for the 39-square board: ");
            assert!(message.starts_with(&quoted), "{message}");
        }
        assert!(matches!(
            Square39::parse("a1"),
            Err(ParseSquare39Error::OffBoard(_))
        ));
        assert!(matches!(
            Square39::parse("h1"),
            Err(ParseSquare39Error::Malformed(_))
        ));
    }

    #[test]
    fn coordinates_offsets_and_flips() {
        assert_eq!(Square39::from_coords(3, 0), Some(Square39::D1));
        assert_eq!(Square39::from_coords(0, 0), None);
        assert_eq!(Square39::from_coords(7, 4), None);
        assert_eq!(Square39::D1.offset(0, 8), Some(Square39::D9));
        assert_eq!(Square39::D1.offset(-1, 0), None);
        assert_eq!(Square39::G5.offset(1, 0), None); // would wrap onto a6 by index
        assert_eq!(Square39::D5.offset(i32::MAX, i32::MIN), None);
        assert_eq!(Square39::try_new(63), None);
        let g9 = Square39::new(62);
        assert_eq!(
            (g9.to_string(), g9.is_on_board()),
            ("g9".to_string(), false)
        );
        assert_eq!(Square39::D1.flip_vertical(), Square39::D9);
        assert_eq!(Square39::A4.flip_vertical(), Square39::A6);
        assert_eq!(Square39::A5.flip_vertical(), Square39::A5);
        for s in Square39::ALL {
            assert!(s.flip_vertical().is_on_board());
            assert_eq!(s.flip_vertical().flip_vertical(), s);
        }
    }

    #[test]
    fn set_operations() {
        let a = set(&["d1", "a4", "g6"]);
        assert_eq!((a & Square39::A4).single(), Some(Square39::A4));
        assert_eq!((a | Square39::D9).count(), 4);
        assert_eq!(a ^ Square39::D1, set(&["a4", "g6"]));
        assert_eq!(a - Square39::D1, a.without(Square39::D1));
        assert_eq!(a.first(), Some(Square39::D1));
        assert_eq!(a.single(), None);
        assert!(a.more_than_one() && a.any() && !a.is_empty());
        assert_eq!(a.len(), 3);
        assert_eq!(
            a.collect::<Vec<_>>(),
            [Square39::D1, Square39::A4, Square39::G6]
        );
        let mut b = Bitboard39::EMPTY;
        b |= Square39::C2;
        b ^= a;
        b &= !Bitboard39::from(Square39::G6);
        assert_eq!(b, set(&["c2", "d1", "a4"]));
        assert_eq!(!Bitboard39::EMPTY, Bitboard39::BOARD);
        assert_eq!(!Bitboard39::BOARD, Bitboard39::EMPTY);
        for occ in occupancies() {
            assert_eq!((!occ).0 & !Bitboard39::BOARD.0, 0);
            assert_eq!(!!occ, occ & Bitboard39::BOARD);
        }
    }

    #[test]
    fn debug_draws_the_diamond() {
        let text = format!("{:?}", set(&["d1", "a5", "d9"]));
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(
            rows[0],
            format!("Bitboard39({:#018x})", (1u64 << 3) | (1 << 28) | (1 << 59))
        );
        assert_eq!(
            rows[1..],
            [
                "       X",
                "     . . .",
                "   . . . . .",
                " . . . . . . .",
                " X . . . . . .",
                " . . . . . . .",
                "   . . . . .",
                "     . . .",
                "       X",
            ]
        );
    }
}
