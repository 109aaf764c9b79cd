//! The machine-readable facts of events: what an event says, as data beside its text, so that a
//! browser, a remote bot or a belief reads squares and kinds instead of parsing sentences.
//!
//! A fact says exactly what its event's text says to the event's audience, never more: the fact
//! of a sealed action is only its kind. In JSON a fact is an object tagged by `what`:
//! `{"what": "move", "from": "e2", "to": "e4"}`.

use crate::board::board39::Square39;
use crate::board::faces::{Face, Kind};
use crate::board::identity::Identity;
use crate::board::{Color, Role, Square};
use crate::chess::{Move, Position};
use crate::outcome::EndReason;
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
    /// A side arranged its pieces: the actor's own event (the opponent sees it sealed).
    Setup,
    /// A move declared, waiting for its answer (BS).
    Declared {
        /// Where the piece stands.
        from: Square,
        /// Where it goes.
        to: Square,
        /// Whether it declares a promotion (its type is hidden from the opponent).
        promotes: bool,
    },
    /// The answer that lets the declared move stand (BS).
    Accept,
    /// The answer that tests the declared move (BS).
    Call,
    /// A call showed what a piece is, and whether its move was lawful (BS).
    Shown {
        /// Where the piece stands.
        square: Square,
        /// What it is.
        identity: Identity,
        /// Whether the called move was lawful for it.
        lawful: bool,
    },
    /// A call on a declared promotion showed whether the piece was a pawn (BS).
    PawnClaim {
        /// Where the piece stands.
        square: Square,
        /// Whether it was a pawn, which makes the promotion lawful.
        was_pawn: bool,
    },
    /// A spy's capture was called: the target's identity decides it (BS).
    SpyTarget {
        /// Where the target stands.
        square: Square,
        /// What it is.
        identity: Identity,
    },
    /// A declared promotion stood: the piece became a type from its owner's pool (BS).
    Promoted {
        /// Where.
        square: Square,
    },
    /// A piece was taken (BS: when the move stands).
    Captured {
        /// Where it stood.
        square: Square,
    },
    /// After a call that found a lawful move, the caller removed one of its own pieces (BS).
    Remove {
        /// Where it stood.
        square: Square,
    },
    /// A piece moved on Reality Check's 39-square board, taking what stood there if `capture`.
    Step {
        /// Where it started.
        from: Square39,
        /// Where it went.
        to: Square39,
        /// Whether it took the piece there.
        capture: bool,
    },
    /// A Reality Check: the piece on `from` tests the piece on `to` (Reality Check).
    RealityCheck {
        /// The checking piece.
        from: Square39,
        /// The piece it tests.
        to: Square39,
    },
    /// What a Reality Check showed: both pieces' faces (the checking piece's own face up, turned
    /// back when it is not true).
    Checked {
        /// The checking piece.
        checker: Kind,
        /// The tested piece.
        checked: Kind,
    },
    /// A piece dropped from the hand: its face up is public, the face under it only its owner's
    /// (Reality Check).
    Drop {
        /// The face up.
        up: Face,
        /// The face underneath, in the owner's own event and once revealed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        down: Option<Face>,
        /// Where it went.
        to: Square39,
    },
    /// A Memory: the two enemy pieces are turned over (Reality Check).
    Memory {
        /// The first piece.
        first: Square39,
        /// The second piece.
        second: Square39,
    },
    /// What a Memory showed: the two hidden faces, which match or differ (Reality Check).
    Compared {
        /// The first piece's hidden face.
        first: Face,
        /// The second piece's hidden face.
        second: Face,
    },
    /// A piece was flipped (Reality Check).
    Flip {
        /// Where it stands.
        square: Square39,
    },
    /// A piece now shows its face `up` and is known to be `kind` (Reality Check).
    Faces {
        /// Where it stands.
        square: Square39,
        /// Both its faces.
        kind: Kind,
        /// The face up.
        up: Face,
    },
    /// The die came up `number` (Reality Check with dice).
    Die {
        /// One to six.
        number: u8,
    },
    /// A piece taken on the 39-square board went back to its owner's hand (Reality Check).
    ToHand {
        /// Where it stood.
        square: Square39,
        /// Its owner.
        color: Color,
    },
    /// A true piece was chosen to leave the game, from the board or the hand (Reality Check).
    RemoveTrue {
        /// Where it stood, if on the board.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        square: Option<Square39>,
        /// Which piece, if from the hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<Kind>,
    },
    /// A piece left the game for good (Reality Check).
    LeftGame {
        /// Its owner.
        color: Color,
        /// Which piece.
        kind: Kind,
    },
    /// Both setups are done and the pieces placed on the board are shown (Reality Check).
    Placed {
        /// Whose placement.
        color: Color,
    },
    /// The image of a piece went from `from` to `to`, where it may have died, showing `role`
    /// when its type changed; whether it was real or a bluff stays hidden (Bluff-move).
    Image {
        /// Where the image stood.
        from: Square,
        /// Where it went.
        to: Square,
        /// The type it shows now, if it changed (a promotion).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
    },
    /// The actor's own bluff move: a new bluff of the real piece on `from` went to `to`
    /// (Bluff-move).
    Bluff {
        /// The real piece's square.
        from: Square,
        /// Where the bluff went.
        to: Square,
        /// The type the bluff shows, if it was promoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<Role>,
    },
    /// An enemy bluff was captured on `square`, which shows where its real piece stands
    /// (Bluff-move).
    BluffCaptured {
        /// Where the bluff stood.
        square: Square,
        /// Where its real piece stands.
        real: Square,
        /// Their type.
        role: Role,
    },
    /// A real piece was captured on `square`, with its bluff if it had one (Bluff-move).
    RealCaptured {
        /// Where it stood.
        square: Square,
        /// Its type.
        role: Role,
        /// Where its bluff stood, removed with it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bluff: Option<Square>,
    },
    /// The mover's bluff died against a real piece on `square`, which shows where its real
    /// piece stands (Bluff-move).
    BluffDestroyed {
        /// Where it died.
        square: Square,
        /// Where its real piece stands.
        real: Square,
        /// Their type.
        role: Role,
    },
    /// The mover's move did not happen, or a pawn stopped short, because of hidden enemy
    /// pieces; only the mover learns it (Bluff-move).
    Stopped {
        /// Why.
        why: StopReason,
        /// The square that stopped it (none for castling).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        square: Option<Square>,
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
    /// A declared promotion, its type hidden (BS).
    Promotion,
    /// Any other hidden action of a variant.
    Action,
}

/// Why a Bluff-move move was stopped by hidden enemy pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// A pawn's diagonal step found no enemy piece: the move did not happen.
    NoEnemy,
    /// A real pawn's step found an enemy real piece ahead: the move did not happen.
    Blocked,
    /// An enemy real piece stands between king and rook: castling did not happen.
    Castling,
    /// A real pawn stopped before the square, where an enemy real piece stands.
    Short,
}

impl Fact {
    /// The fact of a game's end.
    pub fn end(outcome: crate::outcome::Outcome) -> Fact {
        Fact::End {
            winner: outcome.winner,
            reason: outcome.reason,
        }
    }

    /// What playing the orthodox move `mv` in `pos` says: its squares, promotion and capture.
    pub fn of_move(pos: &Position, mv: Move) -> Fact {
        Fact::Move {
            from: mv.from,
            to: mv.to,
            promotion: mv.promotion,
            capture: pos.captured_square(mv),
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
