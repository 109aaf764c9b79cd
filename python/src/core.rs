//! A game of any variant behind one object-safe trait, as the Python classes hold it: under the
//! arbiter (commitments, the record), or bare for simulations (views without commitments, or
//! nothing but the position), and beliefs rebuilt from a view.
//!
//! Everything a seat is shown comes from that seat's view: observations are written from the
//! position part of its view (`Game::summary(seat, over)`, the function `view(seat)` takes its
//! position from, without copying the events), and strings from its events.

use crate::error::{Refusal, Result};
use crate::planes::{Layout, Planes};
use crate::table::Table;
use crate::variant::{with_variant, Variant, VariantVisitor};
use bluffchess_rules::any::ViewError;
use bluffchess_rules::arbiter::{Arbiter, ArbiterError};
use bluffchess_rules::error::shorten;
use bluffchess_rules::event::EventKind;
use bluffchess_rules::game::{Belief, Game};
use bluffchess_rules::options::Options;
use bluffchess_rules::outcome::Outcome;
use bluffchess_rules::playout;
use bluffchess_rules::record::MetaKind;
use bluffchess_rules::seat::{Actor, Seat};
use bluffchess_rules::view::View;
use bluffchess_rules::{ActionError, ActionInfo, Color, LegalAction, Recording, SaltSource};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;
use std::fmt::Write;

/// How a game is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Under the arbiter: commitments, the record, meta actions; `scripted` lets Chance's
    /// outcomes be played as actions.
    Record {
        /// Whether Chance's outcomes may be played as actions.
        scripted: bool,
    },
    /// Bare, with every seat's events: views, beliefs and strings work; no record.
    Events,
    /// Bare, with information keys only: observations, legal actions and keys.
    Keys,
    /// Bare, keeping nothing: random playouts.
    Nothing,
}

/// What a Python `Game` holds.
pub trait Core: Send + Sync {
    /// The variant id.
    fn variant(&self) -> &'static str;
    /// The options in force.
    fn options(&self) -> Options;
    /// Who acts next.
    fn to_act(&self) -> Option<Actor>;
    /// Whether a setup is due (any `setup ...` text is accepted besides the shortcuts).
    fn setup_due(&self) -> bool;
    /// How many actions were played.
    fn action_count(&self) -> usize;
    /// What the actor may do, in text: Chance's outcomes, the setup shortcuts, or the actions.
    fn legal_texts(&self) -> Vec<String>;
    /// The same actions with their structure beside their text, as JSON (a list of the rules'
    /// `LegalAction`).
    fn legal_described(&self) -> String;
    /// Chance's outcomes with their probabilities, when Chance acts.
    fn chance_outcomes(&self) -> Vec<(String, f64)>;
    /// The legal actions' indices (Chance's outcomes when Chance acts).
    fn legal_indices(&mut self, out: &mut Vec<u32>) -> Result<()>;
    /// Whether the action of an index is legal now (reusing the last listing when it still
    /// holds).
    fn is_legal_index(&mut self, index: u32) -> Result<bool>;
    /// Plays an action's text.
    fn apply_text(&mut self, text: &str) -> Result<()>;
    /// Plays the action of an index.
    fn apply_index(&mut self, index: usize) -> Result<()>;
    /// Lets Chance act, drawn from the game's generator.
    fn roll(&mut self) -> Result<()>;
    /// Plays one random legal action (Chance rolls; a due setup is drawn at random); `false`
    /// when the game is over.
    fn play_random(&mut self) -> bool;
    /// How the game ended.
    fn outcome(&self) -> Option<Outcome>;
    /// The seat's view, as JSON.
    fn view(&self, seat: Seat) -> Result<String>;
    /// Writes the seat's observation planes.
    fn observe(&self, seat: Seat, out: &mut [f32]);
    /// The position the seat knows, as JSON.
    fn observation_string(&self, seat: Seat) -> String;
    /// Everything the seat has seen, one event a line.
    fn information_state_string(&self, seat: Seat) -> Result<String>;
    /// The key of the seat's information set.
    fn info_key(&self, seat: Seat) -> u64;
    /// The record, as JSON.
    fn record(&self) -> Result<String>;
    /// Every action played, in canonical text.
    fn history(&self) -> Vec<String>;
    /// A resignation, draw offer, acceptance or claim.
    fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<()>;
    /// The observation's planes.
    fn layout(&self) -> &'static Layout;
    /// The action-index space.
    fn table(&self) -> &'static Table;
    /// How it is kept.
    fn mode(&self) -> Mode;
    /// The seed of its generator.
    fn seed(&self) -> u64;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn Core>;
    /// Becomes a copy of `fresh` (a game just started, bare, of the same variant and options)
    /// with its generator seeded by `seed`: a batch's next game, without reading the starting
    /// position again (a tenth of a short game's playout went to starting it).
    /// `false`, and nothing changed, when `fresh` is not such a game.
    fn start_as(&mut self, fresh: &dyn Core, seed: u64) -> bool;
    /// Itself, for [`Core::start_as`] to find its type.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// A new game of `variant`.
pub fn new_game(variant: &str, options: &Options, seed: u64, mode: Mode) -> Result<Box<dyn Core>> {
    struct New<'a> {
        options: &'a Options,
        seed: u64,
        mode: Mode,
    }
    impl VariantVisitor for New<'_> {
        type Output = Result<Box<dyn Core>>;
        fn visit<G: Variant>(self) -> Self::Output {
            Session::<G>::new(self.options, self.seed, self.mode)
                .map(|s| Box::new(s) as Box<dyn Core>)
        }
    }
    with_variant(
        variant,
        New {
            options,
            seed,
            mode,
        },
    )
    .unwrap_or_else(|| Err(unknown_variant(variant)))
}

