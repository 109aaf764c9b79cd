//! Per-variant evaluations of one world, in pawns, from one side's point of view. A world is a
//! sampled game: hidden pieces are as that world has them, so averaging over sampled worlds
//! values them by their expectation under the belief.

use bluffchess_rules::board::attacks::attacks;
use bluffchess_rules::board::board39::{Bitboard39, Shape, Square39};
use bluffchess_rules::board::{Bitboard, Color, Role, Square};
use bluffchess_rules::variants::alter_ego::AlterEgo;
use bluffchess_rules::variants::bluff_move::BluffMove;
use bluffchess_rules::variants::bs::{Bs, Identity};
use bluffchess_rules::variants::reality_check::{Face, Piece, RealityCheck};
use bluffchess_rules::Position;

/// The value of a chess piece in pawns (the king's safety is judged apart).
pub fn role_value(role: Role) -> f64 {
    match role {
        Role::Pawn => 1.0,
        Role::Knight => 3.0,
        Role::Bishop => 3.2,
        Role::Rook => 5.0,
        Role::Queen => 9.0,
        Role::King => 0.0,
    }
}

/// The victim's and the attacker's values when a piece on `from` captures on `to`.
pub fn capture(pos: &Position, from: Square, to: Square) -> Option<(f64, f64)> {
    let victim = pos
        .role_at(to)
        .filter(|_| !pos.by_color(pos.turn()).contains(to))?;
    let attacker = pos.role_at(from).map_or(0.0, role_value);
    Some((role_value(victim).max(0.5), attacker))
}

/// Mobility: pawns per square a piece attacks that its own side does not hold.
const MOBILITY: f64 = 0.04;
/// Pawns per rank a pawn has advanced.
const PAWN_ADVANCE: f64 = 0.06;
/// Pawns per enemy piece attacking a square next to the king.
const KING_DANGER: f64 = 0.15;

/// Material, mobility, pawn advance and king danger of an orthodox position.
pub fn position(pos: &Position, color: Color) -> f64 {
    let score = side(pos, color) - side(pos, !color);
    score + mop_up(pos, color, score) - mop_up(pos, !color, -score)
}

/// Material ahead from which the winning side drives the enemy king to the edge.
const WINNING: f64 = 3.0;

/// When `color` is well ahead: the enemy king's distance from the centre, and the kings'
/// closeness, so that a won ending makes progress instead of repeating.
fn mop_up(pos: &Position, color: Color, score: f64) -> f64 {
    let (Some(own), Some(enemy)) = (
        pos.pieces(color, Role::King).first(),
        pos.pieces(!color, Role::King).first(),
    ) else {
        return 0.0;
    };
    if score < WINNING {
        return 0.0;
    }
    let centre = |sq: Square| {
        let (f, r) = (sq.file().index() as i32, sq.rank().index() as i32);
        (2 * f - 7).abs().max((2 * r - 7).abs()) as f64
    };
    let gap = {
        let (a, b) = (own.file().index() as i32, own.rank().index() as i32);
        let (c, d) = (enemy.file().index() as i32, enemy.rank().index() as i32);
        (a - c).abs().max((b - d).abs()) as f64
    };
    0.05 * centre(enemy) + 0.04 * (7.0 - gap)
}

fn side(pos: &Position, color: Color) -> f64 {
    let own = pos.by_color(color);
    let occupied = pos.occupied();
    let mut score = 0.0;
    for sq in own {
        let Some(role) = pos.role_at(sq) else {
            continue;
        };
        score += piece(color, role, sq, occupied, !own);
    }
    score - KING_DANGER * king_danger(pos, color) as f64
}

/// A chess piece of `color` on `sq`: its material, a pawn's advance, or the mobility of the
/// squares it attacks among `counted`.
fn piece(color: Color, role: Role, sq: Square, occupied: Bitboard, counted: Bitboard) -> f64 {
    let advance = || PAWN_ADVANCE * (sq.rank().relative_to(color).index() as f64 - 1.0);
    role_value(role)
        + match role {
            Role::Pawn => advance(),
            Role::King => 0.0,
            _ => MOBILITY * (attacks(color, role, sq, occupied) & counted).count() as f64,
        }
}

