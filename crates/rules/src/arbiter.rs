//! The arbiter: holds one game's truth and everything around the rules that every variant shares:
//! the commitments to hidden choices and their openings, resignation, draw offers and claims, the
//! seed (committed at the start, opened at the end) that Chance's outcomes and random setups are
//! drawn from, and the game's record (`crate::record`; its verification is `crate::verification`).

use crate::action_info::{ActionInfo, LegalAction};
use crate::board::Color;
use crate::commitment::{chain, chance_rng, commit, commit_seed, to_hex, Salt, SaltSource};
use crate::error::ActionError;
use crate::event::{Event, EventKind};
use crate::game::Game;
use crate::options::{OptionError, Options};
use crate::outcome::{EndReason, Outcome};
use crate::record::{MetaKind, Record, RecordedAction, RecordedMeta};
use crate::seat::{Actor, Audience, Seat};
use crate::view::View;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde::Serialize;

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

/// An action the arbiter played: its canonical text, as the record keeps it, and the new events
/// its actor may see.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The canonical text (`setup random` played as the setup it drew).
    pub text: String,
    /// The new events the actor may see.
    pub events: Vec<Event>,
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
    /// [`Arbiter::scripted`]). Returns its canonical text and the new events the actor may see.
    ///
    /// # Examples
    ///
    /// ```
    /// use bluffchess_rules::{AlterEgo, Arbiter, Options, SaltSource, Seat};
    /// let mut arbiter: Arbiter<AlterEgo> = Arbiter::new(&Options::new(), 7, SaltSource::Os)?;
    /// for text in ["e2e4", "d7d5"] { arbiter.play(text)?; } // a death move: Black decides
    /// let played = arbiter.play(" stay")?;
    /// assert_eq!(played.text, "stay"); // the canonical text, as the record keeps it
    /// // The hidden decision is committed: White receives the hash now, the salt at the reveal.
    /// let sealed = arbiter.view(Seat::White).events.pop().unwrap();
    /// assert_eq!(sealed.text, "decision");
    /// assert_eq!(sealed.commitment.unwrap().len(), 64);
    /// assert_eq!(played.events.last().unwrap().text, "stay"); // Black's own view of it
    /// assert!(arbiter.play("stay").is_err()); // White moves now, and nothing changes
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn play(&mut self, text: &str) -> Result<Played, ArbiterError> {
        if self.to_act() == Some(Actor::Chance) && !self.scripted {
            return Err(ArbiterError::NotScripted);
        }
        let action = self.read(text)?;
        self.apply(&action)
    }

    /// Lets Chance act: its outcome is drawn from a generator seeded by the game's seed and the
    /// action's index (see [`crate::commitment::chance_rng`]), so `verify` can recompute it.
    pub fn roll(&mut self) -> Result<Played, ArbiterError> {
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

    fn apply(&mut self, action: &G::Action) -> Result<Played, ArbiterError> {
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
            text: text.clone(),
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
        let events = self.decorate(
            self.game.events()[first_event..]
                .iter()
                .filter(|e| e.seats.includes(seat))
                .cloned()
                .collect(),
        );
        Ok(Played { text, events })
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
