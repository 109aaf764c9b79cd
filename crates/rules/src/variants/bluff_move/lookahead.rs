//! The resampler's lookahead: whether a real piece, as the search placed it (on its image, or
//! hidden behind its bluff), can be where it is for the rest of the game, judged on what the seat
//! saw. Each piece is followed on its own through its later actions, every way they could have
//! been made (a small automaton over where its real piece may stand), so a wrong placement is
//! rejected when it is made rather than when the history contradicts it many actions later.
//! Three checks tie pieces together: a hidden real piece that a later move of a piece that has
//! not moved since must have crossed; hidden pieces that must move unseen onto their bluffs'
//! squares, each needing a pass of its own side (a matching); and squares where a real piece was
//! later shown to stand, which some piece must be able to reach.
//!
//! Every rejection is a contradiction with what the seat saw (the lookahead is sound): the true
//! placement always passes.

use super::board::Board;
use super::record::{images_before_each, Record};
use super::resolve::{castling_rook, Capture, Private, Public, Resolution};
use crate::board::attacks::{between, queen_attacks};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use arrayvec::ArrayVec;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// Who made action `index` of a game whose first action was `first`'s: the sides alternate.
fn mover(first: Color, index: usize) -> Color {
    if index % 2 == 0 {
        first
    } else {
        !first
    }
}

/// Answers about a placed piece from an action on. Keys are small and not chosen by an
/// adversary, so a fast hash (SipHash was 6% of a sample).
type Memo<T> = HashMap<(Placed, u32), T, foldhash::fast::FixedState>;

/// Actions (indices), in order, shared between memo entries.
type Passes = Arc<Vec<u32>>;

/// A real piece as the search placed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Placed {
    pub color: Color,
    pub real: Square,
    pub role: Role,
    /// Its bluff, if it hides behind one.
    pub bluff: Option<Square>,
    /// The type its image shows.
    pub image_role: Role,
}

impl Placed {
    /// The piece on `real`, as on `board`.
    pub fn on(board: &Board, color: Color, real: Square) -> Placed {
        let bluff = board.bluff_of(real);
        let role = board.role(real).expect("a real piece");
        Placed {
            color,
            real,
            role,
            bluff,
            image_role: bluff.map_or(role, |b| board.role(b).expect("a bluff has a type")),
        }
    }

    /// Where the opponent sees it.
    fn image(&self) -> Square {
        self.bluff.unwrap_or(self.real)
    }

    fn unbluffed(&self, real: Square, role: Role) -> Placed {
        Placed {
            real,
            role,
            bluff: None,
            image_role: role,
            ..*self
        }
    }
}

/// The first crossings (see [`Knowledge::first_crossing`]) of hidden pieces on one board from
/// one action, each found once: judging a lookalike asks for a piece both where its placement is
/// judged and where the room to move unseen is (13% of a spectator's sample, half of it twice).
/// Only one side's hidden pieces are asked about: sixteen at most.
#[derive(Default)]
pub(super) struct Crossings(ArrayVec<(Placed, Option<usize>), 16>);

/// What one step says about a placement.
enum Verdict {
    /// Nothing against it; it may have changed (its bluff captured).
    Holds(Placed),
    /// The step contradicts it.
    Contradiction,
    /// The piece was captured as placed: nothing more to check.
    Captured,
    /// The piece acted: it is now one of these.
    Acted(ArrayVec<Placed, 3>),
    /// It may have moved unseen onto its bluff's square (becoming this), or not.
    MaybeMoved(Placed),
}

