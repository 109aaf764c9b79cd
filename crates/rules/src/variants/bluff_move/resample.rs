//! Drawing a Bluff-move game for a seat: a whole history, the hidden side's actions chosen
//! anew, that shows the seat exactly what it saw. The search reads only the seat's record
//! (`record.rs`, read from its view), never the game.
//!
//! The search replays the game from its start. The seat's own actions are replayed as they were
//! and must resolve exactly as they did (what they captured, where they stopped). For each action
//! of a hidden side (both sides, for a spectator) it lists the actions that side could have taken
//! in the sampled position that look exactly alike to the seat (the same public form, captures and
//! reveals) and that the lookahead (`lookahead.rs`) does not reject, and takes one at random.
//!
//! When an action cannot be explained, the search backs up by jumping back to the latest choice
//! that changed a square the failure depends on: the lines its image could have moved along, or
//! the pieces the lookahead found at fault. Jumping is a heuristic and may miss the answer, so a
//! search gives up after a budget of failures and starts again in a new random order, the budget
//! doubling every few restarts. It ends with probability 1: the lookahead is sound, so every
//! history that explains the record (the true one, and the belief's witness) is among the
//! explanations, and every search has a chance to draw it (after 30 restarts the search checks
//! that the witness passes, so that a bug fails loudly rather than hanging). Building a belief,
//! the search has no witness yet: it gives up after 20 restarts and calls the view impossible. (A
//! complete search that backs up one choice at a time was tried as the last resort and measured
//! exponential: over a minute for some 60-action histories.)
//!
//! The lookahead is the costly part, so it is asked only of the lookalike about to be chosen:
//! the lookalikes are shuffled and the first that passes is taken, which is a uniform draw among
//! the explanations without judging them all.
//!
//! Weighting: each hidden action is drawn uniformly among its explanations at that point (given
//! the sampled past), so a history `h` is drawn with probability about `prod 1/n_i(h)`, `n_i` being
//! the number of explanations of hidden action `i` (dead ends and restarts make it approximate).
//! Exact uniform sampling over consistent histories is intractable here; an AI that wants it can
//! weight each sample by `prod n_i`, whose logarithm [`BluffMoveBelief::sample_weighted`] (and
//! [`BluffMove::resample_weighted`]) returns.
//!
//! [`BluffMoveBelief::sample_weighted`]: super::BluffMoveBelief::sample_weighted

use super::actions::Action;
use super::board::{path, push_moves, Board};
use super::input::{Input, Piece};
use super::lookahead::{Crossings, Knowledge, Placed};
use super::record::Record;
use super::resolve::{self, Capture, Public, Resolution};
use crate::board::attacks::{between, line, pawn_attacks};
use crate::board::{Bitboard, Role, Square};
use crate::chess::Move;
use rand::seq::SliceRandom;
use rand::RngCore;

/// Restarts between doublings of the budget of failures.
const RESTARTS_PER_DOUBLING: usize = 10;

/// Restarts after which the search checks that a known explanation passes the lookahead.
const SUSPICIOUS_RESTARTS: usize = 30;

/// Restarts after which a search with no known explanation gives up: the view is taken as
/// impossible. A possible view is explained within a few restarts.
pub(super) const GIVE_UP_RESTARTS: usize = 20;

/// A history drawn for the record, and (when `weighted`) the log of its importance weight,
/// else 0. With a `known` explanation (the belief's witness) the search runs until it finds
/// one, which it does with probability 1; without one it gives up after
/// [`GIVE_UP_RESTARTS`] restarts.
pub(super) fn draw(
    record: &Record,
    knowledge: &Knowledge,
    rng: &mut dyn RngCore,
    weighted: bool,
    known: Option<&[Action]>,
) -> Option<(Vec<Action>, f64)> {
    let search = Search { record, knowledge };
    let budget = 8 * record.len() + 64;
    let (actions, mut frames) = (0..).find_map(|restart| {
        // Ending rests on the known explanation passing the lookahead: when the search is slow
        // to end, check that, so that a bug there fails loudly rather than hanging.
        match known {
            Some(known) if restart == SUSPICIOUS_RESTARTS => assert!(
                search.explains(known),
                "the lookahead rejects a known explanation"
            ),
            None if restart == GIVE_UP_RESTARTS => return Some(None),
            _ => {}
        }
        let doublings = (restart / RESTARTS_PER_DOUBLING).min(20);
        search.run(rng, budget << doublings).map(Some)
    })??;
    let weight = match weighted {
        true => frames.iter_mut().map(|f| search.log_explanations(f)).sum(),
        false => 0.0,
    };
    Some((actions, weight))
}

