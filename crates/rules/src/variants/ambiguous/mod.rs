//! Ambiguous Chess (`ambiguous`): the player to move names a destination square; the opponent
//! picks which of the player's pieces goes there (and, for a promotion, what it becomes). No check:
//! capturing the king wins. Perfect information.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::variants::ambiguous::Ambiguous;
//! let mut game = Ambiguous::new(&Options::new())?;
//! game.apply_text("e4")?; // White names e4: only the e-pawn can go there, so it does.
//! game.apply_text("c6")?; // Black names c6: the b8 knight or the c-pawn...
//! game.apply_text("c7c6")?; // ...and White picks the pawn.
//! assert_eq!(game.history().len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod candidates;
mod mate;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use actions::Action;
pub use belief::AmbiguousBelief;
pub use candidates::candidates;
pub use state::{Ambiguous, Rules};
pub use view::AmbiguousSummary;

use crate::action_info::ActionInfo;
use crate::board::Color;
use crate::chess::Position;
use crate::error::ActionError;
use crate::game::{draw_index, Game};
use crate::log::Log;
use crate::options::{OptionError, Options};
use crate::outcome::EndReason;
use crate::seat::{Actor, Seat};
use crate::spec::{ActionForm, OptionKind, OptionSpec, VariantSpec};
use rand::RngCore;
use state::Phase;

impl Game for Ambiguous {
    /// Positions stand only where a square is to be named.
    fn repetitions(&self) -> usize {
        match self.phase {
            Phase::Name => self.repetition_count(),
            Phase::Pick(_) => 1,
        }
    }

    type Action = Action;
    type Summary = AmbiguousSummary;
    type Belief = AmbiguousBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "ambiguous",
        name: "Ambiguous Chess",
        summary: "You name the square; your opponent picks which of your pieces goes there.",
        rules: include_str!("../../../../../docs/rules/ambiguous.md"),
        options: &[
            OptionSpec::flag(
                "checkmate",
                "Note 1's checkmate: a side that cannot keep its king safe, whatever square it names, loses at once.",
            ),
            OptionSpec {
                name: "stalemate",
                kind: OptionKind::Choice,
                values: &["loss", "draw"],
                default: "loss",
                description: "With checkmate=true: whether the same trap out of check loses (loss) or is a draw (draw).",
            },
        ],
        actions: &[
            ActionForm::new("e4", "name a square one of your pieces can reach: your opponent picks the move"),
            ActionForm::new("d2e4", "pick which of the opponent's pieces goes to the named square, in UCI"),
            ActionForm::new("e7e8n", "pick a promotion, with the new piece's letter (q, r, b, n)"),
        ],
        hidden: false,
        chance: false,
        premove: false,
    };

    fn new(options: &Options) -> Result<Ambiguous, OptionError> {
        let position = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")
            .expect("the start position without castling is valid");
        let mut game = Ambiguous {
            rules: Rules::from_values(&Self::SPEC.read_options(options)?)?,
            position,
            passed: None,
            last_move: None,
            phase: Phase::Name,
            repetitions: crate::repetition::PositionKeys::default(),
            destinations: Default::default(),
            log: Log::new(),
        };
        game.repetitions.push(game.key());
        game.refresh_destinations();
        Ok(game)
    }

    fn options(&self) -> Options {
        self.rules.options()
    }

    fn to_act(&self) -> Option<Actor> {
        if self.log.outcome.is_some() {
            return None;
        }
        Some(match self.phase {
            Phase::Name => self.position.turn().into(),
            Phase::Pick(_) => (!self.position.turn()).into(),
        })
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.log.outcome.is_some() {
            return;
        }
        match &self.phase {
            Phase::Name => actions.extend(self.destinations().into_iter().map(Action::Name)),
            Phase::Pick(moves) => actions.extend(moves.iter().copied().map(Action::Pick)),
        }
    }

    fn random_legal_action(&self, rng: &mut dyn RngCore, _: &mut Vec<Action>) -> Option<Action> {
        // Counted, not listed: the listing's draw (same count, same index), without the list.
        if self.log.outcome.is_some() {
            return None;
        }
        match &self.phase {
            Phase::Name => {
                let destinations = self.destinations();
                let i = draw_index(rng, destinations.count() as usize)?;
                destinations.into_iter().nth(i).map(Action::Name)
            }
            Phase::Pick(moves) => draw_index(rng, moves.len()).map(|i| Action::Pick(moves[i])),
        }
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
        match (&self.phase, *action) {
            (Phase::Name, Action::Name(square)) => self.name(square)?,
            (Phase::Pick(_), Action::Pick(mv)) => self.pick(mv)?,
            (Phase::Name, Action::Pick(_)) => {
                return Err(ActionError::illegal(
                    action,
                    "name a destination square (such as e4); your opponent picks the move",
                ))
            }
            (Phase::Pick(_), Action::Name(_)) => {
                return Err(ActionError::illegal(
                    action,
                    "a square has been named: pick the move to it (such as d2e4)",
                ))
            }
        }
        self.log.push_action(*action);
        Ok(())
    }

    crate::log::log_accessors!();

    fn summary(&self, _seat: Seat, _revealed: bool) -> AmbiguousSummary {
        AmbiguousSummary::of(self)
    }

    fn claimable_draw(&self, _color: Color) -> Option<EndReason> {
        if !matches!(self.phase, Phase::Name) {
            None
        } else if self.repetition_count() >= 3 {
            Some(EndReason::ThreefoldRepetition)
        } else if self.position.halfmove_clock() >= 100 {
            Some(EndReason::FiftyMoveRule)
        } else {
            None
        }
    }
}
