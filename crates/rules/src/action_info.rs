//! Legal actions with their structure: beside an action's canonical text, what kind of action it
//! is and its squares, pieces and faces, so that a client (the browser, an outside bot, a Python
//! program) reads the structure instead of parsing the text.
//!
//! In JSON a legal action is one object, its text beside its structure, tagged by `kind`:
//! `{"text": "e7e8q", "kind": "move", "from": "e7", "to": "e8", "promotion": "queen"}`. The
//! structure is a function of the action alone: equal texts have equal structures.

use crate::board::board39::Square39;
use crate::board::faces::{Face, Kind};
use crate::board::identity::Identity;
use crate::board::Square;
use crate::chess::Move;
use core::fmt;
use serde::{Deserialize, Serialize};

/// A square's name on any board, as action texts write it: a file letter `a`-`i` and a rank digit
/// `1`-`9` (`e4` on the 8x8 board, `d9` on Reality Check's). Which squares exist is the game's
/// board's business; the name only says which one is meant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareName([u8; 2]);

impl SquareName {
    /// Reads a name: a file letter `a`-`i` and a rank digit `1`-`9`.
    pub fn parse(text: &str) -> Option<SquareName> {
        match *text.as_bytes() {
            [f @ b'a'..=b'i', r @ b'1'..=b'9'] => Some(SquareName([f, r])),
            _ => None,
        }
    }

    /// The name's file letter and rank digit, as bytes (`*b"e4"`).
    pub fn bytes(&self) -> [u8; 2] {
        self.0
    }

    /// The name, `e4`.
    pub fn as_str(&self) -> &str {
        // Both bytes are ASCII (see `parse` and the `From` impls).
        core::str::from_utf8(&self.0).expect("a square name is ASCII")
    }
}

impl From<Square> for SquareName {
    fn from(sq: Square) -> SquareName {
        SquareName([sq.file().char() as u8, sq.rank().char() as u8])
    }
}

impl From<Square39> for SquareName {
    fn from(sq: Square39) -> SquareName {
        SquareName([b'a' + sq.file(), b'1' + sq.rank()])
    }
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for SquareName {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SquareName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<SquareName, D::Error> {
        let text = <String as Deserialize>::deserialize(deserializer)?;
        SquareName::parse(&text).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "invalid square name {:?}: expected a file a-i and a rank 1-9, such as e4",
                crate::error::shorten(&text)
            ))
        })
    }
}

/// What an action is, as data: its kind (the JSON tag `kind`) and the squares, pieces and faces
/// it names. The names follow the facts of events (`crate::fact::Fact`) where they say the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ActionInfo {
    /// A piece moves from `from` to `to`, taking what stands there if anything: a chess move
    /// (castling as the king's move), Alter Ego's and Bluff-move's moves, Ambiguous's picked move,
    /// BS's declared move, Reality Check's move by the face up.
    Move {
        /// Where the piece stands.
        from: SquareName,
        /// Where it goes.
        to: SquareName,
        /// The piece a pawn becomes (BS: the promotion declared).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<Identity>,
    },
    /// A bluff move (Bluff-move): a new bluff of the real piece on `from` goes to `to`.
    Bluff {
        /// The real piece's square.
        from: SquareName,
        /// Where the bluff goes.
        to: SquareName,
        /// The piece the bluff shows once promoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        promotion: Option<Identity>,
    },
    /// A capture declared as a Reality Check (Reality Check): both pieces are flipped.
    RealityCheck {
        /// The checking piece.
        from: SquareName,
        /// The piece it tests.
        to: SquareName,
    },
    /// A piece from the hand onto `to`, `up` showing and `down` beneath (Reality Check).
    Drop {
        /// The face up.
        up: Face,
        /// The face underneath.
        down: Face,
        /// Where it goes.
        to: SquareName,
    },
    /// Turning over the piece on `square` (Reality Check).
    Flip {
        /// Where it stands.
        square: SquareName,
    },
    /// A Memory (Reality Check): turning over two enemy pieces.
    Memory {
        /// The first piece (the lower square).
        first: SquareName,
        /// The second piece.
        second: SquareName,
    },
    /// Giving up an own piece: the one on `square` (BS after a call that found a lawful move;
    /// Reality Check's true piece after a failed Memory), or the true piece `piece` from the hand
    /// (Reality Check).
    Remove {
        /// Where it stands, if on the board.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        square: Option<SquareName>,
        /// Which piece, if from the hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        piece: Option<Kind>,
    },
    /// After a death move, the alter ego goes to the own piece on `to` (Alter Ego).
    Transfer {
        /// The square of the piece that takes it.
        to: SquareName,
    },
    /// After a death move, the alter ego stays in the moved piece (Alter Ego).
    Stay,
    /// The turn passes (Alter Ego: the bound piece cannot move).
    Pass,
    /// Calling BS on the declared move (BS).
    Call,
    /// Letting the declared move stand (BS).
    Accept,
    /// Naming the square one of the own pieces will move to (Ambiguous).
    Name {
        /// The square.
        square: SquareName,
    },
    /// Chance's die (Reality Check with dice).
    Die {
        /// One to six.
        number: u8,
    },
    /// A setup, or one of its shortcuts (`setup random`): the text is the whole of it.
    Setup,
}

