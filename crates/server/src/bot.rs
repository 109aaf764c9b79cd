//! Server bots: they decide from their seat's view and legal actions, nothing else.

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

/// The bots the server offers, by name (`bot:NAME` in a new game's `opponent`).
pub fn builtin() -> HashMap<String, Arc<dyn Bot>> {
    let mut bots: HashMap<String, Arc<dyn Bot>> = HashMap::new();
    bots.insert("random".to_string(), Arc::new(RandomBot));
    bots
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
}
