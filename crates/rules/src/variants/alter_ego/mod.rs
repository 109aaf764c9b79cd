//! Alter Ego Bluff Chess (`alter-ego`): orthodox chess in which the moved piece (the turn piece)
//! carries its owner's alter ego. After a death move (one the opponent can answer by capturing the
//! turn piece) the mover secretly decides to `stay` or `transfer` the ego to another own piece;
//! capturing the piece that holds the enemy ego wins.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::seat::Seat;
//! use bluffchess_rules::variants::alter_ego::AlterEgo;
//! let mut game = AlterEgo::new(&Options::new())?;
//! // d7d5 is a death move (e4 can take d5): Black decides, and keeps its ego in the pawn.
//! for text in ["e2e4", "d7d5", "stay", "e4d5"] { game.apply_text(text)?; }
//! assert_eq!(game.outcome().unwrap().to_string(), "white wins by capture of the alter ego");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod resample;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use actions::Action;
pub use belief::AlterEgoBelief;
pub use state::AlterEgo;
pub use view::{AlterEgoSummary, EgoView};

use crate::action_info::ActionInfo;
use crate::board::Color;
use crate::chess::{History, MoveGroups, Position};
use crate::error::ActionError;
use crate::game::{draw_index, Game};
use crate::log::Log;
use crate::options::{OptionError, Options};
use crate::outcome::EndReason;
use crate::seat::{Actor, Seat};
use crate::spec::{ActionForm, VariantSpec, ORTHODOX_MOVES};
use rand::RngCore;
use state::Phase;

impl Game for AlterEgo {
    fn repetitions(&self) -> usize {
        self.history.repetitions()
    }

    type Action = Action;
    type Summary = AlterEgoSummary;
    type Belief = AlterEgoBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "alter-ego",
        name: "Alter Ego Bluff Chess",
        summary:
            "Chess where the moved piece carries your alter ego; capture the enemy ego to win.",
        rules: include_str!("../../../../../docs/rules/alter-ego.md"),
        options: &[],
        actions: &[
            ORTHODOX_MOVES[0],
            ORTHODOX_MOVES[1],
            ORTHODOX_MOVES[2],
            ORTHODOX_MOVES[3],
            ActionForm::new("stay", "after your death move: your alter ego stays in the moved piece (hidden: seen as decision)"),
            ActionForm::new("transfer d1", "after your death move: your alter ego goes to your piece on d1 (hidden)"),
            ActionForm::new("pass", "when the piece holding your alter ego cannot move"),
        ],
        hidden: true,
        chance: false,
        premove: true,
    };

    fn new(options: &Options) -> Result<AlterEgo, OptionError> {
        Self::SPEC.read_options(options)?;
        let mut game = AlterEgo {
            history: History::new(Position::default()),
            ego: [None; 2],
            bound: [None; 2],
            phase: Phase::Move,
            sealed: [None; 2],
            death_move: false,
            moves: MoveGroups::new(),
            log: Log::new(),
        };
        game.refresh_moves();
        Ok(game)
    }

    fn options(&self) -> Options {
        Options::new()
    }

    fn to_act(&self) -> Option<Actor> {
        match self.log.outcome {
            Some(_) => None,
            None => Some(self.actor().into()),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        self.legal_actions_into(&mut actions);
        actions
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        match (self.log.outcome, self.phase) {
            (Some(_), _) => {}
            (None, Phase::Decision { turn_piece }) => {
                actions.push(Action::Stay);
                actions.extend(self.transfers(turn_piece).into_iter().map(Action::Transfer));
            }
            (None, Phase::Move) if self.moves.is_empty() => actions.push(Action::Pass),
            (None, Phase::Move) => actions.extend(self.moves.iter().map(Action::Move)),
        }
    }

    fn random_legal_action(&self, rng: &mut dyn RngCore, _: &mut Vec<Action>) -> Option<Action> {
        // Counted, not listed: the listing's draw (same count, same index), without the list.
        match (self.log.outcome, self.phase) {
            (Some(_), _) => None,
            (None, Phase::Decision { turn_piece }) => {
                let transfers = self.transfers(turn_piece);
                match draw_index(rng, 1 + transfers.count() as usize)? {
                    0 => Some(Action::Stay),
                    i => transfers.into_iter().nth(i - 1).map(Action::Transfer),
                }
            }
            (None, Phase::Move) if self.moves.is_empty() => {
                draw_index(rng, 1).map(|_| Action::Pass)
            }
            (None, Phase::Move) => draw_index(rng, self.moves.len())
                .and_then(|i| self.moves.get(i))
                .map(Action::Move),
        }
    }

    fn action_info(action: &Action) -> ActionInfo {
        action.info()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        let legal: Vec<_> = self.legal_moves().iter().collect();
        actions::parse(self.position(), &legal, text)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.log.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        match (self.phase, *action) {
            (Phase::Move, Action::Move(mv)) => self.play_move(mv)?,
            (Phase::Move, Action::Pass) => self.pass()?,
            (Phase::Move, _) => {
                return Err(ActionError::illegal(
                    action,
                    "a decision follows only your own death move; now it is time to move",
                ))
            }
            (Phase::Decision { turn_piece }, Action::Stay | Action::Transfer(_)) => {
                self.decide(*action, turn_piece)?
            }
            (Phase::Decision { .. }, _) => {
                return Err(ActionError::illegal(
                    action,
                    "after a death move the mover decides first: stay or transfer <square>",
                ))
            }
        }
        self.log.push_action(*action);
        Ok(())
    }

    fn apply_legal(&mut self, action: &Action) {
        match (self.phase, *action) {
            (Phase::Move, Action::Move(mv)) => self.play_legal_move(mv),
            _ => return self.apply(action).expect("a legal action is accepted"),
        }
        self.log.push_action(*action);
    }

    crate::log::log_accessors!();

    fn summary(&self, seat: Seat, revealed: bool) -> AlterEgoSummary {
        AlterEgoSummary::of(self, seat, revealed)
    }

    fn claimable_draw(&self, _color: Color) -> Option<EndReason> {
        self.history
            .claimable_draw()
            .map(|claim| claim.end_reason())
    }
}
