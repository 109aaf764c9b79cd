//! What one seat knows in BS Chess: where every piece stands, what its own pieces are, what calls
//! have shown, and its own pool of lost pieces.

use super::known::Known;
use super::state::Bs;
use super::state::Phase;
use crate::board::{Color, Square};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// A piece on the board as a seat knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceView {
    /// Where it stands.
    pub square: Square,
    /// Whose it is.
    pub color: Color,
    /// What it is, if the seat knows (its own pieces, and what calls have shown).
    pub identity: Option<String>,
    /// Whether it came from a promotion (its type unknown to the opponent).
    pub promoted: bool,
}

/// The move waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PendingView {
    /// Where the piece stands.
    pub from: Square,
    /// Where it goes (a piece there stays until the answer).
    pub to: Square,
    /// Whether the move declares a promotion.
    pub promotion: bool,
}

/// The position as one seat knows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BsSummary {
    /// `setup`, `move`, `answer` or `remove`.
    pub step: String,
    /// The side whose move it is (during an answer: the side that moved).
    pub turn: Color,
    /// Every piece on the board.
    pub pieces: Vec<PieceView>,
    /// The move waiting for `call` or `accept`.
    pub pending: Option<PendingView>,
    /// The seat's own lost pieces (the types a promotion may bring back), for a player.
    pub own_pool: Option<Vec<String>>,
    /// How many pieces each side has lost: White, Black.
    pub lost: [usize; 2],
    /// Moves in a row without a piece leaving the game (200 draw).
    pub quiet_moves: u32,
}

impl BsSummary {
    pub(super) fn of(game: &Bs, seat: Seat, revealed: bool) -> BsSummary {
        let knows = |color: Color| revealed || seat.color() == Some(color);
        let pieces = Color::ALL
            .into_iter()
            .flat_map(|color| game.board.of(color).into_iter().map(move |sq| (color, sq)))
            .map(|(color, sq)| {
                let known = game.known.get(sq);
                let identity = if knows(color) {
                    game.identity[sq.index()]
                } else {
                    match known {
                        Some(Known::Identity(identity)) => Some(identity),
                        _ => None,
                    }
                };
                PieceView {
                    square: sq,
                    color,
                    identity: identity.map(|i| i.name().to_string()),
                    promoted: known == Some(Known::Promoted),
                }
            })
            .collect();
        let (step, pending) = match game.phase {
            Phase::Setup => ("setup", None),
            Phase::Move => ("move", None),
            Phase::Answer(p) => (
                "answer",
                Some(PendingView {
                    from: p.from,
                    to: p.to,
                    promotion: p.promotion.is_some(),
                }),
            ),
            Phase::Remove => ("remove", None),
        };
        let own_pool = seat.color().map(|color| {
            let mut pool: Vec<&'static str> =
                game.pools[color.index()].iter().map(|i| i.name()).collect();
            pool.sort();
            pool
        });
        BsSummary {
            step: step.to_string(),
            turn: game.turn,
            pieces,
            pending,
            own_pool: own_pool.map(|pool| pool.into_iter().map(String::from).collect()),
            lost: [game.pools[0].len(), game.pools[1].len()],
            quiet_moves: game.quiet_moves,
        }
    }
}
