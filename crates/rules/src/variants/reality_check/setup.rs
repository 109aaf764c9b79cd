//! The opening setup: the seed's diagram, the free setups (Variant Three's half of the basic
//! board, the Advanced board's corner regions), the setup action (`setup d1=RR c2=NB ... hand=NN`,
//! face up first), its checks, and random setups drawn uniformly among the valid ones.

use super::assign;
use super::pieces::{Face, Kind, KindSet, ALL_KINDS};
use crate::board::board39::{Bitboard39, Shape, Square39};
use crate::board::Color;
use crate::error::ActionError;
use core::fmt;
use rand::seq::SliceRandom;
use rand::{Rng, RngCore};
use std::sync::OnceLock;

/// White's face-up sides in the seed's diagram, owner's back square first; Black's are mirrored.
const WHITE_DIAGRAM: [(Square39, Face); 9] = [
    (Square39::D1, Face::Rook),
    (Square39::C2, Face::Knight),
    (Square39::D2, Face::Bishop),
    (Square39::E2, Face::Knight),
    (Square39::B3, Face::Pawn),
    (Square39::C3, Face::Pawn),
    (Square39::D3, Face::Bishop),
    (Square39::E3, Face::Pawn),
    (Square39::F3, Face::Pawn),
];

/// `color`'s squares and face-up sides in the seed's diagram.
pub fn diagram(color: Color) -> [(Square39, Face); 9] {
    WHITE_DIAGRAM.map(|(sq, face)| (own_view(sq, color), face))
}

/// `sq` seen from `color`'s side: White's squares as they are, Black's mirrored.
fn own_view(sq: Square39, color: Color) -> Square39 {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// The half of the board where `color` may set up under Flexibility: ranks 1-4 for White, 6-9
/// for Black.
pub fn half(color: Color) -> Bitboard39 {
    Square39::ALL
        .into_iter()
        .filter(|sq| own_view(*sq, color).rank() <= 3)
        .collect()
}

/// White's setup region on the Advanced board, its ten `X` squares (RULINGS.md, Reality Check rule
/// 8) as (file, rank) from 0: d1 e1 f1 g1 e2 f2 g2 f3 g3 g4.
const WHITE_REGION: [(u8, u8); 10] = [
    (3, 0),
    (4, 0),
    (5, 0),
    (6, 0),
    (4, 1),
    (5, 1),
    (6, 1),
    (5, 2),
    (6, 2),
    (6, 3),
];

/// Both regions by colour: White's, and Black's, its half turn.
const REGIONS: [Bitboard39; 2] = {
    let (mut white, mut black) = (0u64, 0u64);
    let mut i = 0;
    while i < WHITE_REGION.len() {
        let (f, r) = WHITE_REGION[i];
        white |= 1 << (r * 7 + f);
        black |= 1 << ((6 - r) * 7 + (6 - f));
        i += 1;
    }
    [Bitboard39(white), Bitboard39(black)]
};

/// `color`'s setup region on the Advanced board: White's d1 e1 f1 g1 e2 f2 g2 f3 g3 g4, Black's
/// a7 b7 c7 d7 a6 b6 c6 a5 b5 a4.
pub fn region(color: Color) -> Bitboard39 {
    REGIONS[color.index()]
}

/// Where and how a side sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Placement {
    /// The seed's diagram: its nine squares with their faces up.
    Diagram,
    /// Variant Three on the basic board: any nine squares of the own half, any faces up.
    Half,
    /// The Advanced board: any nine of the own region's ten squares, any faces up.
    Region,
}

impl Placement {
    /// The squares `color` may set up on.
    pub(super) fn squares(self, color: Color) -> Bitboard39 {
        match self {
            Placement::Diagram => diagram(color).iter().map(|&(sq, _)| sq).collect(),
            Placement::Half => half(color),
            Placement::Region => region(color),
        }
    }
}

/// A side's setup: nine pieces placed (square, face up, face down) and one kept in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The pieces placed, in canonical order (from the owner's back square forward, then by
    /// file).
    pub placed: [(Square39, Face, Face); 9],
    /// The piece kept in hand.
    pub hand: Kind,
}

