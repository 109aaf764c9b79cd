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
use std::fmt;

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
            return bad(
                Entry::Variant,
                Problem::UnknownVariant(record.variant.clone()),
            )
        }
        Err(NewGameError::Option(e)) => return bad(Entry::Options, e),
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
fn check_roll(game: &AnyGame, entry: Entry, text: &str) -> Result<(), VerifyError> {
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

fn replay_meta(
    game: &mut AnyGame,
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