/// Enemy attacks on the squares around `color`'s king.
fn king_danger(pos: &Position, color: Color) -> u32 {
    let Some(king) = (pos.pieces(color, Role::King)).first() else {
        return 0;
    };
    let ring = attacks(color, Role::King, king, Bitboard::EMPTY);
    ring.into_iter()
        .map(|sq| pos.attackers(sq, !color, pos.occupied()).count())
        .sum()
}

/// Alter Ego: the position, and the safety of each side's ego (capturing it wins).
pub fn alter_ego(game: &AlterEgo, color: Color) -> f64 {
    let pos = game.position();
    position(pos, color) + ego_safety(game, color) - ego_safety(game, !color)
}

/// Pawns lost when the ego's holder is attacked: near a loss when the enemy moves next.
fn ego_safety(game: &AlterEgo, color: Color) -> f64 {
    let pos = game.position();
    let Some(ego) = game.ego(color) else {
        return 0.0;
    };
    let attackers = pos.attackers(ego, !color, pos.occupied()).count();
    match (attackers, pos.turn() == color) {
        (0, _) => 0.0,
        (_, true) => -1.5,
        (_, false) => -12.0,
    }
}

/// The worth of a bluff: the doubt it sows, and the enemy bluffs it may sweep away.
const BLUFF: f64 = 0.2;

/// Bluff-move: the real pieces by role, their mobility and pawn advance, and the bluffs.
pub fn bluff_move(game: &BluffMove, color: Color) -> f64 {
    bluff_move_side(game, color) - bluff_move_side(game, !color)
}

fn bluff_move_side(game: &BluffMove, color: Color) -> f64 {
    let occupied = game.occupied();
    let mut score = BLUFF * game.bluffs(color).len() as f64;
    for sq in game.reals(color) {
        let Some(role) = game.role_at(sq) else {
            continue;
        };
        score += piece(color, role, sq, occupied, Bitboard::FULL);
    }
    score
}

/// The value of a BS identity: the king is judged by the end of the game, not here.
fn identity_value(identity: Identity) -> f64 {
    match identity {
        Identity::Pawn => 1.0,
        Identity::Spy => 2.0,
        Identity::Knight => 3.0,
        Identity::Bishop => 3.2,
        Identity::Rook => 5.0,
        Identity::Queen => 9.0,
        Identity::King => 0.0,
    }
}

/// The values of the piece a BS move lands on and of the piece that moves (the king's capture
/// ends the game), when the move lands on an enemy piece.
pub fn bs_capture(game: &Bs, from: Square, to: Square) -> Option<(f64, f64)> {
    let mover = game.identity(from)?;
    let side = match game.pieces(Color::White).contains(from) {
        true => Color::White,
        false => Color::Black,
    };
    let victim = game
        .identity(to)
        .filter(|_| !game.pieces(side).contains(to))?;
    let value = |identity| match identity {
        Identity::King => 50.0,
        identity => identity_value(identity),
    };
    Some((value(victim), value(mover)))
}

/// BS Chess: the identities on the board, the king's distance from the enemy, pawn advance.
pub fn bs(game: &Bs, color: Color) -> f64 {
    bs_side(game, color) - bs_side(game, !color)
}

fn bs_side(game: &Bs, color: Color) -> f64 {
    let mut score = 0.0;
    let enemies = game.pieces(!color);
    for sq in game.pieces(color) {
        match game.identity(sq) {
            Some(Identity::King) => {
                // Any enemy piece may claim a capture along a line: keep the king out of reach.
                let near = attacks(color, Role::Queen, sq, game.pieces(color) | enemies)
                    | attacks(color, Role::Knight, sq, Bitboard::EMPTY);
                score -= 0.3 * (near & enemies).count() as f64;
            }
            Some(Identity::Pawn) => {
                score += 1.0 + PAWN_ADVANCE * (sq.rank().relative_to(color).index() as f64 - 1.0)
            }
            Some(identity) => score += identity_value(identity),
            None => {}
        }
    }
    score
}

