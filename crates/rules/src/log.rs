//! The record every game keeps of itself: the actions taken, the events each seat may see, and
//! the outcome. Every variant holds one [`Log`]; the `Game` trait reads it.
//!
//! What a log records is its [`Recording`]. For simulations (an AI applies thousands of actions
//! per decision and reads no event text) it can keep only each seat's
//! [information key](Log::key), a hash of the events the seat has seen, so a search tree can tell
//! information sets apart, or nothing at all, for playouts that only need the end. The key of a
//! game equals [`info_key`] of its view's events.

use crate::event::{Event, EventKind};
use crate::fact::Fact;
use crate::outcome::Outcome;
use crate::seat::{Actor, Audience, Seat};
use std::fmt::{self, Display, Write};
use std::sync::Arc;

/// What a log keeps of each event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Recording {
    /// Every event, and every seat's key (the default).
    #[default]
    Events,
    /// Only every seat's key: no event is stored and no text is built.
    Keys,
    /// Nothing: keys go stale (for playouts that read only the outcome).
    Nothing,
}

/// The actions, the events and the outcome of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Log<A> {
    /// Every action taken, in order.
    pub(crate) actions: Vec<A>,
    /// Every event, all seats', in order (empty while quiet); shared between copies until one
    /// of them records more, since a belief's sample is often a copy of its game.
    events: Arc<Vec<Event>>,
    /// How the rules ended the game, if they have.
    pub(crate) outcome: Option<Outcome>,
    recording: Recording,
    /// Each seat's information key: White, Black, spectator.
    keys: [u64; 3],
}

impl<A> Default for Log<A> {
    fn default() -> Self {
        Log::new()
    }
}

impl<A> Log<A> {
    /// An empty log.
    pub fn new() -> Log<A> {
        Log {
            actions: Vec::new(),
            events: Arc::default(),
            outcome: None,
            recording: Recording::Events,
            keys: [KEY_START; 3],
        }
    }

    /// Every action taken, in order.
    pub fn actions(&self) -> &[A] {
        &self.actions
    }

    /// Every event, in order (none recorded while quiet).
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// How the rules ended the game, if they have.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// What the log keeps.
    pub fn recording(&self) -> Recording {
        self.recording
    }

    /// Changes what the log keeps from now on. A log that stops recording events also lets go
    /// of those it holds: a search clones its game at every node, and copied events would cost
    /// more than the rest of the game.
    pub fn set_recording(&mut self, recording: Recording) {
        self.recording = recording;
        if recording != Recording::Events {
            self.events = Arc::default();
        }
    }

    /// The events to change (copied first if another copy of the game shares them).
    pub(crate) fn events_mut(&mut self) -> &mut Vec<Event> {
        Arc::make_mut(&mut self.events)
    }

    /// The hash of every event `seat` has seen (stale after events recorded with
    /// [`Recording::Nothing`]).
    pub fn key(&self, seat: Seat) -> u64 {
        self.keys[seat_index(seat)]
    }

    /// Records an event of the action about to be taken, with its fact: what its text says, as
    /// data. The text is only formatted when the log records events.
    #[inline]
    pub(crate) fn push_fact(
        &mut self,
        actor: impl Into<Actor>,
        seats: Audience,
        kind: EventKind,
        text: impl Display,
        fact: Fact,
    ) {
        // Checked inline too: a playout records nothing and should not pay a call per event.
        if self.recording != Recording::Nothing {
            self.push_fact_at(self.actions.len(), actor.into(), seats, kind, text, fact);
        }
    }

    /// Records an event with its fact that belongs to action `index`.
    pub(crate) fn push_fact_at(
        &mut self,
        index: usize,
        actor: Actor,
        seats: Audience,
        kind: EventKind,
        text: impl Display,
        fact: Fact,
    ) {
        if self.recording == Recording::Nothing {
            return;
        }
        // Text is formatted once: kept as a string when events are, else hashed as written
        // (the hash is the same either way).
        let stored = (self.recording == Recording::Events).then(|| text_of(&text));
        let hash = match &stored {
            Some(stored) => event_hash(actor, &kind, stored),
            None => event_hash(actor, &kind, &text),
        };
        for seat in Seat::ALL {
            if seats.includes(seat) {
                let key = &mut self.keys[seat_index(seat)];
                *key = mix(*key, hash);
            }
        }
        if let Some(stored) = stored {
            let mut event = Event::new(index, actor, seats, kind, stored);
            event.fact = Some(fact);
            self.events_mut().push(event);
        }
    }

    /// Whether the log keeps events (else no notation needs writing).
    pub(crate) fn keeps_events(&self) -> bool {
        self.recording == Recording::Events
    }

    /// Gives the last event recorded its notation (a move in the variant's public notation).
    pub(crate) fn note(&mut self, notation: String) {
        if let Some(event) = self.events_mut().last_mut() {
            event.notation = Some(notation);
        }
    }

    /// Records an action just applied.
    pub(crate) fn push_action(&mut self, action: A) {
        self.actions.push(action);
    }

    /// Ends the game: the outcome, and an end event everyone sees.
    pub(crate) fn end(&mut self, outcome: Outcome, actor: Actor) {
        self.end_at(self.actions.len(), outcome, actor);
    }

    /// Ends the game with an end event that belongs to action `index`.
    pub(crate) fn end_at(&mut self, index: usize, outcome: Outcome, actor: Actor) {
        let fact = Fact::end(outcome);
        self.push_fact_at(index, actor, Audience::All, EventKind::End, outcome, fact);
        self.outcome = Some(outcome);
    }
}

