//! The machine-readable facts of events: what an event says, as data beside its text, so that a
//! browser, a remote bot or a belief reads squares and kinds instead of parsing sentences.
//!
//! A fact says exactly what its event's text says to the event's audience, never more: the fact
//! of a sealed action is only its kind. In JSON a fact is an object tagged by `what`:
//! `{"what": "move", "from": "e2", "to": "e4"}`.

use crate::board::{Color, Role, Square};
use crate::game::EndReason;
use serde::{Deserialize, Serialize};

/// What an event says, as data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "what", rename_all = "kebab-case")]
pub enum Fact {
    /// A piece moved on an 8x8 board.
    Move {
        /// Where it started.
        from: Square,
        /// Where it went (castling: the king's square).
        to: Square,
        /// The piece a pawn became, if it was promoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<Role>,
        /// The square of the piece it took, if it took one (en passant: the passed pawn's).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        capture: Option<Square>,
    },
    /// The side to move passed (Alter Ego: its bound piece cannot move).
    Pass,
    /// A hidden action was taken: only its kind is public.
    Sealed {
        /// What kind of action it was.
        kind: SealedKind,
    },
    /// The last move was a death move: the opponent can take the turn piece (Alter Ego).
    DeathMove {
        /// Where the turn piece stands.
        turn_piece: Square,
    },
    /// The alter ego stayed in the turn piece (Alter Ego).
    Stay,
    /// The alter ego went to the piece on a square (Alter Ego).
    Transfer {
        /// The square of the piece that holds it now.
        to: Square,
    },
    /// A square was named (Ambiguous).
    Name {
        /// The square.
        square: Square,
    },
    /// The game ended.
    End {
        /// The winner, if any.
        winner: Option<Color>,
        /// Why.
        reason: EndReason,
    },
}

/// The kind of a hidden action, the only thing its public form says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SealedKind {
    /// Alter Ego's stay-or-transfer decision.
    Decision,
    /// A hidden setup.
    Setup,
    /// Any other hidden action of a variant.
    Action,
}

impl Fact {
    /// The fact of a game's end.
    pub fn end(outcome: crate::game::Outcome) -> Fact {
        Fact::End {
            winner: outcome.winner,
            reason: outcome.reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_read_back_from_json() {
        let facts = [
            Fact::Move {
                from: Square::E7,
                to: Square::E8,
                promotion: Some(Role::Queen),
                capture: None,
            },
            Fact::Sealed {
                kind: SealedKind::Decision,
            },
            Fact::Transfer { to: Square::D1 },
            Fact::End {
                winner: None,
                reason: EndReason::Stalemate,
            },
        ];
        for fact in facts {
            let json = serde_json::to_string(&fact).unwrap();
            assert_eq!(serde_json::from_str::<Fact>(&json).unwrap(), fact, "{json}");
        }
        let json = serde_json::to_value(facts[0]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"what": "move", "from": "e7", "to": "e8", "promotion": "queen"})
        );
    }
}