/// The value of a Reality Check face.
fn face_value(face: Face) -> f64 {
    match face {
        Face::Pawn => 1.0,
        Face::Knight => 3.0,
        Face::Bishop => 3.0,
        Face::Rook => 5.0,
    }
}

/// A true piece: losing all four loses the game.
const TRUE_PIECE: f64 = 7.0;
/// What a true piece in hand is worth less than one on the board.
const IDLE_TRUE: f64 = 1.0;
/// A true piece attacking an enemy true piece: a Reality Check that removes it is one move
/// away.
const TRUE_THREAT: f64 = 1.2;
/// Pawns per square a piece attacks.
const REACH: f64 = 0.03;
/// A piece whose two faces have been shown: its kind is public. An enemy one is a known target
/// (or known harmless); an own one has lost its secret. In a sampled world every piece is
/// known, so this is the only way the search values what a flip or a Reality Check teaches.
const SHOWN: f64 = 0.3;

/// A true piece one move from attacking an enemy true piece; each further move halves it.
/// Only true pieces take true pieces out of the game, so the search, which sees a move or two,
/// needs this pull to bring them into contact.
const APPROACH: f64 = 0.5;
/// Moves looked ahead for [`APPROACH`].
const APPROACH_MOVES: u32 = 6;

/// The squares a piece showing `face` on `sq` moves to without capturing.
fn face_moves(board: Shape, face: Face, sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    let reach = match face {
        Face::Pawn => board.orthogonal_neighbours(sq),
        face => face_attacks(board, face, sq, occupied),
    };
    reach - occupied
}

/// The value of a true piece showing `face` on `sq` coming within reach of one of `targets`:
/// [`APPROACH`] if one move takes it there, halved for each move more, 0 beyond
/// [`APPROACH_MOVES`] or when it attacks one already (that is [`TRUE_THREAT`]).
fn approach(
    board: Shape,
    face: Face,
    sq: Square39,
    targets: Bitboard39,
    occupied: Bitboard39,
) -> f64 {
    // A face attacks as it is attacked: these are the squares to reach.
    let goal = targets.fold(Bitboard39::EMPTY, |goal, target| {
        goal | face_attacks(board, face, target, occupied)
    });
    let mut seen = Bitboard39::EMPTY.with(sq);
    let mut frontier = seen;
    let mut value = 2.0 * APPROACH;
    for _ in 0..=APPROACH_MOVES {
        if !(frontier & goal).is_empty() {
            return if frontier.contains(sq) { 0.0 } else { value };
        }
        frontier = frontier.fold(Bitboard39::EMPTY, |next, from| {
            next | face_moves(board, face, from, occupied)
        }) - seen;
        seen |= frontier;
        value /= 2.0;
    }
    0.0
}

/// Pieces in hand over the limit must be dropped, one a turn, onto empty starting squares: too
/// few of those lose the game, and enemy pieces standing on them are how they run out.
fn drop_danger(game: &RealityCheck, color: Color) -> f64 {
    let (held, limit) = (game.hand_count(color), game.hand_limit(color));
    let over = held.saturating_sub(limit);
    let room = game.empty_drop_squares(color).count();
    let full = held >= limit;
    match (over, room) {
        // One capture from forced drops.
        (0, _) if full => 2.0,
        (0, _) => 0.0,
        (over, room) if room < over => 12.0,
        // Every forced drop is a turn lost, and the room left is what the opponent fills.
        (over, room) => 1.2 * over as f64 + 0.6 * (4u32.saturating_sub(room)) as f64,
    }
}

/// A full enemy hand can be squeezed: each capture from outside the enemy's drop squares pushes
/// it over the limit and leaves it one drop square fewer, and when none is left it loses. That
/// takes as many such attackers as empty drop squares plus one; each one short of that, up to
/// [`SQUEEZE_SHORT`], costs this much.
const SQUEEZE: f64 = 1.5;
/// Attackers short beyond which a squeeze is no threat.
const SQUEEZE_SHORT: usize = 3;

