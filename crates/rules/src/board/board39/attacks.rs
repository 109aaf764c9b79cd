//! Attack tables of the 39-square board, built at compile time: leapers by table, sliders by
//! per-direction rays cut at the first blocker (the "classical" approach; no magics, the board is
//! too small to need them).

use super::bitboard::Bitboard39;
use super::square::Square39;
use super::square::CELLS;

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
static ORTHOGONAL_NEIGHBOURS: [Bitboard39; CELLS] = leaper_table(&ORTHOGONAL_STEPS);
static DIAGONAL_NEIGHBOURS: [Bitboard39; CELLS] = leaper_table(&DIAGONAL_STEPS);

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

/// The squares one step orthogonally from `sq` (Reality Check's pawns move there).
#[inline(always)]
pub fn orthogonal_neighbours(sq: Square39) -> Bitboard39 {
    ORTHOGONAL_NEIGHBOURS[sq.index()]
}

/// The squares one step diagonally from `sq` (Reality Check's pawns capture there).
#[inline(always)]
pub fn diagonal_neighbours(sq: Square39) -> Bitboard39 {
    DIAGONAL_NEIGHBOURS[sq.index()]
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
