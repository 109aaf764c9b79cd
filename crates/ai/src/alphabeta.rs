//! Alpha-beta for the variants where nothing is hidden (orthodox chess, Ambiguous): iterative
//! deepening, a transposition table, and move ordering (the table's move, captures by most
//! valuable victim and least valuable attacker, two killer moves a ply). In Ambiguous, the
//! opponent's pick of the move to a named square is the opponent's choice: a node where the
//! opponent minimises.

use crate::budget::Budget;
use crate::sim::{parse_all, quiet, reward};
use crate::variant::Variant;
use crate::worlds::Worlds;
use bluffchess_rules::game::View;
use bluffchess_rules::Color;
use rand::RngCore;
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

struct Search<'a, G: Variant> {
    table: HashMap<u64, Entry<G::Action>>,
    killers: Vec<[Option<G::Action>; 2]>,
    nodes: u64,
    budget: &'a Budget,
    stopped: bool,
    buffers: Vec<Vec<G::Action>>,
}

/// Searches the seat's position and picks one of `legal`.
pub fn search<G: Variant>(
    view: &View<G::Summary>,
    legal: &[String],
    max_depth: u32,
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Result<Found, String> {
    let worlds = G::Worlds::from_view(view)?;
    let mut root = worlds.sample(rng);
    quiet(&mut root);
    let actions = parse_all(&root, legal);
    let first = actions
        .first()
        .ok_or("none of the legal actions can be read")?;
    let mut search = Search::<G> {
        table: HashMap::new(),
        killers: Vec::new(),
        nodes: 0,
        budget: &budget,
        stopped: false,
        buffers: Vec::new(),
    };
    let mut found = Found {
        action: first.to_string(),
        depth: 0,
        nodes: 0,
    };
    for depth in 1..=max_depth {
        search.killers = vec![[None, None]; depth as usize + 1];
        search.value(&root, depth, 0, f64::MIN, f64::MAX);
        if search.stopped {
            break;
        }
        let best = search
            .table
            .get(&root.position_key())
            .and_then(|e| e.best.as_ref());
        if let Some(action) = best.filter(|a| actions.contains(a)) {
            found.action = action.to_string();
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

impl<G: Variant> Search<'_, G> {
    /// The value of `game` for White, `depth` plies deep, within (alpha, beta).
    fn value(&mut self, game: &G, depth: u32, ply: usize, mut alpha: f64, mut beta: f64) -> f64 {
        self.nodes += 1;
        if self.nodes % 1024 == 0 && self.budget.spent(self.nodes) {
            self.stopped = true;
        }
        let Some(actor) = game.to_act().and_then(|a| a.color()) else {
            // A quicker win is better, a later loss less bad.
            let value = reward(game, Color::White);
            return value + (0.5 - value) * 1e-3 * ply as f64;
        };
        if depth == 0 || self.stopped {
            return reward(game, Color::White);
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
        let actions = ordered(self, game, &listed, ply);
        let maximising = actor == Color::White;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = if maximising { f64::MIN } else { f64::MAX };
        let mut best_action = None;
        for action in &actions {
            let mut child = game.clone();
            child.apply(action).expect("a listed action is legal");
            let value = self.value(&child, depth - 1, ply + 1, alpha, beta);
            let better = if maximising {
                value > best
            } else {
                value < best
            };
            if better {
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

    fn remember_killer(&mut self, ply: usize, action: &G::Action) {
        if let Some(slot) = self.killers.get_mut(ply) {
            if slot[0].as_ref() != Some(action) {
                slot[1] = slot[0].take();
                slot[0] = Some(action.clone());
            }
        }
    }
}
