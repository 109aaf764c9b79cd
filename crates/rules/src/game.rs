//! The game API every variant implements.
//!
//! A variant's state is the whole truth, its history included. Play is a sequence of actions by
//! one actor at a time (White, Black or Chance). Each applied action appends events to the state's
//! log, each tagged with the seats that may see it; a seat's [`View`] is its part of that log plus
//! a summary of the position as it knows it. [`Game::resample`] draws a full state that the seat
//! cannot tell from the real one.
//!
//! The types the trait speaks in live in their own files: seats in `seat.rs`, events in
//! `event.rs`, views in `view.rs`, options in `options.rs`, refusals in `error.rs`.

use crate::action_info::ActionInfo;
use crate::board::Color;
use crate::error::{ActionError, BeliefError};
use crate::event::Event;
use crate::log::{Log, Recording};
use crate::options::{OptionError, Options};
use crate::outcome::{EndReason, Outcome};
use crate::seat::{Actor, Seat};
use crate::spec::VariantSpec;
use crate::view::View;
use rand::{Rng, RngCore};
use std::fmt::{Debug, Display};

/// The rules of one variant. The state is the whole truth, history included.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// One action: its `Display` is the canonical text, which [`Game::parse_action`] reads back.
    type Action: Clone + PartialEq + Eq + std::hash::Hash + Debug + Display + Send + Sync;
    /// The position as one seat knows it.
    type Summary: Clone
        + PartialEq
        + Debug
        + Send
        + Sync
        + serde::Serialize
        + serde::de::DeserializeOwned;
    /// What one seat knows, rebuilt from its view alone: the games [`Game::resample`] draws.
    type Belief: Belief<Game = Self>;

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
        self.legal_actions_into(listed);
        draw_index(rng, listed.len()).map(|i| listed[i].clone())
    }

    /// Chance's outcomes with their probabilities, when Chance is to act.
    fn chance_outcomes(&self) -> Vec<(Self::Action, f64)> {
        Vec::new()
    }

    /// What `action` is, as data beside its text ([`ActionInfo`]: its kind, squares, pieces and
    /// faces), for clients that would otherwise parse the text. A function of the action alone.
    fn action_info(action: &Self::Action) -> ActionInfo;

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

    /// Plays `action`, known to be legal here: one [`Game::random_legal_action`] or
    /// [`Game::legal_actions`] has just given for this very state. It skips the checks that
    /// [`Game::apply`] makes on outside input (a tenth of a random playout's time went to judging
    /// actions drawn from the legal ones). Given an illegal action it may panic or corrupt the
    /// game: outside input goes through [`Game::apply`].
    fn apply_legal(&mut self, action: &Self::Action) {
        self.apply(action).expect("a legal action is accepted");
    }

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
    /// sampled state equals its view of this one. It is drawn from the seat's view alone, through
    /// the variant's [`Game::Belief`], so no sample is ever drawn from the truth.
    fn resample(&self, seat: Seat, rng: &mut dyn RngCore) -> Self {
        let view = self.view(seat);
        Self::Belief::from_view(&view)
            .unwrap_or_else(|e| panic!("the rules' own view is believable: {e}"))
            .sample(rng)
    }

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

/// What one seat knows: rebuilt from its view, sampled into full games.
pub trait Belief: Clone + Debug + Send + Sync + Sized {
    /// The variant.
    type Game: Game;

    /// Rebuilds the seat's knowledge from its view alone, or says why the view is impossible.
    fn from_view(view: &View<<Self::Game as Game>::Summary>) -> Result<Self, BeliefError>;

    /// The view it was built from (commitments, salts and the players' meta events removed).
    fn view(&self) -> &View<<Self::Game as Game>::Summary>;

    /// One game consistent with the view, found while building the belief.
    fn witness(&self) -> &Self::Game;

    /// Whether the view is revealed: the game is over and the seat sees everything.
    fn revealed(&self) -> bool;

    /// A whole game, history included, drawn consistent with the view: the seat's view of it
    /// equals [`Belief::view`] (but for the player to act of a game the players ended, which
    /// the rules alone cannot know; [`check_witness`](crate::belief::check_witness) checks exactly this). Each variant
    /// documents its distribution.
    fn sample(&self, rng: &mut dyn RngCore) -> Self::Game;

    /// Whose knowledge it is.
    fn seat(&self) -> Seat {
        self.view().seat
    }

    /// The seat's legal actions when it is to act (empty otherwise). Legal actions depend only
    /// on the actor's knowledge, so any consistent game lists the same ones.
    fn legal_actions(&self) -> Vec<<Self::Game as Game>::Action> {
        let to_act = self.witness().to_act();
        match to_act.and_then(|a| a.color()) {
            Some(color) if self.seat().color() == Some(color) => self.witness().legal_actions(),
            _ => Vec::new(),
        }
    }

    /// The key of the seat's information set: equal views, equal keys; equal to
    /// [`Game::info_key`] of every sample.
    fn key(&self) -> u64 {
        self.witness().info_key(self.seat())
    }
}

/// An index below `count` drawn uniformly (`None` for none): how every legal action is drawn, by
/// [`Game::random_legal_action`] and by the variants that count their actions instead of listing
/// them.
pub fn draw_index(rng: &mut dyn RngCore, count: usize) -> Option<usize> {
    (count > 0).then(|| rng.random_range(0..count))
}
