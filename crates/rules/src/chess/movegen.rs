//! Legal move generation. Moves come in groups, one group a piece: its square and the set of
//! squares it may go to, so that counting the moves of a position needs no list at all.

use super::moves::Move;
use super::position::Position;
use super::position::{CastlingMove, CASTLING_MOVES};
use crate::board::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, pawns_attacks,
    rook_attacks,
};
use crate::board::{Bitboard, Color, Rank, Role, Square};
use arrayvec::ArrayVec;

/// The legal moves of one piece: every square of `to` (for a pawn reaching the last rank, once
/// for each of the four promotion types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The moving piece's type.
    pub role: Role,
    /// Where it stands.
    pub from: Square,
    /// Where it may go.
    pub to: Bitboard,
}

impl PieceMoves {
    /// How many moves the group holds, promotions counted once per type.
    #[inline(always)]
    pub fn len(&self) -> usize {
        (self.to.count() + 3 * self.promoting().count()) as usize
    }

    /// The squares where it promotes: a pawn's on the last rank. No branch on the type, which a
    /// random draw's piece cannot foretell.
    #[inline(always)]
    fn promoting(&self) -> Bitboard {
        let pawn = Bitboard(u64::from(self.role == Role::Pawn).wrapping_neg());
        self.to & Bitboard::BACKRANKS & pawn
    }

    /// Whether the group holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.to.is_empty()
    }

    /// The move at `index` in the group's order (promotions of one square together).
    #[inline]
    pub fn nth(self, index: usize) -> Option<Move> {
        // One branch, on a rare promotion, and none on the type.
        if self.promoting().any() {
            return self.into_iter().nth(index);
        }
        let to = self.to.into_iter().nth(index)?;
        Some(Move::new(self.from, to))
    }

    /// Whether `mv` is one of these moves.
    pub fn contains(&self, mv: Move) -> bool {
        let promotes = self.role == Role::Pawn && Bitboard::BACKRANKS.contains(mv.to);
        let promotion_ok = match mv.promotion {
            None => !promotes,
            Some(role) => promotes && Role::PROMOTIONS.contains(&role),
        };
        mv.from == self.from && self.to.contains(mv.to) && promotion_ok
    }
}

impl IntoIterator for PieceMoves {
    type Item = Move;
    type IntoIter = PieceMovesIter;

    fn into_iter(self) -> PieceMovesIter {
        PieceMovesIter {
            moves: self,
            promotion: 0,
        }
    }
}

/// The moves of a [`PieceMoves`] one at a time.
pub struct PieceMovesIter {
    moves: PieceMoves,
    promotion: usize,
}

impl Iterator for PieceMovesIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        let to = self.moves.to.first()?;
        let from = self.moves.from;
        if self.moves.role == Role::Pawn && Bitboard::BACKRANKS.contains(to) {
            let promotion = Role::PROMOTIONS[self.promotion];
            self.promotion += 1;
            if self.promotion == 4 {
                self.promotion = 0;
                self.moves.to = self.moves.to.without(to);
            }
            return Some(Move {
                from,
                to,
                promotion: Some(promotion),
            });
        }
        self.moves.to = self.moves.to.without(to);
        Some(Move::new(from, to))
    }
}

/// Room for the legal moves of any position (the known maximum is 218).
pub type MoveList = ArrayVec<Move, 256>;

/// The legal moves of a position piece by piece, in the order [`Position::generate_moves`] visits
/// them: the list of moves they make one after the other, counted and indexed without listing it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveGroups {
    /// Each piece's moves, with how many there are (counted once). A side has at most sixteen
    /// pieces: a FEN with more is refused.
    groups: ArrayVec<(PieceMoves, u8), 16>,
    /// Every square some move goes to, and those a pawn's move goes to.
    targets: [Bitboard; 2],
    /// How many moves the groups hold.
    len: usize,
}

impl MoveGroups {
    /// No moves.
    pub fn new() -> MoveGroups {
        MoveGroups::default()
    }

    /// Replaces the moves with those of `position` (in place: the groups are too big to return
    /// by value in the hot path).
    pub fn generate(&mut self, position: &Position) {
        self.generate_of(position, Bitboard::FULL);
    }

    /// [`MoveGroups::generate`] for the pieces on `movers` only (a piece bound to move alone:
    /// the others' moves are not worked out).
    #[inline]
    pub fn generate_of(&mut self, position: &Position, movers: Bitboard) {
        self.clear();
        let (groups, targets, len) = (&mut self.groups, &mut self.targets, &mut self.len);
        position.generate_moves_of(movers, |moves| {
            let count = moves.len();
            groups.push((moves, count as u8));
            targets[usize::from(moves.role == Role::Pawn)] |= moves.to;
            *len += count;
            false
        });
    }

