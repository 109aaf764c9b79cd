//! Why the package refused: the rules' own refusals, and the package's (an action with no index,
//! a game made without what a call needs, a batch's bad step). Python sees every one as
//! `RulesError` with this text.

use bluffchess_rules::any::ViewError;
use bluffchess_rules::arbiter::ArbiterError;
use bluffchess_rules::error::{ActionError, BeliefError};
use bluffchess_rules::options::OptionError;

/// A refusal; the game is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// The rules options.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// The rules refused an action.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The arbiter refused a command.
    #[error(transparent)]
    Arbiter(#[from] ArbiterError),
    /// A view that is not one (or of an unknown variant).
    #[error(transparent)]
    View(#[from] ViewError),
    /// A view no game could show.
    #[error(transparent)]
    Belief(#[from] BeliefError),
    /// An action text outside the variant's action space.
    #[error("action {text:?} has no index in {variant}'s action space")]
    NoIndex {
        /// The action.
        text: String,
        /// The variant id.
        variant: &'static str,
    },
    /// An action index outside the variant's action space.
    #[error("action index {index} is out of range: {variant}'s actions are 0 to {last}")]
    IndexOutOfRange {
        /// The index given.
        index: i64,
        /// The variant id.
        variant: &'static str,
        /// The last index.
        last: usize,
    },
    /// `setup random` in a variant that draws no setups.
    #[error("this variant has no random setup")]
    NoRandomSetup,
    /// A view or a string of a game made with `events=False`.
    #[error(
        "this game keeps no events (made with events=False): it has no view; its observations, \
         legal actions and keys remain"
    )]
    NoEvents,
    /// A record of a game made with `record=False` or drawn from a belief.
    #[error("this game keeps no record: it was made with record=False or drawn from a belief")]
    NoRecord,
    /// A resignation or draw offer in a game with no arbiter.
    #[error("{0}: resignations and draw offers are for recorded games (record=True)")]
    NoArbiter(&'static str),
    /// A batch's step given the wrong number of actions.
    #[error("step takes one action for each of the {games} games, not {actions}")]
    StepCount {
        /// The batch's games.
        games: usize,
        /// The actions given.
        actions: usize,
    },
    /// An action of a batch's step that is not legal in its game.
    #[error("action {index} ({text:?}) is not legal now")]
    NotLegal {
        /// Its index.
        index: i64,
        /// Its text.
        text: String,
    },
    /// A refusal in one game of a batch.
    #[error("game {game}: {refusal}")]
    InGame {
        /// The game's number in the batch.
        game: usize,
        /// Why.
        refusal: Box<Refusal>,
    },
    /// The batch's threads could not start.
    #[error("could not start the batch's {threads} threads: {reason}")]
    Threads {
        /// How many.
        threads: usize,
        /// The system's reason.
        reason: String,
    },
}

impl Refusal {
    /// The refusal, said of game `game` of a batch.
    pub fn in_game(self, game: usize) -> Refusal {
        Refusal::InGame {
            game,
            refusal: Box::new(self),
        }
    }
}

/// A result of the package.
pub type Result<T> = std::result::Result<T, Refusal>;
