//! Observation planes, written from the position one seat knows (its view's `position`) and
//! nothing else. "Own" is the seat's colour (White for the spectator), "enemy" the other; the
//! board is not turned: row 0 is the first rank, column 0 file a. Every value is in 0..1; counts
//! are divided by the most they can be, as the planes' names say.

use crate::planes::{Planes, FIRST};
use crate::table::{cell39, cell8};
use bluffchess_rules::board::board39::Shape;
use bluffchess_rules::board::Color;
use bluffchess_rules::options::Options;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::variants::alter_ego::{AlterEgoSummary, EgoView};
use bluffchess_rules::variants::ambiguous::AmbiguousSummary;
use bluffchess_rules::variants::bluff_move::BluffMoveSummary;
use bluffchess_rules::variants::bs::BsSummary;
use bluffchess_rules::variants::chess::ChessSummary;
use bluffchess_rules::variants::reality_check::{Kind, RealityCheckSummary, SideView};
use bluffchess_rules::Square;

/// The colour whose pieces are "own".
fn own(seat: Seat) -> Color {
    seat.color().unwrap_or(Color::White)
}

const ROLES: &str = "pnbrqk";

/// The planes of a FEN board, shared by the variants that show one.
const BOARD: [&str; 21] = [
    "own pawn",
    "own knight",
    "own bishop",
    "own rook",
    "own queen",
    "own king",
    "enemy pawn",
    "enemy knight",
    "enemy bishop",
    "enemy rook",
    "enemy queen",
    "enemy king",
    "en passant square",
    "own castling king side",
    "own castling queen side",
    "enemy castling king side",
    "enemy castling queen side",
    "side to move in check",
    "halfmove clock / 100",
    "last move from",
    "last move to",
];

