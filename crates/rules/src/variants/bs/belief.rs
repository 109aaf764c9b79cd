//! What one seat knows in BS Chess, rebuilt from its view: every move's squares, every answer,
//! what every call showed, and its own setup and promotions. Hidden from it: the opponent's setup
//! (for the spectator, both) and the types of the opponent's declared promotions.
//!
//! Building reads the view's facts once: the action skeleton (each action known in full, or a
//! hidden setup, or a declared promotion of hidden type) and the public lineage (which setup slot
//! or promotion each piece came from, and what calls showed about it; see `lineage.rs`). Sampling
//! draws hidden setups and promotion types from those facts and replays the skeleton; a replay
//! whose view differs from the seat's is drawn again (see `resample.rs` for the weighting).

use super::lineage::Lineage;
use super::resample::{draw, Known, Step};
use super::setup::Setup;
use super::state::Bs;
use crate::belief::{check_witness, rules_view, start_of};
use crate::board::{Bitboard, Color, Square};
use crate::error::BeliefError;
use crate::event::{Event, EventKind};
use crate::fact::Fact;
use crate::game::{Belief, Game};
use crate::outcome::EndReason;
use crate::view::View;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};

/// A seat's knowledge of a BS game.
#[derive(Clone, Debug)]
pub struct BsBelief {
    /// What the seat knows, as a draw reads it.
    pub(super) known: Known,
    witness: Bs,
}

impl Belief for BsBelief {
    type Game = Bs;

    fn from_view(view: &View<<Bs as Game>::Summary>) -> Result<Self, BeliefError> {
        let (view, revealed) = rules_view(view);
        let start: Bs = start_of(&view)?;
        let steps = skeleton(&view.events, start.rules.spy)?;
        let facts = public_lineage(&view.events)?;
        let known = Known {
            view,
            revealed,
            steps,
            facts,
        };
        // The witness is a sample found with a fixed generator: the same view, the same witness.
        let mut rng = StdRng::seed_from_u64(0x0b5_c4e55);
        let witness = draw(&known, &mut rng).ok_or_else(|| {
            BeliefError::impossible("no setup of the hidden pieces agrees with every call")
        })?;
        check_witness(&witness, &known.view, revealed)?;
        Ok(BsBelief { known, witness })
    }

    fn view(&self) -> &View<<Bs as Game>::Summary> {
        &self.known.view
    }

    fn witness(&self) -> &Bs {
        &self.witness
    }

    fn revealed(&self) -> bool {
        self.known.revealed
    }

    fn sample(&self, rng: &mut dyn RngCore) -> Bs {
        // A draw fails only when many in a row contradict the view: the witness is consistent.
        draw(&self.known, rng).unwrap_or_else(|| self.witness.clone())
    }
}

/// Each action as the seat knows it, from the view's events.
fn skeleton(events: &[Event], spy: bool) -> Result<Vec<Step>, BeliefError> {
    let mut steps: Vec<Option<Step>> = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let index = event.action;
        if steps.len() <= index {
            steps.resize(index + 1, None);
        }
        let step = match (&event.kind, event.fact) {
            (EventKind::Sealed, Some(Fact::Sealed { .. })) => Step::HiddenSetup,
            (EventKind::Sealed, Some(Fact::Declared { from, to, .. })) => {
                Step::HiddenPromotion { from, to }
            }
            (EventKind::Action | EventKind::Reveal { .. }, _) => {
                let action = super::actions::parse(&event.text, spy).map_err(|e| {
                    BeliefError::impossible(format!("event {i} ({:?}): {e}", event.text))
                })?;
                Step::Known(action)
            }
            _ => continue,
        };
        // An actor's own text outranks the public form of the same action.
        let slot = &mut steps[index];
        if !matches!(slot, Some(Step::Known(_))) {
            *slot = Some(step);
        }
    }
    steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| {
            step.ok_or_else(|| BeliefError::impossible(format!("action {i} has no event")))
        })
        .collect()
}

/// The lineage of every piece and what the public record showed about it, read from the facts
/// of the view's events, action by action, as the rules apply them.
fn public_lineage(events: &[Event]) -> Result<Lineage, BeliefError> {
    let mut replay = PublicReplay::default();
    let mut start = 0;
    while start < events.len() {
        let index = events[start].action;
        let end = start
            + events[start..]
                .iter()
                .take_while(|e| e.action == index)
                .count();
        replay.action(&events[start..end])?;
        start = end;
    }
    Ok(replay.lineage)
}

