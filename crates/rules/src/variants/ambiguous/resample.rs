//! Ambiguous Chess has perfect information: the only state consistent with a view is the real one.

use super::Ambiguous;
use crate::game::Seat;
use rand::RngCore;

pub(super) fn resample(game: &Ambiguous, _seat: Seat, _rng: &mut dyn RngCore) -> Ambiguous {
    game.clone()
}
