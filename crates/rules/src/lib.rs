#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod board;
pub mod chess;
pub mod game;
pub mod variants;