const fn concat<const A: usize, const B: usize, const C: usize>(
    a: [&'static str; A],
    b: [&'static str; B],
) -> [&'static str; C] {
    let mut out = [""; C];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < C {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

/// Orthodox chess.
pub const CHESS: [&str; 22] = concat(BOARD, ["draw claimable"]);

/// Alter Ego.
pub const ALTER_EGO: [&str; 29] = concat(
    BOARD,
    [
        "draw claimable",
        "own ego",
        "own ego sealed (on the turn piece or transferred)",
        "enemy ego",
        "enemy ego sealed (on the turn piece or transferred)",
        "bound piece (must move)",
        "last move was a death move",
        "the mover decides stay or transfer",
    ],
);

/// Ambiguous Chess.
pub const AMBIGUOUS: [&str; 24] = concat(
    BOARD,
    [
        "the pick is due",
        "named square",
        "candidate moves' from squares",
    ],
);

/// Bluff-move Chess.
pub const BLUFF_MOVE: [&str; 16] = [
    "own pawn (real or bluff)",
    "own knight (real or bluff)",
    "own bishop (real or bluff)",
    "own rook (real or bluff)",
    "own queen (real or bluff)",
    "own king (real or bluff)",
    "enemy pawn image",
    "enemy knight image",
    "enemy bishop image",
    "enemy rook image",
    "enemy queen image",
    "enemy king image",
    "known bluff",
    "real piece of a known bluff",
    "known real piece",
    "quiet moves / 200",
];

/// BS Chess.
pub const BS: [&str; 33] = [
    "own pawn",
    "own knight",
    "own bishop",
    "own rook",
    "own queen",
    "own king",
    "own spy",
    "own piece, identity unknown",
    "enemy pawn (shown)",
    "enemy knight (shown)",
    "enemy bishop (shown)",
    "enemy rook (shown)",
    "enemy queen (shown)",
    "enemy king (shown)",
    "enemy spy (shown)",
    "enemy piece, identity unknown",
    "promoted piece (type hidden)",
    "pending move from",
    "pending move to",
    "pending move declares a promotion",
    "step: setup",
    "step: move",
    "step: answer (call or accept)",
    "step: remove",
    "own pool: pawns / 8",
    "own pool: knights / 2",
    "own pool: bishops / 2",
    "own pool: rooks / 2",
    "own pool: queen",
    "own pool: spy",
    "own pieces lost / 16",
    "enemy pieces lost / 16",
    "quiet moves / 200",
];

const BS_LETTERS: [&str; 7] = ["pawn", "knight", "bishop", "rook", "queen", "king", "spy"];

/// Reality Check's planes (the kinds' names come from the rules).
pub fn reality_check_planes() -> Vec<String> {
    let mut planes = Vec::new();
    for side in ["own", "enemy"] {
        for face in "PNBR".chars() {
            planes.push(format!("{side} piece showing {face}"));
        }
        for face in "PNBR".chars() {
            planes.push(format!("{side} piece with {face} face down (known)"));
        }
        planes.push(format!("{side} piece, face down unknown"));
    }
    planes.extend(
        [
            "on the board",
            "exempt from the flip",
            "own drop squares",
            "enemy drop squares",
            "step: setup",
            "step: turn",
            "step: flip",
            "step: roll",
            "step: remove",
        ]
        .map(String::from),
    );
    for n in 1..=6 {
        planes.push(format!("die shows {n}"));
    }
    planes.push("side to move must drop".into());
    for side in ["own", "enemy"] {
        planes.push(format!("{side} set up"));
        planes.push(format!("{side} hand size / 10"));
        for kind in Kind::ALL {
            planes.push(format!("{side} hand holds {kind} (known)"));
        }
        for face in "PNBR".chars() {
            planes.push(format!("{side} hand: pieces seen showing {face} only / 10"));
        }
        planes.push(format!("{side} hand: pieces never seen / 10"));
        planes.push(format!("{side} hand limit / 9"));
        planes.push(format!("{side} true pieces in the game / 4"));
        for kind in ["PP", "NN", "BB", "RR"] {
            planes.push(format!("{side} true piece {kind} gone"));
        }
    }
    planes.push("quiet turns / 200".into());
    planes
}

/// A square's cell, from its name.
fn cell_of(name: &str) -> i32 {
    Square::parse(name).map_or(-1, cell8)
}

/// The from and to cells of a move in UCI.
fn move_cells(uci: &str) -> (i32, i32) {
    if uci.len() < 4 || !uci.is_ascii() {
        return (-1, -1);
    }
    (cell_of(&uci[..2]), cell_of(&uci[2..4]))
}

/// Writes the [`BOARD`] planes from a FEN (the fields after the placement are optional).
fn board(fen: &str, last_move: Option<&str>, check: bool, seat: Seat, planes: &mut Planes<'_>) {
    let us = own(seat);
    let mut fields = fen.split(' ');
    let placement = fields.next().unwrap_or("");
    pieces(placement, us, planes, FIRST);
    let _side = fields.next();
    let castling = fields.next().unwrap_or("-");
    let (ours, theirs) = match us {
        Color::White => (['K', 'Q'], ['k', 'q']),
        Color::Black => (['k', 'q'], ['K', 'Q']),
    };
    planes.flag(FIRST + 13, castling.contains(ours[0]));
    planes.flag(FIRST + 14, castling.contains(ours[1]));
    planes.flag(FIRST + 15, castling.contains(theirs[0]));
    planes.flag(FIRST + 16, castling.contains(theirs[1]));
    if let Some(ep) = fields.next() {
        planes.set(FIRST + 12, cell_of(ep), 1.0);
    }
    planes.flag(FIRST + 17, check);
    let halfmove: f32 = fields.next().and_then(|h| h.parse().ok()).unwrap_or(0.0);
    planes.fill(FIRST + 18, halfmove / 100.0);
    if let Some(last) = last_move {
        let (from, to) = move_cells(last);
        planes.set(FIRST + 19, from, 1.0);
        planes.set(FIRST + 20, to, 1.0);
    }
}

/// Writes a FEN placement as 12 planes from `first`: own pawn to king, then enemy.
fn pieces(placement: &str, us: Color, planes: &mut Planes<'_>, first: usize) {
    let mut rank: i32 = 7;
    let mut file: i32 = 0;
    for c in placement.chars() {
        match c {
            '/' => {
                rank -= 1;
                file = 0;
            }
            '1'..='8' => file += c as i32 - '0' as i32,
            _ => {
                if let Some(role) = ROLES.find(c.to_ascii_lowercase()) {
                    let white = c.is_ascii_uppercase();
                    let ours = white == (us == Color::White);
                    let plane = first + role + if ours { 0 } else { 6 };
                    planes.set(plane, rank * 8 + file, 1.0);
                }
                file += 1;
            }
        }
    }
}

/// Orthodox chess.
pub fn chess(s: &ChessSummary, seat: Seat, planes: &mut Planes<'_>) {
    board(&s.fen, s.last_move.as_deref(), s.check, seat, planes);
    planes.flag(FIRST + 21, s.claimable_draw.is_some());
}

/// Alter Ego.
pub fn alter_ego(s: &AlterEgoSummary, seat: Seat, planes: &mut Planes<'_>) {
    board(&s.fen, s.last_move.as_deref(), s.check, seat, planes);
    planes.flag(FIRST + 21, s.claimable_draw.is_some());
    let us = own(seat);
    let (ours, theirs) = match us {
        Color::White => (s.white_ego, s.black_ego),
        Color::Black => (s.black_ego, s.white_ego),
    };
    let mut ego = |view: EgoView, plane: usize| {
        if let Some(sq) = view.square {
            planes.set(plane + usize::from(view.sealed), cell8(sq), 1.0);
        }
    };
    ego(ours, FIRST + 22);
    ego(theirs, FIRST + 24);
    if let Some(sq) = s.bound {
        planes.set(FIRST + 26, cell8(sq), 1.0);
    }
    planes.flag(FIRST + 27, s.death_move);
    planes.flag(FIRST + 28, s.deciding);
}

/// Ambiguous Chess.
pub fn ambiguous(s: &AmbiguousSummary, seat: Seat, planes: &mut Planes<'_>) {
    board(&s.fen, s.last_move.as_deref(), s.check, seat, planes);
    planes.flag(FIRST + 21, s.step == "pick");
    if let Some(sq) = s.named {
        planes.set(FIRST + 22, cell8(sq), 1.0);
    }
    for candidate in &s.candidates {
        planes.set(FIRST + 23, move_cells(candidate).0, 1.0);
    }
}

/// Bluff-move Chess.
pub fn bluff_move(s: &BluffMoveSummary, seat: Seat, planes: &mut Planes<'_>) {
    let placement = s.fen.split(' ').next().unwrap_or("");
    pieces(placement, own(seat), planes, FIRST);
    for bluff in &s.bluffs {
        planes.set(FIRST + 12, cell8(bluff.square), 1.0);
        planes.set(FIRST + 13, cell8(bluff.real), 1.0);
    }
    for &sq in &s.real {
        planes.set(FIRST + 14, cell8(sq), 1.0);
    }
    planes.fill(FIRST + 15, s.quiet_moves as f32 / 200.0);
}

/// BS Chess.
pub fn bs(s: &BsSummary, seat: Seat, planes: &mut Planes<'_>) {
    let us = own(seat);
    for piece in &s.pieces {
        let base = if piece.color == us { FIRST } else { FIRST + 8 };
        let offset = piece
            .identity
            .as_deref()
            .and_then(|name| BS_LETTERS.iter().position(|n| *n == name))
            .unwrap_or(7);
        let cell = cell8(piece.square);
        planes.set(base + offset, cell, 1.0);
        if piece.promoted {
            planes.set(FIRST + 16, cell, 1.0);
        }
    }
    if let Some(pending) = &s.pending {
        planes.set(FIRST + 17, cell8(pending.from), 1.0);
        planes.set(FIRST + 18, cell8(pending.to), 1.0);
        planes.flag(FIRST + 19, pending.promotion);
    }
    let step = ["setup", "move", "answer", "remove"]
        .iter()
        .position(|w| *w == s.step);
    if let Some(step) = step {
        planes.flag(FIRST + 20 + step, true);
    }
    if let Some(pool) = &s.own_pool {
        let most = [8.0, 2.0, 2.0, 2.0, 1.0, 1.0];
        let names = ["pawn", "knight", "bishop", "rook", "queen", "spy"];
        for (i, name) in names.iter().enumerate() {
            let count = pool.iter().filter(|p| p == name).count() as f32;
            planes.fill(FIRST + 24 + i, count / most[i]);
        }
    }
    let (ours, theirs) = (s.lost[us.index()], s.lost[(!us).index()]);
    planes.fill(FIRST + 30, ours as f32 / 16.0);
    planes.fill(FIRST + 31, theirs as f32 / 16.0);
    planes.fill(FIRST + 32, s.quiet_moves as f32 / 200.0);
}

const FACES: &str = "PNBR";

fn face(c: char) -> Option<usize> {
    FACES.find(c)
}

/// Reality Check, on the board its options name: the basic diamond or the Advanced board, both
/// on the 9x7 grid (the Advanced board's 7x7 on its first seven ranks).
pub fn reality_check(
    s: &RealityCheckSummary,
    options: &Options,
    seat: Seat,
    planes: &mut Planes<'_>,
) {
    let board = options
        .get("board")
        .and_then(|name| Shape::from_name(name))
        .unwrap_or_default();
    let square39 = |name: &str| board.parse_square(name).map_or(-1, cell39);
    let us = own(seat);
    for piece in &s.board {
        let base = FIRST + if piece.color == us { 0 } else { 9 };
        let cell = square39(&piece.square);
        if let Some(up) = face(piece.up) {
            planes.set(base + up, cell, 1.0);
        }
        match piece.down.and_then(face) {
            Some(down) => planes.set(base + 4 + down, cell, 1.0),
            None => planes.set(base + 8, cell, 1.0),
        }
    }
    let mut plane = FIRST + 18;
    for &sq in board.all() {
        planes.set(plane, cell39(sq), 1.0);
    }
    for sq in &s.exempt {
        planes.set(plane + 1, square39(sq), 1.0);
    }
    let (ours, theirs) = match us {
        Color::White => (&s.white, &s.black),
        Color::Black => (&s.black, &s.white),
    };
    for sq in &ours.drop_squares {
        planes.set(plane + 2, square39(sq), 1.0);
    }
    for sq in &theirs.drop_squares {
        planes.set(plane + 3, square39(sq), 1.0);
    }
    plane += 4;
    if let Some(step) = ["setup", "turn", "flip", "roll", "remove"]
        .iter()
        .position(|w| *w == s.step)
    {
        planes.flag(plane + step, true);
    }
    plane += 5;
    if let Some(n) = s.die.filter(|n| (1..=6).contains(n)) {
        planes.flag(plane + usize::from(n) - 1, true);
    }
    plane += 6;
    planes.flag(plane, s.must_drop);
    plane += 1;
    for side in [ours, theirs] {
        side_planes(side, plane, planes);
        plane += 23;
    }
    planes.fill(plane, s.quiet_turns as f32 / 200.0);
}

/// The 23 planes of one side's hand and losses, from `first`.
fn side_planes(side: &SideView, first: usize, planes: &mut Planes<'_>) {
    planes.flag(first, side.set_up);
    planes.fill(first + 1, side.hand_count as f32 / 10.0);
    let mut seen = [0u32; 4];
    let mut unknown = 0u32;
    for entry in &side.hand {
        if let Some(i) = Kind::ALL.iter().position(|k| k.to_string() == *entry) {
            planes.fill(first + 2 + i, 1.0);
            continue;
        }
        match entry.chars().next().and_then(face) {
            Some(f) => seen[f] += 1,
            None => unknown += 1,
        }
    }
    for (f, n) in seen.iter().enumerate() {
        planes.fill(first + 12 + f, *n as f32 / 10.0);
    }
    planes.fill(first + 16, unknown as f32 / 10.0);
    planes.fill(first + 17, side.hand_limit as f32 / 9.0);
    planes.fill(first + 18, side.true_in_game as f32 / 4.0);
    for gone in &side.gone {
        if let Some(i) = ["PP", "NN", "BB", "RR"].iter().position(|k| k == gone) {
            planes.fill(first + 19 + i, 1.0);
        }
    }
}
