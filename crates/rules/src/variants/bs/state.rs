//! A game of BS Chess: the board, what every piece really is, the move waiting for its answer,
//! history included, and how each action changes them.

use super::actions::Action;
use super::identity::{input_targets, is_legal_for, is_pawn_move, Placement};
use super::known::{Known, KnownSquares};
use super::lineage::Lineage;
use super::setup::Setup;
use crate::board::identity::Identity;
use crate::board::{Bitboard, Color, Square};
use crate::error::ActionError;
use crate::event::EventKind;
use crate::fact::{Fact, SealedKind};
use crate::game::draw_index;
use crate::log::{mix, Log};
use crate::outcome::{EndReason, Outcome};
use crate::repetition::PositionKeys;
use crate::seat::Audience;
use crate::spec::OptionValues;
use arrayvec::ArrayVec;
use rand::RngCore;

/// The types a promotion may declare (at most the four a pawn may become).
pub(super) type PromotionTypes = ArrayVec<Identity, 4>;

/// Moves without a piece leaving the game after which the game is drawn.
const NO_PROGRESS_LIMIT: u32 = 200;

/// The rules options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    /// A player may replace one pawn with a spy at setup.
    pub spy: bool,
}

impl Rules {
    pub(super) fn from_values(values: &OptionValues) -> Rules {
        Rules {
            spy: values.flag("spy"),
        }
    }
}

/// A move waiting for its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Pending {
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) promotion: Option<Identity>,
}

/// Where in a turn the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phase {
    /// White, then Black, arranges its pieces.
    Setup,
    /// The side to move moves.
    Move,
    /// The opponent answers the move: call or accept.
    Answer(Pending),
    /// The caller of a lawful move removes one of its own pieces.
    Remove,
}

/// A game of BS Chess: the truth (every identity), history included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bs {
    pub(super) rules: Rules,
    pub(super) board: Placement,
    pub(super) identity: [Option<Identity>; 64],
    pub(super) known: KnownSquares,
    /// Each side's lost pieces (captured or removed), by identity: its promotion pool.
    pub(super) pools: [Vec<Identity>; 2],
    /// Where each piece came from, and what the public record implies about it.
    pub(super) lineage: Lineage,
    pub(super) phase: Phase,
    /// The side whose move it is (during an answer or removal: the side that moved).
    pub(super) turn: Color,
    /// Moves in a row without a piece leaving the game.
    pub(super) quiet_moves: u32,
    /// Keys of the public positions since a piece last left the game.
    pub(super) repetitions: PositionKeys,
    pub(super) log: Log<Action>,
}

impl Bs {
    /// The rules options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// What the piece on `sq` really is.
    pub fn identity(&self, sq: Square) -> Option<Identity> {
        self.identity[sq.index()]
    }

    /// `color`'s lost pieces, which promotions may bring back.
    pub fn pool(&self, color: Color) -> &[Identity] {
        &self.pools[color.index()]
    }

