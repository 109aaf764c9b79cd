//! Events: one thing that happened, as some seats may see it, with its text and its fact.

use crate::fact::Fact;
use crate::seat::{Actor, Audience};
use serde::{Deserialize, Serialize};

/// What an event says happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// An action, in the text its audience may see (the public form of a hidden action, or the
    /// actor's own text in the actor's own event).
    Action,
    /// The public form of a hidden action: the arbiter attaches the commitment to its text.
    Sealed,
    /// A hidden action made public: `text` is the action's own text.
    Reveal {
        /// The index of the action revealed (`"reveals"` in JSON: the event's own `action` is the
        /// index of the action that caused the reveal).
        #[serde(rename = "reveals")]
        action: usize,
    },
    /// A consequence the audience learns (a capture, a piece shown, a flag).
    Info,
    /// A resignation, draw offer, acceptance or claim.
    Meta,
    /// The end of the game.
    End,
}

/// One thing that happened, as some seats may see it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    /// The index of the action it belongs to (meta events: the number of actions before it).
    pub action: usize,
    /// Who acted.
    pub actor: Actor,
    /// Who may see it.
    pub seats: Audience,
    /// What it is.
    #[serde(flatten)]
    pub kind: EventKind,
    /// What it says.
    pub text: String,
    /// What it says, as data (for the variants that give it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fact: Option<Fact>,
    /// A move in the variant's public notation, where it takes the position to write
    /// (orthodox chess and Alter Ego: SAN with `+` and `#`; Ambiguous: the picked move with its
    /// piece, `Nb1-c3`); it says nothing the event's audience does not see.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub notation: Option<String>,
    /// For a sealed action: the commitment to its text (hex SHA-256), set by the arbiter.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub commitment: Option<String>,
    /// For a reveal: the salt that opens the commitment (hex), set by the arbiter.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub salt: Option<String>,
}

impl Event {
    /// An event without commitment or salt.
    pub fn new(
        action: usize,
        actor: Actor,
        seats: Audience,
        kind: EventKind,
        text: impl Into<String>,
    ) -> Event {
        Event {
            action,
            actor,
            seats,
            kind,
            text: text.into(),
            fact: None,
            notation: None,
            commitment: None,
            salt: None,
        }
    }
}
