//! Information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012), in the
//! multiple-observer form: every node is one player's information set, keyed by the hash of
//! everything that player has seen ([`Game::info_key`](bluffchess_rules::game::Game::info_key)), so each player chooses in its own tree
//! from what it knows and the opponent's hidden moves stay apart where the searching seat cannot
//! tell them apart.
//!
//! Each iteration takes a world from a pool sampled once from the belief (reused across
//! iterations), walks down choosing by UCB over the actions legal in that world (availability
//! counts: an action's exploration term counts the visits when it was available, not the
//! parent's), adds one node, and scores the world there with the variant's evaluation (a cut-off
//! instead of a playout to the end; `depth` random plies first, when asked). The evaluation of
//! an action's first visit biases its later choice, fading with its visits (progressive bias).
//! The table outlives a decision: the next one finds the nodes it already grew (tree reuse).
//!
//! The move: the most visited action, except at a bluff decision ([`Variant::mixed`]), where the
//! near-best actions are mixed in proportion to their positive regret against a tolerance below
//! the best value (regret matching), so that no tell gives the choice away.

use crate::budget::Budget;
use crate::sim::{parse_all, reward, settle, SearchError};
use crate::variant::Variant;
use crate::worlds::{FromBelief, Worlds};
use bluffchess_rules::playout::random_action;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::view::View;
use bluffchess_rules::Color;
use rand::seq::IndexedRandom;
use rand::{Rng, RngCore};
use std::collections::HashMap;
use std::time::Instant;

/// The exploration constant of UCB.
const EXPLORATION: f64 = 0.35;
/// The weight of progressive bias.
const BIAS: f64 = 1.0;
/// Rewards within this of the best count as near-equal at a bluff decision.
const TOLERANCE: f64 = 0.02;
/// A table with more nodes than this starts again empty.
const MAX_NODES: usize = 1 << 20;

/// The search's settings.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Worlds sampled from the belief per decision.
    pub samples: usize,
    /// Random plies after the tree before the evaluation.
    pub depth: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            samples: 32,
            depth: 0,
        }
    }
}

/// One action's statistics in one information set.
#[derive(Clone, Debug)]
struct Edge<A> {
    action: A,
    visits: u32,
    /// The sum of rewards, for the player choosing.
    reward: f64,
    /// How many times it was available when the node was visited.
    available: u32,
    /// The reward of its first visit: the progressive bias.
    bias: f64,
}

impl<A> Edge<A> {
    fn mean(&self) -> f64 {
        self.reward / f64::from(self.visits.max(1))
    }
}

/// The search tree of one game: information sets by (player, key).
#[derive(Clone, Debug)]
pub struct Tree<A> {
    nodes: HashMap<(Color, u64), Vec<Edge<A>>>,
    /// The seat and the event count of the last decision, to start again on a new game.
    last: Option<(Seat, usize)>,
}

impl<A> Default for Tree<A> {
    fn default() -> Tree<A> {
        Tree {
            nodes: HashMap::new(),
            last: None,
        }
    }
}

impl<A> Tree<A> {
    /// The number of information sets in the table.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether it has none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Keeps the table when `view` continues the game of the last decision; else empties it.
    fn follow(&mut self, seat: Seat, events: usize) {
        let continues = self
            .last
            .is_some_and(|(s, n)| s == seat && n <= events && self.nodes.len() < MAX_NODES);
        if !continues {
            self.nodes.clear();
        }
        self.last = Some((seat, events));
    }
}

/// What a search found: the action chosen and the statistics behind it.
#[derive(Clone, Debug)]
pub struct Found {
    /// The action's text.
    pub action: String,
    /// Iterations run.
    pub iterations: u64,
    /// Each root action's text, visits and mean reward.
    pub root: Vec<(String, u32, f64)>,
}