/// The rules' refusal of an unknown variant.
pub fn unknown_variant(variant: &str) -> Refusal {
    ViewError::UnknownVariant(shorten(variant)).into()
}

#[derive(Clone)]
enum Inner<G: Game> {
    Arbiter(Arbiter<G>),
    Bare {
        game: G,
        rng: StdRng,
        recording: Recording,
    },
}

/// A game of variant `G`.
#[derive(Clone)]
pub struct Session<G: Variant> {
    inner: Inner<G>,
    seed: u64,
    scripted: bool,
    /// The actions of the last listing of legal indices, with their indices, valid while
    /// `listed_at` is the number of actions played (then an index is played without reading
    /// its text again).
    listed: Vec<G::Action>,
    listed_indices: Vec<u32>,
    listed_at: Option<usize>,
    text: String,
    /// Every rules option with its value, for the encoder (kept: a game's options never change).
    options: Options,
}

impl<G: Variant> Session<G> {
    fn new(options: &Options, seed: u64, mode: Mode) -> Result<Self> {
        let inner = match mode {
            Mode::Record { scripted } => {
                let arbiter = Arbiter::<G>::new(options, seed, SaltSource::Os)?;
                Inner::Arbiter(if scripted {
                    arbiter.scripted()
                } else {
                    arbiter
                })
            }
            Mode::Events | Mode::Keys | Mode::Nothing => {
                let mut game = G::new(options)?;
                let recording = match mode {
                    Mode::Events => Recording::Events,
                    Mode::Keys => Recording::Keys,
                    _ => Recording::Nothing,
                };
                game.set_recording(recording);
                Inner::Bare {
                    game,
                    rng: StdRng::seed_from_u64(seed),
                    recording,
                }
            }
        };
        let options = match &inner {
            Inner::Arbiter(a) => a.game().options(),
            Inner::Bare { game, .. } => game.options(),
        };
        Ok(Session {
            inner,
            options,
            seed,
            scripted: matches!(mode, Mode::Record { scripted: true }),
            listed: Vec::new(),
            listed_indices: Vec::new(),
            listed_at: None,
            text: String::new(),
        })
    }

