//! The seats of a room and their places: White's feed is 0, Black's 1, the spectators' 2.

use bluffchess_rules::board::Color;
use bluffchess_rules::seat::Seat;

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
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Holder {
    /// The limits' key (an account, a guest's session, an address); none for a server bot.
    pub key: Option<String>,
    /// The account that holds the seat, and its name.
    pub account: Option<(i64, String)>,
    /// The guest session that holds it (SHA-256, hex).
    pub guest: Option<String>,
}

impl Holder {
    /// Every key its event streams may listen under: its limits' key, its account's and its
    /// guest session's (a browser's first request is counted on its address, but listens with
    /// the session it was given).
    pub fn listener_keys(&self) -> Vec<String> {
        listener_keys(
            self.key.as_deref(),
            self.account.as_ref().map(|(id, _)| *id),
            self.guest.as_deref(),
        )
    }
}

/// The keys a seat's event streams may listen under (see [`Holder::listener_keys`]).
pub fn listener_keys(key: Option<&str>, account: Option<i64>, guest: Option<&str>) -> Vec<String> {
    let mut keys: Vec<String> = key.map(str::to_string).into_iter().collect();
    keys.extend(account.map(|id| format!("account {id}")));
    keys.extend(guest.map(|hash| format!("session {hash}")));
    keys.dedup();
    keys.sort();
    keys.dedup();
    keys
}
