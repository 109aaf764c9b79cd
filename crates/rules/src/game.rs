//! The game API every variant implements, and the types the variants share.
//!
//! A variant's state is the whole truth, its history included. Play is a sequence of actions by
//! one actor at a time (White, Black or Chance). Each applied action appends events to the state's
//! log, each tagged with the seats that may see it; a seat's [`View`] is its part of that log plus
//! a summary of the position as it knows it. [`Game::resample`] draws a full state that the seat
//! cannot tell from the real one.

use crate::board::Color;
pub use crate::fact::{Fact, SealedKind, StopReason};
use crate::log::{Log, Recording};
pub use crate::outcome::{EndReason, Outcome};
use crate::registry::VariantSpec;
use rand::RngCore;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::{self, Debug, Display};

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    /// The first player.
    White,
    /// The second player.
    Black,
    /// Chance (a die): its outcomes have probabilities.
    Chance,
}

impl Actor {
    /// The player's colour, or `None` for Chance.
    pub fn color(self) -> Option<Color> {
        match self {
            Actor::White => Some(Color::White),
            Actor::Black => Some(Color::Black),
            Actor::Chance => None,
        }
    }

    /// The name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Actor::White => "white",
            Actor::Black => "black",
            Actor::Chance => "chance",
        }
    }
}

impl From<Color> for Actor {
    fn from(color: Color) -> Actor {
        match color {
            Color::White => Actor::White,
            Color::Black => Actor::Black,
        }
    }
}

impl Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who looks: one of the players, or a spectator who sees only what is public to both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The White player.
    White,
    /// The Black player.
    Black,
    /// Anyone else.
    Spectator,
}

impl Seat {
    /// All three seats.
    pub const ALL: [Seat; 3] = [Seat::White, Seat::Black, Seat::Spectator];

    /// The player's colour, or `None` for the spectator.
    pub fn color(self) -> Option<Color> {
        match self {
            Seat::White => Some(Color::White),
            Seat::Black => Some(Color::Black),
            Seat::Spectator => None,
        }
    }

    /// The name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Spectator => "spectator",
        }
    }

    /// Reads `white`, `black` or `spectator`.
    pub fn parse(text: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.name() == text)
    }
}

impl From<Color> for Seat {
    fn from(color: Color) -> Seat {
        match color {
            Color::White => Seat::White,
            Color::Black => Seat::Black,
        }
    }
}

impl Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which seats may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    /// Both players, and so spectators too.
    All,
    /// Only White.
    White,
    /// Only Black.
    Black,
}

impl Audience {
    /// Only the player of `color`.
    pub fn only(color: Color) -> Audience {
        match color {
            Color::White => Audience::White,
            Color::Black => Audience::Black,
        }
    }

    /// Whether `seat` may see it.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Audience::All => true,
            Audience::White => seat == Seat::White,
            Audience::Black => seat == Seat::Black,
        }
    }
}

/// What an event says happened.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// An action, in the text its audience may see (the public form of a hidden action, or the
    /// actor's own text in the actor's own event).
    Action,
    /// The public form of a hidden action: the arbiter attaches the commitment to its text.
    Sealed,
    /// A hidden action made public: `text` is the action's own text.
    Reveal {
        /// The index of the action revealed (`"reveals"` in JSON: the event's own `action` is the
        /// index of the action that caused the reveal).
        #[serde(rename = "reveals")]
        action: usize,
    },
    /// A consequence the audience learns (a capture, a piece shown, a flag).
    Info,
    /// A resignation, draw offer, acceptance or claim.
    Meta,
    /// The end of the game.
    End,
}

/// One thing that happened, as some seats may see it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Event {
    /// The index of the action it belongs to (meta events: the number of actions before it).
    pub action: usize,
    /// Who acted.
    pub actor: Actor,
    /// Who may see it.
    pub seats: Audience,
    /// What it is.
    #[serde(flatten)]
    pub kind: EventKind,
    /// What it says.
    pub text: String,
    /// What it says, as data (for the variants that give it).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub fact: Option<Fact>,
    /// A move in the variant's public notation, where it takes the position to write
    /// (orthodox chess and Alter Ego: SAN with `+` and `#`; Ambiguous: the picked move with its
    /// piece, `Nb1-c3`); it says nothing the event's audience does not see.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub notation: Option<String>,
    /// For a sealed action: the commitment to its text (hex SHA-256), set by the arbiter.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub commitment: Option<String>,
    /// For a reveal: the salt that opens the commitment (hex), set by the arbiter.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub salt: Option<String>,
}

impl Event {
    /// An event without commitment or salt.
    pub fn new(
        action: usize,
        actor: Actor,
        seats: Audience,
        kind: EventKind,
        text: impl Into<String>,
    ) -> Event {
        Event {
            action,
            actor,
            seats,
            kind,
            text: text.into(),
            fact: None,
            notation: None,
            commitment: None,
            salt: None,
        }
    }
}

