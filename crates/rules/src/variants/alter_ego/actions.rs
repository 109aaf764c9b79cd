//! Alter Ego actions and their text: a move in UCI (`e2e4`), and after a death move the hidden
//! decision `stay` or `transfer d1`; `pass` when the bound piece cannot move.

use crate::action_info::ActionInfo;
use crate::board::Square;
use crate::chess::{Move, Position};
use crate::error::ActionError;
use core::fmt;

/// One action of Alter Ego Bluff Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A chess move; the moved piece becomes the turn piece and carries the mover's alter ego.
    Move(Move),
    /// After a death move: the alter ego stays in the turn piece.
    Stay,
    /// After a death move: the alter ego moves to the own piece on this square, and the next turn
    /// must move that piece.
    Transfer(Square),
    /// The bound piece cannot move and its owner is not in check: the turn passes.
    Pass,
}

impl Action {
    /// Whether this is a hidden decision.
    pub fn is_decision(self) -> bool {
        matches!(self, Action::Stay | Action::Transfer(_))
    }
}

impl Action {
    /// What it is, as data beside its text.
    pub fn info(&self) -> ActionInfo {
        match *self {
            Action::Move(mv) => ActionInfo::of_move(mv),
            Action::Stay => ActionInfo::Stay,
            Action::Transfer(sq) => ActionInfo::Transfer { to: sq.into() },
            Action::Pass => ActionInfo::Pass,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(mv) => write!(f, "{mv}"),
            Action::Stay => f.write_str("stay"),
            Action::Transfer(sq) => write!(f, "transfer {sq}"),
            Action::Pass => f.write_str("pass"),
        }
    }
}

/// Reads an action's text; a move in UCI or SAN (resolved against `legal`).
pub(super) fn parse(pos: &Position, legal: &[Move], text: &str) -> Result<Action, ActionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["stay"] => Ok(Action::Stay),
        ["pass"] => Ok(Action::Pass),
        ["transfer", square] => Square::parse(square)
            .map(Action::Transfer)
            .ok_or_else(|| ActionError::malformed(text, "transfer needs a square such as d1")),
        ["transfer"] => Err(ActionError::malformed(
            text,
            "transfer needs a square such as d1",
        )),
        [word] => crate::variants::chess::read_move(pos, legal, word)
            .map(Action::Move)
            .map_err(|e| match e {
                ActionError::Malformed { text, reason } => ActionError::Malformed {
                    text,
                    reason: format!(
                        "{reason}; the other actions are stay, transfer <square> and pass"
                    ),
                },
                other => other,
            }),
        _ => Err(ActionError::malformed(
            text,
            "expected a move such as e2e4, stay, transfer <square> or pass",
        )),
    }
}
