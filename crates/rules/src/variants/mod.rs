//! The variants, one folder each, all with the same shape: `mod.rs` (the state and its rules),
//! `actions.rs` (actions and their text), `view.rs` (what one seat may see), `resample.rs` (a
//! state consistent with one seat's view) and `tests.rs`.

pub mod alter_ego;
pub mod ambiguous;
pub mod bluff_move;
pub mod bs;
pub mod chess;
pub mod reality_check;
