//! Alpha-beta with iterative deepening, a transposition table, move ordering (the table's move,
//! captures by most valuable victim and least valuable attacker, two killer moves a ply) and a
//! quiescence search of captures at the horizon.
//!
//! Where nothing is hidden (orthodox chess, Ambiguous) it searches the one position there is. In
//! Ambiguous the opponent's pick of the move to a named square is the opponent's choice: a node
//! where the opponent minimises. Where something is hidden it searches each of a few worlds
//! sampled from the belief and plays the action with the best mean over them (perfect-
//! information Monte Carlo, as card-game programs do): in each world both sides see everything,
//! so it cannot value a bluff, and the bluff decisions themselves are left to ISMCTS
//! ([`crate::variant::Variant::mixed`]). Chance's rolls in a world are drawn once as it is
//! searched.

use crate::budget::Budget;
use crate::sim::{parse_all, reward, settle, SearchError, EDGE};
use crate::variant::Variant;
use crate::worlds::{FromBelief, Worlds};
use bluffchess_rules::view::View;
use bluffchess_rules::Color;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use std::collections::HashMap;

/// What a search found.
#[derive(Clone, Debug)]
pub struct Found {
    /// The action's text.
    pub action: String,
    /// The deepest depth completed.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Worlds searched.
    pub worlds: usize,
    /// The action's value for the seat, 0 to 1 (a loss to a win), at the deepest depth that
    /// chose it.
    pub expected: f64,
}

#[derive(Clone, Copy, Debug)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Debug)]
struct Entry<A> {
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<A>,
}

/// The largest table, in entries: beyond it the table is cleared.
const MAX_ENTRIES: usize = 1 << 20;
/// Worlds searched where something is hidden, unless the bot says otherwise.
pub const SAMPLES: usize = 6;
/// Captures tried at each node beyond the horizon, best first: in BS any piece may claim
/// almost any capture, and following all of them would leave no time for the turns.
const QUIET_CAPTURES: usize = 4;

struct Search<'a, G: Variant> {
    table: HashMap<u64, Entry<G::Action>>,
    killers: Vec<[Option<G::Action>; 2]>,
    nodes: u64,
    budget: &'a Budget,
    stopped: bool,
    buffers: Vec<Vec<G::Action>>,
    /// Chance's rolls and random setups inside the tree.
    rng: StdRng,
    /// A draw's value for White: a little below even for the side searching ([`CONTEMPT`]).
    draw: f64,
}

/// How much worse than even the searching side counts a draw: enough to play on in a level
/// position rather than repeat it, as engines do against weaker opponents.
const CONTEMPT: f64 = 0.05;

