//! Pairing: seeks and the quick-pairing pool, challenges, and each account's event stream.
//! Kept in memory, as lichess keeps them: a restart forgets open seeks and challenges, never a
//! game.

mod challenges;
mod events;
mod seeks;
mod terms;

pub use challenges::{decline_reason, Pending, Waiting, DECLINE_REASONS};
pub use events::Listeners;
pub use seeks::{same_player, Seek, Seeks};
pub use terms::{rating_range, Terms};

use std::sync::Mutex;

/// Waiting seeks and challenges, and the open event streams.
#[derive(Default)]
pub struct Pairing {
    pub seeks: Mutex<Seeks>,
    pub challenges: Mutex<Waiting>,
    pub listeners: Listeners,
}
