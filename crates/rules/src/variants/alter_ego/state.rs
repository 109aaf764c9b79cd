//! A game of Alter Ego Bluff Chess: the public position and the hidden egos, history included,
//! and how each action changes them.

use super::actions::Action;
use crate::board::{Bitboard, Color, Role, Square};
use crate::chess::{History, Move, MoveGroups, Position};
use crate::error::ActionError;
use crate::event::EventKind;
use crate::fact::{Fact, SealedKind};
use crate::log::Log;
use crate::outcome::{EndReason, Outcome};
use crate::seat::Audience;

/// Where in a turn the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phase {
    /// The side to move moves (or passes).
    Move,
    /// The side that just made a death move decides where its ego spends the opponent's turn.
    Decision {
        /// Where the turn piece stands.
        turn_piece: Square,
    },
}

/// A game of Alter Ego Bluff Chess: the public position and the hidden egos, history included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlterEgo {
    pub(super) history: History,
    /// The square of the piece holding each side's ego (the truth); none before its first move.
    pub(super) ego: [Option<Square>; 2],
    /// The piece each side must move on its next turn, after a transfer.
    pub(super) bound: [Option<Square>; 2],
    pub(super) phase: Phase,
    /// Each side's decision not yet revealed to the opponent (its action index).
    pub(super) sealed: [Option<usize>; 2],
    /// Whether the last move was a death move.
    pub(super) death_move: bool,
    /// The moves of the side to move on the board (only the bound piece's, if it is bound),
    /// generated once per move, by piece: listing, drawing, checking and judging the end all read
    /// them, and drawing one needs no list (see `random_legal_action`).
    pub(super) moves: MoveGroups,
    pub(super) log: Log<Action>,
}

impl AlterEgo {
    /// The public position.
    pub fn position(&self) -> &Position {
        self.history.position()
    }

    /// The square of the piece that holds `color`'s alter ego (the truth).
    pub fn ego(&self, color: Color) -> Option<Square> {
        self.ego[color.index()]
    }

    /// The last move on the board (not counting passes and decisions).
    pub(super) fn history_last_move(&self) -> Option<Move> {
        self.log.actions.iter().rev().find_map(|a| match a {
            Action::Move(mv) => Some(*mv),
            _ => None,
        })
    }

    /// The piece `color` must move on its next turn, if it transferred.
    pub fn bound(&self, color: Color) -> Option<Square> {
        self.bound[color.index()]
    }

    /// Who acts now, whether or not the game is over.
    pub(super) fn actor(&self) -> Color {
        match self.phase {
            Phase::Move => self.position().turn(),
            Phase::Decision { .. } => !self.position().turn(),
        }
    }

    /// The moves the side to move may make: all legal moves, or only the bound piece's.
    pub(super) fn legal_moves(&self) -> &MoveGroups {
        &self.moves
    }

    /// Generates [`AlterEgo::legal_moves`] for the position and bound reached.
    pub(super) fn refresh_moves(&mut self) {
        let pos = self.history.position();
        let bound = self.bound[pos.turn().index()];
        self.moves
            .generate_of(pos, bound.map_or(Bitboard::FULL, Bitboard::from));
    }

    /// Where the mover may transfer its ego after a death move: any other own piece.
    pub(super) fn transfers(&self, turn_piece: Square) -> Bitboard {
        self.position().by_color(self.actor()).without(turn_piece)
    }

    pub(super) fn play_move(&mut self, mv: Move) -> Result<(), ActionError> {
        if !self.legal_moves().contains(mv) {
            return Err(self.refusal(mv));
        }
        self.play_legal_move(mv);
        Ok(())
    }

    /// Plays `mv`, one of [`AlterEgo::legal_moves`].
    pub(super) fn play_legal_move(&mut self, mv: Move) {
        let mover = self.position().turn();
        let captured = self.position().captured_square(mv);
        let fact = Fact::of_move(self.position(), mv);
        self.log
            .push_fact(mover, Audience::All, EventKind::Action, mv, fact);
        if self.log.keeps_events() {
            let san = crate::chess::san::write(self.position(), mv);
            self.log.note(san);
        }
        self.reveal(!mover);
        self.history.play_unchecked(mv);
        self.ego[mover.index()] = Some(mv.to);
        self.bound[mover.index()] = None;
        self.death_move = false;
        self.refresh_moves();
        if captured.is_some() && captured == self.ego[(!mover).index()] {
            return self.end(Outcome::win(mover, EndReason::EgoCaptured), mover);
        }
        if let Some(outcome) = self.ending() {
            return self.end(outcome, mover);
        }
        if self.is_death_move(mv.to) {
            self.death_move = true;
            let fact = Fact::DeathMove { turn_piece: mv.to };
            self.log
                .push_fact(mover, Audience::All, EventKind::Info, "death move", fact);
            self.phase = Phase::Decision { turn_piece: mv.to };
        }
    }

