//! A turn without a move, for variants whose rules make a side wait (Alter Ego's `pass`).

use super::position::Position;
use super::zobrist;

impl Position {
    /// Hands the move to the other side without moving (the side to move must not be in check).
    /// The en passant chance lapses and the half-move clock counts the turn.
    pub fn pass_turn(&mut self) {
        debug_assert!(!self.is_check(), "a side in check cannot pass");
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep.file().index());
        }
        self.halfmove_clock += 1;
        self.fullmove_number += self.turn.index() as u32;
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::Position;

    #[test]
    fn a_pass_flips_the_turn_and_keeps_the_hash_exact() {
        let mut pos = Position::default();
        pos.play_unchecked("e2e4".parse().unwrap());
        pos.pass_turn();
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2"
        );
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}