/// What the seat saw, arranged for the lookahead. Built once per belief; its memos hold for
/// every sample drawn from it (they depend on what the seat saw alone), behind locks so that a
/// belief can be shared between threads.
#[derive(Debug)]
pub(super) struct Knowledge {
    /// The side that made the first action.
    first: Color,
    seen: Vec<Resolution>,
    /// For each action, the squares the seat knows held no real piece of the side not moving.
    clear: Vec<Bitboard>,
    /// For each action, the squares the seat knows held a real piece of the side not moving.
    real_at: Vec<Bitboard>,
    /// For each action, the images of White and Black before it.
    images: Vec<[Bitboard; 2]>,
    /// For each square, the actions whose public record names it, in order.
    named: Vec<Vec<u32>>,
    /// For each square, the actions that name it or say something about it, in order.
    touch: Vec<Vec<u32>>,
    /// For each square, the image moves that ended on a line through it (and so may have
    /// crossed it), in order.
    in_line: Vec<Vec<u32>>,
    /// For each side, its actions that showed nothing (where a hidden piece may have moved).
    passes: [Vec<u32>; 2],
    /// For each side, the actions after which it was shown to have a real piece on a square.
    shown_real: [Vec<(u32, Square)>; 2],
    /// For each side and square, its actions whose image went there.
    arrivals: [Vec<Vec<u32>>; 2],
    memo: Mutex<Memo<bool>>,
    escapes_memo: Mutex<Memo<Option<Passes>>>,
}

impl Knowledge {
    pub fn new(record: &Record) -> Knowledge {
        let seen = &record.seen[..];
        let clear: Vec<Bitboard> = (0..seen.len()).map(|k| clear_squares(record, k)).collect();
        let real_at: Vec<Bitboard> = (0..seen.len()).map(|k| real_squares(record, k)).collect();
        let mut named = vec![Vec::new(); 64];
        let images = images_before_each(record);
        let mut touch = vec![Vec::new(); 64];
        let mut passes = [Vec::new(), Vec::new()];
        let mut in_line = vec![Vec::new(); 64];
        let mut shown_real = [Vec::new(), Vec::new()];
        let mut arrivals = [vec![Vec::new(); 64], vec![Vec::new(); 64]];
        for (k, resolution) in seen.iter().enumerate() {
            let side = mover(record.start.turn, k).index();
            for sq in real_at[k] {
                shown_real[1 - side].push((k as u32, sq));
            }
            if let Public::Image { to, .. } = resolution.public {
                for sq in queen_attacks(to, Bitboard::EMPTY) {
                    in_line[sq.index()].push(k as u32);
                }
            }
            let arrived = match resolution.public {
                Public::Image { to, .. } => Bitboard::from(to),
                Public::Castle(mv) => Bitboard::from(mv.to) | castling_rook(mv).1,
                Public::Pass => Bitboard::EMPTY,
            };
            for sq in arrived {
                arrivals[side][sq.index()].push(k as u32);
            }
            let mentioned = mentioned(resolution);
            for sq in mentioned {
                named[sq.index()].push(k as u32);
            }
            let mut about = mentioned | clear[k] | real_at[k];
            if let Public::Image { from, to, .. } = resolution.public {
                about |= between(from, to);
            }
            for sq in about {
                touch[sq.index()].push(k as u32);
            }
            if resolution.public == Public::Pass {
                passes[side].push(k as u32);
            }
        }
        Knowledge {
            first: record.start.turn,
            seen: seen.to_vec(),
            in_line,
            shown_real,
            arrivals,
            images,
            named,
            clear,
            real_at,
            touch,
            passes,
            memo: Mutex::default(),
            escapes_memo: Mutex::default(),
        }
    }

    /// Whether `piece`, placed on `board` just before action `from`, fits everything seen from
    /// then on. `crossings` holds what was found on that board so far.
    pub fn allows(
        &self,
        piece: &Placed,
        board: &Board,
        from: usize,
        crossings: &mut Crossings,
    ) -> bool {
        self.feasible(*piece, from as u32) && self.not_crossed(piece, board, from, crossings)
    }

    /// Whether, for every later action that showed a real piece of a side on a square, that side
    /// has a piece there on `board` (just before action `from`) or an image of it goes there in
    /// between: a real piece only ever arrives where its image does, or onto its own bluff.
    pub fn reals_can_arrive(&self, board: &Board, from: usize) -> bool {
        Color::ALL.into_iter().all(|color| {
            let c = color.index();
            let shown = &self.shown_real[c];
            let first = shown.partition_point(|&(k, _)| (k as usize) < from);
            shown[first..].iter().all(|&(k, sq)| {
                board.own(color).contains(sq) || {
                    let arrivals = &self.arrivals[c][sq.index()];
                    arrivals
                        .get(arrivals.partition_point(|&s| (s as usize) < from))
                        .is_some_and(|&s| s < k)
                }
            })
        })
    }

