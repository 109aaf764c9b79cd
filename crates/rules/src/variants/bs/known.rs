//! What both seats know of the pieces on the board, square by square, with a key of it all kept
//! up to date as it changes: the repetition rule reads the key at every turn, and mixing the 64
//! squares afresh each time was a tenth of a random BS game.

use crate::board::identity::Identity;
use crate::board::Square;
use crate::log::mix;

/// What both seats know of a piece on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Known {
    /// A call showed what it is.
    Identity(Identity),
    /// It came from a promotion: some type from its owner's pool, not a king or a pawn.
    Promoted,
}

/// [`Known`] facts by square, and their key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KnownSquares {
    known: [Option<Known>; 64],
    /// Every square's own key, combined by exclusive or: a function of `known` alone.
    key: u64,
}

impl Default for KnownSquares {
    fn default() -> KnownSquares {
        KnownSquares {
            known: [None; 64],
            key: 0,
        }
    }
}

impl KnownSquares {
    /// What is known of the piece on `sq`.
    pub(crate) fn get(&self, sq: Square) -> Option<Known> {
        self.known[sq.index()]
    }

    /// Records what is known of the piece on `sq`.
    pub(crate) fn set(&mut self, sq: Square, known: Option<Known>) {
        let old = std::mem::replace(&mut self.known[sq.index()], known);
        self.key ^= square_key(sq, old) ^ square_key(sq, known);
    }

    /// What was known of the piece on `sq`, forgotten there.
    pub(crate) fn take(&mut self, sq: Square) -> Option<Known> {
        let known = self.get(sq);
        self.set(sq, None);
        known
    }

    /// A key of everything known (equal sets, equal keys).
    pub(crate) fn key(&self) -> u64 {
        self.key
    }
}

/// One square's part of the key (nothing known adds nothing).
fn square_key(sq: Square, known: Option<Known>) -> u64 {
    let code = match known {
        None => return 0,
        Some(Known::Promoted) => 7,
        Some(Known::Identity(identity)) => identity as u64,
    };
    mix(mix(0, (sq.index() as u64) << 8 | code), 0x5bd1_e995)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn afresh(squares: &KnownSquares) -> u64 {
        Square::ALL
            .into_iter()
            .fold(0, |key, sq| key ^ square_key(sq, squares.get(sq)))
    }

    fn known(code: u8) -> Option<Known> {
        match code {
            0 => None,
            1 => Some(Known::Promoted),
            _ => Some(Known::Identity(
                Identity::ALL[usize::from(code) % Identity::ALL.len()],
            )),
        }
    }

    proptest! {
        /// The kept key is the key worked out afresh, whatever the changes, and it comes back
        /// with the facts.
        #[test]
        fn the_kept_key_is_the_fresh_one(changes in prop::collection::vec((0u32..64, 0u8..9), 0..80)) {
            let mut squares = KnownSquares::default();
            for (sq, code) in changes {
                squares.set(Square::new(sq), known(code));
                prop_assert_eq!(squares.key(), afresh(&squares));
            }
            let mut cleared = squares.clone();
            for sq in Square::ALL {
                cleared.take(sq);
            }
            prop_assert_eq!(cleared, KnownSquares::default());
        }
    }
}
