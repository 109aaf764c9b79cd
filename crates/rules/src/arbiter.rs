//! The arbiter: holds one game's truth and everything around the rules that every variant shares:
//! the commitments to hidden choices and their openings, resignation, draw offers and claims, the
//! seed (committed at the start, opened at the end) that Chance's outcomes and random setups are
//! drawn from, and the game record with its verification (a replay that checks every entry).

use crate::action_info::{ActionInfo, LegalAction};
use crate::board::Color;
use crate::commitment::{
    chain, chance_rng, commit, commit_seed, salt_from_hex, to_hex, Salt, SaltSource,
};
use crate::game::{
    ActionError, Actor, Audience, EndReason, Event, EventKind, Game, OptionError, Options, Outcome,
    Seat, View,
};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A resignation, draw offer, acceptance or claim: allowed to either seat at any time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MetaKind {
    /// The seat gives up: the other seat wins.
    Resign,
    /// The seat offers a draw; it stands until the other seat accepts or acts.
    OfferDraw,
    /// The seat accepts the other seat's standing draw offer.
    AcceptDraw,
    /// The seat declines the other seat's standing draw offer: it no longer stands.
    DeclineDraw,
    /// The seat claims a draw the rules allow now (threefold repetition, 50-move rule).
    ClaimDraw,
    /// The seat's clock ran out (declared by whoever keeps the clocks): the other seat wins,
    /// or draws when the rules say it cannot win ([`Game::can_win`]).
    Timeout,
    /// The seat left the game and its opponent claimed the win after a grace period (declared
    /// by whoever watches the connections): the other seat wins.
    Abandon,
}

impl MetaKind {
    /// The protocol's name for it.
    pub fn name(self) -> &'static str {
        match self {
            MetaKind::Resign => "resign",
            MetaKind::OfferDraw => "offer_draw",
            MetaKind::AcceptDraw => "accept_draw",
            MetaKind::DeclineDraw => "decline_draw",
            MetaKind::ClaimDraw => "claim_draw",
            MetaKind::Timeout => "timeout",
            MetaKind::Abandon => "abandon",
        }
    }

    /// Reads a protocol name.
    pub fn parse(text: &str) -> Option<MetaKind> {
        [
            MetaKind::Resign,
            MetaKind::OfferDraw,
            MetaKind::AcceptDraw,
            MetaKind::DeclineDraw,
            MetaKind::ClaimDraw,
            MetaKind::Timeout,
            MetaKind::Abandon,
        ]
        .into_iter()
        .find(|k| k.name() == text)
    }
}

/// One action in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Its index, from 0.
    pub index: usize,
    /// Who took it.
    pub actor: Actor,
    /// The canonical text.
    pub text: String,
    /// What the opponent and spectators were shown (equal to `text` unless the action is hidden).
    pub public: String,
    /// For a hidden action: the commitment to `text`.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub commitment: Option<String>,
    /// For a hidden action that has been opened: the salt (hex).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub salt: Option<String>,
    /// The running digest of the public record up to this action (see
    /// [`crate::commitment::chain`]).
    pub digest: String,
}

/// A resignation, offer, acceptance or claim in a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedMeta {
    /// How many actions had been played before it.
    pub after: usize,
    /// Whose it was.
    pub seat: Color,
    /// What it was.
    pub kind: MetaKind,
}

/// Everything needed to replay and check a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// The variant id.
    pub variant: String,
    /// The rules options.
    pub options: Options,
    /// The game id that every commitment includes.
    pub game_id: String,
    /// The seed of the game's generator (Chance, random setups).
    pub seed: u64,
    /// The commitment to the seed, public from the start (absent in records made before seeds
    /// were committed).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seed_commitment: Option<String>,
    /// The salt that opens the seed's commitment, once the game is over.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub seed_salt: Option<String>,
    /// Whether Chance's outcomes were chosen by the players (a scripted game) instead of drawn
    /// from the seed.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub scripted: bool,
    /// Every action, in order.
    pub actions: Vec<RecordedAction>,
    /// Resignations, offers, acceptances and claims.
    #[serde(default)]
    pub meta: Vec<RecordedMeta>,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
}

