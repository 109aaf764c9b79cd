//! Attack tables for the 8x8 board, all built at compile time: leapers by table, sliders by
//! "fancy" magic bitboards (one shared table, each square's slice as small as its relevant squares
//! allow), and the squares between and through two squares.

use super::bitboard::Bitboard;
use super::color::Color;
use super::magics::{BISHOP_FACTORS, ROOK_FACTORS};
use super::role::Role;
use super::sliding::{relevant_occupancy, slide, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use super::square::Square;

const fn leaper_table(steps: &[(i32, i32)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut attacks = 0;
        let mut i = 0;
        while i < steps.len() {
            if let Some(to) = Square::new(sq).offset(steps[i].0, steps[i].1) {
                attacks |= 1 << to.index();
            }
            i += 1;
        }
        table[sq as usize] = Bitboard(attacks);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [Bitboard; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[Bitboard; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Where one square's slice of the shared slider table starts, and how to index it.
#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    factor: u64,
    shift: u32,
    offset: usize,
}

const fn magics(factors: &[u64; 64], directions: &[(i32, i32); 4], start: usize) -> [Magic; 64] {
    let mut magics = [Magic {
        mask: 0,
        factor: 0,
        shift: 0,
        offset: 0,
    }; 64];
    let mut offset = start;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_occupancy(sq as u32, directions);
        let bits = mask.count_ones();
        magics[sq] = Magic {
            mask,
            factor: factors[sq],
            shift: 64 - bits,
            offset,
        };
        offset += 1 << bits;
        sq += 1;
    }
    magics
}

const fn table_end(magics: &[Magic; 64]) -> usize {
    magics[63].offset + (1 << (64 - magics[63].shift))
}

const ROOK_MAGICS: [Magic; 64] = magics(&ROOK_FACTORS, &ROOK_DIRECTIONS, 0);
const BISHOP_MAGICS: [Magic; 64] =
    magics(&BISHOP_FACTORS, &BISHOP_DIRECTIONS, table_end(&ROOK_MAGICS));
const SLIDER_TABLE_SIZE: usize = table_end(&BISHOP_MAGICS);

impl Magic {
    #[inline(always)]
    const fn index(&self, occupied: u64) -> usize {
        self.offset + ((occupied & self.mask).wrapping_mul(self.factor) >> self.shift) as usize
    }
}

const fn fill(
    table: &mut [Bitboard; SLIDER_TABLE_SIZE],
    magics: &[Magic; 64],
    directions: &[(i32, i32); 4],
) {
    let mut sq = 0;
    while sq < 64 {
        let magic = &magics[sq];
        // Every subset of the mask (the carry-rippler trick).
        let mut subset = 0u64;
        loop {
            table[magic.index(subset)] = Bitboard(slide(sq as u32, subset, directions));
            subset = subset.wrapping_sub(magic.mask) & magic.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

#[allow(long_running_const_eval)]
static SLIDERS: [Bitboard; SLIDER_TABLE_SIZE] = {
    let mut table = [Bitboard::EMPTY; SLIDER_TABLE_SIZE];
    fill(&mut table, &ROOK_MAGICS, &ROOK_DIRECTIONS);
    fill(&mut table, &BISHOP_MAGICS, &BISHOP_DIRECTIONS);
    table
};

/// Squares between two squares on a line (exclusive), and the whole line through them.
const fn line_tables() -> ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) {
    let mut between = [[Bitboard::EMPTY; 64]; 64];
    let mut line = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bit_b = 1u64 << b;
            let mut kind = 0;
            while kind < 2 {
                let dirs = if kind == 0 {
                    &ROOK_DIRECTIONS
                } else {
                    &BISHOP_DIRECTIONS
                };
                if a != b && slide(a, 0, dirs) & bit_b != 0 {
                    between[a as usize][b as usize] =
                        Bitboard(slide(a, bit_b, dirs) & slide(b, 1 << a, dirs));
                    line[a as usize][b as usize] =
                        Bitboard((slide(a, 0, dirs) & slide(b, 0, dirs)) | (1 << a) | bit_b);
                }
                kind += 1;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[Bitboard; 64]; 64], [[Bitboard; 64]; 64]) = line_tables();

/// The squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// The squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// The squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// The squares a set of `color`'s pawns attacks, all at once (none wraps around the board's edge).
#[inline(always)]
pub fn pawns_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let west = (pawns - Bitboard::FILE_A).0;
    let east = (pawns - Bitboard(Bitboard::FILE_A.0 << 7)).0;
    Bitboard(match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    })
}

/// The squares a rook on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    SLIDERS[ROOK_MAGICS[sq.index()].index(occupied.0)]
}

/// The squares a bishop on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    SLIDERS[BISHOP_MAGICS[sq.index()].index(occupied.0)]
}

/// The squares a queen on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares a piece attacks (a pawn: its diagonal captures).
#[inline]
pub fn attacks(color: Color, role: Role, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    LINES.0[a.index()][b.index()]
}

/// The whole line (rank, file or diagonal) through `a` and `b`, both included; empty when they
/// share none.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    LINES.1[a.index()][b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pseudo-random occupancies from a fixed generator.
    fn occupancies() -> impl Iterator<Item = Bitboard> {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        (0..200).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            Bitboard(x & x.rotate_left(17))
        })
    }

    #[test]
    fn sliders_match_ray_walking() {
        for sq in Square::ALL {
            for occ in occupancies() {
                let s = sq.index() as u32;
                assert_eq!(rook_attacks(sq, occ).0, slide(s, occ.0, &ROOK_DIRECTIONS));
                assert_eq!(
                    bishop_attacks(sq, occ).0,
                    slide(s, occ.0, &BISHOP_DIRECTIONS)
                );
            }
        }
    }

    #[test]
    fn leapers_from_corners_and_centre() {
        assert_eq!(
            knight_attacks(Square::A1),
            Bitboard::from(Square::B3) | Square::C2
        );
        assert_eq!(knight_attacks(Square::D4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::White, Square::A2),
            Bitboard::from(Square::B3)
        );
        assert_eq!(
            pawn_attacks(Color::Black, Square::E5),
            Bitboard::from(Square::D4) | Square::F4
        );
    }

    #[test]
    fn between_and_line() {
        assert_eq!(
            between(Square::A1, Square::D4),
            Bitboard::from(Square::B2) | Square::C3
        );
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert!(line(Square::A1, Square::B3).is_empty());
        assert_eq!(
            line(Square::E1, Square::E4),
            Bitboard::file(Square::E1.file())
        );
    }
}
