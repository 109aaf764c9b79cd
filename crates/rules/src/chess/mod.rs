//! Orthodox chess at speed: the position, legal move generation, FEN, Zobrist hashing, perft and
//! the draw rules. The variants built on the orthodox board reuse it.

mod draws;
pub mod fen;
mod movegen;
mod moves;
mod pass;
pub mod perft;
mod position;
pub mod san;
pub(crate) mod zobrist;

pub use draws::{DrawClaim, Ending, History};
pub use fen::FenError;
pub use movegen::{MoveGroups, MoveList, PieceMoves, PieceMovesIter};
pub use moves::{Move, ParseMoveError};
pub use position::{castling, Position};
pub(crate) use position::{CastlingMove, CASTLING_MOVES};
