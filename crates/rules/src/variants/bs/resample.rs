//! Drawing a BS Chess game consistent with a seat's belief (see `belief.rs`): new identities for
//! the pieces the seat cannot see through, consistent with everything the public record showed,
//! then the whole skeleton replayed.
//!
//! Weighting (exact uniform sampling over consistent histories is intractable): for each hidden
//! side, with the spy option and no spy shown, the side has a spy with probability 1/2; the king
//! is placed uniformly among the setup slots that may still hold it (never shown, never left the
//! game, never declared a promotion); pawns go where a call showed a pawn's promotion; the rest of
//! the set is shuffled uniformly over the remaining slots (reshuffled while a slot shown "not a
//! pawn" gets one). Each promotion the hidden side declared takes a type drawn uniformly from the
//! types its pool then held (or the type a later call showed). A replay that breaks anything the
//! seat saw is drawn again: the samples follow this proposal conditioned on agreeing with the view.
//! An AI can reweight samples by how likely their setups and promotion choices are under its own
//! model of the opponent.

use super::actions::Action;
use super::lineage::{hidden_identity_shown, Lineage, SlotFacts};
use super::setup::{Setup, STANDARD};
use super::state::Bs;
use super::view::BsSummary;
use crate::board::identity::Identity;
use crate::board::{Color, Square};
use crate::game::Game;
use crate::view::View;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngCore};

/// One action of the game as the seat knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// Known in full.
    Known(Action),
    /// A setup the seat did not see.
    HiddenSetup,
    /// A declared promotion whose type the seat did not see.
    HiddenPromotion {
        /// Where the piece stood.
        from: Square,
        /// Where it went.
        to: Square,
    },
}

/// What a seat knows of a BS game, as a draw reads it (built by `belief.rs`).
#[derive(Clone, Debug)]
pub(super) struct Known {
    /// The view as the rules made it.
    pub(super) view: View<BsSummary>,
    /// Whether the view is revealed.
    pub(super) revealed: bool,
    /// Every action, as the seat knows it.
    pub(super) steps: Vec<Step>,
    /// What the public record showed about every piece.
    pub(super) facts: Lineage,
}

impl Known {
    /// The sides whose setup the seat did not see.
    fn hidden_sides(&self) -> impl Iterator<Item = Color> + '_ {
        Color::ALL
            .into_iter()
            .filter(|c| self.steps.get(c.index()) == Some(&Step::HiddenSetup))
    }
}

/// Draws before giving up (never seen in tests).
const ATTEMPTS: usize = 500;

/// A game consistent with the belief's view, or `None` when every attempt failed.
pub(super) fn draw(belief: &Known, rng: &mut dyn RngCore) -> Option<Bs> {
    let (view, revealed) = (&belief.view, belief.revealed);
    let hidden: Vec<Color> = belief.hidden_sides().collect();
    let spy = view.options.get("spy").is_some_and(|v| v == "true");
    for _ in 0..ATTEMPTS {
        let mut setups = [None, None];
        for &color in &hidden {
            setups[color.index()] = sample_setup(&belief.facts, spy, color, rng);
        }
        if hidden.iter().any(|c| setups[c.index()].is_none()) {
            continue;
        }
        if let Some(sampled) = replay(belief, setups, rng) {
            let seen = sampled.view_revealed(view.seat, revealed);
            if seen.events == view.events && seen.position == view.position {
                return Some(sampled);
            }
        }
    }
    None
}

/// A setup for `color` that agrees with the public facts about its slots.
fn sample_setup(facts: &Lineage, spy: bool, color: Color, rng: &mut dyn RngCore) -> Option<Setup> {
    let facts = &facts.slots[color.index()];
    let spy_shown = facts.iter().any(|f| f.identity == Some(Identity::Spy));
    let spy = spy_shown || (spy && rng.random_bool(0.5));
    let mut rest: Vec<Identity> = STANDARD.0.to_vec();
    if spy {
        rest[8] = Identity::Spy;
    }
    let mut pieces: [Option<Identity>; 16] = [None; 16];
    for (slot, fact) in facts.iter().enumerate() {
        if let Some(identity) = fact.identity {
            take(&mut rest, identity)?;
            pieces[slot] = Some(identity);
        }
    }
    if rest.contains(&Identity::King) {
        let open: Vec<usize> = (0..16)
            .filter(|&i| pieces[i].is_none() && may_be_king(&facts[i]))
            .collect();
        let &slot = open.choose(rng)?;
        take(&mut rest, Identity::King)?;
        pieces[slot] = Some(Identity::King);
    }
    for slot in 0..16 {
        if pieces[slot].is_none() && facts[slot].pawn == Some(true) {
            take(&mut rest, Identity::Pawn)?;
            pieces[slot] = Some(Identity::Pawn);
        }
    }
    let free: Vec<usize> = (0..16).filter(|&i| pieces[i].is_none()).collect();
    for _ in 0..50 {
        rest.shuffle(rng);
        let fits = free.iter().zip(&rest).all(|(&slot, &identity)| {
            !(facts[slot].pawn == Some(false) && identity == Identity::Pawn)
        });
        if fits {
            for (&slot, &identity) in free.iter().zip(&rest) {
                pieces[slot] = Some(identity);
            }
            return Some(Setup(pieces.map(|p| p.expect("every slot filled"))));
        }
    }
    None
}

fn may_be_king(facts: &SlotFacts) -> bool {
    !facts.not_king && facts.pawn.is_none()
}

fn take(rest: &mut Vec<Identity>, identity: Identity) -> Option<()> {
    let i = rest.iter().position(|&r| r == identity)?;
    rest.swap_remove(i);
    Some(())
}

/// The skeleton replayed with the hidden sides' setups and promotion types drawn.
pub(super) fn replay(
    belief: &Known,
    setups: [Option<Setup>; 2],
    rng: &mut dyn RngCore,
) -> Option<Bs> {
    let mut sampled = Bs::new(&belief.view.options).ok()?;
    for (index, step) in belief.steps.iter().enumerate() {
        let action = match *step {
            Step::Known(action) => action,
            Step::HiddenSetup => Action::Setup(setups.get(index)?.as_ref().copied()?),
            Step::HiddenPromotion { from, to } => Action::Move {
                from,
                to,
                promotion: Some(redraw_promotion(belief, &sampled, rng)?),
            },
        };
        sampled.apply(&action).ok()?;
    }
    Some(sampled)
}

/// A promotion type for the side to move in the replay: the one a later call showed, or one its
/// pool holds now.
fn redraw_promotion(belief: &Known, sampled: &Bs, rng: &mut dyn RngCore) -> Option<Identity> {
    let color = sampled.turn;
    let k = sampled.lineage.promotions[color.index()].len();
    let types = sampled.promotion_types();
    match hidden_identity_shown(&belief.facts, color, k) {
        Some(identity) => types.contains(&identity).then_some(identity),
        None => types.choose(rng).copied(),
    }
}
