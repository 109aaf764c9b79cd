//! Sliding attacks computed by walking rays: the slow reference that the magic tables are built from
//! and checked against.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

const fn on_board(file: i32, rank: i32) -> bool {
    file >= 0 && file < 8 && rank >= 0 && rank < 8
}

/// The squares a slider on `square` (0-63) attacks along `directions`, stopping at (and
/// including) the first occupied square of each ray.
pub const fn slide(square: u32, occupied: u64, directions: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (square % 8) as i32 + df;
        let mut r = (square / 8) as i32 + dr;
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The squares whose occupancy matters to a slider on `square`: its rays on an empty board
/// without each ray's last square (a piece there changes nothing).
pub const fn relevant_occupancy(square: u32, directions: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut f = (square % 8) as i32 + df;
        let mut r = (square / 8) as i32 + dr;
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}
