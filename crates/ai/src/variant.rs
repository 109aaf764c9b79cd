//! What the search needs of each variant: the worlds a seat's view allows, an evaluation of a
//! world, which decisions are bluffs to be mixed, and the setup policy.

use crate::eval;
use bluffchess_rules::game::Game;
use bluffchess_rules::variants::alter_ego::Action as AlterEgoAction;
use bluffchess_rules::variants::ambiguous::Action as AmbiguousAction;
use bluffchess_rules::variants::bluff_move::Action as BluffMoveAction;
use bluffchess_rules::variants::bs::Action as BsAction;
use bluffchess_rules::variants::reality_check::Action as RealityCheckAction;
use bluffchess_rules::variants::{AlterEgo, Ambiguous, BluffMove, Bs, Chess, RealityCheck};
use bluffchess_rules::view::View;
use bluffchess_rules::{AnyView, Color, Move, Role};
use rand::RngCore;

/// A variant the bots play.
pub trait Variant: Game {
    /// How many captures (and answers to them) a quiescence search follows one after another.
    const QUIESCENCE: u32 = 6;

    /// How good the world is for `color`, in pawns: material (hidden pieces as this world has
    /// them, so that an average over sampled worlds values them by their expectation), mobility,
    /// king safety and the variant's own stakes.
    fn evaluate(&self, color: Color) -> f64;

    /// Whether the choice among `actions` is a bluff decision (stay or transfer, call or accept,
    /// a Reality Check or not): the search then mixes by regret matching instead of playing the
    /// most visited action, so that no tell gives the choice away.
    fn mixed(_actions: &[Self::Action]) -> bool {
        false
    }

    /// Whether the choice among `actions` is nothing but a bluff decision (stay or transfer,
    /// call or accept), which the default bot leaves to ISMCTS and its regret matching; a
    /// Reality Check, offered beside every other move, is not.
    fn bluff_decision(_actions: &[Self::Action]) -> bool {
        false
    }

    /// The value of the piece an action captures and of the piece that captures, for move
    /// ordering (most valuable victim, least valuable attacker), when the action is a capture.
    fn capture(&self, _action: &Self::Action) -> Option<(f64, f64)> {
        None
    }

    /// Whether the side to act must choose one of `actions` and may not stand pat in a
    /// quiescence search (Ambiguous's pick of the move to a named square).
    fn forced(_actions: &[Self::Action]) -> bool {
        false
    }

    /// Whether `actions` answer the opponent's move (BS's call or accept, and the removal after
    /// a call): a quiescence search weighs every answer instead of standing pat on a move
    /// that may yet be undone.
    fn answer(_actions: &[Self::Action]) -> bool {
        false
    }

    /// Whether `actions` are the second half of a turn (Reality Check's flip after a move), of
    /// which the search below the root follows only the few best by the evaluation, so that
    /// its depth goes to the turns that follow.
    fn follow_up(_actions: &[Self::Action]) -> bool {
        false
    }

    /// A key of the whole state for the transposition table: what both players know together
    /// is everything there is.
    fn position_key(&self) -> u64 {
        use bluffchess_rules::Seat;
        self.info_key(Seat::White) ^ self.info_key(Seat::Black).rotate_left(29)
    }

    /// A setup chosen by a hand-made policy from the seat's view, when one is due.
    fn setup(_view: &View<Self::Summary>, _rng: &mut dyn RngCore) -> Option<String> {
        None
    }
}

impl Variant for Chess {
    fn evaluate(&self, color: Color) -> f64 {
        eval::position(self.position(), color)
    }

    fn capture(&self, mv: &Move) -> Option<(f64, f64)> {
        eval::capture(self.position(), mv.from, mv.to)
    }

    fn position_key(&self) -> u64 {
        self.position().hash()
    }
}

impl Variant for Ambiguous {
    fn evaluate(&self, color: Color) -> f64 {
        eval::position(self.position(), color)
    }

    fn forced(actions: &[AmbiguousAction]) -> bool {
        matches!(actions.first(), Some(AmbiguousAction::Pick(_)))
    }

    fn capture(&self, action: &AmbiguousAction) -> Option<(f64, f64)> {
        match *action {
            // The opponent picks the piece: judge the named square by its victim alone.
            AmbiguousAction::Name(to) => {
                eval::capture(self.position(), to, to).map(|(v, _)| (v, 0.0))
            }
            AmbiguousAction::Pick(mv) => eval::capture(self.position(), mv.from, mv.to),
        }
    }
}