    /// Whether some move goes to `sq`, or a pawn's to `pawn_sq` (an en passant capture).
    pub fn reach(&self, sq: Square, pawn_sq: Option<Square>) -> bool {
        let [pieces, pawns] = self.targets;
        (pieces | pawns).contains(sq) || pawn_sq.is_some_and(|p| pawns.contains(p))
    }

    /// Each piece's moves, in order.
    pub fn pieces(&self) -> impl Iterator<Item = &PieceMoves> + '_ {
        self.groups.iter().map(|(moves, _)| moves)
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.groups.clear();
        self.targets = [Bitboard::EMPTY; 2];
        self.len = 0;
    }

    /// How many moves there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The move at `index` in the list.
    pub fn get(&self, mut index: usize) -> Option<Move> {
        for &(moves, len) in &self.groups {
            let len = usize::from(len);
            if index < len {
                return moves.nth(index);
            }
            index -= len;
        }
        None
    }

    /// Whether `mv` is one of the moves.
    pub fn contains(&self, mv: Move) -> bool {
        // A piece has one group: find it by its square, then test the move there.
        self.groups
            .iter()
            .find(|(moves, _)| moves.from == mv.from)
            .is_some_and(|(moves, _)| moves.contains(mv))
    }

    /// The moves, in order.
    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.groups.iter().flat_map(|&(moves, _)| moves)
    }
}

/// What every piece's generation needs to know about the position.
struct Context {
    us: Color,
    ours: Bitboard,
    theirs: Bitboard,
    occupied: Bitboard,
    king: Square,
    /// The pieces whose moves are wanted.
    movers: Bitboard,
    checkers: Bitboard,
    pinned: Bitboard,
    /// Squares a non-king move must land on: anywhere not ours, or, in check, the checker and the
    /// squares between it and the king.
    target: Bitboard,
}

impl Position {
    #[inline(always)]
    fn context(&self, movers: Bitboard) -> Context {
        let us = self.turn;
        let ours = self.by_color(us);
        let theirs = self.by_color(!us);
        let occupied = ours | theirs;
        let king = self.king(us);
        let (checkers, pinned) = self.checkers_and_pinned(us, king, occupied);
        let target = match checkers.single() {
            _ if checkers.is_empty() => !ours,
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::EMPTY,
        };
        Context {
            us,
            ours,
            theirs,
            occupied,
            king,
            movers,
            checkers,
            pinned,
            target,
        }
    }

