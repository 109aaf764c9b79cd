//! How a game ends: the winner, if any, and a typed reason with a stable machine id.
//!
//! A rating system, a client or a bot reads [`EndReason::id`] (`checkmate`, `ego-captured`); people
//! read its `Display` text. JSON carries both: `{"winner": "white", "reason": "checkmate",
//! "text": "checkmate"}`.

use crate::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Display};

macro_rules! end_reasons {
    ($($(#[$doc:meta])* $name:ident = $id:literal, $text:literal;)*) => {
        /// Why a game ended. The id is stable: it is what records and clients store.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum EndReason {
            $($(#[$doc])* #[serde(rename = $id)] $name,)*
        }

        impl EndReason {
            /// Every reason, in declaration order.
            pub const ALL: &'static [EndReason] = &[$(EndReason::$name),*];

            /// The stable machine id (`checkmate`, `ego-captured`, ...).
            pub fn id(self) -> &'static str {
                match self { $(EndReason::$name => $id,)* }
            }

            /// The words people read (`capture of the alter ego`).
            pub fn text(self) -> &'static str {
                match self { $(EndReason::$name => $text,)* }
            }

            /// Reads a machine id.
            pub fn from_id(id: &str) -> Option<EndReason> {
                EndReason::ALL.iter().copied().find(|r| r.id() == id)
            }
        }
    };
}

end_reasons! {
    /// The side to move is in check and has no legal move.
    Checkmate = "checkmate", "checkmate";
    /// The side to move is not in check and has no legal move (a draw, or a loss where a
    /// variant's option says so).
    Stalemate = "stalemate", "stalemate";
    /// Neither side can mate (orthodox chess).
    InsufficientMaterial = "insufficient-material", "insufficient material";
    /// Only the two kings are left (Alter Ego).
    BareKings = "bare-kings", "king against king";
    /// 75 moves by each side without a capture or a pawn move.
    SeventyFiveMoveRule = "seventy-five-move-rule", "75-move rule";
    /// The same position for the fifth time.
    FivefoldRepetition = "fivefold-repetition", "fivefold repetition";
    /// A claimed draw: the same position for the third time.
    ThreefoldRepetition = "threefold-repetition", "threefold repetition";
    /// A claimed draw: 50 moves by each side without a capture or a pawn move.
    FiftyMoveRule = "fifty-move-rule", "50-move rule";
    /// 200 moves without a piece leaving the game (BS, Reality Check).
    NoProgress = "no-progress", "200 moves without a piece leaving the game";
    /// 200 moves without a capture of a real piece (Bluff-move).
    NoRealCapture = "no-real-capture", "200 moves without a capture of a real piece";
    /// A player gave up.
    Resignation = "resignation", "resignation";
    /// The players agreed to a draw.
    Agreement = "agreement", "agreement";
    /// A player ran out of time.
    Timeout = "timeout", "time forfeit";
    /// A player ran out of time, but the other side cannot mate: a draw.
    TimeoutInsufficientMaterial = "timeout-insufficient-material", "time forfeit against insufficient material";
    /// A player left the game and did not come back in time.
    Abandonment = "abandonment", "abandonment";
    /// The game was called off before both sides had acted: no result.
    Aborted = "aborted", "abort";
    /// The king was captured (BS, Bluff-move, Ambiguous).
    KingCaptured = "king-captured", "capture of the king";
    /// The piece holding the alter ego was captured (Alter Ego).
    EgoCaptured = "ego-captured", "capture of the alter ego";
    /// A bound piece cannot get its king out of check (Alter Ego).
    EmptyMate = "empty-mate", "empty mate";
    /// The king was removed after a failed call of BS (BS).
    KingRemoved = "king-removed", "removal of the king";
    /// The king, the last piece, was removed after a failed call of BS (BS).
    LastPieceRemoved = "last-piece-removed", "removal of the last piece, the king";
    /// The side to act has no legal action (BS, Bluff-move, Reality Check).
    NoLegalMove = "no-legal-move", "no legal move";
    /// The side to name a square has none to name (Ambiguous).
    NoDestination = "no-destination", "no destination";
    /// All four true pieces of a side are gone (Reality Check).
    TruePiecesRemoved = "true-pieces-removed", "removal of all four true pieces";
    /// A side had to drop and could not (Reality Check).
    ImpossibleDrop = "impossible-drop", "a forced drop that cannot be made";
}

impl Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "OutcomeJson", from = "OutcomeJson")]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why.
    pub reason: EndReason,
}

/// An outcome as JSON: the reason's id and its text side by side (the text is ignored on reading).
#[derive(Serialize, Deserialize)]
struct OutcomeJson {
    winner: Option<Color>,
    reason: EndReason,
    #[serde(default)]
    text: String,
}

impl From<Outcome> for OutcomeJson {
    fn from(outcome: Outcome) -> OutcomeJson {
        OutcomeJson {
            winner: outcome.winner,
            reason: outcome.reason,
            text: outcome.to_string(),
        }
    }
}

impl From<OutcomeJson> for Outcome {
    fn from(json: OutcomeJson) -> Outcome {
        Outcome {
            winner: json.winner,
            reason: json.reason,
        }
    }
}

impl Outcome {
    /// A win for `winner`.
    pub fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }
}

impl Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(color) => write!(f, "{color} wins by {}", self.reason),
            None => write!(f, "draw by {}", self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_id() {
        for &reason in EndReason::ALL {
            assert_eq!(EndReason::from_id(reason.id()), Some(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{}\"", reason.id()));
        }
    }

    #[test]
    fn outcome_json_carries_id_and_text() {
        let outcome = Outcome::win(Color::Black, EndReason::EgoCaptured);
        let json = serde_json::to_value(outcome).unwrap();
        assert_eq!(json["reason"], "ego-captured");
        assert_eq!(json["text"], "black wins by capture of the alter ego");
        let back: Outcome = serde_json::from_value(json).unwrap();
        assert_eq!(back, outcome);
    }

    #[test]
    fn an_unknown_reason_is_refused() {
        let json = r#"{"winner":null,"reason":"boredom"}"#;
        assert!(serde_json::from_str::<Outcome>(json).is_err());
    }
}