/// An action that looks to the seat like a hidden action, and the squares it changed. It explains
/// the hidden action if it also passes the lookahead. The board it leaves is played again when
/// needed: lookalikes are many (a pawn's diagonal step onto no enemy piece is one of every pass),
/// and a board each would be costly to keep and to shuffle.
#[derive(Clone, Copy)]
struct Choice {
    action: Action,
    footprint: Bitboard,
    /// The real pieces whose placement it decided, for the lookahead.
    decided: Bitboard,
}

impl Choice {
    /// The board it leaves, played from the board `before` it.
    fn after(&self, before: &Board) -> Board {
        let mut after = *before;
        resolve::play(&mut after, self.action);
        after
    }
}

/// A hidden action with its lookalikes, as tried so far.
struct Frame {
    step: usize,
    /// The board before it.
    before: Board,
    /// Its lookalikes in random order: those before `tried` are explanations tried already,
    /// the one at `tried` is the current choice, and later ones are not judged yet (a lookalike
    /// that fails the lookahead is removed).
    options: Vec<Choice>,
    tried: usize,
    /// The squares any of its explanations changed; until `judged`, those of its lookalikes.
    scope: Bitboard,
    /// Whether every lookalike was judged (done when the search first backs up into it).
    judged: bool,
    /// The squares blamed for the lookalikes that failed the lookahead.
    blamed: Bitboard,
}

struct Search<'a> {
    record: &'a Record,
    knowledge: &'a Knowledge,
}