/// How near `color` is to squeezing a full enemy hand (see [`SQUEEZE`]).
fn squeeze(
    game: &RealityCheck,
    color: Color,
    pieces: &[(Square39, Piece)],
    occupied: Bitboard39,
    sides: [Bitboard39; 2],
) -> f64 {
    let enemy = !color;
    if game.hand_count(enemy) < game.hand_limit(enemy) {
        return 0.0;
    }
    let zone = game.drop_squares(enemy);
    let targets = zone & sides[enemy.index()];
    let attackers = pieces
        .iter()
        .filter(|(sq, piece)| {
            piece.color == color
                && !zone.contains(*sq)
                && (face_attacks(game.rules().board, piece.up, *sq, occupied) & targets).any()
        })
        .count();
    let needed = game.empty_drop_squares(enemy).count() as usize + 1;
    let short = needed.saturating_sub(attackers);
    SQUEEZE * SQUEEZE_SHORT.saturating_sub(short) as f64
}

/// The squares a piece showing `face` on `sq` attacks.
fn face_attacks(board: Shape, face: Face, sq: Square39, occupied: Bitboard39) -> Bitboard39 {
    match face {
        Face::Pawn => board.diagonal_neighbours(sq),
        Face::Knight => board.knight_attacks(sq),
        Face::Bishop => board.bishop_attacks(sq, occupied),
        Face::Rook => board.rook_attacks(sq, occupied),
    }
}