    /// The enemy pieces that give `color`'s king on `king` check, and `color`'s pieces that
    /// stand alone between it and an enemy slider. One pass over the enemy sliders that see the
    /// king through `color`'s pieces serves both: nothing between, a checker; one piece of
    /// `color`, pinned (two slider look-ups fewer than finding the checkers apart).
    #[inline(always)]
    fn checkers_and_pinned(
        &self,
        color: Color,
        king: Square,
        occupied: Bitboard,
    ) -> (Bitboard, Bitboard) {
        let theirs = self.by_color(!color);
        let rooks = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bishops = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        let snipers = theirs
            & ((rook_attacks(king, theirs) & rooks) | (bishop_attacks(king, theirs) & bishops));
        let mut checkers = theirs
            & ((knight_attacks(king) & self.by_role(Role::Knight))
                | (pawn_attacks(color, king) & self.by_role(Role::Pawn)));
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.is_empty() {
                checkers |= sniper;
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        (checkers, pinned & self.by_color(color))
    }

    /// Calls `visit` with the legal moves of each piece of the side to move that has any; stops as
    /// soon as `visit` returns `true`, and then returns `true` itself.
    #[inline]
    pub fn generate_moves(&self, visit: impl FnMut(PieceMoves) -> bool) -> bool {
        self.generate_moves_of(Bitboard::FULL, visit)
    }

    /// [`Position::generate_moves`] for the side to move's pieces on `movers` only.
    #[inline]
    pub fn generate_moves_of(
        &self,
        movers: Bitboard,
        mut visit: impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        let cx = self.context(movers);
        if self.king_moves(&cx, &mut visit) {
            return true;
        }
        if cx.checkers.more_than_one() {
            return false;
        }
        self.pawn_moves(&cx, &mut visit)
            || self.piece_moves(&cx, Role::Knight, &mut visit)
            || self.piece_moves(&cx, Role::Bishop, &mut visit)
            || self.piece_moves(&cx, Role::Rook, &mut visit)
            || self.piece_moves(&cx, Role::Queen, &mut visit)
    }

    #[inline(always)]
    fn king_moves(&self, cx: &Context, visit: &mut impl FnMut(PieceMoves) -> bool) -> bool {
        if !cx.movers.contains(cx.king) {
            return false;
        }
        let steps = king_attacks(cx.king) - cx.ours;
        let without_king = cx.occupied.without(cx.king);
        let mut to = Bitboard::EMPTY;
        if steps.count() > 2 {
            // One map of the enemy's reach costs fewer lookups than the attackers of many steps.
            to = steps - self.attacked_by(!cx.us, without_king);
        } else {
            for sq in steps {
                if self.attackers(sq, !cx.us, without_king).is_empty() {
                    to = to.with(sq);
                }
            }
        }
        if cx.checkers.is_empty() && self.castling != 0 {
            // The cheap tests here, the attack tests out of line.
            let first = cx.us.index() * 2;
            for castle in [&CASTLING_MOVES[first], &CASTLING_MOVES[first + 1]] {
                if self.castling & castle.right != 0
                    && (between(castle.king_from, castle.rook_from) & cx.occupied).is_empty()
                    && self.castling_path_safe(cx, castle)
                {
                    to = to.with(castle.king_to);
                }
            }
        }
        to.any()
            && visit(PieceMoves {
                role: Role::King,
                from: cx.king,
                to,
            })
    }

    /// Every square `color`'s pieces attack, sliders seeing through nothing but `occupied`.
    #[inline(always)]
    fn attacked_by(&self, color: Color, occupied: Bitboard) -> Bitboard {
        let theirs = self.by_color(color);
        let pawns = theirs & self.by_role(Role::Pawn);
        let mut attacked = pawns_attacks(color, pawns);
        attacked |= king_attacks(self.king(color));
        for sq in theirs & self.by_role(Role::Knight) {
            attacked |= knight_attacks(sq);
        }
        let queens = self.by_role(Role::Queen);
        for sq in theirs & (self.by_role(Role::Bishop) | queens) {
            attacked |= bishop_attacks(sq, occupied);
        }
        for sq in theirs & (self.by_role(Role::Rook) | queens) {
            attacked |= rook_attacks(sq, occupied);
        }
        attacked
    }

    /// Whether no square the king crosses or lands on in `castle` is attacked (its own square is
    /// not, as castling is only tried out of check).
    #[inline(never)]
    fn castling_path_safe(&self, cx: &Context, castle: &CastlingMove) -> bool {
        let path = between(castle.king_from, castle.king_to).with(castle.king_to);
        path.into_iter()
            .all(|sq| self.attackers(sq, !cx.us, cx.occupied).is_empty())
    }

    #[inline(always)]
    fn piece_moves(
        &self,
        cx: &Context,
        role: Role,
        visit: &mut impl FnMut(PieceMoves) -> bool,
    ) -> bool {
        for from in self.pieces(cx.us, role) & cx.movers {
            let mut to = match role {
                Role::Knight => knight_attacks(from),
                Role::Bishop => bishop_attacks(from, cx.occupied),
                Role::Rook => rook_attacks(from, cx.occupied),
                _ => bishop_attacks(from, cx.occupied) | rook_attacks(from, cx.occupied),
            } & cx.target;
            if cx.pinned.contains(from) {
                to &= line(cx.king, from);
            }
            if to.any() && visit(PieceMoves { role, from, to }) {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    fn pawn_moves(&self, cx: &Context, visit: &mut impl FnMut(PieceMoves) -> bool) -> bool {
        let empty = !cx.occupied;
        let ep = self.ep_square;
        let pawns = self.pieces(cx.us, Role::Pawn) & cx.movers;
        // Every pawn's pushes at once (no branch a pawn): the squares one step ahead that are
        // empty, and two steps ahead from the start rank through an empty square.
        let (singles, doubles) = match cx.us {
            Color::White => {
                let singles = pawns.shift_up() & empty;
                (
                    singles,
                    (singles & Bitboard::rank(Rank::new(2))).shift_up() & empty,
                )
            }
            Color::Black => {
                let singles = pawns.shift_down() & empty;
                (
                    singles,
                    (singles & Bitboard::rank(Rank::new(5))).shift_down() & empty,
                )
            }
        };
        for from in pawns {
            let single = Bitboard::from(from);
            let pushes = match cx.us {
                Color::White => {
                    (single.shift_up() & singles) | (single.shift_up().shift_up() & doubles)
                }
                Color::Black => {
                    (single.shift_down() & singles) | (single.shift_down().shift_down() & doubles)
                }
            };
            let attacks = pawn_attacks(cx.us, from);
            let mut to = (pushes | (attacks & cx.theirs)) & cx.target;
            if cx.pinned.contains(from) {
                to &= line(cx.king, from);
            }
            if let Some(ep) = ep {
                if attacks.contains(ep) && self.ep_is_legal(from, ep) {
                    to = to.with(ep);
                }
            }
            if to.any()
                && visit(PieceMoves {
                    role: Role::Pawn,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        false
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(|moves| {
            list.extend(moves);
            false
        });
        list
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.generate_moves(|_| true)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.generate_moves(|moves| moves.contains(mv))
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }
}
