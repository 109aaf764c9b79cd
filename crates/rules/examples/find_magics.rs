//! Finds the magic factors in `src/board/magics.rs`.
//!
//! For each square it tries sparse random numbers from a fixed-seed generator until one maps every
//! relevant occupancy to a table slot without a destructive collision, using the smallest index
//! width (the number of relevant squares). Run: `cargo run --release -p bluffchess-rules --example find_magics`.

use bluffchess_rules::board::sliding::{
    relevant_occupancy, slide, BISHOP_DIRECTIONS, ROOK_DIRECTIONS,
};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

fn find(square: u32, directions: &[(i32, i32); 4], rng: &mut XorShift) -> u64 {
    let mask = relevant_occupancy(square, directions);
    let bits = mask.count_ones();
    let mut subsets = Vec::new();
    let mut subset = 0u64;
    loop {
        subsets.push((subset, slide(square, subset, directions)));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let mut table = vec![None; 1 << bits];
    'candidates: loop {
        let factor = rng.sparse();
        if (mask.wrapping_mul(factor) >> 56).count_ones() < 6 {
            continue;
        }
        table.iter_mut().for_each(|slot| *slot = None);
        for &(occupied, attacks) in &subsets {
            let index = (occupied.wrapping_mul(factor) >> (64 - bits)) as usize;
            match table[index] {
                None => table[index] = Some(attacks),
                Some(other) if other == attacks => {}
                Some(_) => continue 'candidates,
            }
        }
        return factor;
    }
}

fn main() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for (name, directions) in [("ROOK", &ROOK_DIRECTIONS), ("BISHOP", &BISHOP_DIRECTIONS)] {
        println!("pub(super) const {name}_FACTORS: [u64; 64] = [");
        for square in 0..64 {
            println!("    {:#018x},", find(square, directions, &mut rng));
        }
        println!("];");
    }
}