impl Search<'_> {
    /// One depth-first search in random order that backs up by jumping to the latest choice
    /// that changed a square the failure depends on, and gives up after `budget` failures or
    /// when it has nowhere left to back up to.
    fn run(&self, rng: &mut dyn RngCore, budget: usize) -> Option<(Vec<Action>, Vec<Frame>)> {
        let n = self.record.len();
        let mut chosen: Vec<Action> = Vec::with_capacity(n);
        let mut frames: Vec<Frame> = Vec::with_capacity(n);
        let mut board = self.record.start;
        let mut failures = 0;
        loop {
            let step = chosen.len();
            let Some(mut conflict) = self.advance(rng, &mut board, &mut chosen, &mut frames) else {
                if step == n {
                    return Some((chosen, frames));
                }
                continue;
            };
            failures += 1;
            if failures > budget {
                return None;
            }
            loop {
                let frame = frames.last_mut()?;
                self.judge_all(frame);
                if (frame.scope & conflict).any() {
                    frame.tried += 1;
                    if let Some((action, after)) = self.next_explanation(frame, conflict) {
                        chosen.truncate(frame.step);
                        chosen.push(action);
                        board = after;
                        break;
                    }
                    // Every explanation failed: what they changed joins the conflict.
                    conflict |= frame.scope;
                }
                frames.pop();
            }
        }
    }

    /// Explains the next action: `None` when it did (or the history is complete and the side to
    /// act has a move), else the squares the failure depends on.
    fn advance(
        &self,
        rng: &mut dyn RngCore,
        board: &mut Board,
        chosen: &mut Vec<Action>,
        frames: &mut Vec<Frame>,
    ) -> Option<Bitboard> {
        let step = chosen.len();
        if step == self.record.len() {
            return (!board.has_legal_action()).then_some(Bitboard::FULL);
        }
        if let Some(action) = self.record.own[step] {
            // Only a hostile view has an own action its own pieces do not allow.
            if board.refusal(action).is_some() {
                return Some(Bitboard::FULL);
            }
            let mut next = *board;
            if resolve::play(&mut next, action) != self.record.seen[step] {
                let mv = action.mv();
                return Some(between(mv.from, mv.to) | mv.from | mv.to);
            }
            chosen.push(action);
            *board = next;
            return None;
        }
        let mut options = self.lookalikes(board, step);
        if options.is_empty() {
            return Some(self.conflict(board, step));
        }
        options.shuffle(rng);
        let scope = options
            .iter()
            .fold(Bitboard::EMPTY, |scope, c| scope | c.footprint);
        let mut frame = Frame {
            step,
            before: *board,
            options,
            tried: 0,
            scope,
            judged: false,
            blamed: Bitboard::EMPTY,
        };
        let Some((action, after)) = self.next_explanation(&mut frame, Bitboard::EMPTY) else {
            // Every lookalike failed the lookahead: the pieces it blamed must change.
            return Some(match frame.blamed.any() {
                true => frame.blamed,
                false => Bitboard::FULL,
            });
        };
        chosen.push(action);
        *board = after;
        frames.push(frame);
        None
    }

    /// The next explanation of `frame` to try, from its untried lookalikes: those that touch
    /// `conflict` first, each group in its random order. Lookalikes that fail the lookahead on
    /// the way are removed, their blame kept in the frame. The explanation's action and the board
    /// it leaves; `None` when none is left.
    fn next_explanation(&self, frame: &mut Frame, conflict: Bitboard) -> Option<(Action, Board)> {
        loop {
            let untried = frame.tried..frame.options.len();
            let j = untried
                .clone()
                .find(|&j| (frame.options[j].footprint & conflict).any())
                .or((!untried.is_empty()).then_some(frame.tried))?;
            let choice = frame.options[j];
            let after = choice.after(&frame.before);
            match self.blame(&frame.before, &choice, &after, frame.step) {
                None => {
                    frame.options[frame.tried..=j].rotate_right(1);
                    return Some((choice.action, after));
                }
                Some(blamed) => frame.blamed |= blamed,
            }
            frame.options.remove(j);
        }
    }

    /// Judges the lookalikes of `frame` not judged yet, keeping the explanations, so that its
    /// scope is exactly what its explanations changed (backing up relies on it).
    fn judge_all(&self, frame: &mut Frame) {
        if frame.judged {
            return;
        }
        let (before, step) = (frame.before, frame.step);
        let mut j = frame.tried + 1;
        while j < frame.options.len() {
            if self.placements_hold(&before, &frame.options[j], step) {
                j += 1;
            } else {
                frame.options.remove(j);
            }
        }
        frame.scope = frame
            .options
            .iter()
            .fold(Bitboard::EMPTY, |scope, c| scope | c.footprint);
        frame.judged = true;
    }

    /// The log of the number of explanations of a frame on the final path.
    fn log_explanations(&self, frame: &mut Frame) -> f64 {
        self.judge_all(frame);
        (frame.options.len() as f64).ln()
    }

    /// Whether a history that explains the record passes the lookahead at every hidden action,
    /// as the lookahead's soundness promises.
    fn explains(&self, actions: &[Action]) -> bool {
        let mut board = self.record.start;
        actions.iter().enumerate().all(|(step, action)| {
            let hidden = self.record.own[step].is_none();
            let explained = !hidden
                || self
                    .lookalikes(&board, step)
                    .iter()
                    .find(|c| c.action == *action)
                    .is_some_and(|c| self.placements_hold(&board, c, step));
            resolve::play(&mut board, *action);
            explained
        })
    }

    /// The squares on which hidden action `step` being unexplainable on `board` depends: the
    /// lines its image's piece could have moved along.
    fn conflict(&self, board: &Board, step: usize) -> Bitboard {
        let seen = &self.record.seen[step];
        let color = board.turn.index();
        match seen.public {
            Public::Image { from, to, .. } => {
                let mut sources = Bitboard::from(from);
                if board.bluffs[color].contains(from) {
                    sources |= board.real_of(from);
                } else if !board.real[color].contains(from) {
                    return Bitboard::FULL;
                }
                let mut squares = sources | to;
                for source in sources {
                    squares |= line(source, to);
                }
                squares
            }
            Public::Castle(mv) => {
                let (rook, _) = resolve::castling_rook(mv);
                between(mv.from, rook) | mv.from | rook
            }
            // An unseen move that swept bluffs: a hidden piece whose way to its bluff (clear of
            // its own pieces) crosses them.
            Public::Pass if !seen.captures.is_empty() => {
                let hidden = board.hidden[color];
                let mut squares = hidden;
                for real in hidden {
                    if let Some(bluff) = board.bluff_of(real) {
                        squares |= between(real, bluff) | bluff;
                    }
                }
                for capture in &seen.captures {
                    if let Capture::Bluff { square, real, .. } = *capture {
                        squares |= Bitboard::from(square) | real;
                    }
                }
                squares
            }
            Public::Pass => Bitboard::FULL,
        }
    }

    /// The actions of the side to move that look to the seat like hidden action `step`.
    fn lookalikes(&self, board: &Board, step: usize) -> Vec<Choice> {
        let seen = &self.record.seen[step];
        let candidates = match seen.public {
            Public::Castle(mv) if board.castlings().contains(&mv) => vec![Action::Move(mv)],
            Public::Castle(_) => Vec::new(),
            Public::Image { from, to, .. } => {
                // Only a piece stopped on `to` (by a real piece taken or met there, or a real
                // pawn's step stopped short, which the seat may not see) aimed beyond it.
                let real_met = seen.destroyed.is_some_and(|d| d.square == to)
                    || seen
                        .captures
                        .iter()
                        .any(|c| matches!(c, Capture::Real { square, .. } if *square == to));
                image_moves(board, from, to, real_met)
            }
            Public::Pass => pass_candidates(board),
        };
        let mut options = Vec::with_capacity(candidates.len());
        for action in candidates {
            // A step that does not happen leaves the pieces as they were: no board to play.
            if let Some(stopped) = resolve::stopped_at_once(board, action) {
                if stopped.looks_alike(seen) {
                    options.push(Choice {
                        action,
                        footprint: Bitboard::EMPTY,
                        decided: decided(board, board, action, &stopped),
                    });
                }
                continue;
            }
            let mut next = *board;
            let resolution = resolve::play(&mut next, action);
            if resolution.looks_alike(seen) {
                options.push(Choice {
                    action,
                    footprint: footprint(board, &next),
                    decided: decided(board, &next, action, &resolution),
                });
            }
        }
        options
    }

    /// Whether the pieces whose placement a lookalike decided fit the rest of the history.
    fn placements_hold(&self, before: &Board, choice: &Choice, step: usize) -> bool {
        let after = choice.after(before);
        self.blame(before, choice, &after, step).is_none()
    }

    /// `None` if the pieces whose placement a lookalike decided fit the rest of the history,
    /// else the squares (on the board before it) whose pieces the lookahead found at fault.
    /// `after` is the board the lookalike leaves.
    fn blame(
        &self,
        before: &Board,
        choice: &Choice,
        after: &Board,
        step: usize,
    ) -> Option<Bitboard> {
        let color = before.turn;
        // A piece's squares, and where the lookalike moved it from.
        let squares = |real: Square| {
            let piece =
                Bitboard::from(real) | after.bluff_of(real).map_or(Bitboard::EMPTY, Bitboard::from);
            match (piece & choice.footprint).any() {
                true => piece | choice.footprint,
                false => piece,
            }
        };
        let mut crossings = Crossings::default();
        if let Some(real) = choice.decided.into_iter().find(|&real| {
            let piece = Placed::on(after, color, real);
            !self
                .knowledge
                .allows(&piece, after, step + 1, &mut crossings)
        }) {
            return Some(squares(real));
        }
        let room = self
            .knowledge
            .room_to_move_unseen(after, color, step + 1, &mut crossings);
        if let Err(reals) = room {
            return Some(
                reals
                    .into_iter()
                    .map(squares)
                    .fold(Bitboard::EMPTY, |a, b| a | b),
            );
        }
        (!self.knowledge.reals_can_arrive(after, step + 1)).then_some(Bitboard::FULL)
    }
}

