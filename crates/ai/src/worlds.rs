//! The worlds a seat's view allows: whole games drawn consistent with it.
//!
//! The worlds are the samples of the rules crate's [`Belief`] for the variant, built from the
//! seat's view alone.

use bluffchess_rules::error::BeliefError;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::view::View;
use rand::RngCore;

/// Whole games consistent with one seat's view.
pub trait Worlds: Sized + Send + Sync {
    /// The variant.
    type Game: Game;

    /// The worlds of this view, or why there are none.
    fn from_view(view: &View<<Self::Game as Game>::Summary>) -> Result<Self, BeliefError>;

    /// One world drawn consistent with the view.
    fn sample(&self, rng: &mut dyn RngCore) -> Self::Game;

    /// One world drawn, ready for a search: its log keeps information keys only.
    fn sample_quiet(&self, rng: &mut dyn RngCore) -> Self::Game {
        let mut world = self.sample(rng);
        world.set_recording(bluffchess_rules::Recording::Keys);
        world
    }
}

/// The samples of a variant's belief.
#[derive(Clone, Debug)]
pub struct FromBelief<B>(B);

impl<B: Belief> Worlds for FromBelief<B> {
    type Game = B::Game;

    fn from_view(view: &View<<B::Game as Game>::Summary>) -> Result<Self, BeliefError> {
        B::from_view(view).map(FromBelief)
    }

    fn sample(&self, rng: &mut dyn RngCore) -> B::Game {
        self.0.sample(rng)
    }
}
