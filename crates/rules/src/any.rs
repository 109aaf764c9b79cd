//! Every variant behind one enum, for code that picks the variant at run time (the command line,
//! the server): games ([`AnyGame`]) and views ([`AnyView`]) of any variant, and the variant of an
//! id ([`with_variant`]), all built from the one list of variants
//! ([`for_each_variant!`](crate::for_each_variant)); and the checking of any game record
//! ([`verify`]).

use crate::arbiter::{Arbiter, ArbiterError, Legal, Played};
use crate::board::Color;
use crate::commitment::SaltSource;
use crate::error::{shorten, BeliefError};
use crate::event::Event;
use crate::game::{Belief, Game};
use crate::options::{OptionError, Options};
use crate::outcome::Outcome;
use crate::record::{MetaKind, Record, RecordedAction};
use crate::seat::{Actor, Seat};
use crate::spec::VariantSpec;
use crate::verification::{verify_as, Entry, Problem, VerifyError};
use crate::view::View;
use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::Value;

/// The enums and dispatch over the one list of variants.
macro_rules! any_variant {
    ($($(#[$doc:meta])* $arm:ident($game:ty),)*) => {
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
                Err(ViewError::UnknownVariant(shorten(&variant)))
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

            /// Calls `visitor` with the view typed by its variant.
            pub fn visit<V: ViewVisitor>(&self, visitor: V) -> V::Output {
                match self {
                    $(AnyView::$arm(view) => visitor.visit::<$game>(view),)*
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
            Err(NewGameError::UnknownVariant(shorten(variant)))
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

crate::for_each_variant!(any_variant);

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
        struct Draw {
            seed: u64,
            count: usize,
        }
        impl ViewVisitor for Draw {
            type Output = Result<Vec<History>, BeliefError>;
            fn visit<G: Game>(self, view: &View<G::Summary>) -> Self::Output {
                let mut rng = StdRng::seed_from_u64(self.seed);
                let belief = G::Belief::from_view(view)?;
                Ok((0..self.count)
                    .map(|_| History::of(&belief.sample(&mut rng)))
                    .collect())
            }
        }
        self.visit(Draw { seed, count })
    }
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

impl ViewError {
    /// A stable machine id for the kind of refusal: `not-a-view`, `no-variant` or
    /// `unknown-variant`.
    pub fn id(&self) -> &'static str {
        match self {
            ViewError::Json(_) => "not-a-view",
            ViewError::NoVariant => "no-variant",
            ViewError::UnknownVariant(_) => "unknown-variant",
        }
    }
}

/// Code that runs on the type of a variant chosen at run time (see [`with_variant`]).
pub trait VariantVisitor {
    /// What it gives back.
    type Output;
    /// Runs on variant `G`.
    fn visit<G: Game>(self) -> Self::Output;
}

/// Code that runs on a view typed by its variant (see [`AnyView::visit`]).
pub trait ViewVisitor {
    /// What it gives back.
    type Output;
    /// Runs on a view of variant `G`.
    fn visit<G: Game>(self, view: &View<G::Summary>) -> Self::Output;
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

impl NewGameError {
    /// A stable machine id for the kind of refusal: `unknown-variant` or `bad-options`.
    pub fn id(&self) -> &'static str {
        match self {
            NewGameError::UnknownVariant(_) => "unknown-variant",
            NewGameError::Option(e) => e.id(),
        }
    }
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

    /// [`AnyGame::legal`] with each action's structure beside its text
    /// ([`Legal::legal_actions`]).
    pub fn legal_described(&self) -> Option<Legal> {
        dispatch!(self, g => g.legal_described())
    }

    /// Plays an action's text: its canonical text and the new events the actor may see.
    pub fn play(&mut self, text: &str) -> Result<Played, ArbiterError> {
        dispatch!(self, g => g.play(text))
    }

    /// Lets Chance act.
    pub fn roll(&mut self) -> Result<Played, ArbiterError> {
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

/// Replays a record and checks every action, every public text, every commitment against its
/// opening, and the outcome (see [`verify_as`], which does it for the record's
/// variant). Returns the outcome.
pub fn verify(record: &Record) -> Result<Option<Outcome>, VerifyError> {
    struct Verify<'a>(&'a Record);
    impl VariantVisitor for Verify<'_> {
        type Output = Result<Option<Outcome>, VerifyError>;
        fn visit<G: Game>(self) -> Self::Output {
            verify_as::<G>(self.0)
        }
    }
    with_variant(&record.variant, Verify(record)).unwrap_or_else(|_| {
        Err(VerifyError {
            entry: Entry::Variant,
            problem: Problem::UnknownVariant(record.variant.clone()),
        })
    })
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
