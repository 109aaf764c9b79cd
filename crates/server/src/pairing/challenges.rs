//! Challenges: one account asks a named account for a game on its terms; the challenged
//! accepts or declines, the challenger may cancel, and an unanswered challenge expires.

use super::terms::Terms;
use crate::room::Holder;
use crate::wire::Challenge;
use std::collections::HashMap;

/// A challenge waiting for its answer.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Pending {
    /// As the accounts see it.
    pub shown: Challenge,
    pub challenger: Holder,
    /// The challenged account: its id and name.
    pub dest: (i64, String),
    pub terms: Terms,
}

impl Pending {
    /// The challenger's account id.
    pub fn challenger_id(&self) -> Option<i64> {
        self.challenger.account.as_ref().map(|(id, _)| *id)
    }
}

/// The reasons a challenge may be declined with: lichess's keys and texts.
pub const DECLINE_REASONS: [(&str, &str); 10] = [
    ("generic", "I'm not accepting challenges at the moment."),
    (
        "later",
        "This is not the right time for me, please ask again later.",
    ),
    (
        "tooFast",
        "This time control is too fast for me, please challenge again with a slower game.",
    ),
    (
        "tooSlow",
        "This time control is too slow for me, please challenge again with a faster game.",
    ),
    (
        "timeControl",
        "I'm not accepting challenges with this time control.",
    ),
    ("rated", "Please send me a rated challenge instead."),
    ("casual", "Please send me a casual challenge instead."),
    ("variant", "I'm not willing to play this variant right now."),
    ("noBot", "I'm not accepting challenges from bots."),
    ("onlyBot", "I'm only accepting challenges from bots."),
];

/// The key and text of a decline reason (`generic` when none is given), or why not.
pub fn decline_reason(key: Option<&str>) -> Result<(&'static str, &'static str), String> {
    let key = key.unwrap_or("generic");
    DECLINE_REASONS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(key))
        .copied()
        .ok_or_else(|| {
            let keys: Vec<&str> = DECLINE_REASONS.iter().map(|(k, _)| *k).collect();
            format!(
                "unknown decline reason: the reasons are {}",
                keys.join(", ")
            )
        })
}

/// The challenges waiting for an answer, by id.
#[derive(Default)]
pub struct Waiting(HashMap<String, Pending>);

impl Waiting {
    /// The challenges `all`.
    pub fn from_vec(all: Vec<Pending>) -> Waiting {
        Waiting(all.into_iter().map(|p| (p.shown.id.clone(), p)).collect())
    }

    /// Every waiting challenge.
    pub fn into_vec(self) -> Vec<Pending> {
        self.0.into_values().collect()
    }

    /// A challenge's id.
    pub fn id_of(pending: &Pending) -> &str {
        &pending.shown.id
    }

    /// Drops the challenges whose time ran out before `now_ms` (their node's timer tells their
    /// accounts; one that died with its node goes here).
    pub fn expire(&mut self, now_ms: i64) {
        self.0.retain(|_, p| p.shown.expires_ms >= now_ms);
    }

    /// Adds one.
    pub fn insert(&mut self, pending: Pending) {
        self.0.insert(pending.shown.id.clone(), pending);
    }

    /// The challenge `id`, if it still waits.
    pub fn get(&self, id: &str) -> Option<&Pending> {
        self.0.get(id)
    }

    /// Takes out the challenge `id`.
    pub fn take(&mut self, id: &str) -> Option<Pending> {
        self.0.remove(id)
    }

    /// How many challenges `account` has sent that still wait.
    pub fn sent_by(&self, account: i64) -> usize {
        self.0
            .values()
            .filter(|p| p.challenger_id() == Some(account))
            .count()
    }

    /// The challenges `account` received and sent, oldest first.
    pub fn of(&self, account: i64) -> (Vec<Challenge>, Vec<Challenge>) {
        let mut all: Vec<&Pending> = self.0.values().collect();
        all.sort_by_key(|p| (p.shown.expires_ms, p.shown.id.clone()));
        let incoming = all.iter().filter(|p| p.dest.0 == account);
        let outgoing = all.iter().filter(|p| p.challenger_id() == Some(account));
        (
            incoming.map(|p| p.shown.clone()).collect(),
            outgoing.map(|p| p.shown.clone()).collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_lichess_keys() {
        assert_eq!(decline_reason(None).unwrap().0, "generic");
        assert_eq!(decline_reason(Some("toofast")).unwrap().0, "tooFast");
        let e = decline_reason(Some("bored")).unwrap_err();
        assert!(e.contains("generic, later"), "{e}");
    }
}
