//! Where each piece on the board came from (a setup slot, or a promotion), and what the public
//! record has shown about it: the facts resampling must respect.

use super::setup::Setup;
use crate::board::identity::Identity;
use crate::board::{Color, Square};

/// Where a piece came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Origin {
    /// Slot `i` of its owner's setup.
    Slot(u8),
    /// Its owner's `k`-th promotion.
    Promotion(u8),
}

/// What the public record has shown about the piece of one setup slot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct SlotFacts {
    /// A call showed its identity.
    pub identity: Option<Identity>,
    /// It is not the king: it left the game, or declared a promotion, and the game went on.
    pub not_king: bool,
    /// A call on its promotion showed whether it was a pawn.
    pub pawn: Option<bool>,
}

/// The lineage of every piece, and the facts about each.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Lineage {
    origin: Vec<Option<Origin>>,
    /// Per colour, per setup slot.
    pub slots: [[SlotFacts; 16]; 2],
    /// Per colour, per promotion: the promoted type, if a call showed it.
    pub promotions: [Vec<Option<Identity>>; 2],
}

impl Lineage {
    fn origin_mut(&mut self, sq: Square) -> &mut Option<Origin> {
        if self.origin.is_empty() {
            self.origin = vec![None; 64];
        }
        &mut self.origin[sq.index()]
    }

    /// The pieces of `color`'s setup stand on their slots.
    pub fn set_up(&mut self, color: Color) {
        for slot in 0..16 {
            *self.origin_mut(Setup::square(color, slot)) = Some(Origin::Slot(slot as u8));
        }
    }

    /// A piece moved.
    pub fn moved(&mut self, from: Square, to: Square) {
        let origin = self.origin_mut(from).take();
        *self.origin_mut(to) = origin;
    }

    fn slot(&mut self, color: Color, sq: Square) -> Option<&mut SlotFacts> {
        match *self.origin_mut(sq) {
            Some(Origin::Slot(i)) => Some(&mut self.slots[color.index()][i as usize]),
            _ => None,
        }
    }

    /// The piece on `sq` left the game (the game goes on unless it was the king).
    pub fn left_game(&mut self, color: Color, sq: Square, was_king: bool) {
        if let Some(facts) = self.slot(color, sq) {
            facts.not_king |= !was_king;
        }
        *self.origin_mut(sq) = None;
    }

    /// A call showed the identity of `color`'s piece on `sq`.
    pub fn record_identity(&mut self, color: Color, sq: Square, identity: Identity) {
        match *self.origin_mut(sq) {
            Some(Origin::Slot(i)) => {
                self.slots[color.index()][i as usize].identity = Some(identity)
            }
            Some(Origin::Promotion(k)) => {
                self.promotions[color.index()][k as usize] = Some(identity)
            }
            None => {}
        }
    }

    /// A call on a promotion showed whether `color`'s piece on `sq` was a pawn.
    pub fn record_pawn_claim(&mut self, color: Color, sq: Square, was_pawn: bool) {
        if let Some(facts) = self.slot(color, sq) {
            facts.pawn = Some(was_pawn);
            facts.not_king = true;
        }
    }

    /// The piece now on `sq` declared a promotion that stood: it went to the pool and a promoted
    /// piece took its place.
    pub fn promoted(&mut self, color: Color, sq: Square) {
        if let Some(facts) = self.slot(color, sq) {
            facts.not_king = true;
        }
        let k = self.promotions[color.index()].len() as u8;
        self.promotions[color.index()].push(None);
        *self.origin_mut(sq) = Some(Origin::Promotion(k));
    }
}

/// The declared promotion types the seat did not see, drawn for a replay: see `resample.rs`.
pub(super) fn hidden_identity_shown(facts: &Lineage, color: Color, k: usize) -> Option<Identity> {
    facts.promotions[color.index()].get(k).copied().flatten()
}
