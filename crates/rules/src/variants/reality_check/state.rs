//! A game of Reality Check: the pieces on the board and in the hands with both their faces, what
//! each seat has seen of them, history included, and how each action changes them.

use super::actions::Action;
use super::actions::Setup;
use super::knowledge::{take_out, Seen, Stay};
use super::moves::{capture_targets, quiet_targets, targets};
use super::pieces::Face;
use super::pieces::Kind;
use super::pieces::KindSet;
use super::pieces::Piece;
use super::rules::Rules;
use crate::board::board39::{Bitboard39, Shape, Square39};
use crate::board::Color;
use crate::error::ActionError;
use crate::event::EventKind;
use crate::fact::{Fact, SealedKind};
use crate::game::Game;
use crate::log::Log;
use crate::outcome::{EndReason, Outcome};
use crate::repetition::PositionKeys;
use crate::seat::{Actor, Audience};
use rand::RngCore;
use std::fmt::Display;

/// Turns in a row without a piece leaving the game after which the game is drawn.
const QUIET_LIMIT: u32 = 200;
/// The occurrence of the same public position that draws.
const REPETITION_LIMIT: usize = 5;

/// Where in the game, or in a turn, play stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Phase {
    /// The side of `turn` sets up.
    Setup,
    /// The side of `turn` begins a turn: a move, a capture, a Reality Check, a drop or a memory.
    Turn,
    /// After its non-capturing move, the side of `turn` flips a piece.
    Flip,
    /// After a non-capturing move in the dice variant, Chance rolls.
    Roll,
    /// After the roll, the side of `turn` flips a piece of the kind the die names.
    DieFlip(u8),
    /// After a failed memory, the side of `turn` removes one of its true pieces.
    Remove,
}

/// A piece on the board and the stay it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    pub(super) piece: Piece,
    pub(super) stay: usize,
}

/// What the repetition rule compares: everything public that bears on play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PublicPosition {
    pub(super) by_color: [Bitboard39; 2],
    pub(super) by_face: [Bitboard39; 4],
    pub(super) hands: [u32; 2],
    pub(super) turn: Color,
    pub(super) exempt: Bitboard39,
}

impl PublicPosition {
    /// A quick hash, to tell most positions apart without comparing them whole.
    fn hash(&self) -> u64 {
        let words = [
            self.by_color[0].0,
            self.by_color[1].0,
            self.by_face[0].0,
            self.by_face[1].0,
            self.by_face[2].0,
            self.by_face[3].0,
            self.exempt.0,
            u64::from(self.hands[0]) | u64::from(self.hands[1]) << 8 | (self.turn as u64) << 16,
        ];
        words.iter().fold(0, |h: u64, &w| {
            (h.rotate_left(5) ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        })
    }
}

/// A game of Reality Check: the whole truth, history included.
#[derive(Clone, Debug)]
pub struct RealityCheck {
    pub(super) rules: Rules,
    pub(super) squares: [Option<Placed>; 63],
    pub(super) by_color: [Bitboard39; 2],
    pub(super) by_face: [Bitboard39; 4],
    pub(super) hands: [KindSet; 2],
    /// The true pieces that have left the game.
    pub(super) gone: [KindSet; 2],
    /// Each side's nine starting squares, where it drops.
    pub(super) drop_squares: [Bitboard39; 2],
    /// The action index of each side's setup.
    pub(super) setups: [Option<usize>; 2],
    /// The side whose turn it is (or who sets up).
    pub(super) turn: Color,
    pub(super) phase: Phase,
    /// Pieces the side to move may not flip: flipped or dropped on the opponent's last turn.
    pub(super) exempt: Bitboard39,
    /// Pieces flipped or dropped during this turn.
    pub(super) flipped: Bitboard39,
    /// Turns completed.
    pub(super) turns: u32,
    /// Turns in a row in which no piece left the game.
    pub(super) quiet: u32,
    /// The public positions at the start of each turn since a piece last left the game.
    pub(super) positions: Vec<PublicPosition>,
    /// The hash of each of `positions`, compared first (and summarised: most turns' positions
    /// are new, and scan none of them).
    pub(super) position_hashes: PositionKeys,
    pub(super) stays: Vec<Stay>,
    /// What is public about each side's hand.
    pub(super) remembered: [Vec<Seen>; 2],
    /// Who takes the action being applied.
    pub(super) acting: Actor,
    pub(super) log: Log<Action>,
}

impl RealityCheck {
    /// A game with these rules, before any setup.
    pub(super) fn blank(rules: Rules) -> RealityCheck {
        RealityCheck {
            rules,
            squares: [None; 63],
            by_color: [Bitboard39::EMPTY; 2],
            by_face: [Bitboard39::EMPTY; 4],
            hands: [0; 2],
            gone: [0; 2],
            drop_squares: [Bitboard39::EMPTY; 2],
            setups: [None; 2],
            turn: Color::White,
            phase: Phase::Setup,
            exempt: Bitboard39::EMPTY,
            flipped: Bitboard39::EMPTY,
            turns: 0,
            quiet: 0,
            positions: Vec::new(),
            position_hashes: PositionKeys::default(),
            stays: Vec::new(),
            remembered: [Vec::new(), Vec::new()],
            acting: Actor::White,
            log: Log::new(),
        }
    }