/// Rules options, by name, as given (`{"checkmate": "true"}`); each variant checks its own.
pub type Options = BTreeMap<String, String>;

/// Why an action was refused. The message names the problem and tells nothing the actor may not
/// know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The text is not an action of this variant.
    #[error("cannot read action {text:?}: {reason}")]
    Malformed {
        /// The text (cut to 64 characters).
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The action is well formed but not allowed now.
    #[error("illegal action {text:?}: {reason}")]
    Illegal {
        /// The action's text.
        text: String,
        /// Why not, from the actor's own knowledge.
        reason: String,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
}

impl ActionError {
    /// A stable machine id for the kind of refusal.
    pub fn id(&self) -> &'static str {
        match self {
            ActionError::Malformed { .. } => "malformed-action",
            ActionError::Illegal { .. } => "illegal-action",
            ActionError::GameOver => "game-over",
        }
    }

    /// A malformed-text error, cutting long input.
    pub fn malformed(text: &str, reason: impl Into<String>) -> ActionError {
        ActionError::Malformed {
            text: shorten(text),
            reason: reason.into(),
        }
    }

    /// An illegal-action error.
    pub fn illegal(text: impl Display, reason: impl Into<String>) -> ActionError {
        ActionError::Illegal {
            text: shorten(&text.to_string()),
            reason: reason.into(),
        }
    }
}

/// Input cut to 64 characters for error messages.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 64 {
        text.to_string()
    } else {
        text.chars().take(61).chain("...".chars()).collect()
    }
}

/// An option that a variant does not know or cannot take.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("option {name:?}: {reason}")]
pub struct OptionError {
    /// The option's name.
    pub name: String,
    /// What is wrong.
    pub reason: String,
}

/// What one seat may know now: its events and a summary of the position as it knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View<S> {
    /// The variant id.
    pub variant: String,
    /// The rules options in force (every option, defaults included): the rules are public, so a
    /// view is self-contained.
    #[serde(default)]
    pub options: Options,
    /// Whose view it is.
    pub seat: Seat,
    /// Who acts next, if the game is not over.
    pub to_act: Option<Actor>,
    /// Every event the seat may see, in order.
    pub events: Vec<Event>,
    /// The position as the seat knows it.
    pub position: S,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
}

