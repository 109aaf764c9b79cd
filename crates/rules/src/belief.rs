//! Beliefs: what one seat knows, rebuilt from its [`View`] alone, and full games drawn
//! consistent with it.
//!
//! A bot, in this process or behind the engine protocol or the server's API, decides from its
//! seat's view and nothing else. A [`Belief`] is built once per decision from the view (as JSON,
//! exactly as the arbiter or the server sends it) and sampled many times: each sample is a whole
//! game, history included, whose view for the seat equals the view the belief was built from
//! (commitments and salts aside). Sampling never sees the truth, so two truths with the same view
//! give the same samples for the same seed.
//!
//! ```
//! use bluffchess_rules::game::{Belief, Game};
//! use bluffchess_rules::options::Options;
//! use bluffchess_rules::seat::Seat;
//! use bluffchess_rules::variants::alter_ego::{AlterEgo, AlterEgoBelief};
//! use rand::SeedableRng;
//!
//! let mut game = AlterEgo::new(&Options::new()).unwrap();
//! game.apply_text("e2e4").unwrap();
//! let json = serde_json::to_string(&game.view(Seat::Black)).unwrap();
//! let belief = AlterEgoBelief::from_view(&serde_json::from_str(&json).unwrap()).unwrap();
//! assert_eq!(belief.legal_actions(), game.legal_actions());
//! let sample = belief.sample(&mut rand::rngs::StdRng::seed_from_u64(1));
//! assert_eq!(sample.view(Seat::Black), game.view(Seat::Black));
//! ```

use crate::error::{shorten, BeliefError};
use crate::event::{Event, EventKind};
use crate::game::{Belief, Game};
use crate::outcome::EndReason;
use crate::view::View;
use rand::RngCore;

/// A view as the rules alone made it: commitments and salts removed, and the players' meta
/// events (offers, resignation, claims) and any end they caused taken out. Beliefs are built on
/// this and sampled games are compared with it. Also says whether the view is revealed (the game
/// is over, so the seat sees everything).
pub fn rules_view<S: Clone>(view: &View<S>) -> (View<S>, bool) {
    let by_players = view.outcome.is_some_and(|o| ended_by_players(o.reason));
    let mut events: Vec<Event> = view
        .events
        .iter()
        .filter(|e| e.kind != EventKind::Meta)
        .cloned()
        .map(|mut e| {
            e.commitment = None;
            e.salt = None;
            e
        })
        .collect();
    let mut outcome = view.outcome;
    let mut to_act = view.to_act;
    if by_players {
        if events.last().is_some_and(|e| e.kind == EventKind::End) {
            events.pop();
        }
        outcome = None;
        to_act = None;
    }
    let rules_view = View {
        variant: view.variant.clone(),
        options: view.options.clone(),
        seat: view.seat,
        to_act,
        events,
        position: view.position.clone(),
        outcome,
    };
    (rules_view, view.outcome.is_some())
}

/// Whether a game that ends so was ended by the players or the clock, not by the rules.
fn ended_by_players(reason: EndReason) -> bool {
    matches!(
        reason,
        EndReason::Resignation
            | EndReason::Agreement
            | EndReason::ThreefoldRepetition
            | EndReason::FiftyMoveRule
            | EndReason::Timeout
            | EndReason::TimeoutInsufficientMaterial
            | EndReason::Abandonment
    )
}

/// Checks the variant and options of a view and makes the empty game it starts from.
pub fn start_of<G: Game>(view: &View<G::Summary>) -> Result<G, BeliefError> {
    if view.variant != G::ID {
        return Err(BeliefError::Variant {
            expected: G::ID,
            found: shorten(&view.variant),
        });
    }
    Ok(G::new(&view.options)?)
}

/// Checks that `game` shows the seat the rules view `view` (revealed or not), naming the first
/// difference.
pub fn check_witness<G: Game>(
    game: &G,
    view: &View<G::Summary>,
    revealed: bool,
) -> Result<(), BeliefError> {
    let seen = game.view_revealed(view.seat, revealed);
    if let Some(i) = (0..view.events.len().max(seen.events.len()))
        .find(|&i| view.events.get(i) != seen.events.get(i))
    {
        let text = view.events.get(i).map_or("(none)", |e| e.text.as_str());
        return Err(BeliefError::impossible(format!(
            "event {i} ({text:?}) cannot follow the events before it under these rules"
        )));
    }
    // A game the players ended has no player to act, whatever the rules say.
    let ended_by_players = revealed && view.outcome.is_none();
    if seen.to_act != view.to_act && !ended_by_players {
        return Err(BeliefError::impossible(
            "the player to act does not follow from the events",
        ));
    }
    if seen.position != view.position {
        return Err(BeliefError::impossible(
            "the position does not follow from the events",
        ));
    }
    if seen.outcome != view.outcome {
        return Err(BeliefError::impossible(
            "the outcome does not follow from the events",
        ));
    }
    Ok(())
}

/// Each action's text as the view shows it, by action index: the actor's own text or the public
/// text of an open action, the opened text of a revealed hidden action, or `None` for a hidden
/// action still sealed (its public form is in the view's `Sealed` event). An event of an action
/// after the next one is refused: actions are numbered in order.
pub fn known_actions(events: &[Event]) -> Result<Vec<Option<String>>, BeliefError> {
    let mut texts: Vec<Option<String>> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let (index, text) = match e.kind {
            EventKind::Action => (e.action, Some(&e.text)),
            EventKind::Reveal { action } => (action, Some(&e.text)),
            EventKind::Sealed => (e.action, None),
            EventKind::Info | EventKind::Meta | EventKind::End => continue,
        };
        if index > texts.len() {
            return Err(BeliefError::impossible(format!(
                "event {i} ({:?}) is of action {index}, but only {} came before it",
                shorten(&e.text),
                texts.len()
            )));
        }
        if index == texts.len() {
            texts.push(None);
        }
        if let Some(text) = text {
            texts[index] = Some(text.clone());
        }
    }
    Ok(texts)
}

/// A belief for variants where nothing is hidden from anyone (orthodox chess, Ambiguous): every
/// action is in every view in full, so the game is the view's actions replayed, and the only
/// sample is that game.
#[derive(Clone, Debug)]
pub struct OpenBelief<G: Game> {
    view: View<G::Summary>,
    revealed: bool,
    game: G,
}

impl<G: Game> Belief for OpenBelief<G> {
    type Game = G;

    fn from_view(view: &View<G::Summary>) -> Result<Self, BeliefError> {
        let (view, revealed) = rules_view(view);
        let mut game: G = start_of(&view)?;
        for (i, event) in view.events.iter().enumerate() {
            if event.kind == EventKind::Action {
                game.apply_text(&event.text).map_err(|e| {
                    BeliefError::impossible(format!("event {i} ({:?}): {e}", event.text))
                })?;
            }
        }
        check_witness(&game, &view, revealed)?;
        Ok(OpenBelief {
            view,
            revealed,
            game,
        })
    }

    fn view(&self) -> &View<G::Summary> {
        &self.view
    }

    fn witness(&self) -> &G {
        &self.game
    }

    fn revealed(&self) -> bool {
        self.revealed
    }

    fn sample(&self, _rng: &mut dyn RngCore) -> G {
        self.game.clone()
    }
}
