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
pub mod registry;
pub(crate) mod repetition;
pub mod seat;
pub mod spec;
pub mod variants;
pub mod view;

pub use action_info::{ActionInfo, LegalAction, SquareName};
pub use any::{verify, AnyGame, AnyView, History};
pub use arbiter::{Arbiter, ArbiterError, Record};
pub use belief::{Belief, BeliefError};
pub use board::{Color, Role, Square};
pub use chess::{Move, Position};
pub use commitment::SaltSource;
pub use game::{
    ActionError, Actor, Audience, EndReason, Event, EventKind, Fact, Game, Options, Outcome, Seat,
    View,
};
pub use log::Recording;
pub use registry::{VariantSpec, VARIANTS};
pub use variants::{
    AlterEgo, AlterEgoBelief, Ambiguous, AmbiguousBelief, BluffMove, BluffMoveBelief, Bs, BsBelief,
    Chess, ChessBelief, RealityCheck, RealityCheckBelief,
};
