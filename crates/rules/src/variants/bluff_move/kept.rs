//! Every piece's input, kept from one action to the next. Input is judged on a side's own pieces
//! only, so an action changes the input of those pieces alone whose reach meets a square where
//! their side's pieces changed: a playout recomputes a few pieces a turn instead of all of them.

use super::actions::Action;
use super::board::Board;
use super::input::Piece;
use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::chess::{Move, PieceMoves};
use arrayvec::ArrayVec;
use rand::RngCore;

/// Each piece's reach and number of moves, and each side's number of actions: what
/// [`Board::reach`] and [`super::input::Input`] would count afresh.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Kept {
    /// The reach ([`Board::reach`]) of the piece on each square; empty where none stands.
    reach: [Bitboard; 64],
    /// The moves of the piece on each square (promotions counted per type); 0 where none stands.
    moves: [u8; 64],
    /// Each side's actions, castling aside: a real piece's moves count twice (as bluff moves).
    total: [usize; 2],
    /// Each side's castling moves ([`Board::castlings_for`]), which only its pieces on its back
    /// rank decide.
    castlings: [ArrayVec<Move, 2>; 2],
}

/// Each side's real pieces and bluffs, before an action: the sets [`Kept::update`] compares.
pub(super) type Sets = [[Bitboard; 2]; 2];

impl Kept {
    /// Every piece's input counted afresh.
    pub(super) fn new(board: &Board) -> Kept {
        let mut kept = Kept {
            reach: [Bitboard::EMPTY; 64],
            moves: [0; 64],
            total: [0; 2],
            castlings: Color::ALL.map(|c| board.castlings_for(c)),
        };
        for color in Color::ALL {
            for sq in board.own(color) {
                kept.recount(board, color, sq);
            }
        }
        kept
    }

    /// Each side's real pieces and bluffs now.
    pub(super) fn sets(board: &Board) -> Sets {
        Color::ALL.map(|c| [board.real[c.index()], board.bluffs[c.index()]])
    }

    /// Brings the input up to date after `action`, `before` being the sets before it.
    // Not inlined: inlined in `replay`, it made a playout 7% slower.
    #[inline(never)]
    pub(super) fn update(&mut self, board: &Board, before: Sets, action: Action) {
        let changed = changed(board, before, action);
        // Pieces that left or changed first: a square may pass from one side to the other.
        for color in Color::ALL {
            let [real, bluffs] = before[color.index()];
            for sq in changed[color.index()] & (real | bluffs) {
                self.total[color.index()] -= self.weight(sq, real.contains(sq));
                self.reach[sq.index()] = Bitboard::EMPTY;
                self.moves[sq.index()] = 0;
            }
        }
        for color in Color::ALL {
            self.recount_around(board, color, changed[color.index()]);
            // Only a side's own back rank decides its castling, once it has any left.
            let back_rank = Bitboard::rank(Rank::new(0).relative_to(color));
            let castled_out = self.castlings[color.index()].is_empty()
                && !(board.unmoved & board.real[color.index()]).more_than_one();
            if (changed[color.index()] & back_rank).any() && !castled_out {
                self.castlings[color.index()] = board.castlings_for(color);
            }
        }
    }

    /// Counts again the pieces of `color` on `changed` and those whose reach may meet it.
    fn recount_around(&mut self, board: &Board, color: Color, changed: Bitboard) {
        // Found as a chess engine finds the attackers of a square, with no pass over the pieces
        // (which way each would go is random in a playout, and mispredicted).
        let stale = changed
            .into_iter()
            .fold(changed, |stale, sq| stale | reaching(board, color, sq));
        for sq in stale & board.own(color) {
            self.recount(board, color, sq);
        }
    }

    /// Counts the input of `color`'s piece on `sq` again.
    fn recount(&mut self, board: &Board, color: Color, sq: Square) {
        let real = board.real[color.index()].contains(sq);
        let counted = board.counted(color, sq);
        let role = board.role(sq).expect("a piece stands there");
        let reach = Board::reach(color, role, sq, counted);
        let to = reach - counted;
        self.total[color.index()] -= self.weight(sq, real);
        self.reach[sq.index()] = reach;
        self.moves[sq.index()] = PieceMoves { role, from: sq, to }.len() as u8;
        self.total[color.index()] += self.weight(sq, real);
    }

