//! The legal input of the side to move, piece by piece: each piece's input squares and their
//! number of moves, listed in full or in part (a playout draws from [`super::kept::Kept`], which
//! keeps the same counts across actions).

use super::actions::Action;
use super::board::Board;
use crate::board::{Bitboard, Role, Square};
use crate::chess::{Move, PieceMoves};
use arrayvec::ArrayVec;

/// One own piece's input squares, with how many moves they make (promotions counted per type).
#[derive(Clone, Copy, Debug)]
pub(super) struct Piece {
    pub(super) to: Bitboard,
    pub(super) role: Role,
    pub(super) from: Square,
    moves: u8,
    /// A real piece makes each move twice: as a move, then as a bluff move.
    pub(super) real: bool,
}

impl Piece {
    /// The own piece on `from`, `counted` being the own pieces in its way; `None` without input.
    fn of(board: &Board, from: Square, counted: Bitboard, real: bool) -> Option<Piece> {
        let role = board.role(from).expect("a piece stands there");
        let to = Board::targets(board.turn, role, from, counted);
        let moves = PieceMoves { role, from, to }.len() as u8;
        to.any().then_some(Piece::new(role, from, to, moves, real))
    }

    /// A piece whose input squares and their number of moves are known.
    pub(super) fn new(role: Role, from: Square, to: Bitboard, moves: u8, real: bool) -> Piece {
        Piece {
            to,
            role,
            from,
            moves,
            real,
        }
    }

    fn moves(&self) -> PieceMoves {
        self.moves_to(self.to)
    }

    /// Its moves to some of its targets.
    fn moves_to(&self, to: Bitboard) -> PieceMoves {
        PieceMoves {
            role: self.role,
            from: self.from,
            to,
        }
    }

    /// Its action at `index`: its moves in order, then (a real piece's) its bluff moves.
    pub(super) fn get(&self, index: usize) -> Option<Action> {
        let moves = usize::from(self.moves);
        // One call either way: whether a draw falls on a bluff move is not to be foretold.
        let bluff = index >= moves;
        let mv = self.moves().nth(index - usize::from(bluff) * moves)?;
        Some(match bluff {
            true => Action::Bluff(mv),
            false => Action::Move(mv),
        })
    }

    /// Appends its moves to `kept[0]` and its bluff moves to `kept[1]` (of its targets).
    fn list_into(&self, actions: &mut Vec<Action>, kept: [Bitboard; 2]) {
        let [moves, bluffs] = kept.map(|to| self.moves_to(self.to & to));
        actions.extend(moves.into_iter().map(Action::Move));
        if self.real {
            actions.extend(bluffs.into_iter().map(Action::Bluff));
        }
    }
}

/// Every legal action of the side to move, in the order [`Board::legal_actions`] lists them:
/// each real piece's moves then its bluff moves, each bluff's moves, then castling.
pub(super) struct Input {
    /// At most 16 real pieces and 16 bluffs.
    pieces: ArrayVec<Piece, 32>,
    castlings: ArrayVec<Move, 2>,
}

impl Input {
    pub(super) fn of(board: &Board) -> Input {
        let mut input = Input {
            pieces: ArrayVec::new(),
            castlings: board.castlings(),
        };
        input.add_pieces(board);
        input
    }

    /// Real pieces first, then bluffs: the order of the list.
    fn add_pieces(&mut self, board: &Board) {
        let color = board.turn;
        let own = board.own(color);
        for from in board.real[color.index()] {
            // A real piece's own bluff is not in its way.
            let counted = board.bluff_of(from).map_or(own, |b| own.without(b));
            self.pieces.extend(Piece::of(board, from, counted, true));
        }
        for from in board.bluffs[color.index()] {
            self.pieces.extend(Piece::of(board, from, own, false));
        }
    }

    /// Appends every action, in order.
    pub(super) fn list_into(&self, actions: &mut Vec<Action>) {
        self.list_kept_into(actions, |_| [Bitboard::FULL; 2], |_| true);
    }

    /// Appends some of the actions, in order: of each piece, the moves to the targets `kept`
    /// gives first and the bluff moves to those it gives second; the castling moves `castling`
    /// keeps.
    pub(super) fn list_kept_into(
        &self,
        actions: &mut Vec<Action>,
        kept: impl Fn(&Piece) -> [Bitboard; 2],
        castling: impl Fn(Move) -> bool,
    ) {
        for piece in &self.pieces {
            piece.list_into(actions, kept(piece));
        }
        let castlings = self.castlings.iter().copied().filter(|&mv| castling(mv));
        actions.extend(castlings.map(Action::Move));
    }
}

impl Board {
    /// Every action the side to move may take: the input its own pieces allow.
    pub(super) fn legal_actions(&self) -> Vec<Action> {
        let mut actions = Vec::with_capacity(96);
        Input::of(self).list_into(&mut actions);
        actions
    }
}
