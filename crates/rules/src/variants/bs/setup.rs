//! Hidden setups: each side's sixteen pieces arranged on its own two back ranks.

use crate::board::identity::Identity;
use crate::board::{Color, File, Rank, Square};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

/// A side's arrangement: its back rank files a to h, then its second rank files a to h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup(pub [Identity; 16]);

/// Why a text is not a valid setup.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Not two ranks of eight letters.
    #[error("expected two ranks of eight letters, back rank first: RNBQKBNR/PPPPPPPP")]
    Shape,
    /// A letter that names no piece.
    #[error("{0:?} is not one of the letters P N B R Q K S")]
    Letter(char),
    /// Two spies or more.
    #[error("at most one spy")]
    Spies,
    /// A spy without the spy option.
    #[error("a spy needs the spy option")]
    Spy,
    /// Not a normal set of pieces.
    #[error(
        "a set has {expected} {identity}{}, this one {found}",
        if *.expected == 1 { "" } else { "s" }
    )]
    Count {
        /// The piece.
        identity: Identity,
        /// How many a set has.
        expected: usize,
        /// How many this one has.
        found: usize,
    },
}

/// The standard array.
pub const STANDARD: Setup = {
    use Identity::*;
    Setup([
        Rook, Knight, Bishop, Queen, King, Bishop, Knight, Rook, Pawn, Pawn, Pawn, Pawn, Pawn,
        Pawn, Pawn, Pawn,
    ])
};

impl Setup {
    /// The square of slot `i` (0-7 the back rank, 8-15 the second rank) for `color`.
    pub fn square(color: Color, i: usize) -> Square {
        let rank = Rank::new((i / 8) as u32).relative_to(color);
        Square::from_coords(File::new((i % 8) as u32), rank)
    }

    /// Each slot's square and identity.
    pub fn placements(&self, color: Color) -> impl Iterator<Item = (Square, Identity)> + '_ {
        self.0
            .iter()
            .enumerate()
            .map(move |(i, &identity)| (Setup::square(color, i), identity))
    }

    /// Reads `RNBQKBNR/PPPPPPPP`; `spy` allows one `S` in place of a pawn.
    pub fn parse(text: &str, spy: bool) -> Result<Setup, SetupError> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 2 || ranks.iter().any(|r| r.chars().count() != 8) {
            return Err(SetupError::Shape);
        }
        let mut pieces = [Identity::Pawn; 16];
        for (slot, c) in ranks.concat().chars().enumerate() {
            pieces[slot] = Identity::from_letter(c).ok_or(SetupError::Letter(c))?;
        }
        let setup = Setup(pieces);
        setup.check(spy)?;
        Ok(setup)
    }

    /// Whether the sixteen pieces are a normal set (one pawn may be a spy when `spy`).
    fn check(&self, spy: bool) -> Result<(), SetupError> {
        let count = |identity| self.0.iter().filter(|&&i| i == identity).count();
        let spies = count(Identity::Spy);
        if spies > usize::from(spy) {
            return Err(if spy {
                SetupError::Spies
            } else {
                SetupError::Spy
            });
        }
        let expected = [
            (Identity::King, 1),
            (Identity::Queen, 1),
            (Identity::Rook, 2),
            (Identity::Bishop, 2),
            (Identity::Knight, 2),
            (Identity::Pawn, 8 - spies),
        ];
        for (identity, n) in expected {
            if count(identity) != n {
                return Err(SetupError::Count {
                    identity,
                    expected: n,
                    found: count(identity),
                });
            }
        }
        Ok(())
    }

    /// A random arrangement; with `spy`, one pawn is a spy half of the time.
    pub fn random(spy: bool, rng: &mut dyn RngCore) -> Setup {
        let mut pieces = STANDARD.0;
        if spy && rng.random_bool(0.5) {
            pieces[8] = Identity::Spy;
        }
        pieces.shuffle(rng);
        Setup(pieces)
    }
}

impl std::fmt::Display for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let letters: String = self.0.iter().map(|i| i.letter()).collect();
        write!(f, "{}/{}", &letters[..8], &letters[8..])
    }
}