/// A command the arbiter refused. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArbiterError {
    /// The action was refused by the rules.
    #[error(transparent)]
    Action(#[from] ActionError),
    /// A draw offer by a seat whose own offer still stands.
    #[error("{0}'s draw offer already stands")]
    OfferStands(Color),
    /// A draw offer by a seat that has one from the opponent to answer.
    #[error("{0} has offered a draw: accept it with accept_draw")]
    OfferToAnswer(Color),
    /// An acceptance with no offer from the opponent.
    #[error("there is no draw offer from {0} to accept")]
    NoOffer(Color),
    /// A claim the rules do not allow now.
    #[error("no draw can be claimed now: the rules allow none in this position")]
    NoClaim,
    /// A roll while a player, not Chance, is to act.
    #[error("it is not Chance's turn to act")]
    NotChance,
    /// Chance's outcome chosen in a game not started as scripted.
    #[error("Chance's outcome comes from the game's seed: roll it (only a game started as scripted may choose it)")]
    NotScripted,
}

impl ArbiterError {
    /// A stable machine id for the kind of refusal (`illegal-action`, `no-offer`, ...).
    pub fn id(&self) -> &'static str {
        match self {
            ArbiterError::Action(e) => e.id(),
            ArbiterError::OfferStands(_) => "offer-stands",
            ArbiterError::OfferToAnswer(_) => "offer-to-answer",
            ArbiterError::NoOffer(_) => "no-offer",
            ArbiterError::NoClaim => "no-claim",
            ArbiterError::NotChance => "not-chance",
            ArbiterError::NotScripted => "not-scripted",
        }
    }
}

#[derive(Clone, Debug)]
struct Sealed {
    commitment: String,
    salt: Salt,
    opened: bool,
}

/// One game under an arbiter.
#[derive(Clone, Debug)]
pub struct Arbiter<G: Game> {
    game: G,
    game_id: String,
    seed: u64,
    seed_salt: Salt,
    scripted: bool,
    rng: StdRng,
    salts: SaltSource,
    actions: Vec<RecordedAction>,
    sealed: Vec<Option<Sealed>>,
    meta: Vec<RecordedMeta>,
    draw_offer: Option<Color>,
    ended: Option<Outcome>,
}

/// What the actor to act may do now.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Legal {
    /// Who acts.
    pub to_act: Actor,
    /// The actions in canonical text (or, when `setup` is set, the setup shortcuts).
    pub actions: Vec<String>,
    /// For Chance: each action's probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probabilities: Option<Vec<f64>>,
    /// Set when a setup is due: any valid `setup ...` text is accepted besides the shortcuts.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub setup: bool,
    /// Each action with its structure beside its text, in the order of `actions` (a setup
    /// shortcut is a `setup`): given by [`Arbiter::legal_described`], absent from
    /// [`Arbiter::legal`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_actions: Option<Vec<LegalAction>>,
}

/// Each text beside its structure.
fn described(texts: &[String], infos: impl Iterator<Item = ActionInfo>) -> Vec<LegalAction> {
    texts
        .iter()
        .zip(infos)
        .map(|(text, info)| LegalAction {
            text: text.clone(),
            info,
        })
        .collect()
}

impl<G: Game> Arbiter<G> {
    /// A new game. `seed` drives Chance and random setups; salts come from `salts`.
    pub fn new(options: &Options, seed: u64, salts: SaltSource) -> Result<Self, OptionError> {
        let game_id = match salts {
            SaltSource::Os => to_hex(&SaltSource::Os.salt(0)[..16]),
            SaltSource::Seeded(s) => format!("seeded-{s}"),
        };
        Self::with_id(options, seed, salts, game_id)
    }

    /// A new game with a given id (to replay a record).
    pub fn with_id(
        options: &Options,
        seed: u64,
        salts: SaltSource,
        game_id: String,
    ) -> Result<Self, OptionError> {
        let game = G::new(options)?;
        Ok(Arbiter {
            game,
            game_id,
            seed,
            seed_salt: salts.seed_salt(),
            scripted: false,
            rng: StdRng::seed_from_u64(seed),
            salts,
            actions: Vec::new(),
            sealed: Vec::new(),
            meta: Vec::new(),
            draw_offer: None,
            ended: None,
        })
    }

