//! Ambiguous Chess actions: the player to move names a square (`e4`); the opponent then picks the
//! move (`d2e4`, `e7e8n`).

use crate::action_info::ActionInfo;
use crate::board::Square;
use crate::chess::Move;
use crate::error::ActionError;
use core::fmt;

/// One action of Ambiguous Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The player to move names the square one of its pieces will move to.
    Name(Square),
    /// The opponent picks which candidate move to that square is played.
    Pick(Move),
}

impl Action {
    /// What it is, as data beside its text.
    pub fn info(&self) -> ActionInfo {
        match *self {
            Action::Name(sq) => ActionInfo::Name { square: sq.into() },
            Action::Pick(mv) => ActionInfo::of_move(mv),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Name(sq) => write!(f, "{sq}"),
            Action::Pick(mv) => write!(f, "{mv}"),
        }
    }
}

/// Reads a square (`e4`) or a move in UCI (`d2e4`).
pub(super) fn parse(text: &str) -> Result<Action, ActionError> {
    if text.len() == 2 {
        return Square::parse(text)
            .map(Action::Name)
            .ok_or_else(|| ActionError::malformed(text, "expected a square such as e4"));
    }
    text.parse::<Move>().map(Action::Pick).map_err(|e| {
        ActionError::malformed(
            text,
            format!("{}; name a square (e4) or pick a move (d2e4)", e.reason),
        )
    })
}
