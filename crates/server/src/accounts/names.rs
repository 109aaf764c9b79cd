//! Usernames: 2 to 20 letters, digits, `_` and `-`, unique without regard to case, a few names
//! reserved.

/// Names nobody may take: the site's own words and the server bots' names.
const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "root",
    "system",
    "moderator",
    "support",
    "bluffchess",
    "anonymous",
    "guest",
    "bot",
    "open",
    "player",
    "white",
    "black",
    "spectator",
    "random",
    "greedy",
    "alphabeta",
    "ismcts",
    "default",
];

/// Why a name cannot be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Shorter than 2 or longer than 20 characters.
    #[error("a username has 2 to 20 characters")]
    Length,
    /// A character other than a letter, a digit, `_` or `-`.
    #[error("a username has only letters, digits, _ and -")]
    Character,
    /// One of the reserved names.
    #[error("that username is reserved")]
    Reserved,
}

/// The name folded for comparison: names that differ only in case are one name.
pub fn folded(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Checks a name for a new account.
pub fn check(name: &str) -> Result<(), NameError> {
    if !(2..=20).contains(&name.chars().count()) {
        return Err(NameError::Length);
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(NameError::Character);
    }
    let folded = folded(name);
    // A server bot's name with a level (`default-2`) is reserved too.
    let bare = folded.split(['-', '_']).next().unwrap_or_default();
    if RESERVED.contains(&folded.as_str())
        || RESERVED.contains(&bare) && bare != folded && is_level(&folded[bare.len() + 1..])
    {
        return Err(NameError::Reserved);
    }
    Ok(())
}

fn is_level(rest: &str) -> bool {
    !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked_and_folded() {
        for good in ["al", "Alice_1", "x-y", "a234567890123456789b", "bob"] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        assert_eq!(check("a"), Err(NameError::Length));
        assert_eq!(check("a2345678901234567890x"), Err(NameError::Length));
        assert_eq!(check("al ice"), Err(NameError::Character));
        assert_eq!(check("élise"), Err(NameError::Character));
        for reserved in [
            "Admin",
            "ROOT",
            "default",
            "ISMCTS",
            "default-2",
            "greedy_10",
        ] {
            assert_eq!(check(reserved), Err(NameError::Reserved), "{reserved}");
        }
        assert_eq!(check("defaulter"), Ok(()));
        assert_eq!(folded("AliCe"), "alice");
    }
}
