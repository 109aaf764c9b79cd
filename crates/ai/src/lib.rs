#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod alphabeta;
pub mod arena;
pub mod bot;
pub mod budget;
pub mod decision;
pub mod engine;
pub mod eval;
pub mod greedy;
pub mod ismcts;
pub mod setup;
pub mod sim;
pub mod spec;
pub mod variant;
pub mod worlds;

pub use bot::{Answer, Bot, BuiltIn};
pub use budget::Stop;
pub use decision::{Decision, DecisionError};
pub use spec::{BotSpec, Kind, SpecError};
