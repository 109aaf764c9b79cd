//! Orthodox chess (`chess`) behind the game API: the reference the variants are tested against.
//!
//! ```
//! use bluffchess_rules::{Chess, Game, Options};
//! let mut game = Chess::new(&Options::new())?;
//! for text in ["f2f3", "e7e5", "g2g4", "d8h4"] { game.apply_text(text)?; }
//! assert_eq!(game.outcome().unwrap().to_string(), "black wins by checkmate");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
#[cfg(test)]
mod tests;
mod view;

pub use belief::ChessBelief;
pub use view::ChessSummary;

/// Refuses an orthodox move that is not legal, saying why in the mover's terms (shared by the
/// variants played on the orthodox position).
pub(crate) use actions::check_legal as explain_illegal;
/// Reads a move in UCI or SAN (shared by the variants whose moves are orthodox).
pub(crate) use actions::read_move;

use crate::board::Color;
use crate::chess::{Ending, History, Move, MoveGroups, Position};
use crate::game::{
    ActionError, Actor, Audience, EndReason, EventKind, Game, OptionError, Options, Outcome, Seat,
};
use crate::log::Log;
use crate::registry::{VariantSpec, ORTHODOX_MOVES};
use rand::RngCore;

/// A game of orthodox chess: the positions so far and the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chess {
    history: History,
    log: Log<Move>,
    /// The legal moves now (none once the game is over), generated once per move: listing,
    /// checking an action and deciding whether the game is over all read them. Kept piece by
    /// piece: a playout draws one without listing them.
    legal: MoveGroups,
    ending: Option<Ending>,
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
    fn refresh(&mut self) {
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

impl Game for Chess {
    fn repetitions(&self) -> usize {
        self.history.repetitions()
    }

    type Action = Move;
    type Summary = ChessSummary;

    const SPEC: VariantSpec = VariantSpec {
        id: "chess",
        name: "Orthodox Chess",
        summary: "The FIDE rules: the reference every variant is built and tested on.",
        rules: include_str!("../../../../../docs/rules/chess.md"),
        options: &[],
        actions: &ORTHODOX_MOVES,
    };

    fn new(options: &Options) -> Result<Chess, OptionError> {
        Self::SPEC.read_options(options)?;
        Ok(Chess::from_position(Position::default()))
    }

    fn options(&self) -> Options {
        Options::new()
    }

    fn to_act(&self) -> Option<Actor> {
        match self.ending {
            Some(_) => None,
            None => Some(self.position().turn().into()),
        }
    }

    fn legal_actions(&self) -> Vec<Move> {
        self.legal.iter().collect()
    }

    fn legal_actions_into(&self, actions: &mut Vec<Move>) {
        actions.clear();
        actions.extend(self.legal.iter());
    }

    fn random_legal_action(&self, rng: &mut dyn RngCore, _: &mut Vec<Move>) -> Option<Move> {
        // Counted, not listed: the listing's draw, without the list.
        crate::playout::draw_index(rng, self.legal.len()).and_then(|i| self.legal.get(i))
    }

    fn parse_action(&self, text: &str) -> Result<Move, ActionError> {
        actions::read_move(self.position(), &self.legal_actions(), text)
    }

    fn apply(&mut self, mv: &Move) -> Result<(), ActionError> {
        if self.ending.is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.legal.contains(*mv) {
            return Err(actions::check_legal(self.position(), *mv)
                .expect_err("a move not listed is not legal"));
        }
        let actor = Actor::from(self.position().turn());
        let fact = self.position().move_fact(*mv);
        let san = self
            .log
            .keeps_events()
            .then(|| crate::chess::san::write(self.position(), *mv));
        self.history.play_unchecked(*mv);
        self.refresh();
        self.log
            .push_fact(actor, Audience::All, EventKind::Action, mv, fact);
        if let Some(san) = san {
            self.log.note(san);
        }
        if let Some(outcome) = self.outcome() {
            self.log.end(outcome, actor);
        }
        self.log.push_action(*mv);
        Ok(())
    }

    crate::log::log_accessors!();

    fn summary(&self, _seat: Seat, _revealed: bool) -> ChessSummary {
        ChessSummary::of(self)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.ending.map(outcome_of)
    }

    fn claimable_draw(&self, _color: Color) -> Option<EndReason> {
        self.history
            .claimable_draw()
            .map(|claim| claim.end_reason())
    }

    fn can_win(&self, color: Color) -> bool {
        self.history.position().can_mate(color)
    }

    fn resample(&self, seat: Seat, rng: &mut dyn RngCore) -> Chess {
        crate::belief::resample_via_view::<ChessBelief>(self, seat, rng)
    }
}

fn outcome_of(ending: Ending) -> Outcome {
    match ending.winner() {
        Some(winner) => Outcome::win(winner, ending.end_reason()),
        None => Outcome::draw(ending.end_reason()),
    }
}
