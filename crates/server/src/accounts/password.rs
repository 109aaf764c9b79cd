//! Passwords: at least 8 characters, not the username, not one of the most common ones; kept
//! as Argon2id hashes (RFC 9106's second recommended set, as OWASP advises: 19 MiB, 2 passes,
//! one lane), compared in constant time by the hash's own check.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use std::collections::HashSet;
use std::sync::OnceLock;

/// Argon2id's memory in KiB, passes and lanes.
pub const MEMORY_KIB: u32 = 19 * 1024;
/// Argon2id's passes over the memory.
pub const PASSES: u32 = 2;
/// Argon2id's lanes.
pub const LANES: u32 = 1;

/// The shortest password taken.
pub const MIN_LENGTH: usize = 8;
/// The longest password taken (a longer one only costs the server hashing time).
pub const MAX_LENGTH: usize = 256;

/// Why a password is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// Too short.
    #[error("a password has at least 8 characters")]
    Short,
    /// Too long.
    #[error("a password has at most 256 characters")]
    Long,
    /// The username again.
    #[error("the password may not be the username")]
    Username,
    /// Among the most common passwords.
    #[error("that password is among the most common ones: choose another")]
    Common,
}

fn common() -> &'static HashSet<&'static str> {
    static COMMON: OnceLock<HashSet<&'static str>> = OnceLock::new();
    COMMON.get_or_init(|| {
        include_str!("../../data/common-passwords.txt")
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
            .collect()
    })
}

/// Checks a new password for `username`.
pub fn check(password: &str, username: &str) -> Result<(), PasswordError> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Err(PasswordError::Short);
    }
    if length > MAX_LENGTH {
        return Err(PasswordError::Long);
    }
    let lower = password.to_lowercase();
    if lower == username.to_lowercase() {
        return Err(PasswordError::Username);
    }
    if common().contains(lower.as_str()) {
        return Err(PasswordError::Common);
    }
    Ok(())
}

fn argon2() -> Argon2<'static> {
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The Argon2id hash of `password` with a fresh salt, as a PHC string.
pub fn hash(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    argon2()
        .hash_password(password.as_bytes(), &salt)
        .expect("hashing a password of bounded length")
        .to_string()
}

/// Whether `password` is the one hashed in `phc` (false for a hash that cannot be read).
pub fn verify(password: &str, phc: &str) -> bool {
    PasswordHash::new(phc).is_ok_and(|h| argon2().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash that no password is checked against: verified when the account does not exist, so
/// that a wrong name costs the time a wrong password does.
pub fn decoy() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| hash("a password that no account has"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_checked() {
        assert_eq!(check("short", "alice"), Err(PasswordError::Short));
        assert_eq!(
            check("AliceAlice", "alicealice"),
            Err(PasswordError::Username)
        );
        assert_eq!(check("Password1", "alice"), Err(PasswordError::Common));
        assert_eq!(check("iloveyou", "alice"), Err(PasswordError::Common));
        assert_eq!(check(&"x".repeat(257), "alice"), Err(PasswordError::Long));
        assert_eq!(check("correct horse battery", "alice"), Ok(()));
    }

    #[test]
    fn a_hash_is_argon2id_with_the_stated_parameters_and_checks_its_password() {
        let phc = hash("correct horse battery");
        assert!(phc.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{phc}");
        assert!(verify("correct horse battery", &phc));
        assert!(!verify("correct horse batterz", &phc));
        assert!(!verify("anything", "not a hash"));
        assert_ne!(hash("correct horse battery"), phc, "a fresh salt each time");
    }
}