    /// The same game, started as scripted: Chance's outcomes are played as text instead of
    /// drawn from the seed, and the record says so.
    pub fn scripted(mut self) -> Self {
        self.scripted = true;
        self
    }

    /// The commitment to the game's seed (public from the start).
    pub fn seed_commitment(&self) -> String {
        commit_seed(&self.game_id, self.seed, &self.seed_salt)
    }

    /// The seat whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// The game's truth (for tests and analysis; never for a seat).
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The game id.
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// Who acts next, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Actor> {
        if self.ended.is_some() {
            return None;
        }
        self.game.to_act()
    }

    /// How the game ended: by the players (resignation, agreement, claim) or by the rules.
    pub fn outcome(&self) -> Option<Outcome> {
        self.ended.or_else(|| self.game.outcome())
    }

    /// What the actor to act may do.
    pub fn legal(&self) -> Option<Legal> {
        self.listing(false)
    }

    /// [`Arbiter::legal`] with each action's structure beside its text
    /// ([`Legal::legal_actions`]), for clients that show or choose actions without parsing them.
    pub fn legal_described(&self) -> Option<Legal> {
        self.listing(true)
    }

    fn listing(&self, describe: bool) -> Option<Legal> {
        let to_act = self.to_act()?;
        if to_act == Actor::Chance {
            let outcomes = self.game.chance_outcomes();
            let actions: Vec<String> = outcomes.iter().map(|(a, _)| a.to_string()).collect();
            let legal_actions = describe
                .then(|| described(&actions, outcomes.iter().map(|(a, _)| G::action_info(a))));
            return Some(Legal {
                to_act,
                actions,
                probabilities: Some(outcomes.iter().map(|(_, p)| *p).collect()),
                setup: false,
                legal_actions,
            });
        }
        if self.game.setup_due() {
            let actions: Vec<String> = self
                .game
                .setup_shortcuts()
                .into_iter()
                .map(String::from)
                .collect();
            let legal_actions =
                describe.then(|| described(&actions, std::iter::repeat(ActionInfo::Setup)));
            return Some(Legal {
                to_act,
                actions,
                probabilities: None,
                setup: true,
                legal_actions,
            });
        }
        let listed = self.game.legal_actions();
        let actions: Vec<String> = listed.iter().map(ToString::to_string).collect();
        let legal_actions =
            describe.then(|| described(&actions, listed.iter().map(G::action_info)));
        Some(Legal {
            to_act,
            actions,
            probabilities: None,
            setup: false,
            legal_actions,
        })
    }

    /// Reads an action's text, expanding shortcuts (`setup random` draws from the game's
    /// generator, so it is only read when it is played).
    fn read(&mut self, text: &str) -> Result<G::Action, ArbiterError> {
        if self.to_act().is_none() {
            return Err(ActionError::GameOver.into());
        }
        if text.trim() == "setup random" && self.game.setup_due() {
            let mut rng = self.rng.clone();
            let setup = self.game.random_setup(&mut rng);
            if let Some(setup) = setup {
                self.rng = rng;
                return Ok(setup);
            }
        }
        Ok(self.game.parse_action(text.trim())?)
    }

    /// Plays an action of the actor to act (Chance's too, in a game started as
    /// [`Arbiter::scripted`]). Returns the new
    /// events the actor may see.
    ///
    /// # Examples
    ///
    /// ```
    /// use bluffchess_rules::{AlterEgo, Arbiter, Options, SaltSource, Seat};
    /// let mut arbiter: Arbiter<AlterEgo> = Arbiter::new(&Options::new(), 7, SaltSource::Os)?;
    /// for text in ["e2e4", "d7d5"] { arbiter.play(text)?; } // a death move: Black decides
    /// let events = arbiter.play("stay")?;
    /// // The hidden decision is committed: White receives the hash now, the salt at the reveal.
    /// let sealed = arbiter.view(Seat::White).events.pop().unwrap();
    /// assert_eq!(sealed.text, "decision");
    /// assert_eq!(sealed.commitment.unwrap().len(), 64);
    /// assert_eq!(events.last().unwrap().text, "stay"); // Black's own view of it
    /// assert!(arbiter.play("stay").is_err()); // White moves now, and nothing changes
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, text: &str) -> Result<Vec<Event>, ArbiterError> {
        if self.to_act() == Some(Actor::Chance) && !self.scripted {
            return Err(ArbiterError::NotScripted);
        }
        let action = self.read(text)?;
        self.apply(&action)
    }

    /// Lets Chance act: its outcome is drawn from a generator seeded by the game's seed and the
    /// action's index (see [`crate::commitment::chance_rng`]), so `verify` can recompute it.
    pub fn roll(&mut self) -> Result<Vec<Event>, ArbiterError> {
        if self.to_act() != Some(Actor::Chance) {
            return Err(ArbiterError::NotChance);
        }
        let chosen = self.seeded_outcome().expect("Chance has outcomes");
        self.apply(&chosen)
    }

    fn seeded_outcome(&self) -> Option<G::Action> {
        let mut rng = chance_rng(self.seed, self.game.action_count());
        crate::playout::roll(&self.game, &mut rng)
    }

    /// The outcome the seed gives Chance now, when Chance is to act: what [`Arbiter::roll`]
    /// plays, and what a record's roll is checked against.
    pub fn seeded_roll(&self) -> Option<String> {
        if self.to_act() != Some(Actor::Chance) {
            return None;
        }
        self.seeded_outcome().map(|a| a.to_string())
    }

    fn apply(&mut self, action: &G::Action) -> Result<Vec<Event>, ArbiterError> {
        let actor = self.to_act().ok_or(ActionError::GameOver)?;
        let index = self.game.action_count();
        let first_event = self.game.events().len();
        self.game.apply(action)?;
        let text = action.to_string();
        let new_events = &self.game.events()[first_event..];
        let sealed = new_events
            .iter()
            .find(|e| e.action == index && e.kind == EventKind::Sealed && e.seats == Audience::All);
        let public = sealed.map_or_else(|| text.clone(), |e| e.text.clone());
        let commitment = sealed.is_some().then(|| {
            let salt = self.salts.salt(index);
            Sealed {
                commitment: commit(&self.game_id, index, &text, &salt),
                salt,
                opened: false,
            }
        });
        let commitment_text = commitment.as_ref().map(|s| s.commitment.clone());
        let previous = self.actions.last().map_or(&self.game_id, |a| &a.digest);
        let digest = chain(
            previous,
            index,
            actor.name(),
            &public,
            commitment_text.as_deref(),
        );
        self.actions.push(RecordedAction {
            index,
            actor,
            text,
            public,
            commitment: commitment_text,
            salt: None,
            digest,
        });
        self.sealed.push(commitment);
        self.open_revealed(first_event);
        if actor.color().is_some() && actor.color() != self.draw_offer {
            // Acting declines the opponent's standing offer.
            self.draw_offer = None;
        }
        if self.game.outcome().is_some() {
            self.open_all();
        }
        let seat = actor.color().map_or(Seat::Spectator, Seat::from);
        Ok(self.decorate(
            self.game.events()[first_event..]
                .iter()
                .filter(|e| e.seats.includes(seat))
                .cloned()
                .collect(),
        ))
    }

    fn open_revealed(&mut self, first_event: usize) {
        let revealed: Vec<usize> = self.game.events()[first_event..]
            .iter()
            .filter_map(|e| match e.kind {
                EventKind::Reveal { action } => Some(action),
                _ => None,
            })
            .collect();
        for action in revealed {
            self.open(action);
        }
    }

    fn open(&mut self, action: usize) {
        if let Some(Some(sealed)) = self.sealed.get_mut(action) {
            sealed.opened = true;
            self.actions[action].salt = Some(to_hex(&sealed.salt));
        }
    }

    fn open_all(&mut self) {
        for action in 0..self.sealed.len() {
            self.open(action);
        }
    }

    /// Attaches commitments to sealed events and salts to reveals (and, once opened, to the
    /// sealed events too).
    fn decorate(&self, mut events: Vec<Event>) -> Vec<Event> {
        for event in &mut events {
            let action = match event.kind {
                EventKind::Sealed => event.action,
                EventKind::Reveal { action } => action,
                _ => continue,
            };
            if let Some(Some(sealed)) = self.sealed.get(action) {
                if event.kind == EventKind::Sealed {
                    event.commitment = Some(sealed.commitment.clone());
                }
                if sealed.opened {
                    event.salt = Some(to_hex(&sealed.salt));
                }
            }
        }
        events
    }

    /// A resignation, draw offer, acceptance or claim by `seat`, or its flag's fall.
    pub fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<Vec<Event>, ArbiterError> {
        if self.outcome().is_some() {
            return Err(ActionError::GameOver.into());
        }
        let ending = match kind {
            MetaKind::Resign => Some(Outcome::win(!seat, EndReason::Resignation)),
            MetaKind::OfferDraw => {
                if self.draw_offer == Some(seat) {
                    return Err(ArbiterError::OfferStands(seat));
                }
                if self.draw_offer == Some(!seat) {
                    return Err(ArbiterError::OfferToAnswer(!seat));
                }
                self.draw_offer = Some(seat);
                None
            }
            MetaKind::AcceptDraw => {
                if self.draw_offer != Some(!seat) {
                    return Err(ArbiterError::NoOffer(!seat));
                }
                Some(Outcome::draw(EndReason::Agreement))
            }
            MetaKind::DeclineDraw => {
                if self.draw_offer != Some(!seat) {
                    return Err(ArbiterError::NoOffer(!seat));
                }
                self.draw_offer = None;
                None
            }
            MetaKind::ClaimDraw => match self.game.claimable_draw(seat) {
                Some(reason) => Some(Outcome::draw(reason)),
                None => return Err(ArbiterError::NoClaim),
            },
            MetaKind::Timeout if self.game.can_win(!seat) => {
                Some(Outcome::win(!seat, EndReason::Timeout))
            }
            MetaKind::Timeout => Some(Outcome::draw(EndReason::TimeoutInsufficientMaterial)),
            MetaKind::Abandon => Some(Outcome::win(!seat, EndReason::Abandonment)),
        };
        self.meta.push(RecordedMeta {
            after: self.game.action_count(),
            seat,
            kind,
        });
        if let Some(outcome) = ending {
            self.ended = Some(outcome);
            self.open_all();
        }
        Ok(vec![self.meta_event(self.meta.last().expect("just pushed"))])
    }

    fn meta_event(&self, meta: &RecordedMeta) -> Event {
        Event::new(
            meta.after,
            meta.seat.into(),
            Audience::All,
            EventKind::Meta,
            meta.kind.name(),
        )
    }

    /// What `seat` may know now, with commitments, meta events and the arbiter's outcome.
    pub fn view(&self, seat: Seat) -> View<G::Summary> {
        let over = self.outcome().is_some();
        let mut view = self.game.view_revealed(seat, over);
        let mut events = self.decorate(view.events);
        // Meta events go after the events of the actions before them.
        for meta in &self.meta {
            let at = events
                .iter()
                .position(|e| e.action >= meta.after && e.kind != EventKind::Meta)
                .unwrap_or(events.len());
            events.insert(at, self.meta_event(meta));
        }
        if let (Some(outcome), Some(last)) = (&self.ended, self.meta.last()) {
            events.push(Event::new(
                self.game.action_count(),
                last.seat.into(),
                Audience::All,
                EventKind::End,
                outcome.to_string(),
            ));
        }
        view.events = events;
        view.to_act = self.to_act();
        view.outcome = self.outcome();
        view
    }

    /// The game record.
    pub fn record(&self) -> Record {
        Record {
            variant: G::ID.to_string(),
            options: self.game.options(),
            game_id: self.game_id.clone(),
            seed: self.seed,
            seed_commitment: Some(self.seed_commitment()),
            seed_salt: self.outcome().map(|_| to_hex(&self.seed_salt)),
            scripted: self.scripted,
            actions: self.actions.clone(),
            meta: self.meta.clone(),
            outcome: self.outcome(),
        }
    }

    /// The record's entry for the last action played, without copying the whole record.
    pub fn last_recorded(&self) -> Option<&RecordedAction> {
        self.actions.last()
    }

    /// A legal action drawn at random from the game's generator (a setup, when one is due; none
    /// for Chance, which rolls).
    pub fn random_action(&mut self) -> Option<String> {
        if self.to_act()? == Actor::Chance {
            return None;
        }
        crate::playout::random_action(&self.game, &mut self.rng).map(|a| a.to_string())
    }
}

