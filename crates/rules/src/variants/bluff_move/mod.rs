//! Bluff-move Chess (`bluff-move`): every real piece may have one bluff, a decoy of its type that
//! the opponent cannot tell from a real piece. A turn moves a real piece, moves a bluff, or makes
//! a bluff move (a new bluff leaves the real piece's square; the real piece stays). Legal input is
//! judged on the mover's own pieces only; what hidden enemy pieces do to a move is resolved square
//! by square along its path. Capturing the enemy real king wins.
//!
//! ```
//! use bluffchess_rules::{BluffMove, Game, Options, Seat};
//! let mut game = BluffMove::new(&Options::new())?;
//! // White sends a bluff of the e2 pawn to e4: Black sees a pawn's image go e2-e4.
//! for text in ["bluff e2e4", "d7d5", "e4d5"] {
//!     game.apply_text(text)?;
//! }
//! // The bluff took on d5, met a real pawn there, and died, which shows the real pawn on e2.
//! let black = game.view(Seat::Black);
//! assert!(black.events.last().unwrap().text.starts_with("the bluff died on d5"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod actions;
mod belief;
mod board;
mod input;
mod kept;
mod lookahead;
mod record;
mod resample;
mod resolve;
#[cfg(test)]
mod tests;
mod view;

pub use actions::Action;
pub use belief::BluffMoveBelief;
pub use view::{BluffMoveSummary, BluffView};

use crate::belief::Belief;
use crate::board::{Bitboard, Color, Role, Square};
use crate::game::{
    ActionError, Actor, Audience, EndReason, EventKind, Game, OptionError, Options, Outcome, Seat,
};
use crate::log::Log;
use crate::spec::{ActionForm, VariantSpec};
use board::Board;
use input::Input;
use kept::Kept;
use rand::RngCore;
use resolve::{Public, Resolution};

/// Consecutive moves without a real piece leaving the game that draw.
pub const QUIET_MOVES_DRAW: u32 = 200;

/// A game of Bluff-move Chess: the board with every hidden piece, and the history.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BluffMove {
    /// The board the game started from.
    start: Board,
    board: Board,
    log: Log<Action>,
    /// The key of every public position reached, the start included.
    keys: Vec<u64>,
    /// Consecutive moves without a real piece leaving the game.
    quiet: u32,
    /// Every piece's input on `board`, kept up to date as actions change it.
    kept: Kept,
}

impl BluffMove {
    /// A game from a given board (for tests and analysis).
    fn from_board(board: Board) -> BluffMove {
        BluffMove {
            start: board,
            board,
            log: Log::new(),
            keys: vec![board.public_key()],
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
    fn repetition_count(&self) -> usize {
        let window = (self.quiet as usize + 1).min(self.keys.len());
        crate::game::times_last_stood(&self.keys[self.keys.len() - window..])
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

impl Game for BluffMove {
    fn repetitions(&self) -> usize {
        self.repetition_count()
    }

    type Action = Action;
    type Summary = BluffMoveSummary;
    type Belief = BluffMoveBelief;

    const SPEC: VariantSpec = VariantSpec {
        id: "bluff-move",
        name: "Bluff-move Chess",
        summary: "A real piece may send out a bluffed copy; the enemy sees one image per piece.",
        rules: include_str!("../../../../../docs/rules/bluff-move.md"),
        options: &[],
        actions: &[
            ActionForm::new("e4e5", "move a real piece or one of your bluffs, in UCI from its square (seen as the image's move, e2e4, or pass when no image changed)"),
            ActionForm::new("e7e8q", "a promotion: add the new piece's letter, q, r, b or n"),
            ActionForm::new("e1g1", "castling, as the king's move (open: the opponent sees it)"),
            ActionForm::new("bluff e2e4", "a bluff move: a bluffed copy of the piece on e2 goes to e4 (bluff e7e8n promotes)"),
        ],
    };

    fn new(options: &Options) -> Result<BluffMove, OptionError> {
        Self::SPEC.read_options(options)?;
        Ok(BluffMove::from_board(Board::start()))
    }

    fn options(&self) -> Options {
        Options::new()
    }

    fn to_act(&self) -> Option<Actor> {
        match self.log.outcome {
            Some(_) => None,
            None => Some(self.board.turn.into()),
        }
    }

    fn legal_actions(&self) -> Vec<Action> {
        match self.log.outcome {
            Some(_) => Vec::new(),
            None => self.board.legal_actions(),
        }
    }

    fn legal_actions_into(&self, actions: &mut Vec<Action>) {
        actions.clear();
        if self.log.outcome.is_none() {
            Input::of(&self.board).list_into(actions);
        }
    }

    fn random_legal_action(&self, rng: &mut dyn RngCore, _: &mut Vec<Action>) -> Option<Action> {
        if self.log.outcome.is_some() {
            return None;
        }
        // Counted, not listed: the listing's draw, without the list.
        self.kept.draw(&self.board, rng)
    }

    fn parse_action(&self, text: &str) -> Result<Action, ActionError> {
        actions::parse(text)
    }

    fn apply(&mut self, action: &Action) -> Result<(), ActionError> {
        if self.log.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        let targets = |from| self.kept.targets(&self.board, from);
        if let Some(reason) = self.board.refusal_with(*action, targets) {
            return Err(ActionError::illegal(action, reason));
        }
        self.replay::<true>(*action);
        Ok(())
    }

    crate::log::log_accessors!();

    fn summary(&self, seat: Seat, revealed: bool) -> BluffMoveSummary {
        BluffMoveSummary::of(self, seat, revealed)
    }
}

impl BluffMove {
    /// The game after a history known to be legal (one a belief's search drew).
    fn replayed(start: Board, history: &[Action]) -> BluffMove {
        let mut game = BluffMove::from_board(start);
        // About three events an action: grown once, not doubling.
        game.log.actions.reserve(history.len());
        game.log.events.reserve(3 * history.len() + 1);
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
    fn replay<const KEEP: bool>(&mut self, action: Action) {
        let mover = self.board.turn;
        let before = Kept::sets(&self.board);
        let resolution = resolve::play(&mut self.board, action);
        let stuck = match KEEP {
            true => {
                self.kept.update(&self.board, before, action.mv().to);
                !self.kept.has_legal_action(&self.board)
            }
            false => !self.board.has_legal_action(),
        };
        self.report(mover, action, &resolution);
        self.log.push_action(action);
        self.quiet = if resolution.took_real() {
            0
        } else {
            self.quiet + 1
        };
        self.keys.push(self.board.public_key());
        if let Some(outcome) = self.ending(mover, &resolution, stuck) {
            let index = self.log.actions.len() - 1;
            self.log.end_at(index, outcome, mover.into());
        }
    }

    /// Like [`Game::resample`], also returning the log of the sample's importance weight (see
    /// [`BluffMoveBelief::sample_weighted`]); drawn from the seat's view alone.
    pub fn resample_weighted(&self, seat: Seat, rng: &mut dyn RngCore) -> (BluffMove, f64) {
        BluffMoveBelief::from_view(&self.view(seat))
            .unwrap_or_else(|e| panic!("the rules' own view is believable: {e}"))
            .sample_weighted(rng)
    }
}
