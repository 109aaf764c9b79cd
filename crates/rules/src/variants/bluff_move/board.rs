//! The board of Bluff-move Chess: each side's real pieces and bluffs, the type each square shows,
//! the binding between a bluff and its real piece, and legal input, judged on a board of the
//! mover's own pieces only.

use super::actions::Action;
use crate::board::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, pawn_attacks, rook_attacks,
};
use crate::board::{Bitboard, Color, File, Rank, Role, Square};
use crate::chess::{zobrist, CastlingMove, Move, CASTLING_MOVES};
use arrayvec::ArrayVec;

/// The `link` of a real piece without a bluff.
const UNBOUND: u8 = 64;

/// Everything on the board, hidden or not. At most one thing (a real piece or a bluff, of either
/// side) stands on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Each side's real pieces.
    pub(super) real: [Bitboard; 2],
    /// Each side's bluffs.
    pub(super) bluffs: [Bitboard; 2],
    /// Each side's real pieces that have a bluff (and so are hidden from the opponent).
    pub(super) hidden: [Bitboard; 2],
    /// The type on each square (a bluff's own type, which differs from its real piece's after the
    /// bluff promoted).
    roles: [Option<Role>; 64],
    /// The squares showing each type, both sides' (what `roles` holds, as sets).
    by_role: [Bitboard; 6],
    /// A real piece's bluff square (or [`UNBOUND`]); a bluff's real piece square.
    link: [u8; 64],
    /// Real kings and rooks that have never moved (castling).
    pub(super) unmoved: Bitboard,
    /// Each side's real pieces its opponent was shown to be real (since they last moved).
    pub(super) shown: [Bitboard; 2],
    /// The same, shown to both seats.
    pub(super) shown_public: [Bitboard; 2],
    /// The side to move.
    pub(super) turn: Color,
    /// The Zobrist key of every image (kept up to date as pieces come and go, so the public key
    /// of each position reached costs no pass over the board).
    images_key: u64,
}

impl Board {
    /// The standard setup, no bluffs.
    pub(super) fn start() -> Board {
        let mut board = Board::empty(Color::White);
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for color in Color::ALL {
            for (file, role) in back.into_iter().enumerate() {
                let file = File::new(file as u32);
                let first = Rank::new(0).relative_to(color);
                let second = Rank::new(1).relative_to(color);
                board.put_real(color, Square::from_coords(file, first), role);
                board.put_real(color, Square::from_coords(file, second), Role::Pawn);
            }
        }
        board.unmoved = Bitboard(0x9100_0000_0000_0091);
        board
    }

    /// An empty board with `turn` to move.
    pub(super) fn empty(turn: Color) -> Board {
        Board {
            real: [Bitboard::EMPTY; 2],
            bluffs: [Bitboard::EMPTY; 2],
            hidden: [Bitboard::EMPTY; 2],
            roles: [None; 64],
            by_role: [Bitboard::EMPTY; 6],
            link: [UNBOUND; 64],
            unmoved: Bitboard::EMPTY,
            shown: [Bitboard::EMPTY; 2],
            shown_public: [Bitboard::EMPTY; 2],
            turn,
            images_key: 0,
        }
    }

    /// The type shown on `sq`, if anything stands there.
    #[inline]
    pub(super) fn role(&self, sq: Square) -> Option<Role> {
        self.roles[sq.index()]
    }

    /// Sets the type shown on `sq` (`None`: empty), in both of its forms.
    #[inline]
    fn set_role(&mut self, sq: Square, role: Option<Role>) {
        if let Some(old) = self.roles[sq.index()] {
            self.by_role[old.index()] ^= sq;
        }
        if let Some(new) = role {
            self.by_role[new.index()] |= sq;
        }
        self.roles[sq.index()] = role;
    }