/// What is wrong with a record: the first bad entry and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{entry}: {problem}")]
pub struct VerifyError {
    /// The entry at fault.
    pub entry: Entry,
    /// What is wrong with it.
    pub problem: Problem,
}

impl VerifyError {
    /// A stable machine id for the kind of problem (`digest-mismatch`, `roll-changed`, ...).
    pub fn id(&self) -> &'static str {
        self.problem.id()
    }
}

/// An entry of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The variant's id.
    Variant,
    /// The rules options.
    Options,
    /// The seed and its commitment.
    Seed,
    /// Action `N` (from 0).
    Action(usize),
    /// Meta event `N` (from 0): an offer, a resignation, a claim.
    Meta(usize),
    /// The outcome.
    Outcome,
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Variant => f.write_str("variant"),
            Entry::Options => f.write_str("options"),
            Entry::Seed => f.write_str("seed"),
            Entry::Action(i) => write!(f, "action {i}"),
            Entry::Meta(i) => write!(f, "meta {i}"),
            Entry::Outcome => f.write_str("outcome"),
        }
    }
}

/// What is wrong with an entry of a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The variant is not one of ours.
    #[error("unknown variant {0:?}")]
    UnknownVariant(String),
    /// The options are not the variant's.
    #[error(transparent)]
    Options(#[from] OptionError),
    /// An action's index is not its place in the record.
    #[error("its index is {found}, expected {expected}")]
    Index {
        /// The recorded index.
        found: usize,
        /// Its place.
        expected: usize,
    },
    /// An action recorded for an actor whose turn it is not.
    #[error("recorded as {0}'s, but it is not {0}'s turn")]
    NotTheirTurn(Actor),
    /// The rules refuse the action or the meta event.
    #[error(transparent)]
    Refused(#[from] ArbiterError),
    /// The running digest does not match the public record up to the entry.
    #[error("its digest does not match the record up to it: the record was altered")]
    Digest,
    /// The game is over but the seed's commitment was never opened.
    #[error("the game is over but the seed's commitment was never opened")]
    SeedUnopened,
    /// The game is over but a hidden action's commitment was never opened.
    #[error("the game is over but its commitment was never opened")]
    CommitmentUnopened,
    /// The recorded outcome is not the replay's.
    #[error("recorded {}, the replay gives {}", outcome_text(*.recorded), outcome_text(*.replayed))]
    Outcome {
        /// The recorded outcome.
        recorded: Option<Outcome>,
        /// The replay's.
        replayed: Option<Outcome>,
    },
    /// The seed's salt is not 64 hex digits.
    #[error("the seed's salt is not 64 hex digits")]
    SeedSalt,
    /// The seed does not match its commitment.
    #[error("the seed does not match its commitment: the seed was changed")]
    SeedChanged,
    /// Chance's recorded outcome is not the one the seed gives.
    #[error("Chance's outcome {recorded:?} is not the seed's, {seeded:?}: the roll was changed")]
    RollChanged {
        /// The recorded outcome.
        recorded: String,
        /// The seed's.
        seeded: String,
    },
    /// A meta event placed out of order.
    #[error("placed after action count {0}, which is out of order")]
    MetaOrder(usize),
    /// An action's text is not in canonical form.
    #[error("{recorded:?} is not in canonical form ({canonical:?})")]
    NotCanonical {
        /// The recorded text.
        recorded: String,
        /// The canonical text.
        canonical: String,
    },
    /// An action's public text is not the rules'.
    #[error("public text {recorded:?} differs from the rules' {rules:?}")]
    PublicText {
        /// The recorded public text.
        recorded: String,
        /// The rules'.
        rules: String,
    },
    /// A hidden action without a commitment.
    #[error("a hidden action without a commitment")]
    NoCommitment,
    /// A commitment on an action that is not hidden.
    #[error("a commitment on an action that is not hidden")]
    NotHidden,
    /// A salt that is not 64 hex digits.
    #[error("the salt is not 64 hex digits")]
    Salt,
    /// An opening that does not match its commitment.
    #[error("the opening does not match its commitment")]
    Opening,
    /// A salt on an action that is not hidden.
    #[error("a salt on an action that is not hidden")]
    SaltNotHidden,
}

impl Problem {
    /// A stable machine id for the kind of problem.
    pub fn id(&self) -> &'static str {
        match self {
            Problem::UnknownVariant(_) => "unknown-variant",
            Problem::Options(_) => "bad-options",
            Problem::Index { .. } => "bad-index",
            Problem::NotTheirTurn(_) => "not-their-turn",
            Problem::Refused(_) => "refused",
            Problem::Digest => "digest-mismatch",
            Problem::SeedUnopened => "seed-unopened",
            Problem::CommitmentUnopened => "commitment-unopened",
            Problem::Outcome { .. } => "outcome-mismatch",
            Problem::SeedSalt => "bad-seed-salt",
            Problem::SeedChanged => "seed-changed",
            Problem::RollChanged { .. } => "roll-changed",
            Problem::MetaOrder(_) => "meta-out-of-order",
            Problem::NotCanonical { .. } => "not-canonical",
            Problem::PublicText { .. } => "public-text-mismatch",
            Problem::NoCommitment => "missing-commitment",
            Problem::NotHidden => "commitment-not-hidden",
            Problem::Salt => "bad-salt",
            Problem::Opening => "opening-mismatch",
            Problem::SaltNotHidden => "salt-not-hidden",
        }
    }
}

