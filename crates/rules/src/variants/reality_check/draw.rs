//! A random turn drawn without listing every action (playouts): the actions are counted piece
//! by piece in the order [`RealityCheck::push_turn_actions`] lists them, and the one at the drawn
//! index is built, so the same generator draws the same action either way.

use super::actions::Action;
use super::moves::targets;
use super::pieces::Face;
use super::pieces::Kind;
use super::state::RealityCheck;
use crate::board::board39::{Bitboard39, Square39};
use rand::RngCore;

/// One piece's moves: quiet ones, captures (each a move and a Reality Check), retreats.
#[derive(Clone, Copy, Default)]
struct Moves {
    from: Option<Square39>,
    quiet: Bitboard39,
    captures: Bitboard39,
    retreats: Bitboard39,
}

impl Moves {
    fn count(&self) -> usize {
        self.quiet.count() as usize
            + 2 * self.captures.count() as usize
            + self.retreats.count() as usize
    }

    /// The `i`th of this piece's actions, in listing order.
    fn nth(&self, mut i: usize) -> Option<Action> {
        let from = self.from?;
        let quiet = self.quiet.count() as usize;
        if i < quiet {
            return nth(self.quiet, i).map(|to| Action::Move { from, to });
        }
        i -= quiet;
        let captures = 2 * self.captures.count() as usize;
        if i < captures {
            let to = nth(self.captures, i / 2)?;
            return Some(match i % 2 {
                0 => Action::Move { from, to },
                _ => Action::RealityCheck { from, to },
            });
        }
        nth(self.retreats, i - captures).map(|to| Action::Move { from, to })
    }
}

/// The `i`th square of a set, lowest first.
fn nth(mut set: Bitboard39, i: usize) -> Option<Square39> {
    set.nth(i)
}

impl RealityCheck {
    /// A turn's action drawn uniformly, as a draw over the listed actions would draw it.
    pub(super) fn draw_turn_action(&self, rng: &mut dyn RngCore) -> Option<Action> {
        let c = self.turn;
        let forced = self.must_drop(c);
        // Filled in place: a table returned by value is copied.
        let mut moves = [Moves::default(); 10];
        if !forced {
            self.fill_moves(&mut moves);
        }
        let squares = self.empty_drop_squares(c);
        let room = squares.count() as usize;
        let kinds = || Kind::in_set(self.hands[c.index()]);
        let drops_of = |kind: Kind| {
            let (a, b) = kind.faces();
            room * if a == b { 1 } else { 2 }
        };
        let enemies = self.by_color[(!c).index()].count() as usize;
        let memories = match !forced && self.rules.memory {
            true => enemies * enemies.saturating_sub(1) / 2,
            false => 0,
        };
        let total = moves.iter().map(Moves::count).sum::<usize>()
            + kinds().map(drops_of).sum::<usize>()
            + memories;
        let mut i = crate::game::draw_index(rng, total)?;
        for piece in &moves {
            match i.checked_sub(piece.count()) {
                Some(rest) => i = rest,
                None => return piece.nth(i),
            }
        }
        for kind in kinds() {
            let (a, b) = kind.faces();
            match i.checked_sub(drops_of(kind)) {
                Some(rest) => i = rest,
                None if i < room => {
                    return nth(squares, i).map(|to| Action::Drop { up: a, down: b, to })
                }
                None => {
                    return nth(squares, i - room).map(|to| Action::Drop { up: b, down: a, to })
                }
            }
        }
        self.nth_memory(i)
    }

    /// Every own piece's moves, as [`RealityCheck::push_moves`] lists them, into `all`.
    fn fill_moves(&self, all: &mut [Moves; 10]) {
        let c = self.turn;
        let occupied = self.occupied();
        let enemy = self.by_color[(!c).index()];
        let may_capture = !self.first_move_restricted();
        let may_retreat = self.may_retreat();
        let board = self.rules.board;
        let own = self.by_color[c.index()];
        // Each face's pieces together (no branch on a piece's face: a random board's faces
        // mispredict), each into its place in the order of the own pieces' squares.
        for face in Face::ALL {
            for from in own & self.by_face[face.index()] {
                let before = Bitboard39(own.0 & ((1 << from.index()) - 1));
                let Some(slot) = all.get_mut(before.count() as usize) else {
                    continue;
                };
                let (quiet, captures) = targets(board, face, from, occupied);
                *slot = Moves {
                    from: Some(from),
                    quiet,
                    captures: if may_capture {
                        captures & enemy
                    } else {
                        Bitboard39::EMPTY
                    },
                    retreats: if may_retreat {
                        captures - enemy
                    } else {
                        Bitboard39::EMPTY
                    },
                };
            }
        }
    }

    /// The `i`th Memory turn: pairs of enemy pieces, in listing order.
    fn nth_memory(&self, mut i: usize) -> Option<Action> {
        let mut enemy = self.by_color[(!self.turn).index()];
        while let Some(a) = enemy.next() {
            let pairs = enemy.count() as usize;
            if i < pairs {
                return nth(enemy, i).map(|b| Action::Memory(a, b));
            }
            i -= pairs;
        }
        None
    }
}