    /// Applies an action known to be legal (a history drawn consistent with a view), without
    /// checking it again in release builds.
    pub(super) fn replay(&mut self, action: Action) {
        debug_assert_eq!(self.validate(&action), Ok(()), "{action}");
        self.acting = self
            .to_act()
            .expect("a history does not go on after the end");
        self.perform(action);
        self.log.push_action(action);
    }

    /// The rules options in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The piece on `sq`, if any (the truth).
    pub fn piece_at(&self, sq: Square39) -> Option<Piece> {
        self.squares[sq.index()].map(|p| p.piece)
    }

    /// Whether both faces of the piece on `sq` have been shown (its kind is public).
    pub fn is_shown(&self, sq: Square39) -> bool {
        self.squares[sq.index()].is_some_and(|p| self.stays[p.stay].shown)
    }

    /// The pieces in `color`'s hand (the truth).
    pub fn hand(&self, color: Color) -> Vec<Kind> {
        Kind::in_set(self.hands[color.index()]).collect()
    }

    /// The true pieces of `color` that have left the game.
    pub fn gone(&self, color: Color) -> Vec<Kind> {
        Kind::in_set(self.gone[color.index()]).collect()
    }

    /// The side whose turn it is (or who sets up).
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The most pieces `color` may hold in hand at the start of its turn: its true pieces still
    /// in the game, minus one.
    pub fn hand_limit(&self, color: Color) -> u32 {
        self.true_in_game(color).saturating_sub(1)
    }

    /// How many of `color`'s true pieces are still in the game (on the board or in hand).
    pub fn true_in_game(&self, color: Color) -> u32 {
        4 - self.gone[color.index()].count_ones()
    }

    /// Whether `color` must drop this turn: its hand is over the limit.
    pub fn must_drop(&self, color: Color) -> bool {
        self.hands[color.index()].count_ones() > self.hand_limit(color)
    }

    /// The squares the side to move may not flip.
    pub fn exempt(&self) -> Bitboard39 {
        self.exempt
    }

    /// Whether both setups have been made, so that both arrangements' faces up are public.
    pub(super) fn placements_public(&self) -> bool {
        self.setups[Color::Black.index()].is_some()
    }

    pub(super) fn occupied(&self) -> Bitboard39 {
        self.by_color[0] | self.by_color[1]
    }

    pub(super) fn setup_of(&self, color: Color) -> Option<Setup> {
        match self.log.actions.get(self.setups[color.index()]?) {
            Some(Action::Setup(setup)) => Some(*setup),
            _ => None,
        }
    }

    /// How many pieces `color` holds in hand (the opponent sees this too).
    pub fn hand_count(&self, color: Color) -> u32 {
        self.hands[color.index()].count_ones()
    }

    /// White's first turn under a free setup (Flexibility, the Advanced board), when it may not
    /// capture.
    pub(super) fn first_move_restricted(&self) -> bool {
        self.rules.free_setup() && self.turn == Color::White && self.turns == 0
    }

    // Changing the board.

    fn put(&mut self, sq: Square39, placed: Placed) {
        self.squares[sq.index()] = Some(placed);
        self.by_color[placed.piece.color.index()] |= sq;
        self.by_face[placed.piece.up.index()] |= sq;
    }