fn bad<T>(entry: Entry, problem: impl Into<Problem>) -> Result<T, VerifyError> {
    Err(VerifyError {
        entry,
        problem: problem.into(),
    })
}

/// Replays a record of variant `G` and checks every action, every public text, every commitment
/// against its opening, and the outcome. Returns the outcome. (`any::verify` reads the variant
/// from the record.)
pub fn verify_as<G: Game>(record: &Record) -> Result<Option<Outcome>, VerifyError> {
    if record.variant != G::ID {
        let problem = Problem::UnknownVariant(record.variant.clone());
        return bad(Entry::Variant, problem);
    }
    let game = Arbiter::<G>::with_id(
        &record.options,
        record.seed,
        SaltSource::Seeded(record.seed),
        record.game_id.clone(),
    );
    let mut game = match game {
        Ok(game) => game,
        Err(e) => return bad(Entry::Options, e),
    };
    // The replay chooses Chance's outcomes from the record, each checked against the seed first.
    game = game.scripted();
    check_seed(record)?;
    let mut metas = record.meta.iter().enumerate().peekable();
    for (i, recorded) in record.actions.iter().enumerate() {
        while let Some((m, meta)) = metas.next_if(|(_, meta)| meta.after <= i) {
            replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, i)?;
        }
        let entry = Entry::Action(i);
        if recorded.index != i {
            let problem = Problem::Index {
                found: recorded.index,
                expected: i,
            };
            return bad(entry, problem);
        }
        if game.to_act() != Some(recorded.actor) {
            return bad(entry, Problem::NotTheirTurn(recorded.actor));
        }
        if !record.scripted {
            check_roll(&game, entry, &recorded.text)?;
        }
        if let Err(e) = game.play(&recorded.text) {
            return bad(entry, e);
        }
        let replayed = game.last_recorded().expect("an action was played");
        check_action(entry, recorded, replayed, &record.game_id)?;
        let previous = match i {
            0 => &record.game_id,
            _ => &record.actions[i - 1].digest,
        };
        let digest = chain(
            previous,
            i,
            recorded.actor.name(),
            &recorded.public,
            recorded.commitment.as_deref(),
        );
        if digest != recorded.digest {
            return bad(entry, Problem::Digest);
        }
    }
    for (m, meta) in metas {
        let after = record.actions.len();
        replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, after)?;
    }
    let outcome = game.outcome();
    if outcome.is_some() && record.seed_commitment.is_some() && record.seed_salt.is_none() {
        return bad(Entry::Seed, Problem::SeedUnopened);
    }
    if outcome.is_some() {
        if let Some(a) = record
            .actions
            .iter()
            .find(|a| a.commitment.is_some() && a.salt.is_none())
        {
            return bad(Entry::Action(a.index), Problem::CommitmentUnopened);
        }
    }
    if outcome != record.outcome {
        let problem = Problem::Outcome {
            recorded: record.outcome,
            replayed: outcome,
        };
        return bad(Entry::Outcome, problem);
    }
    Ok(outcome)
}