/// The real pieces whose placement `action` decided: the moved piece (real on its image, or
/// hidden behind its bluff), and after a pass every hidden piece of the mover (which may or may
/// not have moved unseen).
fn decided(before: &Board, after: &Board, action: Action, resolution: &Resolution) -> Bitboard {
    let color = before.turn.index();
    let mut decided = match action {
        Action::Bluff(mv) => Bitboard::from(mv.from),
        Action::Move(mv) if before.is_bluff(mv.from) => Bitboard::from(before.real_of(mv.from)),
        Action::Move(_) => resolution.end.map_or(Bitboard::EMPTY, Bitboard::from),
    };
    if resolution.public == Public::Pass {
        decided |= after.hidden[color];
    }
    decided & after.real[color]
}

/// The legal actions that may leave every image as it was, in the order of the legal actions
/// (the draw shuffles them: listing them in another order draws other histories for a seed).
fn pass_candidates(board: &Board) -> Vec<Action> {
    // Room for the usual count (each pawn's diagonal steps onto no enemy piece, twice): grown
    // one action at a time, the list costs more than its actions.
    let mut actions = Vec::with_capacity(64);
    let enemy_real = board.real[(!board.turn).index()];
    let castling_stopped = |mv: Move| {
        let (rook, _) = resolve::castling_rook(mv);
        (between(mv.from, rook) & enemy_real).any()
    };
    Input::of(board).list_kept_into(
        &mut actions,
        |piece| showing_nothing(board, piece),
        castling_stopped,
    );
    actions
}

