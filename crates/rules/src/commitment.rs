//! Commitments to hidden choices: SHA-256 over the game id, the action's index, its canonical
//! text and a 32-byte salt, opened later by publishing the salt.
//!
//! The hashed bytes are: the game id in UTF-8, a zero byte, the action index as 8 big-endian
//! bytes, the action text in UTF-8, a zero byte, and the salt. Hashes and salts are written as
//! lower-case hex.

use rand::rngs::{OsRng, StdRng};
use rand::{SeedableRng, TryRngCore};
use sha2::{Digest, Sha256};

/// A 32-byte salt.
pub type Salt = [u8; 32];

/// Where salts come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaltSource {
    /// The operating system's randomness: what real games use.
    Os,
    /// Derived from a seed, for tests that need the same record twice.
    Seeded(u64),
}

impl SaltSource {
    /// The salt of the commitment to the game's seed.
    pub fn seed_salt(self) -> Salt {
        match self {
            SaltSource::Os => SaltSource::Os.salt(0),
            SaltSource::Seeded(seed) => {
                let mut hasher = Sha256::new();
                hasher.update(b"bluffchess deterministic seed salt\0");
                hasher.update(seed.to_be_bytes());
                hasher.finalize().into()
            }
        }
    }

    /// The salt for the action at `index`.
    pub fn salt(self, index: usize) -> Salt {
        match self {
            SaltSource::Os => {
                let mut salt = [0; 32];
                OsRng
                    .try_fill_bytes(&mut salt)
                    .expect("the operating system's random source works");
                salt
            }
            SaltSource::Seeded(seed) => {
                let mut hasher = Sha256::new();
                hasher.update(b"bluffchess deterministic salt\0");
                hasher.update(seed.to_be_bytes());
                hasher.update((index as u64).to_be_bytes());
                hasher.finalize().into()
            }
        }
    }
}

/// The commitment to `text`, the action at `index` of game `game_id`, under `salt` (hex).
pub fn commit(game_id: &str, index: usize, text: &str, salt: &Salt) -> String {
    let mut hasher = Sha256::new();
    hasher.update(game_id.as_bytes());
    hasher.update([0]);
    hasher.update((index as u64).to_be_bytes());
    hasher.update(text.as_bytes());
    hasher.update([0]);
    hasher.update(salt);
    to_hex(&hasher.finalize())
}

/// The commitment to a game's seed (hex): SHA-256 over `bluffchess seed`, a zero byte, the game
/// id, a zero byte, the seed (8 bytes, big-endian) and a 32-byte salt.
pub fn commit_seed(game_id: &str, seed: u64, salt: &Salt) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"bluffchess seed\0");
    hasher.update(game_id.as_bytes());
    hasher.update([0]);
    hasher.update(seed.to_be_bytes());
    hasher.update(salt);
    to_hex(&hasher.finalize())
}

/// The generator Chance draws its outcome from at action `index`: seeded with SHA-256 over
/// `bluffchess chance`, a zero byte, the seed and the index (8 bytes each, big-endian), so that
/// every roll can be recomputed from the seed alone.
pub fn chance_rng(seed: u64, index: usize) -> StdRng {
    let mut hasher = Sha256::new();
    hasher.update(b"bluffchess chance\0");
    hasher.update(seed.to_be_bytes());
    hasher.update((index as u64).to_be_bytes());
    StdRng::from_seed(hasher.finalize().into())
}

/// Lower-case hex.
pub fn to_hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// Reads 32 bytes of hex.
pub fn salt_from_hex(text: &str) -> Option<Salt> {
    let mut salt = [0; 32];
    hex::decode_to_slice(text, &mut salt).ok()?;
    Some(salt)
}

/// The record's running digest after an action: SHA-256 over the previous digest (the game id
/// before the first action), a zero byte, the index as 8 big-endian bytes, the actor's name, a
/// zero byte, the public text, a zero byte and the commitment (empty when none). It binds every
/// public action in order; a hidden action's own text is bound by its commitment, so the digest
/// tells nothing the public record does not.
pub fn chain(
    previous: &str,
    index: usize,
    actor: &str,
    public: &str,
    commitment: Option<&str>,
) -> String {
    let mut hasher = Sha256::new();
    hasher.update(previous.as_bytes());
    hasher.update([0]);
    hasher.update((index as u64).to_be_bytes());
    hasher.update(actor.as_bytes());
    hasher.update([0]);
    hasher.update(public.as_bytes());
    hasher.update([0]);
    hasher.update(commitment.unwrap_or("").as_bytes());
    to_hex(&hasher.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commitments_bind_every_part() {
        let salt = SaltSource::Seeded(1).salt(3);
        let base = commit("g", 3, "stay", &salt);
        assert_eq!(base.len(), 64);
        assert_ne!(base, commit("h", 3, "stay", &salt));
        assert_ne!(base, commit("g", 4, "stay", &salt));
        assert_ne!(base, commit("g", 3, "transfer d1", &salt));
        assert_ne!(base, commit("g", 3, "stay", &SaltSource::Seeded(2).salt(3)));
    }

    #[test]
    fn salts_round_trip_through_hex() {
        let salt = SaltSource::Os.salt(0);
        assert_eq!(salt_from_hex(&to_hex(&salt)), Some(salt));
        assert_ne!(salt, SaltSource::Os.salt(0));
        assert_eq!(salt_from_hex("zz"), None);
        assert_eq!(
            salt_from_hex(&"+f".repeat(32)),
            None,
            "a sign is not a digit"
        );
        assert_eq!(salt_from_hex(&"ab".repeat(31)), None, "too short");
        assert_eq!(salt_from_hex(&"ab".repeat(33)), None, "too long");
    }
}