    /// Whether every hidden piece of `color` on `board` (just before action `from`) that cannot
    /// stay hidden where it is until it next acts can have moved unseen onto its bluff's square
    /// in time, each at a different pass of its side (a pass is one action). If not, the real
    /// squares of the pieces that cannot. `crossings` holds what was found on that board so far.
    pub fn room_to_move_unseen(
        &self,
        board: &Board,
        color: Color,
        from: usize,
        crossings: &mut Crossings,
    ) -> Result<(), Bitboard> {
        let mut needs: Vec<Passes> = Vec::new();
        let mut needy = Bitboard::EMPTY;
        for real in board.hidden[color.index()] {
            let piece = Placed::on(board, color, real);
            let crossing = self.crossing(&piece, board, from, crossings);
            let passes = match (self.escapes(&piece, from as u32), crossing) {
                (None, None) => continue,
                (Some(passes), None) => passes,
                (passes, Some(crossing)) => {
                    let all =
                        passes.unwrap_or_else(|| self.unseen_moves(&piece, from as u32, u32::MAX));
                    Arc::new(
                        all.iter()
                            .copied()
                            .filter(|&s| (s as usize) < crossing)
                            .collect(),
                    )
                }
            };
            if passes.is_empty() {
                return Err(Bitboard::from(real));
            }
            needs.push(passes);
            needy |= real;
        }
        match needs.len() {
            0 | 1 => Ok(()),
            _ if matching(&needs) => Ok(()),
            _ => Err(needy),
        }
    }

    /// For a hidden piece that cannot stay hidden from action `k` until it next acts, the passes
    /// of its side at which it may have moved unseen in time; `None` when it can stay.
    fn escapes(&self, piece: &Placed, k: u32) -> Option<Passes> {
        let start = self.next_relevant(piece, k).unwrap_or(u32::MAX);
        if let Some(known) = lock(&self.escapes_memo).get(&(*piece, start)) {
            return known.clone();
        }
        let answer = self
            .deadline(piece, start)
            .map(|deadline| self.unseen_moves(piece, start, deadline));
        lock(&self.escapes_memo).insert((*piece, start), answer.clone());
        answer
    }

    /// The passes of its side in `start..deadline` at which the hidden piece may have moved
    /// unseen onto its bluff's square, and gone on from there.
    fn unseen_moves(&self, piece: &Placed, start: u32, deadline: u32) -> Passes {
        let passes = &self.passes[piece.color.index()];
        let first = passes.partition_point(|&s| s < start);
        let moved = piece.unbluffed(piece.image(), piece.image_role);
        Arc::new(
            passes[first..]
                .iter()
                .take_while(|&&s| s < deadline)
                .copied()
                .filter(|&s| self.may_move_unseen(piece, s as usize) && self.feasible(moved, s + 1))
                .collect(),
        )
    }

    /// The action at which the hidden piece, never moving unseen, meets a contradiction before
    /// or at its next action; `None` if it meets none.
    fn deadline(&self, piece: &Placed, mut k: u32) -> Option<u32> {
        let mut piece = *piece;
        while let Some(step) = self.next_relevant(&piece, k) {
            k = step + 1;
            match self.verdict(&piece, step as usize) {
                Verdict::Holds(now) => piece = now,
                Verdict::MaybeMoved(_) => {}
                Verdict::Contradiction => return Some(step),
                Verdict::Captured => return None,
                Verdict::Acted(next) => {
                    return match next.iter().any(|&p| self.feasible(p, k)) {
                        true => None,
                        false => Some(step),
                    }
                }
            }
        }
        None
    }

    /// The first action from `k` on that may concern `piece`.
    fn next_relevant(&self, piece: &Placed, k: u32) -> Option<u32> {
        let after = |list: &Vec<u32>| list.get(list.partition_point(|&s| s < k)).copied();
        let mut next = after(&self.touch[piece.real.index()]);
        if let Some(bluff) = piece.bluff {
            next = next
                .into_iter()
                .chain(after(&self.touch[bluff.index()]))
                .min();
            next = next
                .into_iter()
                .chain(after(&self.passes[piece.color.index()]))
                .min();
        }
        next
    }

