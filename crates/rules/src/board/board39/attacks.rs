//! Attack tables of the 39-square boards, one set per [`Shape`], built at compile time the same
//! way for both: leapers by table, sliders by per-direction rays cut at the first blocker (the
//! "classical" approach; no magics, the boards are too small to need them). A ray ends at the
//! board's edge or at a hole, so the Advanced board's holes stop sliders with no test at run
//! time, and a knight's table simply holds the squares it lands on, whatever lies between.
//!
//! The free functions are the basic board's; [`Shape`]'s methods of the same names serve either.

use super::bitboard::Bitboard39;
use super::shape::{Shape, CELLS};
use super::square::Square39;

const ORTHOGONAL_STEPS: [(i32, i32); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAGONAL_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

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

/// One board's attack tables.
pub(super) struct Tables {
    knight: [Bitboard39; CELLS],
    king: [Bitboard39; CELLS],
    orthogonal: [Bitboard39; CELLS],
    diagonal: [Bitboard39; CELLS],
    /// For each direction and cell, the squares a slider sees on an empty board: the ray up to
    /// the board's edge or its first hole (not the grid's edge).
    rays: [[u64; CELLS]; 8],
}

const fn leaper_table(shape: Shape, steps: &[(i32, i32)]) -> [Bitboard39; CELLS] {
    // Cells off the board keep an empty entry: no piece stands there.
    let mut table = [Bitboard39::EMPTY; CELLS];
    let mut i = 0;
    while i < CELLS {
        let sq = Square39(i as u8);
        if shape.contains(sq) {
            let mut attacks = 0;
            let mut s = 0;
            while s < steps.len() {
                if let Some(to) = shape.offset(sq, steps[s].0, steps[s].1) {
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

const fn ray_table(shape: Shape) -> [[u64; CELLS]; 8] {
    let mut rays = [[0; CELLS]; 8];
    let mut d = 0;
    while d < 8 {
        let mut i = 0;
        while i < CELLS {
            let mut ray = 0;
            if shape.contains(Square39(i as u8)) {
                let mut at = Square39(i as u8);
                while let Some(next) = shape.offset(at, DIRECTIONS[d].0, DIRECTIONS[d].1) {
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

impl Tables {
    const fn of(shape: Shape) -> Tables {
        Tables {
            knight: leaper_table(shape, &KNIGHT_STEPS),
            king: leaper_table(shape, &KING_STEPS),
            orthogonal: leaper_table(shape, &ORTHOGONAL_STEPS),
            diagonal: leaper_table(shape, &DIAGONAL_STEPS),
            rays: ray_table(shape),
        }
    }

    /// The ray from `sq` in increasing direction `dir`, up to and including its first occupied
    /// square.
    #[inline(always)]
    fn ray_up(&self, dir: usize, sq: usize, occupied: u64) -> u64 {
        let ray = self.rays[dir][sq];
        // The rest of the ray beyond the nearest blocker is that blocker's own ray: rays end at
        // the same edge or hole. With no blocker, the last cell stands in: its rays that raise
        // the index are empty (no branch for a random board to mispredict).
        let blockers = (ray & occupied) | 1 << LAST;
        ray ^ self.rays[dir][blockers.trailing_zeros() as usize]
    }

    /// The ray from `sq` in decreasing direction `dir`, up to and including its first occupied
    /// square.
    #[inline(always)]
    fn ray_down(&self, dir: usize, sq: usize, occupied: u64) -> u64 {
        let ray = self.rays[dir][sq];
        // As `ray_up`, with the first cell standing in: its rays that lower the index are empty.
        let blockers = (ray & occupied) | 1;
        ray ^ self.rays[dir][63 - blockers.leading_zeros() as usize]
    }
}

/// The grid's last cell.
const LAST: usize = CELLS - 1;

// The stand-ins of `ray_up` and `ray_down`: no ray leaves the grid's first cell lowering the
// index, nor its last raising it.
const _: () = {
    let mut shape = 0;
    while shape < 2 {
        let rays = &TABLES[shape].rays;
        let mut d = 0;
        while d < 8 {
            let stand_in = if d < 4 { LAST } else { 0 };
            assert!(rays[d][stand_in] == 0, "a stand-in cell has a ray");
            d += 1;
        }
        shape += 1;
    }
};

/// Indexed by `Shape as usize`.
static TABLES: [Tables; 2] = [Tables::of(Shape::Basic), Tables::of(Shape::Advanced)];

impl Shape {
    #[inline(always)]
    fn tables(self) -> &'static Tables {
        &TABLES[self as usize]
    }

    /// The squares a knight on `sq` attacks: it jumps over holes.
    #[inline(always)]
    pub fn knight_attacks(self, sq: Square39) -> Bitboard39 {
        self.tables().knight[sq.index()]
    }

    /// The squares a king on `sq` attacks.
    #[inline(always)]
    pub fn king_attacks(self, sq: Square39) -> Bitboard39 {
        self.tables().king[sq.index()]
    }

    /// The squares one step orthogonally from `sq` (Reality Check's pawns move there).
    #[inline(always)]
    pub fn orthogonal_neighbours(self, sq: Square39) -> Bitboard39 {
        self.tables().orthogonal[sq.index()]
    }

    /// The squares one step diagonally from `sq` (Reality Check's pawns capture there).
    #[inline(always)]
    pub fn diagonal_neighbours(self, sq: Square39) -> Bitboard39 {
        self.tables().diagonal[sq.index()]
    }

    /// The squares a rook on `sq` attacks, given the occupied squares.
    #[inline]
    pub fn rook_attacks(self, sq: Square39, occupied: Bitboard39) -> Bitboard39 {
        let (t, s, o) = (self.tables(), sq.index(), occupied.0);
        Bitboard39(
            t.ray_up(EAST, s, o)
                | t.ray_up(NORTH, s, o)
                | t.ray_down(WEST, s, o)
                | t.ray_down(SOUTH, s, o),
        )
    }

    /// The squares a bishop on `sq` attacks, given the occupied squares.
    #[inline]
    pub fn bishop_attacks(self, sq: Square39, occupied: Bitboard39) -> Bitboard39 {
        let (t, s, o) = (self.tables(), sq.index(), occupied.0);
        Bitboard39(
            t.ray_up(NORTH_EAST, s, o)
                | t.ray_up(NORTH_WEST, s, o)
                | t.ray_down(SOUTH_WEST, s, o)
                | t.ray_down(SOUTH_EAST, s, o),
        )
    }

    /// The squares a queen on `sq` attacks, given the occupied squares.
    #[inline]
    pub fn queen_attacks(self, sq: Square39, occupied: Bitboard39) -> Bitboard39 {
        self.rook_attacks(sq, occupied) | self.bishop_attacks(sq, occupied)
    }
}

/// The squares a knight on `sq` attacks on the basic board.
#[inline(always)]
pub fn knight_attacks(sq: Square39) -> Bitboard39 {
    Shape::Basic.knight_attacks(sq)
}

/// The squares a king on `sq` attacks on the basic board.
#[inline(always)]
pub fn king_attacks(sq: Square39) -> Bitboard39 {
    Shape::Basic.king_attacks(sq)
}

/// The squares one step orthogonally from `sq` on the basic board.
#[inline(always)]
pub fn orthogonal_neighbours(sq: Square39) -> Bitboard39 {
    Shape::Basic.orthogonal_neighbours(sq)
}

/// The squares one step diagonally from `sq` on the basic board.
#[inline(always)]
pub fn diagonal_neighbours(sq: Square39) -> Bitboard39 {
    Shape::Basic.diagonal_neighbours(sq)
}

/// The squares a rook on `sq` attacks on the basic board, given the occupied squares.
#[inline]
pub fn rook_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    Shape::Basic.rook_attacks(sq, occupied)
}

/// The squares a bishop on `sq` attacks on the basic board, given the occupied squares.
#[inline]
pub fn bishop_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    Shape::Basic.bishop_attacks(sq, occupied)
}

/// The squares a queen on `sq` attacks on the basic board, given the occupied squares.
#[inline]
pub fn queen_attacks(sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    Shape::Basic.queen_attacks(sq, occupied)
}
