//! What a BS Chess piece really is: its hidden identity, which facts and views name. Which moves
//! each identity may make is BS Chess's own rule (`variants/bs/identity.rs`).

use super::role::Role;
use core::fmt;

/// What a piece really is; only its owner knows, until a call reveals it. In serialised data, its
/// name (`"knight"`).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Identity {
    /// Pawn ("Dude").
    Pawn,
    /// Knight ("Horsey").
    Knight,
    /// Bishop ("Pointy Hat").
    Bishop,
    /// Rook ("Fort Dude").
    Rook,
    /// Queen ("Lady Person").
    Queen,
    /// King ("Fancy Man").
    King,
    /// Spy (option `spy`): a pawn that may also capture the enemy king or queen.
    Spy,
}

impl Identity {
    /// Every identity, in type order (the spy last).
    pub const ALL: [Identity; 7] = [
        Identity::Pawn,
        Identity::Knight,
        Identity::Bishop,
        Identity::Rook,
        Identity::Queen,
        Identity::King,
        Identity::Spy,
    ];

    /// The letter used in setups (`P N B R Q K S`).
    pub const fn letter(self) -> char {
        match self {
            Identity::Pawn => 'P',
            Identity::Knight => 'N',
            Identity::Bishop => 'B',
            Identity::Rook => 'R',
            Identity::Queen => 'Q',
            Identity::King => 'K',
            Identity::Spy => 'S',
        }
    }

    /// Reads a setup letter (upper case).
    pub fn from_letter(c: char) -> Option<Identity> {
        Identity::ALL.into_iter().find(|i| i.letter() == c)
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Identity::Pawn => "pawn",
            Identity::Knight => "knight",
            Identity::Bishop => "bishop",
            Identity::Rook => "rook",
            Identity::Queen => "queen",
            Identity::King => "king",
            Identity::Spy => "spy",
        }
    }

    /// The seed's joke name, for the optional display theme.
    pub const fn silly_name(self) -> &'static str {
        match self {
            Identity::Pawn => "Dude",
            Identity::Knight => "Horsey",
            Identity::Bishop => "Pointy Hat",
            Identity::Rook => "Fort Dude",
            Identity::Queen => "Lady Person",
            Identity::King => "Fancy Man",
            Identity::Spy => "Spy",
        }
    }

    /// Whether a promotion may bring this type back from the pool.
    pub const fn can_be_promoted_to(self) -> bool {
        matches!(
            self,
            Identity::Knight | Identity::Bishop | Identity::Rook | Identity::Queen
        )
    }
}

impl From<Role> for Identity {
    /// The identity of the same name: chess pieces name their roles alike.
    fn from(role: Role) -> Identity {
        match role {
            Role::Pawn => Identity::Pawn,
            Role::Knight => Identity::Knight,
            Role::Bishop => Identity::Bishop,
            Role::Rook => Identity::Rook,
            Role::Queen => Identity::Queen,
            Role::King => Identity::King,
        }
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
