//! BS Chess actions and their text: `setup RNBQKBNR/PPPPPPPP` (or `setup standard`), a move in
//! UCI (`e2e4`; a declared promotion `e7e8q`), the answer `call` or `accept`, and after a failed
//! call `remove g8`.

use super::setup::{Setup, STANDARD};
use crate::action_info::ActionInfo;
use crate::board::identity::Identity;
use crate::board::Square;
use crate::error::ActionError;
use core::fmt;

/// One action of BS Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A side's hidden arrangement.
    Setup(Setup),
    /// A move; `promotion` declares a promotion to that type from the mover's pool.
    Move {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// The declared promotion type.
        promotion: Option<Identity>,
    },
    /// Call BS on the opponent's move.
    Call,
    /// Let the opponent's move stand unexamined.
    Accept,
    /// After a call that found a legal move: the caller gives up one of its own pieces.
    Remove(Square),
}

impl Action {
    /// What it is, as data beside its text.
    pub fn info(&self) -> ActionInfo {
        match *self {
            Action::Setup(_) => ActionInfo::Setup,
            Action::Move {
                from,
                to,
                promotion,
            } => ActionInfo::Move {
                from: from.into(),
                to: to.into(),
                promotion,
            },
            Action::Call => ActionInfo::Call,
            Action::Accept => ActionInfo::Accept,
            Action::Remove(sq) => ActionInfo::Remove {
                square: Some(sq.into()),
                piece: None,
            },
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Setup(setup) => write!(f, "setup {setup}"),
            Action::Move {
                from,
                to,
                promotion,
            } => {
                write!(f, "{from}{to}")?;
                match promotion {
                    Some(identity) => write!(f, "{}", identity.letter().to_ascii_lowercase()),
                    None => Ok(()),
                }
            }
            Action::Call => f.write_str("call"),
            Action::Accept => f.write_str("accept"),
            Action::Remove(sq) => write!(f, "remove {sq}"),
        }
    }
}

/// Reads an action (and the shortcut `setup standard`); `spy` allows a spy in setups.
pub(super) fn parse(text: &str, spy: bool) -> Result<Action, ActionError> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["call"] => Ok(Action::Call),
        ["accept"] => Ok(Action::Accept),
        ["setup", "standard"] => Ok(Action::Setup(STANDARD)),
        ["setup", arrangement] => Setup::parse(arrangement, spy)
            .map(Action::Setup)
            .map_err(|e| ActionError::malformed(text, e.to_string())),
        ["remove", square] => Square::parse(square)
            .map(Action::Remove)
            .ok_or_else(|| ActionError::malformed(text, "remove needs a square such as g8")),
        [word] => parse_move(word).ok_or_else(|| {
            ActionError::malformed(
                text,
                "expected a move (e2e4, or e7e8q to declare a promotion), call, accept, remove <square> or setup <arrangement>",
            )
        }),
        _ => Err(ActionError::malformed(
            text,
            "expected a move, call, accept, remove <square> or setup <arrangement>",
        )),
    }
}

fn parse_move(word: &str) -> Option<Action> {
    if !word.is_ascii() || !(4..=5).contains(&word.len()) {
        return None;
    }
    let from = Square::parse(&word[..2])?;
    let to = Square::parse(&word[2..4])?;
    let promotion = match word[4..].chars().next() {
        None => None,
        Some(c @ ('q' | 'r' | 'b' | 'n')) => Some(Identity::from_letter(c.to_ascii_uppercase())?),
        Some(_) => return None,
    };
    Some(Action::Move {
        from,
        to,
        promotion,
    })
}
