//! Redrawing the sealed decision of a game consistent with a seat's view (see `belief.rs`): the
//! only thing a seat may not know is the opponent's sealed decision, which is always the last
//! action taken while it is sealed. It is drawn uniformly among the decisions that were open
//! (stay, or a transfer to any other own piece).

use super::actions::Action;
use super::state::AlterEgo;
use super::state::Phase;
use crate::game::Game;
use crate::seat::Seat;
use rand::{Rng, RngCore};

pub(super) fn redraw_sealed(game: &AlterEgo, seat: Seat, rng: &mut dyn RngCore) -> AlterEgo {
    let hidden = crate::board::Color::ALL
        .into_iter()
        .find(|&c| seat.color() != Some(c) && game.sealed[c.index()].is_some());
    // After the end everything is revealed: the truth is the only consistent state.
    let Some(color) = hidden.filter(|_| game.log.outcome.is_none()) else {
        return game.clone();
    };
    let mut sampled = undo_decision(game, color);
    let choices = sampled.legal_actions();
    let choice = choices[rng.random_range(0..choices.len())];
    sampled
        .apply(&choice)
        .expect("a decision listed as legal is accepted");
    sampled
}

/// The game as it was before `color`'s sealed decision (the last action) was taken.
fn undo_decision(game: &AlterEgo, color: crate::board::Color) -> AlterEgo {
    let mut before = game.clone();
    let index = before.sealed[color.index()]
        .take()
        .expect("a sealed decision");
    debug_assert_eq!(
        index + 1,
        game.log.actions.len(),
        "a sealed decision is the last action"
    );
    let decision = before.log.actions.pop().expect("the decision");
    debug_assert!(matches!(decision, Action::Stay | Action::Transfer(_)));
    before.log.events_mut().retain(|e| e.action != index);
    let turn_piece = game
        .history_last_move()
        .expect("a decision follows a move")
        .to;
    before.ego[color.index()] = Some(turn_piece);
    before.bound[color.index()] = None;
    before.phase = Phase::Decision { turn_piece };
    before
}
