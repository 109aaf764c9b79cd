//! The worlds a seat's view allows: whole games drawn consistent with it.
//!
//! Where the rules crate has a [`Belief`] for the variant, the worlds are its samples. Bluff-move
//! has none yet: [`Replayed`] replays the view's history, taking the seat's own actions as they
//! were and, for each hidden action of the opponent, one of the opponent's actions (in random
//! order) that shows the seat exactly the events it saw. When none does (an earlier hidden choice
//! was wrong), the history so far is drawn again by the rules' own sampler, [`Game::resample`],
//! which reads only the seat's view of that history, the seat's real view up to there. Once one
//! history explains the whole view, the worlds are that history's resamples: the rules' sampler,
//! fed with nothing but the view.
//! When the rules crate gains `BluffMoveBelief`, `Variant::Worlds` for Bluff-move switches to
//! `FromBelief<BluffMoveBelief>` in `variant.rs` and this goes.

use bluffchess_rules::belief::{rules_view, start_of, Belief};
use bluffchess_rules::game::{Event, Game, Seat, View};
use rand::seq::SliceRandom;
use rand::RngCore;

/// Whole games consistent with one seat's view.
pub trait Worlds: Sized + Send + Sync {
    /// The variant.
    type Game: Game;

    /// The worlds of this view, or why there are none.
    fn from_view(view: &View<<Self::Game as Game>::Summary>) -> Result<Self, String>;

    /// One world drawn consistent with the view.
    fn sample(&self, rng: &mut dyn RngCore) -> Self::Game;
}

/// The samples of a variant's belief.
#[derive(Clone, Debug)]
pub struct FromBelief<B>(B);

impl<B: Belief> Worlds for FromBelief<B> {
    type Game = B::Game;

    fn from_view(view: &View<<B::Game as Game>::Summary>) -> Result<Self, String> {
        B::from_view(view)
            .map(FromBelief)
            .map_err(|e| e.to_string())
    }

    fn sample(&self, rng: &mut dyn RngCore) -> B::Game {
        self.0.sample(rng)
    }
}

/// Histories replayed from a view, the opponent's hidden actions chosen among those that look
/// alike to the seat.
#[derive(Clone, Debug)]
pub struct Replayed<G: Game> {
    /// The view's events grouped by action.
    steps: Vec<Vec<Event>>,
    seat: Seat,
    options: bluffchess_rules::Options,
    first: G,
}

/// Replays tried before the view is found impossible.
const ATTEMPTS: usize = 4;

/// Times a step may draw the history before it anew before the replay gives up.
const RESAMPLES: usize = 24;

impl<G: Game> Worlds for Replayed<G> {
    type Game = G;

    fn from_view(view: &View<G::Summary>) -> Result<Self, String> {
        let (view, _) = rules_view(view);
        let start: G = start_of(&view).map_err(|e| e.to_string())?;
        let mut steps: Vec<Vec<Event>> = Vec::new();
        for event in view.events {
            if steps.len() <= event.action {
                steps.resize(event.action + 1, Vec::new());
            }
            steps[event.action].push(event);
        }
        let mut replayed = Replayed {
            steps,
            seat: view.seat,
            options: view.options,
            first: start,
        };
        let mut rng = <rand::rngs::StdRng as rand::SeedableRng>::seed_from_u64(0);
        replayed.first = (0..ATTEMPTS)
            .find_map(|_| replayed.replay(&mut rng))
            .ok_or("no history found that explains the view")?;
        Ok(replayed)
    }

    fn sample(&self, rng: &mut dyn RngCore) -> G {
        self.first.resample(self.seat, rng)
    }
}

impl<G: Game> Replayed<G> {
    /// One history that shows the seat its events, or `None` when it cannot be found.
    fn replay(&self, rng: &mut dyn RngCore) -> Option<G> {
        let mut game = G::new(&self.options).ok()?;
        for seen in &self.steps {
            let mut tries = 0;
            game = loop {
                if let Some(next) = self.step(&game, seen, rng) {
                    break next;
                }
                // A hidden choice made earlier cannot explain what the seat saw now: draw the
                // history so far again with the rules' own sampler (it reads the seat's view
                // of `game` only, which is the seat's real view up to here).
                tries += 1;
                if tries > RESAMPLES {
                    return None;
                }
                game = game.resample(self.seat, rng);
            };
        }
        Some(game)
    }

    /// The game after the step's action: the seat's own as it was, or one of the other side's
    /// (in random order) that shows the seat what it saw.
    fn step(&self, game: &G, seen: &[Event], rng: &mut dyn RngCore) -> Option<G> {
        let own = seen.iter().find(|e| {
            e.kind == bluffchess_rules::EventKind::Action
                && e.actor.color().is_some()
                && e.actor.color() == self.seat.color()
        });
        if let Some(event) = own {
            let mut next = game.clone();
            next.apply_text(&event.text).ok()?;
            return self.shows(&next, seen).then_some(next);
        }
        let mut actions = game.legal_actions();
        if actions.is_empty() {
            actions = game.chance_outcomes().into_iter().map(|(a, _)| a).collect();
        }
        actions.shuffle(rng);
        actions.into_iter().find_map(|action| {
            let mut next = game.clone();
            next.apply(&action).ok()?;
            self.shows(&next, seen).then_some(next)
        })
    }

    /// Whether the last action's events, as the seat sees them, are `seen`.
    fn shows(&self, game: &G, seen: &[Event]) -> bool {
        let index = game.action_count() - 1;
        let events = game.events();
        let first = events.partition_point(|e| e.action < index);
        let shown = events[first..]
            .iter()
            .filter(|e| e.seats.includes(self.seat));
        shown.eq(seen.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::variants::bluff_move::BluffMove;
    use rand::SeedableRng;

    #[test]
    fn the_true_history_shows_the_seat_its_events() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(11);
        let mut game = BluffMove::new(&Default::default()).unwrap();
        bluffchess_rules::playout::random_playout(&mut game, &mut rng, 40);
        let seat = Seat::from(game.to_act().and_then(|a| a.color()).unwrap());
        let replayed = Replayed::<BluffMove>::from_view(&game.view(seat));
        let view = game.view(seat);
        let mut steps: Vec<Vec<Event>> = Vec::new();
        for event in view.events {
            if steps.len() <= event.action {
                steps.resize(event.action + 1, Vec::new());
            }
            steps[event.action].push(event);
        }
        let mut again = BluffMove::new(&Default::default()).unwrap();
        for (i, action) in game.history().iter().enumerate() {
            again.apply(action).unwrap();
            let probe = Replayed {
                steps: steps.clone(),
                seat,
                options: Default::default(),
                first: again.clone(),
            };
            assert!(
                probe.shows(&again, &steps[i]),
                "step {i} {action}: {:?}",
                steps[i]
            );
        }
        assert!(replayed.is_ok(), "{:?}", replayed.err());
    }
}