    /// Whether the side to move can capture the piece on `turn_piece` with a move of its next
    /// turn (moving only its bound piece if it is bound): the last move was a death move.
    fn is_death_move(&self, turn_piece: Square) -> bool {
        self.moves.reach(turn_piece, self.position().ep_square())
    }

    fn refusal(&self, mv: Move) -> ActionError {
        let pos = self.position();
        match self.bound[pos.turn().index()] {
            Some(b) if b != mv.from => ActionError::illegal(
                mv,
                format!("your alter ego was transferred to the piece on {b}: it must be this turn's piece"),
            ),
            _ => match crate::variants::chess::explain_illegal(pos, mv) {
                Err(e) => e,
                Ok(()) => ActionError::illegal(mv, "not a legal move now"),
            },
        }
    }

    pub(super) fn decide(&mut self, action: Action, turn_piece: Square) -> Result<(), ActionError> {
        let open = match action {
            Action::Transfer(square) => self.transfers(turn_piece).contains(square),
            _ => true,
        };
        if !open {
            return Err(ActionError::illegal(
                action,
                format!(
                    "transfer to another of your own pieces (not the turn piece on {turn_piece})"
                ),
            ));
        }
        let mover = self.actor();
        self.sealed[mover.index()] = Some(self.log.actions.len());
        if let Action::Transfer(sq) = action {
            self.ego[mover.index()] = Some(sq);
            self.bound[mover.index()] = Some(sq);
        }
        let sealed = Fact::Sealed {
            kind: SealedKind::Decision,
        };
        self.log
            .push_fact(mover, Audience::All, EventKind::Sealed, "decision", sealed);
        let fact = decision_fact(action);
        self.log.push_fact(
            mover,
            Audience::only(mover),
            EventKind::Action,
            action,
            fact,
        );
        self.phase = Phase::Move;
        Ok(())
    }

    pub(super) fn pass(&mut self) -> Result<(), ActionError> {
        if !self.legal_moves().is_empty() || self.bound[self.position().turn().index()].is_none() {
            return Err(ActionError::illegal(
                "pass",
                "a pass is only for a bound piece that cannot move",
            ));
        }
        let mover = self.position().turn();
        self.log
            .push_fact(mover, Audience::All, EventKind::Action, "pass", Fact::Pass);
        self.reveal(!mover);
        self.bound[mover.index()] = None;
        self.death_move = false;
        self.history.pass_unchecked();
        self.refresh_moves();
        if let Some(outcome) = self.ending() {
            self.end(outcome, mover);
        }
        Ok(())
    }

    /// Makes `color`'s sealed decision public (its opponent has just acted).
    fn reveal(&mut self, color: Color) {
        if let Some(index) = self.sealed[color.index()].take() {
            let decision = self.log.actions[index];
            let kind = EventKind::Reveal { action: index };
            let fact = decision_fact(decision);
            self.log
                .push_fact(color, Audience::All, kind, decision, fact);
        }
    }

    fn end(&mut self, outcome: Outcome, actor: Color) {
        self.log.end(outcome, actor.into());
    }

    /// How the rules end the game in the position reached, with the side to move to act.
    pub(super) fn ending(&self) -> Option<Outcome> {
        let pos = self.position();
        let side = pos.turn();
        if self.legal_moves().is_empty() {
            let bound = self.bound[side.index()].is_some();
            if pos.is_check() {
                let reason = if bound {
                    EndReason::EmptyMate
                } else {
                    EndReason::Checkmate
                };
                return Some(Outcome::win(!side, reason));
            }
            if !pos.has_legal_moves() {
                return Some(Outcome::draw(EndReason::Stalemate));
            }
        }
        let kings_only = (pos.occupied() - pos.by_role(Role::King)).is_empty();
        if kings_only {
            Some(Outcome::draw(EndReason::BareKings))
        } else if pos.halfmove_clock() >= 150 {
            Some(Outcome::draw(EndReason::SeventyFiveMoveRule))
        } else if self.history.repetitions() >= 5 {
            Some(Outcome::draw(EndReason::FivefoldRepetition))
        } else {
            None
        }
    }
}

/// What a stay-or-transfer decision says, as data.
fn decision_fact(decision: Action) -> Fact {
    match decision {
        Action::Transfer(to) => Fact::Transfer { to },
        _ => Fact::Stay,
    }
}
