//! What one seat knows in Orthodox chess: everything. Every action is in every view in full, so the game
//! is the view's actions replayed, and it is the only sample.

use super::state::Chess;
use crate::belief::OpenBelief;

/// A seat's knowledge of a game of Orthodox chess.
pub type ChessBelief = OpenBelief<Chess>;