    /// Whether `piece` can be as placed from action `k` on, following it through every way its
    /// later actions could have been made.
    fn feasible(&self, piece: Placed, k: u32) -> bool {
        // Nothing between `k` and its next relevant action can change the answer.
        let k = self.next_relevant(&piece, k).unwrap_or(u32::MAX);
        if let Some(&known) = lock(&self.memo).get(&(piece, k)) {
            return known;
        }
        let answer = self.follow(piece, k);
        lock(&self.memo).insert((piece, k), answer);
        answer
    }

    fn follow(&self, mut piece: Placed, mut k: u32) -> bool {
        while let Some(step) = self.next_relevant(&piece, k) {
            k = step + 1;
            match self.verdict(&piece, step as usize) {
                Verdict::Holds(now) => piece = now,
                Verdict::Contradiction => return false,
                Verdict::Captured => return true,
                Verdict::Acted(next) => return next.iter().any(|&p| self.feasible(p, k)),
                Verdict::MaybeMoved(moved) => {
                    if self.feasible(moved, k) {
                        return true;
                    }
                }
            }
        }
        true
    }

    fn verdict(&self, piece: &Placed, step: usize) -> Verdict {
        let seen = &self.seen[step];
        if mover(self.first, step) == piece.color {
            self.own_side_step(piece, step)
        } else {
            enemy_step(piece, seen, self.clear[step], self.real_at[step])
        }
    }

    /// Whether, up to the first pass of its side at which it may have moved unseen, no image
    /// move crossed the hidden piece's square (see [`Knowledge::first_crossing`]).
    fn not_crossed(
        &self,
        piece: &Placed,
        board: &Board,
        from: usize,
        crossings: &mut Crossings,
    ) -> bool {
        let Some(crossing) = self.crossing(piece, board, from, crossings) else {
            return true;
        };
        let passes = &self.passes[piece.color.index()];
        let first = passes.partition_point(|&s| (s as usize) < from);
        passes[first..]
            .iter()
            .take_while(|&&s| (s as usize) < crossing)
            .any(|&s| self.may_move_unseen(piece, s as usize))
    }

    /// [`Knowledge::first_crossing`], found once per piece of `crossings`'s board.
    fn crossing(
        &self,
        piece: &Placed,
        board: &Board,
        from: usize,
        crossings: &mut Crossings,
    ) -> Option<usize> {
        piece.bluff?;
        if let Some(&(_, known)) = crossings.0.iter().find(|(p, _)| p == piece) {
            return known;
        }
        let found = self.first_crossing(piece, board, from);
        crossings.0.push((*piece, found));
        found
    }

