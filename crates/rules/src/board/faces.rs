//! The pieces of Reality Check, as facts and views name them: four faces, and ten two-faced
//! kinds per side, four of them true (the same face on both sides).

use super::color::Color;
use core::fmt;

/// A face: the side of a piece that says which chess piece it moves as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Pawn: steps one square orthogonally, captures one square diagonally.
    Pawn = 0,
    /// Knight.
    Knight = 1,
    /// Bishop.
    Bishop = 2,
    /// Rook.
    Rook = 3,
}

impl Face {
    /// The four faces, pawn first.
    pub const ALL: [Face; 4] = [Face::Pawn, Face::Knight, Face::Bishop, Face::Rook];

    /// An index into per-face tables (0 to 3).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The upper-case letter (`P N B R`), as the action text writes it.
    pub const fn letter(self) -> char {
        match self {
            Face::Pawn => 'P',
            Face::Knight => 'N',
            Face::Bishop => 'B',
            Face::Rook => 'R',
        }
    }

    /// The letter in `color`'s case: upper for White, lower for Black (as in the diagrams).
    pub fn letter_for(self, color: Color) -> char {
        color.fold(self.letter(), self.letter().to_ascii_lowercase())
    }

    /// Reads an upper-case letter.
    pub const fn from_letter(c: char) -> Option<Face> {
        Some(match c {
            'P' => Face::Pawn,
            'N' => Face::Knight,
            'B' => Face::Bishop,
            'R' => Face::Rook,
            _ => return None,
        })
    }

    /// The English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Face::Pawn => "pawn",
            Face::Knight => "knight",
            Face::Bishop => "bishop",
            Face::Rook => "rook",
        }
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// One of the ten pieces of a side: an unordered pair of faces. Each side has exactly one of each,
/// so a kind names a piece. Index order: `PP PN PB PR NN NB NR BB BR RR`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

/// The faces of each kind, lower face first.
const PAIRS: [(Face, Face); 10] = {
    let mut pairs = [(Face::Pawn, Face::Pawn); 10];
    let mut n = 0;
    let mut a = 0;
    while a < 4 {
        let mut b = a;
        while b < 4 {
            pairs[n] = (Face::ALL[a], Face::ALL[b]);
            n += 1;
            b += 1;
        }
        a += 1;
    }
    pairs
};

/// A set of kinds, bit `i` for the kind with index `i`.
pub type KindSet = u16;

/// Every kind.
pub const ALL_KINDS: KindSet = (1 << 10) - 1;

impl Kind {
    /// The ten kinds in index order.
    pub const ALL: [Kind; 10] = {
        let mut all = [Kind(0); 10];
        let mut i = 0;
        while i < 10 {
            all[i] = Kind(i as u8);
            i += 1;
        }
        all
    };

    /// The kind with these two faces, in either order.
    pub const fn new(a: Face, b: Face) -> Kind {
        let (lo, hi) = if (a as u8) <= (b as u8) {
            (a as u8, b as u8)
        } else {
            (b as u8, a as u8)
        };
        // Kinds are listed by lower face, then higher face: 4 + 3 + 2 + 1 of them.
        Kind(lo * 4 - lo * lo.saturating_sub(1) / 2 + (hi - lo))
    }

    /// The index, 0 to 9.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set holding only this kind.
    #[inline]
    pub const fn bit(self) -> KindSet {
        1 << self.0
    }

    /// The two faces, lower first (`P < N < B < R`).
    #[inline]
    pub const fn faces(self) -> (Face, Face) {
        PAIRS[self.0 as usize]
    }

    /// Whether both faces are the same: a true piece.
    #[inline]
    pub const fn is_true(self) -> bool {
        let (a, b) = self.faces();
        a as u8 == b as u8
    }

    /// Whether `face` is on one of its sides.
    #[inline]
    pub const fn has(self, face: Face) -> bool {
        let (a, b) = self.faces();
        a as u8 == face as u8 || b as u8 == face as u8
    }

    /// The face on the other side when `up` is up (`up` must be one of its faces).
    #[inline]
    pub const fn other(self, up: Face) -> Face {
        let (a, b) = self.faces();
        if a as u8 == up as u8 {
            b
        } else {
            a
        }
    }

    /// The kinds with `face` on a side.
    pub const fn with_face(face: Face) -> KindSet {
        let mut set = 0;
        let mut i = 0;
        while i < 10 {
            if Kind(i).has(face) {
                set |= 1 << i;
            }
            i += 1;
        }
        set
    }

    /// The kinds of a set, in index order.
    pub fn in_set(set: KindSet) -> impl Iterator<Item = Kind> {
        Kind::ALL.into_iter().filter(move |k| set & k.bit() != 0)
    }

    /// Reads two face letters in either order (`NB`, `BN`, `RR`).
    pub fn parse(text: &str) -> Option<Kind> {
        let mut letters = text.chars();
        let a = Face::from_letter(letters.next()?)?;
        let b = Face::from_letter(letters.next()?)?;
        letters.next().is_none().then(|| Kind::new(a, b))
    }
}

impl fmt::Display for Kind {
    /// The two letters, lower face first (`NB`, `RR`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (a, b) = self.faces();
        write!(f, "{a}{b}")
    }
}

/// Text that is not a face's letter.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid face {0:?}: expected one of P, N, B, R")]
pub struct ParseFaceError(pub String);

/// Text that is not a piece's two face letters.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid piece {0:?}: expected two face letters such as NB")]
pub struct ParseKindError(pub String);

super::text::serde_as_text!(Face, ParseFaceError, |text| {
    let mut letters = text.chars();
    match (letters.next().and_then(Face::from_letter), letters.next()) {
        (Some(face), None) => Ok(face),
        _ => Err(ParseFaceError(text.to_string())),
    }
});

super::text::serde_as_text!(Kind, ParseKindError, |text| Kind::parse(text)
    .ok_or_else(|| ParseKindError(text.to_string())));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ten_kinds_are_the_unordered_pairs_and_four_are_true() {
        let names: Vec<String> = Kind::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            ["PP", "PN", "PB", "PR", "NN", "NB", "NR", "BB", "BR", "RR"]
        );
        for kind in Kind::ALL {
            let (a, b) = kind.faces();
            assert_eq!(Kind::new(a, b), kind);
            assert_eq!(Kind::new(b, a), kind);
            assert_eq!(kind.other(a), b);
            assert_eq!(kind.other(b), a);
        }
        assert_eq!(Kind::ALL.iter().filter(|k| k.is_true()).count(), 4);
        for face in Face::ALL {
            assert_eq!(Kind::with_face(face).count_ones(), 4);
        }
        assert_eq!(
            Kind::parse("BN"),
            Some(Kind::new(Face::Knight, Face::Bishop))
        );
        assert_eq!(Kind::parse("NBX"), None);
        assert_eq!(Kind::parse("nb"), None);
    }
}