/// The targets of a piece's moves and of its bluff moves that may leave every image as it was
/// (a cheap test that lets through every action that does, and few others): a pawn's diagonal
/// step onto no enemy piece, a real pawn's straight step blocked at once, a real piece going onto
/// or past its own bluff's square. (Castling stopped by an enemy real piece is the other one.)
fn showing_nothing(board: &Board, piece: &Piece) -> [Bitboard; 2] {
    let (from, them) = (piece.from, !board.turn);
    let pawn = piece.role == Role::Pawn;
    let diagonal = match pawn {
        true => piece.to & pawn_attacks(board.turn, from),
        false => Bitboard::EMPTY,
    };
    let no_enemy = diagonal - board.own(them);
    if !piece.real {
        return [no_enemy, Bitboard::EMPTY];
    }
    let straight = piece.to - diagonal;
    let blocked = match straight.first() {
        Some(to) if pawn && board.real[them.index()].contains(path(from, to)[0]) => straight,
        _ => Bitboard::EMPTY,
    };
    let past_bluff = match board.bluff_of(from) {
        Some(b) => straight
            .into_iter()
            .filter(|&to| to == b || between(from, to).contains(b))
            .collect(),
        None => Bitboard::EMPTY,
    };
    [no_enemy | blocked | past_bluff, no_enemy | past_bluff]
}

/// Whether `action` may leave every image as it was: what [`pass_candidates`] keeps, an action at
/// a time (for tests).
#[cfg(test)]
fn may_show_nothing(board: &Board, action: Action) -> bool {
    let mv = action.mv();
    let them = !board.turn;
    let pawn = board.role(mv.from) == Some(Role::Pawn);
    if pawn && mv.from.file() != mv.to.file() {
        return !board.own(them).contains(mv.to);
    }
    if board.is_bluff(mv.from) {
        return false;
    }
    let enemy_real = board.real[them.index()];
    if matches!(action, Action::Move(_)) && board.is_castling(mv) {
        let (rook, _) = resolve::castling_rook(mv);
        return (between(mv.from, rook) & enemy_real).any();
    }
    let blocked =
        pawn && matches!(action, Action::Move(_)) && enemy_real.contains(path(mv.from, mv.to)[0]);
    let on_path = |b: Square| b == mv.to || between(mv.from, mv.to).contains(b);
    blocked || board.bluff_of(mv.from).is_some_and(on_path)
}

