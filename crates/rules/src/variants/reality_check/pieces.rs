//! The pieces of Reality Check on the board: an owner, one of the ten two-faced kinds
//! (`board/faces.rs`), and the face up.

pub use crate::board::faces::{Face, Kind, KindSet, ALL_KINDS};
use crate::board::Color;

/// A piece on the board: its owner, which piece it is, and which face is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// Which of the owner's ten pieces it is.
    pub kind: Kind,
    /// The face up, which it moves as.
    pub up: Face,
}

impl Piece {
    /// The face underneath.
    pub fn down(self) -> Face {
        self.kind.other(self.up)
    }

    /// The piece turned over.
    pub fn flipped(self) -> Piece {
        Piece {
            up: self.down(),
            ..self
        }
    }
}
