//! What a bot is given: one seat's view, its legal actions and the setup flag. Nothing else.

use bluffchess_rules::{AnyView, Seat};
use serde_json::Value;

/// One decision of one seat. It is built from a view, typed or JSON, exactly as the arbiter or
/// the server gives it (`AnyGame::typed_view(seat)`, `Game::view(seat)`): there is no way to make
/// one from a game, so a bot cannot be handed the truth.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    view: AnyView,
    legal: Vec<String>,
    setup: bool,
}

/// Why a decision cannot be made from what was given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecisionError {
    /// The view could not be read.
    #[error("{0}")]
    View(String),
    /// The view is a spectator's: spectators do not act.
    #[error("the view is a spectator's: only a player's seat decides")]
    Spectator,
    /// Nothing to choose from.
    #[error("no legal actions were given")]
    NoActions,
}

impl DecisionError {
    /// A stable machine id for the kind of refusal: `bad-view`, `spectator` or `no-actions`.
    pub fn id(&self) -> &'static str {
        match self {
            DecisionError::View(_) => "bad-view",
            DecisionError::Spectator => "spectator",
            DecisionError::NoActions => "no-actions",
        }
    }
}

impl Decision {
    /// A decision from a seat's typed view and what that seat may do now.
    pub fn new(view: AnyView, legal: Vec<String>, setup: bool) -> Result<Decision, DecisionError> {
        if view.seat() == Seat::Spectator {
            return Err(DecisionError::Spectator);
        }
        if legal.is_empty() {
            return Err(DecisionError::NoActions);
        }
        Ok(Decision { view, legal, setup })
    }

    /// A decision from a seat's view as JSON (the engine protocol's and the server's form).
    pub fn from_json(
        view: &Value,
        legal: Vec<String>,
        setup: bool,
    ) -> Result<Decision, DecisionError> {
        let view = AnyView::from_json(&view.to_string())
            .map_err(|e| DecisionError::View(e.to_string()))?;
        Decision::new(view, legal, setup)
    }

    /// The seat's view.
    pub fn view(&self) -> &AnyView {
        &self.view
    }

    /// The legal actions in canonical text (the setup shortcuts when a setup is due).
    pub fn legal(&self) -> &[String] {
        &self.legal
    }

    /// Whether a setup is due: any valid `setup ...` text is accepted besides the shortcuts.
    pub fn setup(&self) -> bool {
        self.setup
    }

    /// The seat deciding.
    pub fn seat(&self) -> Seat {
        self.view.seat()
    }
}
