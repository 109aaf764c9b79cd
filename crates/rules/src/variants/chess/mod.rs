//! Orthodox chess (`chess`) behind the game API: the reference the variants are tested against.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::variants::chess::Chess;
//! let mut game = Chess::new(&Options::new())?;
//! for text in ["f2f3", "e7e5", "g2g4", "d8h4"] { game.apply_text(text)?; }
//! assert_eq!(game.outcome().unwrap().to_string(), "black wins by checkmate");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod state;
#[cfg(test)]
mod tests;
mod view;

/// Refuses an orthodox move that is not legal, saying why in the mover's terms (shared by the
/// variants played on the orthodox position).
pub(crate) use actions::check_legal as explain_illegal;
/// Reads a move in UCI or SAN (shared by the variants whose moves are orthodox).
pub(crate) use actions::read_move;

pub use belief::ChessBelief;
pub use state::Chess;
pub use view::ChessSummary;

use crate::action_info::ActionInfo;
use crate::board::Color;
use crate::chess::{Move, Position};
use crate::error::ActionError;
use crate::event::EventKind;
use crate::fact::Fact;
use crate::game::Game;
use crate::options::{OptionError, Options};
use crate::outcome::{EndReason, Outcome};
use crate::seat::{Actor, Audience, Seat};
use crate::spec::{VariantSpec, ORTHODOX_MOVES};
use rand::RngCore;
use state::outcome_of;

impl Game for Chess {
    fn repetitions(&self) -> usize {
        self.history.repetitions()
    }

    type Action = Move;
    type Summary = ChessSummary;
    type Belief = ChessBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "chess",
        name: "Orthodox Chess",
        summary: "The FIDE rules: the reference every variant is built and tested on.",
        rules: include_str!("../../../../../docs/rules/chess.md"),
        options: &[],
        actions: &ORTHODOX_MOVES,
        hidden: false,
        chance: false,
        premove: true,
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
        crate::game::draw_index(rng, self.legal.len()).and_then(|i| self.legal.get(i))
    }

    fn action_info(mv: &Move) -> ActionInfo {
        ActionInfo::of_move(*mv)
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
        self.apply_legal(mv);
        Ok(())
    }

    fn apply_legal(&mut self, mv: &Move) {
        let actor = Actor::from(self.position().turn());
        let fact = Fact::of_move(self.position(), *mv);
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
}
