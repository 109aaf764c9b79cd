//! Every variant behind one enum, for code that picks the variant at run time (the command line,
//! the server), and the checking of game records.

use crate::arbiter::{Arbiter, ArbiterError, Legal, MetaKind, Record, RecordedAction};
use crate::belief::{Belief, BeliefError};
use crate::board::Color;
use crate::commitment::{chain, commit, commit_seed, salt_from_hex, SaltSource};
use crate::game::{Actor, Event, Game, OptionError, Options, Outcome, Seat, View};
use crate::registry::VariantSpec;
use crate::variants::alter_ego::{AlterEgo, AlterEgoBelief};
use crate::variants::ambiguous::{Ambiguous, AmbiguousBelief};
use crate::variants::bluff_move::{BluffMove, BluffMoveBelief};
use crate::variants::bs::{Bs, BsBelief};
use crate::variants::chess::{Chess, ChessBelief};
use crate::variants::reality_check::{RealityCheck, RealityCheckBelief};
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

/// One line per variant: the enum arm and the variant's type. Adding a variant touches its folder
/// and this list.
macro_rules! variants {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
        /// The variants this build plays, in the order menus list them.
        pub const VARIANTS: &[&VariantSpec] = &[$(&<$game as Game>::SPEC),*];

        /// A game of any variant under its arbiter.
        // Games are made once and played in place, never copied in a hot loop: boxing buys nothing.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug)]
        pub enum AnyGame {
            $($(#[$doc])* $arm(Arbiter<$game>),)*
        }

        macro_rules! dispatch {
            ($self:expr, $g:ident => $body:expr) => {
                match $self {
                    $(AnyGame::$arm($g) => $body,)*
                }
            };
        }

        /// What one seat may know of a game of any variant: its typed view.
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        #[serde(untagged)]
        pub enum AnyView {
            $($(#[$doc])* $arm(View<<$game as Game>::Summary>),)*
        }

        impl AnyView {
            /// Reads a view from JSON, choosing its type by its `variant` field.
            pub fn from_json(json: &str) -> Result<AnyView, ViewError> {
                let value: Value = serde_json::from_str(json)
                    .map_err(|e| ViewError::Json(e.to_string()))?;
                let variant = value
                    .get("variant")
                    .and_then(Value::as_str)
                    .ok_or(ViewError::NoVariant)?
                    .to_string();
                $(if variant == <$game as Game>::ID {
                    return serde_json::from_value(value)
                        .map(AnyView::$arm)
                        .map_err(|e| ViewError::Json(e.to_string()));
                })*
                Err(ViewError::UnknownVariant(crate::game::shorten(&variant)))
            }

            /// The variant id.
            pub fn variant(&self) -> &str {
                match self {
                    $(AnyView::$arm(view) => &view.variant,)*
                }
            }

            /// Whose view it is.
            pub fn seat(&self) -> Seat {
                match self {
                    $(AnyView::$arm(view) => view.seat,)*
                }
            }

            /// Who acts next, if the game is not over.
            pub fn to_act(&self) -> Option<Actor> {
                match self {
                    $(AnyView::$arm(view) => view.to_act,)*
                }
            }

            /// Every event the seat may see.
            pub fn events(&self) -> &[Event] {
                match self {
                    $(AnyView::$arm(view) => &view.events,)*
                }
            }

            /// How the game ended, if it has.
            pub fn outcome(&self) -> Option<Outcome> {
                match self {
                    $(AnyView::$arm(view) => view.outcome,)*
                }
            }
        }

        impl AnyGame {
            /// What `seat` may know now, typed.
            pub fn typed_view(&self, seat: Seat) -> AnyView {
                match self {
                    $(AnyGame::$arm(g) => AnyView::$arm(g.view(seat)),)*
                }
            }
        }

        /// Calls `visitor` with the type of the variant whose id is `variant`.
        pub fn with_variant<V: VariantVisitor>(
            variant: &str,
            visitor: V,
        ) -> Result<V::Output, NewGameError> {
            $(if variant == <$game as Game>::ID {
                return Ok(visitor.visit::<$game>());
            })*
            Err(NewGameError::UnknownVariant(crate::game::shorten(variant)))
        }

        impl AnyGame {
            fn from_arbiter<G: Game>(arbiter: Arbiter<G>) -> AnyGame {
                let boxed: Box<dyn std::any::Any> = Box::new(arbiter);
                $(let boxed = match boxed.downcast::<Arbiter<$game>>() {
                    Ok(arbiter) => return AnyGame::$arm(*arbiter),
                    Err(other) => other,
                };)*
                drop(boxed);
                unreachable!("every Game is listed in variants!")
            }
        }
    };
}

variants! {
    /// Orthodox chess.
    Chess(Chess),
    /// Alter Ego Bluff Chess.
    AlterEgo(AlterEgo),
    /// Ambiguous Chess.
    Ambiguous(Ambiguous),
    /// Bluff-move Chess.
    BluffMove(BluffMove),
    /// Reality Check.
    RealityCheck(RealityCheck),
    /// BS Chess.
    Bs(Bs),
}

/// A whole game as a list of actions in canonical text: what a belief drew, replayable from the
/// start of its variant under its options (`bluffchess sample` prints these).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct History {
    /// The variant id.
    pub variant: String,
    /// The game's options.
    pub options: Options,
    /// Every action, in order, as the arbiter reads it.
    pub actions: Vec<String>,
}

impl History {
    /// The history of `game`.
    pub fn of<G: Game>(game: &G) -> History {
        History {
            variant: G::ID.to_string(),
            options: game.options(),
            actions: game.history().iter().map(|a| a.to_string()).collect(),
        }
    }
}

impl AnyView {
    /// `count` games drawn from the seat's belief built from this view, with a generator seeded
    /// by `seed` (the same view and seed, the same histories); an impossible view is refused.
    pub fn sample(&self, seed: u64, count: usize) -> Result<Vec<History>, BeliefError> {
        let mut rng = StdRng::seed_from_u64(seed);
        match self {
            AnyView::Chess(view) => draw::<ChessBelief>(view, &mut rng, count),
            AnyView::AlterEgo(view) => draw::<AlterEgoBelief>(view, &mut rng, count),
            AnyView::Ambiguous(view) => draw::<AmbiguousBelief>(view, &mut rng, count),
            AnyView::BluffMove(view) => draw::<BluffMoveBelief>(view, &mut rng, count),
            AnyView::RealityCheck(view) => draw::<RealityCheckBelief>(view, &mut rng, count),
            AnyView::Bs(view) => draw::<BsBelief>(view, &mut rng, count),
        }
    }
}

/// `count` histories drawn from the belief built from `view`.
fn draw<B: Belief>(
    view: &View<<B::Game as Game>::Summary>,
    rng: &mut StdRng,
    count: usize,
) -> Result<Vec<History>, BeliefError> {
    let belief = B::from_view(view)?;
    Ok((0..count)
        .map(|_| History::of(&belief.sample(rng)))
        .collect())
}

/// Why a view could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ViewError {
    /// Not JSON, or not a view of its variant.
    #[error("not a view: {0}")]
    Json(String),
    /// No `variant` field.
    #[error("not a view: it names no variant")]
    NoVariant,
    /// A variant this build does not play.
    #[error("unknown variant {0:?}: the variants are {list}", list = crate::registry::variant_ids())]
    UnknownVariant(String),
}

/// Code that runs on the type of a variant chosen at run time (see [`with_variant`]).
pub trait VariantVisitor {
    /// What it gives back.
    type Output;
    /// Runs on variant `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Why a game could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NewGameError {
    /// No such variant.
    #[error("unknown variant {0:?}: the variants are {list}", list = crate::registry::variant_ids())]
    UnknownVariant(String),
    /// A bad option.
    #[error(transparent)]
    Option(#[from] OptionError),
}

impl AnyGame {
    /// A new game of `variant`.
    pub fn new(
        variant: &str,
        options: &Options,
        seed: u64,
        salts: SaltSource,
    ) -> Result<AnyGame, NewGameError> {
        Self::with_id(variant, options, seed, salts, None)
    }

    fn with_id(
        variant: &str,
        options: &Options,
        seed: u64,
        salts: SaltSource,
        game_id: Option<String>,
    ) -> Result<AnyGame, NewGameError> {
        struct Make<'a> {
            options: &'a Options,
            seed: u64,
            salts: SaltSource,
            game_id: Option<String>,
        }
        impl VariantVisitor for Make<'_> {
            type Output = Result<AnyGame, OptionError>;
            fn visit<G: Game>(self) -> Self::Output {
                let arbiter: Arbiter<G> = match self.game_id {
                    Some(id) => Arbiter::with_id(self.options, self.seed, self.salts, id)?,
                    None => Arbiter::new(self.options, self.seed, self.salts)?,
                };
                Ok(AnyGame::from_arbiter(arbiter))
            }
        }
        let make = Make {
            options,
            seed,
            salts,
            game_id,
        };
        Ok(with_variant(variant, make)??)
    }

    /// The variant id.
    pub fn variant(&self) -> &'static str {
        self.spec().id
    }

    /// The variant's entry in the table of variants.
    pub fn spec(&self) -> &'static VariantSpec {
        fn spec_of<G: Game>(_: &Arbiter<G>) -> &'static VariantSpec {
            &G::SPEC
        }
        dispatch!(self, g => spec_of(g))
    }

    /// Who acts next, or `None` when the game is over.
    pub fn to_act(&self) -> Option<Actor> {
        dispatch!(self, g => g.to_act())
    }

    /// What the actor to act may do.
    pub fn legal(&self) -> Option<Legal> {
        dispatch!(self, g => g.legal())
    }

    /// Plays an action's text.
    pub fn play(&mut self, text: &str) -> Result<Vec<Event>, ArbiterError> {
        dispatch!(self, g => g.play(text))
    }

    /// Lets Chance act.
    pub fn roll(&mut self) -> Result<Vec<Event>, ArbiterError> {
        dispatch!(self, g => g.roll())
    }

    /// The same game, started as scripted: Chance's outcomes are chosen with
    /// [`AnyGame::play`] instead of drawn from the seed, and the record says so.
    pub fn scripted(self) -> AnyGame {
        dispatch!(self, g => AnyGame::from_arbiter(g.scripted()))
    }

    /// The seat whose draw offer stands, if any.
    pub fn draw_offer(&self) -> Option<Color> {
        dispatch!(self, g => g.draw_offer())
    }

    /// The commitment to the game's seed, public from the start.
    pub fn seed_commitment(&self) -> String {
        dispatch!(self, g => g.seed_commitment())
    }

    /// The outcome the seed gives Chance now, when Chance is to act.
    pub fn seeded_roll(&self) -> Option<String> {
        dispatch!(self, g => g.seeded_roll())
    }

    /// A resignation, draw offer, acceptance or claim.
    pub fn meta(&mut self, seat: Color, kind: MetaKind) -> Result<Vec<Event>, ArbiterError> {
        dispatch!(self, g => g.meta(seat, kind))
    }

    /// What `seat` may know now, as JSON.
    pub fn view(&self, seat: Seat) -> Value {
        dispatch!(self, g => serde_json::to_value(g.view(seat)).expect("views serialise"))
    }

    /// The position with everything revealed (as after the end), as JSON: for replays.
    pub fn revealed_position(&self) -> Value {
        dispatch!(self, g => serde_json::to_value(g.game().summary(Seat::Spectator, true))
            .expect("positions serialise"))
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        dispatch!(self, g => g.outcome())
    }

    /// The game record.
    pub fn record(&self) -> Record {
        dispatch!(self, g => g.record())
    }

    /// The record's entry for the last action played, without copying the whole record.
    pub fn last_recorded(&self) -> Option<&RecordedAction> {
        dispatch!(self, g => g.last_recorded())
    }

    /// A random legal action of the actor to act (none for Chance: roll instead).
    pub fn random_action(&mut self) -> Option<String> {
        dispatch!(self, g => g.random_action())
    }
}