    pub(super) fn take(&mut self, sq: Square39) -> Placed {
        let placed = self.squares[sq.index()]
            .take()
            .expect("a piece stands there");
        self.by_color[placed.piece.color.index()] ^= sq;
        self.by_face[placed.piece.up.index()] ^= sq;
        placed
    }

    /// Puts a piece from the setup or a hand on `sq`: a new stay begins.
    pub(super) fn place(&mut self, sq: Square39, piece: Piece, dropped: bool) {
        self.stays.push(Stay {
            color: piece.color,
            start: self.log.actions.len(),
            square: sq,
            face: piece.up,
            dropped,
            end: None,
            shown: false,
            kind: piece.kind,
        });
        let stay = self.stays.len() - 1;
        self.put(sq, Placed { piece, stay });
    }

    fn move_piece(&mut self, from: Square39, to: Square39) {
        let placed = self.take(from);
        self.put(to, placed);
        for set in [&mut self.exempt, &mut self.flipped] {
            if set.contains(from) {
                *set = (*set - from) | to;
            }
        }
    }

    /// Takes the piece on `sq` off the board, to its owner's hand or out of the game.
    fn leave_board(&mut self, sq: Square39, to_hand: bool) -> Piece {
        let placed = self.take(sq);
        let piece = placed.piece;
        let stay = &mut self.stays[placed.stay];
        stay.end = Some((self.log.actions.len(), to_hand));
        let seen = Seen::of(piece.kind, piece.up, stay.shown);
        let side = piece.color.index();
        if to_hand {
            self.hands[side] |= piece.kind.bit();
            self.remembered[side].push(seen);
            self.remembered[side].sort();
        } else {
            self.gone[side] |= piece.kind.bit();
        }
        piece
    }

    /// Makes the kind of a stay public; a drop whose piece is now known is opened.
    fn show(&mut self, stay: usize) {
        let Stay {
            shown,
            dropped,
            start,
            color,
            ..
        } = self.stays[stay];
        if shown {
            return;
        }
        self.stays[stay].shown = true;
        if dropped {
            let text = self.log.actions[start];
            let fact = drop_fact(&text);
            self.event_as(
                color.into(),
                Audience::All,
                EventKind::Reveal { action: start },
                text,
                fact,
            );
        }
    }

    /// Turns the piece on `sq` over in public.
    fn flip_piece(&mut self, sq: Square39) {
        let placed = self.take(sq);
        self.put(
            sq,
            Placed {
                piece: placed.piece.flipped(),
                ..placed
            },
        );
        self.show(placed.stay);
    }

    // Events.

    fn event_as(
        &mut self,
        actor: Actor,
        seats: Audience,
        kind: EventKind,
        text: impl Display,
        fact: Fact,
    ) {
        self.log.push_fact(actor, seats, kind, text, fact);
    }

    fn event(&mut self, seats: Audience, kind: EventKind, text: impl Display, fact: Fact) {
        self.event_as(self.acting, seats, kind, text, fact);
    }

    /// The public event of an action everyone sees as it is.
    fn action_event(&mut self, text: impl Display, fact: Fact) {
        self.event(Audience::All, EventKind::Action, text, fact);
    }

    fn info(&mut self, text: impl Display, fact: Fact) {
        self.event(Audience::All, EventKind::Info, text, fact);
    }

    fn end(&mut self, outcome: Outcome) {
        self.log.end(outcome, self.acting);
    }

    fn send_to_hand(&mut self, square: Square39, color: Color) {
        let fact = Fact::ToHand { square, color };
        self.info(format_args!("{square} goes back to {color}'s hand"), fact);
    }

    fn left_game(&mut self, color: Color, kind: Kind, whence: &str) {
        let fact = Fact::LeftGame { color, kind };
        self.info(
            format_args!("{color}'s {kind} leaves the game{whence}"),
            fact,
        );
    }

    // What may be done.

    /// The pieces the side to move may flip now.
    pub(super) fn flip_candidates(&self) -> Bitboard39 {
        let pool = match self.phase {
            Phase::Flip => self.occupied(),
            Phase::DieFlip(n @ 1..=4) => self.by_face[usize::from(n) - 1],
            Phase::DieFlip(5) => self.by_color[self.turn.index()],
            Phase::DieFlip(_) => self.by_color[(!self.turn).index()],
            _ => Bitboard39::EMPTY,
        };
        pool - self.exempt
    }

