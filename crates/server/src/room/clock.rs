//! Fischer clocks, kept by the room in server time.

use super::seat::index;
use crate::wire::{ClockState, ClockTerms};
use bluffchess_rules::board::Color;
use bluffchess_rules::seat::Seat;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A game's two clocks.
#[derive(Clone, Debug)]
pub struct Clock {
    initial: i64,
    increment: i64,
    remaining: [i64; 2],
    /// Whose clock runs, since when.
    running: Option<(Color, i64)>,
}

impl Clock {
    /// Both clocks at `initial` ms, adding `increment` ms a move, stopped.
    pub fn new((initial, increment): (i64, i64)) -> Clock {
        Clock {
            initial,
            increment,
            remaining: [initial; 2],
            running: None,
        }
    }

    /// The terms: initial time and increment.
    pub fn terms(&self) -> ClockTerms {
        ClockTerms {
            increment_ms: self.increment,
            initial_ms: self.initial,
        }
    }

    /// Charges the running clock up to `t`.
    pub fn charge(&mut self, t: i64) {
        if let Some((c, since)) = self.running {
            self.remaining[index(c)] -= (t - since).max(0);
            self.running = Some((c, t));
        }
    }

    /// Charges up to `t` and stops both clocks.
    pub fn stop(&mut self, t: i64) {
        self.charge(t);
        self.running = None;
    }

    /// Charges up to `t`, then runs `next`'s clock from `t` (none: both stopped).
    pub fn run(&mut self, next: Option<Color>, t: i64) {
        self.charge(t);
        self.running = next.map(|c| (c, t));
    }

    /// Adds the increment to `color`'s clock.
    pub fn increment(&mut self, color: Color) {
        self.remaining[index(color)] += self.increment;
    }

    /// Sets `color`'s clock to zero: its flag fell.
    pub fn flagged(&mut self, color: Color) {
        self.remaining[index(color)] = 0;
    }

    /// Whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// When the running clock's flag falls.
    pub fn deadline(&self) -> Option<i64> {
        let (c, since) = self.running?;
        Some(since + self.remaining[index(c)])
    }

    /// Time the server was down is charged to nobody: the running clock restarts at `t`.
    pub fn resume(&mut self, t: i64) {
        if let Some((c, _)) = self.running {
            self.running = Some((c, t));
        }
    }

    /// Both clocks as of `t`.
    pub fn state(&self, t: i64) -> ClockState {
        let mut remaining = self.remaining;
        if let Some((c, since)) = self.running {
            remaining[index(c)] -= (t - since).max(0);
        }
        ClockState {
            black_ms: remaining[1].max(0),
            increment_ms: self.increment,
            initial_ms: self.initial,
            running: self.running.map(|(c, _)| Seat::from(c).name().to_string()),
            white_ms: remaining[0].max(0),
        }
    }
}