/// What is wrong with a record: the first bad entry and the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{entry}: {problem}")]
pub struct VerifyError {
    /// The entry at fault (`variant`, `action 12`, `meta 0`, `outcome`).
    pub entry: String,
    /// What is wrong with it.
    pub problem: String,
}

fn bad<T>(entry: impl Into<String>, problem: impl Into<String>) -> Result<T, VerifyError> {
    Err(VerifyError {
        entry: entry.into(),
        problem: problem.into(),
    })
}

/// Replays a record and checks every action, every public text, every commitment against its
/// opening, and the outcome. Returns the outcome.
pub fn verify(record: &Record) -> Result<Option<Outcome>, VerifyError> {
    let mut game = match AnyGame::with_id(
        &record.variant,
        &record.options,
        record.seed,
        SaltSource::Seeded(record.seed),
        Some(record.game_id.clone()),
    ) {
        Ok(game) => game,
        Err(NewGameError::UnknownVariant(_)) => {
            return bad("variant", format!("unknown variant {:?}", record.variant))
        }
        Err(NewGameError::Option(e)) => return bad("options", e.to_string()),
    };
    // The replay chooses Chance's outcomes from the record, each checked against the seed first.
    game = game.scripted();
    check_seed(record)?;
    let mut metas = record.meta.iter().enumerate().peekable();
    for (i, recorded) in record.actions.iter().enumerate() {
        while let Some((m, meta)) = metas.next_if(|(_, meta)| meta.after <= i) {
            replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, i)?;
        }
        let entry = format!("action {i}");
        if recorded.index != i {
            return bad(
                entry,
                format!("its index is {}, expected {i}", recorded.index),
            );
        }
        if game.to_act() != Some(recorded.actor) {
            return bad(
                entry,
                format!(
                    "recorded as {}'s, but it is not {}'s turn",
                    recorded.actor, recorded.actor
                ),
            );
        }
        if !record.scripted {
            check_roll(&game, &entry, &recorded.text)?;
        }
        if let Err(e) = game.play(&recorded.text) {
            return bad(entry, format!("{e}"));
        }
        let replayed = game.last_recorded().expect("an action was played");
        check_action(&entry, recorded, replayed, &record.game_id)?;
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
            return bad(
                entry,
                "its digest does not match the record up to it: the record was altered",
            );
        }
    }
    for (m, meta) in metas {
        let after = record.actions.len();
        replay_meta(&mut game, m, meta.seat, meta.kind, meta.after, after)?;
    }
    let outcome = game.outcome();
    if outcome.is_some() && record.seed_commitment.is_some() && record.seed_salt.is_none() {
        return bad(
            "seed",
            "the game is over but the seed's commitment was never opened",
        );
    }
    if outcome.is_some() {
        if let Some(a) = record
            .actions
            .iter()
            .find(|a| a.commitment.is_some() && a.salt.is_none())
        {
            return bad(
                format!("action {}", a.index),
                "the game is over but its commitment was never opened",
            );
        }
    }
    if outcome != record.outcome {
        return bad(
            "outcome",
            format!(
                "recorded {}, the replay gives {}",
                outcome_text(record.outcome),
                outcome_text(outcome)
            ),
        );
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
        return bad("seed", "the seed's salt is not 64 hex digits");
    };
    if commit_seed(&record.game_id, record.seed, &salt) != *commitment {
        return bad(
            "seed",
            "the seed does not match its commitment: the seed was changed",
        );
    }
    Ok(())
}

