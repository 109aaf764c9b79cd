//! A game of orthodox chess as a sequence of positions: how it ends (checkmate, stalemate, dead
//! position, the automatic 75-move and fivefold-repetition draws) and which draws a player may
//! claim (threefold repetition, the 50-move rule).

use super::moves::Move;
use super::position::Position;
use crate::board::Color;
use crate::outcome::EndReason;
use crate::repetition::KeyFilter;

/// Why a game of chess ended by the rules of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The side to move is checkmated: the other side wins.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Neither side can mate by any series of legal moves (by the material test).
    InsufficientMaterial,
    /// 75 moves by each side without a capture or pawn move (and the last move did not mate).
    SeventyFiveMoves,
    /// The same position for the fifth time.
    FivefoldRepetition,
}

impl Ending {
    /// The winner, if the ending is not a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            Ending::Checkmate { winner } => Some(winner),
            _ => None,
        }
    }

    /// A short description, as outcomes are reported.
    pub fn reason(self) -> &'static str {
        self.end_reason().text()
    }

    /// The typed reason an outcome carries.
    pub fn end_reason(self) -> EndReason {
        match self {
            Ending::Checkmate { .. } => EndReason::Checkmate,
            Ending::Stalemate => EndReason::Stalemate,
            Ending::InsufficientMaterial => EndReason::InsufficientMaterial,
            Ending::SeventyFiveMoves => EndReason::SeventyFiveMoveRule,
            Ending::FivefoldRepetition => EndReason::FivefoldRepetition,
        }
    }
}

/// A draw a player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The same position has stood (or will stand after the announced move) three times.
    ThreefoldRepetition,
    /// 50 moves by each side without a capture or pawn move (or will have, after the move).
    FiftyMoves,
}

impl DrawClaim {
    /// A short description.
    pub fn reason(self) -> &'static str {
        self.end_reason().text()
    }

    /// The typed reason an outcome carries.
    pub fn end_reason(self) -> EndReason {
        match self {
            DrawClaim::ThreefoldRepetition => EndReason::ThreefoldRepetition,
            DrawClaim::FiftyMoves => EndReason::FiftyMoveRule,
        }
    }
}

/// The positions of a game so far, for the rules that look back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    position: Position,
    /// Hashes of every earlier position, oldest first.
    earlier: Vec<u64>,
    /// The hashes that could still repeat (since the last capture or pawn move), summarised:
    /// most positions are new, and this tells them so without scanning `earlier`.
    recent: KeyFilter,
}

impl History {
    /// A game starting from `position`.
    pub fn new(position: Position) -> History {
        History {
            position,
            earlier: Vec::new(),
            recent: KeyFilter::default(),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays a move that is legal in the current position (the caller checks).
    pub fn play_unchecked(&mut self, mv: Move) {
        let before = self.position.hash();
        self.position.play_unchecked(mv);
        self.remember(before);
    }

    /// Hands the move to the other side without a move (see [`Position::pass_turn`]).
    pub fn pass_unchecked(&mut self) {
        let before = self.position.hash();
        self.position.pass_turn();
        self.remember(before);
    }

    /// Adds the hash of the position just left. The hashes that can repeat are the last
    /// `halfmove_clock` ones, all added since the clock last stood at zero.
    fn remember(&mut self, before: u64) {
        self.earlier.push(before);
        if self.position.halfmove_clock() == 0 {
            self.recent = KeyFilter::default();
        } else {
            self.recent.insert(before);
        }
    }

    /// How many times the current position has stood, this time included. Only positions since
    /// the last capture or pawn move can repeat it, and only those with the same side to move.
    pub fn repetitions(&self) -> usize {
        if !self.recent.may_contain(self.position.hash()) {
            return 1;
        }
        repetitions_of(&self.position, &self.earlier)
    }

    /// How the game has ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.ending_given(self.position.has_legal_moves())
    }

    /// How the game has ended, if it has, when the caller already knows whether the side to move
    /// has a legal move (it generated them).
    pub fn ending_given(&self, has_legal_moves: bool) -> Option<Ending> {
        let pos = &self.position;
        if !has_legal_moves {
            return Some(if pos.is_check() {
                Ending::Checkmate {
                    winner: !pos.turn(),
                }
            } else {
                Ending::Stalemate
            });
        }
        if pos.is_insufficient_material() {
            Some(Ending::InsufficientMaterial)
        } else if pos.halfmove_clock() >= 150 {
            Some(Ending::SeventyFiveMoves)
        } else if self.repetitions() >= 5 {
            Some(Ending::FivefoldRepetition)
        } else {
            None
        }
    }

    /// The draw the side to move may claim now, if any.
    pub fn claimable_draw(&self) -> Option<DrawClaim> {
        claim_for(&self.position, &self.earlier)
    }

    /// The draw the side to move may claim by announcing `mv` (legal here), which would reach a
    /// position that repeats for the third time or completes 50 moves.
    pub fn claimable_draw_with(&self, mv: Move) -> Option<DrawClaim> {
        let mut next = self.position;
        next.play_unchecked(mv);
        let mut earlier = self.earlier.clone();
        earlier.push(self.position.hash());
        claim_for(&next, &earlier)
    }
}

fn repetitions_of(pos: &Position, earlier: &[u64]) -> usize {
    let window = (pos.halfmove_clock() as usize).min(earlier.len());
    let recent = &earlier[earlier.len() - window..];
    1 + recent
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .filter(|&&hash| hash == pos.hash())
        .count()
}

fn claim_for(pos: &Position, earlier: &[u64]) -> Option<DrawClaim> {
    if repetitions_of(pos, earlier) >= 3 {
        Some(DrawClaim::ThreefoldRepetition)
    } else if pos.halfmove_clock() >= 100 {
        Some(DrawClaim::FiftyMoves)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    proptest! {
        /// The summary never hides a repetition: counts with it equal a full scan, in random
        /// games of rooks and kings (which repeat often), passes and captures included.
        #[test]
        fn repetitions_counted_with_the_summary_equal_a_full_scan(
            choices in proptest::collection::vec(any::<u16>(), 1..300),
        ) {
            let start = Position::from_fen("r3k3/8/8/8/8/8/8/R3K2R w KQq - 0 1").unwrap();
            let mut history = History::new(start);
            for choice in choices {
                let moves = history.position().legal_moves();
                if moves.is_empty() {
                    break;
                }
                match choice % 11 {
                    0 if !history.position().is_check() => history.pass_unchecked(),
                    _ => history.play_unchecked(moves[usize::from(choice) % moves.len()]),
                }
                let scanned = repetitions_of(history.position(), &history.earlier);
                prop_assert_eq!(history.repetitions(), scanned);
            }
        }
    }

    /// Random king walks repeat positions often: the counts compared are real repeats.
    #[test]
    fn random_king_walks_repeat_positions_and_are_counted() {
        let start = Position::from_fen("7k/8/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let mut history = History::new(start);
        let mut rng = StdRng::seed_from_u64(7);
        let mut most = 1;
        for _ in 0..2000 {
            let moves = history.position().legal_moves();
            if moves.is_empty() || history.position().halfmove_clock() >= 150 {
                break;
            }
            history.play_unchecked(moves[rng.random_range(0..moves.len())]);
            let counted = history.repetitions();
            assert_eq!(
                counted,
                repetitions_of(history.position(), &history.earlier)
            );
            most = most.max(counted);
        }
        assert!(most >= 3, "a repeat was found ({most})");
    }
}
