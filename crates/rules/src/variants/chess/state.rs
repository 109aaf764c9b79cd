//! A game of orthodox chess: the positions so far and the event log, and how a move is judged.

use crate::chess::{Ending, History, Move, MoveGroups, Position};
use crate::log::Log;
use crate::outcome::Outcome;

/// A game of orthodox chess: the positions so far and the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    pub(super) history: History,
    pub(super) log: Log<Move>,
    /// The legal moves now (none once the game is over), generated once per move: listing,
    /// checking an action and deciding whether the game is over all read them. Kept piece by
    /// piece: a playout draws one without listing them.
    pub(super) legal: MoveGroups,
    pub(super) ending: Option<Ending>,
}

impl Chess {
    /// A game from a given position (for tests and analysis).
    pub fn from_position(position: Position) -> Chess {
        let mut game = Chess {
            history: History::new(position),
            log: Log::new(),
            legal: MoveGroups::new(),
            ending: None,
        };
        game.refresh();
        game
    }

    /// Generates the legal moves of the position reached and judges whether the game is over.
    pub(super) fn refresh(&mut self) {
        self.legal.generate(self.history.position());
        self.ending = self.history.ending_given(!self.legal.is_empty());
        if self.ending.is_some() {
            self.legal.clear();
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.log.actions
    }
}

pub(super) fn outcome_of(ending: Ending) -> Outcome {
    match ending.winner() {
        Some(winner) => Outcome::win(winner, ending.end_reason()),
        None => Outcome::draw(ending.end_reason()),
    }
}
