//! Reality Check (`reality-check`): chess on a 39-square board with ten two-faced pieces a side,
//! placed in a hidden arrangement. A piece moves as its face up; after a non-capturing move the
//! mover flips a piece, showing its other face to both seats. A side wins by removing the
//! opponent's four true pieces (those with the same face on both sides), which only a Reality
//! Check (`rc`) between two true pieces does.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::variants::reality_check::RealityCheck;
//! let mut game = RealityCheck::new(&Options::new())?;
//! game.apply_text("setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN")?;
//! game.apply_text("setup d9=RR c8=NB e8=NR d8=BB d7=BR b7=PP c7=PN e7=PB f7=PR hand=NN")?;
//! // A quiet pawn move, then a flip: c3's pawn shows its knight face to both seats.
//! for text in ["c3c4", "flip c4"] { game.apply_text(text)?; }
//! assert!(game.events().last().unwrap().text.contains("it is PN"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The rules are here and in setup.rs, pieces.rs and moves.rs; what a seat sees in view.rs and
//! knowledge.rs; what a seat can rebuild from its view alone in belief.rs (reading the view's
//! public story in story.rs, and drawing the hidden arrangements with the sampler in resample.rs
//! and assign.rs). With the log recording nothing or only keys, applying an action formats no
//! text: every event's text is passed as a `Display` value, built only when events are kept.

mod actions;
mod assign;
mod belief;
mod draw;
mod knowledge;
mod moves;
mod pieces;
mod resample;
mod rules;
mod setup;
mod state;
mod story;
#[cfg(test)]
mod tests;
mod view;

pub use actions::{Action, Setup};
pub use belief::RealityCheckBelief;
pub use pieces::{Face, Kind, Piece};
pub use rules::Rules;
pub use state::RealityCheck;
pub use view::{PieceView, RealityCheckSummary, SideView};

use crate::action_info::ActionInfo;
use crate::error::ActionError;
use crate::game::Game;
use crate::options::{OptionError, Options};
use crate::seat::{Actor, Seat};
use crate::spec::{ActionForm, VariantSpec};
use rand::RngCore;
use state::Phase;

impl Game for RealityCheck {
    /// Counted by the positions' hashes alone (the rule compares whole positions, when enough
    /// hashes match); positions stand only where a turn begins.
    fn repetitions(&self) -> usize {
        if !matches!(self.phase, Phase::Turn) {
            return 1;
        }
        self.position_hashes.times_last_stood().max(1)
    }

    type Action = Action;
    type Summary = RealityCheckSummary;
    type Belief = RealityCheckBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "reality-check",
        name: "Reality Check",
        summary: "A 39-square board of two-faced pieces: flips, drops, and Reality Checks of hidden faces.",
        rules: include_str!("../../../../../docs/rules/reality-check.md"),
        options: rules::OPTIONS,
        actions: &[
            ActionForm::new("setup d1=RR c2=NB e2=NR d2=BB d3=BR b3=PP c3=PN e3=PB f3=PR hand=NN", "your hidden setup, face up first (seen as setup)"),
            ActionForm::new("setup d1=RR e1=NB f1=NR g1=BB e2=BR f2=PP g2=PN f3=PB g3=PR hand=NN", "with board=advanced: nine of your ten corner squares, any faces up (Black's corner is a4-d7)"),
            ActionForm::new("setup random", "a random setup"),
            ActionForm::new("b3b4", "a move or capture in UCI"),
            ActionForm::new("flip d2", "after your non-capturing move: flip the piece on d2"),
            ActionForm::new("rc c3d4", "a capture declared as a Reality Check: both pieces are flipped"),
            ActionForm::new("drop NB@c2", "drop a piece from your hand, face up first (seen as drop N@c2)"),
            ActionForm::new("memory c7 e8", "with memory: flip two enemy pieces to match their hidden faces"),
            ActionForm::new("remove d3", "after a failed memory: give up the true piece on d3 (or remove RR from hand)"),
            ActionForm::new("die 3", "with dice: Chance's roll, drawn from the game's seed (typed only in a scripted game)"),
        ],
        hidden: true,
        chance: true,
        premove: false,
    };

    fn new(options: &Options) -> Result<RealityCheck, OptionError> {
        Ok(RealityCheck::blank(Rules::from_values(
            &Self::SPEC.read_options(options)?,
        )))
    }

    fn options(&self) -> Options {
        self.rules.options()
    }

    fn to_act(&self) -> Option<Actor> {
        match (&self.log.outcome, self.phase) {
            (Some(_), _) => None,
            (None, Phase::Roll) => Some(Actor::Chance),
            (None, _) => Some(self.turn.into()),
        }
    }

    fn setup_due(&self) -> bool {
        self.log.outcome.is_none() && self.phase == Phase::Setup
    }

    fn setup_shortcuts(&self) -> Vec<&'static str> {
        if self.setup_due() {
            vec!["setup random"]
        } else {
            Vec::new()
        }
    }

    fn random_setup(&self, rng: &mut dyn RngCore) -> Option<Action> {
        self.setup_due()
            .then(|| Action::Setup(self.random_setup_for(self.turn, rng)))
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    fn random_legal_action(
        &self,
        rng: &mut dyn RngCore,
        listed: &mut Vec<Action>,
    ) -> Option<Action> {
        match self.phase {
            // A turn's actions are counted, not listed (most of a playout's time).
            Phase::Turn if self.log.outcome.is_none() => self.draw_turn_action(rng),
            // A flip's candidates are a set: the listing is its squares in order.
            Phase::Flip | Phase::DieFlip(_) if self.log.outcome.is_none() => {
                let mut candidates = self.flip_candidates();
                let i = crate::game::draw_index(rng, candidates.count() as usize)?;
                candidates.nth(i).map(Action::Flip)
            }
            _ => crate::playout::draw_listed(self, rng, listed),
        }
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.log.outcome.is_some() {
            return;
        }
        match self.phase {
            Phase::Setup => {}
            Phase::Turn => self.push_turn_actions(actions),
            Phase::Flip | Phase::DieFlip(_) => {
                actions.extend(self.flip_candidates().map(Action::Flip))
            }
            Phase::Roll => actions.extend((1..=6).map(Action::Die)),
            Phase::Remove => self.push_removals(actions),
        }
    }

    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        if self.log.outcome.is_none() && self.phase == Phase::Roll {
            (1..=6).map(|n| (Action::Die(n), 1.0 / 6.0)).collect()
        } else {
            Vec::new()
        }
    }

    fn action_info(action: &Action) -> ActionInfo {
        action.info()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        actions::parse(text, self.rules.board)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        self.to_act().ok_or(ActionError::GameOver)?;
        self.validate(action)?;
        self.apply_legal(action);
        Ok(())
    }

    fn apply_legal(&mut self, action: &Action) {
        self.acting = self.to_act().expect("a legal action has an actor");
        self.perform(*action);
        self.log.push_action(*action);
    }

    crate::log::log_accessors!();

    fn summary(&self, seat: Seat, revealed: bool) -> RealityCheckSummary {
        RealityCheckSummary::of(self, seat, revealed)
    }
}
