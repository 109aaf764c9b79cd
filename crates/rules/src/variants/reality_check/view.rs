//! What one seat knows in Reality Check: the face up of every piece in sight, both faces of its
//! own pieces and of every piece shown (flipped) since it was placed, its own hand, and of the
//! opponent's hand its size and what was seen of the pieces that went there.

use super::knowledge::Seen;
use super::state::Phase;
use super::state::RealityCheck;
use crate::board::Color;
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// A piece on the board as the seat sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceView {
    /// Its square.
    pub square: String,
    /// Its owner.
    pub color: Color,
    /// The face up (`P`, `N`, `B`, `R`).
    pub up: char,
    /// The face underneath, when the seat knows it.
    pub down: Option<char>,
}

/// One side's hand and losses as the seat knows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideView {
    /// Whether the side has set up.
    pub set_up: bool,
    /// How many pieces it holds in hand.
    pub hand_count: u32,
    /// The pieces in hand as the seat knows them, one entry a piece: `NB` for a known piece, `N?`
    /// for one that was seen showing N, `??` for one never seen. A drop that several remembered
    /// pieces could be leaves each that stays only what they have in common.
    pub hand: Vec<String>,
    /// The most pieces it may hold at the start of its turn (true pieces in the game minus one).
    pub hand_limit: u32,
    /// Its true pieces still in the game.
    pub true_in_game: u32,
    /// Its true pieces that have left the game.
    pub gone: Vec<String>,
    /// Its starting squares, where it drops (once the seat has seen them).
    pub drop_squares: Vec<String>,
}

/// The position as one seat knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RealityCheckSummary {
    /// What is due: `setup`, `turn` (a move, capture, rc, drop or memory), `flip`, `roll`,
    /// `remove` (after a failed memory), or `over`.
    pub step: String,
    /// The side whose turn it is (or who sets up).
    pub turn: Color,
    /// The die's number, while the flip it allows is due.
    pub die: Option<u8>,
    /// Whether the side to move must drop (its hand is over the limit).
    pub must_drop: bool,
    /// The pieces on the board the seat can see, by square.
    pub board: Vec<PieceView>,
    /// White's hand and losses.
    pub white: SideView,
    /// Black's hand and losses.
    pub black: SideView,
    /// The squares of the pieces the side to move may not flip (flipped or dropped by the
    /// opponent on its last turn).
    pub exempt: Vec<String>,
    /// Turns in a row without a piece leaving the game (200 draw).
    pub quiet_turns: u32,
}

impl RealityCheckSummary {
    pub(super) fn of(game: &RealityCheck, seat: Seat, revealed: bool) -> RealityCheckSummary {
        let knows_all = |color: Color| revealed || seat.color() == Some(color);
        let in_sight = |color: Color| knows_all(color) || game.placements_public();
        let board = (game.rules.board.all().iter().copied())
            .filter_map(|sq| {
                let placed = game.squares[sq.index()]?;
                let piece = placed.piece;
                if !in_sight(piece.color) {
                    return None;
                }
                let knows = knows_all(piece.color) || game.stays[placed.stay].shown;
                Some(PieceView {
                    square: sq.to_string(),
                    color: piece.color,
                    up: piece.up.letter(),
                    down: knows.then(|| piece.down().letter()),
                })
            })
            .collect();
        let side = |color: Color| side_view(game, color, knows_all(color), in_sight(color));
        let (step, die) = match (&game.log.outcome, game.phase) {
            (Some(_), _) => ("over", None),
            (None, Phase::Setup) => ("setup", None),
            (None, Phase::Turn) => ("turn", None),
            (None, Phase::Flip) => ("flip", None),
            (None, Phase::Roll) => ("roll", None),
            (None, Phase::DieFlip(n)) => ("flip", Some(n)),
            (None, Phase::Remove) => ("remove", None),
        };
        RealityCheckSummary {
            step: step.to_string(),
            turn: game.turn,
            die,
            must_drop: step == "turn" && game.must_drop(game.turn),
            board,
            white: side(Color::White),
            black: side(Color::Black),
            exempt: game.exempt.map(|sq| sq.to_string()).collect(),
            quiet_turns: game.quiet,
        }
    }
}

fn side_view(game: &RealityCheck, color: Color, knows_all: bool, in_sight: bool) -> SideView {
    let hand = if knows_all {
        game.hand(color).iter().map(ToString::to_string).collect()
    } else {
        game.remembered[color.index()]
            .iter()
            .map(|seen: &Seen| seen.text())
            .collect()
    };
    SideView {
        set_up: game.setups[color.index()].is_some(),
        hand_count: game.hand_count(color),
        hand,
        hand_limit: game.hand_limit(color),
        true_in_game: game.true_in_game(color),
        gone: game.gone(color).iter().map(ToString::to_string).collect(),
        drop_squares: if in_sight {
            game.drop_squares[color.index()]
                .map(|sq| sq.to_string())
                .collect()
        } else {
            Vec::new()
        },
    }
}