    /// How far the game has gone towards its draw by no progress: turns in a row in which no
    /// piece left the game, out of the 200 that draw.
    pub fn quiet_turns(&self) -> (u32, u32) {
        (self.quiet, QUIET_LIMIT)
    }

    /// The squares `color` drops onto (its starting squares), empty or not.
    pub fn drop_squares(&self, color: Color) -> Bitboard39 {
        self.drop_squares[color.index()]
    }

    /// The empty squares `color` may drop onto (its starting squares).
    pub fn empty_drop_squares(&self, color: Color) -> Bitboard39 {
        self.drop_squares[color.index()] - self.occupied()
    }

    /// Whether a capture of an own piece (Strategic Retreat) is open to the side to move.
    pub(super) fn may_retreat(&self) -> bool {
        self.rules.strategic_retreat
            && !self.first_move_restricted()
            && self.hand_count(self.turn) < self.hand_limit(self.turn)
    }

    /// Whether the side to move has any legal turn (cheaper than listing them).
    fn has_turn(&self) -> bool {
        let c = self.turn;
        let droppable = self.hands[c.index()] != 0 && self.empty_drop_squares(c).any();
        // A possible drop is a turn; a forced drop leaves no other.
        if self.must_drop(c) || droppable {
            return droppable;
        }
        let occupied = self.occupied();
        let board = self.rules.board;
        let enemy = self.by_color[(!c).index()];
        let mut takeable = Bitboard39::EMPTY;
        if !self.first_move_restricted() {
            takeable |= enemy;
        }
        if self.may_retreat() {
            takeable |= self.by_color[c.index()];
        }
        let own = self.by_color[c.index()];
        // A face at a time: no branch on a piece's face.
        let movable = Face::ALL.into_iter().any(|face| {
            Iterator::any(&mut (own & self.by_face[face.index()]), |from| {
                let (quiet, captures) = targets(board, face, from, occupied);
                quiet.any() || (captures & takeable).any()
            })
        });
        movable || (self.rules.memory && enemy.more_than_one())
    }

    /// The actions that begin a turn, into `actions`.
    pub(super) fn push_turn_actions(&self, actions: &mut Vec<Action>) {
        let c = self.turn;
        let forced = self.must_drop(c);
        if !forced {
            self.push_moves(actions);
        }
        let squares = self.empty_drop_squares(c);
        for kind in Kind::in_set(self.hands[c.index()]) {
            let (a, b) = kind.faces();
            actions.extend(squares.map(|to| Action::Drop { up: a, down: b, to }));
            if a != b {
                actions.extend(squares.map(|to| Action::Drop { up: b, down: a, to }));
            }
        }
        if !forced && self.rules.memory {
            let mut enemy = self.by_color[(!c).index()];
            while let Some(a) = enemy.next() {
                for b in enemy {
                    actions.push(Action::Memory(a, b));
                }
            }
        }
    }

    fn push_moves(&self, actions: &mut Vec<Action>) {
        let c = self.turn;
        let occupied = self.occupied();
        let enemy = self.by_color[(!c).index()];
        let may_capture = !self.first_move_restricted();
        let may_retreat = self.may_retreat();
        let board = self.rules.board;
        for from in self.by_color[c.index()] {
            let face = self.squares[from.index()].expect("own piece").piece.up;
            let (quiet, captures) = targets(board, face, from, occupied);
            actions.extend(quiet.map(|to| Action::Move { from, to }));
            if may_capture {
                for to in captures & enemy {
                    actions.push(Action::Move { from, to });
                    actions.push(Action::RealityCheck { from, to });
                }
            }
            if may_retreat {
                actions.extend((captures - enemy).map(|to| Action::Move { from, to }));
            }
        }
    }

    pub(super) fn push_removals(&self, actions: &mut Vec<Action>) {
        let c = self.turn;
        for sq in self.by_color[c.index()] {
            if self.squares[sq.index()].is_some_and(|p| p.piece.kind.is_true()) {
                actions.push(Action::RemoveOnBoard(sq));
            }
        }
        for kind in Kind::in_set(self.hands[c.index()]).filter(|k| k.is_true()) {
            actions.push(Action::RemoveFromHand(kind));
        }
    }

