//! A game of Ambiguous Chess: the position, the named square waiting for its pick, and how each
//! action changes them.

use super::actions::Action;
use super::candidates::{self, Picks};
use crate::board::attacks::pawn_attacks;
use crate::board::{Bitboard, Color, Role, Square};
use crate::chess::{Move, Position};
use crate::error::ActionError;
use crate::event::EventKind;
use crate::fact::Fact;
use crate::log::Log;
use crate::options::{OptionError, Options};
use crate::outcome::{EndReason, Outcome};
use crate::repetition::PositionKeys;
use crate::seat::Audience;
use crate::spec::OptionValues;
use std::fmt::Display;

/// The rules options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// Note 1's checkmate: a side that cannot keep its king safe loses at once.
    pub checkmate: bool,
    /// With `checkmate`: the same trap out of check is a draw instead of a loss.
    pub stalemate_draw: bool,
}

impl Rules {
    pub(super) fn from_values(values: &OptionValues) -> Result<Rules, OptionError> {
        let rules = Rules {
            checkmate: values.flag("checkmate"),
            stalemate_draw: values.value("stalemate") == "draw",
        };
        if rules.stalemate_draw && !rules.checkmate {
            return Err(OptionError {
                name: "stalemate".into(),
                reason: "stalemate=draw needs checkmate=true".into(),
            });
        }
        Ok(rules)
    }

    pub(super) fn options(self) -> Options {
        Options::from([
            ("checkmate".to_string(), self.checkmate.to_string()),
            (
                "stalemate".to_string(),
                if self.stalemate_draw { "draw" } else { "loss" }.to_string(),
            ),
        ])
    }
}

/// Where in a turn the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phase {
    /// The side to move names a square.
    Name,
    /// Its opponent picks one of these moves to the named square.
    Pick(Picks),
}

/// A game of Ambiguous Chess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ambiguous {
    pub(super) rules: Rules,
    pub(super) position: Position,
    /// The square a pawn passed with a double step on the last move.
    pub(super) passed: Option<Square>,
    pub(super) phase: Phase,
    pub(super) last_move: Option<Move>,
    /// Keys of the positions where a square was to be named, since the last capture or pawn move.
    pub(super) repetitions: PositionKeys,
    /// The squares the side to move may name (see `candidates.rs`).
    pub(super) destinations: Bitboard,
    pub(super) log: Log<Action>,
}

impl Ambiguous {
    /// The board.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The last move played (a pick, or a named square's only move).
    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    pub(super) fn destinations(&self) -> Bitboard {
        self.destinations
    }

    /// Finds the squares the side to move may name, once per move.
    pub(super) fn refresh_destinations(&mut self) {
        self.destinations = candidates::destinations(&self.position, self.passed);
    }

    /// The key of the current position for the repetition rule: the board, the side to move and
    /// a possible en passant capture.
    pub(super) fn key(&self) -> u64 {
        let ep = self.passed.filter(|&sq| {
            let capturers = pawn_attacks(!self.position.turn(), sq);
            (capturers & self.position.pieces(self.position.turn(), Role::Pawn)).any()
        });
        self.position.hash()
            ^ ep.map_or(0, |sq| {
                0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(sq.index() as u64 + 1)
            })
    }

    fn push_fact(&mut self, actor: Color, kind: EventKind, text: impl Display, fact: Fact) {
        self.log.push_fact(actor, Audience::All, kind, text, fact);
    }

    pub(super) fn name(&mut self, square: Square) -> Result<(), ActionError> {
        let moves = candidates::to(&self.position, self.passed, square);
        if moves.is_empty() {
            return Err(ActionError::illegal(
                square,
                format!("none of your pieces can move to {square}"),
            ));
        }
        let mover = self.position.turn();
        self.push_fact(mover, EventKind::Action, square, Fact::Name { square });
        if let [only] = moves.as_slice() {
            let fact = Fact::of_move(&self.position, *only);
            self.push_fact(mover, EventKind::Info, only, fact);
            if self.log.keeps_events() {
                self.log
                    .note(crate::chess::san::long(&self.position, *only));
            }
            self.play(*only);
        } else {
            self.phase = Phase::Pick(moves);
        }
        Ok(())
    }

    /// Plays `mv`, one of the moves to the named square (checked against the phase's list).
    pub(super) fn pick(&mut self, mv: Move) -> Result<(), ActionError> {
        let Phase::Pick(moves) = &self.phase else {
            unreachable!("a pick is played in the pick phase");
        };
        if !moves.contains(&mv) {
            let list: Vec<String> = moves.iter().map(ToString::to_string).collect();
            return Err(ActionError::illegal(
                mv,
                format!("pick one of {}", list.join(", ")),
            ));
        }
        let fact = Fact::of_move(&self.position, mv);
        self.push_fact(!self.position.turn(), EventKind::Action, mv, fact);
        if self.log.keeps_events() {
            self.log.note(crate::chess::san::long(&self.position, mv));
        }
        self.play(mv);
        Ok(())
    }

    /// Plays the chosen move and judges the position it reaches.
    fn play(&mut self, mv: Move) {
        let mover = self.position.turn();
        let king_taken = self.position.pieces(!mover, Role::King).contains(mv.to);
        let irreversible = self.position.occupied().contains(mv.to)
            || self.position.pieces(mover, Role::Pawn).contains(mv.from);
        self.position.play_unchecked(mv);
        self.last_move = Some(mv);
        let double_step = self.position.pieces(mover, Role::Pawn).contains(mv.to)
            && mv.from.index().abs_diff(mv.to.index()) == 16;
        self.passed =
            double_step.then(|| Square::new(((mv.from.index() + mv.to.index()) / 2) as u32));
        self.phase = Phase::Name;
        self.refresh_destinations();
        if king_taken {
            return self.end(Outcome::win(mover, EndReason::KingCaptured), mover);
        }
        if irreversible {
            self.repetitions.clear();
        }
        self.repetitions.push(self.key());
        if let Some(outcome) = self.ending() {
            self.end(outcome, mover);
        }
    }

    fn end(&mut self, outcome: Outcome, actor: Color) {
        self.log.end(outcome, actor.into());
    }

    /// How the rules end the game when a square is to be named.
    pub(super) fn ending(&self) -> Option<Outcome> {
        let side = self.position.turn();
        if self.destinations.is_empty() {
            return Some(Outcome::win(!side, EndReason::NoDestination));
        }
        if self.rules.checkmate && super::mate::is_trapped(&self.position, self.passed) {
            return Some(if self.position.is_check() {
                Outcome::win(!side, EndReason::Checkmate)
            } else if self.rules.stalemate_draw {
                Outcome::draw(EndReason::Stalemate)
            } else {
                Outcome::win(!side, EndReason::Stalemate)
            });
        }
        if self.position.halfmove_clock() >= 150 {
            Some(Outcome::draw(EndReason::SeventyFiveMoveRule))
        } else if self.repetition_count() >= 5 {
            Some(Outcome::draw(EndReason::FivefoldRepetition))
        } else {
            None
        }
    }

    pub(super) fn repetition_count(&self) -> usize {
        self.repetitions.times_last_stood()
    }
}