impl ActionInfo {
    /// An orthodox move: its squares and promotion (castling is the king's move).
    pub fn of_move(mv: Move) -> ActionInfo {
        ActionInfo::Move {
            from: mv.from.into(),
            to: mv.to.into(),
            promotion: mv.promotion.map(Identity::from),
        }
    }
}

/// One legal action: its canonical text, and its structure beside it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LegalAction {
    /// The canonical text, as `play` takes it.
    pub text: String,
    /// What it is.
    #[serde(flatten)]
    pub info: ActionInfo,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn legal_actions_are_one_object_each_and_read_back() {
        let cases = [
            (
                LegalAction {
                    text: "e7e8q".into(),
                    info: ActionInfo::Move {
                        from: Square::E7.into(),
                        to: Square::E8.into(),
                        promotion: Some(Identity::Queen),
                    },
                },
                json!({"text": "e7e8q", "kind": "move", "from": "e7", "to": "e8", "promotion": "queen"}),
            ),
            (
                LegalAction {
                    text: "drop NB@c2".into(),
                    info: ActionInfo::Drop {
                        up: Face::Knight,
                        down: Face::Bishop,
                        to: Square39::C2.into(),
                    },
                },
                json!({"text": "drop NB@c2", "kind": "drop", "up": "N", "down": "B", "to": "c2"}),
            ),
            (
                LegalAction {
                    text: "rc c3d4".into(),
                    info: ActionInfo::RealityCheck {
                        from: Square39::C3.into(),
                        to: Square39::D4.into(),
                    },
                },
                json!({"text": "rc c3d4", "kind": "reality-check", "from": "c3", "to": "d4"}),
            ),
            (
                LegalAction {
                    text: "remove RR".into(),
                    info: ActionInfo::Remove {
                        square: None,
                        piece: Some(Kind::new(Face::Rook, Face::Rook)),
                    },
                },
                json!({"text": "remove RR", "kind": "remove", "piece": "RR"}),
            ),
            (
                LegalAction {
                    text: "die 3".into(),
                    info: ActionInfo::Die { number: 3 },
                },
                json!({"text": "die 3", "kind": "die", "number": 3}),
            ),
            (
                LegalAction {
                    text: "stay".into(),
                    info: ActionInfo::Stay,
                },
                json!({"text": "stay", "kind": "stay"}),
            ),
        ];
        for (action, expected) in cases {
            assert_eq!(serde_json::to_value(&action).unwrap(), expected);
            let back: LegalAction = serde_json::from_value(expected).unwrap();
            assert_eq!(back, action);
        }
    }

    #[test]
    fn square_names_are_two_characters_of_any_board() {
        assert_eq!(SquareName::from(Square::H8).as_str(), "h8");
        assert_eq!(SquareName::from(Square39::D9).as_str(), "d9");
        assert_eq!(SquareName::parse("i9").unwrap().to_string(), "i9");
        for bad in ["", "e", "e10", "j1", "e0", "E4", "e4 "] {
            assert!(SquareName::parse(bad).is_none(), "{bad:?}");
        }
        let refused = serde_json::from_value::<SquareName>(json!("z9")).unwrap_err();
        assert!(
            refused.to_string().contains("invalid square name"),
            "{refused}"
        );
    }
}