    // Checking an action before anything changes.

    pub(super) fn validate(&self, action: &Action) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        let c = self.turn;
        match (self.phase, *action) {
            (Phase::Setup, Action::Setup(setup)) => setup.check(action, c, self.rules.placement()),
            (Phase::Turn, Action::Drop { up, down, to }) => self.check_drop(action, up, down, to),
            (Phase::Turn, _) if self.must_drop(c) => Err(refuse(format!(
                "your hand holds {} pieces, over its limit of {}: you must drop one",
                self.hand_count(c),
                self.hand_limit(c)
            ))),
            (Phase::Turn, Action::Move { from, to }) => self.check_move(action, from, to, false),
            (Phase::Turn, Action::RealityCheck { from, to }) => {
                self.check_move(action, from, to, true)
            }
            (Phase::Turn, Action::Memory(a, b)) => self.check_memory(action, a, b),
            (Phase::Flip | Phase::DieFlip(_), Action::Flip(sq)) => self.check_flip(action, sq),
            (Phase::Roll, Action::Die(_)) => Ok(()),
            (Phase::Remove, Action::RemoveOnBoard(sq)) => match self.piece_at(sq) {
                Some(p) if p.color == c && p.kind.is_true() => Ok(()),
                _ => Err(refuse(format!("{sq} holds no true piece of yours"))),
            },
            (Phase::Remove, Action::RemoveFromHand(kind)) => {
                if kind.is_true() && self.hands[c.index()] & kind.bit() != 0 {
                    Ok(())
                } else {
                    Err(refuse(format!("your hand holds no true piece {kind}")))
                }
            }
            _ => Err(refuse(self.out_of_step())),
        }
    }

    /// What is due instead of an action that does not fit the moment.
    fn out_of_step(&self) -> String {
        match self.phase {
            Phase::Setup => "a setup is due: setup d1=RR c2=NB ... hand=NN, or setup random".into(),
            Phase::Turn => "a turn begins with a move, rc, a drop or (with memory) memory; \
                            a flip only follows your own non-capturing move"
                .into(),
            Phase::Flip => "after your move, flip a piece: flip <square>".into(),
            Phase::Roll => "the die is to be rolled".into(),
            Phase::DieFlip(n) => format!("the die shows {n}: flip a piece it allows"),
            Phase::Remove => {
                "after a failed memory, remove one of your true pieces: remove <square> or \
                 remove XY"
                    .into()
            }
        }
    }

