//! Secrets from the operating system's randomness: seat tokens, invitations, game ids, seeds;
//! and the hashes the server keeps of them instead.

use rand::rngs::OsRng;
use rand::TryRngCore;
use sha2::{Digest, Sha256};

fn os_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0; N];
    OsRng
        .try_fill_bytes(&mut bytes)
        .expect("the operating system's random source works");
    bytes
}

/// A random u64 from the operating system.
pub fn os_u64() -> u64 {
    u64::from_le_bytes(os_bytes())
}

/// SHA-256 of a token's text.
pub fn token_hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A new token (128 bits from the operating system, hex) and its hash: a seat's, or an
/// invitation.
pub fn new_token() -> (String, [u8; 32]) {
    let token = hex::encode(os_bytes::<16>());
    let hash = token_hash(&token);
    (token, hash)
}

/// A new game id (64 bits, hex): public, unguessable enough to keep the lobby the way in.
pub fn new_game_id() -> String {
    hex::encode(os_bytes::<8>())
}