fn outcome_text(outcome: Option<Outcome>) -> String {
    outcome.map_or("no outcome (the game goes on)".to_string(), |o| {
        format!("\"{o}\"")
    })
}

/// Checks the seed against its commitment, once it is opened.
fn check_seed(record: &Record) -> Result<(), VerifyError> {
    let (Some(commitment), Some(salt_hex)) = (&record.seed_commitment, &record.seed_salt) else {
        return Ok(());
    };
    let Some(salt) = salt_from_hex(salt_hex) else {
        return bad(Entry::Seed, Problem::SeedSalt);
    };
    if commit_seed(&record.game_id, record.seed, &salt) != *commitment {
        return bad(Entry::Seed, Problem::SeedChanged);
    }
    Ok(())
}

/// Checks that Chance's recorded outcome is the one the seed gives.
fn check_roll<G: Game>(game: &Arbiter<G>, entry: Entry, text: &str) -> Result<(), VerifyError> {
    match game.seeded_roll() {
        Some(seeded) if seeded != text => {
            let problem = Problem::RollChanged {
                recorded: text.to_string(),
                seeded,
            };
            bad(entry, problem)
        }
        _ => Ok(()),
    }
}

fn replay_meta<G: Game>(
    game: &mut Arbiter<G>,
    index: usize,
    seat: Color,
    kind: MetaKind,
    after: usize,
    actions_so_far: usize,
) -> Result<(), VerifyError> {
    let entry = Entry::Meta(index);
    if after != actions_so_far {
        return bad(entry, Problem::MetaOrder(after));
    }
    game.meta(seat, kind).map(drop).or_else(|e| bad(entry, e))
}

