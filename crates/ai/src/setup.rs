//! Hand-made setup policies: where to hide what, mixed at random so that no habit gives the
//! arrangement away.
//!
//! - BS Chess: pawns stay on the second rank (a pawn's first moves are the cheapest truths to
//!   tell); the king never takes its orthodox square e1, which every opponent calls first, but
//!   one of b, c, f or g, tucked behind its pawns; the other back-rank pieces are shuffled. With
//!   the `spy` option, a pawn in front of the king's wing is the spy half of the time.
//! - Reality Check (the seed's diagram; with `flexible-setup` the uniform random setup is kept):
//!   each valid arrangement is scored, higher being better: a true piece kept in hand +2 (it
//!   cannot be taken and drops where needed), a true piece on the first two ranks +1, on the
//!   front rank -1; a random amount of up to 1.5 is added and the best is played, so that the
//!   policy leans on these preferences without being predictable.
//! - Reality Check on the Advanced board: the same preferences over 400 random arrangements of
//!   the own ten-square corner (the empty square and the faces up drawn at random too), where a
//!   true piece is safe on the four squares next to the corner square (+1) and exposed on the two
//!   tips of the region, three files or ranks from it (-1).

use bluffchess_rules::board::board39::{Shape, Square39};
use bluffchess_rules::game::Game;
use bluffchess_rules::variants::bs::BsSummary;
use bluffchess_rules::variants::reality_check::{Face, Kind, RealityCheck, RealityCheckSummary};
use bluffchess_rules::view::View;
use bluffchess_rules::Color;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, RngCore};

/// A BS Chess setup for the seat of `view`.
pub fn bs(view: &View<BsSummary>, rng: &mut dyn RngCore) -> Option<String> {
    let spy = view.options.get("spy").is_some_and(|v| v == "true");
    let king_file = *[1usize, 2, 5, 6].choose(rng)?;
    let mut others: Vec<char> = "RNBQBNR".chars().collect();
    others.shuffle(rng);
    let mut back: Vec<char> = Vec::with_capacity(8);
    for file in 0..8 {
        back.push(if file == king_file {
            'K'
        } else {
            others.pop()?
        });
    }
    let mut front: Vec<char> = vec!['P'; 8];
    if spy && rng.random_bool(0.5) {
        // Near the king, where a capture of the enemy queen or king is likely to come from.
        let file = (king_file + rng.random_range(0..3))
            .saturating_sub(1)
            .min(7);
        front[file] = 'S';
    }
    let back: String = back.into_iter().collect();
    let front: String = front.into_iter().collect();
    Some(format!("setup {back}/{front}"))
}

/// White's squares and face-up sides in the seed's diagram, with their rank (1 to 3).
const DIAGRAM: [(&str, Face); 9] = [
    ("d1", Face::Rook),
    ("c2", Face::Knight),
    ("d2", Face::Bishop),
    ("e2", Face::Knight),
    ("b3", Face::Pawn),
    ("c3", Face::Pawn),
    ("d3", Face::Bishop),
    ("e3", Face::Pawn),
    ("f3", Face::Pawn),
];

/// A Reality Check setup for the seat of `view` (the diagram's squares and faces).
pub fn reality_check(view: &View<RealityCheckSummary>, rng: &mut dyn RngCore) -> Option<String> {
    let rules = RealityCheck::new(&view.options).ok()?.rules();
    if rules.board == Shape::Advanced {
        return advanced(view, rng);
    }
    if rules.flexible_setup {
        return None;
    }
    let black = view.seat.color()? == Color::Black;
    let mut best: Option<(f64, Vec<Kind>)> = None;
    let mut chosen = Vec::with_capacity(9);
    arrangements(&mut chosen, &mut |kinds| {
        let score = score(kinds) + rng.random::<f64>() * 1.5;
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, kinds.to_vec()));
        }
    });
    let (_, kinds) = best?;
    let hand = Kind::ALL.into_iter().find(|k| !kinds.contains(k))?;
    let mut text = String::from("setup");
    for ((square, up), kind) in DIAGRAM.iter().zip(&kinds) {
        let square = if black {
            mirror(square)
        } else {
            square.to_string()
        };
        let down = kind.other(*up);
        text.push_str(&format!(" {square}={}{}", up.letter(), down.letter()));
    }
    let (a, b) = hand.faces();
    text.push_str(&format!(" hand={}{}", a.letter(), b.letter()));
    Some(text)
}

/// The square seen from Black's side of the 9-rank board.
fn mirror(square: &str) -> String {
    let (file, rank) = square.split_at(1);
    let rank: u32 = rank.parse().unwrap_or(1);
    format!("{file}{}", 10 - rank)
}