/// Searches from the seat's view and picks one of `legal`.
pub fn search<G: Variant>(
    view: &View<G::Summary>,
    legal: &[String],
    tree: &mut Tree<G::Action>,
    settings: Settings,
    budget: Budget,
    rng: &mut dyn RngCore,
) -> Result<Found, SearchError> {
    let start = Instant::now();
    let worlds = FromBelief::<G::Belief>::from_view(view)?;
    let color = view.seat.color().ok_or(SearchError::Spectator)?;
    let mut pool = Vec::with_capacity(settings.samples);
    while pool.len() < settings.samples.max(1) {
        pool.push(worlds.sample_quiet(rng));
        // Sampling may be slow: keep most of the time for the search.
        if budget.share_spent(start, 0.3) {
            break;
        }
    }
    let root_actions = parse_all(&pool[0], legal);
    if root_actions.is_empty() {
        return Err(SearchError::Unreadable);
    }
    tree.follow(view.seat, view.events.len());
    let root_key = (color, pool[0].info_key(view.seat));
    let mut iterations = 0;
    let mut buffer = Vec::new();
    // The last quarter of the time is kept for the worst-case check and the answer.
    let done = |n: u64| budget.spent(n) || budget.share_spent(start, SEARCH_SHARE);
    while iterations == 0 || !(iterations % 16 == 0 && done(iterations)) {
        if budget.iterations.is_some_and(|n| iterations >= n) {
            break;
        }
        let mut world = pool[iterations as usize % pool.len()].clone();
        iterate(&mut world, tree, settings, &mut buffer, rng);
        iterations += 1;
    }
    let edges = tree.nodes.get(&root_key).map_or(&[][..], Vec::as_slice);
    let root: Vec<&Edge<G::Action>> = edges
        .iter()
        .filter(|e| root_actions.contains(&e.action))
        .collect();
    let chosen = match G::mixed(&root_actions) {
        true => choose::<G>(&root, &root_actions, rng, |e| guard_value(e, &pool, color)),
        false => guarded(&root, &pool, color),
    }
    .unwrap_or_else(|| root_actions[0].clone());
    Ok(Found {
        action: chosen.to_string(),
        iterations,
        root: root
            .iter()
            .map(|e| (e.action.to_string(), e.visits, e.mean()))
            .collect(),
    })
}

/// The share of the time the iterations may take.
const SEARCH_SHARE: f64 = 0.75;

/// Root actions checked against the opponent's best reply.
const GUARDED: usize = 5;
/// Worlds each is checked in.
const GUARD_WORLDS: usize = 4;
/// The weight of the worst case (StrangeFish2 scores 70% mean, 30% worst case).
const WORST_CASE: f64 = 0.3;

/// Among the most visited root actions, the best by 70% of the search's mean and 30% of the
/// worst case: the reward after the opponent's best immediate reply in a few pooled worlds,
/// the opponent seeing the world whole. It guards against the search's blind spot, an opponent
/// reply that is good only against one hidden choice of ours and so rarely explored.
fn guarded<G: Variant>(root: &[&Edge<G::Action>], pool: &[G], color: Color) -> Option<G::Action> {
    let mut ranked: Vec<&&Edge<G::Action>> = root.iter().collect();
    ranked.sort_by_key(|e| std::cmp::Reverse(e.visits));
    ranked.truncate(GUARDED);
    ranked
        .into_iter()
        .map(|e| (guard_value(e, pool, color), e))
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e)| e.action.clone())
}

/// 70% of an edge's mean and 30% of its worst case over a few pooled worlds.
fn guard_value<G: Variant>(edge: &Edge<G::Action>, pool: &[G], color: Color) -> f64 {
    let worst: Vec<f64> = pool
        .iter()
        .take(GUARD_WORLDS)
        .filter_map(|world| worst_reply(world, &edge.action, color))
        .collect();
    match worst.len() {
        0 => edge.mean(),
        n => (1.0 - WORST_CASE) * edge.mean() + WORST_CASE * worst.iter().sum::<f64>() / n as f64,
    }
}