fn check_action(
    entry: Entry,
    recorded: &RecordedAction,
    replayed: &RecordedAction,
    game_id: &str,
) -> Result<(), VerifyError> {
    if recorded.text != replayed.text {
        let problem = Problem::NotCanonical {
            recorded: recorded.text.clone(),
            canonical: replayed.text.clone(),
        };
        return bad(entry, problem);
    }
    if recorded.public != replayed.public {
        let problem = Problem::PublicText {
            recorded: recorded.public.clone(),
            rules: replayed.public.clone(),
        };
        return bad(entry, problem);
    }
    match (&recorded.commitment, replayed.commitment.is_some()) {
        (None, true) => bad(entry, Problem::NoCommitment),
        (Some(_), false) => bad(entry, Problem::NotHidden),
        (Some(commitment), true) => match &recorded.salt {
            None => Ok(()),
            Some(salt_hex) => {
                let Some(salt) = salt_from_hex(salt_hex) else {
                    return bad(entry, Problem::Salt);
                };
                if commit(game_id, recorded.index, &recorded.text, &salt) != *commitment {
                    return bad(entry, Problem::Opening);
                }
                Ok(())
            }
        },
        (None, false) if recorded.salt.is_some() => bad(entry, Problem::SaltNotHidden),
        (None, false) => Ok(()),
    }
}
