//! Server bots: they decide from their seat's typed view and legal actions, nothing else. The
//! built-in ones are the `bluffchess-ai` bots, named with their parameters (`bot:ismcts:ms=200`).
//!
//! Nothing a client sends fixes a bot's random choices: the server refuses a `seed` parameter
//! and seeds every decision from a secret of its own, drawn for each game. Every budget a client
//! may name is capped, and every search ends when the server no longer wants its answer.

use bluffchess_ai::{BotSpec, BuiltIn, Decision, Kind, Stop};
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

/// The most ISMCTS iterations (alpha-beta nodes) a client may give a server bot.
pub const MAX_ITERATIONS: u64 = 100_000;
/// The most worlds a client may have a server bot sample.
pub const MAX_SAMPLES: usize = 64;
/// The deepest search (alpha-beta plies, ISMCTS random plies) a client may ask of a server bot.
pub const MAX_DEPTH: u32 = 64;

/// One decision of a server bot.
pub struct Turn<'a> {
    /// The seat's view and legal actions.
    pub decision: &'a Decision,
    /// The seed of the bot's random choices for this decision: the server's secret, never a
    /// client's.
    pub seed: u64,
    /// How long it may think.
    pub limit: Duration,
    /// Raised when the answer is no longer wanted (too late, the game over, the server
    /// stopping): a search checks it and ends.
    pub stop: &'a Stop,
}

/// A bot: given its seat's decision, it answers an action's text. It runs on a blocking thread
/// under a time limit; an answer that is late or illegal is replaced by a random legal action.
pub trait Bot: Send + Sync + 'static {
    /// Picks an action.
    fn act(&self, turn: &Turn) -> String;
}

/// Plays a random legal action (a random setup when one is due).
pub struct RandomBot;

impl Bot for RandomBot {
    fn act(&self, turn: &Turn) -> String {
        random_choice(turn.decision, turn.seed)
    }
}

/// A random legal action drawn with `seed`: `setup random` when a setup is due and it is offered.
pub fn random_choice(decision: &Decision, seed: u64) -> String {
    bluffchess_ai::bot::random(decision, &mut rand::rngs::StdRng::seed_from_u64(seed))
}

/// A random legal action of `legal` (a random setup when one is due), from the thread's
/// generator: the fallback when a bot fails.
pub fn fallback(legal: &[String], setup: bool) -> String {
    if setup && legal.iter().any(|a| a == "setup random") {
        return "setup random".to_string();
    }
    legal.choose(&mut rand::rng()).cloned().unwrap_or_default()
}

/// A `bluffchess-ai` bot. Each decision starts a fresh bot seeded by the server's secret.
pub struct AiBot(BotSpec);

impl Bot for AiBot {
    fn act(&self, turn: &Turn) -> String {
        let spec = BotSpec {
            seed: turn.seed,
            ..self.0.clone()
        };
        let mut bot = BuiltIn::new(spec).with_stop(turn.stop.clone());
        bluffchess_ai::Bot::act(&mut bot, turn.decision, Some(turn.limit)).action
    }
}

/// The bots the server offers, by name (`bot:NAME` in a new game's `opponent`): each kind of
/// built-in bot and each level, every one with an account of its own; a name with parameters
/// (`ismcts:ms=200`) is read by [`find`] and plays casual games only.
pub fn builtin() -> HashMap<String, Arc<dyn Bot>> {
    let mut bots: HashMap<String, Arc<dyn Bot>> = HashMap::new();
    for kind in [
        Kind::Random,
        Kind::Greedy,
        Kind::AlphaBeta,
        Kind::Ismcts,
        Kind::Default,
    ] {
        bots.insert(kind.name().to_string(), Arc::new(AiBot(BotSpec::new(kind))));
    }
    for level in LEVELS {
        let spec = BotSpec::parse(level.spec).expect("a level's bot is a built-in bot");
        bots.insert(level.name.to_string(), Arc::new(AiBot(spec)));
    }
    bots
}

/// One level the browser offers: a built-in bot with its parameters under a name of its own,
/// so that it has its own account and rating.
pub struct Level {
    /// Its name: `bot:NAME` in a game's `opponent`, and its account's name.
    pub name: &'static str,
    /// The built-in bot it is, with its parameters.
    pub spec: &'static str,
    /// What it is, for people.
    pub about: &'static str,
}

/// The levels the browser offers, weakest first (`GET /api/bots`), named `Level N` by the board.
/// A level's name is reserved for its account (names.rs reserves every `default-...`).
pub const LEVELS: &[Level] = &[
    Level {
        name: "random",
        spec: "random",
        about: "random legal moves: for learning the rules",
    },
    Level {
        name: "greedy",
        spec: "greedy",
        about: "one move ahead: takes what it can over a few guesses at what is hidden",
    },
    Level {
        name: "default-50ms",
        spec: "default:ms=50",
        about: "the search bot at 0.05 s a move",
    },
    Level {
        name: "default",
        spec: "default",
        about: "the search bot (alpha-beta; information-set MCTS at the bluffs) at 0.2 s a move",
    },
    Level {
        name: "default-1s",
        spec: "default:ms=1000",
        about: "the search bot at 1 s a move",
    },
    Level {
        name: "default-2s",
        spec: "default:ms=2000",
        about: "the search bot at 2 s a move, the most this server gives",
    },
];

