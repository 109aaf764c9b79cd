//! One ply on the evaluation: each legal action is played in every sampled world and the
//! action with the best average reward is chosen (a win it can see scores 1 in every world).

use crate::sim::{parse_all, reward, SearchError};
use crate::variant::Variant;
use crate::worlds::{FromBelief, Worlds};
use bluffchess_rules::view::View;
use rand::{Rng, RngCore};

/// The best action of `legal` one ply deep over `samples` worlds.
pub fn choose<G: Variant>(
    view: &View<G::Summary>,
    legal: &[String],
    samples: usize,
    rng: &mut dyn RngCore,
) -> Result<String, SearchError> {
    let worlds = FromBelief::<G::Belief>::from_view(view)?;
    let color = view.seat.color().ok_or(SearchError::Spectator)?;
    let pool: Vec<G> = (0..samples.max(1))
        .map(|_| worlds.sample_quiet(rng))
        .collect();
    let actions = parse_all(&pool[0], legal);
    let mut best: Option<(f64, &G::Action)> = None;
    for action in &actions {
        let mut total = 0.0;
        for world in &pool {
            let mut next = world.clone();
            if next.apply(action).is_ok() {
                total += reward(&next, color);
            }
        }
        // A tiny random tie-break keeps equal actions from always going the same way.
        let score = total / pool.len() as f64 + rng.random::<f64>() * 1e-9;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, action));
        }
    }
    best.map(|(_, a)| a.to_string())
        .ok_or(SearchError::Unreadable)
}
