//! BS Chess (`bs`): only the owner knows what each piece is. Any piece may make any move some
//! chess piece could make; after each move the opponent calls BS or accepts. A call reveals the
//! moved piece: a lawful move stands and costs the caller a piece of its choice, an unlawful one
//! costs the mover the piece. Capture or remove the enemy king to win.
//!
//! ```
//! use bluffchess_rules::game::Game;
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::variants::bs::Bs;
//! let mut game = Bs::new(&Options::new())?;
//! // Black accepts 1. e4, then White calls 1... d5: a pawn's lawful move, so White pays a piece.
//! for text in ["setup standard", "setup standard", "e2e4", "accept", "d7d5", "call"] {
//!     game.apply_text(text)?;
//! }
//! assert!(game.legal_actions().iter().all(|a| a.to_string().starts_with("remove ")));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod identity;
mod known;
mod lineage;
mod resample;
mod setup;
mod state;
#[cfg(test)]
mod tests;
mod view;

pub use crate::board::identity::Identity;
pub use actions::Action;
pub use belief::BsBelief;
pub use setup::{Setup, SetupError, STANDARD};
pub use state::{Bs, Rules};
pub use view::{BsSummary, PendingView, PieceView};

use crate::action_info::ActionInfo;
use crate::board::{Bitboard, Color};
use crate::error::ActionError;
use crate::game::{draw_index, Game};
use crate::log::Log;
use crate::options::{OptionError, Options};
use crate::seat::{Actor, Seat};
use crate::spec::{ActionForm, OptionSpec, VariantSpec};
use identity::Placement;
use lineage::Lineage;
use rand::RngCore;
use state::{expected, Phase};

impl Game for Bs {
    /// Positions stand only where a move is due.
    fn repetitions(&self) -> usize {
        match self.phase {
            Phase::Move => self.repetition_count(),
            _ => 1,
        }
    }

    type Action = Action;
    type Summary = BsSummary;
    type Belief = BsBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "bs",
        name: "BS Chess",
        summary: "Hidden identities and a free setup; any piece may make any move; call BS to test it.",
        rules: include_str!("../../../../../docs/rules/bs.md"),
        options: &[OptionSpec::flag(
            "spy",
            "A player may secretly replace one pawn with a spy, which may also capture the enemy king or queen with any chess move.",
        )],
        actions: &[
            ActionForm::new("setup RNBQKBNR/PPPPPPPP", "your hidden setup: back rank then second rank, files a-h, S for the spy (seen as setup)"),
            ActionForm::new("setup standard", "the standard array as your setup"),
            ActionForm::new("setup random", "a random arrangement as your setup"),
            ActionForm::new("e2e4", "a move any chess piece could make from that square, in UCI"),
            ActionForm::new("e7e8q", "declare a promotion to a type among your lost pieces (seen as e7e8=?)"),
            ActionForm::new("call", "answer the opponent's move: call BS, and the moved piece is shown"),
            ActionForm::new("accept", "answer the opponent's move: let it stand unseen"),
            ActionForm::new("remove g8", "after your call found a lawful move: remove one of your own pieces"),
        ],
        hidden: true,
        chance: true,
        premove: true,
    };

    fn new(options: &Options) -> Result<Bs, OptionError> {
        Ok(Bs {
            rules: Rules::from_values(&Self::SPEC.read_options(options)?),
            board: Placement([Bitboard::EMPTY; 2]),
            identity: [None; 64],
            known: known::KnownSquares::default(),
            pools: [Vec::new(), Vec::new()],
            lineage: Lineage::default(),
            phase: Phase::Setup,
            turn: Color::White,
            quiet_moves: 0,
            repetitions: crate::repetition::PositionKeys::default(),
            log: Log::new(),
        })
    }

    fn options(&self) -> Options {
        Options::from([("spy".to_string(), self.rules.spy.to_string())])
    }

    fn to_act(&self) -> Option<Actor> {
        match self.log.outcome {
            Some(_) => None,
            None => Some(self.actor().into()),
        }
    }

    fn setup_due(&self) -> bool {
        self.log.outcome.is_none() && self.phase == Phase::Setup
    }

    fn setup_shortcuts(&self) -> Vec<&'static str> {
        vec!["setup standard", "setup random"]
    }

    fn random_setup(&self, rng: &mut dyn RngCore) -> Option<Action> {
        self.setup_due()
            .then(|| Action::Setup(Setup::random(self.rules.spy, rng)))
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
        match self.phase {
            Phase::Setup => {}
            Phase::Move => self.legal_moves(actions),
            Phase::Answer(_) => actions.extend([Action::Call, Action::Accept]),
            Phase::Remove => {
                actions.extend(self.board.of(!self.turn).into_iter().map(Action::Remove))
            }
        }
    }

    fn random_legal_action(
        &self,
        rng: &mut dyn RngCore,
        listed: &mut Vec<Action>,
    ) -> Option<Action> {
        // Counted, not listed: the listing's draw (same count, same index), without the list.
        if self.log.outcome.is_some() {
            return None;
        }
        match self.phase {
            Phase::Setup => None,
            Phase::Move => self.draw_move(rng, listed),
            Phase::Answer(_) => draw_index(rng, 2).map(|i| [Action::Call, Action::Accept][i]),
            Phase::Remove => {
                let theirs = self.board.of(!self.turn);
                let i = draw_index(rng, theirs.count() as usize)?;
                theirs.into_iter().nth(i).map(Action::Remove)
            }
        }
    }

    fn action_info(action: &Action) -> ActionInfo {
        action.info()
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        actions::parse(text, self.rules.spy)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.log.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        match (self.phase, *action) {
            (Phase::Setup, Action::Setup(setup)) => self.set_up(setup),
            (Phase::Move, Action::Move { .. }) => self.declare_move(*action)?,
            (Phase::Answer(pending), Action::Accept) => self.accept(pending),
            (Phase::Answer(pending), Action::Call) => self.call(pending),
            (Phase::Remove, Action::Remove(sq)) => self.remove(sq)?,
            (phase, _) => return Err(ActionError::illegal(action, expected(phase))),
        }
        self.log.push_action(*action);
        Ok(())
    }

    fn apply_legal(&mut self, action: &Action) {
        match (self.phase, *action) {
            (Phase::Move, Action::Move { .. }) => self.declare_legal_move(*action),
            _ => return self.apply(action).expect("a legal action is accepted"),
        }
        self.log.push_action(*action);
    }

    crate::log::log_accessors!();

    fn summary(&self, seat: Seat, revealed: bool) -> BsSummary {
        BsSummary::of(self, seat, revealed)
    }
}
