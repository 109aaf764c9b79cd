//! Who acts (White, Black or Chance), who looks (a player or a spectator), and which seats may
//! see an event.

use crate::board::Color;
use serde::{Deserialize, Serialize};
use std::fmt::{self, Display};

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Actor {
    /// The first player.
    White,
    /// The second player.
    Black,
    /// Chance (a die): its outcomes have probabilities.
    Chance,
}

impl Actor {
    /// The player's colour, or `None` for Chance.
    pub fn color(self) -> Option<Color> {
        match self {
            Actor::White => Some(Color::White),
            Actor::Black => Some(Color::Black),
            Actor::Chance => None,
        }
    }

    /// The name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Actor::White => "white",
            Actor::Black => "black",
            Actor::Chance => "chance",
        }
    }
}

impl From<Color> for Actor {
    fn from(color: Color) -> Actor {
        match color {
            Color::White => Actor::White,
            Color::Black => Actor::Black,
        }
    }
}

impl Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Who looks: one of the players, or a spectator who sees only what is public to both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    /// The White player.
    White,
    /// The Black player.
    Black,
    /// Anyone else.
    Spectator,
}

impl Seat {
    /// All three seats.
    pub const ALL: [Seat; 3] = [Seat::White, Seat::Black, Seat::Spectator];

    /// The player's colour, or `None` for the spectator.
    pub fn color(self) -> Option<Color> {
        match self {
            Seat::White => Some(Color::White),
            Seat::Black => Some(Color::Black),
            Seat::Spectator => None,
        }
    }

    /// The name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Seat::White => "white",
            Seat::Black => "black",
            Seat::Spectator => "spectator",
        }
    }

    /// Reads `white`, `black` or `spectator`.
    pub fn parse(text: &str) -> Option<Seat> {
        Seat::ALL.into_iter().find(|s| s.name() == text)
    }
}

impl From<Color> for Seat {
    fn from(color: Color) -> Seat {
        match color {
            Color::White => Seat::White,
            Color::Black => Seat::Black,
        }
    }
}

impl Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which seats may see an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    /// Both players, and so spectators too.
    All,
    /// Only White.
    White,
    /// Only Black.
    Black,
}

impl Audience {
    /// Only the player of `color`.
    pub fn only(color: Color) -> Audience {
        match color {
            Color::White => Audience::White,
            Color::Black => Audience::Black,
        }
    }

    /// Whether `seat` may see it.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Audience::All => true,
            Audience::White => seat == Seat::White,
            Audience::Black => seat == Seat::Black,
        }
    }
}
