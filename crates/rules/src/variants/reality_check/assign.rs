//! Assigning a side's ten kinds to ten places (squares, the hand, chains of places) when each
//! place allows only some kinds: counting the assignments and drawing one uniformly. Used for
//! random setups and for resampling.
//!
//! With ten kinds a table over the 1024 sets of kinds is enough: `ways[used]` counts the ways to
//! give the first `|used|` places exactly the kinds in `used`.

use super::pieces::{Kind, KindSet, ALL_KINDS};
use rand::{Rng, RngCore};

/// The table of partial counts for places allowing `allowed[i]` (ten places), for
/// [`sample_counted`].
pub(super) fn table(allowed: &[KindSet; 10]) -> Vec<u64> {
    ways(allowed)
}

/// The table of partial counts for places allowing `allowed[i]` (ten places).
fn ways(allowed: &[KindSet; 10]) -> Vec<u64> {
    let mut ways = vec![0u64; 1 << 10];
    ways[0] = 1;
    for used in 0..(1usize << 10) {
        let n = ways[used];
        if n == 0 {
            continue;
        }
        let place = used.count_ones() as usize;
        if place == 10 {
            continue;
        }
        let mut free = allowed[place] & !(used as KindSet) & ALL_KINDS;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            ways[used | bit as usize] += n;
            free ^= bit;
        }
    }
    ways
}

/// The number of ways to give each place a different kind it allows.
pub(super) fn count(allowed: &[KindSet; 10]) -> u64 {
    ways(allowed)[ALL_KINDS as usize]
}

/// One of those ways, drawn uniformly, or `None` when there is none.
pub(super) fn sample(allowed: &[KindSet; 10], rng: &mut dyn RngCore) -> Option<[Kind; 10]> {
    sample_counted(allowed, &ways(allowed), rng)
}

/// [`sample`] with the table of partial counts already made (`table(allowed)`), for places
/// drawn again and again.
pub(super) fn sample_counted(
    allowed: &[KindSet; 10],
    ways: &[u64],
    rng: &mut dyn RngCore,
) -> Option<[Kind; 10]> {
    let mut used = ALL_KINDS as usize;
    if ways[used] == 0 {
        return None;
    }
    let mut kinds = [Kind::ALL[0]; 10];
    // From the last place back: the last place's kind k is drawn by the number of ways the
    // others can take the rest.
    for place in (0..10).rev() {
        let options: Vec<(Kind, u64)> = Kind::in_set(allowed[place] & used as KindSet)
            .map(|k| (k, ways[used & !(k.bit() as usize)]))
            .filter(|&(_, n)| n > 0)
            .collect();
        let total: u64 = options.iter().map(|(_, n)| n).sum();
        let mut pick = rng.random_range(0..total);
        let &(kind, _) = options
            .iter()
            .find(|&&(_, n)| {
                let hit = pick < n;
                if !hit {
                    pick -= n;
                }
                hit
            })
            .expect("the pick is below the total");
        kinds[place] = kind;
        used &= !(kind.bit() as usize);
    }
    Some(kinds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::reality_check::pieces::Face;
    use rand::rngs::StdRng;
    use rand::SeedableRng;
    use std::collections::HashMap;

    #[test]
    fn counts_permutations_and_respects_the_allowed_kinds() {
        assert_eq!(count(&[ALL_KINDS; 10]), 3_628_800);
        let mut allowed = [ALL_KINDS; 10];
        allowed[0] = Kind::with_face(Face::Rook);
        allowed[1] = Kind::with_face(Face::Rook);
        // Two of the four rook kinds on places 0 and 1, the other eight anywhere.
        assert_eq!(count(&allowed), 4 * 3 * 40_320);
        allowed[2] = Kind::with_face(Face::Rook);
        allowed[3] = Kind::with_face(Face::Rook);
        allowed[4] = Kind::with_face(Face::Rook);
        assert_eq!(count(&allowed), 0);
        assert_eq!(sample(&allowed, &mut StdRng::seed_from_u64(1)), None);
    }

    #[test]
    fn samples_are_uniform() {
        // Three places with a choice, the rest fixed: 3 * 2 * 1 = ... counted by hand below.
        let mut allowed: [KindSet; 10] = core::array::from_fn(|i| Kind::ALL[i].bit());
        let choice = Kind::ALL[0].bit() | Kind::ALL[1].bit() | Kind::ALL[2].bit();
        allowed[0] = choice;
        allowed[1] = Kind::ALL[0].bit() | Kind::ALL[1].bit();
        allowed[2] = choice;
        assert_eq!(count(&allowed), 4);
        let mut rng = StdRng::seed_from_u64(2);
        let mut seen: HashMap<[Kind; 10], u32> = HashMap::new();
        for _ in 0..4000 {
            let kinds = sample(&allowed, &mut rng).unwrap();
            for (place, kind) in kinds.iter().enumerate() {
                assert!(allowed[place] & kind.bit() != 0);
            }
            *seen.entry(kinds).or_default() += 1;
        }
        assert_eq!(seen.len(), 4);
        assert!(seen.values().all(|&n| (850..1150).contains(&n)), "{seen:?}");
    }
}
