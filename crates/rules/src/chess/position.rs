//! The orthodox chess position: piece placement, side to move, castling rights, the en passant
//! square, the clocks and an incrementally kept Zobrist hash. Copy-make: `play` changes the
//! position in place and a caller that wants the old one keeps a copy (it is 88 bytes).

use super::moves::Move;
use super::zobrist;
use crate::board::attacks::{
    bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, Piece, Role, Square};

/// Castling rights as four bits.
pub mod castling {
    /// White may castle on the king side (`e1g1`).
    pub const WHITE_KING_SIDE: u8 = 1;
    /// White may castle on the queen side (`e1c1`).
    pub const WHITE_QUEEN_SIDE: u8 = 2;
    /// Black may castle on the king side (`e8g8`).
    pub const BLACK_KING_SIDE: u8 = 4;
    /// Black may castle on the queen side (`e8c8`).
    pub const BLACK_QUEEN_SIDE: u8 = 8;
    /// All four rights.
    pub const ALL: u8 = 15;
}

/// For each square, the castling rights that survive a move from or to it.
static CASTLING_KEPT: [u8; 64] = {
    let mut kept = [castling::ALL; 64];
    kept[0] = castling::ALL & !castling::WHITE_QUEEN_SIDE; // a1
    kept[4] = castling::ALL & !(castling::WHITE_KING_SIDE | castling::WHITE_QUEEN_SIDE); // e1
    kept[7] = castling::ALL & !castling::WHITE_KING_SIDE; // h1
    kept[56] = castling::ALL & !castling::BLACK_QUEEN_SIDE; // a8
    kept[60] = castling::ALL & !(castling::BLACK_KING_SIDE | castling::BLACK_QUEEN_SIDE); // e8
    kept[63] = castling::ALL & !castling::BLACK_KING_SIDE; // h8
    kept
};

/// The squares a move from or to which may cost castling rights (the kings' and rooks' start
/// squares): those whose [`CASTLING_KEPT`] entry is not all rights.
const CASTLING_SQUARES: Bitboard = Bitboard(
    1 << Square::A1.index()
        | 1 << Square::E1.index()
        | 1 << Square::H1.index()
        | 1 << Square::A8.index()
        | 1 << Square::E8.index()
        | 1 << Square::H8.index(),
);

/// One castling move: the right it needs and the squares involved.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CastlingMove {
    pub right: u8,
    pub king_from: Square,
    pub king_to: Square,
    pub rook_from: Square,
    pub rook_to: Square,
}

/// The four castling moves, White's first, king side before queen side.
pub(crate) const CASTLING_MOVES: [CastlingMove; 4] = [
    CastlingMove {
        right: castling::WHITE_KING_SIDE,
        king_from: Square::E1,
        king_to: Square::G1,
        rook_from: Square::H1,
        rook_to: Square::F1,
    },
    CastlingMove {
        right: castling::WHITE_QUEEN_SIDE,
        king_from: Square::E1,
        king_to: Square::C1,
        rook_from: Square::A1,
        rook_to: Square::D1,
    },
    CastlingMove {
        right: castling::BLACK_KING_SIDE,
        king_from: Square::E8,
        king_to: Square::G8,
        rook_from: Square::H8,
        rook_to: Square::F8,
    },
    CastlingMove {
        right: castling::BLACK_QUEEN_SIDE,
        king_from: Square::E8,
        king_to: Square::C8,
        rook_from: Square::A8,
        rook_to: Square::D8,
    },
];

/// An orthodox chess position. Construct it with [`Position::default`] (the start position) or
/// from FEN; every position it holds has one king a side and the side not to move not in check.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(super) by_color: [Bitboard; 2],
    pub(super) by_role: [Bitboard; 6],
    pub(super) turn: Color,
    pub(super) castling: u8,
    /// Set only when the side to move has a legal en passant capture (so that equal positions in
    /// the sense of the repetition rule have equal hashes).
    pub(super) ep_square: Option<Square>,
    pub(super) halfmove_clock: u32,
    pub(super) fullmove_number: u32,
    pub(super) hash: u64,
}

