#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod action_info;
pub mod any;
pub mod arbiter;
pub mod belief;
pub mod board;
pub mod chess;
pub mod commitment;
pub mod error;
pub mod event;
pub mod fact;
pub mod game;
pub mod log;
pub mod options;
pub mod outcome;
pub mod playout;
pub mod protocol;
pub mod record;
pub mod registry;
pub(crate) mod repetition;
pub mod seat;
pub mod spec;
pub mod variants;
pub mod verification;
pub mod view;

pub use action_info::{ActionInfo, LegalAction, SquareName};
pub use any::{verify, AnyGame, AnyView, History};
pub use arbiter::{Arbiter, ArbiterError};
pub use board::{Color, Role, Square};
pub use chess::{Move, Position};
pub use commitment::SaltSource;
pub use error::{ActionError, BeliefError};
pub use event::{Event, EventKind};
pub use fact::Fact;
pub use game::{Belief, Game};
pub use log::Recording;
pub use options::Options;
pub use outcome::{EndReason, Outcome};
pub use record::Record;
pub use registry::VARIANTS;
pub use seat::{Actor, Audience, Seat};
pub use spec::VariantSpec;
pub use variants::{
    AlterEgo, AlterEgoBelief, Ambiguous, AmbiguousBelief, BluffMove, BluffMoveBelief, Bs, BsBelief,
    Chess, ChessBelief, RealityCheck, RealityCheckBelief,
};
pub use view::View;
