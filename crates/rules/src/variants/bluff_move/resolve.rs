//! Resolution: what a legal action does once the hidden enemy pieces are taken into account,
//! square by square along its path, and what it shows.

use super::actions::Action;
use super::board::{met_on, path, Board, Met};
use crate::board::attacks::between;
use crate::board::{Bitboard, Color, Rank, Role, Square};
use crate::chess::{Move, CASTLING_MOVES};
use crate::fact::{Fact, StopReason};
use arrayvec::ArrayVec;
use core::fmt;

/// What the opponent sees the moved piece's image do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Public {
    /// No image changed: the move did not happen, or the image is where and what it was.
    Pass,
    /// The image on `from` went to `to` (where it may have died), showing `role` when its type
    /// changed.
    Image {
        from: Square,
        to: Square,
        role: Option<Role>,
    },
    /// Castling: a real move only, so it shows itself.
    Castle(Move),
}

impl Public {
    /// The image's change from (`from`, `from_role`) to (`to`, `to_role`).
    fn image(from: Square, from_role: Role, to: Square, to_role: Role) -> Public {
        if from == to && from_role == to_role {
            return Public::Pass;
        }
        Public::Image {
            from,
            to,
            role: (from_role != to_role).then_some(to_role),
        }
    }
}

impl Public {
    /// What everyone reads of it.
    pub(crate) fn fact(self) -> Fact {
        match self {
            Public::Pass => Fact::Pass,
            Public::Image { from, to, role } => Fact::Image { from, to, role },
            Public::Castle(mv) => Fact::Move {
                from: mv.from,
                to: mv.to,
                promotion: None,
                capture: None,
            },
        }
    }
}

impl fmt::Display for Public {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Public::Pass => f.write_str("pass"),
            // An image's move reads like a move with a promotion: `e7e8q`.
            &Public::Image { from, to, role } => Move {
                from,
                to,
                promotion: role,
            }
            .fmt(f),
            Public::Castle(mv) => mv.fmt(f),
        }
    }
}

/// An enemy piece taken by the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Capture {
    /// An enemy bluff, which reveals its real piece.
    Bluff {
        square: Square,
        real: Square,
        role: Role,
    },
    /// An enemy real piece, with its bluff.
    Real {
        square: Square,
        role: Role,
        bluff: Option<Square>,
    },
}

impl Capture {
    /// What everyone reads of it.
    pub(crate) fn fact(self) -> Fact {
        match self {
            Capture::Bluff { square, real, role } => Fact::BluffCaptured { square, real, role },
            Capture::Real {
                square,
                role,
                bluff,
            } => Fact::RealCaptured {
                square,
                role,
                bluff,
            },
        }
    }
}

impl fmt::Display for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Capture::Bluff { square, real, role } => write!(
                f,
                "captured the bluff on {square}: the real {} is on {real}",
                role.name()
            ),
            Capture::Real {
                square,
                role,
                bluff: None,
            } => write!(f, "captured the real {} on {square}", role.name()),
            Capture::Real {
                square,
                role,
                bluff: Some(b),
            } => write!(
                f,
                "captured the real {} on {square} and its bluff on {b}",
                role.name()
            ),
        }
    }
}

/// The mover's bluff, destroyed by an enemy real piece on `square`; its real piece is revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Destroyed {
    pub square: Square,
    pub real: Square,
    pub role: Role,
}

impl Destroyed {
    /// What everyone reads of it.
    pub(crate) fn fact(self) -> Fact {
        Fact::BluffDestroyed {
            square: self.square,
            real: self.real,
            role: self.role,
        }
    }
}

impl fmt::Display for Destroyed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the bluff died on {} against a real piece: the real {} is on {}",
            self.square,
            self.role.name(),
            self.real
        )
    }
}

/// What only the mover learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Private {
    /// Nothing beyond what everyone sees.
    None,
    /// A pawn's diagonal step did not happen: no enemy piece on the square.
    NoEnemy(Square),
    /// A real pawn's step did not happen: an enemy real piece stands on the square ahead.
    Blocked(Square),
    /// Castling did not happen: an enemy real piece stands between king and rook.
    CastlingStopped,
    /// A real pawn stopped short: an enemy real piece stands on the square.
    StoppedShort(Square),
}

impl Private {
    /// What the mover reads of it.
    pub(crate) fn fact(self) -> Option<Fact> {
        let (why, square) = match self {
            Private::None => return None,
            Private::NoEnemy(sq) => (StopReason::NoEnemy, Some(sq)),
            Private::Blocked(sq) => (StopReason::Blocked, Some(sq)),
            Private::CastlingStopped => (StopReason::Castling, None),
            Private::StoppedShort(sq) => (StopReason::Short, Some(sq)),
        };
        Some(Fact::Stopped { why, square })
    }
}