/// The public part of a BS game: whose pieces stand where, and their lineage.
#[derive(Default)]
struct PublicReplay {
    lineage: Lineage,
    board: [Bitboard; 2],
    set_up: [bool; 2],
    /// The move waiting for its answer: mover, from, to, whether it declares a promotion.
    pending: Option<(Color, Square, Square, bool)>,
}

impl PublicReplay {
    /// Applies the events of one action.
    fn action(&mut self, events: &[Event]) -> Result<(), BeliefError> {
        let actor = events[0]
            .actor
            .color()
            .ok_or_else(|| BeliefError::impossible("Chance does not act in BS Chess"))?;
        let ended = events.iter().find_map(|e| match e.fact {
            Some(Fact::End { reason, .. }) => Some(reason),
            _ => None,
        });
        let facts: Vec<Fact> = events.iter().filter_map(|e| e.fact).collect();
        let missing = || BeliefError::impossible(format!("action {}: no fact", events[0].action));
        match facts.first().copied().ok_or_else(missing)? {
            Fact::Sealed { .. } | Fact::Setup => self.set_up(actor),
            Fact::Declared {
                from, to, promotes, ..
            } => self.pending = Some((actor, from, to, promotes)),
            Fact::Accept => self.carry_out(ended)?,
            Fact::Call => self.call(&facts, ended)?,
            Fact::Remove { square } => {
                let was_king = matches!(
                    ended,
                    Some(EndReason::KingRemoved | EndReason::LastPieceRemoved)
                );
                self.take_off(actor, square, was_king)?;
            }
            other => {
                return Err(BeliefError::impossible(format!(
                    "action {}: {other:?} is not a BS action",
                    events[0].action
                )))
            }
        }
        Ok(())
    }

    fn set_up(&mut self, color: Color) {
        if !std::mem::replace(&mut self.set_up[color.index()], true) {
            self.lineage.set_up(color);
            self.board[color.index()] = (0..16).map(|i| Setup::square(color, i)).collect();
        }
    }

    fn pending(&self) -> Result<(Color, Square, Square, bool), BeliefError> {
        self.pending
            .ok_or_else(|| BeliefError::impossible("an answer without a move to answer"))
    }

    /// A call: what it showed, then the move stands or the piece leaves the game.
    fn call(&mut self, facts: &[Fact], ended: Option<EndReason>) -> Result<(), BeliefError> {
        let (mover, from, to, _) = self.pending()?;
        let mut lawful = None;
        for fact in facts {
            match *fact {
                Fact::Shown {
                    square,
                    identity,
                    lawful: stood,
                } if square == from => {
                    self.lineage.record_identity(mover, from, identity);
                    lawful = Some(stood);
                }
                Fact::PawnClaim { square, was_pawn } if square == from => {
                    self.lineage.record_pawn_claim(mover, from, was_pawn);
                    lawful = Some(was_pawn);
                }
                Fact::SpyTarget { square, identity } if square == to => {
                    self.lineage.record_identity(!mover, to, identity);
                }
                _ => {}
            }
        }
        match lawful {
            Some(true) => self.carry_out(ended),
            Some(false) => {
                self.pending = None;
                self.take_off(mover, from, ended == Some(EndReason::KingRemoved))
            }
            None => Err(BeliefError::impossible("a call that showed nothing")),
        }
    }

    /// The pending move stands: a capture, the move, a promotion.
    fn carry_out(&mut self, ended: Option<EndReason>) -> Result<(), BeliefError> {
        let (mover, from, to, promotes) = self.pending()?;
        self.pending = None;
        if !self.board[mover.index()].contains(from) {
            return Err(BeliefError::impossible(format!(
                "no piece of {mover} on {from}"
            )));
        }
        if self.board[(!mover).index()].contains(to) {
            let was_king = ended == Some(EndReason::KingCaptured);
            self.take_off(!mover, to, was_king)?;
        }
        self.board[mover.index()] = self.board[mover.index()].without(from).with(to);
        self.lineage.moved(from, to);
        if promotes {
            self.lineage.promoted(mover, to);
        }
        Ok(())
    }

    fn take_off(
        &mut self,
        color: Color,
        square: Square,
        was_king: bool,
    ) -> Result<(), BeliefError> {
        if !self.board[color.index()].contains(square) {
            return Err(BeliefError::impossible(format!(
                "no piece of {color} on {square}"
            )));
        }
        self.board[color.index()] = self.board[color.index()].without(square);
        self.lineage.left_game(color, square, was_king);
        Ok(())
    }
}
