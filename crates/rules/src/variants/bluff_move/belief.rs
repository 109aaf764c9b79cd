//! What one seat knows in Bluff-move Chess, rebuilt from its view: its own actions in full, the
//! opponent's in their public form (for the spectator, both sides'), and every capture, destroyed
//! bluff and private report it saw (`record.rs`).
//!
//! Building reads the record and arranges it for the lookahead once (`lookahead.rs`; its memos
//! are kept for every later sample), then finds a witness: a history drawn with a fixed
//! generator, so the same view gives the same witness. A view no search explains is refused as
//! impossible. Sampling is the search of `resample.rs`, weighted as documented there: each hidden
//! action uniform among its explanations, [`BluffMoveBelief::sample_weighted`] giving the log of
//! the weight that corrects towards uniform histories. A finished game's view shows every action:
//! its only sample is that game.

use super::actions::Action;
use super::board::Board;
use super::lookahead::Knowledge;
use super::record::Record;
use super::resample::draw;
use super::state::BluffMove;
use crate::belief::{check_witness, known_actions, rules_view, start_of};
use crate::error::BeliefError;
use crate::game::{Belief, Game};
use crate::seat::Seat;
use crate::view::View;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::sync::Arc;

/// A seat's knowledge of a Bluff-move game.
#[derive(Clone, Debug)]
pub struct BluffMoveBelief {
    view: View<<BluffMove as Game>::Summary>,
    revealed: bool,
    /// What the seat saw, and the lookahead over it; `None` when every action is known.
    search: Option<Arc<(Record, Knowledge)>>,
    /// The witness's actions, the search's known explanation.
    witness_actions: Vec<Action>,
    witness: BluffMove,
}

impl BluffMoveBelief {
    /// A sample and the log of its importance weight: the sum over the hidden actions of the log
    /// of the number of actions that explained there what the seat saw (0 when nothing is
    /// hidden). Weighting samples by `exp(weight)` corrects (approximately) towards the uniform
    /// distribution over histories consistent with the view.
    pub fn sample_weighted(&self, rng: &mut dyn RngCore) -> (BluffMove, f64) {
        let Some(search) = &self.search else {
            return (self.witness.clone(), 0.0);
        };
        let (record, knowledge) = &**search;
        let (actions, weight) = draw(record, knowledge, rng, true, Some(&self.witness_actions))
            .expect("a search with a known explanation ends");
        (BluffMove::replayed(record.start, &actions), weight)
    }
}

impl Belief for BluffMoveBelief {
    type Game = BluffMove;

    fn from_view(view: &View<<BluffMove as Game>::Summary>) -> Result<Self, BeliefError> {
        let (view, revealed) = rules_view(view);
        let start: BluffMove = start_of(&view)?;
        let known = known_actions(&view.events)?;
        let (search, witness_actions) = match known.iter().all(Option::is_some) {
            true => (None, read_actions(&start, &known)?),
            false => {
                let record = Record::from_events(view.seat, &view.events)?;
                let knowledge = Knowledge::new(&record);
                // A fixed generator: the same view, the same witness.
                let mut rng = StdRng::seed_from_u64(0xb1_0ff);
                let (actions, _) =
                    draw(&record, &knowledge, &mut rng, false, None).ok_or_else(|| {
                        BeliefError::impossible("no choice of the hidden actions explains the view")
                    })?;
                (Some(Arc::new((record, knowledge))), actions)
            }
        };
        let witness = replay(start.start, &witness_actions)?;
        check_witness(&witness, &view, revealed)?;
        Ok(BluffMoveBelief {
            view,
            revealed,
            search,
            witness_actions,
            witness,
        })
    }

    fn view(&self) -> &View<<BluffMove as Game>::Summary> {
        &self.view
    }

    fn witness(&self) -> &BluffMove {
        &self.witness
    }

    fn revealed(&self) -> bool {
        self.revealed
    }

    fn sample(&self, rng: &mut dyn RngCore) -> BluffMove {
        let Some(search) = &self.search else {
            return self.witness.clone();
        };
        let (record, knowledge) = &**search;
        let (actions, _) = draw(record, knowledge, rng, false, Some(&self.witness_actions))
            .expect("a search with a known explanation ends");
        BluffMove::replayed(record.start, &actions)
    }
}

/// The actions of a view that shows every one in full.
fn read_actions(game: &BluffMove, known: &[Option<String>]) -> Result<Vec<Action>, BeliefError> {
    known
        .iter()
        .enumerate()
        .map(|(i, text)| {
            let text = text.as_deref().unwrap_or_default();
            game.parse_action(text)
                .map_err(|e| BeliefError::impossible(format!("action {i} ({text:?}): {e}")))
        })
        .collect()
}

/// The game after `actions` from `start`, or why one of them is not legal there.
fn replay(start: Board, actions: &[Action]) -> Result<BluffMove, BeliefError> {
    let mut game = BluffMove::from_board(start);
    for (i, action) in actions.iter().enumerate() {
        game.apply(action)
            .map_err(|e| BeliefError::impossible(format!("action {i} ({action}): {e}")))?;
    }
    Ok(game)
}

impl BluffMove {
    /// Like [`Game::resample`], also returning the log of the sample's importance weight (see
    /// [`BluffMoveBelief::sample_weighted`]); drawn from the seat's view alone.
    pub fn resample_weighted(&self, seat: Seat, rng: &mut dyn RngCore) -> (BluffMove, f64) {
        BluffMoveBelief::from_view(&self.view(seat))
            .unwrap_or_else(|e| panic!("the rules' own view is believable: {e}"))
            .sample_weighted(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Options;
    use crate::seat::Seat;
    use rand::seq::IndexedRandom;

    /// Views with events dropped or texts swapped are believed or refused, never a panic; a
    /// belief built from one explains it.
    #[test]
    fn mangled_views_are_refused_or_explained() {
        let mut rng = StdRng::seed_from_u64(8);
        let (mut refused, mut explained) = (0, 0);
        for _ in 0..6 {
            let mut game = BluffMove::new(&Options::new()).unwrap();
            crate::playout::random_playout(&mut game, &mut rng, 30);
            for seat in Seat::ALL {
                let view = game.view_revealed(seat, false);
                for _ in 0..10 {
                    let mut mangled = view.clone();
                    let i = rand::Rng::random_range(&mut rng, 0..mangled.events.len());
                    match rand::Rng::random_bool(&mut rng, 0.5) {
                        true => drop(mangled.events.remove(i)),
                        false => {
                            let other = view.events.choose(&mut rng).unwrap();
                            mangled.events[i].text = other.text.clone();
                        }
                    }
                    match BluffMoveBelief::from_view(&mangled) {
                        Ok(belief) => {
                            let sample = belief.sample(&mut rng);
                            assert_eq!(sample.view(seat).events, mangled.events);
                            explained += 1;
                        }
                        Err(_) => refused += 1,
                    }
                }
            }
        }
        assert!(refused > 50, "{refused} refused, {explained} explained");
    }
}