impl Position {
    /// An empty board, White to move, no rights: the base the FEN reader fills.
    pub(super) fn empty() -> Position {
        Position {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; 6],
            turn: Color::White,
            castling: 0,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
            hash: 0,
        }
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The castling rights still held, as the bits of [`castling`].
    #[inline]
    pub fn castling_rights(&self) -> u8 {
        self.castling
    }

    /// The square an en passant capture would land on, when one is legal now.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    /// The move number, starting at 1 and counting up after Black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// The Zobrist hash: equal for positions that are the same under the repetition rule.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of type `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of type `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_color(color) & self.by_role(role)
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Square {
        self.pieces(color, Role::King)
            .first()
            .expect("a position has a king a side")
    }

    /// The type on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Some(self.victim_role(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// `color`'s pieces that attack `sq`, given the occupied squares.
    #[inline(always)]
    pub fn attackers(&self, sq: Square, color: Color, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_role(Role::Rook) | self.by_role(Role::Queen);
        let bishops = self.by_role(Role::Bishop) | self.by_role(Role::Queen);
        self.by_color(color)
            & ((knight_attacks(sq) & self.by_role(Role::Knight))
                | (king_attacks(sq) & self.by_role(Role::King))
                | (pawn_attacks(!color, sq) & self.by_role(Role::Pawn))
                | (rook_attacks(sq, occupied) & rooks)
                | (bishop_attacks(sq, occupied) & bishops))
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.attackers(self.king(self.turn), !self.turn, self.occupied())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Plays a move that [`Position::legal_moves`] lists (anything else leaves a broken position).
    pub fn play_unchecked(&mut self, mv: Move) {
        let role = self.role_at(mv.from).expect("a move starts on a piece");
        self.play_role_unchecked(role, mv);
    }

    /// [`Position::play_unchecked`] for a caller that knows the moving piece's type (a
    /// [`PieceMoves`](super::PieceMoves) group does), saving its look-up.
    #[inline(always)]
    pub fn play_role_unchecked(&mut self, role: Role, mv: Move) {
        let us = self.turn;
        let them = !us;
        let Move {
            from,
            to,
            promotion,
        } = mv;
        // The hash is kept in a register and stored once, at the end.
        let mut hash = self.hash ^ zobrist::black_to_move();
        self.halfmove_clock += 1;

        let capture = self.by_color(them).contains(to);
        if capture {
            let victim = self.victim_role(to);
            self.by_color[them.index()] ^= to;
            self.by_role[victim.index()] ^= to;
            hash ^= zobrist::piece(them, victim, to);
            self.halfmove_clock = 0;
        }
        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::en_passant(ep.file().index());
        }
        let moved = Bitboard::from(from) | to;
        if self.castling != 0 && (moved & CASTLING_SQUARES).any() {
            hash ^= self.update_castling(from, to);
        }

        let placed = promotion.unwrap_or(role);
        self.by_color[us.index()] ^= moved;
        self.by_role[role.index()] ^= from;
        self.by_role[placed.index()] ^= to;
        hash ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, placed, to);

        match role {
            Role::Pawn => {
                self.halfmove_clock = 0;
                let distance = to.index().abs_diff(from.index());
                if distance == 16 {
                    let passed = Square::new(((from.index() + to.index()) / 2) as u32);
                    // Most double steps pass no enemy pawn; the full test is out of line.
                    let capturers = pawn_attacks(us, passed) & self.pieces(them, Role::Pawn);
                    if capturers.any() && self.ep_capture_legal(capturers, passed, them) {
                        self.ep_square = Some(passed);
                        hash ^= zobrist::en_passant(passed.file().index());
                    }
                } else if !capture && distance != 8 {
                    // A diagonal step to an empty square: en passant.
                    let victim = Square::from_coords(to.file(), from.rank());
                    self.by_color[them.index()] ^= victim;
                    self.by_role[Role::Pawn.index()] ^= victim;
                    hash ^= zobrist::piece(them, Role::Pawn, victim);
                }
            }
            Role::King if to.index().abs_diff(from.index()) == 2 => {
                let castle = CASTLING_MOVES
                    .iter()
                    .find(|c| c.king_to == to)
                    .expect("a two-square king move is castling");
                let rook = Bitboard::from(castle.rook_from) | castle.rook_to;
                self.by_color[us.index()] ^= rook;
                self.by_role[Role::Rook.index()] ^= rook;
                hash ^= zobrist::piece(us, Role::Rook, castle.rook_from)
                    ^ zobrist::piece(us, Role::Rook, castle.rook_to);
            }
            _ => {}
        }

