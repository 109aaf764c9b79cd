//! Walking the action tree of any variant: perft over actions, and random playouts.

use crate::game::{draw_index, Game};
use crate::seat::Actor;
use rand::{Rng, RngCore};

/// Plays random setups (drawn from `rng`) while one is due, so that counting starts after them.
pub fn fix_setups<G: Game>(game: &mut G, rng: &mut dyn RngCore) {
    while game.setup_due() {
        let setup = game
            .random_setup(rng)
            .expect("a variant with a setup draws random ones");
        game.apply(&setup).expect("a random setup is legal");
    }
}

/// The number of action sequences of length `depth` (Chance's outcomes and `pass` count as
/// actions; games that end sooner add nothing).
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = match game.to_act() {
        None => return 0,
        Some(Actor::Chance) => game.chance_outcomes().into_iter().map(|(a, _)| a).collect(),
        Some(_) => game.legal_actions(),
    };
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|action| {
            let mut child = game.clone();
            child.apply(action).expect("a listed action is legal");
            perft(&child, depth - 1)
        })
        .sum()
}

/// Chance's outcome drawn by its probabilities.
pub fn roll<G: Game>(game: &G, rng: &mut dyn RngCore) -> Option<G::Action> {
    let outcomes = game.chance_outcomes();
    let mut pick: f64 = rng.random();
    for (action, p) in &outcomes {
        if pick < *p {
            return Some(action.clone());
        }
        pick -= p;
    }
    outcomes.last().map(|(a, _)| a.clone())
}

/// A legal action of the actor to act, drawn uniformly (a setup when one is due, Chance's
/// outcome by its probabilities).
pub fn random_action<G: Game>(game: &G, rng: &mut dyn RngCore) -> Option<G::Action> {
    match game.to_act()? {
        Actor::Chance => roll(game, rng),
        _ if game.setup_due() => game.random_setup(rng),
        _ => game.random_legal_action(rng, &mut Vec::new()),
    }
}

/// A legal action of `game` drawn uniformly from its list, written into `listed`: the draw every
/// variant's counted draw must match.
pub(crate) fn draw_listed<G: Game>(
    game: &G,
    rng: &mut dyn RngCore,
    listed: &mut Vec<G::Action>,
) -> Option<G::Action> {
    game.legal_actions_into(listed);
    draw_index(rng, listed.len()).map(|i| listed[i].clone())
}

/// Plays random actions until the game ends or `max_actions` have been played; returns how many
/// were played. Actions are drawn as [`random_action`] draws them; a list of legal actions, when
/// the variant needs one, is kept in one buffer for the whole playout. For speed, make the game
/// quiet first ([`Game::set_recording`]): then no event text is formatted.
pub fn random_playout<G: Game>(game: &mut G, rng: &mut dyn RngCore, max_actions: usize) -> usize {
    let mut listed = Vec::new();
    let mut played = 0;
    while played < max_actions {
        let action = match game.to_act() {
            None => None,
            Some(Actor::Chance) => roll(game, rng),
            Some(_) if game.setup_due() => game.random_setup(rng),
            Some(_) => game.random_legal_action(rng, &mut listed),
        };
        let Some(action) = action else {
            break;
        };
        game.apply_legal(&action);
        played += 1;
    }
    played
}

/// The count below each action of the actor to act (`depth` of at least 1; empty for 0).
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let actions = match game.to_act() {
        None => Vec::new(),
        Some(Actor::Chance) => game.chance_outcomes().into_iter().map(|(a, _)| a).collect(),
        Some(_) => game.legal_actions(),
    };
    actions
        .iter()
        .map(|action| {
            let mut child = game.clone();
            child.apply(action).expect("a listed action is legal");
            (action.to_string(), perft(&child, depth - 1))
        })
        .collect()
}