/// The levels as the API gives them, each with its account's ratings (`ratings`, by level name).
pub fn levels(
    mut ratings: HashMap<&str, std::collections::BTreeMap<String, crate::wire::Rating>>,
) -> crate::wire::BotLevels {
    let bots = LEVELS
        .iter()
        .zip(1..)
        .map(|(level, number)| crate::wire::BotLevel {
            level: number,
            opponent: format!("bot:{}", level.name),
            name: format!("Level {number}"),
            about: level.about.to_string(),
            ratings: ratings.remove(level.name).unwrap_or_default(),
        })
        .collect();
    crate::wire::BotLevels { bots }
}

/// The bot `name` among `bots`, or a built-in AI bot named with parameters when its bare name is
/// among them, its budgets within the server's caps (`max_ms`: its time per decision); else why
/// not, naming the bots there are or the cap exceeded.
pub fn find(
    bots: &HashMap<String, Arc<dyn Bot>>,
    name: &str,
    max_ms: u64,
) -> Result<Arc<dyn Bot>, String> {
    if let Some(bot) = bots.get(name) {
        return Ok(bot.clone());
    }
    let bare = name.split([':', ',']).next().unwrap_or_default();
    if bots.contains_key(bare) && BotSpec::parse(bare).is_ok() {
        let spec = BotSpec::parse(name).map_err(|e| e.to_string())?;
        within_caps(name, &spec, max_ms)?;
        return Ok(Arc::new(AiBot(spec)));
    }
    let mut names: Vec<&str> = bots.keys().map(String::as_str).collect();
    names.sort_unstable();
    Err(format!(
        "unknown bot {:?}: the bots are {}",
        name.chars().take(40).collect::<String>(),
        names
            .iter()
            .map(|n| format!("bot:{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Refuses a seed (the server's bots draw their own, secretly) and budgets over the caps.
fn within_caps(name: &str, spec: &BotSpec, max_ms: u64) -> Result<(), String> {
    let seeded = name
        .split([':', ','])
        .skip(1)
        .any(|part| part.split('=').next() == Some("seed"));
    if seeded {
        return Err(
            "the server's bots take no seed: their random choices stay the server's secret"
                .to_string(),
        );
    }
    let over = |parameter: &str, cap: u64| {
        Err(format!(
            "bot parameter {parameter} may be at most {cap} on this server"
        ))
    };
    match spec {
        BotSpec { ms: Some(ms), .. } if *ms > max_ms => over("ms", max_ms),
        BotSpec {
            iterations: Some(n),
            ..
        } if *n > MAX_ITERATIONS => over("iterations", MAX_ITERATIONS),
        BotSpec {
            samples: Some(n), ..
        } if *n > MAX_SAMPLES => over("samples", MAX_SAMPLES as u64),
        BotSpec { depth: Some(n), .. } if *n > MAX_DEPTH => over("depth", u64::from(MAX_DEPTH)),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bluffchess_rules::{AnyGame, SaltSource, Seat};

    fn decision(variant: &str) -> Decision {
        let game = AnyGame::new(variant, &Default::default(), 1, SaltSource::Seeded(1)).unwrap();
        let legal = game.legal().unwrap();
        Decision::new(game.typed_view(Seat::White), legal.actions, legal.setup).unwrap()
    }

    fn turn<'a>(decision: &'a Decision, stop: &'a Stop) -> Turn<'a> {
        Turn {
            decision,
            seed: 7,
            limit: Duration::from_millis(100),
            stop,
        }
    }

    #[test]
    fn the_random_bot_picks_a_listed_action_or_a_random_setup() {
        let stop = Stop::new();
        let chess = decision("chess");
        for _ in 0..20 {
            assert!(chess.legal().contains(&RandomBot.act(&turn(&chess, &stop))));
        }
        let bs = decision("bs");
        assert!(bs.setup());
        assert_eq!(RandomBot.act(&turn(&bs, &stop)), "setup random");
        assert_eq!(fallback(bs.legal(), true), "setup random");
        assert!(chess.legal().contains(&fallback(chess.legal(), false)));
    }

    #[test]
    fn built_in_names_take_parameters_and_bad_ones_are_named() {
        let bots = builtin();
        assert!(find(&bots, "ismcts:ms=200", 2000).is_ok());
        assert!(find(&bots, "greedy", 2000).is_ok());
        let err = find(&bots, "ismcts:speed=9", 2000).err().unwrap();
        assert!(err.contains("has no parameter \"speed\""), "{err}");
        let err = find(&bots, "stockfish", 2000).err().unwrap();
        assert!(
            err.starts_with("unknown bot \"stockfish\": the bots are bot:alphabeta"),
            "{err}"
        );
    }

    #[test]
    fn a_seed_and_budgets_over_the_caps_are_refused() {
        let bots = builtin();
        let err = |name: &str| find(&bots, name, 2000).err().unwrap();
        for name in [
            "greedy:seed=5",
            "random:seed=0",
            "ismcts:iterations=200,seed=3",
        ] {
            assert_eq!(
                err(name),
                "the server's bots take no seed: their random choices stay the server's secret"
            );
        }
        assert_eq!(
            err("ismcts:iterations=18446744073709551615"),
            "bot parameter iterations may be at most 100000 on this server"
        );
        assert_eq!(
            err("default:ms=2001"),
            "bot parameter ms may be at most 2000 on this server"
        );
        assert_eq!(
            err("greedy:samples=65"),
            "bot parameter samples may be at most 64 on this server"
        );
        assert!(find(&bots, "ismcts:iterations=100000,samples=64,ms=2000", 2000).is_ok());
    }

    #[test]
    fn an_ai_bot_answers_a_legal_action() {
        let bot = find(&builtin(), "greedy", 2000).unwrap();
        let chess = decision("chess");
        let stop = Stop::new();
        assert!(chess.legal().contains(&bot.act(&turn(&chess, &stop))));
    }
}