    /// The first action, before any that names the hidden piece's squares, in which an image
    /// move must have crossed its square unhindered: a move of its own side cannot pass an own
    /// piece, an enemy move would have stopped or died there. The moving image's piece is judged
    /// as on `board` (just before action `from`), so only images that have not moved since count.
    fn first_crossing(&self, piece: &Placed, board: &Board, from: usize) -> Option<usize> {
        let bluff = piece.bluff?;
        let list = &self.in_line[piece.real.index()];
        let start = list.partition_point(|&s| (s as usize) < from);
        let end = [piece.real, bluff]
            .map(|sq| {
                let named = &self.named[sq.index()];
                named
                    .get(named.partition_point(|&s| (s as usize) < from))
                    .map_or(usize::MAX, |&s| s as usize)
            })
            .into_iter()
            .min()
            .unwrap_or(usize::MAX);
        for &step in &list[start..] {
            let step = step as usize;
            if step >= end {
                return None;
            }
            let seen = &self.seen[step];
            let Public::Image {
                from: image, to, ..
            } = seen.public
            else {
                continue;
            };
            if seen.destroyed.is_some_and(|d| d.square == piece.real)
                || self.moved_since(image, from, step)
            {
                continue;
            }
            let color = mover(self.first, step);
            let c = color.index();
            let real_taken = seen.took_real();
            // Where the move may have started: the image itself (a bluff's move, or a real
            // piece without a bluff), or the real piece behind it; only where its type reaches.
            let sources: ArrayVec<Square, 2> = if board.bluffs[c].contains(image) {
                let real = board.real_of(image);
                let other = Placed::on(board, color, real);
                let passes = &self.passes[c];
                let first = passes.partition_point(|&s| (s as usize) < from);
                if passes[first..]
                    .iter()
                    .take_while(|&&s| (s as usize) < step)
                    .any(|&s| self.may_move_unseen(&other, s as usize))
                {
                    // It may have moved unseen onto its image since: no telling where it came from.
                    continue;
                }
                match real_taken {
                    true => [real].into_iter().collect(),
                    false => [image, real].into(),
                }
            } else if board.real[c].contains(image) && board.bluff_of(image).is_none() {
                [image].into_iter().collect()
            } else {
                continue;
            };
            let mut reaching = sources.iter().filter(|&&s| {
                let role = board.role(s).expect("a piece stands there");
                reaches(color, role, s, to)
            });
            let first = reaching.next();
            let crossed = first
                .into_iter()
                .chain(reaching)
                .all(|&s| between(s, to).contains(piece.real));
            if first.is_some() && crossed {
                return Some(step);
            }
        }
        None
    }

    /// Whether some action in `from..before` named `sq` (its image may have changed).
    fn moved_since(&self, sq: Square, from: usize, before: usize) -> bool {
        let list = &self.touch[sq.index()];
        let i = list.partition_point(|&s| (s as usize) < from);
        list.get(i).is_some_and(|&s| (s as usize) < before)
    }
}

impl Knowledge {
    /// What action `step`, of the piece's own side, says about it.
    fn own_side_step(&self, piece: &Placed, step: usize) -> Verdict {
        let seen = &self.seen[step];
        match seen.public {
            Public::Image { from, to, role } if from == piece.image() => {
                Verdict::Acted(self.acted(piece, step, to, role))
            }
            Public::Image { to, .. } if to == piece.real => Verdict::Contradiction,
            Public::Castle(mv) => {
                let (rook, rook_to) = castling_rook(mv);
                if piece.real == mv.from {
                    Verdict::Acted([piece.unbluffed(mv.to, Role::King)].into_iter().collect())
                } else if piece.real == rook {
                    Verdict::Acted([piece.unbluffed(rook_to, Role::Rook)].into_iter().collect())
                } else if piece.real == mv.to || piece.real == rook_to {
                    Verdict::Contradiction
                } else {
                    Verdict::Holds(*piece)
                }
            }
            Public::Pass if self.may_move_unseen(piece, step) => {
                Verdict::MaybeMoved(piece.unbluffed(piece.image(), piece.image_role))
            }
            _ => Verdict::Holds(*piece),
        }
    }

    /// Whether the hidden piece may have moved, in its side's action `step` that showed nothing,
    /// onto its own bluff's square.
    fn may_move_unseen(&self, piece: &Placed, step: usize) -> bool {
        let Some(bluff) = piece.bluff else {
            return false;
        };
        let seen = &self.seen[step];
        let line = between(piece.real, bluff);
        let [own, enemy] = self.sides(step, piece.color);
        let swept: Bitboard = seen
            .captures
            .iter()
            .map(|c| match *c {
                Capture::Bluff { square, .. } => Bitboard::from(square),
                Capture::Real { .. } => Bitboard::FULL,
            })
            .fold(Bitboard::EMPTY, |a, b| a | b);
        seen.destroyed.is_none()
            && reaches(piece.color, piece.role, piece.real, bluff)
            && arrives_as(piece.color, piece.role, bluff, piece.image_role)
            && (line & own).is_empty()
            && line & enemy == swept
    }

    /// The images of `color`'s side and of its enemy before action `step`.
    fn sides(&self, step: usize, color: Color) -> [Bitboard; 2] {
        let images = self.images[step];
        [images[color.index()], images[(!color).index()]]
    }

