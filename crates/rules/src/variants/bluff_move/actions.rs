//! Bluff-move actions and their text: a real piece's or an existing bluff's move in plain UCI
//! from the piece's square (`e4e5`, `e7e8q`, castling `e1g1`), and a new bluff `bluff e2e4`.

use crate::action_info::ActionInfo;
use crate::board::identity::Identity;
use crate::chess::Move;
use crate::error::ActionError;
use crate::fact::Fact;
use core::fmt;

/// One action of Bluff-move Chess.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Moves the own piece on `from`: a real piece (destroying its bluff, castling included) or
    /// an existing bluff.
    Move(Move),
    /// A bluff move: a new bluff of the real piece on `from` is created there and moved; the
    /// real piece stays and its old bluff, if any, is destroyed.
    Bluff(Move),
}

impl Action {
    /// What the mover reads of its own action.
    pub(crate) fn fact(self) -> Fact {
        match self {
            Action::Move(mv) => Fact::Move {
                from: mv.from,
                to: mv.to,
                promotion: mv.promotion,
                capture: None,
            },
            Action::Bluff(mv) => Fact::Bluff {
                from: mv.from,
                to: mv.to,
                promotion: mv.promotion,
            },
        }
    }

    /// What it is, as data beside its text.
    pub fn info(&self) -> ActionInfo {
        match *self {
            Action::Move(mv) => ActionInfo::of_move(mv),
            Action::Bluff(mv) => ActionInfo::Bluff {
                from: mv.from.into(),
                to: mv.to.into(),
                promotion: mv.promotion.map(Identity::from),
            },
        }
    }

    /// The move as typed.
    pub fn mv(self) -> Move {
        match self {
            Action::Move(mv) | Action::Bluff(mv) => mv,
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(mv) => mv.fmt(f),
            Action::Bluff(mv) => {
                f.write_str("bluff ")?;
                mv.fmt(f)
            }
        }
    }
}

/// Reads an action's canonical text.
pub(super) fn parse(text: &str) -> Result<Action, ActionError> {
    let uci = |word: &str| {
        word.parse::<Move>().map_err(|e| {
            ActionError::malformed(
                text,
                format!(
                    "{}; actions are e2e4 (move a piece) or bluff e2e4",
                    e.reason
                ),
            )
        })
    };
    match text.split(' ').collect::<Vec<_>>().as_slice() {
        ["bluff", word] => uci(word).map(Action::Bluff),
        [word] if *word != "bluff" => uci(word).map(Action::Move),
        _ => Err(ActionError::malformed(
            text,
            "expected a move such as e2e4 or a bluff move such as bluff e2e4",
        )),
    }
}