impl fmt::Display for Private {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Private::None => Ok(()),
            Private::NoEnemy(sq) => write!(f, "the move did not happen: no enemy piece on {sq}"),
            Private::Blocked(sq) => write!(
                f,
                "the move did not happen: an enemy real piece stands on {sq}"
            ),
            Private::CastlingStopped => f.write_str(
                "castling did not happen: an enemy real piece stands between king and rook",
            ),
            Private::StoppedShort(sq) => write!(
                f,
                "the pawn stopped short: an enemy real piece stands on {sq}"
            ),
        }
    }
}

/// The role named in a message (`"pawn"`, `"king"`...).
fn role_named(name: &str) -> Option<Role> {
    Role::ALL.into_iter().find(|r| r.name() == name)
}

impl Public {
    /// Reads a public form as its event shows it (`pass`, `e2e4`, `e7e8q`), castling aside.
    pub fn parse(text: &str) -> Option<Public> {
        if text == "pass" {
            return Some(Public::Pass);
        }
        let from = Square::parse(text.get(0..2)?)?;
        let to = Square::parse(text.get(2..4)?)?;
        let role = match text.get(4..)? {
            "" => None,
            letter => Some(Role::from_char(letter.chars().next()?).filter(|_| letter.len() == 1)?),
        };
        Some(Public::Image { from, to, role })
    }
}

impl Capture {
    /// Reads a capture as its event tells it.
    pub fn parse(text: &str) -> Option<Capture> {
        if let Some(rest) = text.strip_prefix("captured the bluff on ") {
            let (square, rest) = rest.split_once(": the real ")?;
            let (role, real) = rest.split_once(" is on ")?;
            return Some(Capture::Bluff {
                square: Square::parse(square)?,
                real: Square::parse(real)?,
                role: role_named(role)?,
            });
        }
        let rest = text.strip_prefix("captured the real ")?;
        let (rest, bluff) = match rest.split_once(" and its bluff on ") {
            Some((rest, bluff)) => (rest, Some(Square::parse(bluff)?)),
            None => (rest, None),
        };
        let (role, square) = rest.split_once(" on ")?;
        Some(Capture::Real {
            square: Square::parse(square)?,
            role: role_named(role)?,
            bluff,
        })
    }
}

impl Destroyed {
    /// Reads a destroyed bluff as its event tells it.
    pub fn parse(text: &str) -> Option<Destroyed> {
        let rest = text.strip_prefix("the bluff died on ")?;
        let (square, rest) = rest.split_once(" against a real piece: the real ")?;
        let (role, real) = rest.split_once(" is on ")?;
        Some(Destroyed {
            square: Square::parse(square)?,
            real: Square::parse(real)?,
            role: role_named(role)?,
        })
    }
}

impl Private {
    /// Reads what only the mover learnt, as its event tells it.
    pub fn parse(text: &str) -> Option<Private> {
        let square = |prefix: &str| Square::parse(text.strip_prefix(prefix)?);
        if let Some(sq) = square("the move did not happen: no enemy piece on ") {
            return Some(Private::NoEnemy(sq));
        }
        if let Some(sq) = square("the move did not happen: an enemy real piece stands on ") {
            return Some(Private::Blocked(sq));
        }
        if let Some(sq) = square("the pawn stopped short: an enemy real piece stands on ") {
            return Some(Private::StoppedShort(sq));
        }
        (text == Private::CastlingStopped.to_string()).then_some(Private::CastlingStopped)
    }
}

/// Everything an action did that anyone may learn.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Resolution {
    /// What the opponent sees the moved image do.
    pub public: Public,
    /// Enemy pieces taken, in the order met.
    pub captures: ArrayVec<Capture, 7>,
    /// The mover's bluff destroyed on the way.
    pub destroyed: Option<Destroyed>,
    /// What only the mover learns.
    pub private: Private,
    /// Where the moving piece ended (landed or died); `None` when the move did not happen.
    pub end: Option<Square>,
}

impl Resolution {
    fn new() -> Resolution {
        Resolution {
            public: Public::Pass,
            captures: ArrayVec::new(),
            destroyed: None,
            private: Private::None,
            end: None,
        }
    }

    fn failed(private: Private) -> Resolution {
        Resolution {
            private,
            ..Resolution::new()
        }
    }

    /// Whether an enemy real piece left the game.
    pub fn took_real(&self) -> bool {
        self.captures
            .iter()
            .any(|c| matches!(c, Capture::Real { .. }))
    }

    /// Whether the enemy real king was captured.
    pub fn took_king(&self) -> bool {
        self.captures.iter().any(|c| {
            matches!(
                c,
                Capture::Real {
                    role: Role::King,
                    ..
                }
            )
        })
    }