/// The rules of one variant. The state is the whole truth, history included.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// One action: its `Display` is the canonical text, which [`Game::parse_action`] reads back.
    type Action: Clone + PartialEq + Eq + std::hash::Hash + Debug + Display + Send + Sync;
    /// The position as one seat knows it.
    type Summary: Clone + PartialEq + Debug + Send + Sync + Serialize + serde::de::DeserializeOwned;

    /// The variant's entry in the table of variants: id, name, summary, option schema.
    const SPEC: VariantSpec;
    /// The variant id (`chess`, `alter-ego`, ...).
    const ID: &'static str = Self::SPEC.id;
    /// The display name.
    const NAME: &'static str = Self::SPEC.name;

    /// A new game with these rules options (checked against [`Game::SPEC`]'s schema).
    fn new(options: &Options) -> Result<Self, OptionError>;

    /// The options in force, in canonical form (every option, defaults included).
    fn options(&self) -> Options;

    /// Who acts next, or `None` when the rules have ended the game.
    fn to_act(&self) -> Option<Actor>;

    /// Whether the next action is a setup whose arrangements are too many to list: then
    /// [`Game::legal_actions`] is empty and [`Game::setup_shortcuts`] names the shortcuts.
    fn setup_due(&self) -> bool {
        false
    }

    /// The setup shortcuts accepted now (`setup standard`, `setup random`).
    fn setup_shortcuts(&self) -> Vec<&'static str> {
        Vec::new()
    }

    /// A setup drawn at random (when one is due).
    fn random_setup(&self, _rng: &mut dyn RngCore) -> Option<Self::Action> {
        None
    }

    /// The actions the actor may take, computed from the actor's own knowledge only. For Chance:
    /// its outcomes (see [`Game::chance_outcomes`]).
    fn legal_actions(&self) -> Vec<Self::Action>;

    /// [`Game::legal_actions`] into a buffer the caller reuses: the fast path for simulations,
    /// which list actions at every step.
    fn legal_actions_into(&self, actions: &mut Vec<Self::Action>) {
        actions.clear();
        actions.extend(self.legal_actions());
    }

    /// A legal action drawn uniformly: the one at a single `random_range` over their number in
    /// [`Game::legal_actions`], so every variant draws the same action from the same generator;
    /// `listed` is a buffer the caller reuses. Variants that count their actions faster than
    /// they list them override it.
    fn random_legal_action(
        &self,
        rng: &mut dyn RngCore,
        listed: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        crate::playout::draw_listed(self, rng, listed)
    }

    /// Chance's outcomes with their probabilities, when Chance is to act.
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)> {
        Vec::new()
    }

    /// Reads an action's text (canonical forms and deterministic shortcuts).
    fn parse_action(&self, text: &str) -> Result<Self::Action, ActionError>;

    /// Applies an action of the actor to act, or refuses it and changes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use bluffchess_rules::{ActionError, Chess, Game, Options};
    /// let mut game = Chess::new(&Options::new())?;
    /// let before = game.clone();
    /// let knight = game.parse_action("g1g3")?;
    /// let refused = game.apply(&knight).unwrap_err();
    /// assert!(matches!(refused, ActionError::Illegal { .. }));
    /// assert_eq!(refused.to_string(), r#"illegal action "g1g3": the knight on g1 cannot move to g3 now"#);
    /// assert_eq!(game, before); // nothing changed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn apply(&mut self, action: &Self::Action) -> Result<(), ActionError>;

    /// The game's log: its actions, every seat's events, its outcome.
    fn log(&self) -> &Log<Self::Action>;

    /// The log, to make it quiet for a simulation or loud again.
    fn log_mut(&mut self) -> &mut Log<Self::Action>;

    /// The event log, all seats' events, in order (empty while the log is quiet).
    fn events(&self) -> &[Event] {
        self.log().events()
    }

    /// How many actions have been applied.
    fn action_count(&self) -> usize {
        self.log().actions().len()
    }

    /// Every action applied, in order: the game's history.
    fn history(&self) -> &[Self::Action] {
        self.log().actions()
    }

    /// How many times the current position has stood, this time included, as the variant's
    /// repetition rule counts them (1 where the variant has no such rule). A search treats a
    /// position met again as a draw, so a side ahead makes progress instead of repeating.
    fn repetitions(&self) -> usize {
        1
    }

    /// A hash of everything `seat` has seen (equal views give equal keys): a key for search trees,
    /// kept up to date even while the log is quiet.
    fn info_key(&self, seat: Seat) -> u64 {
        self.log().key(seat)
    }

    /// What the log keeps from now on: for a simulation, [`Recording::Keys`] (no event text, but
    /// information keys stay up to date) or [`Recording::Nothing`] (a playout that reads only the
    /// outcome). Either drops the events recorded so far: views and events are incomplete after.
    fn set_recording(&mut self, recording: Recording) {
        self.log_mut().set_recording(recording);
    }

    /// The position as `seat` knows it; with `revealed`, as everyone knows it after the end.
    fn summary(&self, seat: Seat, revealed: bool) -> Self::Summary;

    /// How the rules ended the game, if they have.
    fn outcome(&self) -> Option<Outcome> {
        self.log().outcome()
    }

    /// The draw `color` may claim now, if any.
    fn claimable_draw(&self, _color: Color) -> Option<EndReason> {
        None
    }

    /// Whether `color` could still win by some series of legal actions: when its opponent's
    /// flag falls, it wins if so and draws if not. Judged on public information only (a flag
    /// must not reveal a hidden choice), so only open variants say no.
    fn can_win(&self, _color: Color) -> bool {
        true
    }

    /// A full state, history included, that `seat` cannot tell from this one: its view of the
    /// sampled state equals its view of this one.
    fn resample(&self, seat: Seat, rng: &mut dyn RngCore) -> Self;

    /// What `seat` may know now. With `revealed` (the game is over, by the rules or by the
    /// players), everything.
    fn view_revealed(&self, seat: Seat, revealed: bool) -> View<Self::Summary> {
        View {
            variant: Self::ID.to_string(),
            options: self.options(),
            seat,
            to_act: self.to_act(),
            events: self
                .events()
                .iter()
                .filter(|e| revealed || e.seats.includes(seat))
                .cloned()
                .collect(),
            position: self.summary(seat, revealed),
            outcome: self.outcome(),
        }
    }

    /// What `seat` may know now (everything once the rules have ended the game).
    ///
    /// # Examples
    ///
    /// ```
    /// use bluffchess_rules::{AlterEgo, Game, Options, Seat};
    /// let mut game = AlterEgo::new(&Options::new())?;
    /// for text in ["e2e4", "d7d5", "transfer d8"] { game.apply_text(text)?; }
    /// // White sees that Black sealed a decision, not what it was.
    /// let white = game.view(Seat::White);
    /// assert_eq!(white.events.last().unwrap().text, "decision");
    /// assert!(white.position.black_ego.sealed);
    /// // Black sees its own transfer.
    /// assert_eq!(game.view(Seat::Black).events.last().unwrap().text, "transfer d8");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn view(&self, seat: Seat) -> View<Self::Summary> {
        self.view_revealed(seat, self.outcome().is_some())
    }

    /// Parses and applies in one step.
    fn apply_text(&mut self, text: &str) -> Result<Self::Action, ActionError> {
        let action = self.parse_action(text)?;
        self.apply(&action)?;
        Ok(action)
    }
}

/// How many of `keys` equal the last one (the times the current position has stood, when each
/// position reached pushed its key); 0 for none.
pub fn times_last_stood(keys: &[u64]) -> usize {
    let current = keys.last();
    keys.iter().filter(|&k| Some(k) == current).count()
}
