//! Many bare games stepped together in Rust, one Python call for all of them: random playouts
//! and vectorised reinforcement-learning steps (finished games start again by themselves).

use crate::core::{new_game, Core, Mode};
use crate::error::{Refusal, Result};
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::Color;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// Games of one variant, stepped together.
pub struct Batch {
    seed: u64,
    threads: Threads,
    max_actions: Option<usize>,
    games: Vec<Slot>,
    /// A game just started, unsettled: each new game starts as a copy of it.
    start: Box<dyn Core>,
}

struct Slot {
    game: Box<dyn Core>,
    /// How many games this slot has started: the next one's seed follows from it.
    started: u64,
}

impl Slot {
    /// Starts slot `index`'s next game, a copy of `start` (the variant's game just started).
    fn start_next(&mut self, start: &dyn Core, seed: u64, index: usize) {
        let seed = seed_of(seed, index, self.started);
        let started = self.game.start_as(start, seed);
        assert!(started, "a batch's games are copies of its starting game");
        settle(self.game.as_mut());
        self.started += 1;
    }
}

/// What [`Batch::playouts`] counts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    /// Games White won.
    pub white: u64,
    /// Games Black won.
    pub black: u64,
    /// Drawn games.
    pub draws: u64,
    /// Actions played (Chance's included).
    pub actions: u64,
}

impl Tally {
    fn add(&mut self, other: Tally) {
        self.white += other.white;
        self.black += other.black;
        self.draws += other.draws;
        self.actions += other.actions;
    }

    fn count(&mut self, outcome: Option<Outcome>) {
        match outcome.map(|o| o.winner) {
            Some(Some(Color::White)) => self.white += 1,
            Some(Some(Color::Black)) => self.black += 1,
            _ => self.draws += 1,
        }
    }
}

/// Each player's return in a finished game: 1 for a win, -1 for a loss, 0 for a draw.
pub fn returns(outcome: Option<Outcome>) -> [f32; 2] {
    match outcome.and_then(|o| o.winner) {
        Some(Color::White) => [1.0, -1.0],
        Some(Color::Black) => [-1.0, 1.0],
        None => [0.0, 0.0],
    }
}

