//! What is public about a side's pieces: each piece's stays on the board (the facts the resampler
//! works from) and what both seats remember of the pieces in a hand.
//!
//! Everything a seat learns about an enemy piece is public: the face up is always in sight, and a
//! flip shows the new face to both seats, so whoever saw the old one knows both. What a seat
//! knows of the opponent's pieces is therefore the same for the opponent and for spectators.

use super::pieces::{Face, Kind, KindSet};
use crate::board::board39::Square39;
use crate::board::Color;

/// One stay of a piece on the board, from the setup or drop that put it there until it left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stay {
    /// The owner.
    pub color: Color,
    /// The action that placed it (the setup, or the drop).
    pub start: usize,
    /// Where it was placed.
    pub square: Square39,
    /// The face up when it was placed (public).
    pub face: Face,
    /// Whether a drop placed it (otherwise the setup).
    pub dropped: bool,
    /// The action at which it left the board, and whether it went to its owner's hand (otherwise
    /// it left the game).
    pub end: Option<(usize, bool)>,
    /// Whether both its faces have been shown: then its kind is public.
    pub shown: bool,
    /// Which piece it is (the truth; public only when `shown`).
    pub kind: Kind,
}

impl Stay {
    /// The kinds it may be, as far as anyone but its owner can tell.
    pub fn public_kinds(&self) -> KindSet {
        if self.shown {
            self.kind.bit()
        } else {
            Kind::with_face(self.face)
        }
    }
}

/// What was seen of a piece when it went to its owner's hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) enum Seen {
    /// Both faces: the piece itself.
    Piece(Kind),
    /// One face: the piece has it on a side.
    Face(Face),
    /// Nothing (the piece kept in hand at the setup, or one no longer told apart).
    Nothing,
}

impl Seen {
    /// What is seen of a piece leaving the board: `kind` if it has been shown, else its face up.
    pub fn of(kind: Kind, up: Face, shown: bool) -> Seen {
        if shown {
            Seen::Piece(kind)
        } else {
            Seen::Face(up)
        }
    }

    /// Whether the remembered piece may be of `kind`.
    pub fn could_be(self, kind: Kind) -> bool {
        match self {
            Seen::Piece(k) => k == kind,
            Seen::Face(f) => kind.has(f),
            Seen::Nothing => true,
        }
    }

    /// Whether the remembered piece may be dropped with `face` up (a piece seen with one face
    /// may have any other face underneath).
    pub fn could_show(self, face: Face) -> bool {
        match self {
            Seen::Piece(k) => k.has(face),
            Seen::Face(_) | Seen::Nothing => true,
        }
    }

    /// What two remembered pieces have in common: the least that is true of both.
    pub fn join(self, other: Seen) -> Seen {
        let common = |a: Kind, b: Kind| {
            let (a1, a2) = a.faces();
            [a1, a2].into_iter().find(|&f| b.has(f))
        };
        match (self, other) {
            (a, b) if a == b => a,
            (Seen::Piece(a), Seen::Piece(b)) => common(a, b).map_or(Seen::Nothing, Seen::Face),
            (Seen::Piece(k), Seen::Face(f)) | (Seen::Face(f), Seen::Piece(k)) if k.has(f) => {
                Seen::Face(f)
            }
            _ => Seen::Nothing,
        }
    }

    /// The text: `NB` for a known piece, `N?` for one seen showing N, `??` for one never seen.
    pub fn text(self) -> String {
        match self {
            Seen::Piece(k) => k.to_string(),
            Seen::Face(f) => format!("{f}?"),
            Seen::Nothing => "??".to_string(),
        }
    }
}

/// Takes one remembered piece out of a hand: one that `fits` (what the public saw leave). When
/// different remembered pieces could be the one that left, nobody can tell which stayed: each of
/// them that stays becomes what they all have in common.
pub(super) fn take_out(memory: &mut Vec<Seen>, fits: impl Fn(Seen) -> bool) {
    let candidates: Vec<usize> = (0..memory.len()).filter(|&i| fits(memory[i])).collect();
    let Some(&first) = candidates.first() else {
        // Cannot happen while the memory is sound; keep the count right regardless.
        memory.pop();
        return;
    };
    let common = candidates
        .iter()
        .fold(memory[first], |acc, &i| acc.join(memory[i]));
    for &i in &candidates {
        memory[i] = common;
    }
    memory.remove(first);
    memory.sort();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> Kind {
        Kind::parse(text).unwrap()
    }

    #[test]
    fn a_drop_that_only_one_remembered_piece_fits_keeps_the_rest_known() {
        let mut memory = vec![Seen::Piece(kind("NB")), Seen::Face(Face::Rook)];
        take_out(&mut memory, |s| s.could_show(Face::Pawn));
        assert_eq!(memory, [Seen::Piece(kind("NB"))]);
    }

    #[test]
    fn a_drop_several_pieces_fit_leaves_what_they_have_in_common() {
        let mut memory = vec![
            Seen::Piece(kind("NB")),
            Seen::Piece(kind("NR")),
            Seen::Piece(kind("PP")),
        ];
        take_out(&mut memory, |s| s.could_show(Face::Knight));
        assert_eq!(memory, [Seen::Piece(kind("PP")), Seen::Face(Face::Knight)]);
        let mut memory = vec![Seen::Face(Face::Bishop), Seen::Face(Face::Bishop)];
        take_out(&mut memory, |s| s.could_show(Face::Rook));
        assert_eq!(memory, [Seen::Face(Face::Bishop)]);
        assert_eq!(
            Seen::Piece(kind("NB")).join(Seen::Piece(kind("PR"))),
            Seen::Nothing
        );
    }
}
