//! Board geometry: squares, sets of squares and attack tables for the 8x8 board and for Reality
//! Check's 39-square board.

#[macro_use]
mod square_set;
mod bitboard;
mod color;
mod role;
pub(crate) mod select;
pub mod sliding;
mod square;

pub use bitboard::{Bitboard, Squares};
pub use color::Color;
pub use role::{Piece, Role};
pub use square::{File, ParseSquareError, Rank, Square};

pub mod attacks;
pub mod board39;
pub mod faces;
pub mod identity;
mod magics;
pub(crate) mod text;
