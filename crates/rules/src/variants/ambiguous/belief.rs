//! What one seat knows in Ambiguous Chess: everything. Every action is in every view in full, so the game
//! is the view's actions replayed, and it is the only sample.

use super::state::Ambiguous;
use crate::belief::OpenBelief;

/// A seat's knowledge of a game of Ambiguous Chess.
pub type AmbiguousBelief = OpenBelief<Ambiguous>;
