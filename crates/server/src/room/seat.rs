//! The seats of a room and their places: White's feed is 0, Black's 1, the spectators' 2.

use bluffchess_rules::board::Color;
use bluffchess_rules::game::Seat;

/// The seats in feed order.
pub const SEATS: [Seat; 3] = [Seat::White, Seat::Black, Seat::Spectator];

/// A seat's index: White 0, Black 1.
pub fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// The feed of a seat, or the spectators' for none.
pub fn feed_of(seat: Option<Color>) -> usize {
    seat.map_or(2, index)
}

/// Who takes a seat: the key its live games count under, and its account (with its name) or
/// guest session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Holder {
    /// The limits' key (an account, a guest's session, an address); none for a server bot.
    pub key: Option<String>,
    /// The account that holds the seat, and its name.
    pub account: Option<(i64, String)>,
    /// The guest session that holds it (SHA-256, hex).
    pub guest: Option<String>,
}
