//! Reality Check actions and their text: `setup ...`, a move `b3b4` (a capture when an enemy
//! piece stands there), `flip d2`, `drop NB@c2` (face up first), `rc c3d4`, and with the options
//! `memory c7 e8`, `remove d3` / `remove RR`, and Chance's `die 3`.

use super::pieces::{Face, Kind};
pub use super::setup::Setup;
use crate::action_info::ActionInfo;
use crate::board::board39::{Shape, Square39};
use crate::error::ActionError;
use core::fmt;

/// One action of Reality Check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// A side's hidden setup.
    Setup(Setup),
    /// A move by the face up: onto an empty square (then a flip follows), or a capture (the
    /// captured piece goes to its owner's hand).
    Move {
        /// Where the piece stands.
        from: Square39,
        /// Where it goes.
        to: Square39,
    },
    /// A capture declared as a Reality Check: both pieces are flipped in public.
    RealityCheck {
        /// Where the capturing piece stands.
        from: Square39,
        /// The piece captured.
        to: Square39,
    },
    /// Turning over the piece on a square, after a non-capturing move.
    Flip(Square39),
    /// A piece from hand onto an empty starting square, `up` showing (seen by others as
    /// `drop N@c2`).
    Drop {
        /// The face up.
        up: Face,
        /// The face underneath.
        down: Face,
        /// The square.
        to: Square39,
    },
    /// Memory (Variant Two): turning over two enemy pieces, the lower square first.
    Memory(Square39, Square39),
    /// After a failed Memory: the flipper's true piece on this square leaves the game.
    RemoveOnBoard(Square39),
    /// After a failed Memory: the flipper's true piece of this kind, in hand, leaves the game.
    RemoveFromHand(Kind),
    /// Chance's roll in the dice variant, 1 to 6.
    Die(u8),
}

impl Action {
    /// What it is, as data beside its text.
    pub fn info(&self) -> ActionInfo {
        match *self {
            Action::Setup(_) => ActionInfo::Setup,
            Action::Move { from, to } => ActionInfo::Move {
                from: from.into(),
                to: to.into(),
                promotion: None,
            },
            Action::RealityCheck { from, to } => ActionInfo::RealityCheck {
                from: from.into(),
                to: to.into(),
            },
            Action::Flip(sq) => ActionInfo::Flip { square: sq.into() },
            Action::Drop { up, down, to } => ActionInfo::Drop {
                up,
                down,
                to: to.into(),
            },
            Action::Memory(first, second) => ActionInfo::Memory {
                first: first.into(),
                second: second.into(),
            },
            Action::RemoveOnBoard(sq) => ActionInfo::Remove {
                square: Some(sq.into()),
                piece: None,
            },
            Action::RemoveFromHand(kind) => ActionInfo::Remove {
                square: None,
                piece: Some(kind),
            },
            Action::Die(number) => ActionInfo::Die { number },
        }
    }

    /// The text the opponent and spectators see: a drop shows only its face up and a setup
    /// nothing; everything else is public.
    pub fn public_text(&self) -> String {
        match self {
            Action::Setup(_) => "setup".to_string(),
            Action::Drop { up, to, .. } => format!("drop {up}@{to}"),
            other => other.to_string(),
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Setup(setup) => write!(f, "{setup}"),
            Action::Move { from, to } => write!(f, "{from}{to}"),
            Action::RealityCheck { from, to } => write!(f, "rc {from}{to}"),
            Action::Flip(sq) => write!(f, "flip {sq}"),
            Action::Drop { up, down, to } => write!(f, "drop {up}{down}@{to}"),
            Action::Memory(a, b) => write!(f, "memory {a} {b}"),
            Action::RemoveOnBoard(sq) => write!(f, "remove {sq}"),
            Action::RemoveFromHand(kind) => write!(f, "remove {kind}"),
            Action::Die(n) => write!(f, "die {n}"),
        }
    }
}

const FORMS: &str = "the actions are a move such as b3b4, rc c3d4, flip d2, drop NB@c2, \
                     setup d1=RR c2=NB ... hand=NN, memory c7 e8, remove d3 or remove RR, die 3";

/// Reads an action's canonical text (a setup's pieces and a memory's squares in any order), its
/// squares those of `board`.
pub(super) fn parse(text: &str, board: Shape) -> Result<Action, ActionError> {
    let bad = |reason: String| ActionError::malformed(text, reason);
    let square = |word: &str| board.parse_square(word).map_err(|e| bad(e.to_string()));
    let words: Vec<&str> = text.split(' ').collect();
    match words.as_slice() {
        ["setup", "random"] => Err(bad(
            "setup random is a shortcut the arbiter draws; give the pieces, such as \
             setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN"
                .into(),
        )),
        ["setup", rest @ ..] => Setup::parse(text, rest, board).map(Action::Setup),
        [word] if word.len() == 4 && word.is_ascii() => {
            // UCI is read in any case (`B3B4`).
            let word = word.to_ascii_lowercase();
            let (from, to) = word.split_at(2);
            Ok(Action::Move {
                from: square(from)?,
                to: square(to)?,
            })
        }
        ["rc", word] if word.len() == 4 && word.is_ascii() => {
            let word = word.to_ascii_lowercase();
            let (from, to) = word.split_at(2);
            Ok(Action::RealityCheck {
                from: square(from)?,
                to: square(to)?,
            })
        }
        ["flip", sq] => Ok(Action::Flip(square(sq)?)),
        ["drop", piece] => parse_drop(text, piece, board),
        ["memory", a, b] => {
            let (a, b) = (square(a)?, square(b)?);
            if a == b {
                return Err(bad("memory needs two different squares".into()));
            }
            Ok(Action::Memory(a.min(b), a.max(b)))
        }
        ["remove", what] => match Kind::parse(what) {
            Some(kind) => Ok(Action::RemoveFromHand(kind)),
            None => square(what).map(Action::RemoveOnBoard),
        },
        ["die", n] => match n.as_bytes() {
            [d @ b'1'..=b'6'] => Ok(Action::Die(d - b'0')),
            _ => Err(bad("a die shows 1 to 6".into())),
        },
        _ => Err(bad(FORMS.into())),
    }
}

/// Reads `piece`, the word after `drop` in the action's `text` (`NB@c2`), on `board`.
fn parse_drop(text: &str, piece: &str, board: Shape) -> Result<Action, ActionError> {
    let bad = |reason: String| ActionError::malformed(text, reason);
    let form = || bad("a drop is drop XY@square, face up first, such as drop NB@c2".to_string());
    let (faces, sq) = piece.split_once('@').ok_or_else(form)?;
    let mut letters = faces.chars().map(Face::from_letter);
    let (Some(Some(up)), Some(Some(down)), None) = (letters.next(), letters.next(), letters.next())
    else {
        return Err(form());
    };
    let to = board.parse_square(sq).map_err(|e| bad(e.to_string()))?;
    Ok(Action::Drop { up, down, to })
}