impl Variant for AlterEgo {
    fn evaluate(&self, color: Color) -> f64 {
        eval::alter_ego(self, color)
    }

    fn mixed(actions: &[AlterEgoAction]) -> bool {
        actions.contains(&AlterEgoAction::Stay)
    }

    fn bluff_decision(actions: &[AlterEgoAction]) -> bool {
        Self::mixed(actions)
    }

    fn capture(&self, action: &AlterEgoAction) -> Option<(f64, f64)> {
        match action {
            AlterEgoAction::Move(mv) => eval::capture(self.position(), mv.from, mv.to),
            _ => None,
        }
    }
}

impl Variant for BluffMove {
    fn evaluate(&self, color: Color) -> f64 {
        eval::bluff_move(self, color)
    }

    /// A real piece moved onto an enemy real piece (bluffs swept on the way count for little).
    fn capture(&self, action: &BluffMoveAction) -> Option<(f64, f64)> {
        let BluffMoveAction::Move(mv) = *action else {
            return None;
        };
        let mover = self.turn();
        if !self.reals(mover).contains(mv.from) || !self.reals(!mover).contains(mv.to) {
            return None;
        }
        let value = |role| match role {
            Role::King => 50.0,
            role => eval::role_value(role),
        };
        let victim = self.role_at(mv.to).map_or(1.0, value);
        Some((victim, self.role_at(mv.from).map_or(0.0, value)))
    }
}

impl Variant for Bs {
    /// Any piece may claim almost any capture, and each claim waits for an answer: a short
    /// quiescence leaves time for the turns.
    const QUIESCENCE: u32 = 3;

    fn evaluate(&self, color: Color) -> f64 {
        eval::bs(self, color)
    }

    fn mixed(actions: &[BsAction]) -> bool {
        actions.contains(&BsAction::Call)
    }

    fn bluff_decision(actions: &[BsAction]) -> bool {
        Self::mixed(actions)
    }

    fn answer(actions: &[BsAction]) -> bool {
        matches!(
            actions.first(),
            Some(BsAction::Call | BsAction::Accept | BsAction::Remove(_))
        )
    }

    fn capture(&self, action: &BsAction) -> Option<(f64, f64)> {
        match *action {
            BsAction::Move { from, to, .. } => eval::bs_capture(self, from, to),
            _ => None,
        }
    }

    fn setup(view: &View<Self::Summary>, rng: &mut dyn RngCore) -> Option<String> {
        crate::setup::bs(view, rng)
    }
}

impl Variant for RealityCheck {
    fn evaluate(&self, color: Color) -> f64 {
        eval::reality_check(self, color)
    }

    fn mixed(actions: &[RealityCheckAction]) -> bool {
        actions
            .iter()
            .any(|a| matches!(a, RealityCheckAction::RealityCheck { .. }))
    }

    fn follow_up(actions: &[RealityCheckAction]) -> bool {
        matches!(actions.first(), Some(RealityCheckAction::Flip(_)))
    }

    /// A capture sends a piece to the hand; a Reality Check between two true pieces takes it
    /// out of the game.
    fn capture(&self, action: &RealityCheckAction) -> Option<(f64, f64)> {
        let (from, to, check) = match *action {
            RealityCheckAction::Move { from, to } => (from, to, false),
            RealityCheckAction::RealityCheck { from, to } => (from, to, true),
            _ => return None,
        };
        let attacker = self.piece_at(from)?;
        let victim = self.piece_at(to).filter(|v| v.color != attacker.color)?;
        let removes = check && victim.kind.is_true() && attacker.kind.is_true();
        Some((if removes { 7.0 } else { 1.0 }, 0.5))
    }

    fn setup(view: &View<Self::Summary>, rng: &mut dyn RngCore) -> Option<String> {
        crate::setup::reality_check(view, rng)
    }
}

/// Code that runs on the type of the variant of a view.
pub trait Visitor {
    /// What it gives back.
    type Output;
    /// Runs on variant `G` with its typed view.
    fn visit<G: Variant>(self, view: &View<G::Summary>) -> Self::Output;
}

/// The dispatch over the rules crate's one list of variants: a variant without an
/// `impl Variant` above is a compile error here.
macro_rules! dispatch_over {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        /// Calls `visitor` with the view typed by its variant.
        pub fn dispatch<V: Visitor>(view: &AnyView, visitor: V) -> V::Output {
            match view {
                $(AnyView::$arm(v) => visitor.visit::<$game>(v),)*
            }
        }
    };
}
bluffchess_rules::for_each_variant!(dispatch_over);
