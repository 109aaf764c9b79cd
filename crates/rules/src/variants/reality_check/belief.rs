//! What one seat knows in Reality Check, rebuilt from its view alone.
//!
//! Everything a seat learns about an enemy piece is public (knowledge.rs), so the opponent and the
//! spectator know the same of a side. What they do not know is the hidden part of the side's
//! hidden actions: which piece stands where at the setup (and which is kept in hand), and which
//! piece each drop took from the hand. The seat's own actions are in its view in full.
//!
//! Building a belief reads the public story of the view (story.rs: each stay of a piece on the
//! board, the kinds shown, the pieces that left the game from a hand), prepares for each hidden
//! side the sweep that counts the histories that fit (resample.rs), then draws one history with a
//! fixed seed and replays it through the rules as the witness: a view no history fits, or one
//! whose events the rules would not write, is refused with the event at fault. The expensive
//! counting is done once here; a sample only walks the counted layers, draws the kinds, and
//! replays the actions.
//!
//! Sampling is exactly uniform over the histories consistent with the view (for the spectator,
//! over both sides' at once, which are independent given the public facts): see resample.rs.
//! Before both setups are made nothing of a setup is public, and a sealed setup is redrawn
//! uniformly among the valid ones. A revealed view (the game is over) has nothing hidden: its only
//! sample is the witness.

use super::actions::Action;
use super::actions::Setup;
use super::resample::Redraw;
use super::rules::Rules;
use super::state::RealityCheck;
use super::story::{self, Known};
use crate::belief::{check_witness, rules_view, start_of};
use crate::board::Color;
use crate::error::BeliefError;
use crate::game::{Belief, Game};
use crate::view::View;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// A seat's knowledge of a Reality Check game.
#[derive(Clone, Debug)]
pub struct RealityCheckBelief {
    view: View<<RealityCheck as Game>::Summary>,
    revealed: bool,
    witness: RealityCheck,
    /// The witness's actions: the known ones as they are, the hidden ones to be redrawn.
    actions: Vec<Action>,
    /// How each side hidden from the seat is redrawn.
    redraws: Vec<Redraw>,
}

impl RealityCheckBelief {
    /// The actions of one history drawn consistent with the view.
    fn draw_actions(&self, rng: &mut dyn RngCore) -> Vec<Action> {
        let mut actions = self.actions.clone();
        for redraw in &self.redraws {
            redraw.apply(&mut actions, rng);
        }
        actions
    }
}

impl Belief for RealityCheckBelief {
    type Game = RealityCheck;

    fn from_view(view: &View<<RealityCheck as Game>::Summary>) -> Result<Self, BeliefError> {
        let (view, revealed) = rules_view(view);
        let start: RealityCheck = start_of(&view)?;
        let rules = start.rules;
        let story = story::read(&view.events, rules.board)?;
        // The known actions, with a stand-in for each hidden one (redrawn below).
        let stand_in = Action::Setup(Setup::random(
            rules.placement(),
            Color::White,
            &mut StdRng::seed_from_u64(0),
        ));
        let actions: Vec<Action> = story
            .actions
            .iter()
            .map(|&(_, known)| match known {
                Known::Full(action) => action,
                Known::SealedSetup | Known::SealedDrop { .. } => stand_in,
            })
            .collect();
        let mut redraws = Vec::new();
        for color in Color::ALL {
            let Some(setup) = story.setups[color.index()] else {
                continue;
            };
            let sealed = story.actions.iter().any(|&(actor, known)| {
                actor.color() == Some(color) && !matches!(known, Known::Full(_))
            });
            if revealed || view.seat.color() == Some(color) {
                if sealed {
                    return Err(BeliefError::impossible(format!(
                        "{color}'s hidden actions are missing from a view that shows them"
                    )));
                }
                continue;
            }
            redraws.push(redraw_side(&story, color, setup, rules)?);
        }
        let mut belief = RealityCheckBelief {
            view,
            revealed,
            witness: start,
            actions,
            redraws,
        };
        let actions = belief.draw_actions(&mut StdRng::seed_from_u64(0));
        for (i, action) in actions.iter().enumerate() {
            belief.witness.apply(action).map_err(|e| {
                BeliefError::impossible(format!(
                    "action {i}: {}",
                    match story.actions[i].1 {
                        Known::Full(_) => e.to_string(),
                        _ => format!("no hidden {action} fits: {e}"),
                    }
                ))
            })?;
        }
        check_witness(&belief.witness, &belief.view, belief.revealed)?;
        belief.actions = actions;
        Ok(belief)
    }

    fn view(&self) -> &View<<RealityCheck as Game>::Summary> {
        &self.view
    }

    fn witness(&self) -> &RealityCheck {
        &self.witness
    }

    fn revealed(&self) -> bool {
        self.revealed
    }

    /// A history drawn uniformly among those consistent with the view, replayed.
    fn sample(&self, rng: &mut dyn RngCore) -> RealityCheck {
        if self.redraws.is_empty() {
            return self.witness.clone();
        }
        let mut game = RealityCheck::blank(self.witness.rules);
        for action in self.draw_actions(rng) {
            game.replay(action);
        }
        game
    }
}