    /// Whether the mover's opponent and spectators could tell the two apart.
    pub fn looks_alike(&self, other: &Resolution) -> bool {
        self.public == other.public
            && self.captures == other.captures
            && self.destroyed == other.destroyed
    }
}

/// Plays a legal action on the board and says what happened.
pub(crate) fn play(board: &mut Board, action: Action) -> Resolution {
    let mover = board.turn;
    let resolution = match stopped_at_once(board, action) {
        Some(stopped) => stopped,
        None => match action {
            Action::Bluff(mv) => new_bluff(board, mv),
            Action::Move(mv) if board.is_bluff(mv.from) => move_bluff(board, mv),
            Action::Move(mv) if board.is_castling(mv) => castle(board, mv),
            Action::Move(mv) => move_real(board, mv),
        },
    };
    board.turn = !mover;
    resolution
}

/// The resolution of a legal action that does not happen whatever stands along its way: a pawn's
/// (or pawn image's) diagonal step onto no enemy piece, which changes nothing but the turn. Found
/// without a board to play it on (most of a pass's lookalikes are such steps).
pub(super) fn stopped_at_once(board: &Board, action: Action) -> Option<Resolution> {
    let mv = action.mv();
    // `&`, not `&&`: one branch, not one on the piece's type that a playout cannot foretell.
    let stopped = is_diagonal_step(board, mv) & !board.own(!board.turn).contains(mv.to);
    stopped.then(|| Resolution::failed(Private::NoEnemy(mv.to)))
}

/// The type a pawn (or pawn image) arriving on `to` becomes.
fn arriving_role(color: Color, role: Role, to: Square, promotion: Option<Role>) -> Role {
    let last = Rank::new(7).relative_to(color);
    match (role, promotion) {
        (Role::Pawn, Some(new)) if to.rank() == last => new,
        _ => role,
    }
}

/// A pawn's diagonal step, which happens only onto an enemy piece.
fn is_diagonal_step(board: &Board, mv: Move) -> bool {
    (board.role(mv.from) == Some(Role::Pawn)) & (mv.from.file() != mv.to.file())
}

fn capture_bluff(board: &mut Board, enemy: Color, sq: Square, resolution: &mut Resolution) {
    let real = board.real_of(sq);
    let role = board
        .role(real)
        .expect("a real piece stands behind a bluff");
    board.remove_bluff(enemy, sq);
    board.shown[enemy.index()] |= real;
    board.shown_public[enemy.index()] |= real;
    resolution.captures.push(Capture::Bluff {
        square: sq,
        real,
        role,
    });
}

fn capture_real(board: &mut Board, enemy: Color, sq: Square, resolution: &mut Resolution) {
    let role = board.role(sq).expect("a real piece stands there");
    let bluff = board.bluff_of(sq);
    board.remove_real(enemy, sq);
    resolution.captures.push(Capture::Real {
        square: sq,
        role,
        bluff,
    });
}

/// The side `color`'s real piece on `sq` is shown to be real to its opponent (and, if `public`,
/// to spectators) when the opponent can see it there.
fn show_if_visible(board: &mut Board, color: Color, sq: Square, public: bool) {
    if board.images(color).contains(sq) {
        board.shown[color.index()] |= sq;
        if public {
            board.shown_public[color.index()] |= sq;
        }
    }
}

fn move_real(board: &mut Board, mv: Move) -> Resolution {
    let us = board.turn;
    let them = !us;
    let role = board.role(mv.from).expect("a real piece moves");
    let straight = (role == Role::Pawn) & !is_diagonal_step(board, mv);
    // A push's first square: the one ahead (a pawn never stands on its last rank).
    let ahead = Bitboard::from(mv.from).shift_forward(us).first();
    if let Some(sq) = ahead.filter(|&sq| straight && board.real[them.index()].contains(sq)) {
        show_if_visible(board, them, sq, false);
        return Resolution::failed(Private::Blocked(sq));
    }
    let image = board.image_of(mv.from);
    let image_role = board.role(image).expect("an image has a type");
    let mut resolution = Resolution::new();
    let mut landing = mv.to;
    let mut took_real = false;
    for sq in met(board, mv) {
        if board.real[them.index()].contains(sq) {
            if straight {
                // Past its first square (else it was blocked), a push stops there.
                show_if_visible(board, them, sq, false);
                resolution.private = Private::StoppedShort(sq);
                landing = ahead.expect("a pawn stands before its last rank");
            } else {
                capture_real(board, them, sq, &mut resolution);
                landing = sq;
                took_real = true;
            }
            break;
        }
        capture_bluff(board, them, sq, &mut resolution);
    }
    let new_role = arriving_role(us, role, landing, mv.promotion);
    board.move_real(us, mv.from, landing, new_role);
    if took_real {
        // Only a real piece captures a real one.
        board.shown[us.index()] |= landing;
        board.shown_public[us.index()] |= landing;
    }
    resolution.public = Public::image(image, image_role, landing, new_role);
    resolution.end = Some(landing);
    resolution
}

