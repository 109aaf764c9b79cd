//! The `n`th member of a set of squares, found without a loop: a random draw's index goes
//! straight to its square (a loop of `n` steps ends where a random `n` mispredicts it).

/// Where the `k`th set bit of each byte value stands (8 past its last).
const IN_BYTE: [[u8; 8]; 256] = {
    let mut table = [[8; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut k) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                table[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The position of the `n`th set bit of `bits`, lowest first (`n` from 0); none when it has no
/// more than `n`.
#[inline]
pub(crate) fn select(bits: u64, n: usize) -> Option<u32> {
    if n >= bits.count_ones() as usize {
        return None;
    }
    #[cfg(target_arch = "x86_64")]
    if fast_deposit() {
        // Safety: `fast_deposit` found the instructions `deposit` needs.
        return Some(unsafe { deposit(bits, n) });
    }
    Some(select_by_bytes(bits, n))
}

/// [`select`] by one instruction that deposits the bit `n` at the `n`th member (BMI2's `pdep`),
/// `n` being below the number of members: every variant's playouts 3-5% faster than by bytes
/// (criterion, on a Zen 5).
///
/// # Safety
/// The processor must have BMI1 and BMI2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2")]
unsafe fn deposit(bits: u64, n: usize) -> u32 {
    core::arch::x86_64::_pdep_u64(1 << n, bits).trailing_zeros()
}

/// Whether this processor deposits bits in one quick instruction: it has BMI2 and is not an AMD
/// processor before Zen 3, whose microcoded `pdep` takes up to hundreds of cycles. Found once.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn fast_deposit() -> bool {
    use std::sync::atomic::{AtomicU8, Ordering};
    // 0: not found yet; 1: fast; 2: not.
    static FAST: AtomicU8 = AtomicU8::new(0);
    match FAST.load(Ordering::Relaxed) {
        0 => {
            let fast = find_fast_deposit();
            FAST.store(2 - u8::from(fast), Ordering::Relaxed);
            fast
        }
        found => found == 1,
    }
}

/// What [`fast_deposit`] keeps, found from the processor's identification (`cpuid`).
#[cfg(target_arch = "x86_64")]
#[cold]
fn find_fast_deposit() -> bool {
    use core::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    let (vendor, signature) = (__cpuid(0), __cpuid(1));
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
    let family = ((signature.eax >> 8) & 0xf) + ((signature.eax >> 20) & 0xff);
    // Zen 3 is family 0x19.
    !amd || family >= 0x19
}

/// [`select`] with no special instruction: each byte's members counted at once, then the
/// member within its byte read from a table. `n` is below the number of members.
#[inline]
fn select_by_bytes(bits: u64, n: usize) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // Each byte's members, then in each byte the members of the bytes up to it.
    let counts = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
    let counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    let counts = (counts + (counts >> 4)) & 0x0f0f_0f0f_0f0f_0f0f;
    let up_to = counts.wrapping_mul(ONES);
    // The byte that holds it comes after every byte with `n` members or fewer up to it (each
    // byte's difference keeps its high bit exactly then: no borrow crosses a byte).
    let at_most_n = (((n as u64 * ONES) | HIGHS) - up_to) & HIGHS;
    let byte = at_most_n.count_ones();
    let before = ((up_to << 8) >> (8 * byte)) & 0xff;
    let within = (bits >> (8 * byte)) & 0xff;
    8 * byte + u32::from(IN_BYTE[within as usize][n - before as usize])
}

/// [`select`], with what is left of `bits` above that member (an iterator's `nth`: it has
/// taken every member up to it); none, and nothing left, when `bits` has no more than `n`.
#[inline]
pub(crate) fn nth_and_rest(bits: u64, n: usize) -> (Option<u32>, u64) {
    match select(bits, n) {
        Some(index) => (Some(index), bits & (u64::MAX << index) << 1),
        None => (None, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every member is found where a walk over the bits finds it, and none past the last.
        #[test]
        fn select_finds_the_walks_member(bits in any::<u64>(), sparse in any::<u64>()) {
            for bits in [bits, bits & sparse, bits & sparse & (sparse >> 7)] {
                let members: Vec<u32> = (0..64).filter(|&i| bits & (1 << i) != 0).collect();
                for (n, &member) in members.iter().enumerate() {
                    prop_assert_eq!(select(bits, n), Some(member));
                    // Both ways, whichever this processor takes.
                    prop_assert_eq!(select_by_bytes(bits, n), member);
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("bmi2") {
                        // Safety: the processor has BMI2.
                        prop_assert_eq!(unsafe { deposit(bits, n) }, member);
                    }
                }
                prop_assert_eq!(select(bits, members.len()), None);
                for n in [0, members.len() / 2, members.len()] {
                    let rest: u64 = members.iter().skip(n + 1).map(|&m| 1u64 << m).sum();
                    prop_assert_eq!(nth_and_rest(bits, n), (members.get(n).copied(), rest));
                }
                prop_assert_eq!(select(bits, 64), None);
            }
        }
    }

    #[test]
    fn select_reads_full_and_single_sets() {
        assert_eq!(select(u64::MAX, 63), Some(63));
        assert_eq!(select(1 << 63, 0), Some(63));
        assert_eq!(select(1, 0), Some(0));
        assert_eq!(select(0, 0), None);
    }
}