/// The reward for `color` after `action` and the opponent's best reply in `world`, when the
/// opponent acts next.
fn worst_reply<G: Variant>(world: &G, action: &G::Action, color: Color) -> Option<f64> {
    let mut after = world.clone();
    after.apply(action).ok()?;
    if after.outcome().is_some() {
        return Some(reward(&after, color));
    }
    if after.to_act()?.color()? == color || after.setup_due() {
        return None;
    }
    after
        .legal_actions()
        .iter()
        .filter_map(|reply| {
            let mut next = after.clone();
            next.apply(reply).ok()?;
            Some(reward(&next, color))
        })
        .min_by(f64::total_cmp)
}

/// The most visited root action, or at a bluff decision a regret-matching mix by `value`.
fn choose<G: Variant>(
    root: &[&Edge<G::Action>],
    legal: &[G::Action],
    rng: &mut dyn RngCore,
    value: impl Fn(&Edge<G::Action>) -> f64,
) -> Option<G::Action> {
    let most = root.iter().max_by_key(|e| e.visits)?;
    if !G::mixed(legal) {
        return Some(most.action.clone());
    }
    // Only actions searched enough to trust their value take part.
    let trusted: Vec<_> = root
        .iter()
        .filter(|e| e.visits * 8 >= most.visits)
        .collect();
    let values: Vec<f64> = trusted.iter().map(|e| value(e)).collect();
    let best = values.iter().copied().fold(f64::MIN, f64::max);
    let regrets: Vec<f64> = values
        .iter()
        .map(|v| (v - (best - TOLERANCE)).max(0.0))
        .collect();
    let total: f64 = regrets.iter().sum();
    let mut pick = rng.random::<f64>() * total;
    for (edge, regret) in trusted.iter().zip(&regrets) {
        if pick < *regret {
            return Some(edge.action.clone());
        }
        pick -= regret;
    }
    Some(most.action.clone())
}

/// One iteration on `world`: select and expand in the table, cut off, score, back up.
fn iterate<G: Variant>(
    world: &mut G,
    tree: &mut Tree<G::Action>,
    settings: Settings,
    buffer: &mut Vec<G::Action>,
    rng: &mut dyn RngCore,
) {
    let mut path: Vec<((Color, u64), usize)> = Vec::with_capacity(16);
    let mut first_visits = Vec::new();
    let mut last = None;
    while let Some(player) = settle(world, rng) {
        last = Some(player);
        world.legal_actions_into(buffer);
        if buffer.is_empty() {
            break;
        }
        let key = (player, world.info_key(Seat::from(player)));
        let grown = !tree.nodes.contains_key(&key);
        let edges = tree.nodes.entry(key).or_default();
        let index = select(edges, buffer, rng);
        if edges[index].visits == 0 {
            first_visits.push(path.len());
        }
        world
            .apply(&edges[index].action)
            .expect("an action legal in the world is accepted");
        path.push((key, index));
        if grown || edges[index].visits == 0 {
            break;
        }
    }
    for _ in 0..settings.depth {
        last = world.to_act().and_then(|actor| actor.color());
        let Some(action) = random_action(world, rng) else {
            break;
        };
        world
            .apply(&action)
            .expect("a random legal action is accepted");
    }
    if let Some(player) = last {
        finish_turn(world, player, buffer);
    }
    let white = reward(world, Color::White);
    for (step, (key, index)) in path.iter().enumerate() {
        let value = if key.0 == Color::White {
            white
        } else {
            1.0 - white
        };
        let edge = &mut tree.nodes.get_mut(key).expect("visited nodes stay")[*index];
        edge.visits += 1;
        edge.reward += value;
        if first_visits.contains(&step) {
            edge.bias = value;
        }
    }
}

/// Completes a turn `player` left half done (a stay or transfer after a death move, a flip after
/// a move) with the choice the evaluation likes best: judged mid-way, a capture into danger
/// looks as if the piece stayed there, and the opponent's search would shun good captures.
fn finish_turn<G: Variant>(world: &mut G, player: Color, buffer: &mut Vec<G::Action>) {
    while world.to_act().and_then(|actor| actor.color()) == Some(player) && !world.setup_due() {
        world.legal_actions_into(buffer);
        let best = buffer
            .iter()
            .filter_map(|action| {
                let mut next = world.clone();
                next.apply(action).ok()?;
                Some((reward(&next, player), next))
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, next)) = best else {
            return;
        };
        *world = next;
    }
}

