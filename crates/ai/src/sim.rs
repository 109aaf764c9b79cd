//! What every search does to a world: let Chance and setups act, score it.

use crate::variant::Variant;
use bluffchess_rules::error::BeliefError;
use bluffchess_rules::game::Game;
use bluffchess_rules::playout::roll;
use bluffchess_rules::seat::Actor;
use bluffchess_rules::Color;
use rand::RngCore;

/// Why a search found no action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// No world can be drawn from the view.
    #[error(transparent)]
    Belief(#[from] BeliefError),
    /// The view is a spectator's.
    #[error("a spectator does not act")]
    Spectator,
    /// None of the legal actions given reads as an action of the variant.
    #[error("none of the legal actions can be read")]
    Unreadable,
}

impl SearchError {
    /// A stable machine id for the kind of failure.
    pub fn id(&self) -> &'static str {
        match self {
            SearchError::Belief(e) => e.id(),
            SearchError::Spectator => "spectator",
            SearchError::Unreadable => "unreadable-actions",
        }
    }
}

/// Pawns of evaluation that make a reward of about 0.73 (a logistic scale).
const SCALE: f64 = 2.0;

/// The margin kept between the rewards of unfinished games and those of won or lost ones: a
/// search must prefer a mate to any advantage, however large.
pub const EDGE: f64 = 0.01;

/// The reward of a world for `color` in [0, 1]: 1, 0 or 1/2 when the game is over, else the
/// evaluation squashed by a logistic curve into [`EDGE`, 1 - `EDGE`].
pub fn reward<G: Variant>(world: &G, color: Color) -> f64 {
    match world.outcome() {
        Some(outcome) => match outcome.winner {
            Some(winner) if winner == color => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        },
        None => EDGE + (1.0 - 2.0 * EDGE) / (1.0 + (-world.evaluate(color) / SCALE).exp()),
    }
}

/// Lets Chance act and plays random setups until a player acts or the game ends; returns the
/// player to act.
pub fn settle<G: Game>(world: &mut G, rng: &mut dyn RngCore) -> Option<Color> {
    loop {
        match world.to_act()? {
            Actor::Chance => {
                let outcome = roll(world, rng)?;
                world.apply(&outcome).expect("Chance's outcomes are legal");
            }
            _ if world.setup_due() => {
                let setup = world.random_setup(rng)?;
                world.apply(&setup).expect("a random setup is legal");
            }
            actor => return actor.color(),
        }
    }
}

/// The decision's actions read in `world`'s variant (each was listed by the arbiter).
pub fn parse_all<G: Game>(world: &G, legal: &[String]) -> Vec<G::Action> {
    legal
        .iter()
        .filter_map(|text| world.parse_action(text).ok())
        .collect()
}