        self.fullmove_number += us.index() as u32;
        self.turn = them;
        self.hash = hash;
    }

    /// The type of the piece on `sq`, which must hold one: its type's index summed from the
    /// sets' bits, with no branch (a search by type mispredicts in random games).
    #[inline(always)]
    fn victim_role(&self, sq: Square) -> Role {
        let index = (Role::ALL.into_iter())
            .map(|role| role.index() * ((self.by_role(role).0 >> sq.index()) & 1) as usize)
            .sum::<usize>();
        Role::ALL[index]
    }

    /// Takes away the castling rights a move between `from` and `to` loses; returns the change to
    /// the hash.
    #[inline]
    fn update_castling(&mut self, from: Square, to: Square) -> u64 {
        // Masking keeps the key indices visibly in range; the rights never have other bits.
        let old = self.castling & castling::ALL;
        let new = old & CASTLING_KEPT[from.index()] & CASTLING_KEPT[to.index()];
        self.castling = new;
        zobrist::castling(old) ^ zobrist::castling(new)
    }

    /// Whether one of `capturer`'s `pawns` (who moves next, after the turn changes) could legally
    /// capture en passant on `passed`.
    #[inline(never)]
    fn ep_capture_legal(&self, pawns: Bitboard, passed: Square, capturer: Color) -> bool {
        pawns
            .into_iter()
            .any(|from| self.ep_is_legal_for(capturer, from, passed))
    }

    /// Whether the side to move's pawn on `from` may capture en passant onto `ep` without leaving
    /// its king attacked.
    pub(super) fn ep_is_legal(&self, from: Square, ep: Square) -> bool {
        self.ep_is_legal_for(self.turn, from, ep)
    }

    /// [`Position::ep_is_legal`] for `us`'s pawn, whoever is to move.
    #[inline]
    fn ep_is_legal_for(&self, us: Color, from: Square, ep: Square) -> bool {
        let victim = Square::from_coords(ep.file(), from.rank());
        let occupied = (self.occupied() ^ from ^ victim) | ep;
        let attackers = self.attackers(self.king(us), !us, occupied) - victim;
        attackers.is_empty()
    }

    /// Recomputes the hash from scratch (the incremental one must always equal it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in self.pieces(color, role) {
                    hash ^= zobrist::piece(color, role, sq);
                }
            }
        }
        hash ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::en_passant(ep.file().index());
        }
        if self.turn == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        hash
    }

    /// Whether neither side can ever mate, by the usual material test: king against king, king
    /// and one minor piece against king, or only bishops all on squares of one colour besides the
    /// kings.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// Whether `color` could still mate by some series of legal moves, by the usual material
    /// test: not with a lone king, nor with a king and one minor piece against a lone king, nor
    /// when neither side ever can. A flag that falls against such a side is a draw.
    pub fn can_mate(&self, color: Color) -> bool {
        let own = self.by_color(color);
        let minors = own & (self.by_role(Role::Knight) | self.by_role(Role::Bishop));
        let lone_minor = own.count() == 2 && minors.count() == 1;
        let bare_opponent = self.by_color(!color).count() == 1;
        !(self.is_insufficient_material() || own.count() == 1 || (lone_minor && bare_opponent))
    }
}

impl Position {
    /// The square of the piece `mv` captures here, if any (en passant: the passed pawn's square).
    pub fn captured_square(&self, mv: Move) -> Option<Square> {
        if self.occupied().contains(mv.to) {
            return Some(mv.to);
        }
        let en_passant = self.pieces(self.turn(), Role::Pawn).contains(mv.from)
            && mv.from.file() != mv.to.file();
        en_passant.then(|| Square::from_coords(mv.to.file(), mv.from.rank()))
    }
}
