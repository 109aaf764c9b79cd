//! Hidden setups: each side's sixteen pieces arranged on its own two back ranks.

use crate::board::identity::Identity;
use crate::board::{Color, File, Rank, Square};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};

/// A side's arrangement: its back rank files a to h, then its second rank files a to h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup(pub [Identity; 16]);

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
    pub fn parse(text: &str, spy: bool) -> Result<Setup, String> {
        let ranks: Vec<&str> = text.split('/').collect();
        if ranks.len() != 2 || ranks.iter().any(|r| r.chars().count() != 8) {
            return Err(
                "expected two ranks of eight letters, back rank first: RNBQKBNR/PPPPPPPP".into(),
            );
        }
        let mut pieces = [Identity::Pawn; 16];
        for (slot, c) in ranks.concat().chars().enumerate() {
            pieces[slot] = Identity::from_letter(c)
                .ok_or_else(|| format!("{c:?} is not one of the letters P N B R Q K S"))?;
        }
        let setup = Setup(pieces);
        setup.check(spy)?;
        Ok(setup)
    }

    /// Whether the sixteen pieces are a normal set (one pawn may be a spy when `spy`).
    fn check(&self, spy: bool) -> Result<(), String> {
        let count = |identity| self.0.iter().filter(|&&i| i == identity).count();
        let spies = count(Identity::Spy);
        if spies > usize::from(spy) {
            return Err(if spy {
                "at most one spy".into()
            } else {
                "a spy needs the spy option".into()
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
                return Err(format!(
                    "a set has {n} {}{}, this one {}",
                    identity,
                    if n == 1 { "" } else { "s" },
                    count(identity)
                ));
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
