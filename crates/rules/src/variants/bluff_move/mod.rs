//! Bluff-move Chess (`bluff-move`): every real piece may have one bluff, a decoy of its type that
//! the opponent cannot tell from a real piece. A turn moves a real piece, moves a bluff, or makes
//! a bluff move (a new bluff leaves the real piece's square; the real piece stays). Legal input is
//! judged on the mover's own pieces only; what hidden enemy pieces do to a move is resolved square
//! by square along its path. Capturing the enemy real king wins.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::seat::Seat;
//! use bluffchess_rules::variants::bluff_move::BluffMove;
//! let mut game = BluffMove::new(&Options::new())?;
//! // White sends a bluff of the e2 pawn to e4: Black sees a pawn's image go e2-e4.
//! for text in ["bluff e2e4", "d7d5", "e4d5"] {
//!     game.apply_text(text)?;
//! }
//! // The bluff took on d5, met a real pawn there, and died, which shows the real pawn on e2.
//! let black = game.view(Seat::Black);
//! assert!(black.events.last().unwrap().text.starts_with("the bluff died on d5"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod board;
mod input;
mod kept;
mod lookahead;
mod record;
mod resample;
mod resolve;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use actions::Action;
pub use belief::BluffMoveBelief;
pub use state::{BluffMove, QUIET_MOVES_DRAW};
pub use view::{BluffMoveSummary, BluffView};

use crate::action_info::ActionInfo;
use crate::error::ActionError;
use crate::game::Game;
use crate::options::{OptionError, Options};
use crate::seat::{Actor, Seat};
use crate::spec::{ActionForm, VariantSpec};
use board::Board;
use input::Input;
use rand::RngCore;

impl Game for BluffMove {
    fn repetitions(&self) -> usize {
        self.repetition_count()
    }

    type Action = Action;
    type Summary = BluffMoveSummary;
    type Belief = BluffMoveBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "bluff-move",
        name: "Bluff-move Chess",
        summary: "A real piece may send out a bluffed copy; the enemy sees one image per piece.",
        rules: include_str!("../../../../../docs/rules/bluff-move.md"),
        options: &[],
        actions: &[
            ActionForm::new("e4e5", "move a real piece or one of your bluffs, in UCI from its square (seen as the image's move, e2e4, or pass when no image changed)"),
            ActionForm::new("e7e8q", "a promotion: add the new piece's letter, q, r, b or n"),
            ActionForm::new("e1g1", "castling, as the king's move (open: the opponent sees it)"),
            ActionForm::new("bluff e2e4", "a bluff move: a bluffed copy of the piece on e2 goes to e4 (bluff e7e8n promotes)"),
        ],
        hidden: true,
        chance: false,
        premove: true,
    };

    fn new(options: &Options) -> Result<BluffMove, OptionError> {
        Self::SPEC.read_options(options)?;
        Ok(BluffMove::from_board(Board::start()))
    }

    fn options(&self) -> Options {
        Options::new()
    }

    fn to_act(&self) -> Option<Actor> {
        match self.log.outcome {
            Some(_) => None,
            None => Some(self.board.turn.into()),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.log.outcome {
            Some(_) => Vec::new(),
            None => self.board.legal_actions(),
        }
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.log.outcome.is_none() {
            Input::of(&self.board).list_into(actions);
        }
    }

    fn random_legal_action(&self, rng: &mut dyn RngCore, _: &mut Vec<Action>) -> Option<Action> {
        if self.log.outcome.is_some() {
            return None;
        }
        // Counted, not listed: the listing's draw, without the list.
        self.kept.draw(&self.board, rng)
    }

    fn action_info(action: &Action) -> ActionInfo {
        action.info()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        actions::parse(text)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.log.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        let targets = |from| self.kept.targets(&self.board, from);
        if let Some(reason) = self.board.refusal_with(*action, targets) {
            return Err(ActionError::illegal(action, reason));
        }
        self.apply_legal(action);
        Ok(())
    }

    fn apply_legal(&mut self, action: &Action) {
        self.replay::<true>(*action);
    }

    crate::log::log_accessors!();

    fn summary(&self, seat: Seat, revealed: bool) -> BluffMoveSummary {
        BluffMoveSummary::of(self, seat, revealed)
    }
}