/// How `color`'s hidden actions are redrawn.
fn redraw_side(
    story: &story::Story,
    color: Color,
    setup: usize,
    rules: Rules,
) -> Result<Redraw, BeliefError> {
    if !story.placed {
        return Ok(Redraw::Setup {
            index: setup,
            color,
            placement: rules.placement(),
        });
    }
    let stays: Vec<_> = story.stays.iter().filter(|s| s.color == color).collect();
    let exits: Vec<_> = story
        .hand_exits
        .iter()
        .filter(|&&(c, _, _)| c == color)
        .map(|&(_, at, kind)| (at, kind))
        .collect();
    Redraw::stays(setup, &stays, &exits).ok_or_else(|| {
        BeliefError::impossible(format!(
            "no arrangement of {color}'s pieces fits the faces and kinds shown"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::faces::Kind;
    use crate::event::EventKind;
    use crate::options::Options;
    use crate::playout::random_action;
    use crate::seat::Seat;
    use rand::{Rng, SeedableRng};

    /// Random games of these options, stopped after `actions` actions (or at their end).
    fn game_after(options: &[&str], actions: usize, seed: u64) -> RealityCheck {
        let options: Options = options
            .iter()
            .map(|o| (o.to_string(), "true".to_string()))
            .collect();
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = RealityCheck::new(&options).unwrap();
        for _ in 0..actions {
            let Some(action) = random_action(&game, &mut rng) else {
                break;
            };
            game.apply(&action).unwrap();
        }
        game
    }

    fn believe(view: &View<<RealityCheck as Game>::Summary>) -> Result<(), BeliefError> {
        RealityCheckBelief::from_view(view).map(|_| ())
    }

    #[test]
    fn views_that_contradict_the_rules_are_refused_with_the_event_at_fault() {
        let game = game_after(&[], 60, 3);
        let view = game.view(Seat::Black);
        assert!(believe(&view).is_ok());
        // A flip that says the piece is another kind with the same face up.
        let mut lie = view.clone();
        let flip = lie
            .events
            .iter()
            .position(|e| e.kind == EventKind::Info && e.text.contains(" now shows "))
            .expect("a flip in 60 actions");
        let text = &lie.events[flip].text;
        let (said, kind) = text.rsplit_once(' ').unwrap();
        let kind = Kind::parse(kind).unwrap();
        let (up, _) = kind.faces();
        let other = Kind::ALL
            .into_iter()
            .find(|k| *k != kind && k.has(up) && !k.is_true())
            .unwrap();
        lie.events[flip].text = format!("{said} {other}");
        assert!(matches!(believe(&lie), Err(BeliefError::Impossible(_))));
        // An event taken out, or moved to an action far away.
        let mut lie = view.clone();
        lie.events.remove(10);
        assert!(matches!(believe(&lie), Err(BeliefError::Impossible(_))));
        let mut lie = view.clone();
        lie.events[20].action = usize::MAX;
        assert!(matches!(believe(&lie), Err(BeliefError::Impossible(_))));
        let mut lie = view.clone();
        lie.events[20].kind = EventKind::Reveal { action: usize::MAX };
        assert!(matches!(believe(&lie), Err(BeliefError::Impossible(_))));
        // The last actions missing: the position does not follow.
        let mut lie = view.clone();
        let last = lie.events.last().unwrap().action;
        lie.events.retain(|e| e.action + 3 < last);
        assert!(matches!(believe(&lie), Err(BeliefError::Impossible(_))));
        // Another variant.
        let mut lie = view;
        lie.variant = "chess".into();
        assert!(matches!(believe(&lie), Err(BeliefError::Variant { .. })));
    }

    #[test]
    fn a_drop_no_piece_in_hand_could_be_is_refused() {
        // After both setups, White drops at once: its hand holds one piece, but c2 is taken.
        let game = game_after(&[], 2, 1);
        let mut view = game.view(Seat::White);
        let next = view.events.last().unwrap().action + 1;
        view.events.push(crate::event::Event::new(
            next,
            crate::seat::Actor::White,
            crate::seat::Audience::All,
            EventKind::Sealed,
            "drop N@c2",
        ));
        assert!(matches!(believe(&view), Err(BeliefError::Impossible(_))));
    }

    /// Views with events shuffled, retold or cut: each is refused or believed, never a panic,
    /// and a believed one has a witness that shows exactly it.
    #[test]
    fn mangled_views_never_panic() {
        let mut rng = StdRng::seed_from_u64(5);
        let mut refused = 0;
        for (i, options) in [&[][..], &["memory"], &["dice", "strategic-retreat"]]
            .into_iter()
            .enumerate()
        {
            for actions in [1, 2, 30, 90, 200] {
                let game = game_after(options, actions, 10 + i as u64);
                for seat in Seat::ALL {
                    let view = game.view(seat);
                    for _ in 0..30 {
                        let mut lie = view.clone();
                        let n = lie.events.len();
                        let (a, b) = (rng.random_range(0..n), rng.random_range(0..n));
                        match rng.random_range(0..5) {
                            0 => lie.events.swap(a, b),
                            1 => lie.events[a].text = lie.events[b].text.clone(),
                            2 => lie.events[a].actor = lie.events[b].actor,
                            3 => {
                                lie.events.remove(a);
                            }
                            _ => lie.events[a].kind = lie.events[b].kind.clone(),
                        }
                        match RealityCheckBelief::from_view(&lie) {
                            Ok(belief) => {
                                let (expected, _) = rules_view(&lie);
                                assert_eq!(belief.view(), &expected);
                                let revealed = belief.revealed();
                                assert!(
                                    check_witness(belief.witness(), &expected, revealed).is_ok()
                                );
                            }
                            Err(_) => refused += 1,
                        }
                    }
                }
            }
        }
        assert!(refused > 500, "{refused}");
    }
}