    /// The actions of the piece on `sq`: a real piece's moves, each also as a bluff move.
    #[inline]
    fn weight(&self, sq: Square, real: bool) -> usize {
        usize::from(self.moves[sq.index()]) << usize::from(real)
    }

    /// The input squares of the side to move's piece on `from`, castling aside.
    pub(super) fn targets(&self, board: &Board, from: Square) -> Bitboard {
        self.reach[from.index()] - board.counted(board.turn, from)
    }

    /// Whether the side to move has any legal action.
    pub(super) fn has_legal_action(&self, board: &Board) -> bool {
        self.total[board.turn.index()] > 0 || !self.castlings[board.turn.index()].is_empty()
    }

    /// A legal action drawn uniformly: the one at a single `random_range` over the number of
    /// actions [`Board::legal_actions`] lists, found without listing them or counting every piece
    /// again.
    pub(super) fn draw(&self, board: &Board, rng: &mut dyn RngCore) -> Option<Action> {
        let castlings = &self.castlings[board.turn.index()];
        let count = self.total[board.turn.index()] + castlings.len();
        crate::game::draw_index(rng, count).and_then(|i| self.get(board, castlings, i))
    }

    /// The action at `index` in [`Board::legal_actions`]' list, `castlings` being the side to
    /// move's castling moves.
    pub(super) fn get(
        &self,
        board: &Board,
        castlings: &[Move],
        mut index: usize,
    ) -> Option<Action> {
        let color = board.turn;
        // Real pieces first, then bluffs: the order of the list.
        let [real, bluffs] = [board.real[color.index()], board.bluffs[color.index()]];
        for (pieces, is_real) in [(real, true), (bluffs, false)] {
            for from in pieces {
                let len = self.weight(from, is_real);
                if index < len {
                    return self.piece(board, from, is_real).get(index);
                }
                index -= len;
            }
        }
        castlings.get(index).copied().map(Action::Move)
    }

    /// The side to move's piece on `from`, with its kept input.
    fn piece(&self, board: &Board, from: Square, real: bool) -> Piece {
        let role = board.role(from).expect("a piece stands there");
        let to = self.targets(board, from);
        Piece::new(role, from, to, self.moves[from.index()], real)
    }
}

/// The pieces of `color` whose reach may hold `sq`: those that would reach it on a board of the
/// side's real pieces alone, by the type they show. A few more than reach it (a bluff stops
/// every piece but its own real one; a pawn's double step is taken as free), never fewer.
fn reaching(board: &Board, color: Color, sq: Square) -> Bitboard {
    let real = board.real[color.index()];
    let queens = board.showing(Role::Queen);
    let diagonal = board.showing(Role::Bishop) | queens;
    let straight = board.showing(Role::Rook) | queens;
    let pawns = pawn_sources(color, sq) & board.showing(Role::Pawn);
    let pieces = (bishop_attacks(sq, real) & diagonal)
        | (rook_attacks(sq, real) & straight)
        | (knight_attacks(sq) & board.showing(Role::Knight))
        | (king_attacks(sq) & board.showing(Role::King))
        | pawns;
    pieces & board.own(color)
}

/// The squares from which a pawn of `color` may reach `sq`: one or (from its second rank) two
/// steps behind it, or a diagonal step away.
fn pawn_sources(color: Color, sq: Square) -> Bitboard {
    let one = Bitboard::from(sq).shift_back(color);
    let two = one.shift_back(color) & Bitboard::rank(Rank::new(1).relative_to(color));
    pawn_attacks(!color, sq) | one | two
}

/// The squares where each side's pieces changed in `action`: a piece came, went, or turned from
/// real to bluff or back.
fn changed(board: &Board, before: Sets, action: Action) -> [Bitboard; 2] {
    let mover = !board.turn;
    Color::ALL.map(|c| {
        let [real, bluffs] = before[c.index()];
        let changed = (real ^ board.real[c.index()]) | (bluffs ^ board.bluffs[c.index()]);
        // A new bluff may take its old bluff's square: the same sets, another type maybe.
        match (c == mover, action) {
            (true, Action::Bluff(mv)) => changed | mv.to,
            _ => changed,
        }
    })
}
