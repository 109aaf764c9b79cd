//! A room's server bot at work: it thinks on a blocking thread from its seat's decision, under
//! the server's time limit, seeded by the room's secret, and is stopped once its answer is no
//! longer wanted (late, the game over, the server stopping).

use crate::bot::{Bot, Turn};
use crate::secret::os_u64;
use bluffchess_ai::{Decision, Stop};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// A bot's answer, for the log entry it was asked at: `None` when it was late or failed.
pub struct BotAnswer {
    entries_at: i64,
    action: Option<String>,
}

/// Whether a bot is thinking, the stop of its search, and the room's secret.
pub struct Thinking {
    pending: bool,
    stop: Option<Stop>,
    /// Every bot seed of the room is drawn from it: no client chooses or sees it.
    secret: u64,
    tx: mpsc::Sender<BotAnswer>,
    rx: Option<mpsc::Receiver<BotAnswer>>,
}

impl Thinking {
    /// No bot thinking yet, and a new secret.
    pub fn new() -> Thinking {
        let (tx, rx) = mpsc::channel(4);
        Thinking {
            pending: false,
            stop: None,
            secret: os_u64(),
            tx,
            rx: Some(rx),
        }
    }

    /// The answers' mailbox, taken once by the room's loop.
    pub fn take_answers(&mut self) -> mpsc::Receiver<BotAnswer> {
        self.rx.take().expect("the room runs once")
    }

    /// Whether a bot is thinking.
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// Ends the search under way, if any: its answer is no longer wanted.
    pub fn stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            stop.raise();
        }
    }

    /// Starts `bot` thinking on the decision at log entry `entries`, for at most `bot_time`.
    pub fn start(
        &mut self,
        bot: Arc<dyn Bot>,
        decision: Decision,
        bot_time: Duration,
        entries: i64,
    ) {
        let stop = Stop::new();
        self.stop();
        self.stop = Some(stop.clone());
        self.pending = true;
        // The secret mixed with the decision's place in the log.
        let seed = self.secret ^ (entries as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        // The search keeps a quarter of the time for its answer to arrive before the deadline.
        let limit = bot_time * 3 / 4;
        let tx = self.tx.clone();
        tokio::spawn(async move {
            let searching = stop.clone();
            let thinking = tokio::task::spawn_blocking(move || {
                bot.act(&Turn {
                    decision: &decision,
                    seed,
                    limit,
                    stop: &searching,
                })
            });
            let action = match tokio::time::timeout(bot_time, thinking).await {
                Ok(Ok(action)) => Some(action),
                _ => None,
            };
            // Too late, or done: either way the search has nothing more to give.
            stop.raise();
            let answer = BotAnswer {
                entries_at: entries,
                action,
            };
            let _ = tx.send(answer).await;
        });
    }

    /// An answer arrived: the bot thinks no more. `Some` (holding the bot's action, if it gave
    /// one in time) when the log is still where the bot was asked.
    pub fn answered(&mut self, answer: BotAnswer, entries: i64) -> Option<Option<String>> {
        self.pending = false;
        self.stop = None;
        (answer.entries_at == entries).then_some(answer.action)
    }
}