impl Setup {
    /// A setup from its pieces, put in canonical order: from the owner's back rank forward, then
    /// by file.
    pub fn new(mut placed: [(Square39, Face, Face); 9], hand: Kind) -> Setup {
        // On both boards all of White's setup squares are on ranks 1-4 and most of Black's above:
        // a setup that reaches above rank 4 is read from the top.
        let from_top = placed.iter().any(|&(sq, _, _)| sq.rank() > 3);
        placed.sort_by_key(|&(sq, _, _)| {
            let rank = if from_top { 8 - sq.rank() } else { sq.rank() };
            (rank, sq.file())
        });
        Setup { placed, hand }
    }

    /// Reads the words after `setup` in the action's `text`: nine `square=XY` (face up first,
    /// squares of `shape`) and `hand=XY`, in any order.
    pub(super) fn parse(text: &str, words: &[&str], shape: Shape) -> Result<Setup, ActionError> {
        let bad = |reason: String| ActionError::malformed(text, reason);
        let mut placed = Vec::with_capacity(9);
        let mut hand = None;
        for word in words {
            let (place, piece) = word
                .split_once('=')
                .ok_or_else(|| bad(format!("{word:?} is not square=XY or hand=XY")))?;
            let faces: Vec<Face> = piece
                .chars()
                .map(Face::from_letter)
                .collect::<Option<_>>()
                .filter(|f: &Vec<Face>| f.len() == 2)
                .ok_or_else(|| {
                    bad(format!(
                        "{piece:?} is not two face letters such as NB (P, N, B, R; face up first)"
                    ))
                })?;
            if place == "hand" {
                if hand.replace(Kind::new(faces[0], faces[1])).is_some() {
                    return Err(bad("hand= is given twice".into()));
                }
                continue;
            }
            let sq = shape.parse_square(place).map_err(|e| bad(e.to_string()))?;
            placed.push((sq, faces[0], faces[1]));
        }
        let hand = hand.ok_or_else(|| bad("the piece kept in hand is missing (hand=XY)".into()))?;
        let placed: [(Square39, Face, Face); 9] = placed
            .try_into()
            .map_err(|p: Vec<_>| bad(format!("nine pieces are placed, not {}", p.len())))?;
        Ok(Setup::new(placed, hand))
    }

    /// The ten kinds, placed ones first (in canonical order), the hand's last.
    pub fn kinds(&self) -> [Kind; 10] {
        let mut kinds = [self.hand; 10];
        for (i, &(_, up, down)) in self.placed.iter().enumerate() {
            kinds[i] = Kind::new(up, down);
        }
        kinds
    }

    /// The squares it places pieces on.
    pub fn squares(&self) -> Bitboard39 {
        self.placed.iter().map(|&(sq, _, _)| sq).collect()
    }

    /// Refuses `action`, this setup, when it is not a valid setup for `color`, saying why: any
    /// nine squares of the own half or region with any faces up when the setup is free,
    /// otherwise the seed's diagram.
    pub(super) fn check(
        &self,
        action: &impl fmt::Display,
        color: Color,
        placement: Placement,
    ) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        if self.squares().count() != 9 {
            return Err(refuse(
                "each of the nine pieces needs its own square".into(),
            ));
        }
        let kinds = self.kinds();
        let all: KindSet = kinds.iter().fold(0, |set, k| set | k.bit());
        if all != ALL_KINDS {
            let missing: Vec<String> = Kind::in_set(ALL_KINDS & !all)
                .map(|k| k.to_string())
                .collect();
            return Err(refuse(format!(
                "each of the ten pieces (PP PN PB PR NN NB NR BB BR RR) is used once; missing {}",
                missing.join(" ")
            )));
        }
        if placement == Placement::Diagram {
            return self.check_diagram(action, color);
        }
        let allowed = placement.squares(color);
        match self.placed.iter().find(|(sq, _, _)| !allowed.contains(*sq)) {
            None => Ok(()),
            Some((sq, _, _)) if placement == Placement::Half => Err(refuse(format!(
                "{sq} is outside {color}'s half (ranks {})",
                color.fold("1-4", "6-9")
            ))),
            Some((sq, _, _)) => Err(refuse(format!(
                "{sq} is outside {color}'s setup region ({}): on the Advanced board each side \
                 sets up on nine of its ten corner squares",
                allowed
                    .map(|sq| sq.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ))),
        }
    }