/// The squares whose pieces differ between two boards.
fn footprint(a: &Board, b: &Board) -> Bitboard {
    let mut squares = Bitboard::EMPTY;
    for c in 0..2 {
        squares |= (a.real[c] ^ b.real[c]) | (a.bluffs[c] ^ b.bluffs[c]);
    }
    squares
}

/// The actions that could have moved the image on `from` to `to`: a real piece or a bluff
/// travelling to `to`, or beyond it when it may have stopped there: a real piece was met there
/// (`real_met`), or a pawn's straight step stopped short.
fn image_moves(board: &Board, from: Square, to: Square, real_met: bool) -> Vec<Action> {
    let color = board.turn;
    let mut actions = Vec::new();
    let reaches = |source: Square| {
        let beyond = real_met || board.role(source) == Some(Role::Pawn);
        board
            .piece_targets(source)
            .into_iter()
            .filter(|&t| t == to || (beyond && between(source, t).contains(to)))
            .collect::<Bitboard>()
    };
    let wraps: [fn(Move) -> Action; 2] = [Action::Move, Action::Bluff];
    if board.bluffs[color.index()].contains(from) {
        push_moves(&mut actions, board, from, reaches(from), Action::Move);
        let real = board.real_of(from);
        for wrap in wraps {
            push_moves(&mut actions, board, real, reaches(real), wrap);
        }
    } else if board.real[color.index()].contains(from) && board.bluff_of(from).is_none() {
        for wrap in wraps {
            push_moves(&mut actions, board, from, reaches(from), wrap);
        }
    }
    actions
}

#[cfg(test)]
mod soundness {
    use super::*;
    use crate::game::Game;
    use crate::options::Options;
    use crate::seat::Seat;
    use crate::variants::bluff_move::state::BluffMove;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    /// The candidates for a pass are the legal actions that pass the test an action at a time,
    /// in order.
    #[test]
    fn candidates_for_a_pass_are_listed_in_order() {
        let mut rng = StdRng::seed_from_u64(13);
        for _ in 0..30 {
            let mut game = BluffMove::new(&Options::new()).unwrap();
            while let Some(action) = crate::playout::random_action(&game, &mut rng) {
                let mut expected = game.legal_actions();
                expected.retain(|&a| may_show_nothing(&game.board, a));
                assert_eq!(pass_candidates(&game.board), expected);
                game.apply(&action).unwrap();
            }
        }
    }

    /// Every legal action that shows nothing is among the candidates for a pass, which are legal.
    #[test]
    fn every_action_that_shows_nothing_is_a_candidate_for_a_pass() {
        let mut rng = StdRng::seed_from_u64(12);
        let mut passes = 0;
        for _ in 0..20 {
            let mut game = BluffMove::new(&Options::new()).unwrap();
            while let Some(action) = crate::playout::random_action(&game, &mut rng) {
                let candidates = pass_candidates(&game.board);
                for a in game.legal_actions() {
                    let mut board = game.board;
                    if resolve::play(&mut board, a).public == Public::Pass {
                        assert!(candidates.contains(&a), "{a}");
                        passes += 1;
                    }
                }
                assert!(candidates.iter().all(|a| game.legal_actions().contains(a)));
                game.apply(&action).unwrap();
            }
        }
        assert!(passes > 1000, "{passes}");
    }

    /// The search ends only if the truth always passes the lookahead built from the view.
    #[test]
    fn the_true_history_is_always_an_explanation() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..60 {
            let mut game = BluffMove::new(&Options::new()).unwrap();
            crate::playout::random_playout(&mut game, &mut rng, 300);
            for seat in Seat::ALL {
                let record =
                    Record::from_events(seat, &game.view_revealed(seat, false).events).unwrap();
                let knowledge = Knowledge::new(&record);
                let search = Search {
                    record: &record,
                    knowledge: &knowledge,
                };
                assert!(
                    search.explains(&game.log.actions),
                    "{seat}: {:?}",
                    game.log.actions
                );
            }
        }
    }
}
