//! The refusals every variant shares: an action refused by the rules, and a view no game under
//! the rules gives; and the cutting of long input for messages.

use crate::options::OptionError;
use std::fmt::Display;

/// Why an action was refused. The message names the problem and tells nothing the actor may not
/// know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The text is not an action of this variant.
    #[error("cannot read action {text:?}: {reason}")]
    Malformed {
        /// The text (cut to 64 characters).
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The action is well formed but not allowed now.
    #[error("illegal action {text:?}: {reason}")]
    Illegal {
        /// The action's text.
        text: String,
        /// Why not, from the actor's own knowledge.
        reason: String,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl ActionError {
    /// A stable machine id for the kind of refusal.
    pub fn id(&self) -> &'static str {
        match self {
            ActionError::Malformed { .. } => "malformed-action",
            ActionError::Illegal { .. } => "illegal-action",
            ActionError::GameOver => "game-over",
        }
    }

    /// A malformed-text error, cutting long input.
    pub fn malformed(text: &str, reason: impl Into<String>) -> ActionError {
        ActionError::Malformed {
            text: shorten(text),
            reason: reason.into(),
        }
    }

    /// An illegal-action error.
    pub fn illegal(text: impl Display, reason: impl Into<String>) -> ActionError {
        ActionError::Illegal {
            text: shorten(&text.to_string()),
            reason: reason.into(),
        }
    }
}

/// Input cut to 64 characters for error messages.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 64 {
        text.to_string()
    } else {
        text.chars().take(61).chain("...".chars()).collect()
    }
}

/// Why a view cannot be believed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BeliefError {
    /// The view is of another variant.
    #[error("the view is of variant {found:?}, not {expected:?}")]
    Variant {
        /// The variant the belief is for.
        expected: &'static str,
        /// The view's variant.
        found: String,
    },
    /// The view's options are not this variant's.
    #[error("the view's options: {0}")]
    Options(#[from] OptionError),
    /// No game under these rules gives this view.
    #[error("impossible view: {0}")]
    Impossible(String),
}

impl BeliefError {
    /// A stable machine id for the kind of refusal: `wrong-variant`, `bad-options` or
    /// `impossible-view`.
    pub fn id(&self) -> &'static str {
        match self {
            BeliefError::Variant { .. } => "wrong-variant",
            BeliefError::Options(e) => e.id(),
            BeliefError::Impossible(_) => "impossible-view",
        }
    }

    /// An impossible view, with the reason.
    pub fn impossible(reason: impl Into<String>) -> BeliefError {
        BeliefError::Impossible(reason.into())
    }
}
