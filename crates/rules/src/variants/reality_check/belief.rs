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

use super::resample::Redraw;
use super::story::{self, Known};
use super::{Action, RealityCheck, Rules, Setup};
use crate::belief::{check_witness, rules_view, start_of, Belief, BeliefError};
use crate::board::Color;
use crate::game::{Game, View};
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
        let story = story::read(&view.events)?;
        // The known actions, with a stand-in for each hidden one (redrawn below).
        let stand_in = Action::Setup(Setup::random_standard(
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
            flexible: rules.flexible_setup,
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