/// The edge to follow among the actions legal in this world (`legal`), counting each as
/// available: an untried one first (in random order), else the best by UCB with progressive
/// bias.
fn select<A: Clone + PartialEq>(
    edges: &mut Vec<Edge<A>>,
    legal: &[A],
    rng: &mut dyn RngCore,
) -> usize {
    let mut available = Vec::with_capacity(legal.len());
    for (i, action) in legal.iter().enumerate() {
        // Worlds of one information set list the same actions, mostly in the same order.
        let index = match edges.get(i).filter(|e| &e.action == action) {
            Some(_) => i,
            None => match edges.iter().position(|e| &e.action == action) {
                Some(found) => found,
                None => {
                    edges.push(Edge {
                        action: action.clone(),
                        visits: 0,
                        reward: 0.0,
                        available: 0,
                        bias: 0.5,
                    });
                    edges.len() - 1
                }
            },
        };
        edges[index].available += 1;
        available.push(index);
    }
    let untried: Vec<usize> = available
        .iter()
        .copied()
        .filter(|&i| edges[i].visits == 0)
        .collect();
    if let Some(&index) = untried.choose(rng) {
        return index;
    }
    let score = |e: &Edge<A>| {
        let n = f64::from(e.visits);
        e.mean()
            + EXPLORATION * (f64::from(e.available).ln() / n).sqrt()
            + BIAS * e.bias / (n + 1.0)
    };
    available
        .into_iter()
        .max_by(|&a, &b| score(&edges[a]).total_cmp(&score(&edges[b])))
        .expect("a world with legal actions gives some")
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::game::Game;
    use bluffchess_rules::options::Options;
    use bluffchess_rules::variants::alter_ego::AlterEgo;
    use bluffchess_rules::variants::bs::Bs;
    use rand::SeedableRng;

    fn edge<A>(action: A, visits: u32, mean: f64) -> Edge<A> {
        Edge {
            action,
            visits,
            reward: mean * f64::from(visits),
            available: visits,
            bias: mean,
        }
    }

    /// How often each of two near-equal options is chosen over 400 seeds.
    fn shares<G: Variant>(game: &G, options: [&str; 2], means: [f64; 2]) -> [usize; 2] {
        let actions = options.map(|t| game.parse_action(t).unwrap());
        let edges = [
            edge(actions[0].clone(), 500, means[0]),
            edge(actions[1].clone(), 480, means[1]),
        ];
        let root: Vec<&Edge<G::Action>> = edges.iter().collect();
        let mut counts = [0; 2];
        for seed in 0..400 {
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            let chosen = choose::<G>(&root, &actions, &mut rng, Edge::mean).unwrap();
            counts[usize::from(chosen == actions[1])] += 1;
        }
        counts
    }

    #[test]
    fn near_equal_bluff_decisions_are_mixed_and_clear_ones_are_not() {
        let mut ego = AlterEgo::new(&Options::new()).unwrap();
        for text in ["e2e4", "d7d5"] {
            ego.apply_text(text).unwrap();
        }
        let [stay, transfer] = shares(&ego, ["stay", "transfer d8"], [0.52, 0.51]);
        assert!(stay >= 100 && transfer >= 100, "{stay} {transfer}");
        let [stay, _] = shares(&ego, ["stay", "transfer d8"], [0.2, 0.6]);
        assert_eq!(stay, 0);

        let mut bs = Bs::new(&Options::new()).unwrap();
        for text in ["setup standard", "setup standard", "e2e4"] {
            bs.apply_text(text).unwrap();
        }
        let [call, accept] = shares(&bs, ["call", "accept"], [0.49, 0.50]);
        assert!(call >= 100 && accept >= 100, "{call} {accept}");
    }

    #[test]
    fn an_ordinary_move_is_the_most_visited() {
        let chess = bluffchess_rules::Chess::new(&Options::new()).unwrap();
        let [first, second] = shares(&chess, ["e2e4", "d2d4"], [0.52, 0.51]);
        assert_eq!((first, second), (400, 0));
    }
}