/// The two `Game` methods that hand out a variant's log (its field `log`), for `impl Game`
/// blocks.
macro_rules! log_accessors {
    () => {
        fn log(&self) -> &$crate::log::Log<Self::Action> {
            &self.log
        }

        fn log_mut(&mut self) -> &mut $crate::log::Log<Self::Action> {
            &mut self.log
        }
    };
}
pub(crate) use log_accessors;

/// An event's text, written into room for most texts at once (growing a string as it is written
/// costs more than formatting it).
fn text_of(text: &impl Display) -> String {
    let mut stored = String::with_capacity(32);
    write!(stored, "{text}").expect("writing to a string cannot fail");
    stored
}

/// The information key of a sequence of events one seat saw (a view's events): equal to
/// [`Log::key`] of a game whose view has these events.
pub fn info_key<'a>(events: impl IntoIterator<Item = &'a Event>) -> u64 {
    events.into_iter().fold(KEY_START, |key, e| {
        mix(key, event_hash(e.actor, &e.kind, &e.text))
    })
}

const KEY_START: u64 = 0x243f_6a88_85a3_08d3;

fn seat_index(seat: Seat) -> usize {
    match seat {
        Seat::White => 0,
        Seat::Black => 1,
        Seat::Spectator => 2,
    }
}

/// Mixes a word into a running hash (keys, and variants' position keys).
pub(crate) fn mix(key: u64, hash: u64) -> u64 {
    (key.rotate_left(5) ^ hash).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// A hash of what an event says, written straight from its text's `Display` (no allocation).
fn event_hash(actor: Actor, kind: &EventKind, text: &impl Display) -> u64 {
    let kind_code = match kind {
        EventKind::Action => 0,
        EventKind::Sealed => 1,
        EventKind::Reveal { action } => 2 + 8 * *action as u64,
        EventKind::Info => 3,
        EventKind::Meta => 4,
        EventKind::End => 5,
    };
    let mut hasher = TextHasher {
        hash: mix(actor as u64, kind_code),
        pending: [0; 8],
        filled: 0,
    };
    write!(hasher, "{text}").expect("hashing text cannot fail");
    hasher.finish()
}

/// Hashes text as it is written, eight bytes at a time, whatever pieces it is written in: the
/// same text written whole or in parts hashes alike.
struct TextHasher {
    hash: u64,
    /// Bytes waiting for a whole word.
    pending: [u8; 8],
    filled: usize,
}

impl TextHasher {
    /// The hash of everything written: the last partial word with its length, which keeps
    /// texts that differ only in trailing zero bytes apart.
    fn finish(self) -> u64 {
        let mut tail = [0u8; 8];
        tail[..self.filled].copy_from_slice(&self.pending[..self.filled]);
        mix(
            self.hash,
            u64::from_le_bytes(tail) ^ ((self.filled as u64) << 59),
        )
    }
}

impl Write for TextHasher {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut bytes = s.as_bytes();
        if self.filled > 0 {
            let take = (8 - self.filled).min(bytes.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&bytes[..take]);
            self.filled += take;
            bytes = &bytes[take..];
            if self.filled < 8 {
                return Ok(());
            }
            self.hash = mix(self.hash, u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let word = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            self.hash = mix(self.hash, word);
        }
        let rest = chunks.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fact::SealedKind;

    /// Text written in pieces hashes like the same text written whole.
    #[test]
    fn text_hashes_alike_in_pieces_and_whole() {
        struct Pieces<'a>(&'a [&'a str]);
        impl Display for Pieces<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.iter().try_for_each(|p| f.write_str(p))
            }
        }
        let whole = "captured the bluff on e4: the real knight is on g1";
        let cuts: [&[&str]; 3] = [
            &[
                "captured the bluff on ",
                "e4",
                ": the real knight is on ",
                "g1",
            ],
            &["c", "aptured the bluff on e4: the real knight is on g", "1"],
            &[whole, ""],
        ];
        let expected = event_hash(Actor::White, &EventKind::Info, &whole);
        for pieces in cuts {
            let hash = event_hash(Actor::White, &EventKind::Info, &Pieces(pieces));
            assert_eq!(hash, expected, "{pieces:?}");
        }
        assert_ne!(event_hash(Actor::White, &EventKind::Info, &"e4"), expected);
    }

    #[test]
    fn a_log_of_keys_keeps_the_same_keys_without_events() {
        let mut loud: Log<u8> = Log::new();
        let mut quiet: Log<u8> = Log::new();
        quiet.set_recording(Recording::Keys);
        for log in [&mut loud, &mut quiet] {
            let sealed = Fact::Sealed {
                kind: SealedKind::Decision,
            };
            log.push_fact(
                Actor::White,
                Audience::All,
                EventKind::Action,
                "e2e4",
                Fact::Pass,
            );
            log.push_action(0);
            log.push_fact(
                Actor::Black,
                Audience::Black,
                EventKind::Action,
                "stay",
                Fact::Stay,
            );
            log.push_fact(
                Actor::Black,
                Audience::All,
                EventKind::Sealed,
                "decision",
                sealed,
            );
        }
        assert_eq!(loud.events().len(), 3);
        assert!(quiet.events().is_empty());
        for seat in Seat::ALL {
            assert_eq!(loud.key(seat), quiet.key(seat));
            let seen = loud.events().iter().filter(|e| e.seats.includes(seat));
            assert_eq!(info_key(seen), loud.key(seat));
        }
        assert_ne!(loud.key(Seat::White), loud.key(Seat::Black));
        assert_eq!(loud.key(Seat::White), loud.key(Seat::Spectator));
    }
}