/// Reality Check: true pieces above all (on the board or in hand), then the faces of the
/// others, the reach of every piece and the danger of a full hand. Progress towards the end
/// (squeezes, true pieces near enemy true pieces) keeps its worth as the no-progress draw
/// nears, when the rest fades.
pub fn reality_check(game: &RealityCheck, color: Color) -> f64 {
    let mut pieces = Vec::with_capacity(20);
    let mut occupied = Bitboard39::EMPTY;
    let mut sides = [Bitboard39::EMPTY; 2];
    let mut truths = [Bitboard39::EMPTY; 2];
    let board = game.rules().board;
    for &sq in board.all() {
        if let Some(piece) = game.piece_at(sq) {
            occupied = occupied.with(sq);
            sides[piece.color.index()] = sides[piece.color.index()].with(sq);
            if piece.kind.is_true() {
                truths[piece.color.index()] = truths[piece.color.index()].with(sq);
            }
            pieces.push((sq, piece));
        }
    }
    // What leads to the end of the game: squeezes and true pieces in contact.
    let mut progress = squeeze(game, color, &pieces, occupied, sides)
        - squeeze(game, !color, &pieces, occupied, sides);
    let mut score = 0.0;
    for (sq, piece) in pieces {
        let sign = if piece.color == color { 1.0 } else { -1.0 };
        let mut value = if piece.kind.is_true() {
            TRUE_PIECE
        } else {
            0.6 * face_value(piece.up) + 0.4 * face_value(piece.down())
        };
        let reach = face_attacks(board, piece.up, sq, occupied);
        value += REACH * reach.count() as f64;
        if game.is_shown(sq) {
            value -= SHOWN;
        }
        if piece.kind.is_true() {
            let targets = truths[(!piece.color).index()];
            let threatened = (reach & targets).count() as f64;
            progress += sign * TRUE_THREAT * threatened;
            progress += sign * approach(board, piece.up, sq, targets, occupied);
        }
        score += sign * value;
    }
    for side in [color, !color] {
        let sign = if side == color { 1.0 } else { -1.0 };
        score -= sign * drop_danger(game, side);
        for kind in game.hand(side) {
            let (a, b) = kind.faces();
            let value = match kind.is_true() {
                // Safe, but idle and filling the hand: a full hand is drop-locked by one
                // capture, and only true pieces on the board take true pieces out.
                true => TRUE_PIECE - IDLE_TRUE,
                // Out of play until dropped, which costs a turn.
                false => 0.25 * (face_value(a) + face_value(b)),
            };
            score += sign * value;
        }
    }
    // Turns without a piece leaving the game run towards a draw: an advantage is worth less
    // the nearer that draw is, and only progress towards the end keeps its worth.
    let (quiet, limit) = game.quiet_turns();
    score * (1.0 - f64::from(quiet) / f64::from(limit)).max(0.0) + progress
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::game::Game;
    use bluffchess_rules::{Chess, Options};

    #[test]
    fn material_counts_and_the_start_is_even() {
        let mut game = Chess::new(&Options::new()).unwrap();
        assert!(position(game.position(), Color::White).abs() < 1e-9);
        for text in ["e2e4", "d7d5", "e4d5"] {
            game.apply_text(text).unwrap();
        }
        let white = position(game.position(), Color::White);
        assert!(white > 0.8, "{white}");
        assert_eq!(white, -position(game.position(), Color::Black));
    }

    fn squares(names: &[&str]) -> Bitboard39 {
        names.iter().fold(Bitboard39::EMPTY, |set, name| {
            set.with(Square39::parse(name).unwrap())
        })
    }

    fn at(name: &str) -> Square39 {
        Square39::parse(name).unwrap()
    }

    #[test]
    fn a_true_piece_is_drawn_to_enemy_true_pieces_by_the_moves_it_needs() {
        let target = squares(&["f7"]);
        // Up the f-file from f4: one move.
        let board = squares(&["a4", "f7"]);
        assert_eq!(
            approach(Shape::Basic, Face::Rook, at("a4"), target, board),
            APPROACH
        );
        // Attacking already is the threat's to value, not the approach's.
        let board = squares(&["f4", "f7"]);
        assert_eq!(
            approach(Shape::Basic, Face::Rook, at("f4"), target, board),
            0.0
        );
        // With f5 taken the way is b4, then b7 along rank 7: two moves.
        let board = squares(&["a4", "f5", "f7"]);
        assert_eq!(
            approach(Shape::Basic, Face::Rook, at("a4"), target, board),
            APPROACH / 2.0
        );
    }

    #[test]
    fn an_approach_counts_steps_through_empty_squares_only_and_not_too_far() {
        // A pawn face steps one square orthogonally and attacks diagonally: from a4 to c8
        // (which attacks d9) is six steps, the furthest counted.
        let board = squares(&["a4", "d9"]);
        let six = approach(Shape::Basic, Face::Pawn, at("a4"), squares(&["d9"]), board);
        assert_eq!(six, APPROACH / 32.0);
        // With c8 taken it must go round to e8: eight steps, too far.
        let board = squares(&["a4", "c8", "d9"]);
        assert_eq!(
            approach(Shape::Basic, Face::Pawn, at("a4"), squares(&["d9"]), board),
            0.0
        );
        // d1's one neighbour taken: no way out at all.
        let board = squares(&["d1", "d2", "f7"]);
        assert_eq!(
            approach(Shape::Basic, Face::Pawn, at("d1"), squares(&["f7"]), board),
            0.0
        );
    }

    #[test]
    fn an_approach_on_the_advanced_board_goes_round_the_holes() {
        let adv = |names: &[&str]| -> Bitboard39 {
            names
                .iter()
                .map(|n| Shape::Advanced.parse_square(n).unwrap())
                .collect()
        };
        let d1 = Shape::Advanced.parse_square("d1").unwrap();
        // On the basic board a rook on d1 already attacks d7; on the Advanced board d2 and d6 are
        // holes: by a1 (or g1) to rank 7, two moves.
        let board = adv(&["d1", "d7"]);
        assert_eq!(
            approach(Shape::Basic, Face::Rook, d1, adv(&["d7"]), board),
            0.0
        );
        assert_eq!(
            approach(Shape::Advanced, Face::Rook, d1, adv(&["d7"]), board),
            APPROACH / 2.0
        );
    }
}