    /// The squares showing `role`, both sides'.
    #[inline]
    pub(super) fn showing(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Whose piece stands on `sq`.
    pub(super) fn color(&self, sq: Square) -> Option<Color> {
        Color::ALL.into_iter().find(|&c| self.own(c).contains(sq))
    }

    /// All of a side's pieces, real and bluffs.
    #[inline]
    pub(super) fn own(&self, color: Color) -> Bitboard {
        self.real[color.index()] | self.bluffs[color.index()]
    }

    /// What the opponent sees of a side: its bluffs and its real pieces without a bluff.
    #[inline]
    pub(super) fn images(&self, color: Color) -> Bitboard {
        self.bluffs[color.index()] | (self.real[color.index()] - self.hidden[color.index()])
    }

    /// The bluff of the real piece on `sq`, if it has one.
    #[inline]
    pub(super) fn bluff_of(&self, sq: Square) -> Option<Square> {
        Square::try_new(u32::from(self.link[sq.index()]))
    }

    /// The real piece of the bluff on `sq`.
    #[inline]
    pub(super) fn real_of(&self, sq: Square) -> Square {
        Square::new(u32::from(self.link[sq.index()]))
    }

    /// Where the opponent sees the real piece on `sq`: its bluff, or itself.
    #[inline]
    pub(super) fn image_of(&self, sq: Square) -> Square {
        self.bluff_of(sq).unwrap_or(sq)
    }

    /// Whether `sq` holds a bluff of either side.
    #[inline]
    pub(super) fn is_bluff(&self, sq: Square) -> bool {
        (self.bluffs[0] | self.bluffs[1]).contains(sq)
    }

    /// Adds or removes the image of `color`'s piece on `sq` in the images' key.
    fn toggle_image(&mut self, color: Color, sq: Square) {
        let role = self.role(sq).expect("an image has a type");
        self.images_key ^= zobrist::piece(color, role, sq);
    }

    /// Puts a real piece without a bluff on `sq`.
    pub(super) fn put_real(&mut self, color: Color, sq: Square, role: Role) {
        self.real[color.index()] |= sq;
        self.set_role(sq, Some(role));
        self.link[sq.index()] = UNBOUND;
        self.toggle_image(color, sq);
    }

    /// Removes the real piece on `sq` and its bluff.
    pub(super) fn remove_real(&mut self, color: Color, sq: Square) {
        if let Some(bluff) = self.bluff_of(sq) {
            self.remove_bluff(color, bluff);
        }
        let c = color.index();
        self.toggle_image(color, sq);
        self.real[c] = self.real[c].without(sq);
        self.set_role(sq, None);
        self.unmoved = self.unmoved.without(sq);
        self.shown[c] = self.shown[c].without(sq);
        self.shown_public[c] = self.shown_public[c].without(sq);
    }

    /// Binds a new bluff on `sq` to the real piece on `real` (which has none).
    pub(super) fn put_bluff(&mut self, color: Color, sq: Square, role: Role, real: Square) {
        let c = color.index();
        self.toggle_image(color, real);
        self.bluffs[c] |= sq;
        self.hidden[c] |= real;
        self.set_role(sq, Some(role));
        self.link[sq.index()] = real.index() as u8;
        self.link[real.index()] = sq.index() as u8;
        self.toggle_image(color, sq);
        // A piece behind a bluff is no longer known to be real.
        self.shown[c] = self.shown[c].without(real);
        self.shown_public[c] = self.shown_public[c].without(real);
    }

    /// Removes the bluff on `sq`; its real piece stays, now without a bluff.
    pub(super) fn remove_bluff(&mut self, color: Color, sq: Square) {
        let c = color.index();
        let real = self.real_of(sq);
        self.toggle_image(color, sq);
        self.bluffs[c] = self.bluffs[c].without(sq);
        self.hidden[c] = self.hidden[c].without(real);
        self.set_role(sq, None);
        self.link[real.index()] = UNBOUND;
        self.toggle_image(color, real);
    }

    /// Moves the real piece on `from` to `to` (empty, or its own bluff's square), as `role`: its
    /// bluff is destroyed.
    pub(super) fn move_real(&mut self, color: Color, from: Square, to: Square, role: Role) {
        self.remove_real(color, from);
        self.put_real(color, to, role);
    }

    /// The key of the public position: every image with its type and side, and the side to move
    /// (orthodox chess's Zobrist keys).
    pub(super) fn public_key(&self) -> u64 {
        match self.turn {
            Color::White => self.images_key,
            Color::Black => self.images_key ^ zobrist::black_to_move(),
        }
    }

    /// The public key counted afresh, image by image (what [`Board::public_key`] keeps).
    #[cfg(test)]
    pub(super) fn public_key_afresh(&self) -> u64 {
        let mut key = match self.turn {
            Color::White => 0,
            Color::Black => zobrist::black_to_move(),
        };
        for color in Color::ALL {
            for sq in self.images(color) {
                let role = self.role(sq).expect("an image has a type");
                key ^= zobrist::piece(color, role, sq);
            }
        }
        key
    }

    /// The squares a piece of `role` on `from` may move to as input, `own` being the squares of
    /// its own side that count.
    #[inline]
    pub(super) fn targets(color: Color, role: Role, from: Square, own: Bitboard) -> Bitboard {
        Board::reach(color, role, from, own) - own
    }

    /// The squares whose own pieces decide the input of a piece of `role` on `from`: its targets
    /// and the own pieces (of `own`) that stop it. Its input changes only when an own piece comes
    /// or goes on one of them.
    #[inline]
    pub(super) fn reach(color: Color, role: Role, from: Square, own: Bitboard) -> Bitboard {
        // Every kind of step worked out and the role's kinds kept: no branch on the role, whose
        // way a playout cannot foretell (the jump on it was a fifth of the time spent here).
        let [diagonal, straight, knight, king, pawn] = STEPS[role.index()];
        (bishop_attacks(from, own) & diagonal)
            | (rook_attacks(from, own) & straight)
            | (knight_attacks(from) & knight)
            | (king_attacks(from) & king)
            | (pawn_reach(color, from, own) & pawn)
    }

    /// The own pieces that count for a move from `from`: all of them, except a real piece's own
    /// bluff.
    pub(super) fn counted(&self, color: Color, from: Square) -> Bitboard {
        // No branch on whether it is real or has a bluff: a playout cannot foretell either.
        // `hidden` holds the real pieces with a bluff, whose link is the bluff's square.
        let has_bluff = (self.hidden[color.index()].0 >> from.index()) & 1;
        let bluff = 1u64 << (self.link[from.index()] & 63);
        self.own(color) - Bitboard(bluff & has_bluff.wrapping_neg())
    }

    /// The input squares of the own piece on `from` (real or bluff), castling aside.
    pub(super) fn piece_targets(&self, from: Square) -> Bitboard {
        let color = self.turn;
        let role = self.role(from).expect("a piece stands there");
        Board::targets(color, role, from, self.counted(color, from))
    }

    /// The castling moves of the side to move that are legal input (orthodox chess's squares).
    #[inline]
    pub(super) fn castlings(&self) -> ArrayVec<Move, 2> {
        self.castlings_for(self.turn)
    }

    /// The castling moves of `color` that would be legal input on its turn.
    #[inline]
    pub(super) fn castlings_for(&self, color: Color) -> ArrayVec<Move, 2> {
        let unmoved = self.unmoved & self.real[color.index()];
        // An unmoved king and rook at least (inline: most turns stop here).
        match unmoved.more_than_one() {
            true => self.castlings_of(color, unmoved),
            false => ArrayVec::new(),
        }
    }

    /// The castling moves of `color`, `unmoved` being its unmoved king and rooks.
    fn castlings_of(&self, color: Color, unmoved: Bitboard) -> ArrayVec<Move, 2> {
        let mut moves = ArrayVec::new();
        for castle in castling_moves(color) {
            let (king, rook) = (castle.king_from, castle.rook_from);
            if !(unmoved.contains(king) && unmoved.contains(rook)) {
                continue;
            }
            let mut own = self.own(color);
            for piece in [king, rook] {
                if let Some(b) = self.bluff_of(piece) {
                    own = own.without(b);
                }
            }
            if (between(king, rook) & own).is_empty() {
                moves.push(Move::new(king, castle.king_to));
            }
        }
        moves
    }

    /// Whether `mv` is castling by the side to move (a real king's two-square step).
    pub(super) fn is_castling(&self, mv: Move) -> bool {
        self.real[self.turn.index()].contains(mv.from)
            && self.role(mv.from) == Some(Role::King)
            && mv.from.file().index().abs_diff(mv.to.file().index()) == 2
    }

    /// Whether the side to move has any legal action.
    pub(super) fn has_legal_action(&self) -> bool {
        self.own(self.turn)
            .into_iter()
            .any(|from| self.piece_targets(from).any())
            || !self.castlings().is_empty()
    }

    /// Why `action` is not legal input now, in terms of the mover's own pieces only; `None` when
    /// it is.
    pub(super) fn refusal(&self, action: Action) -> Option<String> {
        self.refusal_with(action, |from| self.piece_targets(from))
    }

    /// [`Board::refusal`], `targets` giving the input squares of the mover's piece on a square
    /// (kept ones, in a game).
    pub(super) fn refusal_with(
        &self,
        action: Action,
        targets: impl FnOnce(Square) -> Bitboard,
    ) -> Option<String> {
        let color = self.turn;
        let mv = action.mv();
        let Some(role) = self
            .role(mv.from)
            .filter(|_| self.own(color).contains(mv.from))
        else {
            return Some(format!("you have no piece on {}", mv.from));
        };
        let is_bluff = self.bluffs[color.index()].contains(mv.from);
        if is_bluff && matches!(action, Action::Bluff(_)) {
            return Some(format!(
                "{} holds a bluff: only a real piece makes a bluff move (move the bluff with {mv})",
                mv.from
            ));
        }
        if matches!(action, Action::Move(_)) && self.is_castling(mv) {
            return match self.castlings().contains(&mv) {
                true => None,
                false => Some(
                    "castling needs your unmoved real king and rook and none of your pieces \
                     between them"
                        .into(),
                ),
            };
        }
        let kind = if is_bluff { "bluffed" } else { "real" };
        if !targets(mv.from).contains(mv.to) {
            return Some(format!(
                "your {kind} {} on {} cannot move to {} (only your own pieces count)",
                role.name(),
                mv.from,
                mv.to
            ));
        }
        let promotes = role == Role::Pawn && mv.to.rank() == Rank::new(7).relative_to(color);
        match (promotes, mv.promotion) {
            (true, None) => Some(format!(
                "a pawn reaching {} must promote: add q, r, b or n",
                mv.to
            )),
            (false, Some(_)) => Some("only a pawn reaching the last rank promotes".into()),
            _ => None,
        }
    }
}

/// Adds the moves from `from` to each target, with the four promotions where a pawn reaches the
/// last rank.
pub(super) fn push_moves(
    actions: &mut Vec<Action>,
    board: &Board,
    from: Square,
    targets: Bitboard,
    wrap: fn(Move) -> Action,
) {
    let color = board.turn;
    let pawn = board.role(from) == Some(Role::Pawn);
    let last = Bitboard::rank(Rank::new(7).relative_to(color));
    for to in targets {
        if pawn && last.contains(to) {
            for role in Role::PROMOTIONS {
                actions.push(wrap(Move {
                    from,
                    to,
                    promotion: Some(role),
                }));
            }
        } else {
            actions.push(wrap(Move::new(from, to)));
        }
    }
}

/// The kinds of step of each role: diagonal and straight slides, a knight's, a king's and a
/// pawn's, each kept (every square) or not (none).
const STEPS: [[Bitboard; 5]; 6] = {
    const ALL: Bitboard = Bitboard::FULL;
    const NONE: Bitboard = Bitboard::EMPTY;
    [
        [NONE, NONE, NONE, NONE, ALL],
        [NONE, NONE, ALL, NONE, NONE],
        [ALL, NONE, NONE, NONE, NONE],
        [NONE, ALL, NONE, NONE, NONE],
        [ALL, ALL, NONE, NONE, NONE],
        [NONE, NONE, NONE, ALL, NONE],
    ]
};

/// A pawn's reach: its input is one step straight onto a square without an own piece, two from
/// its second rank (the first step free), and a diagonal step (where a chess pawn attacks) onto
/// any square without an own piece.
fn pawn_reach(color: Color, from: Square, own: Bitboard) -> Bitboard {
    let one = Bitboard::from(from).shift_forward(color);
    // Only a step from the second rank lands on the fourth: no branch on the rank.
    let fourth = Bitboard::rank(Rank::new(3).relative_to(color));
    let two = (one - own).shift_forward(color) & fourth;
    pawn_attacks(color, from) | one | two
}

/// The two castling moves of `color`, king side first.
pub(super) fn castling_moves(color: Color) -> &'static [CastlingMove] {
    &CASTLING_MOVES[color.fold(0..2, 2..4)]
}

/// The squares a move from `from` to `to` meets, in order, `to` last (a knight's or a king's
/// step: `to` only).
pub(super) fn path(from: Square, to: Square) -> ArrayVec<Square, 7> {
    met_on(from, to, Bitboard::FULL).collect()
}

/// The squares of `squares` that a move from `from` to `to` meets, nearest first.
pub(super) fn met_on(from: Square, to: Square, squares: Bitboard) -> Met {
    Met {
        squares: (between(from, to) | to) & squares,
        down: to < from,
    }
}

/// Squares on a move's way, nearest its start first: lowest first going up, highest going down
/// (`to` is last either way).
pub(super) struct Met {
    squares: Bitboard,
    down: bool,
}

impl Iterator for Met {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        let next = match self.down {
            true => self.squares.last(),
            false => self.squares.first(),
        }?;
        self.squares = self.squares.without(next);
        Some(next)
    }
}