    /// Whether a piece of `role` of the piece's side, starting from `source`, could have gone to
    /// `to` in action `step`: input on a board of its own side's images (the piece's own image
    /// aside) and every enemy image it met captured as `seen` says.
    fn went(&self, piece: &Placed, step: usize, source: Square, role: Role, to: Square) -> bool {
        let seen = &self.seen[step];
        let line = between(source, to);
        let [own, enemy] = self.sides(step, piece.color);
        let own = own.without(piece.image());
        let captured: Bitboard = seen
            .captures
            .iter()
            .map(|c| match *c {
                Capture::Bluff { square, .. } | Capture::Real { square, .. } => square,
            })
            .collect();
        source != to
            && reaches(piece.color, role, source, to)
            && ((line | to) & own).is_empty()
            && (line & enemy) - captured == Bitboard::EMPTY
            && captured - line - to == Bitboard::EMPTY
    }

    /// The placements the piece may have after its action `step`, whose image went to `to`
    /// (showing `role` if its type changed).
    fn acted(
        &self,
        piece: &Placed,
        step: usize,
        to: Square,
        role: Option<Role>,
    ) -> ArrayVec<Placed, 3> {
        let seen = &self.seen[step];
        let shown = role.unwrap_or(piece.image_role);
        let real_taken = seen.took_real();
        let went = |source: Square, role: Role| self.went(piece, step, source, role, to);
        let could = |source: Square, role: Role| {
            went(source, role) && arrives_as(piece.color, role, to, shown)
        };
        // The bluff's own move, or a new bluff from the real piece (never onto it).
        let bluffed = |check: &dyn Fn(Square, Role) -> bool| {
            to != piece.real
                && (piece.bluff.is_some_and(|b| check(b, piece.image_role))
                    || check(piece.real, piece.role))
        };
        let mut next = ArrayVec::new();
        if let Some(d) = seen.destroyed {
            if d.real == piece.real && bluffed(&went) {
                next.push(piece.unbluffed(piece.real, piece.role));
            }
            return next;
        }
        if could(piece.real, piece.role) {
            next.push(piece.unbluffed(to, shown));
        }
        if !real_taken && bluffed(&could) {
            next.push(Placed {
                bluff: Some(to),
                image_role: shown,
                ..*piece
            });
        }
        next
    }
}

/// What an enemy action says about the piece (its captures in order: a bluff captured first may
/// reveal a real piece the same move then captures).
fn enemy_step(piece: &Placed, seen: &Resolution, clear: Bitboard, real_at: Bitboard) -> Verdict {
    let mut piece = *piece;
    for capture in &seen.captures {
        match *capture {
            Capture::Real { square, bluff, .. } if square == piece.real => {
                return match bluff == piece.bluff {
                    true => Verdict::Captured,
                    false => Verdict::Contradiction,
                };
            }
            Capture::Real { square, bluff, .. }
                if piece.bluff.is_some()
                    && (bluff == piece.bluff || Some(square) == piece.bluff) =>
            {
                return Verdict::Contradiction;
            }
            Capture::Bluff { square, real, .. } if Some(square) == piece.bluff => {
                if real != piece.real {
                    return Verdict::Contradiction;
                }
                piece = piece.unbluffed(piece.real, piece.role);
            }
            Capture::Bluff { square, real, .. } if square == piece.real || real == piece.real => {
                return Verdict::Contradiction;
            }
            _ => {}
        }
    }
    let bluff_shown_real = piece.bluff.is_some_and(|b| real_at.contains(b));
    match bluff_shown_real || clear.contains(piece.real) {
        true => Verdict::Contradiction,
        false => Verdict::Holds(piece),
    }
}

/// Whether a piece of `role` on `from` could be input to `to`, or beyond it along a line (where
/// it stopped or died), on a board without other pieces.
fn reaches(color: Color, role: Role, from: Square, to: Square) -> bool {
    Board::targets(color, role, from, Bitboard::EMPTY)
        .into_iter()
        .any(|t| t == to || between(from, t).contains(to))
}

