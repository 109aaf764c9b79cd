//! What one seat knows in Alter Ego, rebuilt from its view: every move is public, and so is every
//! decision once the opponent has moved after it. The one unknown is the opponent's decision that
//! is still sealed (for the spectator, either side's), which is always the last action taken.
//!
//! Sampling is exact: the sealed decision is drawn uniformly among the decisions that were open
//! (stay, or a transfer to any other own piece), and every one of them gives the seat the same
//! view, so the draw is uniform over the consistent histories.

use super::resample;
use super::state::AlterEgo;
use crate::belief::{check_witness, known_actions, rules_view, start_of};
use crate::error::BeliefError;
use crate::game::{Belief, Game};
use crate::view::View;
use rand::RngCore;

/// A seat's knowledge of an Alter Ego game.
#[derive(Clone, Debug)]
pub struct AlterEgoBelief {
    view: View<<AlterEgo as Game>::Summary>,
    revealed: bool,
    /// The game with any still-sealed decision replaced by `stay`.
    witness: AlterEgo,
}

impl Belief for AlterEgoBelief {
    type Game = AlterEgo;

    fn from_view(view: &View<<AlterEgo as Game>::Summary>) -> Result<Self, BeliefError> {
        let (view, revealed) = rules_view(view);
        let mut witness: AlterEgo = start_of(&view)?;
        for (i, text) in known_actions(&view.events)?.into_iter().enumerate() {
            // A decision still sealed: any open decision will do for the witness.
            let text = text.as_deref().unwrap_or("stay");
            witness
                .apply_text(text)
                .map_err(|e| BeliefError::impossible(format!("action {i} ({text:?}): {e}")))?;
        }
        check_witness(&witness, &view, revealed)?;
        Ok(AlterEgoBelief {
            view,
            revealed,
            witness,
        })
    }

    fn view(&self) -> &View<<AlterEgo as Game>::Summary> {
        &self.view
    }

    fn witness(&self) -> &AlterEgo {
        &self.witness
    }

    fn revealed(&self) -> bool {
        self.revealed
    }

    fn sample(&self, rng: &mut dyn RngCore) -> AlterEgo {
        resample::redraw_sealed(&self.witness, self.seat(), rng)
    }
}
