#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod any;
pub mod arbiter;
pub mod belief;
pub mod board;
pub mod chess;
pub mod commitment;
pub mod fact;
pub mod game;
pub mod log;
pub mod outcome;
pub mod playout;
pub mod registry;
pub mod variants;