/// Checks that Chance's recorded outcome is the one the seed gives.
fn check_roll(game: &AnyGame, entry: &str, text: &str) -> Result<(), VerifyError> {
    match game.seeded_roll() {
        Some(rolled) if rolled != text => bad(
            entry,
            format!(
                "Chance's outcome {text:?} is not the seed's, {rolled:?}: the roll was changed"
            ),
        ),
        _ => Ok(()),
    }
}

fn replay_meta(
    game: &mut AnyGame,
    index: usize,
    seat: Color,
    kind: MetaKind,
    after: usize,
    actions_so_far: usize,
) -> Result<(), VerifyError> {
    let entry = format!("meta {index}");
    if after != actions_so_far {
        return bad(
            entry,
            format!("placed after action count {after}, which is out of order"),
        );
    }
    game.meta(seat, kind)
        .map(drop)
        .or_else(|e| bad(entry, e.to_string()))
}

fn check_action(
    entry: &str,
    recorded: &RecordedAction,
    replayed: &RecordedAction,
    game_id: &str,
) -> Result<(), VerifyError> {
    if recorded.text != replayed.text {
        return bad(
            entry,
            format!(
                "{:?} is not in canonical form ({:?})",
                recorded.text, replayed.text
            ),
        );
    }
    if recorded.public != replayed.public {
        return bad(
            entry,
            format!(
                "public text {:?} differs from the rules' {:?}",
                recorded.public, replayed.public
            ),
        );
    }
    match (&recorded.commitment, replayed.commitment.is_some()) {
        (None, true) => bad(entry, "a hidden action without a commitment"),
        (Some(_), false) => bad(entry, "a commitment on an action that is not hidden"),
        (Some(commitment), true) => match &recorded.salt {
            None => Ok(()),
            Some(salt_hex) => {
                let Some(salt) = salt_from_hex(salt_hex) else {
                    return bad(entry, "the salt is not 64 hex digits");
                };
                if commit(game_id, recorded.index, &recorded.text, &salt) != *commitment {
                    return bad(entry, "the opening does not match its commitment");
                }
                Ok(())
            }
        },
        (None, false) if recorded.salt.is_some() => {
            bad(entry, "a salt on an action that is not hidden")
        }
        (None, false) => Ok(()),
    }
}

