//! Moves and their UCI text.

use crate::board::{Role, Square};
use core::fmt;
use core::str::FromStr;

/// A move as UCI writes it: from, to, and a promotion type. Castling is the king's two-square
/// move (`e1g1`); en passant is the pawn's diagonal move to the empty square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square the piece lands on.
    pub to: Square,
    /// The type a pawn becomes on the last rank.
    pub promotion: Option<Role>,
}

impl Move {
    /// A move without promotion.
    pub const fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promotion: None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Written as one piece of text: simulations write millions of event texts.
        let mut text = [0u8; 5];
        text[..2].copy_from_slice(&self.from.name_bytes());
        text[2..4].copy_from_slice(&self.to.name_bytes());
        let len = match self.promotion {
            Some(role) => {
                text[4] = role.char() as u8;
                5
            }
            None => 4,
        };
        f.write_str(core::str::from_utf8(&text[..len]).expect("UCI is ASCII"))
    }
}

/// Text that is not a UCI move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid move {text:?}: {reason}")]
pub struct ParseMoveError {
    /// The text that was read (cut to 32 characters).
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads UCI in any case (`E2E4` is `e2e4`).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let lower = text.to_ascii_lowercase();
        let s = lower.as_str();
        let error = |reason| ParseMoveError {
            text: text.chars().take(32).collect(),
            reason,
        };
        if !s.is_ascii() || !(4..=5).contains(&s.len()) {
            return Err(error("expected UCI such as e2e4 or e7e8q"));
        }
        let from = Square::parse(&s[0..2]).ok_or_else(|| error("bad from-square"))?;
        let to = Square::parse(&s[2..4]).ok_or_else(|| error("bad to-square"))?;
        let promotion = match s[4..].chars().next() {
            None => None,
            Some(c) => match Role::from_char(c) {
                Some(role) if !matches!(role, Role::Pawn | Role::King) => Some(role),
                _ => return Err(error("promotion must be one of q, r, b, n")),
            },
        };
        Ok(Move {
            from,
            to,
            promotion,
        })
    }
}