    /// A bare game (a sample drawn from a belief), with its generator seeded by `seed`.
    pub fn bare(game: G, seed: u64) -> Self {
        let recording = game.log().recording();
        Session {
            options: game.options(),
            inner: Inner::Bare {
                game,
                rng: StdRng::seed_from_u64(seed),
                recording,
            },
            seed,
            scripted: false,
            listed: Vec::new(),
            listed_indices: Vec::new(),
            listed_at: None,
            text: String::new(),
        }
    }

    fn game(&self) -> &G {
        match &self.inner {
            Inner::Arbiter(a) => a.game(),
            Inner::Bare { game, .. } => game,
        }
    }

    fn over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The seat's view, typed (with commitments, under the arbiter).
    fn typed_view(&self, seat: Seat) -> Result<View<G::Summary>> {
        match &self.inner {
            Inner::Arbiter(a) => Ok(a.view(seat)),
            Inner::Bare {
                game, recording, ..
            } => {
                if *recording != Recording::Events {
                    return Err(Refusal::NoEvents);
                }
                Ok(game.view(seat))
            }
        }
    }

    fn index_of(&self, text: &str) -> Result<u32> {
        G::table().index(text).ok_or_else(|| Refusal::NoIndex {
            text: text.to_string(),
            variant: G::ID,
        })
    }
}