/// The number of action sequences of `depth` actions from the start of `variant`, after setups
/// drawn from `seed`; with `divide`, also the count below each first action.
pub fn perft(
    variant: &str,
    options: &Options,
    seed: u64,
    depth: u32,
) -> Result<(u64, Vec<(String, u64)>), NewGameError> {
    struct Count<'a> {
        options: &'a Options,
        seed: u64,
        depth: u32,
    }
    impl VariantVisitor for Count<'_> {
        type Output = Result<(u64, Vec<(String, u64)>), OptionError>;
        fn visit<G: Game>(self) -> Self::Output {
            use rand::SeedableRng;
            let mut game = G::new(self.options)?;
            let mut rng = rand::rngs::StdRng::seed_from_u64(self.seed);
            crate::playout::fix_setups(&mut game, &mut rng);
            let divided = crate::playout::divide(&game, self.depth);
            let total = divided
                .iter()
                .map(|(_, n)| n)
                .sum::<u64>()
                .max(u64::from(self.depth == 0));
            Ok((total, divided))
        }
    }
    let count = Count {
        options,
        seed,
        depth,
    };
    Ok(with_variant(variant, count)??)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_views_read_back_from_their_json() {
        for spec in crate::registry::VARIANTS {
            let mut game =
                AnyGame::new(spec.id, &Options::new(), 3, SaltSource::Seeded(3)).unwrap();
            for _ in 0..12 {
                match game.to_act() {
                    Some(Actor::Chance) => drop(game.roll().unwrap()),
                    Some(_) => {
                        let action = game.random_action().unwrap();
                        game.play(&action).unwrap();
                    }
                    None => break,
                }
            }
            for seat in Seat::ALL {
                let view = game.typed_view(seat);
                let json = serde_json::to_string(&view).unwrap();
                assert_eq!(serde_json::to_value(&view).unwrap(), game.view(seat));
                let back = AnyView::from_json(&json).unwrap();
                assert_eq!(back, view, "{} {seat}", spec.id);
                assert_eq!(back.variant(), spec.id);
            }
        }
    }

    #[test]
    fn a_view_that_is_not_one_is_refused_by_name() {
        assert!(matches!(AnyView::from_json("{"), Err(ViewError::Json(_))));
        assert_eq!(AnyView::from_json("{}"), Err(ViewError::NoVariant));
        let err = AnyView::from_json(r#"{"variant":"fog"}"#).unwrap_err();
        assert!(err.to_string().contains("unknown variant \"fog\""), "{err}");
        let err = AnyView::from_json(r#"{"variant":"chess","seat":"white"}"#).unwrap_err();
        assert!(err.to_string().starts_with("not a view"), "{err}");
    }
}
