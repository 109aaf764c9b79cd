//! Each account's event stream: challenges and the starts and ends of its games, sent to every
//! stream it has open (`GET /api/stream/event`).

use crate::wire::AccountEvent;
use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::broadcast;

/// Events a stream may fall behind by before it misses some.
const BACKLOG: usize = 64;

/// The open event streams, by listener (an account's or a guest session's limits' key).
#[derive(Default)]
pub struct Listeners(Mutex<HashMap<String, broadcast::Sender<AccountEvent>>>);

impl Listeners {
    /// A new stream of `key`'s events.
    pub fn subscribe(&self, key: &str) -> broadcast::Receiver<AccountEvent> {
        let mut map = self.0.lock().expect("listeners lock");
        map.entry(key.to_string())
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Whether `key` has an event stream open.
    pub fn listening(&self, key: &str) -> bool {
        let map = self.0.lock().expect("listeners lock");
        map.get(key)
            .is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// Sends `event` to `key`'s open streams, if any.
    pub fn publish(&self, key: &str, event: AccountEvent) {
        let mut map = self.0.lock().expect("listeners lock");
        if let Some(sender) = map.get(key) {
            if sender.send(event).is_err() {
                map.remove(key);
            }
        }
    }
}
