//! One game between two bots under the arbiter: each bot gets exactly its seat's view.

use crate::bot::Bot;
use crate::decision::{Decision, DecisionError};
use bluffchess_rules::any::NewGameError;
use bluffchess_rules::arbiter::ArbiterError;
use bluffchess_rules::options::Options;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::Seat;
use bluffchess_rules::{AnyGame, Color, Record, SaltSource};
use std::time::{Duration, Instant};

/// How a game ended, as the arena counts it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended (the rules' reason, or the forfeit).
    pub reason: String,
    /// The record, every commitment opened.
    pub record: Record,
    /// The slowest answer of each side (White, Black).
    pub slowest: [Duration; 2],
}

/// Why a game could not be played to its end.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArenaError {
    /// The game could not be made (variant or options).
    #[error(transparent)]
    NewGame(#[from] NewGameError),
    /// The arbiter refused a roll or the forfeit.
    #[error(transparent)]
    Arbiter(#[from] ArbiterError),
    /// A player is to act but has nothing to do.
    #[error("the actor has no legal actions")]
    NoLegalActions,
    /// The seat's view and actions make no decision.
    #[error(transparent)]
    Decision(#[from] DecisionError),
}

/// Plays a game of `variant` from `seed` between `white` and `black`, each limited to
/// `movetime` a decision. A bot whose answer the arbiter refuses loses the game (it resigns on
/// its behalf), the refusal being the reason. After `max_actions` actions the game stops
/// unfinished.
pub fn play(
    variant: &str,
    options: &Options,
    seed: u64,
    white: &mut dyn Bot,
    black: &mut dyn Bot,
    movetime: Option<Duration>,
    max_actions: usize,
) -> Result<Played, ArenaError> {
    let mut game = AnyGame::new(variant, options, seed, SaltSource::Seeded(seed))?;
    let mut slowest = [Duration::ZERO; 2];
    let mut forfeit = None;
    let mut actions = 0;
    while let Some(actor) = game.to_act().filter(|_| actions < max_actions) {
        actions += 1;
        let Some(color) = actor.color() else {
            game.roll()?;
            continue;
        };
        let legal = game.legal_described().ok_or(ArenaError::NoLegalActions)?;
        let decision = Decision::new(
            game.typed_view(Seat::from(color)),
            legal.actions,
            legal.setup,
        )?
        .described(legal.legal_actions.unwrap_or_default())?;
        let bot: &mut dyn Bot = match color {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let start = Instant::now();
        let answer = bot.act(&decision, movetime);
        let took = start.elapsed();
        slowest[color.index()] = slowest[color.index()].max(took);
        let refused = match answer.failure {
            Some(reason) => Some(reason),
            None => game.play(&answer.action).err().map(|e| e.to_string()),
        };
        if let Some(reason) = refused {
            forfeit = Some(format!("{color} forfeits: {reason}"));
            game.meta(color, MetaKind::Resign)?;
            break;
        }
    }
    let outcome = game.outcome();
    Ok(Played {
        winner: outcome.and_then(|o| o.winner),
        reason: forfeit.unwrap_or_else(|| {
            outcome.map_or("unfinished".into(), |o| o.reason.text().to_string())
        }),
        record: game.record(),
        slowest,
    })
}
