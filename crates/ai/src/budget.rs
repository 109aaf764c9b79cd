//! How long a bot may think: a deadline, a number of iterations, or both, and a [`Stop`] that
//! its caller raises once the answer is no longer wanted.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A signal that ends a search early: raised by whoever started it (a server whose game moved
/// on, ended or shut down), checked by the search as often as its deadline.
#[derive(Clone, Debug, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    /// A stop not yet raised.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Raises it: every search holding it ends at its next check.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it has been raised.
    pub fn raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A thinking budget.
#[derive(Clone, Debug)]
pub struct Budget {
    /// When to stop, if time counts.
    pub deadline: Option<Instant>,
    /// How many iterations (or nodes) at most, if they count.
    pub iterations: Option<u64>,
    /// Raised by the caller when the answer is no longer wanted.
    pub stop: Stop,
}

impl Budget {
    /// The budget of a bot with `ms` and `iterations` parameters under a caller's time limit:
    /// the shorter time wins; with neither time nor iterations, `fallback_ms`.
    pub fn new(
        ms: Option<u64>,
        iterations: Option<u64>,
        limit: Option<Duration>,
        fallback_ms: u64,
    ) -> Budget {
        let own = ms.map(Duration::from_millis);
        let time = match (own, limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let time = match (time, iterations) {
            (None, None) => Some(Duration::from_millis(fallback_ms)),
            (time, _) => time,
        };
        Budget {
            deadline: time.map(|t| Instant::now() + t),
            iterations,
            stop: Stop::new(),
        }
    }

    /// The same budget, ended early when `stop` is raised.
    pub fn with_stop(mut self, stop: Stop) -> Budget {
        self.stop = stop;
        self
    }

    /// Whether `done` iterations use the budget up.
    pub fn spent(&self, done: u64) -> bool {
        self.iterations.is_some_and(|n| done >= n) || self.late()
    }

    /// Whether the deadline has passed or the caller has stopped the search.
    pub fn late(&self) -> bool {
        self.stop.raised() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether a fraction of the time left until the deadline is gone, counted from `start`.
    pub fn share_spent(&self, start: Instant, share: f64) -> bool {
        self.stop.raised()
            || self.deadline.is_some_and(|d| {
                start.elapsed().as_secs_f64()
                    >= share * d.saturating_duration_since(start).as_secs_f64()
            })
    }
}