    /// The squares of `color`'s pieces.
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.board.of(color)
    }

    /// Who acts now, whether or not the game is over.
    pub(super) fn actor(&self) -> Color {
        match self.phase {
            Phase::Setup if self.log.actions.is_empty() => Color::White,
            Phase::Setup => Color::Black,
            Phase::Move => self.turn,
            Phase::Answer(_) | Phase::Remove => !self.turn,
        }
    }

    /// The moves of the side to move, from its own knowledge: every move some piece type could
    /// make, and promotions it may declare.
    pub(super) fn legal_moves(&self, moves: &mut Vec<Action>) {
        let mut types = None;
        for from in self.board.of(self.turn) {
            let targets = input_targets(self.turn, from, &self.board);
            self.piece_moves(from, targets, &mut types, moves);
        }
    }

    /// The moves of the piece on `from` to its `targets`, in the list's order: each target,
    /// then the promotions it may declare there. `types`: the pool's promotion types, read once
    /// when first needed.
    fn piece_moves(
        &self,
        from: Square,
        targets: Bitboard,
        types: &mut Option<PromotionTypes>,
        moves: &mut Vec<Action>,
    ) {
        for to in targets {
            let promotion = None;
            moves.push(Action::Move {
                from,
                to,
                promotion,
            });
            if self.may_declare(from, to) {
                let types = types.get_or_insert_with(|| self.promotion_types());
                moves.extend(types.iter().map(|&t| Action::Move {
                    from,
                    to,
                    promotion: Some(t),
                }));
            }
        }
    }

    /// How many moves [`Bs::piece_moves`] lists for the piece on `from` to its `targets`.
    fn piece_move_count(
        &self,
        from: Square,
        targets: Bitboard,
        types: &mut Option<PromotionTypes>,
    ) -> usize {
        let mut count = targets.count() as usize;
        // Promotions are declared by a pawn's move onto the last rank, so only from the rank
        // before it (`may_declare` says which of its targets).
        let promoting = targets & Bitboard::BACKRANKS;
        if from.rank().relative_to(self.turn).index() == 6 && promoting.any() {
            let declared = promoting
                .into_iter()
                .filter(|&to| self.may_declare(from, to));
            let k = types.get_or_insert_with(|| self.promotion_types()).len();
            count += k * declared.count();
        }
        count
    }

    /// A move drawn as a uniform draw over [`Bs::legal_moves`]'s list draws it (the same count,
    /// the same index): each piece's moves are counted, and the drawn piece's are read from its
    /// targets, or listed (into `listed`) when promotions are among them.
    pub(super) fn draw_move(
        &self,
        rng: &mut dyn RngCore,
        listed: &mut Vec<Action>,
    ) -> Option<Action> {
        let mut types = None;
        let mut pieces: ArrayVec<(Square, Bitboard, usize), 64> = ArrayVec::new();
        for from in self.board.of(self.turn) {
            let targets = input_targets(self.turn, from, &self.board);
            let count = self.piece_move_count(from, targets, &mut types);
            pieces.push((from, targets, count));
        }
        let total = pieces.iter().map(|&(_, _, count)| count).sum();
        let mut index = draw_index(rng, total)?;
        let &(from, targets, count) = pieces.iter().find(|&&(_, _, count)| {
            let here = index < count;
            if !here {
                index -= count;
            }
            here
        })?;
        if count == targets.count() as usize {
            // No promotion among them: the list is the targets in order.
            let to = targets.into_iter().nth(index)?;
            let promotion = None;
            return Some(Action::Move {
                from,
                to,
                promotion,
            });
        }
        listed.clear();
        self.piece_moves(from, targets, &mut types, listed);
        listed.get(index).copied()
    }

    /// Whether the side to move may declare a promotion with `from -> to`: a pawn-type move onto
    /// the last rank by a piece that is not its king.
    fn may_declare(&self, from: Square, to: Square) -> bool {
        let us = self.turn;
        to.rank().relative_to(us).index() == 7
            && self.identity[from.index()] != Some(Identity::King)
            && is_pawn_move(us, from, to, &self.board)
    }

    /// The types the side to move's pool offers for a promotion, each once, in type order.
    pub(super) fn promotion_types(&self) -> PromotionTypes {
        let pool = &self.pools[self.turn.index()];
        Identity::ALL
            .into_iter()
            .filter(|t| t.can_be_promoted_to() && pool.contains(t))
            .collect()
    }

    pub(super) fn set_up(&mut self, setup: Setup) {
        let color = self.actor();
        for (sq, identity) in setup.placements(color) {
            self.board.0[color.index()] |= sq;
            self.identity[sq.index()] = Some(identity);
        }
        self.lineage.set_up(color);
        let sealed = Fact::Sealed {
            kind: SealedKind::Setup,
        };
        self.log
            .push_fact(color, Audience::All, EventKind::Sealed, "setup", sealed);
        let own = Audience::only(color);
        let text = Action::Setup(setup);
        self.log
            .push_fact(color, own, EventKind::Action, text, Fact::Setup);
        if color == Color::Black {
            self.phase = Phase::Move;
            self.start_turn();
        }
    }

    /// Whether the side to move may make `action` (checked without listing every move).
    fn is_legal_move(&self, action: Action) -> bool {
        let Action::Move {
            from,
            to,
            promotion,
        } = action
        else {
            return false;
        };
        let us = self.turn;
        self.board.of(us).contains(from)
            && input_targets(us, from, &self.board).contains(to)
            && promotion.is_none_or(|t| {
                self.may_declare(from, to)
                    && t.can_be_promoted_to()
                    && self.pools[us.index()].contains(&t)
            })
    }

    /// Whether the side to move has any move at all.
    fn has_legal_move(&self) -> bool {
        let us = self.turn;
        self.board
            .of(us)
            .into_iter()
            .any(|from| input_targets(us, from, &self.board).any())
    }

    pub(super) fn declare_move(&mut self, action: Action) -> Result<(), ActionError> {
        if !self.is_legal_move(action) {
            return Err(self.refusal(action));
        }
        self.declare_legal_move(action);
        Ok(())
    }

    /// Declares `action`, a move the side to move may make.
    pub(super) fn declare_legal_move(&mut self, action: Action) {
        let Action::Move {
            from,
            to,
            promotion,
        } = action
        else {
            unreachable!("only moves are declared");
        };
        let mover = self.turn;
        let fact = Fact::Declared {
            from,
            to,
            promotes: promotion.is_some(),
        };
        match promotion {
            None => self
                .log
                .push_fact(mover, Audience::All, EventKind::Action, action, fact),
            Some(_) => {
                let public = format_args!("{from}{to}=?");
                self.log
                    .push_fact(mover, Audience::All, EventKind::Sealed, public, fact);
                let own = Audience::only(mover);
                self.log
                    .push_fact(mover, own, EventKind::Action, action, fact);
            }
        }
        self.phase = Phase::Answer(Pending {
            from,
            to,
            promotion,
        });
    }

    fn refusal(&self, action: Action) -> ActionError {
        let Action::Move {
            from,
            to,
            promotion,
        } = action
        else {
            return ActionError::illegal(action, "not a legal action now");
        };
        let us = self.turn;
        let reason = if !self.board.of(us).contains(from) {
            format!("you have no piece on {from}")
        } else if !input_targets(us, from, &self.board).contains(to) {
            format!("no chess piece could move from {from} to {to} on this board")
        } else if promotion.is_some() && !self.may_declare(from, to) {
            "a promotion needs a pawn's move onto the last rank, by a piece that is not your king"
                .into()
        } else {
            "that type is not in your pool of lost pieces".into()
        };
        ActionError::illegal(action, reason)
    }

    /// Whether the pending move is lawful for the piece that made it.
    fn is_lawful(&self, pending: Pending) -> bool {
        let identity = self.identity[pending.from.index()].expect("a piece moved");
        if pending.promotion.is_some() {
            return identity == Identity::Pawn;
        }
        let captured = self.identity[pending.to.index()];
        is_legal_for(
            identity,
            self.turn,
            pending.from,
            pending.to,
            &self.board,
            captured,
        )
    }

    pub(super) fn accept(&mut self, pending: Pending) {
        let answerer = !self.turn;
        self.log.push_fact(
            answerer,
            Audience::All,
            EventKind::Action,
            "accept",
            Fact::Accept,
        );
        let captured = self.carry_out(pending);
        if captured == Some(Identity::King) {
            self.end(Outcome::win(self.turn, EndReason::KingCaptured), answerer);
        } else {
            self.pass_turn(captured.is_some() || pending.promotion.is_some());
        }
    }

    pub(super) fn call(&mut self, pending: Pending) {
        let caller = !self.turn;
        let mover = self.turn;
        self.log
            .push_fact(caller, Audience::All, EventKind::Action, "call", Fact::Call);
        let lawful = self.is_lawful(pending);
        self.announce_call(pending, lawful);
        if lawful {
            if self.carry_out(pending) == Some(Identity::King) {
                return self.end(Outcome::win(mover, EndReason::KingCaptured), caller);
            }
            self.phase = Phase::Remove;
        } else {
            let identity = self.take_off(pending.from);
            if identity == Identity::King {
                return self.end(Outcome::win(caller, EndReason::KingRemoved), caller);
            }
            self.pass_turn(true);
        }
    }

    /// Tells both seats what the call showed, and keeps it public.
    fn announce_call(&mut self, pending: Pending, lawful: bool) {
        let mover = self.turn;
        let identity = self.identity[pending.from.index()].expect("a piece moved");
        let verdict = if lawful { "lawful" } else { "not lawful" };
        let square = pending.from;
        if pending.promotion.is_some() {
            let was_pawn = identity == Identity::Pawn;
            let was = if was_pawn { "was" } else { "was not" };
            self.lineage.record_pawn_claim(mover, square, was_pawn);
            let text = format_args!("the piece on {square} {was} a pawn: the move is {verdict}");
            let fact = Fact::PawnClaim { square, was_pawn };
            self.log
                .push_fact(mover, Audience::All, EventKind::Info, text, fact);
        } else {
            self.known.set(square, Some(Known::Identity(identity)));
            self.lineage.record_identity(mover, square, identity);
            let text = format_args!("the piece on {square} is a {identity}: the move is {verdict}");
            let fact = Fact::Shown {
                square,
                identity,
                lawful,
            };
            self.log
                .push_fact(mover, Audience::All, EventKind::Info, text, fact);
        }
        let spy_capture = identity == Identity::Spy
            && self.board.of(!mover).contains(pending.to)
            && !is_pawn_move(mover, pending.from, pending.to, &self.board);
        if spy_capture {
            let target = self.identity[pending.to.index()].expect("a captured piece");
            self.known.set(pending.to, Some(Known::Identity(target)));
            self.lineage.record_identity(!mover, pending.to, target);
            let square = pending.to;
            let text = format_args!("the spy's target on {square} is a {target}");
            let fact = Fact::SpyTarget {
                square,
                identity: target,
            };
            self.log
                .push_fact(mover, Audience::All, EventKind::Info, text, fact);
        }
    }

    /// Plays the pending move on the board: the capture stands, a declared promotion exchanges
    /// the piece for the declared type from the pool. Returns what was captured.
    fn carry_out(&mut self, pending: Pending) -> Option<Identity> {
        let mover = self.turn;
        let captured = self
            .board
            .of(!mover)
            .contains(pending.to)
            .then(|| self.take_off(pending.to));
        let identity = self.identity[pending.from.index()].take();
        self.board.0[mover.index()] ^= Bitboard::from(pending.from) | pending.to;
        self.identity[pending.to.index()] = identity;
        let known = self.known.take(pending.from);
        self.known.set(pending.to, known);
        self.lineage.moved(pending.from, pending.to);
        if let Some(promoted) = pending.promotion {
            let pool = &mut self.pools[mover.index()];
            let slot = pool
                .iter()
                .position(|&t| t == promoted)
                .expect("declared from the pool");
            pool.swap_remove(slot);
            pool.push(identity.expect("a piece moved"));
            self.identity[pending.to.index()] = Some(promoted);
            self.known.set(pending.to, Some(Known::Promoted));
            self.lineage.promoted(mover, pending.to);
            let square = pending.to;
            let text = format_args!("promotion on {square}");
            self.log.push_fact(
                mover,
                Audience::All,
                EventKind::Info,
                text,
                Fact::Promoted { square },
            );
        }
        if captured.is_some() {
            let square = pending.to;
            let text = format_args!("capture on {square}");
            self.log.push_fact(
                mover,
                Audience::All,
                EventKind::Info,
                text,
                Fact::Captured { square },
            );
        }
        captured
    }

    /// Takes the piece on `sq` off the board into its owner's pool.
    fn take_off(&mut self, sq: Square) -> Identity {
        let color = if self.board.of(Color::White).contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        let identity = self.identity[sq.index()]
            .take()
            .expect("a piece to take off");
        self.board.0[color.index()] ^= sq;
        self.known.set(sq, None);
        self.pools[color.index()].push(identity);
        self.lineage
            .left_game(color, sq, identity == Identity::King);
        identity
    }

    pub(super) fn remove(&mut self, sq: Square) -> Result<(), ActionError> {
        let caller = !self.turn;
        if !self.board.of(caller).contains(sq) {
            return Err(ActionError::illegal(
                Action::Remove(sq),
                format!("you have no piece on {sq}"),
            ));
        }
        let lone_king = self.board.of(caller).count() == 1;
        let fact = Fact::Remove { square: sq };
        self.log.push_fact(
            caller,
            Audience::All,
            EventKind::Action,
            Action::Remove(sq),
            fact,
        );
        if self.take_off(sq) == Identity::King {
            let reason = if lone_king {
                EndReason::LastPieceRemoved
            } else {
                EndReason::KingRemoved
            };
            self.end(Outcome::win(self.turn, reason), caller);
        } else {
            self.pass_turn(true);
        }
        Ok(())
    }

    /// Ends the turn after an answer: the other side moves next.
    fn pass_turn(&mut self, piece_left: bool) {
        self.turn = !self.turn;
        self.phase = Phase::Move;
        if piece_left {
            self.quiet_moves = 0;
            self.repetitions.clear();
        } else {
            self.quiet_moves += 1;
        }
        self.start_turn();
    }

    /// Judges the position the side to move faces.
    fn start_turn(&mut self) {
        self.repetitions.push(self.public_key());
        let side = self.turn;
        let outcome = if !self.has_legal_move() {
            Some(Outcome::win(!side, EndReason::NoLegalMove))
        } else if self.quiet_moves >= NO_PROGRESS_LIMIT {
            Some(Outcome::draw(EndReason::NoProgress))
        } else if self.repetition_count() >= 5 {
            Some(Outcome::draw(EndReason::FivefoldRepetition))
        } else {
            None
        };
        if let Some(outcome) = outcome {
            self.end(outcome, side);
        }
    }

    /// The public position: where the pieces stand, what is known of them, who moves.
    fn public_key(&self) -> u64 {
        let board = mix(self.board.0[0].0, self.board.0[1].0);
        mix(mix(board, self.turn as u64), self.known.key())
    }

    fn end(&mut self, outcome: Outcome, actor: Color) {
        // Nothing is pending any more.
        self.phase = Phase::Move;
        self.log.end(outcome, actor.into());
    }
}

impl Bs {
    /// How many times the public position of the last turn start has stood.
    pub(super) fn repetition_count(&self) -> usize {
        self.repetitions.times_last_stood()
    }
}

pub(super) fn expected(phase: Phase) -> &'static str {
    match phase {
        Phase::Setup => "a setup is due: setup RNBQKBNR/PPPPPPPP, setup standard or setup random",
        Phase::Move => "it is time to move (such as e2e4)",
        Phase::Answer(_) => "answer the move first: call or accept",
        Phase::Remove => {
            "the call found a lawful move: remove one of your pieces (remove <square>)"
        }
    }
}