impl<G: Variant> Core for Session<G> {
    fn variant(&self) -> &'static str {
        G::ID
    }

    fn options(&self) -> Options {
        self.game().options()
    }

    fn to_act(&self) -> Option<Actor> {
        match &self.inner {
            Inner::Arbiter(a) => a.to_act(),
            Inner::Bare { game, .. } => game.to_act(),
        }
    }

    fn setup_due(&self) -> bool {
        self.to_act().is_some() && self.game().setup_due()
    }

    fn action_count(&self) -> usize {
        self.game().action_count()
    }

    fn legal_texts(&self) -> Vec<String> {
        match self.to_act() {
            None => Vec::new(),
            Some(Actor::Chance) => self.chance_outcomes().into_iter().map(|(a, _)| a).collect(),
            Some(_) if self.setup_due() => self
                .game()
                .setup_shortcuts()
                .into_iter()
                .map(String::from)
                .collect(),
            Some(_) => self
                .game()
                .legal_actions()
                .iter()
                .map(ToString::to_string)
                .collect(),
        }
    }

    fn legal_described(&self) -> String {
        let described = |action: &G::Action| LegalAction {
            text: action.to_string(),
            info: G::action_info(action),
        };
        let listed: Vec<LegalAction> = match self.to_act() {
            None => Vec::new(),
            Some(Actor::Chance) => self
                .game()
                .chance_outcomes()
                .iter()
                .map(|(a, _)| described(a))
                .collect(),
            Some(_) if self.setup_due() => self
                .game()
                .setup_shortcuts()
                .into_iter()
                .map(|text| LegalAction {
                    text: text.to_string(),
                    info: ActionInfo::Setup,
                })
                .collect(),
            Some(_) => self.game().legal_actions().iter().map(described).collect(),
        };
        serde_json::to_string(&listed).expect("legal actions serialise")
    }

    fn chance_outcomes(&self) -> Vec<(String, f64)> {
        if self.to_act() != Some(Actor::Chance) {
            return Vec::new();
        }
        self.game()
            .chance_outcomes()
            .into_iter()
            .map(|(a, p)| (a.to_string(), p))
            .collect()
    }

    fn legal_indices(&mut self, out: &mut Vec<u32>) -> Result<()> {
        out.clear();
        let Some(actor) = self.to_act() else {
            return Ok(());
        };
        if actor == Actor::Chance || self.setup_due() {
            for text in self.legal_texts() {
                out.push(self.index_of(&text)?);
            }
            return Ok(());
        }
        let mut listed = std::mem::take(&mut self.listed);
        self.game().legal_actions_into(&mut listed);
        let table = G::table();
        let mut result = Ok(());
        self.listed_at = None;
        for action in &listed {
            if let Some(i) = table.index_of_structure(&G::action_info(action)) {
                out.push(i);
                continue;
            }
            self.text.clear();
            write!(self.text, "{action}").expect("writing to a string");
            match table.index(&self.text) {
                Some(i) => out.push(i),
                None => {
                    result = Err(Refusal::NoIndex {
                        text: self.text.clone(),
                        variant: G::ID,
                    });
                    break;
                }
            }
        }
        self.listed = listed;
        if result.is_ok() {
            self.listed_indices.clear();
            self.listed_indices.extend_from_slice(out);
            self.listed_at = Some(self.action_count());
        }
        result
    }

    fn is_legal_index(&mut self, index: u32) -> Result<bool> {
        if self.listed_at != Some(self.action_count()) {
            let mut out = Vec::new();
            self.legal_indices(&mut out)?;
            // Chance's outcomes and setup shortcuts are not kept as a listing.
            if self.listed_at != Some(self.action_count()) {
                return Ok(out.contains(&index));
            }
        }
        Ok(self.listed_indices.contains(&index))
    }

    fn apply_text(&mut self, text: &str) -> Result<()> {
        match &mut self.inner {
            Inner::Arbiter(a) => Ok(a.play(text).map(drop)?),
            Inner::Bare { game, rng, .. } => {
                if game.to_act().is_none() {
                    return Err(ActionError::GameOver.into());
                }
                let text = text.trim();
                let action = if text == "setup random" && game.setup_due() {
                    game.random_setup(rng).ok_or(Refusal::NoRandomSetup)?
                } else {
                    game.parse_action(text)?
                };
                Ok(game.apply(&action)?)
            }
        }
    }

    fn apply_index(&mut self, index: usize) -> Result<()> {
        if self.listed_at == Some(self.action_count()) {
            // The index of an action just listed: play it without reading its text.
            if let Some(at) = self
                .listed_indices
                .iter()
                .position(|&i| i as usize == index)
            {
                let action = self.listed[at].clone();
                self.listed_at = None;
                return match &mut self.inner {
                    Inner::Arbiter(a) => {
                        let text = G::table().texts[index].clone();
                        Ok(a.play(&text).map(drop)?)
                    }
                    Inner::Bare { game, .. } => Ok(game.apply(&action)?),
                };
            }
        }
        let table = G::table();
        let Some(text) = table.texts.get(index) else {
            return Err(Refusal::IndexOutOfRange {
                index: index as i64,
                variant: G::ID,
                last: table.len() - 1,
            });
        };
        self.apply_text(text)
    }

    fn roll(&mut self) -> Result<()> {
        match &mut self.inner {
            Inner::Arbiter(a) => Ok(a.roll().map(drop)?),
            Inner::Bare { game, rng, .. } => {
                if game.to_act() != Some(Actor::Chance) {
                    return Err(ArbiterError::NotChance.into());
                }
                let outcome = playout::roll(game, rng).expect("Chance has outcomes");
                Ok(game.apply(&outcome)?)
            }
        }
    }

    fn play_random(&mut self) -> bool {
        self.listed_at = None;
        match &mut self.inner {
            Inner::Arbiter(a) => match a.to_act() {
                None => false,
                Some(Actor::Chance) => a.roll().is_ok(),
                Some(_) => match a.random_action() {
                    Some(text) => a.play(&text).is_ok(),
                    None => false,
                },
            },
            Inner::Bare { game, rng, .. } => {
                let action = match game.to_act() {
                    None => None,
                    Some(Actor::Chance) => playout::roll(game, rng),
                    Some(_) if game.setup_due() => game.random_setup(rng),
                    Some(_) => game.random_legal_action(rng, &mut self.listed),
                };
                // Drawn from the legal ones: played without judging it again.
                action.map(|action| game.apply_legal(&action)).is_some()
            }
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match &self.inner {
            Inner::Arbiter(a) => a.outcome(),
            Inner::Bare { game, .. } => game.outcome(),
        }
    }

    fn view(&self, seat: Seat) -> Result<String> {
        let view = self.typed_view(seat)?;
        Ok(serde_json::to_string(&view).expect("views serialise"))
    }

    fn observe(&self, seat: Seat, out: &mut [f32]) {
        let summary = self.game().summary(seat, self.over());
        let mut planes = Planes::new(out, G::layout(), seat, self.to_act());
        G::encode(&summary, &self.options, seat, &mut planes);
    }

    fn observation_string(&self, seat: Seat) -> String {
        let summary = self.game().summary(seat, self.over());
        let value = serde_json::json!({
            "seat": seat,
            "to_act": self.to_act(),
            "position": summary,
            "outcome": self.outcome().map(|o| o.to_string()),
        });
        value.to_string()
    }

    fn information_state_string(&self, seat: Seat) -> Result<String> {
        let view = self.typed_view(seat)?;
        Ok(information_state(&view))
    }

    fn info_key(&self, seat: Seat) -> u64 {
        self.game().info_key(seat)
    }

    fn record(&self) -> Result<String> {
        match &self.inner {
            Inner::Arbiter(a) => Ok(serde_json::to_string(&a.record()).expect("records serialise")),
            Inner::Bare { .. } => Err(Refusal::NoRecord),
        }
    }

    fn history(&self) -> Vec<String> {
        self.game()
            .history()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<()> {
        match &mut self.inner {
            Inner::Arbiter(a) => Ok(a.meta(seat, kind).map(drop)?),
            Inner::Bare { .. } => Err(Refusal::NoArbiter(kind.name())),
        }
    }

    fn layout(&self) -> &'static Layout {
        G::layout()
    }

    fn table(&self) -> &'static Table {
        G::table()
    }

    fn mode(&self) -> Mode {
        match &self.inner {
            Inner::Arbiter(_) => Mode::Record {
                scripted: self.scripted,
            },
            Inner::Bare { recording, .. } => match recording {
                Recording::Events => Mode::Events,
                Recording::Keys => Mode::Keys,
                Recording::Nothing => Mode::Nothing,
            },
        }
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn boxed_clone(&self) -> Box<dyn Core> {
        Box::new(self.clone())
    }

    fn start_as(&mut self, fresh: &dyn Core, seed: u64) -> bool {
        let Some(fresh) = fresh.as_any().downcast_ref::<Self>() else {
            return false;
        };
        if !matches!(fresh.inner, Inner::Bare { .. }) {
            return false;
        }
        self.clone_from(fresh);
        if let Inner::Bare { rng, .. } = &mut self.inner {
            *rng = StdRng::seed_from_u64(seed);
        }
        self.seed = seed;
        true
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Everything a seat has seen, one line an event (`3 black sealed decision`), then who acts and
/// the outcome: commitments and salts left out, so that two games the seat cannot tell apart give
/// the same string.
pub fn information_state<S>(view: &View<S>) -> String {
    let mut out = String::with_capacity(32 * view.events.len() + 64);
    let _ = writeln!(out, "{} {}", view.variant, view.seat);
    for event in &view.events {
        let kind = match event.kind {
            EventKind::Action => "action".to_string(),
            EventKind::Sealed => "sealed".to_string(),
            EventKind::Reveal { action } => format!("reveal {action}"),
            EventKind::Info => "info".to_string(),
            EventKind::Meta => "meta".to_string(),
            EventKind::End => "end".to_string(),
        };
        let _ = writeln!(
            out,
            "{} {} {} {}",
            event.action, event.actor, kind, event.text
        );
    }
    match (view.to_act, view.outcome) {
        (_, Some(outcome)) => {
            let _ = write!(out, "over: {outcome}");
        }
        (Some(actor), None) => {
            let _ = write!(out, "to act: {actor}");
        }
        (None, None) => out.push_str("over"),
    }
    out
}

/// What a Python `Belief` holds.
pub trait BeliefCore: Send + Sync {
    /// The variant id.
    fn variant(&self) -> &'static str;
    /// Whose knowledge it is.
    fn seat(&self) -> Seat;
    /// The seat's legal actions when it is to act (the setup shortcuts when a setup is due).
    fn legal_texts(&self) -> Vec<String>;
    /// Whether a setup is due for the seat.
    fn setup_due(&self) -> bool;
    /// A game consistent with the view, drawn with a generator seeded by `seed`.
    fn sample(&self, seed: u64) -> Box<dyn Core>;
    /// The information-set key.
    fn key(&self) -> u64;
    /// The view it was built from (commitments, salts and meta events removed), as JSON.
    fn view(&self) -> String;
    /// The information-state string of the view.
    fn information_state_string(&self) -> String;
}

struct BeliefOf<G: Variant>(<G as Game>::Belief);

impl<G: Variant> BeliefCore for BeliefOf<G> {
    fn variant(&self) -> &'static str {
        G::ID
    }

    fn seat(&self) -> Seat {
        self.0.seat()
    }

    fn legal_texts(&self) -> Vec<String> {
        let witness = self.0.witness();
        let seat_acts = witness
            .to_act()
            .and_then(|a| a.color())
            .is_some_and(|c| self.0.seat().color() == Some(c));
        if seat_acts && witness.setup_due() {
            return witness
                .setup_shortcuts()
                .into_iter()
                .map(String::from)
                .collect();
        }
        self.0
            .legal_actions()
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn setup_due(&self) -> bool {
        !self.legal_texts().is_empty() && self.0.witness().setup_due()
    }

    fn sample(&self, seed: u64) -> Box<dyn Core> {
        let mut rng = StdRng::seed_from_u64(seed);
        let game = self.0.sample(&mut rng);
        Box::new(Session::<G>::bare(game, seed.wrapping_add(1)))
    }

    fn key(&self) -> u64 {
        self.0.key()
    }

    fn view(&self) -> String {
        serde_json::to_string(self.0.view()).expect("views serialise")
    }

    fn information_state_string(&self) -> String {
        information_state(self.0.view())
    }
}

/// Code that runs on a view typed by its variant (see [`read_view`]).
trait ViewReader {
    type Output;
    fn read<G: Variant>(self, view: View<G::Summary>) -> Result<Self::Output>;
}

/// Reads a view (JSON), typed by its `variant` field, and hands it to `reader`; a view that is
/// not one is refused in the rules' words.
fn read_view<R: ViewReader>(json: &str, reader: R) -> Result<R::Output> {
    let value: Value = serde_json::from_str(json).map_err(|e| ViewError::Json(e.to_string()))?;
    let variant = value
        .get("variant")
        .and_then(Value::as_str)
        .ok_or(ViewError::NoVariant)?
        .to_string();
    struct Read<R> {
        value: Value,
        reader: R,
    }
    impl<R: ViewReader> VariantVisitor for Read<R> {
        type Output = Result<R::Output>;
        fn visit<G: Variant>(self) -> Self::Output {
            let view: View<<G as Game>::Summary> =
                serde_json::from_value(self.value).map_err(|e| ViewError::Json(e.to_string()))?;
            self.reader.read::<G>(view)
        }
    }
    with_variant(&variant, Read { value, reader }).unwrap_or_else(|| Err(unknown_variant(&variant)))
}

/// Rebuilds a seat's knowledge from its view (JSON), or says why it cannot.
pub fn belief_from_view(json: &str) -> Result<Box<dyn BeliefCore>> {
    struct Build;
    impl ViewReader for Build {
        type Output = Box<dyn BeliefCore>;
        fn read<G: Variant>(self, view: View<G::Summary>) -> Result<Self::Output> {
            let belief = <G as Game>::Belief::from_view(&view)?;
            Ok(Box::new(BeliefOf::<G>(belief)))
        }
    }
    read_view(json, Build)
}

/// The observation planes of a view (JSON): what `Game.observation(seat)` gives for the view's
/// seat, computed from the view alone.
pub fn observe_view(json: &str) -> Result<(Vec<f32>, &'static Layout)> {
    struct Observe;
    impl ViewReader for Observe {
        type Output = (Vec<f32>, &'static Layout);
        fn read<G: Variant>(self, view: View<G::Summary>) -> Result<Self::Output> {
            let layout = G::layout();
            let mut data = vec![0.0; layout.size()];
            let mut planes = Planes::new(&mut data, layout, view.seat, view.to_act);
            G::encode(&view.position, &view.options, view.seat, &mut planes);
            Ok((data, layout))
        }
    }
    read_view(json, Observe)
}