/// Walks a bluff (of the real piece on `real`) along `mv`: it captures enemy bluffs and dies on
/// the first enemy real piece, where it returns that square.
fn walk_bluff(board: &mut Board, mv: Move, resolution: &mut Resolution) -> Option<Square> {
    let them = !board.turn;
    for sq in met(board, mv) {
        if board.real[them.index()].contains(sq) {
            return Some(sq);
        }
        capture_bluff(board, them, sq, resolution);
    }
    None
}

/// The enemy pieces `mv` meets on its way (its path, `to` last), nearest first: only they change
/// anything (most moves meet none and just land).
fn met(board: &Board, mv: Move) -> Met {
    met_on(mv.from, mv.to, board.own(!board.turn))
}

/// The mover's bluff died on `at`: its real piece on `real` is revealed.
fn bluff_died(board: &mut Board, real: Square, at: Square, resolution: &mut Resolution) {
    let us = board.turn;
    board.shown[us.index()] |= real;
    board.shown_public[us.index()] |= real;
    show_if_visible(board, !us, at, true);
    resolution.destroyed = Some(Destroyed {
        square: at,
        real,
        role: board.role(real).expect("a real piece"),
    });
    resolution.end = Some(at);
}

fn move_bluff(board: &mut Board, mv: Move) -> Resolution {
    let us = board.turn;
    let role = board.role(mv.from).expect("a bluff moves");
    let real = board.real_of(mv.from);
    let mut resolution = Resolution::new();
    let died = walk_bluff(board, mv, &mut resolution);
    board.remove_bluff(us, mv.from);
    match died {
        Some(at) => {
            bluff_died(board, real, at, &mut resolution);
            resolution.public = Public::image(mv.from, role, at, role);
        }
        None => {
            let new_role = arriving_role(us, role, mv.to, mv.promotion);
            board.put_bluff(us, mv.to, new_role, real);
            resolution.public = Public::image(mv.from, role, mv.to, new_role);
            resolution.end = Some(mv.to);
        }
    }
    resolution
}

fn new_bluff(board: &mut Board, mv: Move) -> Resolution {
    let us = board.turn;
    let role = board.role(mv.from).expect("a real piece bluffs");
    let image = board.image_of(mv.from);
    let image_role = board.role(image).expect("an image has a type");
    if let Some(old) = board.bluff_of(mv.from) {
        board.remove_bluff(us, old);
    }
    let mut resolution = Resolution::new();
    match walk_bluff(board, mv, &mut resolution) {
        Some(at) => {
            bluff_died(board, mv.from, at, &mut resolution);
            resolution.public = Public::image(image, image_role, at, image_role);
        }
        None => {
            let new_role = arriving_role(us, role, mv.to, mv.promotion);
            board.put_bluff(us, mv.to, new_role, mv.from);
            resolution.public = Public::image(image, image_role, mv.to, new_role);
            resolution.end = Some(mv.to);
        }
    }
    resolution
}

/// The rook's square and its destination for castling `mv` (orthodox chess's squares).
pub(super) fn castling_rook(mv: Move) -> (Square, Square) {
    let castle = CASTLING_MOVES
        .iter()
        .find(|c| c.king_from == mv.from && c.king_to == mv.to)
        .expect("castling is one of the four castling moves");
    (castle.rook_from, castle.rook_to)
}

fn castle(board: &mut Board, mv: Move) -> Resolution {
    let us = board.turn;
    let them = !us;
    let (rook, rook_to) = castling_rook(mv);
    let squares = between(mv.from, rook);
    if (squares & board.real[them.index()]).any() {
        return Resolution::failed(Private::CastlingStopped);
    }
    let mut resolution = Resolution::new();
    for sq in path(mv.from, rook) {
        if board.bluffs[them.index()].contains(sq) {
            capture_bluff(board, them, sq, &mut resolution);
        }
    }
    for piece in [mv.from, rook] {
        if let Some(b) = board.bluff_of(piece) {
            board.remove_bluff(us, b);
        }
    }
    board.move_real(us, mv.from, mv.to, Role::King);
    board.move_real(us, rook, rook_to, Role::Rook);
    for sq in [mv.to, rook_to] {
        board.shown[us.index()] |= sq;
        board.shown_public[us.index()] |= sq;
    }
    resolution.public = Public::Castle(mv);
    resolution.end = Some(mv.to);
    resolution
}
