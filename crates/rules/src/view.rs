//! A view: what one seat may know now, its events and the position as it knows it.

use crate::event::Event;
use crate::options::Options;
use crate::outcome::Outcome;
use crate::seat::{Actor, Seat};
use serde::{Deserialize, Serialize};

/// What one seat may know now: its events and a summary of the position as it knows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View<S> {
    /// The variant id.
    pub variant: String,
    /// The rules options in force (every option, defaults included): the rules are public, so a
    /// view is self-contained.
    #[serde(default)]
    pub options: Options,
    /// Whose view it is.
    pub seat: Seat,
    /// Who acts next, if the game is not over.
    pub to_act: Option<Actor>,
    /// Every event the seat may see, in order.
    pub events: Vec<Event>,
    /// The position as the seat knows it.
    pub position: S,
    /// How the game ended, if it has.
    pub outcome: Option<Outcome>,
}
