//! Server bots: they decide from their seat's view and legal actions, nothing else. The
//! built-in ones are the `bluffchess-ai` bots, named with their parameters (`bot:ismcts:ms=200`).

use bluffchess_ai::{BotSpec, BuiltIn, Decision, Kind};
use rand::seq::IndexedRandom;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// What the bot's seat may do now (as the server's messages give it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegalActions {
    /// The legal actions in canonical text (when `setup` is set, the setup shortcuts).
    pub actions: Vec<String>,
    /// A setup is due: any valid `setup ...` text is accepted besides the shortcuts.
    pub setup: bool,
}

/// A bot: given its seat's view (JSON, exactly as a seat's messages carry it) and its legal
/// actions, it answers an action's text. It runs on a blocking thread under a time limit; an
/// answer that is late or illegal is replaced by a random legal action.
pub trait Bot: Send + Sync + 'static {
    /// Picks an action.
    fn act(&self, view: &Value, legal: &LegalActions) -> String;
}

/// Plays a random legal action (a random setup when one is due).
pub struct RandomBot;

impl Bot for RandomBot {
    fn act(&self, _view: &Value, legal: &LegalActions) -> String {
        random_choice(legal)
    }
}

/// A random legal action: `setup random` when a setup is due and it is offered.
pub fn random_choice(legal: &LegalActions) -> String {
    if legal.setup && legal.actions.iter().any(|a| a == "setup random") {
        return "setup random".to_string();
    }
    legal
        .actions
        .choose(&mut rand::rng())
        .cloned()
        .unwrap_or_default()
}

/// A `bluffchess-ai` bot. Each decision starts a fresh bot, seeded anew unless the name gives a
/// seed, so that games on the server share nothing.
pub struct AiBot(BotSpec);

impl Bot for AiBot {
    fn act(&self, view: &Value, legal: &LegalActions) -> String {
        let Ok(decision) = Decision::from_json(view, legal.actions.clone(), legal.setup) else {
            return random_choice(legal);
        };
        let mut spec = self.0.clone();
        if spec.seed == 0 {
            spec.seed = rand::random();
        }
        bluffchess_ai::Bot::act(&mut BuiltIn::new(spec), &decision, None).action
    }
}

/// The bots the server offers, by name (`bot:NAME` in a new game's `opponent`); a name with
/// parameters (`ismcts:ms=200`) is read by [`find`].
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
    bots
}

/// The bot `name` among `bots`, or a built-in AI bot named with parameters when its bare name is
/// among them; else why not, naming the bots there are.
pub fn find(bots: &HashMap<String, Arc<dyn Bot>>, name: &str) -> Result<Arc<dyn Bot>, String> {
    if let Some(bot) = bots.get(name) {
        return Ok(bot.clone());
    }
    let bare = name.split([':', ',']).next().unwrap_or_default();
    if bots.contains_key(bare) && BotSpec::parse(bare).is_ok() {
        let spec = BotSpec::parse(name).map_err(|e| e.to_string())?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_random_bot_picks_a_listed_action_or_a_random_setup() {
        let legal = LegalActions {
            actions: vec!["e2e4".into(), "d2d4".into()],
            setup: false,
        };
        for _ in 0..20 {
            assert!(legal.actions.contains(&RandomBot.act(&Value::Null, &legal)));
        }
        let setup = LegalActions {
            actions: vec!["setup standard".into(), "setup random".into()],
            setup: true,
        };
        assert_eq!(RandomBot.act(&Value::Null, &setup), "setup random");
    }

    #[test]
    fn built_in_names_take_parameters_and_bad_ones_are_named() {
        let bots = builtin();
        assert!(find(&bots, "ismcts:ms=200").is_ok());
        assert!(find(&bots, "greedy").is_ok());
        let err = find(&bots, "ismcts:speed=9").err().unwrap();
        assert!(err.contains("has no parameter \"speed\""), "{err}");
        let err = find(&bots, "stockfish").err().unwrap();
        assert!(
            err.starts_with("unknown bot \"stockfish\": the bots are bot:alphabeta"),
            "{err}"
        );
    }

    #[test]
    fn an_ai_bot_answers_a_legal_action_from_a_view() {
        use bluffchess_rules::{AnyGame, SaltSource, Seat};
        let game = AnyGame::new("chess", &Default::default(), 1, SaltSource::Seeded(1)).unwrap();
        let legal = game.legal().unwrap();
        let legal = LegalActions {
            actions: legal.actions,
            setup: legal.setup,
        };
        let bot = find(&builtin(), "greedy").unwrap();
        assert!(legal
            .actions
            .contains(&bot.act(&game.view(Seat::White), &legal)));
    }
}