    fn check_move(
        &self,
        action: &Action,
        from: Square39,
        to: Square39,
        rc: bool,
    ) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        let c = self.turn;
        let Some(piece) = self.piece_at(from).filter(|p| p.color == c) else {
            return Err(refuse(format!("no piece of yours on {from}")));
        };
        let occupied = self.occupied();
        let name = piece.up.name();
        if !occupied.contains(to) {
            if rc {
                return Err(refuse(format!(
                    "a reality check is a capture, and {to} is empty"
                )));
            }
            if !quiet_targets(self.rules.board, piece.up, from, occupied).contains(to) {
                return Err(refuse(format!("the {name} on {from} cannot move to {to}")));
            }
            return Ok(());
        }
        if !capture_targets(self.rules.board, piece.up, from, occupied).contains(to) {
            return Err(refuse(format!(
                "the {name} on {from} cannot capture on {to}"
            )));
        }
        if self.first_move_restricted() {
            return Err(refuse(format!(
                "{} White may not capture on the first move",
                match self.rules.board {
                    Shape::Advanced => "on the Advanced board (with its free setup)",
                    Shape::Basic => "under flexible-setup",
                }
            )));
        }
        if self.by_color[c.index()].contains(to) {
            if rc {
                return Err(refuse(format!(
                    "{to} holds your own piece: a reality check takes an enemy"
                )));
            }
            if !self.rules.strategic_retreat {
                return Err(refuse(format!(
                    "{to} holds your own piece (capturing your own needs strategic-retreat)"
                )));
            }
            if !self.may_retreat() {
                return Err(refuse(format!(
                    "taking your own piece would put your hand over its limit of {}",
                    self.hand_limit(c)
                )));
            }
        }
        Ok(())
    }

    fn check_drop(
        &self,
        action: &Action,
        up: Face,
        down: Face,
        to: Square39,
    ) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        let c = self.turn;
        let kind = Kind::new(up, down);
        if self.hands[c.index()] & kind.bit() == 0 {
            return Err(refuse(format!("{kind} is not in your hand")));
        }
        if !self.drop_squares[c.index()].contains(to) {
            let list: Vec<String> = self.drop_squares[c.index()]
                .map(|sq| sq.to_string())
                .collect();
            return Err(refuse(format!(
                "{to} is not one of your starting squares ({})",
                list.join(" ")
            )));
        }
        if self.occupied().contains(to) {
            return Err(refuse(format!(
                "{to} is occupied: a drop needs an empty square"
            )));
        }
        Ok(())
    }

    fn check_memory(&self, action: &Action, a: Square39, b: Square39) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        if !self.rules.memory {
            return Err(refuse(
                "memory is played only with the memory option".into(),
            ));
        }
        let enemy = self.by_color[(!self.turn).index()];
        match [a, b].into_iter().find(|&sq| !enemy.contains(sq)) {
            Some(sq) => Err(refuse(format!("{sq} holds no enemy piece"))),
            None => Ok(()),
        }
    }

    fn check_flip(&self, action: &Action, sq: Square39) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        if self.flip_candidates().contains(sq) {
            return Ok(());
        }
        if !self.occupied().contains(sq) {
            return Err(refuse(format!("no piece stands on {sq}")));
        }
        if self.exempt.contains(sq) {
            return Err(refuse(format!(
                "your opponent flipped or dropped the piece on {sq} on its last turn"
            )));
        }
        let Phase::DieFlip(n) = self.phase else {
            unreachable!("every piece outside the exemption may be flipped after a move")
        };
        Err(refuse(format!(
            "the die shows {n}: flip {}",
            die_meaning(n)
        )))
    }

    // Playing an action that has been checked.

    pub(super) fn perform(&mut self, action: Action) {
        match action {
            Action::Setup(setup) => self.set_up(setup),
            Action::Move { from, to } if self.occupied().contains(to) => self.capture(from, to),
            Action::Move { from, to } => self.quiet_move(from, to),
            Action::RealityCheck { from, to } => self.reality_check(from, to),
            Action::Drop { up, down, to } => self.drop_piece(up, down, to),
            Action::Memory(a, b) => self.memory(a, b),
            Action::Flip(sq) => self.flip_step(sq),
            Action::Die(n) => self.roll(n),
            Action::RemoveOnBoard(sq) => self.remove_on_board(sq),
            Action::RemoveFromHand(kind) => self.remove_from_hand(kind),
        }
    }

    fn set_up(&mut self, setup: Setup) {
        let c = self.turn;
        let sealed = Fact::Sealed {
            kind: SealedKind::Setup,
        };
        self.event(Audience::All, EventKind::Sealed, "setup", sealed);
        self.event(Audience::only(c), EventKind::Action, setup, Fact::Setup);
        for (sq, up, down) in setup.placed {
            let kind = Kind::new(up, down);
            self.place(sq, Piece { color: c, kind, up }, false);
        }
        self.hands[c.index()] = setup.hand.bit();
        self.remembered[c.index()] = vec![Seen::Nothing];
        self.drop_squares[c.index()] = setup.squares();
        self.setups[c.index()] = Some(self.log.actions.len());
        if c == Color::White {
            self.turn = Color::Black;
            return;
        }
        let white = self.setup_of(Color::White).expect("White set up first");
        for (side, setup) in [(Color::White, &white), (Color::Black, &setup)] {
            let text = super::setup::Placed(setup);
            let fact = Fact::Placed { color: side };
            self.event_as(side.into(), Audience::All, EventKind::Info, text, fact);
        }
        self.turn = Color::White;
        self.begin_turn();
    }

    fn quiet_move(&mut self, from: Square39, to: Square39) {
        let fact = Fact::Step {
            from,
            to,
            capture: false,
        };
        self.action_event(format_args!("{from}{to}"), fact);
        self.move_piece(from, to);
        if self.rules.dice {
            self.phase = Phase::Roll;
            return;
        }
        self.phase = Phase::Flip;
        if self.flip_candidates().is_empty() {
            self.info("no piece may be flipped: the turn ends", Fact::Pass);
            self.end_turn(false);
        }
    }

    fn capture(&mut self, from: Square39, to: Square39) {
        let fact = Fact::Step {
            from,
            to,
            capture: true,
        };
        self.action_event(format_args!("{from}{to}"), fact);
        let taken = self.leave_board(to, true);
        self.send_to_hand(to, taken.color);
        self.move_piece(from, to);
        self.end_turn(false);
    }

    fn reality_check(&mut self, from: Square39, to: Square39) {
        let fact = Fact::RealityCheck { from, to };
        self.action_event(format_args!("rc {from}{to}"), fact);
        let capturer = self.squares[from.index()].expect("checked");
        let captured = self.squares[to.index()].expect("checked");
        self.show(capturer.stay);
        self.show(captured.stay);
        let (k1, k2) = (capturer.piece.kind, captured.piece.kind);
        let back = if k1.is_true() { "" } else { ", turned back" };
        let fact = Fact::Checked {
            checker: k1,
            checked: k2,
        };
        self.info(
            format_args!("reality check: {from} is {k1}{back}; {to} is {k2}"),
            fact,
        );
        let both_true = k1.is_true() && k2.is_true();
        let owner = captured.piece.color;
        self.leave_board(to, !both_true);
        if both_true {
            let fact = Fact::LeftGame {
                color: owner,
                kind: k2,
            };
            self.info(
                format_args!("both are true: {owner}'s {k2} leaves the game"),
                fact,
            );
        } else {
            self.send_to_hand(to, owner);
        }
        self.move_piece(from, to);
        self.flipped |= to;
        self.end_turn(both_true);
    }

    fn drop_piece(&mut self, up: Face, down: Face, to: Square39) {
        let c = self.turn;
        let kind = Kind::new(up, down);
        let sealed = Fact::Drop { up, down: None, to };
        self.event(
            Audience::All,
            EventKind::Sealed,
            format_args!("drop {up}@{to}"),
            sealed,
        );
        let own = Fact::Drop {
            up,
            down: Some(down),
            to,
        };
        self.event(
            Audience::only(c),
            EventKind::Action,
            format_args!("drop {up}{down}@{to}"),
            own,
        );
        self.hands[c.index()] &= !kind.bit();
        take_out(&mut self.remembered[c.index()], |seen| seen.could_show(up));
        self.place(to, Piece { color: c, kind, up }, true);
        self.flipped |= to;
        self.end_turn(false);
    }

    fn memory(&mut self, a: Square39, b: Square39) {
        let fact = Fact::Memory {
            first: a,
            second: b,
        };
        self.action_event(format_args!("memory {a} {b}"), fact);
        let hidden = [a, b].map(|sq| self.piece_at(sq).expect("checked").down());
        self.flip_piece(a);
        self.flip_piece(b);
        let owner = !self.turn;
        let compared = Fact::Compared {
            first: hidden[0],
            second: hidden[1],
        };
        if hidden[0] == hidden[1] {
            self.info(
                format_args!(
                    "the hidden faces match ({}): both go back to {owner}'s hand",
                    hidden[0]
                ),
                compared,
            );
            self.leave_board(a, true);
            self.leave_board(b, true);
            self.end_turn(false);
        } else {
            let turn = self.turn;
            self.info(
                format_args!(
                    "the hidden faces differ ({}, {}): {} removes one of its true pieces",
                    hidden[0], hidden[1], turn
                ),
                compared,
            );
            self.flipped |= Bitboard39::from(a) | b;
            self.phase = Phase::Remove;
        }
    }

    fn flip_step(&mut self, sq: Square39) {
        self.action_event(format_args!("flip {sq}"), Fact::Flip { square: sq });
        self.flip_piece(sq);
        let piece = self.piece_at(sq).expect("just flipped");
        let fact = Fact::Faces {
            square: sq,
            kind: piece.kind,
            up: piece.up,
        };
        self.info(
            format_args!("{sq} now shows {}: it is {}", piece.up, piece.kind),
            fact,
        );
        self.flipped |= sq;
        self.end_turn(false);
    }

    fn roll(&mut self, n: u8) {
        self.action_event(format_args!("die {n}"), Fact::Die { number: n });
        self.phase = Phase::DieFlip(n);
        if self.flip_candidates().is_empty() {
            self.info(
                format_args!("no piece fits the die ({}): the turn ends", die_meaning(n)),
                Fact::Pass,
            );
            self.end_turn(false);
        }
    }

    fn remove_on_board(&mut self, sq: Square39) {
        let fact = Fact::RemoveTrue {
            square: Some(sq),
            kind: None,
        };
        self.action_event(format_args!("remove {sq}"), fact);
        let stay = self.squares[sq.index()].expect("checked").stay;
        self.show(stay);
        let piece = self.leave_board(sq, false);
        self.left_game(piece.color, piece.kind, "");
        self.end_turn(true);
    }

    fn remove_from_hand(&mut self, kind: Kind) {
        let c = self.turn;
        let fact = Fact::RemoveTrue {
            square: None,
            kind: Some(kind),
        };
        self.action_event(format_args!("remove {kind}"), fact);
        self.hands[c.index()] &= !kind.bit();
        self.gone[c.index()] |= kind.bit();
        take_out(&mut self.remembered[c.index()], |seen| seen.could_be(kind));
        self.left_game(c, kind, " from the hand");
        self.end_turn(true);
    }

    // Between turns.

    fn end_turn(&mut self, progress: bool) {
        self.exempt = self.flipped;
        self.flipped = Bitboard39::EMPTY;
        self.turns += 1;
        if progress {
            self.quiet = 0;
            self.positions.clear();
            self.position_hashes.clear();
        } else {
            self.quiet += 1;
        }
        if let Some(loser) = Color::ALL.into_iter().find(|&c| self.true_in_game(c) == 0) {
            return self.end(Outcome::win(!loser, EndReason::TruePiecesRemoved));
        }
        self.turn = !self.turn;
        self.begin_turn();
    }

    /// Judges the position at the start of a turn: a forced drop that cannot be made or no
    /// legal turn loses; then the draws.
    fn begin_turn(&mut self) {
        self.phase = Phase::Turn;
        let c = self.turn;
        if self.must_drop(c) && self.empty_drop_squares(c).is_empty() {
            return self.end(Outcome::win(!c, EndReason::ImpossibleDrop));
        }
        if !self.has_turn() {
            return self.end(Outcome::win(!c, EndReason::NoLegalMove));
        }
        if self.quiet >= QUIET_LIMIT {
            return self.end(Outcome::draw(EndReason::NoProgress));
        }
        let position = self.public_position();
        let hash = position.hash();
        self.positions.push(position);
        self.position_hashes.push(hash);
        // Equal positions have equal hashes: compare whole positions only when enough hashes
        // match.
        let mut seen = self.position_hashes.times_last_stood();
        if seen >= REPETITION_LIMIT {
            seen = (self.position_hashes.keys().iter())
                .zip(&self.positions)
                .filter(|&(&h, p)| h == hash && *p == position)
                .count();
        }
        if seen >= REPETITION_LIMIT {
            self.end(Outcome::draw(EndReason::FivefoldRepetition));
        }
    }

    fn public_position(&self) -> PublicPosition {
        PublicPosition {
            by_color: self.by_color,
            by_face: self.by_face,
            hands: self.hands.map(u16::count_ones),
            turn: self.turn,
            exempt: self.exempt,
        }
    }

    pub(super) fn random_setup_for(&self, color: Color, rng: &mut dyn RngCore) -> Setup {
        Setup::random(self.rules.placement(), color, rng)
    }
}

/// What a die roll lets the mover flip.
fn die_meaning(n: u8) -> &'static str {
    match n {
        1 => "a piece showing P",
        2 => "a piece showing N",
        3 => "a piece showing B",
        4 => "a piece showing R",
        5 => "one of your own pieces",
        _ => "one of your opponent's pieces",
    }
}

/// The fact of a drop revealed whole: both faces and the square.
fn drop_fact(action: &Action) -> Fact {
    match *action {
        Action::Drop { up, down, to } => Fact::Drop {
            up,
            down: Some(down),
            to,
        },
        ref other => unreachable!("a dropped piece was placed by a drop, not {other}"),
    }
}
