//! Resampling a BS Chess game for a seat: new identities for the pieces the seat cannot see
//! through, consistent with everything the public record showed, then the whole game replayed.
//!
//! Weighting (exact uniform sampling over consistent histories is intractable): for each hidden
//! side, with the spy option and no spy shown, the side has a spy with probability 1/2; the king
//! is placed uniformly among the setup slots that may still hold it (never shown, never left the
//! game, never declared a promotion); pawns go where a call showed a pawn's promotion; the rest of
//! the set is shuffled uniformly over the remaining slots (reshuffled while a slot shown "not a
//! pawn" gets one). Each promotion the hidden side declared takes a type drawn uniformly from the
//! types its pool then held (or the type a later call showed). A replay that breaks anything the
//! seat saw is drawn again; an AI can reweight samples by how likely their setups and promotion
//! choices are under its own model of the opponent.

use super::identity::Identity;
use super::lineage::SlotFacts;
use super::setup::{Setup, STANDARD};
use super::{Action, Bs, Phase};
use crate::board::Color;
use crate::game::{Game, Seat};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngCore};

/// Draws before giving up and returning the true state (never seen in tests).
const ATTEMPTS: usize = 500;

pub(super) fn resample(game: &Bs, seat: Seat, rng: &mut dyn RngCore) -> Bs {
    draw(game, seat, rng).unwrap_or_else(|| game.clone())
}

/// A consistent state, or `None` when every attempt failed.
pub(super) fn draw(game: &Bs, seat: Seat, rng: &mut dyn RngCore) -> Option<Bs> {
    let hidden: Vec<Color> = Color::ALL
        .into_iter()
        .filter(|&c| seat.color() != Some(c) && has_set_up(game, c))
        .collect();
    // After the end everything is revealed: the truth is the only consistent state.
    if hidden.is_empty() || game.log.outcome.is_some() {
        return Some(game.clone());
    }
    let view = game.view(seat);
    for _ in 0..ATTEMPTS {
        let mut setups = [None, None];
        for &color in &hidden {
            setups[color.index()] = sample_setup(game, color, rng);
        }
        if hidden.iter().any(|c| setups[c.index()].is_none()) {
            continue;
        }
        if let Some(sampled) = replay(game, setups, rng) {
            if sampled.view(seat) == view {
                return Some(sampled);
            }
        }
    }
    None
}

fn has_set_up(game: &Bs, color: Color) -> bool {
    game.log.actions.len() > color.index()
}

/// A setup for `color` that agrees with the public facts about its slots.
fn sample_setup(game: &Bs, color: Color, rng: &mut dyn RngCore) -> Option<Setup> {
    let facts = &game.lineage.slots[color.index()];
    let spy_shown = facts.iter().any(|f| f.identity == Some(Identity::Spy));
    let spy = spy_shown || (game.rules.spy && rng.random_bool(0.5));
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

/// The game replayed with the hidden sides' setups replaced and their promotion types redrawn.
fn replay(game: &Bs, setups: [Option<Setup>; 2], rng: &mut dyn RngCore) -> Option<Bs> {
    let mut sampled = Bs::new(&game.options()).expect("the game's own options");
    for (index, &action) in game.log.actions.iter().enumerate() {
        let action = match action {
            Action::Setup(_) => {
                let color = if index == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                setups[color.index()].map_or(action, Action::Setup)
            }
            Action::Move {
                from,
                to,
                promotion: Some(_),
            } if setups[sampled.turn.index()].is_some() => Action::Move {
                from,
                to,
                promotion: Some(redraw_promotion(game, &sampled, rng)?),
            },
            _ => action,
        };
        debug_assert!(!matches!(sampled.phase, Phase::Setup) || matches!(action, Action::Setup(_)));
        sampled.apply(&action).ok()?;
    }
    Some(sampled)
}

/// A promotion type for the side to move in the replay: the one a later call showed in the
/// original game, or one its pool holds now.
fn redraw_promotion(game: &Bs, sampled: &Bs, rng: &mut dyn RngCore) -> Option<Identity> {
    let color = sampled.turn;
    let k = sampled.lineage.promotions[color.index()].len();
    let shown = game.lineage.promotions[color.index()]
        .get(k)
        .copied()
        .flatten();
    let types = sampled.promotion_types();
    match shown {
        Some(identity) => types.contains(&identity).then_some(identity),
        None => types.choose(rng).copied(),
    }
}
