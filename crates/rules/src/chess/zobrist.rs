//! Zobrist keys, made at compile time from a fixed-seed generator so hashes are stable across
//! builds and machines.

use crate::board::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// 2 colours x 6 types x 64 squares, then 16 castling-right sets, 8 en passant files, the side to move.
const KEY_COUNT: usize = 768 + 16 + 8 + 1;

static KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0; KEY_COUNT];
    let mut state = 0x0b1f_ff00_c4e5_5000;
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
};

/// The key of a piece on a square.
#[inline(always)]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS[(color.index() * 6 + role.index()) * 64 + sq.index()]
}

/// The key of a set of castling rights (4 bits).
#[inline(always)]
pub fn castling(rights: u8) -> u64 {
    KEYS[768 + rights as usize]
}

/// The key of an en passant capture being possible on a file.
#[inline(always)]
pub fn en_passant(file: usize) -> u64 {
    KEYS[768 + 16 + file]
}

/// The key added while Black is to move.
#[inline(always)]
pub fn black_to_move() -> u64 {
    KEYS[768 + 16 + 8]
}