/// Searches the seat's position (or `samples` worlds of it, where something is hidden) and picks
/// one of `legal`.
pub fn search<G: Variant>(
    view: &View<G::Summary>,
    legal: &[String],
    max_depth: u32,
    samples: usize,
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Result<Found, SearchError> {
    let worlds = FromBelief::<G::Belief>::from_view(view)?;
    let color = view.seat.color().ok_or(SearchError::Spectator)?;
    let count = if G::SPEC.hidden { samples.max(1) } else { 1 };
    let pool: Vec<G> = (0..count).map(|_| worlds.sample_quiet(rng)).collect();
    let actions = parse_all(&pool[0], legal);
    let first = actions.first().ok_or(SearchError::Unreadable)?;
    let mut search = Search::<G> {
        table: HashMap::new(),
        killers: Vec::new(),
        nodes: 0,
        budget: &budget,
        stopped: false,
        buffers: Vec::new(),
        rng: StdRng::seed_from_u64(rng.next_u64()),
        draw: match color {
            Color::White => 0.5 - CONTEMPT,
            Color::Black => 0.5 + CONTEMPT,
        },
    };
    let mut found = Found {
        action: first.to_string(),
        depth: 0,
        nodes: 0,
        worlds: pool.len(),
        expected: 0.5,
    };
    for depth in 1..=max_depth {
        search.killers = vec![[None, None]; depth as usize + 2];
        let best = match G::SPEC.hidden {
            false => search.best_in_one(&pool[0], depth, color),
            true => search.best_on_average(&pool, &actions, color, depth),
        };
        // An iteration cut short counts only if it is the first: better than no search at all.
        if search.stopped && depth > 1 {
            break;
        }
        if let Some((action, expected)) = best.filter(|(a, _)| actions.contains(a)) {
            found.action = action.to_string();
            found.expected = expected;
        }
        if search.stopped {
            break;
        }
        found.depth = depth;
        if budget.late() {
            break;
        }
    }
    found.nodes = search.nodes;
    Ok(found)
}

/// The actions in search order: the table's best first, then captures by most valuable
/// victim and least valuable attacker, then killers, then the rest as listed.
fn ordered<G: Variant>(
    search: &Search<G>,
    game: &G,
    actions: &[G::Action],
    ply: usize,
) -> Vec<G::Action> {
    let best = search
        .table
        .get(&game.position_key())
        .and_then(|e| e.best.as_ref());
    let killers = search.killers.get(ply);
    let mut scored: Vec<(f64, usize)> = actions
        .iter()
        .enumerate()
        .map(|(i, action)| {
            let score = if best == Some(action) {
                1e9
            } else if let Some((victim, attacker)) = game.capture(action) {
                1e6 + victim * 100.0 - attacker
            } else if killers.is_some_and(|k| k.iter().any(|k| k.as_ref() == Some(action))) {
                1e3
            } else {
                0.0
            };
            (score, i)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .map(|(_, i)| actions[i].clone())
        .collect()
}

/// Follow-ups kept below the root.
const FOLLOW_UPS: usize = 3;

/// Keeps the [`FOLLOW_UPS`] actions best for the side to act by the evaluation after each.
fn keep_best<G: Variant>(game: &G, actions: &mut Vec<G::Action>, maximising: bool) {
    if actions.len() <= FOLLOW_UPS {
        return;
    }
    let mut scored: Vec<(f64, G::Action)> = actions
        .drain(..)
        .map(|action| {
            let mut next = game.clone();
            let white = match next.apply(&action) {
                Ok(()) => reward(&next, Color::White),
                Err(_) => 0.5,
            };
            (if maximising { white } else { 1.0 - white }, action)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    actions.extend(scored.into_iter().take(FOLLOW_UPS).map(|(_, a)| a));
}

/// Whether the side to act in `game` is White (`None` when nobody acts: the game is over).
fn white_acts<G: Variant>(game: &G) -> Option<bool> {
    game.to_act()
        .map(|actor| actor.color() == Some(Color::White))
}

/// The depth left after an action of one side that leads to `child`: the same when the same
/// side acts again (the flip after a Reality Check move, the decision after a death move), so
/// that depth counts turns, not the actions within one.
fn continued<G: Variant>(child: &G, white_moved: bool, depth: u32) -> u32 {
    match white_acts(child) {
        Some(white) if white == white_moved && !child.setup_due() => depth,
        _ => depth - 1,
    }
}

/// Takes a child's `value` into the best so far and the window, for the side to act.
fn tighten(maximising: bool, value: f64, best: &mut f64, alpha: &mut f64, beta: &mut f64) {
    if maximising {
        *best = best.max(value);
        *alpha = alpha.max(value);
    } else {
        *best = best.min(value);
        *beta = beta.min(value);
    }
}

impl<G: Variant> Search<'_, G> {
    /// One iteration on the one world there is: its best action, from the table, and its
    /// value for `color`.
    fn best_in_one(&mut self, world: &G, depth: u32, color: Color) -> Option<(G::Action, f64)> {
        let white = self.value(world, depth, 0, f64::MIN, f64::MAX);
        let value = if color == Color::White {
            white
        } else {
            1.0 - white
        };
        self.table
            .get(&world.position_key())
            .and_then(|e| e.best.clone())
            .map(|best| (best, value))
    }

    /// One iteration over every world: each action's value in each world, `depth` turns deep,
    /// and the action with the best mean for `color` (over the worlds searched so far, if the
    /// time ran out), with that mean.
    fn best_on_average(
        &mut self,
        pool: &[G],
        actions: &[G::Action],
        color: Color,
        depth: u32,
    ) -> Option<(G::Action, f64)> {
        let mut totals = vec![(0.0, 0u32); actions.len()];
        for world in pool {
            for (action, total) in actions.iter().zip(&mut totals) {
                let mut child = world.clone();
                if child.apply(action).is_err() {
                    continue;
                }
                let next = continued(&child, color == Color::White, depth);
                let white = self.value(&child, next, 1, f64::MIN, f64::MAX);
                total.0 += if color == Color::White {
                    white
                } else {
                    1.0 - white
                };
                total.1 += 1;
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
        }
        actions
            .iter()
            .zip(&totals)
            .filter(|(_, (_, n))| *n > 0)
            .map(|(action, (total, n))| (action, total / f64::from(*n)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(action, mean)| (action.clone(), mean))
    }

    /// The value of `game` for White, `depth` plies deep, within (alpha, beta).
    fn value(&mut self, game: &G, depth: u32, ply: usize, mut alpha: f64, mut beta: f64) -> f64 {
        self.tick();
        let Some(maximising) = white_acts(game) else {
            return self.ended(game, ply);
        };
        // A position met again counts as a draw: a side ahead looks for progress instead.
        if ply > 0 && game.repetitions() >= 2 {
            return self.draw;
        }
        if let Some(settled) = self.settled(game) {
            return self.value(&settled, depth, ply, alpha, beta);
        }
        if depth == 0 || self.stopped {
            return self.quiesce(game, G::QUIESCENCE, ply, alpha, beta);
        }
        let key = game.position_key();
        if let Some(entry) = self.table.get(&key) {
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
            }
        }
        let mut listed = self.buffers.pop().unwrap_or_default();
        game.legal_actions_into(&mut listed);
        if ply > 0 && G::follow_up(&listed) {
            keep_best(game, &mut listed, maximising);
        }
        let actions = ordered(self, game, &listed, ply);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximising { f64::MIN } else { f64::MAX };
        let mut best_action = None;
        for action in &actions {
            let mut child = game.clone();
            child.apply(action).expect("a listed action is legal");
            let next = continued(&child, maximising, depth);
            let value = self.value(&child, next, ply + 1, alpha, beta);
            if (maximising && value > best) || (!maximising && value < best) {
                best = value;
                best_action = Some(action.clone());
            }
            if maximising {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                if game.capture(action).is_none() {
                    self.remember_killer(ply, action);
                }
                break;
            }
        }
        self.buffers.push(listed);
        if actions.is_empty() {
            best = reward(game, Color::White);
        }
        if !self.stopped {
            let bound = if best <= alpha0 {
                Bound::Upper
            } else if best >= beta0 {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if self.table.len() >= MAX_ENTRIES {
                self.table.clear();
            }
            let entry = Entry {
                depth,
                value: best,
                bound,
                best: best_action,
            };
            self.table.insert(key, entry);
        }
        best
    }

    /// The game after Chance's rolls and any setup due, when the next to act is not a player
    /// who chooses; `None` when a player acts now.
    fn settled(&mut self, game: &G) -> Option<G> {
        let chooses = game.to_act()?.color().is_some() && !game.setup_due();
        if chooses {
            return None;
        }
        let mut next = game.clone();
        settle(&mut next, &mut self.rng);
        Some(next)
    }

    /// The value for White of a game that has ended, `ply` plies from the root.
    fn ended(&self, game: &G, ply: usize) -> f64 {
        if game.outcome().is_some_and(|o| o.winner.is_none()) {
            return self.draw;
        }
        // A quicker win is better, a later loss less bad: by less than the edge that keeps
        // every end above (or below) every evaluation.
        let value = reward(game, Color::White);
        value + (0.5 - value) * EDGE * (ply as f64 / 128.0).min(1.0)
    }

    /// Beyond the horizon, `ply` plies from the root: the evaluation, unless a capture
    /// improves on it for the side to act (who may also stand pat, but for a forced choice
    /// such as Ambiguous's pick).
    fn quiesce(&mut self, game: &G, left: u32, ply: usize, mut alpha: f64, mut beta: f64) -> f64 {
        self.tick();
        let Some(maximising) = white_acts(game) else {
            return self.ended(game, ply);
        };
        let stand = reward(game, Color::White);
        if left == 0 || self.stopped || game.to_act().is_some_and(|a| a.color().is_none()) {
            return stand;
        }
        let mut listed = self.buffers.pop().unwrap_or_default();
        game.legal_actions_into(&mut listed);
        if G::answer(&listed) {
            let value = self.answered(game, &listed, left, ply, alpha, beta);
            self.buffers.push(listed);
            return value;
        }
        let forced = G::forced(&listed);
        let mut captures: Vec<(f64, &G::Action)> = listed
            .iter()
            .filter_map(|a| game.capture(a).map(|(v, at)| (v * 100.0 - at, a)))
            .collect();
        if captures.is_empty() || (forced && captures.len() < listed.len()) {
            self.buffers.push(listed);
            return stand;
        }
        let mut best = stand;
        if !forced {
            if maximising {
                alpha = alpha.max(stand);
            } else {
                beta = beta.min(stand);
            }
        } else {
            best = if maximising { f64::MIN } else { f64::MAX };
        }
        if alpha < beta {
            captures.sort_by(|a, b| b.0.total_cmp(&a.0));
            captures.truncate(QUIET_CAPTURES);
            for (_, action) in captures {
                let mut child = game.clone();
                child.apply(action).expect("a listed action is legal");
                let value = self.quiesce(&child, left - 1, ply + 1, alpha, beta);
                tighten(maximising, value, &mut best, &mut alpha, &mut beta);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.buffers.push(listed);
        best
    }

    /// Beyond the horizon, the best of the answers to a move (the few best removals after a
    /// call): the move is not settled until it is answered.
    fn answered(
        &mut self,
        game: &G,
        answers: &[G::Action],
        left: u32,
        ply: usize,
        mut alpha: f64,
        mut beta: f64,
    ) -> f64 {
        let maximising = white_acts(game) == Some(true);
        let mut best = if maximising { f64::MIN } else { f64::MAX };
        let mut answers = answers.to_vec();
        keep_best(game, &mut answers, maximising);
        for action in &answers {
            let mut child = game.clone();
            child.apply(action).expect("a listed action is legal");
            let value = self.quiesce(&child, left - 1, ply + 1, alpha, beta);
            tighten(maximising, value, &mut best, &mut alpha, &mut beta);
            if alpha >= beta || self.stopped {
                break;
            }
        }
        best
    }

    /// Counts a node, and every 1024 nodes checks the budget.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes % 1024 == 0 && self.budget.spent(self.nodes) {
            self.stopped = true;
        }
    }

    fn remember_killer(&mut self, ply: usize, action: &G::Action) {
        if let Some(slot) = self.killers.get_mut(ply) {
            if slot[0].as_ref() != Some(action) {
                slot[1] = slot[0].take();
                slot[0] = Some(action.clone());
            }
        }
    }
}