/// Whether a piece of `role` arriving on `to` may show `shown` (the same type, or a pawn's
/// promotion on the last rank).
fn arrives_as(color: Color, role: Role, to: Square, shown: Role) -> bool {
    role == shown
        || (role == Role::Pawn
            && to.rank() == Rank::new(7).relative_to(color)
            && !matches!(shown, Role::Pawn | Role::King))
}

/// Every square an action's public record names.
fn mentioned(seen: &Resolution) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    match seen.public {
        Public::Image { from, to, .. } => squares |= Bitboard::from(from) | to,
        Public::Castle(mv) => {
            let (rook, rook_to) = castling_rook(mv);
            squares |= Bitboard::from(mv.from) | mv.to | rook | rook_to;
        }
        Public::Pass => {}
    }
    for capture in &seen.captures {
        match *capture {
            Capture::Bluff { square, real, .. } => squares |= Bitboard::from(square) | real,
            Capture::Real { square, bluff, .. } => {
                squares |= square;
                if let Some(b) = bluff {
                    squares |= b;
                }
            }
        }
    }
    if let Some(d) = seen.destroyed {
        squares |= Bitboard::from(d.square) | d.real;
    }
    squares
}

/// The squares that action `k` showed `seat` to hold no real piece of the side not moving: the
/// path of the seat's own move up to where it ended, a pawn's diagonal step that did not happen,
/// the squares of captured bluffs, where an image landed alive, castling's squares.
fn clear_squares(record: &Record, k: usize) -> Bitboard {
    let seen = &record.seen[k];
    let mut clear: Bitboard = seen
        .captures
        .iter()
        .filter_map(|c| match c {
            Capture::Bluff { square, .. } => Some(*square),
            Capture::Real { .. } => None,
        })
        .collect();
    if let Public::Castle(mv) = seen.public {
        return clear | between(mv.from, castling_rook(mv).0);
    }
    let blocked_end = |end: Square| {
        seen.destroyed.is_some_and(|d| d.square == end)
            || seen
                .captures
                .iter()
                .any(|c| matches!(c, Capture::Real { square, .. } if *square == end))
    };
    if let Some(action) = record.own[k] {
        let mv = action.mv();
        if let Private::NoEnemy(sq) = seen.private {
            clear |= sq;
        }
        if let Some(end) = seen.end {
            clear |= between(mv.from, end) | end;
            if blocked_end(end) {
                clear = clear.without(end);
            }
        }
    } else if let Public::Image { to, .. } = seen.public {
        if !blocked_end(to) {
            clear |= to;
        }
    }
    clear
}

/// The squares that action `k` showed `seat` to hold a real piece of the side not moving: where
/// a real piece was captured or a bluff died, where the seat's real pawn was stopped.
fn real_squares(record: &Record, k: usize) -> Bitboard {
    let seen = &record.seen[k];
    let mut squares: Bitboard = seen
        .captures
        .iter()
        .filter_map(|c| match c {
            Capture::Real { square, .. } => Some(*square),
            Capture::Bluff { .. } => None,
        })
        .collect();
    if let Some(d) = seen.destroyed {
        squares |= d.square;
    }
    if record.own[k].is_some() {
        if let Private::Blocked(sq) | Private::StoppedShort(sq) = seen.private {
            squares |= sq;
        }
    }
    squares
}

/// A memo's table: a memo holds only answers, so one a panicking thread left is still good.
fn lock<T>(memo: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    memo.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether each need (a list of passes) can have a pass of its own (Kuhn's augmenting paths).
fn matching(needs: &[Passes]) -> bool {
    fn augment(
        i: usize,
        needs: &[Passes],
        owner: &mut HashMap<u32, usize>,
        seen: &mut Vec<u32>,
    ) -> bool {
        for &pass in needs[i].iter() {
            if seen.contains(&pass) {
                continue;
            }
            seen.push(pass);
            let free = match owner.get(&pass) {
                None => true,
                Some(&j) => augment(j, needs, owner, seen),
            };
            if free {
                owner.insert(pass, i);
                return true;
            }
        }
        false
    }
    let mut owner = HashMap::new();
    (0..needs.len()).all(|i| augment(i, needs, &mut owner, &mut Vec::new()))
}