/// Calls `visit` with every assignment of kinds to the diagram's squares (the tenth kind goes
/// to the hand).
fn arrangements(chosen: &mut Vec<Kind>, visit: &mut dyn FnMut(&[Kind])) {
    let Some((_, up)) = DIAGRAM.get(chosen.len()) else {
        visit(chosen);
        return;
    };
    for kind in Kind::ALL {
        if kind.has(*up) && !chosen.contains(&kind) {
            chosen.push(kind);
            arrangements(chosen, visit);
            chosen.pop();
        }
    }
}

/// The hand-made preference for an arrangement (see the module's notes).
fn score(kinds: &[Kind]) -> f64 {
    let in_hand = Kind::ALL.into_iter().find(|k| !kinds.contains(k));
    let mut score = if in_hand.is_some_and(Kind::is_true) {
        2.0
    } else {
        0.0
    };
    for ((square, _), kind) in DIAGRAM.iter().zip(kinds) {
        if kind.is_true() {
            score += if square.ends_with('3') { -1.0 } else { 1.0 };
        }
    }
    score
}

/// Random arrangements scored by the Advanced board's policy.
const ADVANCED_CANDIDATES: usize = 400;

/// A setup on the Advanced board for the seat of `view` (see the module's notes).
fn advanced(view: &View<RealityCheckSummary>, rng: &mut dyn RngCore) -> Option<String> {
    let color = view.seat.color()?;
    let rules = RealityCheck::new(&view.options).ok()?.rules();
    let region: Vec<Square39> = rules.setup_squares(color)?.collect();
    // The corner square of the region: g1 for White, a7 for Black.
    let corner = match color {
        Color::White => (6, 0),
        Color::Black => (0, 6),
    };
    let distance = |sq: Square39| {
        let df = (i32::from(sq.file()) - corner.0).abs();
        let dr = (i32::from(sq.rank()) - corner.1).abs();
        df.max(dr)
    };
    let mut best: Option<(f64, String)> = None;
    for _ in 0..ADVANCED_CANDIDATES {
        let mut squares = region.clone();
        squares.shuffle(rng);
        let mut kinds = Kind::ALL.to_vec();
        kinds.shuffle(rng);
        let hand = kinds[9];
        let mut score = if hand.is_true() { 2.0 } else { 0.0 };
        let mut text = String::from("setup");
        for (sq, kind) in squares.iter().zip(&kinds[..9]) {
            if kind.is_true() {
                score += match distance(*sq) {
                    0 | 1 => 1.0,
                    3 => -1.0,
                    _ => 0.0,
                };
            }
            let (a, b) = kind.faces();
            let (up, down) = if rng.random_bool(0.5) { (a, b) } else { (b, a) };
            text.push_str(&format!(" {sq}={}{}", up.letter(), down.letter()));
        }
        let (a, b) = hand.faces();
        text.push_str(&format!(" hand={}{}", a.letter(), b.letter()));
        score += rng.random::<f64>() * 1.5;
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, text));
        }
    }
    best.map(|(_, text)| text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::options::Options;
    use bluffchess_rules::seat::Seat;
    use rand::rngs::StdRng;
    use rand::SeedableRng;

    #[test]
    fn advanced_board_setups_are_valid_and_keep_true_pieces_off_the_tips() {
        let options = Options::from([("board".to_string(), "advanced".to_string())]);
        let mut rng = StdRng::seed_from_u64(3);
        let (mut tips, mut near, mut in_hand) = (0, 0, 0);
        for _ in 0..40 {
            let mut game = RealityCheck::new(&options).unwrap();
            for seat in [Seat::White, Seat::Black] {
                let text = reality_check(&game.view(seat), &mut rng).unwrap();
                game.apply_text(&text)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
            }
            let white = Shape::Advanced;
            for name in ["d1", "g4"] {
                let piece = game.piece_at(white.parse_square(name).unwrap());
                tips += usize::from(piece.is_some_and(|p| p.kind.is_true()));
            }
            for name in ["f1", "g1", "f2", "g2"] {
                let piece = game.piece_at(white.parse_square(name).unwrap());
                near += usize::from(piece.is_some_and(|p| p.kind.is_true()));
            }
            in_hand += usize::from(game.hand(Color::White)[0].is_true());
        }
        // Uniform setups would put a true piece on the two tips 40 * 2 * 4 / 10 = 32 times, near
        // the corner 64 times, and keep one in hand 16 times.
        assert!(
            tips < 16 && near > 80 && in_hand > 30,
            "{tips} {near} {in_hand}"
        );
    }
}