    /// Refuses `action`, this setup, when it is not the seed's diagram for `color`, saying why.
    fn check_diagram(&self, action: &impl fmt::Display, color: Color) -> Result<(), ActionError> {
        let refuse = |reason: String| ActionError::illegal(action, reason);
        for (sq, face) in diagram(color) {
            match self.placed.iter().find(|(s, _, _)| *s == sq) {
                None => {
                    return Err(refuse(format!(
                        "{color}'s pieces start on {}",
                        start_list(color)
                    )))
                }
                Some((_, up, _)) if *up != face => {
                    return Err(refuse(format!(
                        "the piece on {sq} must show {face} (face up first)"
                    )))
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// A setup drawn uniformly among the valid ones for `color`.
    pub(super) fn random(placement: Placement, color: Color, rng: &mut dyn RngCore) -> Setup {
        match placement {
            Placement::Diagram => Setup::random_standard(color, rng),
            free => Setup::random_free(free.squares(color), rng),
        }
    }

    /// A setup of the seed's diagram drawn uniformly among the valid ones.
    fn random_standard(color: Color, rng: &mut dyn RngCore) -> Setup {
        // Both sides' diagrams show the same faces in the same order: one table of counts
        // serves every standard setup.
        static TABLE: OnceLock<([KindSet; 10], Vec<u64>)> = OnceLock::new();
        let (allowed, table) = TABLE.get_or_init(|| {
            let mut allowed = [ALL_KINDS; 10];
            for (i, &(_, face)) in diagram(Color::White).iter().enumerate() {
                allowed[i] = Kind::with_face(face);
            }
            (allowed, assign::table(&allowed))
        });
        let places = diagram(color);
        let kinds = assign::sample_counted(allowed, table, rng).expect("the diagram can be set up");
        let placed = core::array::from_fn(|i| {
            let (sq, face) = places[i];
            (sq, face, kinds[i].other(face))
        });
        Setup::new(placed, kinds[9])
    }

    /// A free setup (Variant Three's) drawn uniformly among the valid ones: nine of `squares`,
    /// any arrangement, any face up.
    fn random_free(squares: Bitboard39, rng: &mut dyn RngCore) -> Setup {
        let mut squares: Vec<Square39> = squares.collect();
        // A shuffle's first nine are a uniform choice of nine squares in a uniform order.
        squares.shuffle(rng);
        // A true piece in hand leaves six two-sided pieces on the board (2^6 ways to turn them)
        // against five otherwise (2^5): weigh the hand's kind by that.
        let weights: Vec<u32> = Kind::ALL
            .iter()
            .map(|k| if k.is_true() { 64 } else { 32 })
            .collect();
        let mut pick = rng.random_range(0..weights.iter().sum::<u32>());
        let hand = Kind::ALL
            .into_iter()
            .zip(&weights)
            .find(|(_, &w)| {
                let hit = pick < w;
                if !hit {
                    pick -= w;
                }
                hit
            })
            .map(|(k, _)| k)
            .expect("the pick is below the total");
        let mut kinds: Vec<Kind> = Kind::ALL.into_iter().filter(|&k| k != hand).collect();
        kinds.shuffle(rng);
        let placed = core::array::from_fn(|i| {
            let (a, b) = kinds[i].faces();
            let (up, down) = if rng.random_bool(0.5) { (a, b) } else { (b, a) };
            (squares[i], up, down)
        });
        Setup::new(placed, hand)
    }
}

/// `color`'s start squares, as a list for messages.
fn start_list(color: Color) -> String {
    diagram(color)
        .iter()
        .map(|(sq, _)| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("setup")?;
        for (sq, up, down) in self.placed {
            write!(f, " {sq}={up}{down}")?;
        }
        write!(f, " hand={}", self.hand)
    }
}

/// The event that makes a setup's public side known once both setups are made: the squares and
/// the faces up (`placed d1=R c2=N ...`), written without allocating.
pub(super) struct Placed<'a>(pub &'a Setup);

impl fmt::Display for Placed<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("placed")?;
        for (sq, up, _) in self.0.placed {
            write!(f, " {sq}={up}")?;
        }
        Ok(())
    }
}
