//! A game of Bluff-move Chess: the real pieces and their bluffs, history included, and how each
//! move is resolved.

use super::actions::Action;
use super::board::Board;
use super::kept::Kept;
use super::resolve::{Public, Resolution};
use crate::board::{Bitboard, Color, Role, Square};
use crate::event::EventKind;
use crate::log::Log;
use crate::outcome::{EndReason, Outcome};
use crate::repetition::PositionKeys;
use crate::seat::Audience;

/// Consecutive moves without a real piece leaving the game that draw.
pub const QUIET_MOVES_DRAW: u32 = 200;

/// A game of Bluff-move Chess: the board with every hidden piece, and the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BluffMove {
    /// The board the game started from.
    pub(super) start: Board,
    pub(super) board: Board,
    pub(super) log: Log<Action>,
    /// The keys of the public positions reached since a real piece last left the game (the
    /// start's included until then): those that may come back.
    pub(super) keys: PositionKeys,
    /// Consecutive moves without a real piece leaving the game.
    pub(super) quiet: u32,
    /// Every piece's input on `board`, kept up to date as actions change it.
    pub(super) kept: Kept,
}

impl BluffMove {
    /// A game from a given board (for tests and analysis).
    pub(super) fn from_board(board: Board) -> BluffMove {
        BluffMove {
            start: board,
            board,
            log: Log::new(),
            keys: PositionKeys::starting_at(board.public_key()),
            quiet: 0,
            kept: Kept::new(&board),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.turn
    }

    /// The real pieces of `color` (the truth).
    pub fn real_pieces(&self, color: Color) -> Vec<Square> {
        self.board.real[color.index()].into_iter().collect()
    }

    /// The type the piece on `sq` has (a real piece's, or a bluff's own), if any (the truth).
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.board.role(sq)
    }

    /// The squares of `color`'s real pieces (the truth).
    pub fn reals(&self, color: Color) -> Bitboard {
        self.board.real[color.index()]
    }

    /// The squares of every piece on the board, real or bluff, of both sides.
    pub fn occupied(&self) -> Bitboard {
        self.board.own(Color::White) | self.board.own(Color::Black)
    }

    /// The bluffs of `color`, each with the square of its real piece (the truth).
    pub fn bluffs(&self, color: Color) -> Vec<(Square, Square)> {
        self.board.bluffs[color.index()]
            .into_iter()
            .map(|b| (b, self.board.real_of(b)))
            .collect()
    }

    /// Consecutive moves without a real piece leaving the game.
    pub fn quiet_moves(&self) -> u32 {
        self.quiet
    }

    /// The events of an action: castling in the open; anything else sealed as its public form,
    /// with the mover's own text for the mover; then what it took and revealed.
    fn report(&mut self, mover: Color, action: Action, resolution: &Resolution) {
        let public = resolution.public;
        let own = Audience::only(mover);
        if let Public::Castle(_) = public {
            self.log.push_fact(
                mover,
                Audience::All,
                EventKind::Action,
                public,
                public.fact(),
            );
        } else {
            self.log.push_fact(
                mover,
                Audience::All,
                EventKind::Sealed,
                public,
                public.fact(),
            );
            self.log
                .push_fact(mover, own, EventKind::Action, action, action.fact());
        }
        for &capture in &resolution.captures {
            self.log.push_fact(
                mover,
                Audience::All,
                EventKind::Info,
                capture,
                capture.fact(),
            );
        }
        if let Some(destroyed) = resolution.destroyed {
            let fact = destroyed.fact();
            self.log
                .push_fact(mover, Audience::All, EventKind::Info, destroyed, fact);
        }
        if let Some(fact) = resolution.private.fact() {
            self.log
                .push_fact(mover, own, EventKind::Info, resolution.private, fact);
        }
    }

    /// How many times the current public position has stood since the last capture of a real
    /// piece: every real piece shows one image, so a position from before it (one image fewer
    /// since) cannot come back.
    pub(super) fn repetition_count(&self) -> usize {
        self.keys.times_last_stood()
    }

    /// How the rules end the game after `mover`'s action that did `resolution`, `stuck` saying
    /// whether the side to move now has no legal action.
    fn ending(&self, mover: Color, resolution: &Resolution, stuck: bool) -> Option<Outcome> {
        if resolution.took_king() {
            Some(Outcome::win(mover, EndReason::KingCaptured))
        } else if stuck {
            Some(Outcome::win(mover, EndReason::NoLegalMove))
        } else if self.quiet >= QUIET_MOVES_DRAW {
            Some(Outcome::draw(EndReason::NoRealCapture))
        } else if self.repetition_count() >= 5 {
            Some(Outcome::draw(EndReason::FivefoldRepetition))
        } else {
            None
        }
    }
}

impl BluffMove {
    /// The game after a history known to be legal (one a belief's search drew).
    pub(super) fn replayed(start: Board, history: &[Action]) -> BluffMove {
        let mut game = BluffMove::from_board(start);
        // About three events an action: grown once, not doubling.
        game.log.actions.reserve(history.len());
        game.log.events_mut().reserve(3 * history.len() + 1);
        game.keys.reserve(history.len());
        for &action in history {
            game.replay::<false>(action);
        }
        // Counted once at the end: kept up action by action, the input would cost more.
        game.kept = Kept::new(&game.board);
        game
    }

    /// Applies an action known to be legal, without judging it. With `KEEP` the kept input
    /// follows it; without, the caller counts it afresh once a whole history is replayed.
    pub(super) fn replay<const KEEP: bool>(&mut self, action: Action) {
        let mover = self.board.turn;
        let before = Kept::sets(&self.board);
        let resolution = super::resolve::play(&mut self.board, action);
        let stuck = match KEEP {
            true => {
                self.kept.update(&self.board, before, action);
                !self.kept.has_legal_action(&self.board)
            }
            false => !self.board.has_legal_action(),
        };
        // A playout's game records nothing: no event, and no call to work one out.
        if self.log.recording() != crate::log::Recording::Nothing {
            self.report(mover, action, &resolution);
        }
        self.log.push_action(action);
        self.quiet = if resolution.took_real() {
            0
        } else {
            self.quiet + 1
        };
        if self.quiet == 0 {
            self.keys.clear();
        }
        self.keys.push(self.board.public_key());
        if let Some(outcome) = self.ending(mover, &resolution, stuck) {
            let index = self.log.actions.len() - 1;
            self.log.end_at(index, outcome, mover.into());
        }
    }
}