/// The seed of a slot's `k`-th game.
fn seed_of(seed: u64, slot: usize, k: u64) -> u64 {
    // SplitMix64 of the three: distinct games, whatever the number of threads.
    let mut z = seed
        .wrapping_add((slot as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(k.wrapping_mul(0xD1B5_4A32_D192_ED03));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Batch {
    /// `count` games of `variant`; `threads` of at least 1 step them.
    pub fn new(
        variant: &str,
        count: usize,
        options: &Options,
        seed: u64,
        threads: usize,
        max_actions: Option<usize>,
    ) -> Result<Batch> {
        let threads = Threads::start(threads)?;
        let start = new_game(variant, options, 0, Mode::Nothing)?;
        let games = (0..count)
            .map(|index| {
                let mut slot = Slot {
                    game: start.boxed_clone(),
                    started: 0,
                };
                slot.start_next(start.as_ref(), seed, index);
                slot
            })
            .collect();
        Ok(Batch {
            seed,
            threads,
            max_actions,
            games,
            start,
        })
    }

    /// How many games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// The game in slot `i`.
    pub fn game(&self, i: usize) -> Option<&dyn Core> {
        self.games.get(i).map(|s| s.game.as_ref())
    }

    /// Plays `steps` random actions in every game, starting a finished game again; returns the
    /// number of actions played.
    pub fn step_random(&mut self, steps: usize) -> u64 {
        let start = self.start.as_ref();
        let seed = self.seed;
        let max_actions = self.max_actions;
        let work = |offset: usize, slots: &mut [Slot]| -> u64 {
            let mut played = 0;
            for (i, slot) in slots.iter_mut().enumerate() {
                for _ in 0..steps {
                    let truncated = max_actions.is_some_and(|m| slot.game.action_count() >= m);
                    if truncated || !slot.game.play_random() {
                        slot.start_next(start, seed, offset + i);
                        if !slot.game.play_random() {
                            continue;
                        }
                    }
                    played += 1;
                }
            }
            played
        };
        parallel(&mut self.games, self.threads.pool().as_deref(), work)
            .into_iter()
            .sum()
    }

    /// Plays `count` whole random games from the start (to the end, or to `max_actions`
    /// actions), spread over the threads.
    pub fn playouts(&self, count: usize, seed: u64) -> Result<Tally> {
        let (start, max) = (self.start.as_ref(), self.max_actions);
        let mut games: Vec<usize> = (0..count).collect();
        let tallies = parallel(&mut games, self.threads.pool().as_deref(), |_, games| {
            let mut tally = Tally::default();
            let mut game = start.boxed_clone();
            for &mut g in games {
                // Chance's actions are played and counted here, not settled.
                let started = game.start_as(start, seed_of(seed, g, 0));
                assert!(started, "a batch's games are copies of its starting game");
                let mut actions = 0;
                while max.is_none_or(|m| actions < m) && game.play_random() {
                    actions += 1;
                }
                tally.actions += actions as u64;
                tally.count(game.outcome());
            }
            tally
        });
        let mut total = Tally::default();
        for t in tallies {
            total.add(t);
        }
        Ok(total)
    }

    /// Who acts in each game: 0 White, 1 Black.
    pub fn to_act(&self) -> Vec<i8> {
        self.games
            .iter()
            .map(|s| match s.game.to_act() {
                Some(Actor::White) => 0,
                Some(Actor::Black) => 1,
                Some(Actor::Chance) => 2,
                None => -1,
            })
            .collect()
    }

    /// Each game's observation for `seat`, or for the seat to act when `None`, one after another.
    pub fn observations(&self, seat: Option<Seat>, out: &mut [f32]) {
        let Some(first) = self.games.first() else {
            return;
        };
        let size = first.game.layout().size();
        let mut work: Vec<(&Slot, &mut [f32])> =
            self.games.iter().zip(out.chunks_mut(size)).collect();
        parallel(&mut work, self.threads.pool().as_deref(), |_, pairs| {
            for (slot, chunk) in pairs.iter_mut() {
                let seat = seat.unwrap_or(match slot.game.to_act() {
                    Some(Actor::Black) => Seat::Black,
                    _ => Seat::White,
                });
                slot.game.observe(seat, chunk);
            }
        });
    }

    /// Each game's legal mask, one after another (`actions` entries a game).
    pub fn legal_masks(&mut self, out: &mut [u8]) -> Result<()> {
        let Some(first) = self.games.first() else {
            return Ok(());
        };
        let actions = first.game.table().len();
        let mut work: Vec<(&mut Slot, &mut [u8])> =
            self.games.iter_mut().zip(out.chunks_mut(actions)).collect();
        let results = parallel(&mut work, self.threads.pool().as_deref(), |_, pairs| {
            let mut indices = Vec::new();
            for (slot, chunk) in pairs.iter_mut() {
                chunk.fill(0);
                slot.game.legal_indices(&mut indices)?;
                for &i in &indices {
                    chunk[i as usize] = 1;
                }
            }
            Ok(())
        });
        results.into_iter().collect()
    }

    /// Plays one action (an index) in each game, lets Chance act, and starts finished games
    /// again. Returns each game's rewards (White, Black) and whether it finished (or was cut at
    /// `max_actions`, which counts as a draw).
    pub fn step(&mut self, actions: &[i64]) -> Result<(Vec<[f32; 2]>, Vec<bool>)> {
        if actions.len() != self.games.len() {
            return Err(Refusal::StepCount {
                games: self.games.len(),
                actions: actions.len(),
            });
        }
        for (i, (slot, &action)) in self.games.iter().zip(actions).enumerate() {
            if action < 0 || action as usize >= slot.game.table().len() {
                let last = slot.game.table().len() - 1;
                return Err(Refusal::IndexOutOfRange {
                    index: action,
                    variant: slot.game.variant(),
                    last,
                }
                .in_game(i));
            }
        }
        // Check every action before playing any, so a refusal changes nothing.
        for (i, (slot, &action)) in self.games.iter_mut().zip(actions).enumerate() {
            if !slot.game.is_legal_index(action as u32)? {
                let text = slot.game.table().texts[action as usize].clone();
                return Err(Refusal::NotLegal {
                    index: action,
                    text,
                }
                .in_game(i));
            }
        }
        let mut rewards = vec![[0.0; 2]; self.games.len()];
        let mut dones = vec![false; self.games.len()];
        let (start, seed, max) = (self.start.as_ref(), self.seed, self.max_actions);
        let mut work: Vec<(usize, &mut Slot, &mut [f32; 2], &mut bool)> = self
            .games
            .iter_mut()
            .zip(rewards.iter_mut().zip(dones.iter_mut()))
            .enumerate()
            .map(|(i, (slot, (reward, done)))| (i, slot, reward, done))
            .collect();
        let pool = self.threads.pool();
        let results = parallel(&mut work, pool.as_deref(), |_, games| -> Result<()> {
            for (i, slot, reward, done) in games.iter_mut() {
                slot.game
                    .apply_index(actions[*i] as usize)
                    .map_err(|e| e.in_game(*i))?;
                settle(slot.game.as_mut());
                let truncated = max.is_some_and(|m| slot.game.action_count() >= m);
                if slot.game.outcome().is_some() || truncated {
                    **reward = returns(slot.game.outcome());
                    **done = true;
                    slot.start_next(start, seed, *i);
                }
            }
            Ok(())
        });
        results.into_iter().collect::<Result<()>>()?;
        Ok((rewards, dones))
    }
}

/// Lets Chance act until a player is to act or the game is over.
pub fn settle(game: &mut dyn Core) {
    while game.to_act() == Some(Actor::Chance) {
        if game.roll().is_err() {
            break;
        }
    }
}

/// The threads that step a batch's games: kept for the batch's life (spawning them anew on every
/// call took a third of two threads' work at 12,800 actions a call), and started again in a
/// process forked from the one that started them (a fork copies no thread: the parent's pool
/// would never answer in the child, and a reinforcement-learning library's vector of
/// environments often forks).
struct Threads {
    count: usize,
    /// The pool and the process it was started in; none for one thread.
    kept: Mutex<Option<(u32, Arc<rayon::ThreadPool>)>>,
}

impl Threads {
    fn start(count: usize) -> Result<Threads> {
        let count = count.max(1);
        let kept = match count {
            1 => None,
            _ => Some((std::process::id(), Arc::new(new_pool(count)?))),
        };
        Ok(Threads {
            count,
            kept: Mutex::new(kept),
        })
    }

    /// The pool of this process (`None` for one thread, or when a forked process could not
    /// start its threads: then the calling thread does the work).
    fn pool(&self) -> Option<Arc<rayon::ThreadPool>> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        let (pid, pool) = kept.as_ref()?;
        if *pid == std::process::id() {
            return Some(pool.clone());
        }
        // Forked: the parent's pool is left alone (its threads and locks are not in this
        // process), never dropped.
        let parent = kept.take();
        std::mem::forget(parent);
        let pool = Arc::new(new_pool(self.count).ok()?);
        *kept = Some((std::process::id(), pool.clone()));
        Some(pool)
    }
}

fn new_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("bluffchess-batch-{i}"))
        .build()
        .map_err(|e| Refusal::Threads {
            threads,
            reason: e.to_string(),
        })
}

/// Runs `work` over chunks of `items` on the pool's threads (here without one); each call gets
/// its chunk's offset. Many small chunks a thread (32), so that a thread done early takes
/// another's.
fn parallel<T: Send, R: Send>(
    items: &mut [T],
    pool: Option<&rayon::ThreadPool>,
    work: impl Fn(usize, &mut [T]) -> R + Sync,
) -> Vec<R> {
    let Some(pool) = pool.filter(|_| items.len() > 1) else {
        return vec![work(0, items)];
    };
    let per = items.len().div_ceil(32 * pool.current_num_threads()).max(1);
    pool.install(|| {
        items
            .par_chunks_mut(per)
            .enumerate()
            .map(|(c, chunk)| work(c * per, chunk))
            .collect()
    })
}
